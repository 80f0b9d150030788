//! How exploring scales (explore.md; issue 32): each sample plan explored completely, on one
//! thread and on every core, with its moves per second per core and its stored bytes per
//! configuration; the synthetic plans of 100, 1,000 and 5,000 states; one sample against
//! `max_turns`; plans built to explode (many tasks, a big enum, many numeric constants) against the
//! memory and work ceilings. Prints figures; asserts nothing (the tests do that).
//!
//! `cargo bench -p plan-core --bench explore` (release). `EXPLORE_BENCH_QUICK=1` skips the
//! million-configuration runs; `EXPLORE_BENCH_ONLY=<text>` runs only the lines whose name has it
//! (`explode`: the plans built to explode);
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

/// A plan of one state of `kind` with `n` one-value tasks, then an ending.
fn many_tasks(kind: &str, n: usize) -> Plan {
    let tasks: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"id":"t{i}","deliverables":[{{"key":"k{i}","type":"string"}}]}}"#))
        .collect();
    plan_core::parse::parse_plan(&format!(
        r#"{{"id":"tasks","title":"Tasks","states":[{{"id":"a","title":"A","type":"{kind}","tasks":[{}],"transitions":[{{"target_state_id":"b","condition_type":"all_tasks_complete"}}]}},{{"id":"b","title":"B","instructions":"Bye"}}]}}"#,
        tasks.join(",")
    ))
    .expect("it parses")
}

/// A plan whose key of type `kind` (with `values` enum values) is read by `conditions` arrows,
/// each comparing it with another constant.
fn compared(kind: &str, values: usize, conditions: usize) -> Plan {
    let enum_values: Vec<String> = (0..values).map(|i| format!(r#""v{i}""#)).collect();
    let declared = if kind == "enum" {
        format!(r#""type":"enum","enum_values":[{}]"#, enum_values.join(","))
    } else {
        r#""type":"number""#.to_string()
    };
    let arrows: Vec<String> = (0..conditions)
        .map(|i| {
            let config = if kind == "enum" {
                format!(r#""condition_type":"deliverable_value","condition_config":{{"key":"pick","value":"v{i}"}}"#)
            } else {
                format!(r#""condition_type":"deliverable_value_numeric","condition_config":{{"key":"pick","operator":"gte","value":{}}}"#, i * 10)
            };
            format!(r#"{{"target_state_id":"b",{config},"priority":{}}}"#, i + 1)
        })
        .collect();
    plan_core::parse::parse_plan(&format!(
        r#"{{"id":"compared","title":"Compared","states":[{{"id":"a","title":"A","type":"loose","tasks":[{{"id":"ask","deliverables":[{{"key":"pick",{declared}}}]}}],"transitions":[{}]}},{{"id":"b","title":"B","instructions":"Bye"}}]}}"#,
        arrows.join(",")
    ))
    .expect("it parses")
}

/// One search of a plan built to explode, on every core: how far it got, what it held at most and
/// which bound or ceiling stopped it.
fn exploding(name: &str, plan: &Plan, cores: usize) {
    let only = std::env::var("EXPLORE_BENCH_ONLY");
    if only.is_ok_and(|only| only != "explode" && !name.contains(&only)) {
        return;
    }
    let (e, t) = run(plan, Bounds::default(), cores);
    println!(
        "{name:<34} {:>9} configurations {:>10} moves (work {:>10})  {cores} threads {:>8.0} ms  held at most {:>5} MB  {}",
        e.configurations,
        e.cost.moves,
        e.cost.work,
        t * 1e3,
        e.cost.held_bytes / 1_000_000,
        match e.stopped {
            None => "complete".to_string(),
            Some(s) => format!("stopped: {s:?}"),
        }
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
    println!("Plans built to explode (default bounds: 40 turns, 1,000,000 configurations, 1 GB, 50,000,000 moves):");
    exploding(
        "2,000-value enum, 2 conditions",
        &compared("enum", 2_000, 2),
        cores,
    );
    exploding("number, 200 constants", &compared("number", 0, 200), cores);
    exploding(
        "strict state, 2,000 tasks",
        &many_tasks("strict", 2_000),
        cores,
    );
    exploding("loose state, 400 tasks", &many_tasks("loose", 400), cores);
    exploding(
        "loose state, 2,000 tasks",
        &many_tasks("loose", 2_000),
        cores,
    );
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
