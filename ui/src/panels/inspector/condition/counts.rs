//! The fields of the conditions that count: turns in this state (without progress, or all), and
//! how many times a state was entered.

use leptos::prelude::*;
use plan_core::condition::change::{ConditionChange, NumberField};
use plan_core::condition::TurnScope;

use super::super::fields::choice;
use super::values::NumberInput;
use super::Node;
use crate::plan_names::PlanNames;

/// "After a number of turns": how many, and which turns count.
#[component]
pub(super) fn TurnsFields(node: Node) -> impl IntoView {
    view! {
        <NumberInput node field=NumberField::Turns label="Turns" min="1" />
        {choice(
            "Counting",
            "scope",
            node.path_name(),
            || {
                TurnScope::ALL
                    .iter()
                    .map(|s| (s.as_str().to_string(), s.shown().to_string()))
                    .collect()
            },
            node.shown(|s| s.scope.as_str().to_string()),
            move |v: String| {
                if let Some(scope) = TurnScope::from_name(&v) {
                    node.change(None, ConditionChange::Scope(scope));
                }
            },
        )}
    }
}

/// "A state entered a number of times": how many, and which state (this one when none).
#[component]
pub(super) fn VisitsFields(node: Node) -> impl IntoView {
    let names = expect_context::<Memo<PlanNames>>();
    let states = move || {
        let mut all = vec![(String::new(), "this state".to_string())];
        names.with(|n| all.extend(crate::plan_names::state_labels(n.states())));
        all
    };
    view! {
        <NumberInput
            node
            field=NumberField::Visits
            label="Entered at least this many times"
            min="1"
        />
        {choice(
            "State",
            "visits-state",
            node.path_name(),
            states,
            node.shown(|s| s.visited_state.clone().unwrap_or_default()),
            move |v: String| {
                node.change(None, ConditionChange::VisitedState((!v.is_empty()).then_some(v)))
            },
        )}
    }
}
