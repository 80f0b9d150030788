//! What session states offer the inspector's other fields: the template fields that offer the
//! names to insert and say what is wrong inline, a value typed read as a state holds it, and the
//! lens over the plan's list. The list and each state's form are `session_state_form`; the lists
//! of changes `changes`.
//!
//! What a form value means is decided by the pure functions here, tested natively; the views only
//! show and dispatch.

use leptos::prelude::*;
use plan_core::coerce::coerce_session;
use plan_core::plan::{SessionState, SessionType};
use plan_core::template::{Name, Template};
use serde_json::Value;

use super::fields::{typed, Extent};
use super::list::Items;
use crate::editor::Editor;
use crate::plan_names::PlanNames;

/// The tags a template field offers to insert: each session state's value and `isActive` test,
/// each declared key.
pub fn insertable(names: &PlanNames) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for st in names.session_states() {
        if st.kind != SessionType::Prompt {
            out.push((
                format!("{{{{session.state.{}}}}}", st.id),
                format!("value of {}", st.id),
            ));
        }
        out.push((
            format!("{{{{if isActive session.state.{}}}}}…{{{{endif}}}}", st.id),
            format!("only while {} is on", st.id),
        ));
    }
    for k in names.keys(None) {
        out.push((
            format!("{{{{deliverable.{}}}}}", k.key),
            format!("value of {}", k.key),
        ));
    }
    out
}

/// What is wrong with a template text, in words for its field: the syntax error with its line
/// and column, or the names it uses that the plan does not declare.
pub fn template_problem(names: &PlanNames, text: &str) -> Option<String> {
    if Template::is_plain(text) {
        return None;
    }
    let t = match Template::parse(text) {
        Ok(t) => t,
        Err(e) => {
            return Some(format!(
                "Line {}, column {}: {}",
                e.line, e.column, e.message
            ))
        }
    };
    let unknown: Vec<String> = t
        .uses()
        .into_iter()
        .filter_map(|u| match u.name {
            Name::SessionState(id) if !names.session_states().iter().any(|s| s.id == id) => {
                Some(format!("no session state '{id}'"))
            }
            Name::Deliverable(key) if names.key(&key).is_none() => Some(format!("no key '{key}'")),
            _ => None,
        })
        .collect();
    (!unknown.is_empty()).then(|| format!("The plan has {}.", unknown.join(", ")))
}

/// A session state's value as typed (`""`: none), read as the state holds it; text that does not
/// fit is kept as typed, for the checker to point at.
pub fn value_from_text(st: &SessionState, text: &str) -> Option<Value> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let typed = Value::String(text.to_string());
    Some(coerce_session(&typed, st).unwrap_or(typed))
}

/// A value as the form shows it.
pub fn value_text(v: Option<&Value>) -> String {
    let mut out = String::new();
    if let Some(v) = v {
        plan_core::template::write_value(v, &mut out);
    }
    out
}

/// The plan's session states, as the inspector edits them.
pub(super) fn session_states(editor: Editor) -> Items<SessionState> {
    Items::of_plan(
        editor,
        "session",
        |p| &p.session_states,
        |d| &mut d.session_states,
    )
}

/// A template text field: the names to insert, and what is wrong with the text, inline.
pub fn template_area(
    editor: Editor,
    label: &'static str,
    testid: &'static str,
    value: impl Fn() -> String + Send + Sync + Clone + 'static,
    on_input: impl Fn(String) + Clone + Send + Sync + 'static,
) -> impl IntoView {
    let names = expect_context::<Memo<PlanNames>>();
    let problem = {
        let value = value.clone();
        move || names.with(|n| template_problem(n, &value()))
    };
    // The names are listed when the list is about to open, not with the form: a large plan has
    // thousands, and every template field of a state would draw them all.
    let opened = RwSignal::new(false);
    let insert = {
        let value = value.clone();
        let on_input = on_input.clone();
        move |tag: String| {
            if tag.is_empty() {
                return;
            }
            let mut text = value();
            text.push_str(&tag);
            on_input(text);
            editor.end_typing();
        }
    };
    view! {
        <div class="template-field">
            {typed(editor, Extent::Lines, label, testid, value, on_input)}
            <select
                class="insert"
                aria-label=format!("Insert a name into {}", label.to_lowercase())
                data-testid=format!("insert-{testid}")
                prop:value=""
                on:focus=move |_| opened.set(true)
                on:pointerdown=move |_| opened.set(true)
                on:change=move |e| insert(event_target_value(&e))
            >
                <option value="">"Insert a name…"</option>
                {move || {
                    opened
                        .get()
                        .then(|| {
                            names
                                .with(insertable)
                                .into_iter()
                                .map(|(tag, label)| view! { <option value=tag>{label}</option> })
                                .collect_view()
                        })
                }}
            </select>
            <Show when={
                let problem = problem.clone();
                move || problem().is_some()
            }>
                <p class="field-problem" data-testid=format!("problem-{testid}")>
                    {
                        let problem = problem.clone();
                        move || problem().unwrap_or_default()
                    }
                </p>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::super::list::fixtures::account_care;
    use super::*;

    #[test]
    fn template_fields_offer_every_name_and_say_what_is_wrong() {
        let p = account_care();
        let n = PlanNames::of(&p);
        let names: Vec<String> = insertable(&n).into_iter().map(|(t, _)| t).collect();
        assert!(names.contains(&"{{session.state.verify_attempts}}".to_string()));
        assert!(names.contains(&"{{if isActive session.state.upsell}}…{{endif}}".to_string()));
        assert!(
            !names.contains(&"{{session.state.upsell}}".to_string()),
            "a prompt state has no value"
        );
        assert!(names.contains(&"{{deliverable.customer_name}}".to_string()));
        assert_eq!(
            template_problem(&n, "Hello {{deliverable.customer_name}}"),
            None
        );
        assert_eq!(
            template_problem(
                &n,
                "{{if session.state.ghost}}x{{endif}} {{deliverable.nope}}"
            )
            .as_deref(),
            Some("The plan has no session state 'ghost', no key 'nope'.")
        );
        assert!(template_problem(&n, "a\n {{if}}")
            .unwrap()
            .starts_with("Line 2, column 2"));
    }
}
