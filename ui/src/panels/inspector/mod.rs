//! The inspector: the fields of what is selected (a state, a transition, or the plan itself when
//! nothing is), with the problems found there above them. Read-only while a version or a
//! comparison is shown.

mod access;
mod changes;
mod checklist;
mod condition;
mod conflicts;
mod deliverables;
mod evaluations;
mod field_problem;
mod fields;
mod interruptions;
mod list;
mod names;
mod plan;
mod rules;
mod session_state_form;
mod session_states;
mod state;
mod tasks;
mod tools;
mod transition;

use leptos::prelude::*;
use plan_core::edit::{delete_impact, Command};
use plan_core::Report;

use crate::editor::Editor;
use crate::test_chat::TestChat;
use access::run;

#[component]
pub fn Inspector(report: Memo<Report>) -> impl IntoView {
    // The fields below find their own problems in it (`field_problem`).
    provide_context(report);
    let editor = expect_context::<Editor>();
    let test_chat = expect_context::<TestChat>();
    // Rebuilt only when what is selected changes, not on every edit, so fields keep focus.
    let subject = Memo::new(move |_| {
        editor
            .selection
            .with(|s| match (&s.transition, s.states.as_slice()) {
                (Some((from, i)), _) => Subject::Transition(from.clone(), *i),
                (None, [one]) => Subject::State(one.clone()),
                (None, []) => Subject::Plan,
                (None, many) => Subject::Many(many.len()),
            })
    });
    let read_only = move || !editor.mode.with(|m| m.is_draft());
    // No plan open (none yet, or one that cannot be read): no empty fields to type into.
    let open = editor.plan_open;
    move || {
        if !open.get() {
            return view! {
                <p class="hint" data-testid="inspector-no-plan">
                    "No plan is open: pick one in the list of plans, or make one with + New."
                </p>
            }
            .into_any();
        }
        view! {
            {move || match subject.get() {
                Subject::State(id) => {
                    Some(
                        view! {
                            <div class="from-here">
                                <button
                                    data-testid="chat-from-here"
                                    title="A test conversation that begins in this state, with values you give"
                                    on:click=move |_| test_chat.test_from(id.clone())
                                >
                                    "▶ Test from here"
                                </button>
                            </div>
                        },
                    )
                }
                _ => None,
            }}
            {move || match subject.get() {
                Subject::Plan => Some(view! { <conflicts::ConflictChoices state=None /> }),
                Subject::State(id) | Subject::Transition(id, _) => {
                    Some(view! { <conflicts::ConflictChoices state=Some(id) /> })
                }
                Subject::Many(_) => None,
            }}
            <Inline report=report subject=subject />
            // One switch for every field: nothing of a version can be typed into or clicked (`inert`;
            // a disabled <fieldset> did the same, but WebKitGTK then scrolled no field inside it into
            // view, and end-to-end tests could not reach the fields lower down).
            <div class="inspector-fields" inert=move || read_only().then_some("")>
                {move || match subject.get() {
                    Subject::Plan => view! { <plan::PlanInspector /> }.into_any(),
                    Subject::State(id) => view! { <state::StateInspector id=id /> }.into_any(),
                    Subject::Transition(from, i) => {
                        view! { <transition::TransitionInspector from=from index=i /> }.into_any()
                    }
                    Subject::Many(n) => view! { <Several count=n /> }.into_any(),
                }}
            </div>
        }
        .into_any()
    }
}

/// Several states selected: what a delete would take with them.
#[component]
fn Several(count: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let ids = editor.selection.get_untracked().states;
    let (states, arrows) = editor.plan.with_untracked(|p| {
        p.as_ref()
            .map(|p| delete_impact(p, &ids))
            .unwrap_or_default()
    });
    view! {
        <div class="inspector-section">
            <h3>{format!("{count} states selected")}</h3>
            <p class="hint">"Drag any of them to move them together; Delete removes them."</p>
            <button
                class="danger"
                data-testid="delete-selection"
                on:click=move |_| {
                    let ids = editor.selection.get_untracked().states;
                    run(editor, Command::DeleteStates { ids }, None);
                    editor.select(Default::default());
                }
            >
                {format!("Delete {states} states and {arrows} transitions")}
            </button>
        </div>
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Subject {
    Plan,
    State(String),
    Transition(String, usize),
    Many(usize),
}

/// The problems of what is selected, above its fields.
#[component]
fn Inline(report: Memo<Report>, subject: Memo<Subject>) -> impl IntoView {
    let mine = move || {
        let subject = subject.get();
        report.with(|r| {
            r.diagnostics
                .iter()
                .filter(|d| match &subject {
                    Subject::State(id) => {
                        d.location.state_id.as_deref() == Some(id)
                            && d.location.transition_index.is_none()
                    }
                    Subject::Transition(from, i) => {
                        d.location.state_id.as_deref() == Some(from)
                            && d.location.transition_index == Some(*i)
                    }
                    Subject::Plan => d.location.state_id.is_none(),
                    Subject::Many(_) => false,
                })
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    view! {
        <ul class="inline-problems">
            {move || {
                mine()
                    .into_iter()
                    .map(|d| {
                        let path = d.location.path.clone();
                        view! {
                            // A click leads to the field it is about, where it is said again.
                            <li
                                class=format!("inline-problem {}", d.severity.as_str())
                                data-testid="inline-problem"
                                data-code=d.code.as_str()
                                title="Show the field"
                                on:click=move |_| crate::focus::focus_field_of(&path)
                            >
                                {d.message.clone()}
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ul>
    }
}
