//! The keyboard's focus in a dialog: it goes in when the dialog opens, and Tab goes round the
//! dialog's own controls rather than out to the window under it (a modal dialog holds the focus
//! until it closes; Escape always closes it).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What can take the focus from Tab.
const FOCUSABLE: &str = "button, input, select, textarea, a[href], [tabindex]";

/// The focused element, if it can be focused again.
pub fn focused() -> Option<web_sys::HtmlElement> {
    document()
        .active_element()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
}

/// The controls inside `root` that Tab stops at, in document order.
fn stops(root: &web_sys::Element) -> Vec<web_sys::HtmlElement> {
    let mut out = Vec::new();
    let mut next = root.first_element_child();
    while let Some(el) = next {
        let takes = el.matches(FOCUSABLE).unwrap_or(false)
            && !el.matches(":disabled").unwrap_or(false)
            && el.get_attribute("tabindex").as_deref() != Some("-1");
        if takes {
            if let Ok(el) = el.clone().dyn_into::<web_sys::HtmlElement>() {
                out.push(el);
            }
        }
        out.extend(stops(&el));
        next = el.next_element_sibling();
    }
    out
}

/// Focuses the dialog's first field (else its first control) unless the focus is inside already.
pub fn enter(root: NodeRef<leptos::html::Div>) {
    let Some(dialog) = root.get_untracked() else {
        return;
    };
    let inside = document()
        .active_element()
        .is_some_and(|el| dialog.contains(Some(&el)));
    if inside {
        return;
    }
    let all = stops(&dialog);
    let field = all
        .iter()
        .find(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
        .or(all.first());
    if let Some(el) = field {
        let _ = el.focus();
    }
}

/// Tab on the last control goes to the first, Shift+Tab on the first to the last.
pub fn round(e: &leptos::ev::KeyboardEvent, root: NodeRef<leptos::html::Div>) {
    let Some(dialog) = root.get_untracked() else {
        return;
    };
    let all = stops(&dialog);
    let (Some(first), Some(last)) = (all.first(), all.last()) else {
        return;
    };
    let at = document().active_element();
    let on = |el: &web_sys::HtmlElement| at.as_ref().is_some_and(|a| a == &**el);
    if e.shift_key() && on(first) {
        e.prevent_default();
        let _ = last.focus();
    } else if !e.shift_key() && on(last) {
        e.prevent_default();
        let _ = first.focus();
    }
}
