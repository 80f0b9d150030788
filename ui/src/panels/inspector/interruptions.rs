//! Interruptions in the plan inspector (docs/interruptions.md): what may set the open task aside, each
//! with every field of the format (the condition builder for its condition). What a form value
//! means is decided by the pure functions at the top, tested natively; the views only show and
//! dispatch.

use leptos::prelude::*;
use plan_core::condition::{Condition, ConditionType};
use plan_core::plan::{Interruption, InterruptionKind, Plan, Priority};

use super::access::{change_plan, read_plan};
use super::condition::{ConditionEditor, Root};
use super::fields::{area, choice, state_picker, text};
use crate::editor::Editor;

/// A new interruption for `plan`: a fresh id, a side question that goes to the first state that is
/// not the start (the start state, when it is the only one).
pub fn fresh(plan: &Plan) -> Interruption {
    let mut n = plan.interruptions.len() + 1;
    while plan.interruption(&format!("interruption-{n}")).is_some() {
        n += 1;
    }
    let start = plan.start_state_id().unwrap_or_default();
    let target = plan
        .states
        .iter()
        .find(|s| s.id != start)
        .or(plan.states.first())
        .map(|s| s.id.clone())
        .unwrap_or_default();
    Interruption {
        id: format!("interruption-{n}"),
        title: String::new(),
        kind: InterruptionKind::Yield,
        target_state_id: target,
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
/// Changes the plan's interruptions (one undo step, or one per burst of typing under `burst`).
fn change(editor: Editor, burst: Option<String>, f: impl FnOnce(&mut Vec<Interruption>)) {
    let burst = burst.map(|k| format!("interruption:{k}"));
    change_plan(editor, burst.as_deref(), |d| f(&mut d.interruptions));
}

fn with(editor: Editor, i: usize, burst: Option<String>, f: impl FnOnce(&mut Interruption)) {
    change(editor, burst, |list| {
        if let Some(x) = list.get_mut(i) {
            f(x);
        }
    });
}

/// The plan's interruptions.
#[component]
pub fn InterruptionsSection() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let count = move || read_plan(editor, |p| p.interruptions.len());
    view! {
        <div class="subsection" data-testid="interruptions">
            <h4>"Interruptions"</h4>
            <p class="hint">
                "What may set the open task aside: a side question parks it and comes back to it at a state that returns to the parked task; \"never mind\" drops it; an urgent request takes over even where the task cannot be interrupted."
            </p>
            <For each=move || 0..count() key=|i| *i let:i>
                <InterruptionForm i=i />
            </For>
            <button
                class="add"
                data-testid="add-interruption"
                on:click=move |_| {
                    let Some(x) = editor.plan.with_untracked(|p| p.as_ref().map(fresh)) else {
                        return
                    };
                    change(editor, None, |list| list.push(x));
                }
            >
                "+ Add interruption"
            </button>
        </div>
    }
}

#[component]
fn InterruptionForm(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let get = move |f: fn(&Interruption) -> String| {
        move || {
            read_plan(editor, |p| {
                p.interruptions.get(i).map(f).unwrap_or_default()
            })
        }
    };
    let set = move |field: &'static str, f: fn(&mut Interruption, String)| {
        move |v: String| with(editor, i, Some(format!("{i}{field}")), |x| f(x, v))
    };
    let id = get(|x| x.id.clone());
    let is_yield = move || {
        read_plan(editor, |p| {
            p.interruptions
                .get(i)
                .is_some_and(|x| x.kind == InterruptionKind::Yield)
        })
    };
    let has_condition = move || {
        read_plan(editor, |p| {
            p.interruptions
                .get(i)
                .is_some_and(|x| x.condition.is_some())
        })
    };
    view! {
        <div class="interruption" data-testid="interruption-fields" data-interruption-id=id>
            <label class="field">
                <span class="field-label">"Id"</span>
                <input
                    type="text"
                    data-testid="field-x-id"
                    prop:value=id
                    on:change=move |e| {
                        let v = event_target_value(&e).trim().to_string();
                        with(editor, i, None, |x| x.id = v)
                    }
                />
            </label>
            {text(
                editor,
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
                move |v: String| with(editor, i, None, |x| set_kind(x, &v)),
            )}
            {state_picker(
                "Goes to",
                "x-target",
                get(|x| x.target_state_id.clone()),
                move |v: String| with(editor, i, None, |x| x.target_state_id = v),
            )}
            {area(
                editor,
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
                        with(editor, i, None, |x| x.phrases = v)
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
                            with(editor, i, None, |x| x.priority = Priority(n))
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
                                with(editor, i, None, |x| x.ttl_turns = n)
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
                        with(editor, i, None, |x| x.only_in = v)
                    }
                />
            </label>
            <div class="rule" data-testid="x-condition">
                <span class="field-label">"Fires by itself when"</span>
                <Show
                    when=has_condition
                    fallback=move || {
                        view! {
                            <button
                                class="add"
                                data-testid="add-x-condition"
                                on:click=move |_| with(
                                    editor,
                                    i,
                                    None,
                                    |x| {
                                        x.condition = Some(Condition {
                                            condition_type: ConditionType::DeliverableExists,
                                            condition_config: Default::default(),
                                        });
                                    },
                                )
                            >
                                "+ Add a condition"
                            </button>
                        }
                    }
                >
                    {move || {
                        let id = read_plan(
                            editor,
                            |p| p.interruptions.get(i).map(|x| x.id.clone()).unwrap_or_default(),
                        );
                        view! { <ConditionEditor root=Root::Interruption { id } path=Vec::new() /> }
                    }}
                    <button
                        class="remove"
                        data-testid="remove-x-condition"
                        on:click=move |_| with(editor, i, None, |x| x.condition = None)
                    >
                        "Remove the condition"
                    </button>
                </Show>
            </div>
            <button
                class="remove"
                data-testid="remove-interruption"
                on:click=move |_| change(
                    editor,
                    None,
                    |list| {
                        if i < list.len() {
                            list.remove(i);
                        }
                    },
                )
            >
                "Remove interruption"
            </button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        plan_core::parse_plan(
            &serde_json::json!({"id": "p", "title": "P", "start_state_id": "a",
                "states": [{"id": "a", "title": "A", "transitions": [{"target_state_id": "b"}]},
                           {"id": "b", "title": "B"}],
                "interruptions": [{"id": "interruption-1", "target_state_id": "b"}]})
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn a_new_interruption_has_a_fresh_id_and_goes_to_a_state_other_than_the_start() {
        let x = fresh(&plan());
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
        let mut x = fresh(&plan());
        x.ttl_turns = 3;
        set_kind(&mut x, "preempt");
        assert_eq!((x.kind, x.ttl_turns), (InterruptionKind::Preempt, 0));
    }
}
