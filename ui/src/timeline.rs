//! Marks on the page's performance timeline for the open-time benchmark (`tests/probe.rs` prints
//! them): when the wasm ran, when the first answer came, when the plan was first drawn.

use leptos::prelude::request_animation_frame;

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
