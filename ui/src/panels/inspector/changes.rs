//! The lists of changes to session states a transition (Effects) or a state entry (On enter)
//! makes, one row each: which state, what happens to its value, what happens to its switch. What
//! a row's choices mean is decided by the pure functions at the top, tested natively.

use leptos::prelude::*;
use plan_core::edit::Command;
use plan_core::plan::{Plan, SessionChange};
use serde_json::Value;

use super::access::{read_plan, run};
use super::fields::choice;
use super::session_states::{value_from_text, value_text};
use crate::editor::Editor;

/// A change as its row's four choices show it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowFields {
    pub id: String,
    /// `none`, `set`, `add` or `clear`: see [`change_kind`].
    pub kind: String,
    /// The value set or the number added, as typed.
    pub amount: String,
    /// `on`, `off`, or empty: leave the switch.
    pub switch: String,
}

impl RowFields {
    pub fn of(c: &SessionChange) -> RowFields {
        RowFields {
            id: c.session_state.clone(),
            kind: change_kind(c).to_string(),
            amount: match (&c.value, &c.add) {
                (Some(v), _) => value_text(v.as_ref()),
                (None, Some(n)) => n.to_string(),
                _ => String::new(),
            },
            switch: match c.active {
                Some(true) => "on",
                Some(false) => "off",
                None => "",
            }
            .to_string(),
        }
    }
}

/// What one row of a changes list does: `set`, `clear`, `add`, `on`, `off` (the first four may
/// come with a switch as well, which the row's second choice sets).
pub fn change_kind(c: &SessionChange) -> &'static str {
    match (&c.value, &c.add) {
        (Some(None), _) => "clear",
        (Some(Some(_)), _) => "set",
        (None, Some(_)) => "add",
        (None, None) => "none",
    }
}

/// The change a row's choices make: `kind` of the value part, `amount` typed, `switch` of the flag.
pub fn change_of(plan: &Plan, id: &str, kind: &str, amount: &str, switch: &str) -> SessionChange {
    let st = plan.session_state(id);
    let value = match kind {
        "clear" => Some(None),
        "set" => Some(Some(
            st.and_then(|s| value_from_text(s, amount))
                .unwrap_or_else(|| Value::String(amount.to_string())),
        )),
        _ => None,
    };
    let add = (kind == "add").then(|| {
        amount
            .trim()
            .parse::<i64>()
            .map(serde_json::Number::from)
            .unwrap_or_else(|_| 1.into())
    });
    let active = match switch {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    };
    // A change must say something: with nothing chosen, it switches the state on.
    let active = if value.is_none() && add.is_none() && active.is_none() {
        Some(true)
    } else {
        active
    };
    SessionChange {
        session_state: id.to_string(),
        value,
        add,
        active,
    }
}

/// Where a list of changes lives.
#[derive(Debug, Clone, PartialEq)]
pub enum ChangesOf {
    /// The `on_enter` of the state with this id.
    Entry(String),
    /// The `effects` of transition `index` of the state with this id.
    Effects(String, usize),
}

impl ChangesOf {
    fn state(&self) -> &str {
        match self {
            ChangesOf::Entry(id) | ChangesOf::Effects(id, _) => id,
        }
    }
}

fn changes_read(p: &Plan, at: &ChangesOf) -> Vec<SessionChange> {
    let Some(state) = p.state(at.state()) else {
        return Vec::new();
    };
    match at {
        ChangesOf::Entry(_) => state.on_enter.clone(),
        ChangesOf::Effects(_, k) => state
            .transitions
            .get(*k)
            .map(|t| t.effects.clone())
            .unwrap_or_default(),
    }
}

fn changes_write(editor: Editor, at: &ChangesOf, f: impl FnOnce(&Plan, &mut Vec<SessionChange>)) {
    let Some(plan) = editor.plan.get_untracked() else {
        return;
    };
    let Some(mut state) = plan.state(at.state()).cloned() else {
        return;
    };
    let list = match at {
        ChangesOf::Entry(_) => Some(&mut state.on_enter),
        ChangesOf::Effects(_, k) => state.transitions.get_mut(*k).map(|t| &mut t.effects),
    };
    let Some(list) = list else { return };
    f(&plan, list);
    run(
        editor,
        Command::ReplaceState {
            id: state.id.clone(),
            state: Box::new(state),
        },
        None,
    );
}

