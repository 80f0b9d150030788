//! The plan's session states in the inspector (the base instructions above them), and one session
//! state's form: its id (renaming rewires every use), words, type and
//! value, nesting, and the automatic rules that switch it on or off (the condition builder).
//! What a typed value means is decided by the pure functions here and in `session_states`.

use leptos::prelude::*;
use plan_core::condition::Condition;
use plan_core::edit::{Command, Renamed};
use plan_core::plan::{Activation, SessionState, SessionType};

use super::access::{change_plan, read_plan, run};
use super::condition::{optional_condition, OptionalWords, Root};
use super::fields::{check, choice, type_word, typed, Extent};
use super::list::{list_items, op_button, Adder};
use super::session_states::{session_states, template_area, value_from_text, value_text};
use crate::editor::Editor;
use crate::panels::list_ops::{fresh_id, ListOp};

/// Makes `state` a state of type `to`: its value starts over, an enum gets a first value, a
/// prompt state keeps its text and holds no list.
pub fn change_type(state: &mut SessionState, to: SessionType) {
    state.kind = to;
    state.value = None;
    state.enum_values = (to == SessionType::Enum).then(|| vec!["first".to_string()]);
    if to == SessionType::Prompt {
        state.list = false;
        state.prompt = Some(state.prompt.take().unwrap_or_default());
    } else {
        state.prompt = None;
    }
}

/// An enum's values as typed: comma-separated, trimmed, empty ones left out.
pub fn values_from_text(text: &str) -> Vec<String> {
    text.split(',')
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect()
}

/// A new session state beside `list`, named `state_N`.
fn fresh(_plan: &plan_core::plan::Plan, list: &[SessionState]) -> SessionState {
    SessionState::new(&fresh_id("state_", list.len() + 1, |id| {
        list.iter().any(|s| s.id == id)
    }))
}

/// The plan's base instructions and its session states.
#[component]
pub fn SessionStatesSection() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sts = session_states(editor);
    view! {
        <div class="subsection" data-testid="session-states">
            <h4>"Instructions for every turn"</h4>
            {template_area(
                editor,
                "Base instructions (templates allowed)",
                "plan-instructions",
                move || read_plan(editor, |p| p.instructions.clone()),
                move |v| {
                    change_plan(editor, Some("instructions"), |d| d.instructions = v);
                },
            )}
            <h4>"Session states"</h4>
            <p class="hint">
                "Named conditions the conversation is in, each with a value and an on/off switch. Prompt states add their text to the agent's prompt while on."
            </p>
            {list_items(
                sts,
                |i| view! { <SessionStateForm i=i /> },
                Adder {
                    testid: "add-session-state",
                    label: "+ Add session state",
                    make: fresh,
                },
            )}
        </div>
    }
}

/// The session state at `i` of the plan's list.
#[component]
pub fn SessionStateForm(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sts = session_states(editor);
    let get = move |f: fn(&SessionState) -> String| sts.text(i, f);
    let flag = move |f: fn(&SessionState) -> bool| sts.flag(i, f);
    let id = get(|s| s.id.clone());
    view! {
        <div
            class="session-state"
            data-testid="session-state"
            data-session-index=i
            data-session-id=id
        >
            <SessionStateId i />
            {typed(
                editor,
                Extent::Line,
                "Title",
                "ss-title",
                get(|s| s.title.clone()),
                move |v| sts.edit(i, Some("title"), |s| s.title = v),
            )}
            {typed(
                editor,
                Extent::Line,
                "What it stands for",
                "ss-description",
                get(|s| s.description.clone()),
                move |v| sts.edit(i, Some("desc"), |s| s.description = v),
            )}
            <ValueFields i />
            {check(
                "On at the start of every conversation",
                "ss-initially-active",
                flag(|s| s.initially_active),
                move |on| sts.edit(i, None, |s| s.initially_active = on),
            )}
            <NestingFields i />
            {check(
                "The agent may change it",
                "ss-agent-can-change",
                flag(|s| s.agent_can_change),
                move |on| sts.edit(i, None, |s| s.agent_can_change = on),
            )}
            <AutomaticRule i deactivate=false />
            <AutomaticRule i deactivate=true />
            <div class="row-actions">
                {op_button(sts, i, ListOp::Up, "move-session-state-up", "Move up", Some("Move up"))}
                {op_button(sts, i, ListOp::Remove, "remove-session-state", "Remove", None)}
            </div>
        </div>
    }
}

/// The id, renamed everywhere it is used when the author leaves the field; a refusal said below.
#[component]
fn SessionStateId(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sts = session_states(editor);
    let refused = RwSignal::new(None::<String>);
    let rename = move |to: String| {
        let from = untrack(|| sts.read(i, |s| s.id.clone()));
        let what = Renamed::SessionState;
        let to = to.trim().to_string();
        let ok = run(editor, Command::Rename { what, from, to }, None);
        refused.set((!ok).then(|| "That id cannot be used: it must be new, start with a letter or '_', and hold only letters, digits and '_'.".to_string()));
    };
    view! {
        <label class="field">
            <span class="field-label">"Id (renaming rewires every use)"</span>
            <input
                type="text"
                data-testid="field-ss-id"
                prop:value=sts.text(i, |s| s.id.clone())
                on:change=move |e| rename(event_target_value(&e))
            />
        </label>
        <Show when=move || refused.get().is_some()>
            <p class="field-problem">{move || refused.get().unwrap_or_default()}</p>
        </Show>
    }
}

