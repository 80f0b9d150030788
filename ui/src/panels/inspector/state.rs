//! The inspector of one state: id (renaming rewires every reference), title, mode, texts, whether
//! it can be interrupted, allowed tools, ending, and a goal state's goal; its tasks are `tasks`,
//! deliverables `deliverables`.

use leptos::prelude::*;
use plan_core::edit::Command;
use plan_core::plan::{Ending, Goal, State, StateType};

use super::access::{edit_state, read_state, run};
use super::changes::{ChangesEditor, ChangesOf};
use super::deliverables::DeliverableList;
use super::field_problem::field_refusal;
use super::fields::{check, choice, typed, Extent};
use super::session_states::template_area;
use super::tasks::TaskList;
use crate::editor::Editor;

fn mode_name(k: StateType) -> &'static str {
    match k {
        StateType::Strict => "strict",
        StateType::Loose => "loose",
        StateType::Goal => "goal",
    }
}

/// Makes `state` a state of mode `to`: a goal state gets an empty goal to fill in, and a goal
/// left empty goes when the state stops being one.
pub fn change_mode(state: &mut State, to: StateType) {
    state.kind = to;
    if to == StateType::Goal && state.goal.is_none() {
        state.goal = Some(Goal {
            objective: String::new(),
            success_description: String::new(),
            deliverables: Vec::new(),
        });
    }
    let empty_goal = state
        .goal
        .as_ref()
        .is_some_and(|g| g.objective.is_empty() && g.deliverables.is_empty());
    if to != StateType::Goal && empty_goal {
        state.goal = None;
    }
}

#[component]
pub fn StateInspector(id: String) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id.clone());
    let get = move |f: fn(&State) -> String| {
        move || read_state(editor, &sid.get_value(), f).unwrap_or_default()
    };
    let set = move |field: &'static str, f: fn(&mut State, String)| {
        move |v: String| {
            let id = sid.get_value();
            edit_state(editor, &id, Some(format!("{id}:{field}")), |s| f(s, v));
        }
    };
    // The last name the state had, for an emptied title: refused at the field, the name kept.
    let named = StoredValue::new(read_state(editor, &id, |s| s.title.clone()).unwrap_or_default());
    let title_refused = RwSignal::new(None::<String>);
    // A state added since the plan was opened or published takes its id from its title ("Order
    // details" → `order-details`), one step after the typing; any other id stays as it is.
    let title_done = move |_: leptos::ev::Event| {
        let from = sid.get_value();
        let typed_title = read_state(editor, &from, |s| s.title.clone()).unwrap_or_default();
        match title_kept(&typed_title, &named.get_value()) {
            Some(kept) => {
                // Part of the typing's undo step: the emptied title never stands on its own.
                edit_state(editor, &from, Some(format!("{from}:title")), |s| {
                    s.title = kept.clone()
                });
                editor.end_typing();
                title_refused.set(Some(format!("A state needs a name: it keeps ‘{kept}’.")));
                return;
            }
            None => {
                named.set_value(typed_title.trim().to_string());
                title_refused.set(None);
            }
        }
        editor.follow_title(&from);
    };
    // Parts of the form that appear or go away are keyed on memos, so that typing elsewhere never
    // rebuilds them (a rebuilt field loses the caret).
    let is_goal = Memo::new(move |_| {
        read_state(editor, &sid.get_value(), |s| s.kind == StateType::Goal).unwrap_or(false)
    });
    let has_transitions = Memo::new(move |_| {
        read_state(editor, &sid.get_value(), |s| !s.transitions.is_empty()).unwrap_or(false)
    });
    view! {
        <div class="inspector-section" data-testid="state-inspector">
            <h3>"State"</h3>
            // The title is committed when the author leaves the field (a change event).
            <div on:change=title_done>
                {typed(
                    editor,
                    Extent::Line,
                    "Title",
                    "title",
                    get(|s| s.title.clone()),
                    set("title", |s, v| s.title = v),
                )} {field_refusal(title_refused)}
            </div>
            <ModePicker id=sid.get_value() />
            {typed(
                editor,
                Extent::Lines,
                "Description",
                "description",
                get(|s| s.description.clone()),
                set("description", |s, v| s.description = v),
            )}
            {template_area(
                editor,
                "Instructions for the agent (templates allowed)",
                "instructions",
                get(|s| s.instructions.clone()),
                set("instructions", |s, v| s.instructions = v),
            )}
            <ChangesEditor
                at=ChangesOf::Entry(sid.get_value())
                label="On enter: changes to session states"
            />
            {check(
                "Can be interrupted (off: only an urgent interruption takes over here)",
                "interruptible",
                move || read_state(editor, &sid.get_value(), |s| s.interruptible).unwrap_or(true),
                move |on| {
                    let id = sid.get_value();
                    edit_state(editor, &id, None, |s| s.interruptible = on);
                },
            )}
            <AllowedTools id=sid.get_value() />
            {move || {
                (!has_transitions.get()).then(|| view! { <EndingFields id=sid.get_value() /> })
            }}
            {move || {
                if is_goal.get() {
                    view! { <GoalFields id=sid.get_value() /> }.into_any()
                } else {
                    view! { <TaskList id=sid.get_value() /> }.into_any()
                }
            }}
            // The id is the format's name for the state: made from its first title, changed here
            // only when the author means to (a rename rewires every reference).
            <AdvancedId id=sid.get_value() />
        </div>
    }
}