/// The changes a transition or a state entry makes to session states, one row each.
#[component]
pub fn ChangesEditor(at: ChangesOf, label: &'static str) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let testid = match at {
        ChangesOf::Entry(_) => "on-enter",
        ChangesOf::Effects(..) => "effects",
    };
    let at = StoredValue::new(at);
    let count = move || read_plan(editor, |p| changes_read(p, &at.get_value()).len());
    let row = move |r: usize| {
        let current = move || {
            read_plan(editor, |p| {
                changes_read(p, &at.get_value())
                    .get(r)
                    .map(RowFields::of)
                    .unwrap_or_default()
            })
        };
        let id = move || current().id;
        let kind = move || current().kind;
        let amount = move || current().amount;
        let switch = move || current().switch;
        let set = move |id: Option<String>,
                        kind: Option<String>,
                        amount: Option<String>,
                        switch: Option<String>| {
            let at = at.get_value();
            let now = current();
            let id = id.unwrap_or(now.id);
            let kind = kind.unwrap_or(now.kind);
            let amount = amount.unwrap_or(now.amount);
            let switch = switch.unwrap_or(now.switch);
            changes_write(editor, &at, move |plan, list| {
                if let Some(slot) = list.get_mut(r) {
                    *slot = change_of(plan, &id, &kind, &amount, &switch);
                }
            });
        };
        view! {
            <div class="change" data-testid="change" data-change-index=r>
                {choice(
                    "Session state",
                    "change-state",
                    r.to_string(),
                    move || read_plan(
                        editor,
                        |p| p.session_states.iter().map(|s| (s.id.clone(), s.id.clone())).collect(),
                    ),
                    id,
                    move |v: String| set(Some(v), None, None, None),
                )}
                {choice(
                    "Value",
                    "change-kind",
                    r.to_string(),
                    || {
                        vec![
                            ("none".into(), "leave it".into()),
                            ("set".into(), "set to".into()),
                            ("add".into(), "add".into()),
                            ("clear".into(), "clear".into()),
                        ]
                    },
                    kind,
                    move |v: String| set(None, Some(v), None, None),
                )}
                <input
                    type="text"
                    data-testid="field-change-amount"
                    data-path=r.to_string()
                    prop:value=amount
                    on:change=move |e| set(None, None, Some(event_target_value(&e)), None)
                />
                {choice(
                    "Switch",
                    "change-switch",
                    r.to_string(),
                    || {
                        vec![
                            ("".into(), "leave it".into()),
                            ("on".into(), "on".into()),
                            ("off".into(), "off".into()),
                        ]
                    },
                    switch,
                    move |v: String| set(None, None, None, Some(v)),
                )}
                <button
                    class="remove"
                    data-testid="remove-change"
                    on:click=move |_| changes_write(
                        editor,
                        &at.get_value(),
                        move |_, list| {
                            if r < list.len() {
                                list.remove(r);
                            }
                        },
                    )
                >
                    "✕"
                </button>
            </div>
        }
    };
    view! {
        <div class="changes" data-testid=testid>
            <span class="field-label">{label}</span>
            <For each=move || 0..count() key=|r| *r let:r>
                {row(r)}
            </For>
            <button
                class="add"
                data-testid="add-change"
                on:click=move |_| changes_write(
                    editor,
                    &at.get_value(),
                    |plan, list| {
                        let Some(first) = plan.session_states.first() else { return };
                        list.push(SessionChange {
                            session_state: first.id.clone(),
                            value: None,
                            add: None,
                            active: Some(true),
                        });
                    },
                )
            >
                "+ Add a change"
            </button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::super::list::fixtures::account_care;
    use super::*;

    #[test]
    fn a_changes_row_makes_the_change_its_choices_say() {
        let p = account_care();
        let c = change_of(&p, "verify_attempts", "add", "2", "");
        assert_eq!(c.add, Some(2.into()));
        assert_eq!(c.active, None);
        let c = change_of(&p, "topics", "set", "a, b", "on");
        assert_eq!(c.value, Some(Some(serde_json::json!(["a", "b"]))));
        assert_eq!(c.active, Some(true));
        let c = change_of(&p, "identity_verified", "none", "", "");
        assert_eq!(c.active, Some(true), "a change always says something");
        assert_eq!(
            change_kind(&change_of(&p, "loyalty_tier", "clear", "", "off")),
            "clear"
        );
        let st = p.session_state("verify_attempts").unwrap();
        assert_eq!(value_from_text(st, " 3 "), Some(serde_json::json!(3)));
        assert_eq!(value_from_text(st, ""), None);
        assert_eq!(value_text(Some(&serde_json::json!(["a", "b"]))), "a, b");
    }

    #[test]
    fn a_row_shows_the_change_it_makes() {
        let p = account_care();
        let c = change_of(&p, "verify_attempts", "add", "2", "off");
        assert_eq!(
            RowFields::of(&c),
            RowFields {
                id: "verify_attempts".into(),
                kind: "add".into(),
                amount: "2".into(),
                switch: "off".into()
            }
        );
    }
}
