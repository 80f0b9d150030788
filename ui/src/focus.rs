//! Focusing the inspector field a problem is about (a problem clicked in the Problems tab, or in
//! the publish dialog): the actions ask for it, the inspector's fields carry the `data-testid`s it
//! finds, so it lives apart from both.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Focuses the inspector field that a problem at `path` (a diagnostic's location) is about, once
/// the inspector has drawn it.
pub fn focus_field_of(path: &str) {
    focus_field(field_of(path));
}

/// The inspector field a diagnostic's path points at.
fn field_of(path: &str) -> &'static str {
    let last = path.rsplit('/').next().unwrap_or_default();
    if path.contains("/condition_config") || path.ends_with("condition_type") {
        return "condition-type";
    }
    match last {
        "target_state_id" => "target",
        "priority" => "priority",
        "title" => "title",
        "id" if !path.contains("/tasks/") => "id",
        "objective" | "goal" => "objective",
        "instructions" => "instructions",
        "ending" => "ending",
        "enum_values" => "enum-values",
        "key" => "deliverable-key",
        _ => "title",
    }
}

/// Focuses the inspector field `name` once it is drawn.
fn focus_field(name: &'static str) {
    set_timeout(
        move || {
            let el = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| {
                    d.query_selector(&format!("[data-testid=field-{name}]"))
                        .ok()
                        .flatten()
                })
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(el) = el {
                let _ = el.focus();
            }
        },
        std::time::Duration::from_millis(30),
    );
}
