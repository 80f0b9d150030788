//! How exploring scales (explore.md; issue 32): each sample plan explored completely, on one
//! thread and on every core, with its moves per second per core and its stored bytes per
//! configuration; the synthetic plans of 100, 1,000 and 5,000 states; one sample against
//! `max_turns`. Prints figures; asserts nothing (the tests do that).
//!
//! `cargo bench -p plan-core --bench explore` (release). `EXPLORE_BENCH_QUICK=1` skips the
//! million-configuration runs; `EXPLORE_BENCH_ONLY=<text>` runs only the lines whose name has it;
//! `EXPLORE_BENCH_THREADS=N` runs each only on N threads.

use std::time::Instant;

// As `plan` and the app: glibc's allocator spent half the search's time in its own bookkeeping.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use plan_core::explore::{explore_parallel, Bounds, Explored};
use plan_core::plan::Plan;
use plan_core::runtime::Start;

fn sample(id: &str) -> Plan {
    let text =
        std::fs::read_to_string(format!("{}/../plans/{id}.json", env!("CARGO_MANIFEST_DIR")))
            .expect("the sample plans are in plans/");
    plan_core::parse::parse_plan(&text).expect("a sample plan parses")
}

fn run(plan: &Plan, bounds: Bounds, threads: usize) -> (Explored, f64) {
    let began = Instant::now();
    let e = explore_parallel(
        plan,
        &Start::default(),
        bounds,
        threads,
        &|| false,
        &mut |_| {},
    );
    (e, began.elapsed().as_secs_f64())
}

fn line(name: &str, plan: &Plan, bounds: Bounds, cores: usize) {
    if std::env::var("EXPLORE_BENCH_ONLY").is_ok_and(|only| !name.contains(&only)) {
        return;
    }
    // EXPLORE_BENCH_THREADS=N: only the run on N threads (to profile it alone).
    if let Some(n) = std::env::var("EXPLORE_BENCH_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        let (e, t) = run(plan, bounds, n);
        println!(
            "{name:<28} {:>9} configurations  {n} threads {:>8.0} ms",
            e.configurations,
            t * 1e3
        );
        return;
    }
    let (one, t1) = run(plan, bounds, 1);
    let (many, tn) = run(plan, bounds, cores);
    assert_eq!(one, many, "{name}: several threads found something else");
    let c = one.cost;
    println!(
        "{name:<28} {:>9} configurations {:>10} moves  1 thread {:>8.0} ms ({:>7.0} moves/s)  {cores} threads {:>8.0} ms  {:>4} B/configuration{}",
        one.configurations,
        c.moves,
        t1 * 1e3,
        c.moves as f64 / t1,
        tn * 1e3,
        c.stored_bytes / one.configurations.max(1),
        if one.complete { "" } else { "  (cut by a bound)" },
    );
}

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("Each sample plan, complete (40 turns):");
    for id in [
        "collections",
        "daily-routine",
        "medical-intake",
        "customer-support",
        "vehicle-viewing",
        "account-care",
    ] {
        line(id, &sample(id), Bounds::default(), cores);
    }
    println!("Against max_turns (account-care):");
    for turns in [5, 10, 20, 40] {
        let bounds = Bounds {
            max_turns: turns,
            ..Bounds::default()
        };
        line(
            &format!("account-care, {turns} turns"),
            &sample("account-care"),
            bounds,
            cores,
        );
    }
    println!("Synthetic plans, against their size:");
    let quick = std::env::var_os("EXPLORE_BENCH_QUICK").is_some();
    for (states, most) in [(100, 1_000_000), (1_000, 1_000_000), (5_000, 200_000)] {
        if quick && most > 200_000 && states > 100 {
            continue;
        }
        let bounds = Bounds {
            max_turns: 40,
            max_configurations: most,
            ..Bounds::default()
        };
        line(
            &format!("synthetic, {states} states"),
            &plan_core::synthetic::plan(states),
            bounds,
            cores,
        );
    }
}
