//! Benchmark: running conversations.
//!
//! `cargo bench -p plan-cli --bench chat` prints the cost of one turn (the simulator reading the
//! message, `step`, the reply) and of `step` alone, and the wall time of `plan test` over 1,000
//! saved conversations of 10 turns each (the medical intake's GP route, with varied answers).
//! Target (issue 5): `plan test` over the 1,000 under 1 second.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use plan_core::runtime::script::Script;
use plan_core::runtime::{step, Chat, PlanRef, PlanVersion, Simulator};
use plan_core::store::Workspace;
use serde_json::json;

#[path = "../../tests/harness/timing.rs"]
mod timing;
use timing::median;

/// Conversation `i`: ten turns down the GP route, with its own age, duration and risk score.
fn conversation(i: usize) -> Script {
    let turns = json!({"turns": [
        {"user": "yes"},
        {"user": format!("{} years old", 18 + i % 70)},
        {"user": format!("a cough, case {i}")},
        {"user": "moderate", "expect": {"state": "medical-intake"}},
        {"user": format!("about {} days", 1 + i % 20), "expect": {"deliverables": {"duration_days": 1 + i % 20}}},
        {"user": "ibuprofen"},
        {"user": format!("I'd say {}", 4 + i % 4), "expect": {"state": "gp-appointment"}},
        {"user": "Tuesday would be best"},
        {"user": "in the morning please", "expect": {"state": "wrap-up"}},
        {"user": "yes, that's right", "expect": {"ended": "complete"}}
    ]});
    serde_json::from_value(turns).expect("a script")
}

fn main() {
    let text = include_str!("../../plans/medical-intake.json");
    let plan = plan_core::parse_plan(text).expect("the sample plan");
    let r = PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::Draft,
        content_hash: plan_core::hash::content_hash(&plan),
    };

    // One turn in process: the simulator's reading, step and reply; then step alone.
    let script = conversation(7);
    let rounds = 2_000;
    let mut turns = 0u32;
    let mut recorded = Vec::new();
    let t = Instant::now();
    for round in 0..rounds {
        let (mut chat, _) = Chat::open(&plan, &Simulator, r.clone()).expect("opens");
        for turn in &script.turns {
            if round == 0 {
                let actions =
                    Simulator.actions(&plan, &chat.session, &turn.user, &Default::default());
                recorded.push((chat.session.clone(), turn.user.clone(), actions));
            }
            chat.say(&turn.user).expect("a turn");
            turns += 1;
        }
    }
    let per_turn = t.elapsed() / turns;
    let t = Instant::now();
    for _ in 0..rounds {
        for (session, message, actions) in &recorded {
            std::hint::black_box(step(&plan, session, message, actions).expect("a step"));
        }
    }
    let per_step = t.elapsed() / (rounds * recorded.len() as u32);
    println!(
        "one turn (simulator + step + reply): {:.1} µs",
        per_turn.as_secs_f64() * 1e6
    );
    println!(
        "step alone:                          {:.1} µs",
        per_step.as_secs_f64() * 1e6
    );

    // `plan test` over 1,000 saved conversations of 10 turns.
    let dir = std::env::temp_dir().join(format!("plan-chat-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let ws = Workspace::open(&dir, "2026-01-01T00:00:00Z").expect("a workspace");
    let tests = ws.plan_dir("medical-intake").expect("dir").join("tests");
    for entry in std::fs::read_dir(&tests).expect("tests/").flatten() {
        let _ = std::fs::remove_file(entry.path());
    }
    for i in 0..1_000 {
        let text = serde_json::to_string_pretty(&conversation(i)).expect("json");
        std::fs::write(tests.join(format!("gp-{i:04}.json")), text).expect("written");
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_plan"));
    let mut runs = Vec::new();
    for _ in 0..7 {
        let t = Instant::now();
        let out = Command::new(bin)
            .args(["test", "medical-intake", "--workspace"])
            .arg(&dir)
            .output()
            .expect("plan test runs");
        runs.push(t.elapsed());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            stdout.lines().last(),
            Some("1000 passed, 0 failed"),
            "{stdout}"
        );
    }
    let wall = median(runs.clone());
    println!(
        "plan test, 1,000 conversations × 10 turns: median {:.0} ms (min {:.0}, max {:.0}; target < 1000 ms)",
        wall.as_secs_f64() * 1e3,
        runs.iter().min().unwrap().as_secs_f64() * 1e3,
        runs.iter().max().unwrap().as_secs_f64() * 1e3
    );
    let _ = std::fs::remove_dir_all(&dir);
}