/// The state's mode: strict, loose or goal.
#[component]
fn ModePicker(id: String) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id);
    let modes = || {
        vec![
            (
                "strict".into(),
                "Strict: one task at a time, in order".into(),
            ),
            ("loose".into(), "Loose: tasks in any order".into()),
            ("goal".into(), "Goal: an objective, no task list".into()),
        ]
    };
    let mode = move || {
        read_state(editor, &sid.get_value(), |s| mode_name(s.kind).to_string()).unwrap_or_default()
    };
    let set_mode = move |v: String| {
        let to = match v.as_str() {
            "strict" => StateType::Strict,
            "goal" => StateType::Goal,
            _ => StateType::Loose,
        };
        edit_state(editor, &sid.get_value(), None, |s| change_mode(s, to));
    };
    choice("Mode", "type", String::new(), modes, mode, set_mode)
}

/// A checkbox per tool of the plan: whether the agent may call it here.
#[component]
fn AllowedTools(id: String) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id);
    let tools = Memo::new(move |_| {
        editor.plan.with(|p| {
            p.as_ref()
                .map(|p| p.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    let tool = move |name: String| {
        let (held, toggled) = (name.clone(), name.clone());
        let allowed = move || {
            read_state(editor, &sid.get_value(), |s| {
                s.allowed_tools.contains(&held)
            })
            .unwrap_or(false)
        };
        let toggle = move |e: leptos::ev::Event| {
            let on = event_target_checked(&e);
            let name = toggled.clone();
            edit_state(editor, &sid.get_value(), None, |s| {
                s.allowed_tools.retain(|t| *t != name);
                if on {
                    s.allowed_tools.push(name);
                }
            });
        };
        view! {
            <label class="field check">
                <input
                    type="checkbox"
                    data-testid="field-allowed-tool"
                    data-tool=name.clone()
                    prop:checked=allowed
                    on:change=toggle
                />
                <span>{name}</span>
            </label>
        }
    };
    move || {
        let names = tools.get();
        (!names.is_empty()).then(|| {
            view! {
                <div class="field">
                    <span class="field-label">"Allowed tools"</span>
                    {names.into_iter().map(tool).collect_view()}
                </div>
            }
        })
    }
}

/// The folded Advanced part: the state's id, renamed everywhere it is used when the author
/// means to; a refusal said below, the field showing the id the state still has.
#[component]
fn AdvancedId(id: String) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id);
    let rename_error = RwSignal::new(None::<String>);
    let advanced = RwSignal::new(false);
    let rename = move |e: leptos::ev::Event| {
        let to = event_target_value(&e);
        let from = sid.get_value();
        if run(
            editor,
            Command::RenameState {
                from: from.clone(),
                to: to.trim().to_string(),
            },
            None,
        ) {
            rename_error.set(None);
        } else {
            rename_error.set(editor.notice.get_untracked().map(|n| n.text));
            // Show the id the state still has.
            if let Some(input) = e
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
            {
                input.set_value(&from);
            }
        }
    };
    view! {
        <div class="advanced" data-testid="advanced">
            <button
                class="advanced-toggle"
                data-testid="advanced-toggle"
                aria-expanded=move || advanced.get().to_string()
                on:click=move |_| advanced.update(|open| *open = !*open)
            >
                {move || if advanced.get() { "▾ Advanced" } else { "▸ Advanced" }}
            </button>
            {move || {
                advanced
                    .get()
                    .then(|| {
                        view! {
                            <label class="field">
                                <span class="field-label">
                                    "Id (renaming rewires every reference)"
                                </span>
                                <input
                                    type="text"
                                    data-testid="field-id"
                                    prop:value=move || sid.get_value()
                                    on:change=rename
                                />
                            </label>
                            <p class="hint" data-testid="id-warning">
                                "Published versions and callers in the middle of a conversation know this state by its id: to them a new id is a new state. Its name can change freely; the id stays."
                            </p>
                        }
                    })
            }}
            {field_refusal(rename_error)}
        </div>
    }
}

#[component]
fn EndingFields(id: String) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id);
    let kind = Memo::new(move |_| {
        read_state(editor, &sid.get_value(), |s| match &s.ending {
            None | Some(Ending::Complete {}) => "complete",
            Some(Ending::HangUp {}) => "hang_up",
            Some(Ending::HandOff { .. }) => "hand_off",
            Some(Ending::Resume {}) => "resume",
        })
        .unwrap_or("complete")
        .to_string()
    });
    let hand_off = Memo::new(move |_| kind.get() == "hand_off");
    let part = move |which: u8| {
        move || {
            read_state(editor, &sid.get_value(), |s| match &s.ending {
                Some(Ending::HandOff { to, reason }) => {
                    if which == 0 {
                        to.clone()
                    } else {
                        reason.clone()
                    }
                }
                _ => String::new(),
            })
            .unwrap_or_default()
        }
    };
    let set_part = move |which: u8| {
        move |v: String| {
            let id = sid.get_value();
            edit_state(editor, &id, Some(format!("{id}:ending:{which}")), |s| {
                if let Some(Ending::HandOff { to, reason }) = &mut s.ending {
                    if which == 0 {
                        *to = v
                    } else {
                        *reason = v
                    }
                }
            });
        }
    };
    view! {
        <div class="subsection">
            <p class="hint">"No transitions leave this state, so the conversation ends here."</p>
            {choice(
                "Ending",
                "ending",
                String::new(),
                || {
                    vec![
                        ("complete".into(), "Complete".into()),
                        ("hang_up".into(), "Hang up".into()),
                        ("hand_off".into(), "Hand off to a person".into()),
                        ("resume".into(), "Return to the parked task".into()),
                    ]
                },
                move || kind.get(),
                move |v| {
                    let id = sid.get_value();
                    edit_state(
                        editor,
                        &id,
                        None,
                        |s| {
                            s.ending = match v.as_str() {
                                "hang_up" => Some(Ending::HangUp {}),
                                "hand_off" => {
                                    Some(Ending::HandOff {
                                        to: String::new(),
                                        reason: String::new(),
                                    })
                                }
                                "resume" => Some(Ending::Resume {}),
                                _ => None,
                            };
                        },
                    );
                },
            )}
            {move || {
                hand_off
                    .get()
                    .then(|| {
                        view! {
                            {typed(
                                editor,
                                Extent::Line,
                                "Hand off to",
                                "ending-to",
                                part(0),
                                set_part(0),
                            )}
                            {typed(
                                editor,
                                Extent::Line,
                                "Reason",
                                "ending-reason",
                                part(1),
                                set_part(1),
                            )}
                        }
                    })
            }}
        </div>
    }
}

