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

/// Focuses the dialog's first field to type into (`first_field`) unless the focus is inside
/// already.
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
    let kinds: Vec<(String, String)> = all
        .iter()
        .map(|el| (el.tag_name(), el.get_attribute("type").unwrap_or_default()))
        .collect();
    if let Some(el) = first_field(&kinds).and_then(|i| all.get(i)) {
        let _ = el.focus();
    }
}

/// Which of a dialog's controls (tag and `type`, in order) takes the focus as it opens: the first
/// one to type into (a name, a note), else the first picker, else the first box to tick, else
/// the first control. The save-as-case dialog lists boxes to untick before the name it needs.
fn first_field(kinds: &[(String, String)]) -> Option<usize> {
    let rank = |(tag, kind): &(String, String)| match (tag.as_str(), kind.as_str()) {
        ("TEXTAREA", _) => 0,
        (
            "INPUT",
            "checkbox" | "radio" | "button" | "submit" | "reset" | "range" | "color" | "file",
        ) => 2,
        ("INPUT", _) => 0,
        ("SELECT", _) => 1,
        _ => 3,
    };
    kinds
        .iter()
        .enumerate()
        .min_by_key(|(i, k)| (rank(k), *i))
        .map(|(i, _)| i)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(t, k)| (t.to_string(), k.to_string()))
            .collect()
    }

    #[test]
    fn a_dialog_opens_in_the_field_to_type_into_before_boxes_pickers_and_buttons() {
        let case = kinds(&[
            ("INPUT", "checkbox"),
            ("INPUT", "checkbox"),
            ("INPUT", "text"),
            ("BUTTON", ""),
        ]);
        assert_eq!(first_field(&case), Some(2));
        let pickers = kinds(&[("BUTTON", ""), ("SELECT", ""), ("INPUT", "checkbox")]);
        assert_eq!(first_field(&pickers), Some(1));
        assert_eq!(first_field(&kinds(&[("BUTTON", ""), ("A", "")])), Some(0));
        assert_eq!(
            first_field(&kinds(&[("INPUT", ""), ("TEXTAREA", "")])),
            Some(0)
        );
        assert_eq!(first_field(&[]), None);
    }
}
