//! Benchmark: session states (issue 17).
//!
//! `cargo bench -p plan-cli --bench session_states` prints: the median parse and validate times of
//! the 10,000-state synthetic plan with 200 session states and a template in every state, and
//! their ratio (target ≤ 0.50); the median time to render a turn's prompt (target ≤ 20 µs); and
//! the median time of one turn with 200 session states and their automatic rules (target
//! ≤ 50 µs).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::hint::black_box;

#[path = "../../tests/harness/timing.rs"]
mod timing;
use timing::{interleaved, per_call, time};

use plan_core::runtime::{prompt, start, step, Action, PlanRef, PlanVersion};
use plan_core::validate::validate_parsed;
use plan_core::{parse_plan, synthetic, validate};

fn main() {
    let plan = synthetic::with_session_states(10_000, 200);
    let text = serde_json::to_string_pretty(&plan).expect("serializes");
    let report = validate(&plan);
    assert!(
        !report.has_errors(),
        "the synthetic plan is clean: {:?}",
        report.codes()
    );
    // `PLAN_BENCH_PROFILE=1`: three parses and three validations and nothing else, for a
    // profiler, whose instruction counts do not drift as this shared machine's clock does:
    // `valgrind --tool=callgrind --toggle-collect='plan_core::validate::validate' …` (or
    // `plan_core::parse::parse_plan`).
    // `PLAN_BENCH_PROFILE=validate`: the plan-check validation forty times, for `perf record`,
    // whose samples then fall in validation rather than in making the plan.
    if std::env::var("PLAN_BENCH_PROFILE").as_deref() == Ok("validate") {
        for _ in 0..40 {
            black_box(validate_parsed(&plan));
        }
        return;
    }
    if std::env::var_os("PLAN_BENCH_PROFILE").is_some() {
        for _ in 0..3 {
            black_box(parse_plan(&text).expect("parses"));
            black_box(validate(&plan));
        }
        return;
    }
    // Parse and validate are timed in turn, run after run, so that the machine's drift (a shared
    // VM here: a run's parse time moves by ±30 % from one minute to the next) touches both alike.
    let (parse, check) = interleaved(
        15,
        || parse_plan(&text).expect("parses"),
        || validate(&plan),
    );
    println!(
        "10,000 states, 200 session states: parse {:.2} ms, validate {:.2} ms, ratio {:.2} (target ≤ 0.50)",
        parse.as_secs_f64() * 1e3,
        check.as_secs_f64() * 1e3,
        check.as_secs_f64() / parse.as_secs_f64()
    );
    // As `plan check` runs it: `parse_plan` checks the shape rules while reading, and validation
    // does not check them again (`validate` of a plan from anywhere does).
    let (parse, check) = interleaved(
        15,
        || parse_plan(&text).expect("parses"),
        || validate_parsed(&plan),
    );
    println!(
        "  as plan check runs it: parse {:.2} ms, validate {:.2} ms, ratio {:.2} (target ≤ 0.50)",
        parse.as_secs_f64() * 1e3,
        check.as_secs_f64() * 1e3,
        check.as_secs_f64() / parse.as_secs_f64()
    );

    // Where the time goes: without the effects, then also without the templates.
    let mut no_effects = plan.clone();
    for st in no_effects.states_mut() {
        for t in &mut st.transitions {
            t.effects.clear();
        }
    }
    let without_effects = time(11, || validate(&no_effects));
    let mut no_templates = no_effects.clone();
    for st in no_templates.states_mut() {
        st.instructions = "Help the customer.".into();
    }
    let without_templates = time(11, || validate(&no_templates));
    println!(
        "  validate without the effects {:.2} ms, and without the templates {:.2} ms",
        without_effects.as_secs_f64() * 1e3,
        without_templates.as_secs_f64() * 1e3
    );

    // The same plan without session states or templates, for comparison.
    let plain = synthetic::plan(10_000);
    let plain_text = serde_json::to_string_pretty(&plain).expect("serializes");
    let (plain_parse, plain_check) = interleaved(
        15,
        || parse_plan(&plain_text).expect("parses"),
        || validate(&plain),
    );
    println!(
        "10,000 states without session states: parse {:.2} ms, validate {:.2} ms, ratio {:.2}",
        plain_parse.as_secs_f64() * 1e3,
        plain_check.as_secs_f64() * 1e3,
        plain_check.as_secs_f64() / plain_parse.as_secs_f64()
    );

    // A small plan with the same 200 session states: the turn's own cost, not the plan's size.
    let small = synthetic::with_session_states(20, 200);
    let r = PlanRef {
        id: small.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    let (session, _) = start(&small, r).expect("starts");
    let (session, _) = step(&small, &session, "", &[]).expect("a turn");
    let rendered = per_call(31, 2_000, || prompt(&small, &session));
    println!(
        "a turn's prompt with {} bytes: {:.2} µs (target ≤ 20 µs)",
        prompt(&small, &session).len(),
        rendered.as_secs_f64() * 1e6
    );
    let actions = [Action::SetSessionState {
        session_state: "ss2".into(),
        value: None,
        add: Some(1.into()),
        active: Some(true),
    }];
    let turn = per_call(31, 500, || {
        step(&small, &session, "hello", &actions).expect("a turn")
    });
    println!(
        "a turn with 200 session states and their rules: {:.2} µs (target ≤ 50 µs)",
        turn.as_secs_f64() * 1e6
    );
}
