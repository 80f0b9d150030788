//! What a DOM element under the pointer is, as the gesture machine names it: a card, its
//! handle, an arrow or its end, the lanes' chips, evaluations and edges, the controls drawn over the canvas, or the background. Read from
//! the `data-` attributes the canvas's items carry.

use wasm_bindgen::JsCast;

use super::gesture::Target;

/// What a DOM element under the pointer is, for the gesture machine.
pub fn target_of(target: Option<web_sys::EventTarget>) -> Target {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return Target::Background;
    };
    let closest = |css: &str| el.closest(css).ok().flatten();
    if let Some(h) = closest("[data-handle]") {
        return Target::Handle(h.get_attribute("data-handle").unwrap_or_default());
    }
    // An arrow's parts say which transition they belong to.
    let transition = |el: web_sys::Element| {
        let from = el.get_attribute("data-from").unwrap_or_default();
        let index = el
            .get_attribute("data-index")
            .and_then(|i| i.parse().ok())
            .unwrap_or(0);
        (from, index)
    };
    if let Some(end) = closest("[data-arrow-end]") {
        let (from, index) = transition(end);
        return Target::ArrowEnd { from, index };
    }
    // The lanes' parts (see `lane_items`).
    let limit = |el: web_sys::Element| plan_core::edit::Limit {
        session_state: el.get_attribute("data-session-state").unwrap_or_default(),
        evaluation: el.get_attribute("data-evaluation").unwrap_or_default(),
    };
    if let Some(end) = closest("[data-limit-end]") {
        return Target::LimitEnd(limit(end));
    }
    if let Some(edge) = closest("[data-testid=limit]") {
        return Target::Limit(limit(edge));
    }
    if let Some(chip) = closest("[data-testid=session-chip]") {
        return Target::Chip(chip.get_attribute("data-session-state").unwrap_or_default());
    }
    if let Some(card) = closest("[data-testid=evaluation-card]") {
        return Target::Evaluation(card.get_attribute("data-evaluation").unwrap_or_default());
    }
    if let Some(card) = closest("[data-testid=state]") {
        return Target::Card(card.get_attribute("data-state-id").unwrap_or_default());
    }
    if let Some(t) = closest("[data-testid=transition], [data-testid=transition-label]") {
        let (from, index) = transition(t);
        return Target::Arrow { from, index };
    }
    if closest(".minimap, .zoom-controls").is_some() {
        return Target::Outside;
    }
    Target::Background
}
