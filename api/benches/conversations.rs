//! Benchmark: the test chat's operations as the shell runs them (`plan_api::conversations`,
//! files and fsync included), on a generated plan of 1,000 states.
//!
//! `cargo bench -p plan-api --bench conversations` prints:
//! - one turn (`conversations::say`: the session and its log read, the draft read and checked,
//!   the step, both saved) over 40 turns, p50 and p95, with its parts, and the answer's JSON
//!   (what crosses to the page);
//! - the suite of 200 saved cases of 10 turns (`conversations::run_suite`).
//!
//! Targets (issue 16): a turn in the app ≤ 50 ms at p95 (this is the shell's share), the suite
//! ≤ 1 s in the app.

use std::time::{Duration, Instant};

// The shell's allocator, so the figures are the app's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use plan_api::conversations::{self, StartChat};
use plan_api::Context;
use plan_core::runtime::{Start, ToolResults};
use plan_core::{synthetic, Revision};
use serde_json::json;

#[path = "../../tests/harness/timing.rs"]
mod timing;
use timing::ms;

fn percentile(runs: &mut [Duration], p: f64) -> Duration {
    runs.sort();
    runs[((runs.len() as f64 * p) as usize).min(runs.len() - 1)]
}

/// The message that moves the generated plan on from an even state two states.
fn moving(i: usize) -> String {
    format!("/set topic_{i} billing\n/set score_{i} 9")
}

fn main() {
    let dir = std::env::temp_dir().join(format!("plan-chat-bench-{}", std::process::id()));
    let ctx = Context::open(&dir, || "2026-01-01T00:00:00Z".into()).expect("a workspace");
    let ws = ctx.workspace().clone();
    let mut plan = synthetic::plan(1_000);
    plan.id = "big".into();
    ws.create("big", plan.clone(), "2026-01-01T00:00:00Z")
        .expect("created");

    let request = StartChat {
        id: "big".into(),
        revision: Some(Revision::Draft),
        start: Start::default(),
    };
    let t = Instant::now();
    let opened = conversations::start(&ctx, &request).expect("starts");
    let started = t.elapsed();
    let name = opened.name.clone();
    let mut turns = Vec::new();
    let mut answers = Vec::new();
    let mut state = opened.session.state_id.clone();
    let mut size = 0;
    for _ in 0..40 {
        let i: usize = state[1..].parse().expect("s<i>");
        let t = Instant::now();
        let view = conversations::say(&ctx, "big", &name, &moving(i), &ToolResults::new())
            .expect("a turn");
        turns.push(t.elapsed());
        let t = Instant::now();
        let json = serde_json::to_vec(&view).expect("serializes");
        answers.push(t.elapsed());
        size = json.len();
        state = view.session.state_id.clone();
    }
    println!(
        "a conversation begun on 1,000 states in {}; 40 turns to {state}",
        ms(started)
    );
    println!(
        "one turn (conversations::say): p50 {}  p95 {}",
        ms(percentile(&mut turns.clone(), 0.5)),
        ms(percentile(&mut turns, 0.95))
    );
    println!(
        "its answer after 40 turns: {} KB of JSON, made in p50 {}",
        size / 1024,
        ms(percentile(&mut answers, 0.5))
    );
    // The parts of a turn that do not depend on the conversation's length.
    let mut read = Vec::new();
    for _ in 0..11 {
        let t = Instant::now();
        let target =
            plan_api::target::target_plan(&ws, "big", Some(Revision::Draft)).expect("reads");
        read.push(t.elapsed());
        std::hint::black_box(target);
    }
    println!(
        "  of which the draft read, checked and hashed (target::target_plan): p50 {}",
        ms(percentile(&mut read, 0.5))
    );

    // The suite: 200 cases of 10 turns from even states across the plan.
    let tests = ws.root().join("big").join("tests");
    std::fs::create_dir_all(&tests).expect("tests/");
    for k in 0..200 {
        let mut i = 2 * ((k * 7) % 450);
        let start = i;
        let turns: Vec<_> = (0..10)
            .map(|_| {
                let t = json!({"user": moving(i), "expect": {"state": format!("s{}", i + 2)}});
                i += 2;
                t
            })
            .collect();
        let case = json!({"start": {"state": format!("s{start}")}, "turns": turns});
        std::fs::write(tests.join(format!("walk-{k:03}.json")), case.to_string()).expect("saved");
    }
    let mut runs = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let run = conversations::run_suite(&ctx, "big", None, &mut |_, _| {}).expect("runs");
        runs.push(t.elapsed());
        assert!(run.cases.iter().all(|c| c.passed), "every case passes");
    }
    println!(
        "the suite of 200 cases × 10 turns (conversations::run_suite): median {}",
        ms(percentile(&mut runs, 0.5))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
