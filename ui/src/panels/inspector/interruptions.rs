//! Interruptions in the plan inspector (docs/interruptions.md): what may set the open task aside, each
//! with every field of the format (the condition builder for its condition). What a form value
//! means is decided by the pure functions at the top, tested natively; the views only show and
//! dispatch.

use leptos::prelude::*;
use plan_core::plan::{Interruption, InterruptionKind, Plan, Priority};

use super::condition::{optional_condition, OptionalWords, Root};
use super::fields::{choice, state_picker, typed, Extent};
use super::list::{first_state_after_start, list_items, op_button, Adder, Items};
use crate::editor::Editor;
use crate::panels::list_ops::{fresh_id, ListOp};

/// A new interruption for `plan`: a fresh id, a side question that goes to the first state that is
/// not the start (the start state, when it is the only one).
pub fn fresh(plan: &Plan, list: &[Interruption]) -> Interruption {
    Interruption {
        id: fresh_id("interruption-", list.len() + 1, |id| {
            list.iter().any(|x| x.id == id)
        }),
        title: String::new(),
        kind: InterruptionKind::Yield,
        target_state_id: first_state_after_start(plan),
        description: String::new(),
        phrases: Vec::new(),
        condition: None,
        priority: Priority::default(),
        ttl_turns: 0,
        only_in: Vec::new(),
    }
}

/// The items of a comma-separated field, trimmed, without empty ones or repeats.
pub fn items(typed: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in typed.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        if !out.iter().any(|o| o == item) {
            out.push(item.to_string());
        }
    }
    out
}

/// The kind chosen in the form; a `ttl_turns` only means something on a `yield`, so another kind
/// drops it (the checker would refuse it as `schema`).
pub fn set_kind(x: &mut Interruption, kind: &str) {
    x.kind = match kind {
        "abandon" => InterruptionKind::Abandon,
        "preempt" => InterruptionKind::Preempt,
        _ => InterruptionKind::Yield,
    };
    if x.kind != InterruptionKind::Yield {
        x.ttl_turns = 0;
    }
}
/// The plan's interruptions, as the inspector edits them.
fn interruptions(editor: Editor) -> Items<Interruption> {
    Items::of_plan(
        editor,
        "interruption",
        |p| &p.interruptions,
        |d| &mut d.interruptions,
    )
}

/// The plan's interruptions.
#[component]
pub fn InterruptionsSection() -> impl IntoView {
    let xs = interruptions(expect_context::<Editor>());
    view! {
        <div class="subsection" data-testid="interruptions">
            <h4>"Interruptions"</h4>
            <p class="hint">
                "What may set the open task aside: a side question parks it and comes back to it at a state that returns to the parked task; \"never mind\" drops it; an urgent request takes over even where the task cannot be interrupted."
            </p>
            {list_items(
                xs,
                |i| view! { <InterruptionForm i=i /> },
                Adder {
                    testid: "add-interruption",
                    label: "+ Add interruption",
                    make: fresh,
                },
            )}
        </div>
    }
}

