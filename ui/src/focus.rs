//! Focusing the inspector field a problem is about (a problem clicked in the Problems tab, or in
//! the publish dialog): the actions ask for it, the inspector's fields carry the `data-testid`s it
//! finds, so it lives apart from both. And the title field of a state just added, its text
//! selected, so that the author names the state by typing.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Focuses the inspector field that a problem at `path` (a diagnostic's location) is about, once
/// the inspector has drawn it.
pub fn focus_field_of(path: &str) {
    focus_field(field_selector(path));
}

/// The CSS selector of the inspector field a problem at `path` is about: inside its deliverable's
/// row when the path names one (a state has several, each with a key and choices field).
fn field_selector(path: &str) -> String {
    let field = format!("[data-testid=field-{}]", field_of(path));
    let parts: Vec<&str> = path.split('/').collect();
    let after = |name: &str| {
        parts
            .iter()
            .position(|p| *p == name)
            .and_then(|i| parts.get(i + 1))
    };
    let Some(index) = after("deliverables") else {
        return field;
    };
    let owner = match after("tasks") {
        Some(t) => (*t).to_string(),
        None => "goal".to_string(),
    };
    format!(
        "[data-testid=deliverable][data-task-index=\"{owner}\"][data-deliverable-index=\"{index}\"] {field}"
    )
}

/// The inspector field a diagnostic's path points at.
fn field_of(path: &str) -> &'static str {
    let last = path.rsplit('/').next().unwrap_or_default();
    if path.contains("/condition_config") || path.ends_with("condition_type") {
        return "condition-type";
    }
    // A deliverable's own problem (a choice without its list) or one of its choices.
    let parts: Vec<&str> = path.rsplit('/').take(3).collect();
    if matches!(parts.as_slice(), [_, "deliverables", ..]) || parts.get(1) == Some(&"enum_values") {
        return "enum-values";
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

/// Focuses the inspector field `selector` finds once it is drawn, scrolled into view.
fn focus_field(selector: String) {
    set_timeout(
        move || {
            if let Some(el) = found(&selector) {
                // In the middle of the panel, with its message under it, not at the panel's edge.
                let _ = el.focus();
                let options = web_sys::ScrollIntoViewOptions::new();
                options.set_block(web_sys::ScrollLogicalPosition::Center);
                el.scroll_into_view_with_scroll_into_view_options(&options);
            }
        },
        std::time::Duration::from_millis(30),
    );
}

/// Focuses the condition of the arrow the inspector shows, once it is drawn (Enter on an arrow).
pub fn open_condition() {
    focus_field("[data-testid=field-condition-type]".to_string());
}

/// Focuses the inspector's title field with its text selected, once it shows the state just
/// added: the author names the state by typing, the placeholder title replaced.
pub fn name_in_inspector() {
    request_animation_frame(|| {
        if let Some(field) = document()
            .query_selector("[data-testid=field-title]")
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            let _ = field.focus();
            field.select();
        }
    });
}

/// Gives card `id` the keyboard's focus, as Tab would: at once when it is drawn, so that a key
/// pressed next (F6 again, an arrow) starts from it; else once it is drawn (brought into view
/// only now, or a few frames later in a plan just opened), waited for up to [`CARD_FRAMES`]
/// frames unless the author moves the focus meanwhile.
pub fn focus_card(id: &str) {
    let css = format!("[data-testid=state][data-state-id=\"{id}\"]");
    if let Some(card) = found(&css) {
        if card.focus().is_ok() && document().active_element().is_some_and(|a| a == *card) {
            return;
        }
    }
    focus_once_drawn(css, None, CARD_FRAMES);
}

/// The element `css` finds, as one that can take the focus.
fn found(css: &str) -> Option<web_sys::HtmlElement> {
    document()
        .query_selector(css)
        .ok()
        .flatten()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
}

/// How many frames a card is waited for (about half a second).
const CARD_FRAMES: u32 = 30;

/// Focuses what `css` finds in the next frame; while it is not drawn yet, in a later one. `was`:
/// where the focus was when the first frame did not find it; once it has gone from there to
/// another element the author has moved on, and the focus is theirs (fallen to the page is not).
fn focus_once_drawn(css: String, was: Option<web_sys::Element>, frames_left: u32) {
    request_animation_frame(move || {
        let now = document().active_element();
        if let Some(was) = &was {
            let moved_on =
                now.as_ref() != Some(was) && now.as_ref().is_some_and(|el| el.tag_name() != "BODY");
            if moved_on {
                return;
            }
        }
        match found(&css) {
            Some(card) => {
                let _ = card.focus();
            }
            None if frames_left > 0 => {
                let was = was.or(now).or_else(|| document().body().map(Into::into));
                focus_once_drawn(css, was, frames_left - 1);
            }
            None => {}
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deliverable_problem_leads_to_its_own_row_not_the_first_one() {
        assert_eq!(
            field_selector("/states/4/tasks/2/deliverables/1/enum_values"),
            "[data-testid=deliverable][data-task-index=\"2\"][data-deliverable-index=\"1\"] [data-testid=field-enum-values]"
        );
        assert_eq!(
            field_selector("/states/4/goal/deliverables/0/key"),
            "[data-testid=deliverable][data-task-index=\"goal\"][data-deliverable-index=\"0\"] [data-testid=field-deliverable-key]"
        );
        // A choice without its list is found at the deliverable; a choice listed twice below it.
        assert!(field_selector("/states/4/tasks/0/deliverables/3")
            .ends_with("[data-testid=field-enum-values]"));
        assert!(
            field_selector("/states/4/tasks/0/deliverables/3/enum_values/1")
                .ends_with("[data-testid=field-enum-values]")
        );
        assert_eq!(
            field_selector("/states/4/title"),
            "[data-testid=field-title]"
        );
    }
}
