//! Benchmark: the lifecycle operations the app's Versions tab and Publish button call, as the
//! shell runs them (`plan_api`, fsync included).
//!
//! `cargo bench -p plan-api --bench lifecycle` prints medians of:
//! - publish of a 5,000-state draft the app holds (`versions::publish_plan`, the app's path: the
//!   draft it has just saved is not read again) and of one read from disk (`versions::publish`);
//! - the versions list of a plan with 500 versions (`versions::list`: every version file read and
//!   its hash checked), for the support sample and for a 100-state plan;
//! - compare of two 5,000-state versions (`versions::compare`: both read and verified, the diff,
//!   the overlay with its marks, the changes in words), and what the app then sends (its JSON).
//!
//! Targets (issue 15): publish ≤ 50 ms; the versions list of 500 versions ≤ 100 ms; compare of
//! two 5,000-state versions, diff and colouring, ≤ 150 ms.

use std::time::Instant;

// The shell's allocator, so the figures are the app's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use plan_api::{versions, Context};
use plan_core::{synthetic, Revision};

#[path = "../../tests/harness/timing.rs"]
mod timing;
use timing::{median, ms, time};

fn main() {
    let dir = std::env::temp_dir().join(format!("plan-lifecycle-bench-{}", std::process::id()));
    let ctx = Context::open(&dir, || "2026-01-01T00:00:00Z".into()).expect("a workspace");
    let ws = ctx.workspace().clone();

    // Publish at 5,000 states.
    let mut big = synthetic::plan(5_000);
    big.id = "big".into();
    ws.create("big", big.clone(), "2026-01-01T00:00:00Z")
        .expect("created");
    let mut app = Vec::new();
    let mut cli = Vec::new();
    for i in 0..11 {
        big.title = format!("again {i}");
        ws.save_draft("big", &big).expect("saved");
        let t = Instant::now();
        versions::publish_plan(&ctx, "big", &big, "bench").expect("published");
        app.push(t.elapsed());
        big.title.push('.');
        ws.save_draft("big", &big).expect("saved");
        let t = Instant::now();
        versions::publish(&ctx, "big", "bench").expect("published");
        cli.push(t.elapsed());
    }
    println!(
        "publish, 5,000 states: {} the app's draft, {} read from disk",
        ms(median(app)),
        ms(median(cli))
    );

    // The versions list of 500 versions.
    for (id, states) in [("customer-support", 0), ("hundred", 100)] {
        let mut plan = if states == 0 {
            ws.read_draft(id).expect("the sample")
        } else {
            synthetic::plan(states)
        };
        if states > 0 {
            plan.id = id.into();
            ws.create(id, plan.clone(), "2026-01-01T00:00:00Z")
                .expect("created");
        }
        for i in 0..500 {
            plan.description = format!("version {i}");
            ws.publish_plan(id, &plan, "bench", "2026-01-01T00:00:00Z")
                .expect("published");
        }
        let listed = time(11, || versions::list(&ctx, id).expect("listed").len());
        println!(
            "versions list of 500 versions, {} states: {}",
            plan.states.len(),
            ms(listed)
        );
    }

    // Compare two 5,000-state versions that differ in 5 % of their states, and 50 more.
    let mut a = synthetic::plan(5_000);
    a.id = "compared".into();
    ws.create("compared", a.clone(), "2026-01-01T00:00:00Z")
        .expect("created");
    ws.publish_plan("compared", &a, "a", "2026-01-01T00:00:00Z")
        .expect("v1");
    let mut b = a.clone();
    for (i, s) in b.states_mut().enumerate().filter(|(i, _)| i % 20 == 0) {
        s.title = format!("{} (changed {i})", s.title);
    }
    // And 50 states added (removing some would leave transitions into nothing: not a version).
    for n in 0..50 {
        let mut added = plan_core::State::clone(&b.states[n]);
        added.id = format!("added-{n}");
        added.transitions.clear();
        b.states.push(added.into());
    }
    ws.publish_plan("compared", &b, "b", "2026-01-01T00:00:00Z")
        .expect("v2");
    let (v1, v2) = (Revision::Version(1), Revision::Version(2));
    let compared = time(7, || {
        versions::compare(&ctx, "compared", v1, v2).expect("compared")
    });
    let answer = versions::compare(&ctx, "compared", v1, v2).expect("compared");
    let sent = time(7, || serde_json::to_vec(&answer).expect("json").len());
    let read_one = time(7, || ws.read_version("compared", 1).expect("read"));
    let (old, new) = (
        ws.read_version("compared", 1).expect("v1").plan,
        ws.read_version("compared", 2).expect("v2").plan,
    );
    let diffed = time(7, || plan_core::diff::overlay(&old, new.clone()));
    println!(
        "compare two 5,000-state versions ({} changes): {} in all; of it, reading and verifying one version {}, the diff and its marks {}; the answer's JSON ({:.1} MiB) {}",
        answer.changes.len(),
        ms(compared),
        ms(read_one),
        ms(diffed),
        serde_json::to_vec(&answer).map_or(0, |b| b.len()) as f64 / (1024.0 * 1024.0),
        ms(sent)
    );
    let _ = std::fs::remove_dir_all(dir);
}