#[component]
fn InterruptionForm(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let xs = interruptions(editor);
    let get = move |f: fn(&Interruption) -> String| xs.text(i, f);
    let set = move |field: &'static str, f: fn(&mut Interruption, String)| xs.set_text(i, field, f);
    let id = get(|x| x.id.clone());
    let is_yield = xs.flag(i, |x| x.kind == InterruptionKind::Yield);
    let has_condition = xs.flag(i, |x| x.condition.is_some());
    view! {
        <div class="interruption" data-testid="interruption-fields" data-interruption-id=id>
            <label class="field">
                <span class="field-label">"Name"</span>
                <input
                    type="text"
                    data-testid="field-x-id"
                    prop:value=id
                    on:change=move |e| {
                        let v = event_target_value(&e).trim().to_string();
                        xs.edit(i, None, |x| x.id = v)
                    }
                />
            </label>
            {typed(
                editor,
                Extent::Line,
                "Title",
                "x-title",
                get(|x| x.title.clone()),
                set("title", |x, v| x.title = v),
            )}
            {choice(
                "What it does",
                "x-kind",
                i.to_string(),
                || {
                    vec![
                        ("yield".into(), "Side question: park the task, come back to it".into()),
                        ("abandon".into(), "Never mind: drop the task".into()),
                        (
                            "preempt".into(),
                            "Urgent: take over, even where the task cannot be interrupted".into(),
                        ),
                    ]
                },
                get(|x| x.kind.as_str().to_string()),
                move |v: String| xs.edit(i, None, |x| set_kind(x, &v)),
            )}
            {state_picker(
                "Goes to",
                "x-target",
                get(|x| x.target_state_id.clone()),
                move |v: String| xs.edit(i, None, |x| x.target_state_id = v),
            )}
            {typed(
                editor,
                Extent::Lines,
                "When it applies, in words (what a language model is told)",
                "x-description",
                get(|x| x.description.clone()),
                set("description", |x, v| x.description = v),
            )}
            <label class="field">
                <span class="field-label">
                    "Phrases the simulator listens for (comma-separated)"
                </span>
                <input
                    type="text"
                    data-testid="field-x-phrases"
                    prop:value=get(|x| x.phrases.join(", "))
                    on:change=move |e| {
                        let v = items(&event_target_value(&e));
                        xs.edit(i, None, |x| x.phrases = v)
                    }
                />
            </label>
            <label class="field">
                <span class="field-label">"Priority (lower wins when several fire)"</span>
                <input
                    type="number"
                    data-testid="field-x-priority"
                    prop:value=get(|x| x.priority.to_string())
                    on:change=move |e| {
                        if let Ok(n) = event_target_value(&e).parse::<f64>() {
                            xs.edit(i, None, |x| x.priority = Priority(n))
                        }
                    }
                />
            </label>
            <Show when=is_yield>
                <label class="field">
                    <span class="field-label">
                        "Forget the parked task after this many turns away (0: never)"
                    </span>
                    <input
                        type="number"
                        min="0"
                        data-testid="field-x-ttl"
                        prop:value=get(|x| x.ttl_turns.to_string())
                        on:change=move |e| {
                            if let Ok(n) = event_target_value(&e).parse::<i64>() {
                                xs.edit(i, None, |x| x.ttl_turns = n)
                            }
                        }
                    />
                </label>
            </Show>
            <label class="field">
                <span class="field-label">
                    "Only in these states (state ids, comma-separated; empty: any)"
                </span>
                <input
                    type="text"
                    data-testid="field-x-only-in"
                    prop:value=get(|x| x.only_in.join(", "))
                    on:change=move |e| {
                        let v = items(&event_target_value(&e));
                        xs.edit(i, None, |x| x.only_in = v)
                    }
                />
            </label>
            {optional_condition(
                OptionalWords {
                    label: "Fires by itself when",
                    testid: "x-condition",
                    add: "+ Add a condition",
                    remove: "Remove the condition",
                },
                has_condition,
                move || Root::Interruption {
                    id: xs.read(i, |x| x.id.clone()),
                },
                move |c| xs.edit(i, None, |x| x.condition = c),
            )}
            {op_button(xs, i, ListOp::Remove, "remove-interruption", "Remove interruption", None)}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::super::list::fixtures::two_state_plan;
    use super::*;

    fn plan() -> Plan {
        two_state_plan(serde_json::json!({
            "interruptions": [{"id": "interruption-1", "target_state_id": "b"}]}))
    }

    #[test]
    fn a_new_interruption_has_a_fresh_id_and_goes_to_a_state_other_than_the_start() {
        let p = plan();
        let x = fresh(&p, &p.interruptions);
        assert_eq!(x.id, "interruption-2");
        assert_eq!(x.target_state_id, "b");
        assert_eq!(x.kind, InterruptionKind::Yield);
    }

    #[test]
    fn comma_fields_are_trimmed_without_repeats() {
        assert_eq!(
            items(" never mind, forget it,,never mind "),
            ["never mind", "forget it"]
        );
    }

    #[test]
    fn a_kind_other_than_yield_drops_the_ttl() {
        let p = plan();
        let mut x = fresh(&p, &p.interruptions);
        x.ttl_turns = 3;
        set_kind(&mut x, "preempt");
        assert_eq!((x.kind, x.ttl_turns), (InterruptionKind::Preempt, 0));
    }
}
