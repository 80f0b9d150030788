//! The plan's evaluations in the plan inspector (simulate.md, "Evaluations"; seed 001): questions
//! the judge answers about every simulated conversation, each with a checklist of the session
//! states it is limited to ("asked only while one of these is on"). What a form value means is
//! decided by pure functions, tested natively; the views only show and dispatch.

use leptos::prelude::*;
use plan_core::plan::{Evaluation, Plan};

use super::checklist::SessionStateChecklist;
use super::fields::{typed, Extent};
use super::list::{list_items, op_button, Adder, Items};
use crate::editor::Editor;
use crate::panels::list_ops::{fresh_id, ListOp};

/// A new evaluation beside `evaluations`: a fresh id, a question to rewrite, asked of every
/// conversation.
pub fn fresh(_plan: &Plan, evaluations: &[Evaluation]) -> Evaluation {
    Evaluation {
        id: fresh_id("evaluation-", evaluations.len() + 1, |id| {
            evaluations.iter().any(|e| e.id == id)
        }),
        title: String::new(),
        question: "Did the agent stay polite?".into(),
        only_while_active: Vec::new(),
    }
}

/// The plan's evaluations, as the inspector edits them.
fn items(editor: Editor) -> Items<Evaluation> {
    Items::of_plan(
        editor,
        "plan-evaluation",
        |p| &p.evaluations,
        |d| &mut d.evaluations,
    )
}

/// The plan's evaluations.
#[component]
pub fn EvaluationsSection() -> impl IntoView {
    let evaluations = items(expect_context::<Editor>());
    view! {
        <div class="subsection" data-testid="evaluations">
            <h4>"Evaluations"</h4>
            <p class="hint">
                "Questions a judge answers yes or no about every simulated conversation (the Simulate tab). One limited to session states is asked only of conversations in which one of them was on, and shown only those turns."
            </p>
            {list_items(
                evaluations,
                |i| view! { <EvaluationForm i=i /> },
                Adder {
                    testid: "add-evaluation",
                    label: "+ Add evaluation",
                    make: fresh,
                },
            )}
        </div>
    }
}

#[component]
fn EvaluationForm(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let evaluations = items(editor);
    let get = move |f: fn(&Evaluation) -> String| evaluations.text(i, f);
    view! {
        <div
            class="plan-evaluation"
            data-testid="evaluation-fields"
            data-evaluation-id=get(|e| e.id.clone())
        >
            {typed(
                editor,
                Extent::Line,
                "Name",
                "evaluation-title",
                get(|e| e.title.clone()),
                evaluations.set_text(i, "title", |e, v| e.title = v),
            )}
            {typed(
                editor,
                Extent::Lines,
                "Question for the judge (yes or no)",
                "evaluation-question",
                get(|e| e.question.clone()),
                evaluations.set_text(i, "question", |e, v| e.question = v),
            )}
            <SessionStateChecklist
                testid="evaluation-only-while"
                option_testid="only-while-option"
                label="Asked only while one of these session states is on (none ticked: always)"
                empty="No session states yet: add them above to limit this question to part of a conversation."
                chosen=Callback::new(move |()| evaluations.read(i, |e| e.only_while_active.clone()))
                choose=Callback::new(move |ids: Vec<String>| {
                    evaluations.edit(i, None, |e| e.only_while_active = ids);
                })
            />
            {op_button(
                evaluations,
                i,
                ListOp::Remove,
                "remove-evaluation",
                "Remove evaluation",
                None,
            )}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::super::list::fixtures::two_state_plan;
    use super::*;

    #[test]
    fn a_new_evaluation_has_a_fresh_id_a_question_and_no_limit() {
        let p = two_state_plan(serde_json::json!({
            "evaluations": [{"id": "evaluation-1", "question": "Q?"}]}));
        let e = fresh(&p, &p.evaluations);
        assert_eq!(e.id, "evaluation-2");
        assert!(!e.question.is_empty() && e.only_while_active.is_empty());
    }
}