#[component]
fn GoalFields(id: String) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id);
    let goal_text = move |f: fn(&Goal) -> String| {
        move || {
            read_state(editor, &sid.get_value(), |s| {
                s.goal.as_ref().map(f).unwrap_or_default()
            })
            .unwrap_or_default()
        }
    };
    let set_goal = move |field: &'static str, f: fn(&mut Goal, String)| {
        move |v: String| {
            let id = sid.get_value();
            edit_state(editor, &id, Some(format!("{id}:goal:{field}")), |s| {
                let g = s.goal.get_or_insert_with(|| Goal {
                    objective: String::new(),
                    success_description: String::new(),
                    deliverables: Vec::new(),
                });
                f(g, v);
            });
        }
    };
    view! {
        <div class="subsection">
            <h4>"Goal"</h4>
            {template_area(
                editor,
                "Objective",
                "objective",
                goal_text(|g| g.objective.clone()),
                set_goal("objective", |g, v| g.objective = v),
            )}
            {template_area(
                editor,
                "What success looks like",
                "success-description",
                goal_text(|g| g.success_description.clone()),
                set_goal("success", |g, v| g.success_description = v),
            )}
            <DeliverableList id=sid.get_value() task=None />
        </div>
    }
}

/// The name a state keeps when its title was committed as `typed`: `kept` (its last name) when
/// `typed` is blank and there is one; none when `typed` stands.
pub fn title_kept(typed: &str, kept: &str) -> Option<String> {
    (typed.trim().is_empty() && !kept.trim().is_empty()).then(|| kept.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_emptied_title_is_refused_and_the_last_name_kept() {
        assert_eq!(title_kept("", "Order"), Some("Order".into()));
        assert_eq!(title_kept("   ", "Order"), Some("Order".into()));
        assert_eq!(title_kept("Order placed", "Order"), None);
        // A state that never had a name has none to keep: validation says so instead.
        assert_eq!(title_kept("", ""), None);
    }

    #[test]
    fn a_goal_state_gets_a_goal_to_fill_in_and_an_empty_one_goes_with_the_mode() {
        let mut s: State = serde_json::from_str(r#"{"id": "ask", "title": "Ask"}"#).unwrap();
        change_mode(&mut s, StateType::Goal);
        assert!(s.goal.is_some());
        change_mode(&mut s, StateType::Strict);
        assert_eq!((s.kind, s.goal.is_none()), (StateType::Strict, true));
        change_mode(&mut s, StateType::Goal);
        s.goal.as_mut().unwrap().objective = "Book a viewing".into();
        change_mode(&mut s, StateType::Loose);
        assert!(s.goal.is_some(), "a goal the author wrote is kept");
    }
}
