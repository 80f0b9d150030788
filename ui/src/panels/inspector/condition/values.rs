//! The fields of the conditions that test a deliverable's value: that a key is known, equals a
//! value, is one of some values, or compares as a number; and a number field, shared with the
//! counts.

use leptos::prelude::*;
use plan_core::condition::change::{ConditionChange, NumberField};
use plan_core::condition::NumericOperator;
use plan_core::plan::DeliverableType;

use super::super::fields::{choice, number};
use super::Node;
use crate::plan_names::{KeyName, PlanNames};

/// The key a value test reads (of `kind` only, when given).
#[component]
pub(super) fn KeyPicker(node: Node, kind: Option<DeliverableType>) -> impl IntoView {
    let names = expect_context::<Memo<PlanNames>>();
    choice(
        "Value",
        "key",
        node.path_name(),
        move || {
            names.with(|n| {
                n.keys(kind)
                    .map(|k| (k.key.clone(), k.key.clone()))
                    .collect::<Vec<_>>()
            })
        },
        node.shown(|s| s.key.clone()),
        move |v: String| node.change(None, ConditionChange::Key(v)),
    )
}

/// "A value equals": the key, and the value in the field that fits the key's type (an enum's
/// choices, yes or no, a number, text).
#[component]
pub(super) fn ValueEquals(node: Node, key: Option<KeyName>) -> impl IntoView {
    let path = node.path_name();
    let value = node.shown(|s| s.value.clone());
    let set = move |v: String| node.change(None, ConditionChange::Value(v));
    let field = match key {
        Some(d) if d.kind == DeliverableType::Enum => {
            let values = d.enum_values.unwrap_or_default();
            choice(
                "Equals",
                "value",
                path,
                move || values.iter().map(|v| (v.clone(), v.clone())).collect(),
                value,
                set,
            )
            .into_any()
        }
        Some(d) if d.kind == DeliverableType::Boolean => choice(
            "Equals",
            "value",
            path,
            || vec![("true".into(), "yes".into()), ("false".into(), "no".into())],
            value,
            set,
        )
        .into_any(),
        Some(d) if d.kind == DeliverableType::Number => typed_value(node, "number").into_any(),
        _ => typed_value(node, "text").into_any(),
    };
    view! {
        <KeyPicker node kind=None />
        {field}
    }
}

/// The value typed: a number key's as a number, any other's as text.
fn typed_value(node: Node, input_type: &'static str) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">"Equals"</span>
            <input
                type=input_type
                data-testid="field-value"
                data-path=node.path_name()
                prop:value=node.shown(|s| s.value.clone())
                on:input=move |e| {
                    node.change(Some("value"), ConditionChange::Value(event_target_value(&e)))
                }
            />
        </label>
    }
}

/// "A value is one of": an enum key's choices as checkboxes, any other key's values typed
/// comma-separated.
#[component]
pub(super) fn ValueIn(node: Node, key: Option<KeyName>) -> impl IntoView {
    let path = node.path_name();
    let field = match key {
        Some(d) if d.kind == DeliverableType::Enum => {
            let options = d.enum_values.unwrap_or_default();
            view! {
                <div class="field">
                    <span class="field-label">"Is one of"</span>
                    {options
                        .into_iter()
                        .map(|option| {
                            let held = option.clone();
                            let toggled = option.clone();
                            view! {
                                <label class="check">
                                    <input
                                        type="checkbox"
                                        data-testid="field-values"
                                        data-value=option.clone()
                                        data-path=path.clone()
                                        prop:checked=move || node.with(|s| s.values.contains(&held))
                                        on:change=move |e| {
                                            node.change(
                                                None,
                                                ConditionChange::Choice {
                                                    value: toggled.clone(),
                                                    on: event_target_checked(&e),
                                                },
                                            )
                                        }
                                    />
                                    {option}
                                </label>
                            }
                        })
                        .collect_view()}
                </div>
            }
            .into_any()
        }
        _ => view! {
            <label class="field">
                <span class="field-label">"Is one of (comma-separated)"</span>
                <input
                    type="text"
                    data-testid="field-values"
                    data-path=path
                    prop:value=node.shown(|s| s.values.join(", "))
                    on:change=move |e| {
                        node.change(None, ConditionChange::Choices(event_target_value(&e)))
                    }
                />
            </label>
        }
        .into_any(),
    };
    view! {
        <KeyPicker node kind=None />
        {field}
    }
}

/// "A number compares": a number key, the operator, and the number (or both ends of
/// `between`).
#[component]
pub(super) fn NumberCompare(node: Node, between: bool) -> impl IntoView {
    let operators = || {
        NumericOperator::ALL
            .iter()
            .map(|o| (o.as_str().to_string(), o.shown().to_string()))
            .collect()
    };
    let numbers = if between {
        view! {
            <NumberInput node field=NumberField::Min label="From" />
            <NumberInput node field=NumberField::Max label="To" />
        }
        .into_any()
    } else {
        view! { <NumberInput node field=NumberField::Value label="Than" /> }.into_any()
    };
    view! {
        <KeyPicker node kind=Some(DeliverableType::Number) />
        {choice(
            "Operator",
            "operator",
            node.path_name(),
            operators,
            node.shown(|s| s.numeric.map(|o| o.as_str().to_string()).unwrap_or_default()),
            move |v: String| {
                if let Some(o) = NumericOperator::from_name(&v) {
                    node.change(None, ConditionChange::Operator(o));
                }
            },
        )}
        {numbers}
    }
}

/// A number setting, as typed; `min` where fewer makes no sense (turns, visits).
#[component]
pub(super) fn NumberInput(
    node: Node,
    field: NumberField,
    label: &'static str,
    #[prop(optional)] min: Option<&'static str>,
) -> impl IntoView {
    number(
        label,
        field.name().to_string(),
        min,
        Some(node.path_name()),
        node.shown(move |s| s.number(field).to_string()),
        move |typed| node.change(Some(field.name()), ConditionChange::Number { field, typed }),
    )
}
