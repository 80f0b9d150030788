//! A state's tasks in the inspector: each task's id (renaming it is one step), description,
//! instruction, whether it is required or asked afresh on every entry, and its deliverables.

use leptos::prelude::*;
use plan_core::edit::{Command, Renamed};
use plan_core::plan::{Plan, Task};

use super::access::read_state;
use super::deliverables::DeliverableList;
use super::fields::{check, name_field, typed, Extent};
use super::list::{list_items, op_button, Adder, Items};
use super::session_states::template_area;
use crate::editor::Editor;
use crate::panels::list_ops::{fresh_id, ListOp};

/// State `id`'s tasks, as the inspector edits them.
fn tasks(editor: Editor, id: String) -> Items<Task> {
    Items::of_state(
        editor,
        id,
        None,
        "task",
        |s, _| Some(&s.tasks),
        |s, _| Some(&mut s.tasks),
    )
}

/// A new task beside `list`: `task-N`, required, nothing to collect yet.
fn fresh(_plan: &Plan, list: &[Task]) -> Task {
    Task {
        id: fresh_id("task-", list.len() + 1, |id| {
            list.iter().any(|t| t.id == id)
        }),
        description: String::new(),
        instruction: String::new(),
        required: true,
        deliverables: Vec::new(),
        ask_again: false,
    }
}

#[component]
pub fn TaskList(id: String) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id.clone());
    let list = tasks(editor, id);
    view! {
        <div class="subsection">
            <h4>"Tasks"</h4>
            {list_items(
                list,
                move |i| view! { <TaskFields id=sid.get_value() index=i /> },
                Adder {
                    testid: "add-task",
                    label: "+ Add task",
                    make: fresh,
                },
            )}
        </div>
    }
}

#[component]
fn TaskFields(id: String, index: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id.clone());
    let list = tasks(editor, id);
    let get = move |f: fn(&Task) -> String| list.text(index, f);
    let set = move |field: &'static str, f: fn(&mut Task, String)| list.set_text(index, field, f);
    view! {
        <div class="task" data-testid="task" data-task-index=index>
            <div class="task-head">
                <span class="task-number">{format!("Task {}", index + 1)}</span>
                {op_button(list, index, ListOp::Up, "task-up", "↑", Some("Move up"))}
                {op_button(list, index, ListOp::Down, "task-down", "↓", Some("Move down"))}
                {op_button(list, index, ListOp::Remove, "remove-task", "✕", Some("Remove task"))}
            </div>
            {name_field(
                editor,
                "Name",
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
            {typed(
                editor,
                Extent::Line,
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
                list.flag(index, |t| t.required),
                list.set_flag(index, |t, on| t.required = on),
            )}
            {check(
                "Ask afresh on every entry (forget its values when the state is entered again)",
                "task-ask-again",
                list.flag(index, |t| t.ask_again),
                list.set_flag(index, |t, on| t.ask_again = on),
            )}
            <DeliverableList id=sid.get_value() task=Some(index) />
        </div>
    }
}
