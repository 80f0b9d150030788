//! The right-hand panel: the inspector for the selection (a state, a transition, or the plan),
//! and the Problems tab.

mod condition;
mod fields;
mod plan;
mod problems;
mod state;
mod transition;

use leptos::prelude::*;
use plan_core::edit::{delete_impact, Command};
use plan_core::Report;

use crate::editor::Editor;
pub use fields::focus_field_of;
pub use problems::Problems;

/// Which tab is showing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Inspect,
    Problems,
}

#[component]
pub fn Panel(
    editor: Editor,
    report: Memo<Report>,
    tab: RwSignal<Tab>,
    on_problem: Callback<plan_core::Diagnostic>,
) -> impl IntoView {
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
    let counts = move || {
        report.with(|r| {
            let e = r.count(plan_core::Severity::Error);
            let w = r.count(plan_core::Severity::Warning);
            match (e, w) {
                (0, 0) => "Problems".to_string(),
                (e, w) => format!("Problems ({})", e + w),
            }
        })
    };
    view! {
        <aside class="panel">
            <div class="tabs">
                <button class:active=move || tab.get() == Tab::Inspect data-testid="tab-inspect" on:click=move |_| tab.set(Tab::Inspect)>"Inspector"</button>
                <button class:active=move || tab.get() == Tab::Problems data-testid="tab-problems" on:click=move |_| tab.set(Tab::Problems)>{counts}</button>
            </div>
            <div class="panel-body">
                {move || (tab.get() == Tab::Inspect).then(|| view! { <Inline report=report subject=subject /> })}
                {move || match tab.get() {
                    Tab::Problems => view! { <Problems report=report on_problem=on_problem /> }.into_any(),
                    Tab::Inspect => match subject.get() {
                        Subject::Plan => view! { <plan::PlanInspector editor=editor /> }.into_any(),
                        Subject::State(id) => view! { <state::StateInspector editor=editor id=id /> }.into_any(),
                        Subject::Transition(from, i) => view! { <transition::TransitionInspector editor=editor from=from index=i /> }.into_any(),
                        Subject::Many(n) => {
                            let ids = editor.selection.get_untracked().states;
                            let (states, arrows) = editor.plan.with_untracked(|p| p.as_ref().map(|p| delete_impact(p, &ids)).unwrap_or_default());
                            view! {
                                <div class="inspector-section">
                                    <h3>{format!("{n} states selected")}</h3>
                                    <p class="hint">"Drag any of them to move them together; Delete removes them."</p>
                                    <button class="danger" data-testid="delete-selection" on:click=move |_| {
                                        let ids = editor.selection.get_untracked().states;
                                        editor.dispatch(Command::DeleteStates { ids });
                                        editor.selection.set(Default::default());
                                    }>{format!("Delete {states} states and {arrows} transitions")}</button>
                                </div>
                            }.into_any()
                        }
                    },
                }}
            </div>
        </aside>
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
            {move || mine().into_iter().map(|d| view! {
                <li class=format!("inline-problem {}", d.severity.as_str()) data-testid="inline-problem" data-code=d.code.as_str()>
                    {d.message.clone()}
                </li>
            }).collect_view()}
        </ul>
    }
}
