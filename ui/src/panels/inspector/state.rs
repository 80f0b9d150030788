//! The inspector of one state: id (renaming rewires every reference), title, mode, texts, allowed
//! tools, ending, tasks with their deliverables, and a goal state's goal.

use leptos::prelude::*;
use plan_core::edit::{Command, Renamed};
use plan_core::plan::{Deliverable, DeliverableType, Ending, Goal, Plan, State, StateType, Task};

use super::changes::{ChangesEditor, ChangesOf};
use super::fields::{area, check, choice, name_field, text};
use super::names::{key_edit, KeyEdit};
use super::session::template_area;
use crate::editor::Editor;

/// Reads something of state `id` (tracked, so the view follows the plan).
pub fn read<T>(editor: Editor, id: &str, f: impl FnOnce(&State) -> T) -> Option<T> {
    editor
        .plan
        .with(|p| p.as_ref().and_then(|p| p.state(id)).map(f))
}

/// Edits state `id` through one `ReplaceState`; `burst` names the field for typing.
pub fn edit(editor: Editor, id: &str, burst: Option<String>, f: impl FnOnce(&mut State)) {
    let Some(mut s) = editor
        .plan
        .with_untracked(|p| p.as_ref().and_then(|p| p.state(id)).cloned())
    else {
        return;
    };
    f(&mut s);
    let command = Command::ReplaceState {
        id: id.to_string(),
        state: Box::new(s),
    };
    match burst {
        Some(key) => editor.dispatch_typing(command, &key),
        None => editor.dispatch(command),
    };
}

fn mode_name(k: StateType) -> &'static str {
    match k {
        StateType::Strict => "strict",
        StateType::Loose => "loose",
        StateType::Goal => "goal",
    }
}