/// The type, and what the type holds: a list or one value and where it starts, an enum's
/// values, a prompt state's text.
#[component]
fn ValueFields(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sts = session_states(editor);
    let is_prompt = sts.flag(i, |s| s.kind == SessionType::Prompt);
    let is_enum = sts.flag(i, |s| s.kind == SessionType::Enum);
    let types = || {
        SessionType::ALL
            .iter()
            .map(|t| (t.as_str().to_string(), type_word(t.as_str()).to_string()))
            .collect()
    };
    let set_type = move |v: String| {
        if let Some(to) = SessionType::ALL.into_iter().find(|t| t.as_str() == v) {
            sts.edit(i, None, |s| change_type(s, to));
        }
    };
    let read = move |f: fn(&SessionState) -> String| {
        move || {
            read_plan(editor, |p| {
                p.session_states.get(i).map(f).unwrap_or_default()
            })
        }
    };
    view! {
        {choice(
            "Type",
            "ss-type",
            i.to_string(),
            types,
            sts.text(i, |s| s.kind.as_str().to_string()),
            set_type,
        )}
        <Show when=move || {
            !is_prompt()
        }>
            {check(
                "Holds a list of values",
                "ss-list",
                sts.flag(i, |s| s.list),
                move |on| {
                    sts.edit(
                        i,
                        None,
                        |s| {
                            s.list = on;
                            s.value = None;
                        },
                    )
                },
            )} <label class="field">
                <span class="field-label">
                    "Starts with (a list: comma-separated; empty: no value)"
                </span>
                <input
                    type="text"
                    data-testid="field-ss-value"
                    prop:value=read(|s| value_text(s.value.as_ref()))
                    on:change=move |e| {
                        let t = event_target_value(&e);
                        sts.edit(i, None, |s| s.value = value_from_text(s, &t))
                    }
                />
            </label>
        </Show>
        <Show when=is_enum>
            <label class="field">
                <span class="field-label">"Values (comma-separated)"</span>
                <input
                    type="text"
                    data-testid="field-ss-enum-values"
                    prop:value=read(|s| s.enum_values.clone().unwrap_or_default().join(", "))
                    on:change=move |e| {
                        let values = values_from_text(&event_target_value(&e));
                        sts.edit(i, None, |s| s.enum_values = Some(values));
                    }
                />
            </label>
        </Show>
        <Show when=is_prompt>
            {template_area(
                editor,
                "Prompt text while on (templates allowed)",
                "ss-prompt",
                read(|s| s.prompt.clone().unwrap_or_default()),
                move |v| sts.edit(i, Some("prompt"), |s| s.prompt = Some(v)),
            )}
        </Show>
    }
}

/// Where it sits among the others: its parent, and whether switching it on switches its
/// exclusive peers off.
#[component]
fn NestingFields(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sts = session_states(editor);
    let parents = move || {
        let mut options = vec![(String::new(), "(top level)".to_string())];
        options.extend(read_plan(editor, |p| {
            p.session_states
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, s)| (s.id.clone(), s.id.clone()))
                .collect::<Vec<_>>()
        }));
        options
    };
    let activations = || {
        vec![
            ("independent".into(), "leaves its peers alone".into()),
            (
                "exclusive".into(),
                "switches its exclusive peers off".into(),
            ),
        ]
    };
    let activation = sts.text(i, |s| match s.activation {
        Activation::Exclusive => "exclusive".into(),
        Activation::Independent => "independent".into(),
    });
    let set_activation = move |v: String| {
        let to = if v == "exclusive" {
            Activation::Exclusive
        } else {
            Activation::Independent
        };
        sts.edit(i, None, |s| s.activation = to);
    };
    view! {
        {choice(
            "Nested under",
            "ss-parent",
            i.to_string(),
            parents,
            sts.text(i, |s| s.parent.clone().unwrap_or_default()),
            move |v: String| sts.edit(i, None, |s| s.parent = (!v.is_empty()).then_some(v)),
        )}
        {choice(
            "Switching it on",
            "ss-activation",
            i.to_string(),
            activations,
            activation,
            set_activation,
        )}
    }
}

/// The rule that switches it on (or off, `deactivate`) by itself: added, edited in the
/// condition builder, removed.
#[component]
fn AutomaticRule(i: usize, deactivate: bool) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sts = session_states(editor);
    let words = if deactivate {
        OptionalWords {
            label: "Switch off automatically when",
            testid: "auto-deactivate",
            add: "+ Add a rule",
            remove: "Remove the rule",
        }
    } else {
        OptionalWords {
            label: "Switch on automatically when",
            testid: "auto-activate",
            add: "+ Add a rule",
            remove: "Remove the rule",
        }
    };
    let present = move || {
        sts.read(i, |s| {
            if deactivate {
                s.auto_deactivate.is_some()
            } else {
                s.auto_activate.is_some()
            }
        })
    };
    let root = move || Root::Rule {
        session_state: sts.read(i, |s| s.id.clone()),
        deactivate,
    };
    let set = move |c: Option<Condition>| {
        sts.edit(i, None, |s| {
            if deactivate {
                s.auto_deactivate = c
            } else {
                s.auto_activate = c
            }
        })
    };
    optional_condition(words, present, root, set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_type_starts_its_value_over_and_keeps_a_prompt_text() {
        let mut s = SessionState::new("tier");
        s.value = Some(serde_json::json!("gold"));
        s.list = true;
        change_type(&mut s, SessionType::Enum);
        assert_eq!(
            (s.value.clone(), s.enum_values.clone()),
            (None, Some(vec!["first".into()]))
        );
        s.prompt = Some("Be kind.".into());
        change_type(&mut s, SessionType::Prompt);
        assert_eq!(
            (s.list, s.prompt.as_deref(), s.enum_values.clone()),
            (false, Some("Be kind."), None)
        );
        change_type(&mut s, SessionType::Number);
        assert_eq!(s.prompt, None);
        assert_eq!(values_from_text(" gold, ,silver "), ["gold", "silver"]);
    }
}
