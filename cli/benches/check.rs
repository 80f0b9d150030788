//! Benchmark: reading and validating large plans, and `plan check` on them end to end.
//!
//! `cargo bench -p plan-cli --bench check` prints, for synthetic plans of 1,000 and 10,000 states
//! (3 tasks and up to 3 transitions each, composite conditions, loops): the median parse time, the
//! median validate time, their ratio, and the median wall time of the `plan check` process. Targets
//! (issue 3): validate ≤ half the parse time at 10,000 states; `plan check` under 250 ms there.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::Command;

#[path = "../../tests/harness/timing.rs"]
mod timing;
use timing::{ms, time};

use plan_core::{parse_plan, synthetic, validate};

fn main() {
    let dir = std::env::temp_dir().join(format!("plan-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    println!(
        "{:>7} {:>9} {:>8} {:>12} {:>12} {:>9} {:>14}",
        "states", "transit.", "MiB", "parse", "validate", "ratio", "plan check"
    );
    for states in [1_000, 10_000] {
        let plan = synthetic::plan(states);
        let text = serde_json::to_string_pretty(&plan).expect("serializes");
        let reps = if states > 5_000 { 11 } else { 31 };
        let parse = time(reps, || parse_plan(&text).expect("parses"));
        let report = validate(&plan);
        assert!(!report.has_errors(), "the synthetic plan is clean");
        let check = time(reps, || validate(&plan));
        let file = dir.join(format!("plan-{states}.json"));
        std::fs::write(&file, &text).expect("written");
        let wall = time(reps, || {
            let status = Command::new(env!("CARGO_BIN_EXE_plan"))
                .arg("check")
                .arg(&file)
                .stdout(std::process::Stdio::null())
                .status()
                .expect("plan check runs");
            assert!(status.success());
        });
        println!(
            "{:>7} {:>9} {:>8.1} {:>12} {:>12} {:>9.2} {:>14}",
            states,
            plan.transition_count(),
            text.len() as f64 / (1024.0 * 1024.0),
            ms(parse),
            ms(check),
            check.as_secs_f64() / parse.as_secs_f64(),
            ms(wall)
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