#[component]
pub fn StateInspector(editor: Editor, id: String) -> impl IntoView {
    let rename_error = RwSignal::new(None::<String>);
    let sid = StoredValue::new(id.clone());
    let get = move |f: fn(&State) -> String| {
        move || read(editor, &sid.get_value(), f).unwrap_or_default()
    };
    let set = move |field: &'static str, f: fn(&mut State, String)| {
        move |v: String| {
            let id = sid.get_value();
            edit(editor, &id, Some(format!("{id}:{field}")), |s| f(s, v));
        }
    };
    let rename = move |e: leptos::ev::Event| {
        let to = event_target_value(&e);
        let from = sid.get_value();
        if editor.dispatch(Command::RenameState {
            from: from.clone(),
            to: to.trim().to_string(),
        }) {
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
    // Parts of the form that appear or go away are keyed on memos, so that typing elsewhere never
    // rebuilds them (a rebuilt field loses the caret).
    let is_goal = Memo::new(move |_| {
        read(editor, &sid.get_value(), |s| s.kind == StateType::Goal).unwrap_or(false)
    });
    let has_transitions = Memo::new(move |_| {
        read(editor, &sid.get_value(), |s| !s.transitions.is_empty()).unwrap_or(false)
    });
    let tools = Memo::new(move |_| {
        editor.plan.with(|p| {
            p.as_ref()
                .map(|p| p.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });

    view! {
        <div class="inspector-section" data-testid="state-inspector">
            <h3>"State"</h3>
            <label class="field">
                <span class="field-label">"Id"</span>
                <input type="text" data-testid="field-id" prop:value=move || sid.get_value() on:change=rename />
            </label>
            {move || rename_error.get().map(|m| view! { <p class="field-error" data-testid="field-error">{m}</p> })}
            {text(editor, "Title", "title", get(|s| s.title.clone()), set("title", |s, v| s.title = v))}
            {choice(
                "Mode",
                "type",
                String::new(),
                || vec![
                    ("strict".into(), "Strict: one task at a time, in order".into()),
                    ("loose".into(), "Loose: tasks in any order".into()),
                    ("goal".into(), "Goal: an objective, no task list".into()),
                ],
                move || read(editor, &sid.get_value(), |s| mode_name(s.kind).to_string()).unwrap_or_default(),
                move |v| {
                    let id = sid.get_value();
                    edit(editor, &id, None, |s| {
                        s.kind = match v.as_str() {
                            "strict" => StateType::Strict,
                            "goal" => StateType::Goal,
                            _ => StateType::Loose,
                        };
                        if s.kind == StateType::Goal && s.goal.is_none() {
                            s.goal = Some(Goal { objective: String::new(), success_description: String::new(), deliverables: Vec::new() });
                        }
                        if s.kind != StateType::Goal && s.goal.as_ref().is_some_and(|g| g.objective.is_empty() && g.deliverables.is_empty()) {
                            s.goal = None;
                        }
                    });
                },
            )}
            {area(editor, "Description", "description", get(|s| s.description.clone()), set("description", |s, v| s.description = v))}
            {template_area(editor, "Instructions for the agent (templates allowed)", "instructions", get(|s| s.instructions.clone()), set("instructions", |s, v| s.instructions = v))}
            <ChangesEditor editor=editor at=ChangesOf::Entry(sid.get_value()) label="On enter: changes to session states" />
            {check(
                "Can be interrupted (off: only an urgent interruption takes over here)",
                "interruptible",
                move || read(editor, &sid.get_value(), |s| s.interruptible).unwrap_or(true),
                move |on| {
                    let id = sid.get_value();
                    edit(editor, &id, None, |s| s.interruptible = on);
                },
            )}
            {move || {
                let names = tools.get();
                (!names.is_empty()).then(|| view! {
                    <div class="field">
                        <span class="field-label">"Allowed tools"</span>
                        {names.into_iter().map(|name| {
                            let n = name.clone();
                            let n2 = name.clone();
                            view! {
                                <label class="field check">
                                    <input
                                        type="checkbox"
                                        data-testid="field-allowed-tool"
                                        data-tool=name.clone()
                                        prop:checked=move || read(editor, &sid.get_value(), |s| s.allowed_tools.contains(&n)).unwrap_or(false)
                                        on:change=move |e| {
                                            let on = event_target_checked(&e);
                                            let id = sid.get_value();
                                            let name = n2.clone();
                                            edit(editor, &id, None, |s| {
                                                s.allowed_tools.retain(|t| *t != name);
                                                if on { s.allowed_tools.push(name); }
                                            });
                                        }
                                    />
                                    <span>{name}</span>
                                </label>
                            }
                        }).collect_view()}
                    </div>
                })
            }}
            {move || (!has_transitions.get()).then(|| view! { <EndingFields editor=editor id=sid.get_value() /> })}
            {move || if is_goal.get() {
                view! { <GoalFields editor=editor id=sid.get_value() /> }.into_any()
            } else {
                view! { <TaskList editor=editor id=sid.get_value() /> }.into_any()
            }}
        </div>
    }
}

#[component]
fn EndingFields(editor: Editor, id: String) -> impl IntoView {
    let sid = StoredValue::new(id);
    let kind = Memo::new(move |_| {
        read(editor, &sid.get_value(), |s| match &s.ending {
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
            read(editor, &sid.get_value(), |s| match &s.ending {
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
            edit(editor, &id, Some(format!("{id}:ending:{which}")), |s| {
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
                || vec![
                    ("complete".into(), "Complete".into()),
                    ("hang_up".into(), "Hang up".into()),
                    ("hand_off".into(), "Hand off to a person".into()),
                    ("resume".into(), "Return to the parked task".into()),
                ],
                move || kind.get(),
                move |v| {
                    let id = sid.get_value();
                    edit(editor, &id, None, |s| {
                        s.ending = match v.as_str() {
                            "hang_up" => Some(Ending::HangUp {}),
                            "hand_off" => Some(Ending::HandOff { to: String::new(), reason: String::new() }),
                            "resume" => Some(Ending::Resume {}),
                            _ => None,
                        };
                    });
                },
            )}
            {move || hand_off.get().then(|| view! {
                {text(editor, "Hand off to", "ending-to", part(0), set_part(0))}
                {text(editor, "Reason", "ending-reason", part(1), set_part(1))}
            })}
        </div>
    }
}

#[component]
fn GoalFields(editor: Editor, id: String) -> impl IntoView {
    let sid = StoredValue::new(id);
    let goal_text = move |f: fn(&Goal) -> String| {
        move || {
            read(editor, &sid.get_value(), |s| {
                s.goal.as_ref().map(f).unwrap_or_default()
            })
            .unwrap_or_default()
        }
    };
    let set_goal = move |field: &'static str, f: fn(&mut Goal, String)| {
        move |v: String| {
            let id = sid.get_value();
            edit(editor, &id, Some(format!("{id}:goal:{field}")), |s| {
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
            {template_area(editor, "Objective", "objective", goal_text(|g| g.objective.clone()), set_goal("objective", |g, v| g.objective = v))}
            {template_area(editor, "What success looks like", "success-description", goal_text(|g| g.success_description.clone()), set_goal("success", |g, v| g.success_description = v))}
            <DeliverableList editor=editor id=sid.get_value() task=None />
        </div>
    }
}

#[component]
fn TaskList(editor: Editor, id: String) -> impl IntoView {
    let sid = StoredValue::new(id);
    let count = move || read(editor, &sid.get_value(), |s| s.tasks.len()).unwrap_or(0);
    let add = move |_| {
        let id = sid.get_value();
        edit(editor, &id, None, |s| {
            let mut n = s.tasks.len() + 1;
            while s.tasks.iter().any(|t| t.id == format!("task-{n}")) {
                n += 1;
            }
            s.tasks.push(Task {
                id: format!("task-{n}"),
                description: String::new(),
                instruction: String::new(),
                required: true,
                deliverables: Vec::new(),
                ask_again: false,
            });
        });
    };
    view! {
        <div class="subsection">
            <h4>"Tasks"</h4>
            <For each=move || 0..count() key=|i| *i let:i>
                <TaskFields editor=editor id=sid.get_value() index=i />
            </For>
            <button class="add" data-testid="add-task" on:click=add>"+ Add task"</button>
        </div>
    }
}

#[component]
fn TaskFields(editor: Editor, id: String, index: usize) -> impl IntoView {
    let sid = StoredValue::new(id);
    let get = move |f: fn(&Task) -> String| {
        move || {
            read(editor, &sid.get_value(), |s| {
                s.tasks.get(index).map(f).unwrap_or_default()
            })
            .unwrap_or_default()
        }
    };
    let set = move |field: &'static str, f: fn(&mut Task, String)| {
        move |v: String| {
            let id = sid.get_value();
            edit(
                editor,
                &id,
                Some(format!("{id}:task:{index}:{field}")),
                |s| {
                    if let Some(t) = s.tasks.get_mut(index) {
                        f(t, v);
                    }
                },
            );
        }
    };
    let op = move |f: fn(&mut Vec<Task>, usize)| {
        move |_| {
            let id = sid.get_value();
            edit(editor, &id, None, |s| f(&mut s.tasks, index));
        }
    };
    view! {
        <div class="task" data-testid="task" data-task-index=index>
            <div class="task-head">
                <span class="task-number">{format!("Task {}", index + 1)}</span>
                <button title="Move up" data-testid="task-up" on:click=op(|t, i| if i > 0 { t.swap(i, i - 1) })>"↑"</button>
                <button title="Move down" data-testid="task-down" on:click=op(|t, i| if i + 1 < t.len() { t.swap(i, i + 1) })>"↓"</button>
                <button title="Remove task" data-testid="remove-task" on:click=op(|t, i| { if i < t.len() { t.remove(i); } })>"✕"</button>
            </div>
            {name_field(editor, "Id", "task-id", get(|t| t.id.clone()), move |to| {
                let state = sid.get_value();
                let from = read(editor, &state, |s| s.tasks.get(index).map(|t| t.id.clone())).flatten()?;
                Some(Command::Rename { what: Renamed::Task { state }, from, to: to.trim().to_string() })
            })}
            {text(editor, "Description", "task-description", get(|t| t.description.clone()), set("description", |t, v| t.description = v))}
            {template_area(editor, "Instruction", "task-instruction", get(|t| t.instruction.clone()), set("instruction", |t, v| t.instruction = v))}
            {check(
                "Required",
                "task-required",
                move || read(editor, &sid.get_value(), |s| s.tasks.get(index).is_some_and(|t| t.required)).unwrap_or(true),
                move |on| {
                    let id = sid.get_value();
                    edit(editor, &id, None, |s| if let Some(t) = s.tasks.get_mut(index) { t.required = on });
                },
            )}
            {check(
                "Ask afresh on every entry (forget its values when the state is entered again)",
                "task-ask-again",
                move || read(editor, &sid.get_value(), |s| s.tasks.get(index).is_some_and(|t| t.ask_again)).unwrap_or(false),
                move |on| {
                    let id = sid.get_value();
                    edit(editor, &id, None, |s| if let Some(t) = s.tasks.get_mut(index) { t.ask_again = on });
                },
            )}
            <DeliverableList editor=editor id=sid.get_value() task=Some(index) />
        </div>
    }
}

/// The deliverables of task `task` of state `id`, or of its goal (`None`).
fn deliverables_mut(s: &mut State, task: Option<usize>) -> Option<&mut Vec<Deliverable>> {
    match task {
        Some(i) => s.tasks.get_mut(i).map(|t| &mut t.deliverables),
        None => s.goal.as_mut().map(|g| &mut g.deliverables),
    }
}

fn deliverables(s: &State, task: Option<usize>) -> Option<&Vec<Deliverable>> {
    match task {
        Some(i) => s.tasks.get(i).map(|t| &t.deliverables),
        None => s.goal.as_ref().map(|g| &g.deliverables),
    }
}

#[component]
fn DeliverableList(editor: Editor, id: String, task: Option<usize>) -> impl IntoView {
    let sid = StoredValue::new(id);
    let count = move || {
        read(editor, &sid.get_value(), |s| {
            deliverables(s, task).map_or(0, Vec::len)
        })
        .unwrap_or(0)
    };
    let add = move |_| {
        let id = sid.get_value();
        edit(editor, &id, None, |s| {
            if let Some(list) = deliverables_mut(s, task) {
                let mut n = list.len() + 1;
                while list.iter().any(|d| d.key == format!("value_{n}")) {
                    n += 1;
                }
                list.push(Deliverable {
                    key: format!("value_{n}"),
                    kind: DeliverableType::String,
                    enum_values: None,
                    required: true,
                    description: String::new(),
                });
            }
        });
    };
    view! {
        <div class="deliverables">
            <For each=move || 0..count() key=|i| *i let:i>
                <DeliverableFields editor=editor id=sid.get_value() task=task index=i />
            </For>
            <button class="add" data-testid="add-deliverable" data-task-index=task.map_or("goal".to_string(), |t| t.to_string()) on:click=add>"+ Add value to collect"</button>
        </div>
    }
}

fn type_name(k: DeliverableType) -> &'static str {
    match k {
        DeliverableType::String => "string",
        DeliverableType::Number => "number",
        DeliverableType::Boolean => "boolean",
        DeliverableType::Enum => "enum",
    }
}

#[component]
fn DeliverableFields(
    editor: Editor,
    id: String,
    task: Option<usize>,
    index: usize,
) -> impl IntoView {
    let sid = StoredValue::new(id);
    let read_d = move |f: fn(&Deliverable) -> String| {
        move || {
            read(editor, &sid.get_value(), |s| {
                deliverables(s, task)
                    .and_then(|l| l.get(index))
                    .map(f)
                    .unwrap_or_default()
            })
            .unwrap_or_default()
        }
    };
    let edit_d = move |burst: Option<&'static str>, f: Box<dyn FnOnce(&mut Deliverable)>| {
        let id = sid.get_value();
        let key = burst.map(|b| format!("{id}:d:{task:?}:{index}:{b}"));
        edit(editor, &id, key, |s| {
            if let Some(d) = deliverables_mut(s, task).and_then(|l| l.get_mut(index)) {
                f(d);
            }
        });
    };
    // Suggestions exist only while the key is being edited, and only those that match what is
    // typed: a list of every key of the plan in every deliverable row, rebuilt on every change,
    // took half a second per click on a card of a 5,000-state plan.
    let editing_key = RwSignal::new(false);
    let typed = RwSignal::new(String::new());
    // The key is committed when the author leaves the field: a new name renames the key everywhere
    // (conditions and templates too), a key collected elsewhere is collected here as well.
    let key_refused = RwSignal::new(None::<String>);
    let commit_key = move |e: leptos::ev::Event| {
        let from = read_d(|d| d.key.clone())();
        let edit = editor.plan.with_untracked(|p| {
            p.as_ref()
                .map(|p| key_edit(p, &from, &event_target_value(&e)))
        });
        let ok = match edit {
            None | Some(KeyEdit::Nothing) => true,
            Some(KeyEdit::Rename { from, to }) => editor.dispatch(Command::Rename {
                what: Renamed::DeliverableKey,
                from,
                to,
            }),
            Some(KeyEdit::Reuse(to)) => {
                edit_d(None, Box::new(move |d| d.key = to));
                true
            }
        };
        key_refused.set(
            (!ok)
                .then(|| editor.notice.get_untracked().map(|n| n.text))
                .flatten(),
        );
        if !ok {
            if let Some(input) = e
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
            {
                input.set_value(&from);
            }
        }
    };
    let suggestions = move || {
        if !editing_key.get() {
            return Vec::new();
        }
        let typed = typed.get();
        // The key this row still has (the edit is committed on leaving the field) is not offered.
        let own = read_d(|d| d.key.clone())();
        let mut offered = editor.plan.with_untracked(|p| {
            p.as_ref()
                .map(|p| key_suggestions(p, &typed))
                .unwrap_or_default()
        });
        offered.retain(|k| *k != own);
        offered
    };
    let list_id = format!("keys-{}-{task:?}-{index}", sid.get_value());
    let is_enum = Memo::new(move |_| read_d(|d| type_name(d.kind).to_string())() == "enum");
    let where_ = task.map_or("goal".to_string(), |t| t.to_string());
    view! {
        <div class="deliverable" data-testid="deliverable" data-task-index=where_.clone() data-deliverable-index=index>
            <div class="deliverable-row">
                <label class="field">
                    <span class="field-label">"Key"</span>
                    <input
                        type="text"
                        list=list_id.clone()
                        data-testid="field-deliverable-key"
                        prop:value=read_d(|d| d.key.clone())
                        on:input=move |e| typed.set(event_target_value(&e).to_lowercase())
                        on:change=commit_key
                        on:focus=move |_| { typed.set(read_d(|d| d.key.to_lowercase())()); editing_key.set(true) }
                        on:blur=move |_| editing_key.set(false)
                    />
                    {move || key_refused.get().map(|m| view! { <p class="field-error" data-testid="field-error">{m}</p> })}
                    <datalist id=list_id>
                        {move || suggestions().into_iter().map(|k| view! { <option value=k></option> }).collect_view()}
                    </datalist>
                </label>
                {choice(
                    "Type",
                    "deliverable-type",
                    String::new(),
                    || ["string", "number", "boolean", "enum"].iter().map(|t| (t.to_string(), t.to_string())).collect(),
                    read_d(|d| type_name(d.kind).to_string()),
                    move |v| edit_d(None, Box::new(move |d| {
                        d.kind = match v.as_str() {
                            "number" => DeliverableType::Number,
                            "boolean" => DeliverableType::Boolean,
                            "enum" => DeliverableType::Enum,
                            _ => DeliverableType::String,
                        };
                        if d.kind == DeliverableType::Enum {
                            d.enum_values.get_or_insert_with(Vec::new);
                        } else {
                            d.enum_values = None;
                        }
                    })),
                )}
                <button class="remove" title="Remove" data-testid="remove-deliverable" on:click=move |_| {
                    let id = sid.get_value();
                    edit(editor, &id, None, |s| {
                        if let Some(l) = deliverables_mut(s, task) {
                            if index < l.len() { l.remove(index); }
                        }
                    });
                }>"✕"</button>
            </div>
            {move || is_enum.get().then(|| view! {
                <label class="field">
                    <span class="field-label">"Choices (comma-separated)"</span>
                    <input
                        type="text"
                        data-testid="field-enum-values"
                        prop:value=read_d(|d| d.enum_values.as_deref().unwrap_or_default().join(", "))
                        on:change=move |e| {
                            let v = event_target_value(&e);
                            edit_d(None, Box::new(move |d| {
                                d.enum_values = Some(v.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect());
                            }));
                        }
                    />
                </label>
                <div class="chips">
                    {move || read_d(|d| d.enum_values.as_deref().unwrap_or_default().join("\u{1f}"))().split('\u{1f}').filter(|c| !c.is_empty()).map(|c| view! { <span class="chip">{c.to_string()}</span> }).collect_view()}
                </div>
            })}
            {text(editor, "How to ask for it", "deliverable-description", read_d(|d| d.description.clone()), move |v| edit_d(Some("description"), Box::new(move |d| d.description = v)))}
            {check(
                "Required",
                "deliverable-required",
                move || read(editor, &sid.get_value(), |s| deliverables(s, task).and_then(|l| l.get(index)).is_some_and(|d| d.required)).unwrap_or(true),
                move |on| edit_d(None, Box::new(move |d| d.required = on)),
            )}
        </div>
    }
}

/// Most suggestions offered for a deliverable key.
const KEY_SUGGESTIONS: usize = 40;

/// The plan's deliverable keys containing `typed` (lowercase), sorted, without repeats, at most
/// [`KEY_SUGGESTIONS`]: what the key field offers while it is edited.
fn key_suggestions(plan: &Plan, typed: &str) -> Vec<String> {
    let mut keys: Vec<&str> = plan
        .states
        .iter()
        .flat_map(|s| s.deliverables())
        .map(|d| d.key.as_str())
        .filter(|k| !k.is_empty() && *k != typed && k.to_lowercase().contains(typed))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.truncate(KEY_SUGGESTIONS);
    keys.into_iter().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_suggestions_match_what_is_typed_without_repeats_and_are_capped() {
        let plan = plan_core::synthetic::plan(100);
        let all = key_suggestions(&plan, "");
        assert_eq!(all.len(), KEY_SUGGESTIONS, "capped: the plan has 300 keys");
        assert!(all.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
        let topics = key_suggestions(&plan, "topic_4");
        assert_eq!(topics[0], "topic_40", "the key typed is not offered again");
        assert!(topics.iter().all(|k| k.contains("topic_4")));
        assert_eq!(topics.len(), 10, "topic_40 to topic_49");
        assert_eq!(
            key_suggestions(&plan, "score_99"),
            Vec::<String>::new(),
            "the key itself is not offered"
        );
    }
}
