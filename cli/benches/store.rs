//! Benchmark: publishing and autosaving large plans in the workspace store, fsync included.
//!
//! `cargo bench -p plan-cli --bench store` prints, for synthetic plans of 1,000 and 5,000 states,
//! the median time of a draft save (atomic, durable write of `draft.json`), of the app's publish
//! (validate the draft it holds, hash, write a read-only version) and of the CLI's publish (the
//! same, reading the draft from disk first). Targets (issue 4): publish ≤ 50 ms at 5,000 states;
//! a draft save ≤ 20 ms at 1,000 states.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

use plan_core::store::Workspace;
use plan_core::synthetic;

#[path = "../../tests/harness/timing.rs"]
mod timing;
use timing::{median, ms};

fn main() {
    let dir = std::env::temp_dir().join(format!("plan-store-bench-{}", std::process::id()));
    let ws = Workspace::open(&dir, "2026-01-01T00:00:00Z").expect("a workspace");
    println!(
        "{:>7} {:>8} {:>12} {:>14} {:>14}",
        "states", "MiB", "draft save", "publish (app)", "publish (CLI)"
    );
    for states in [1_000, 5_000] {
        let id = format!("bench-{states}");
        let mut plan = synthetic::plan(states);
        // As in the app, whose draft carries its plan's id.
        plan.id = id.clone();
        ws.create(&id, plan.clone(), "2026-01-01T00:00:00Z")
            .expect("created");
        let size = serde_json::to_string_pretty(&plan).unwrap().len();
        let reps = 15;
        let mut saves = Vec::new();
        let mut publishes = Vec::new();
        let mut cli_publishes = Vec::new();
        for i in 0..reps {
            // A different title each time, so every publish has something new to publish.
            plan.title = format!("Synthetic plan, edit {i}");
            let t = Instant::now();
            ws.save_draft(&id, &plan).expect("saved");
            saves.push(t.elapsed());
            let t = Instant::now();
            ws.publish_plan(&id, &plan, "bench", "2026-01-01T00:00:00Z")
                .expect("published");
            publishes.push(t.elapsed());
            plan.title.push('.');
            ws.save_draft(&id, &plan).expect("saved");
            let t = Instant::now();
            ws.publish(&id, "bench", "2026-01-01T00:00:00Z")
                .expect("published");
            cli_publishes.push(t.elapsed());
        }
        println!(
            "{:>7} {:>8.1} {:>12} {:>14} {:>14}",
            states,
            size as f64 / (1024.0 * 1024.0),
            ms(median(saves)),
            ms(median(publishes)),
            ms(median(cli_publishes))
        );
    }
    breakdown(&dir);
    let _ = std::fs::remove_dir_all(dir);
}

/// Where the time of a publish goes, step by step (median of 15), for the 5,000-state plan.
fn breakdown(dir: &std::path::Path) {
    use plan_core::hash::{canonical_json, hash_of};
    use plan_core::store::atomic;
    let plan = synthetic::plan(5_000);
    let path = dir.join("bench-5000").join("draft.json");
    let text = std::fs::read_to_string(&path).expect("the draft");
    let time = |f: &mut dyn FnMut()| {
        let runs = (0..15)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect();
        ms(median(runs))
    };
    let out = dir.join("out.json");
    let draft_1k = std::fs::read(dir.join("bench-1000").join("draft.json")).expect("the draft");
    println!("\n1,000 states, a draft save step by step:");
    println!(
        "  write + fsync + rename ({:.1} MiB) {}",
        draft_1k.len() as f64 / 1048576.0,
        time(&mut || atomic::write(&out, &draft_1k, false).unwrap())
    );
    println!(
        "  the same, compact ({:.1} MiB)    {}",
        canonical_json(&synthetic::plan(1_000)).len() as f64 / 1048576.0,
        {
            let compact = canonical_json(&synthetic::plan(1_000));
            time(&mut || atomic::write(&out, &compact, false).unwrap())
        }
    );
    let canonical = canonical_json(&plan);
    println!("\n5,000 states, step by step:");
    println!(
        "  read draft.json ({:.1} MiB)   {}",
        text.len() as f64 / 1048576.0,
        time(&mut || drop(std::fs::read_to_string(&path).unwrap()))
    );
    println!(
        "  parse the draft              {}",
        time(&mut || drop(plan_core::parse::parse_draft(&text).unwrap()))
    );
    println!(
        "  validate                     {}",
        time(&mut || drop(plan_core::validate(&plan)))
    );
    println!(
        "  canonical JSON               {}",
        time(&mut || drop(canonical_json(&plan)))
    );
    println!(
        "  SHA-256                      {}",
        time(&mut || drop(hash_of(&canonical)))
    );
    println!(
        "  write + fsync + rename ({:.1} MiB) {}",
        canonical.len() as f64 / 1048576.0,
        time(&mut || atomic::write(&out, &canonical, false).unwrap())
    );
}
