//! Benchmark: interruptions (issue 18).
//!
//! `cargo bench -p plan-cli --bench interruptions` prints: the median parse and validate times of
//! the 10,000-state synthetic plan with 50 interruptions that may each fire in every state (target:
//! validate ≤ ½ of parse; the graph holds them through two virtual "any state" nodes, not 500,000
//! edges), beside the same plan without them; and the median time of one turn with 50
//! interruptions (target ≤ 50 µs), judged before the state's transitions.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../../tests/harness/timing.rs"]
mod timing;
use timing::{interleaved, per_call};

use plan_core::runtime::{start, step, PlanRef, PlanVersion, Simulator};
use plan_core::{parse_plan, synthetic, validate};

fn main() {
    for (what, plan) in [
        (
            "50 interruptions",
            synthetic::with_interruptions(10_000, 50),
        ),
        ("no interruptions", synthetic::plan(10_000)),
    ] {
        let report = validate(&plan);
        assert!(!report.has_errors(), "{what}: {:?}", report.codes());
        let text = serde_json::to_string_pretty(&plan).expect("serializes");
        let (parse, check) = interleaved(
            15,
            || parse_plan(&text).expect("parses"),
            || validate(&plan),
        );
        println!(
            "10,000 states, {what}: parse {:.2} ms, validate {:.2} ms, ratio {:.2} (target ≤ 0.50)",
            parse.as_secs_f64() * 1e3,
            check.as_secs_f64() * 1e3,
            check.as_secs_f64() / parse.as_secs_f64()
        );
    }

    // A turn's own cost with 50 interruptions: a small plan, a message that no phrase matches
    // (so every interruption is judged and none fires), and one that parks the task.
    let small = synthetic::with_interruptions(20, 50);
    let r = PlanRef {
        id: small.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    let (session, _) = start(&small, r).expect("starts");
    for message in ["billing", "question 7"] {
        let actions = Simulator.actions(&small, &session, message, &Default::default());
        let turn = per_call(31, 2_000, || {
            step(&small, &session, message, &actions).expect("a turn")
        });
        println!(
            "a turn with 50 interruptions ({message:?}): {:.2} µs (target ≤ 50 µs)",
            turn.as_secs_f64() * 1e6
        );
        let read = per_call(31, 2_000, || {
            Simulator.actions(&small, &session, message, &Default::default())
        });
        println!(
            "  the simulator reading it for phrases: {:.2} µs",
            read.as_secs_f64() * 1e6
        );
    }
}
