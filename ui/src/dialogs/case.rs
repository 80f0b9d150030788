//! A conversation saved as a test case: its turns with what held after each (the state, the values
//! recorded in it, how it ended), each expectation ticked so that the author keeps only what the
//! case is about, and a name for its file in the plan's `tests/`.

use leptos::prelude::*;
use plan_api::ApiError;
use plan_core::explore::story::key_words;
use plan_core::runtime::script::{Expect, Script};

use super::{cancel_and_act, line_field};
use crate::navigation::{Dialog, Navigation};
use crate::test_chat::TestChat;

/// One expectation that can be kept or dropped: turn (0-based), what, its text.
#[derive(Debug, Clone, PartialEq)]
struct Kept {
    turn: usize,
    what: Part,
    text: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    State,
    Value(String),
    Ended,
}

/// How an expected ending reads: `"hang_up"` → "the call ends with a hang-up".
fn ending_words(v: &serde_json::Value) -> String {
    match v.as_str() {
        Some("complete") => "the conversation ends, completed".into(),
        Some("hang_up") => "the call ends with a hang-up".into(),
        Some("hand_off") => "the conversation is handed off".into(),
        _ if v == &serde_json::Value::Bool(false) => "the conversation goes on".into(),
        _ => "the conversation ends".into(),
    }
}

/// Every expectation of `script`, in order, states named by `title_of` and keys by `key_of` (the
/// author reads "in Billing support" and "the customer's first name: Chloe", not ids and keys).
fn parts(
    script: &Script,
    title_of: impl Fn(&str) -> String,
    key_of: impl Fn(&str) -> String,
) -> Vec<Kept> {
    let mut out = Vec::new();
    for (turn, t) in script.turns.iter().enumerate() {
        let Some(e) = &t.expect else { continue };
        if let Some(s) = &e.state {
            out.push(Kept {
                turn,
                what: Part::State,
                text: format!("in {}", title_of(s)),
            });
        }
        for (k, v) in e.deliverables.iter().flatten() {
            out.push(Kept {
                turn,
                what: Part::Value(k.clone()),
                text: format!("{}: {}", key_of(k), plan_core::coerce::in_words(v)),
            });
        }
        if let Some(v) = &e.ended {
            out.push(Kept {
                turn,
                what: Part::Ended,
                text: ending_words(v),
            });
        }
    }
    out
}

/// `script` with only the expectations `dropped` does not name.
fn trimmed(script: &Script, dropped: &[Kept]) -> Script {
    let mut out = script.clone();
    for d in dropped {
        let Some(e) = out.turns.get_mut(d.turn).and_then(|t| t.expect.as_mut()) else {
            continue;
        };
        match &d.what {
            Part::State => e.state = None,
            Part::Value(k) => {
                if let Some(values) = e.deliverables.as_mut() {
                    values.remove(k);
                    if values.is_empty() {
                        e.deliverables = None;
                    }
                }
            }
            Part::Ended => e.ended = None,
        }
    }
    for t in &mut out.turns {
        if t.expect.as_ref() == Some(&Expect::default()) {
            t.expect = None;
        }
    }
    out
}

#[component]
pub fn SaveCaseDialog() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let script = match expect_context::<Navigation>().dialog_untracked() {
        Some(Dialog::SaveCase(s)) => s,
        _ => Script::default(),
    };
    let names = expect_context::<Memo<crate::plan_names::PlanNames>>();
    let plan = expect_context::<crate::editor::Editor>().plan;
    let all = names.with_untracked(|n| {
        plan.with_untracked(|plan| {
            parts(
                &script,
                |id| {
                    n.states()
                        .iter()
                        .find(|s| s.id == id)
                        .map_or_else(|| id.to_string(), |s| s.title.clone())
                },
                |key| {
                    plan.as_ref()
                        .map_or_else(|| key.to_string(), |p| key_words(p, key))
                },
            )
        })
    });
    let dropped = RwSignal::new(Vec::<Kept>::new());
    let name = RwSignal::new(String::new());
    let refused = RwSignal::new(None::<ApiError>);
    let users: Vec<String> = script.turns.iter().map(|t| t.user.clone()).collect();
    let kept_script = StoredValue::new(script);
    let save = move || {
        let script = kept_script.with_value(|s| trimmed(s, &dropped.get_untracked()));
        test_chat.save_case(name.get_untracked(), script, refused);
    };
    view! {
        <h3>"Save as test case"</h3>
        <p class="hint">
            "Each turn keeps what held after it; untick what the case is not about. The suite checks the rest."
        </p>
        <ol class="case-turns" data-testid="case-turns">
            {users
                .into_iter()
                .enumerate()
                .map(|(turn, user)| {
                    let mine: Vec<Kept> = all.iter().filter(|k| k.turn == turn).cloned().collect();
                    view! {
                        <li>
                            <p class="chat-text">{user}</p>
                            {mine
                                .into_iter()
                                .map(|k| {
                                    let text = k.text.clone();
                                    let this = k.clone();
                                    let ticked = move || !dropped.with(|d| d.contains(&this));
                                    let flip = k.clone();
                                    view! {
                                        <label class="field check">
                                            <input
                                                type="checkbox"
                                                data-testid="case-expect"
                                                prop:checked=ticked
                                                on:change=move |_| {
                                                    dropped
                                                        .update(|d| match d.iter().position(|x| *x == flip) {
                                                            Some(i) => {
                                                                d.remove(i);
                                                            }
                                                            None => d.push(flip.clone()),
                                                        })
                                                }
                                            />
                                            <span>{text}</span>
                                        </label>
                                    }
                                })
                                .collect_view()}
                        </li>
                    }
                })
                .collect_view()}
        </ol>
        // A form so that Enter in the name saves the case (when it may be saved).
        <form
            novalidate
            on:submit=move |e| {
                e.prevent_default();
                if !name.with(|n| n.trim().is_empty()) {
                    save();
                }
            }
        >
            {line_field("Name (its file in tests/)", "case-name", "text", "billing-refund", name)}
        </form>
        {move || {
            refused
                .get()
                .map(|e| {
                    view! {
                        <p class="error" data-testid="case-error" data-code=e.code.as_str()>
                            {e.message}
                        </p>
                    }
                })
        }}
        {cancel_and_act("", "Save", move || name.with(|n| n.trim().is_empty()), save)}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unticked_expectations_leave_the_case_and_empty_turns_expect_nothing() {
        let script: Script = serde_json::from_value(serde_json::json!({"turns": [
            {"user": "hi", "expect": {"state": "a"}},
            {"user": "billing", "expect": {"state": "b", "deliverables": {"k": "billing"}, "ended": "complete"}}
        ]}))
        .unwrap();
        let all = parts(
            &script,
            |id| format!("State {}", id.to_uppercase()),
            |key| format!("the {key}"),
        );
        assert_eq!(all.len(), 4);
        let texts: Vec<&str> = all.iter().map(|k| k.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "in State A",
                "in State B",
                "the k: billing",
                "the conversation ends, completed"
            ]
        );
        let out = trimmed(&script, &[all[0].clone(), all[2].clone()]);
        assert_eq!(out.turns[0].expect, None);
        let e = out.turns[1].expect.as_ref().unwrap();
        assert_eq!(
            (
                e.state.as_deref(),
                e.deliverables.is_none(),
                e.ended.is_some()
            ),
            (Some("b"), true, true)
        );
    }
}
