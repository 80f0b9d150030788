//! No text selection during a canvas gesture: a drag that leaves the canvas would otherwise paint the
//! page's selection over the panels. The canvas says when a gesture begins and ends; the page
//! refuses `selectstart` in between.

use leptos::ev;
use leptos::prelude::*;

thread_local! {
    /// Whether a canvas gesture is under way.
    static GESTURING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// While a gesture lasts, no text selection can start anywhere on the page (a drag that leaves the
/// canvas would otherwise paint the page's selection over the panels), and any selection there
/// was is cleared when it begins. A `selectstart` refused, not a class on the page: a class on the
/// root would restyle every element of a large plan at each press and release.
pub fn gesture(during_gesture: bool) {
    GESTURING.with(|g| g.set(during_gesture));
    if during_gesture {
        if let Ok(Some(selection)) = document().get_selection() {
            let _ = selection.remove_all_ranges();
        }
    }
}

/// Refuses every text selection that starts while a gesture lasts, for as long as the caller lives.
pub fn refuse_during_gestures() {
    let selecting = window_event_listener(ev::selectstart, |e: ev::Event| {
        if GESTURING.with(|g| g.get()) {
            e.prevent_default();
        }
    });
    on_cleanup(move || selecting.remove());
}
