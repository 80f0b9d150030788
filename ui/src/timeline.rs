//! The page's own timing, for the benchmark (`tests/probe.rs` prints it): marks on the
//! performance timeline for the open-time breakdown, and [`timed`] spans, the time spent in the
//! named parts of the page's work, summed until the benchmark reads them
//! (`window.wasmBindings.plan_timings()`), which says where a slow keystroke or frame went.

use std::cell::RefCell;

use leptos::prelude::request_animation_frame;
use wasm_bindgen::prelude::wasm_bindgen;

/// A named moment on the page's performance timeline, for the open-time benchmark's breakdown.
/// Only until the first plan is drawn: the browser keeps every mark, and scenes are rebuilt on
/// every edit.
pub fn mark(name: &str) {
    if OPENED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

static OPENED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Records on the canvas (`data-opened-ms`) when a newly opened plan was first drawn: the
/// page's clock at the second frame after the plan arrived, when its cards are on screen. The
/// open-time benchmark reads it.
pub fn mark_opened() {
    request_animation_frame(|| {
        mark("plan-frame");
        request_animation_frame(|| {
            let Some(w) = web_sys::window() else { return };
            let now = w.performance().map_or(0.0, |p| p.now());
            if let Some(canvas) = w
                .document()
                .and_then(|d| d.query_selector("[data-testid=canvas]").ok().flatten())
            {
                let _ = canvas.set_attribute("data-opened-ms", &format!("{now:.0}"));
                OPENED.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        })
    });
}

/// Time spent in one named part: how often, in all, and the longest once (ms).
#[derive(Default, Clone, Copy)]
struct Spent {
    count: u32,
    total: f64,
    longest: f64,
}

thread_local! {
    static SPENT: RefCell<Vec<(&'static str, Spent)>> = const { RefCell::new(Vec::new()) };
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Runs `f`, adding the time it took to the part `name`. Cheap (two clock reads), so it stays in
/// the release build: the benchmark reads what a user's build does.
pub fn timed<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    let start = now();
    let out = f();
    let took = now() - start;
    SPENT.with_borrow_mut(|spent| {
        let i = match spent.iter().position(|(n, _)| *n == name) {
            Some(i) => i,
            None => {
                spent.push((name, Spent::default()));
                spent.len() - 1
            }
        };
        let s = &mut spent[i].1;
        s.count += 1;
        s.total += took;
        s.longest = s.longest.max(took);
    });
    out
}

/// The parts' times since the last call, the costliest first, one line each
/// (`name: total ms in count, longest ms`), and starts counting afresh.
#[wasm_bindgen]
pub fn plan_timings() -> String {
    let mut spent = SPENT.with_borrow_mut(std::mem::take);
    spent.sort_by(|a, b| b.1.total.total_cmp(&a.1.total));
    spent
        .iter()
        .map(|(name, s)| {
            format!(
                "{name}: {:.1} ms in {}, longest {:.1} ms",
                s.total, s.count, s.longest
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}
