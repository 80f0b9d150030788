//! A state's tasks in the inspector: each task's id (renaming it is one step), description,
//! instruction, whether it is required or asked afresh on every entry, and its deliverables.

use leptos::prelude::*;
use plan_core::edit::{Command, Renamed};
use plan_core::plan::Task;

use super::access::{edit_state, read_state};
use super::deliverables::DeliverableList;
use super::fields::{check, name_field, text};
use super::session_states::template_area;
use crate::editor::Editor;

#[component]
pub fn TaskList(id: String) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id);
    let count = move || read_state(editor, &sid.get_value(), |s| s.tasks.len()).unwrap_or(0);
    let add = move |_| {
        let id = sid.get_value();
        edit_state(editor, &id, None, |s| {
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
                <TaskFields id=sid.get_value() index=i />
            </For>
            <button class="add" data-testid="add-task" on:click=add>
                "+ Add task"
            </button>
        </div>
    }
}

#[component]
fn TaskFields(id: String, index: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id);
    let get = move |f: fn(&Task) -> String| {
        move || {
            read_state(editor, &sid.get_value(), |s| {
                s.tasks.get(index).map(f).unwrap_or_default()
            })
            .unwrap_or_default()
        }
    };
    let set = move |field: &'static str, f: fn(&mut Task, String)| {
        move |v: String| {
            let id = sid.get_value();
            edit_state(
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
            edit_state(editor, &id, None, |s| f(&mut s.tasks, index));
        }
    };
    view! {
        <div class="task" data-testid="task" data-task-index=index>
            <div class="task-head">
                <span class="task-number">{format!("Task {}", index + 1)}</span>
                <button
                    title="Move up"
                    data-testid="task-up"
                    on:click=op(|t, i| {
                        if i > 0 {
                            t.swap(i, i - 1)
                        }
                    })
                >
                    "↑"
                </button>
                <button
                    title="Move down"
                    data-testid="task-down"
                    on:click=op(|t, i| {
                        if i + 1 < t.len() {
                            t.swap(i, i + 1)
                        }
                    })
                >
                    "↓"
                </button>
                <button
                    title="Remove task"
                    data-testid="remove-task"
                    on:click=op(|t, i| {
                        if i < t.len() {
                            t.remove(i);
                        }
                    })
                >
                    "✕"
                </button>
            </div>
            {name_field(
                editor,
                "Id",
                "task-id",
                get(|t| t.id.clone()),
                move |to| {
                    let state = sid.get_value();
                    let from = read_state(
                            editor,
                            &state,
                            |s| s.tasks.get(index).map(|t| t.id.clone()),
                        )
                        .flatten()?;
                    Some(Command::Rename {
                        what: Renamed::Task { state },
                        from,
                        to: to.trim().to_string(),
                    })
                },
            )}
            {text(
                editor,
                "Description",
                "task-description",
                get(|t| t.description.clone()),
                set("description", |t, v| t.description = v),
            )}
            {template_area(
                editor,
                "Instruction",
                "task-instruction",
                get(|t| t.instruction.clone()),
                set("instruction", |t, v| t.instruction = v),
            )}
            {check(
                "Required",
                "task-required",
                move || {
                    read_state(
                            editor,
                            &sid.get_value(),
                            |s| s.tasks.get(index).is_some_and(|t| t.required),
                        )
                        .unwrap_or(true)
                },
                move |on| {
                    let id = sid.get_value();
                    edit_state(
                        editor,
                        &id,
                        None,
                        |s| {
                            if let Some(t) = s.tasks.get_mut(index) {
                                t.required = on;
                            }
                        },
                    );
                },
            )}
            {check(
                "Ask afresh on every entry (forget its values when the state is entered again)",
                "task-ask-again",
                move || {
                    read_state(
                            editor,
                            &sid.get_value(),
                            |s| s.tasks.get(index).is_some_and(|t| t.ask_again),
                        )
                        .unwrap_or(false)
                },
                move |on| {
                    let id = sid.get_value();
                    edit_state(
                        editor,
                        &id,
                        None,
                        |s| {
                            if let Some(t) = s.tasks.get_mut(index) {
                                t.ask_again = on;
                            }
                        },
                    );
                },
            )}
            <DeliverableList id=sid.get_value() task=Some(index) />
        </div>
    }
}
