//! Benchmark: the three-way merge of two large drafts (issue 45's target: two 1,000-state drafts
//! with 100 changes on each side under 100 ms).
//!
//! `cargo bench -p plan-core --bench merge` prints, for synthetic plans of 1,000 and 5,000
//! states with 100 different states retitled on each side (and 10 of them on both, which are
//! conflicts), each side read from its own text, the median time of `merge::merge` and how many
//! conflicts it found.

use std::time::Instant;

use plan_core::merge::merge;
use plan_core::plan::Plan;
use plan_core::synthetic;

#[path = "../../tests/harness/timing.rs"]
mod timing;
use timing::{median, ms};

/// `base` with the titles of states `from..from + n` (by position) changed to `word` + position.
fn retitled(base: &Plan, from: usize, n: usize, word: &str) -> Plan {
    let mut plan = base.clone();
    for (i, state) in plan.states.iter_mut().enumerate().skip(from).take(n) {
        std::sync::Arc::make_mut(state).title = format!("{word} {i}");
    }
    plan
}

fn main() {
    println!("{:>7} {:>10} {:>10}", "states", "merge", "conflicts");
    for states in [1_000, 5_000] {
        // Each side read from its own text, as git's driver reads three files: no state shared.
        let read = |p: &Plan| plan_core::parse_plan(&serde_json::to_string(p).unwrap()).unwrap();
        let base = synthetic::plan(states);
        let ours = read(&retitled(&base, 0, 100, "ours"));
        let theirs = read(&retitled(&base, 90, 100, "theirs"));
        let base = read(&base);
        let mut times = Vec::new();
        let mut conflicts = 0;
        for _ in 0..9 {
            let began = Instant::now();
            let merged = merge(Some(&base), &ours, &theirs);
            times.push(began.elapsed());
            conflicts = merged.conflicts.len();
        }
        println!(
            "{states:>7} {:>10} {conflicts:>10}",
            ms(median(times.clone()))
        );
    }
}
