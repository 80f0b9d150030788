//! The condition builder: every condition type of the plan format, composites nested to any
//! depth, with pickers that offer only what fits (declared keys, an enum key's values, number keys
//! for numeric tests, declared tools and their codes).
//!
//! A condition is edited where it lives: `path` is the list of child indexes from the
//! transition's own condition down through `conditions` arrays.

use leptos::prelude::*;
use plan_core::condition::change::{apply as apply_change, ConditionChange, NumberField};
use plan_core::condition::ConditionType;
use plan_core::edit::{Command, PlanDetails};
use plan_core::plan::{DeliverableType, SessionType};
use serde_json::Value;

use super::access::{edit_state, run};
use super::fields::choice;
use crate::editor::Editor;

pub use super::condition_model::Root;
use super::condition_model::{
    descend, joined, label, node, path_name, set_node, set_rule, standalone, standalone_mut, Shape,
};
use crate::plan_names::PlanNames;

/// The condition at `path` below `root`, and its children.
#[component]
pub fn ConditionEditor(root: Root, path: Vec<usize>) -> AnyView {
    let editor = expect_context::<Editor>();
    let names = expect_context::<Memo<PlanNames>>();
    let root = StoredValue::new(root);
    let path = StoredValue::new(path);
    let current = move || {
        editor.plan.with(|p| {
            let p = p.as_ref()?;
            match root.get_value() {
                Root::Transition { from, index } => {
                    let s = p.state(&from)?;
                    node(s.transitions.get(index)?, s.kind, &path.get_value())
                }
                other => {
                    let c = standalone(p, &other)?;
                    descend(
                        (c.condition_type, c.condition_config.clone()),
                        &path.get_value(),
                    )
                }
            }
        })
    };
    let update = move |burst: Option<&'static str>, change: ConditionChange| {
        let Some(plan) = editor.plan.get_untracked() else {
            return;
        };
        let key = burst.map(|b| {
            format!(
                "{}:{}:{b}",
                root.get_value().name(),
                path_name(&path.get_value())
            )
        });
        match root.get_value() {
            Root::Transition { from, index } => edit_state(editor, &from, key, |s| {
                let kind = s.kind;
                if let Some(t) = s.transitions.get_mut(index) {
                    if let Some((mut ty, mut cfg)) = node(t, kind, &path.get_value()) {
                        apply_change(&plan, &mut ty, &mut cfg, &change);
                        set_node(t, &path.get_value(), ty, cfg);
                    }
                }
            }),
            other => {
                let mut details = PlanDetails::of(&plan);
                let Some(c) = standalone_mut(&mut details, &other) else {
                    return;
                };
                let Some((mut ty, mut cfg)) = descend(
                    (c.condition_type, c.condition_config.clone()),
                    &path.get_value(),
                ) else {
                    return;
                };
                apply_change(&plan, &mut ty, &mut cfg, &change);
                set_rule(c, &path.get_value(), ty, cfg);
                let command = Command::SetPlanDetails(details);
                run(editor, command, key.as_deref());
            }
        }
    };
    let ty_value = move || {
        current()
            .map(|(t, _)| t.as_str().to_string())
            .unwrap_or_default()
    };
    let cfg_str = move |field: &'static str| {
        move || {
            current()
                .and_then(|(_, c)| {
                    c.get(field).map(|v| match v {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                })
                .unwrap_or_default()
        }
    };
    // A field's typed value made a change (`make`); `burst` names the field for typing.
    let set = move |burst: Option<&'static str>, make: fn(String) -> ConditionChange| {
        move |v: String| update(burst, make(v))
    };
    let pname = path_name(&path.get_value());
    let all_keys = move |kind: Option<DeliverableType>| {
        move || {
            names.with(|n| {
                n.keys(kind)
                    .map(|k| (k.key.clone(), k.key.clone()))
                    .collect::<Vec<_>>()
            })
        }
    };
    // What the form looks like: rebuilt only when this changes, never while the author types a
    // value (a rebuilt field loses the caret).
    let shape = Memo::new(move |_| {
        current().map(|(ty, cfg)| {
            let key = cfg
                .get("key")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            Shape {
                ty,
                key: names.with(|n| n.key(&key).cloned()),
                between: cfg.get("operator").and_then(Value::as_str) == Some("between"),
                children: cfg
                    .get("conditions")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len),
            }
        })
    });
    let p2 = pname.clone();
    let fields = move || {
        let Some(Shape {
            ty,
            key: decl,
            between,
            children: count,
        }) = shape.get()
        else {
            return ().into_any();
        };
        let key_decl = move || decl.clone();
        let p = p2.clone();
        let key_choice = |kind: Option<DeliverableType>| {
            choice(
                "Value",
                "key",
                p.clone(),
                all_keys(kind),
                cfg_str("key"),
                set(None, ConditionChange::Key),
            )
        };
        // A number setting, as typed; `min` where fewer makes no sense (turns, visits).
        let number = |field: NumberField, label: &'static str, min: Option<&'static str>| {
            let pp = p.clone();
            view! {
                <label class="field">
                    <span class="field-label">{label}</span>
                    <input
                        type="number"
                        min=min
                        data-testid=format!("field-{}", field.name())
                        data-path=pp
                        prop:value=cfg_str(field.name())
                        on:input=move |e| update(
                            Some(field.name()),
                            ConditionChange::Number {
                                field,
                                typed: event_target_value(&e),
                            },
                        )
                    />
                </label>
            }
        };
        match ty {
            ConditionType::AllTasksComplete | ConditionType::GoalAchieved => ().into_any(),
            ConditionType::DeliverableExists => key_choice(None).into_any(),
            ConditionType::DeliverableValue => {
                // The value typed: a number key's as a number, any other's as text.
                let equals = |input_type: &'static str| {
                    view! {
                        <label class="field">
                            <span class="field-label">"Equals"</span>
                            <input
                                type=input_type
                                data-testid="field-value"
                                data-path=p.clone()
                                prop:value=cfg_str("value")
                                on:input=move |e| update(
                                    Some("value"),
                                    ConditionChange::Value(event_target_value(&e)),
                                )
                            />
                        </label>
                    }
                    .into_any()
                };
                let value_field = match key_decl() {
                    Some(d) if d.kind == DeliverableType::Enum => {
                        let values = d.enum_values.clone().unwrap_or_default();
                        choice(
                            "Equals",
                            "value",
                            p.clone(),
                            move || values.iter().map(|v| (v.clone(), v.clone())).collect(),
                            cfg_str("value"),
                            set(Some("value"), ConditionChange::Value),
                        )
                        .into_any()
                    }
                    Some(d) if d.kind == DeliverableType::Boolean => choice(
                        "Equals",
                        "value",
                        p.clone(),
                        || vec![("true".into(), "yes".into()), ("false".into(), "no".into())],
                        cfg_str("value"),
                        set(None, ConditionChange::Value),
                    )
                    .into_any(),
                    Some(d) if d.kind == DeliverableType::Number => equals("number"),
                    _ => equals("text"),
                };
                view! {
                    {key_choice(None)}
                    {value_field}
                }
                .into_any()
            }
            ConditionType::DeliverableValueIn => {
                let chosen = move || {
                    current()
                        .and_then(|(_, c)| c.get("values").and_then(Value::as_array).cloned())
                        .unwrap_or_default()
                };
                let values_field = match key_decl() {
                    Some(d) if d.kind == DeliverableType::Enum => {
                        let options = d.enum_values.clone().unwrap_or_default();
                        view! {
                            <div class="field">
                                <span class="field-label">"Is one of"</span>
                                {options
                                    .into_iter()
                                    .map(|o| {
                                        let o2 = o.clone();
                                        let o3 = o.clone();
                                        view! {
                                            <label class="check">
                                                <input
                                                    type="checkbox"
                                                    data-testid="field-values"
                                                    data-value=o.clone()
                                                    data-path=p.clone()
                                                    prop:checked=move || {
                                                        chosen().iter().any(|v| v.as_str() == Some(o2.as_str()))
                                                    }
                                                    on:change=move |e| update(
                                                        None,
                                                        ConditionChange::Choice {
                                                            value: o3.clone(),
                                                            on: event_target_checked(&e),
                                                        },
                                                    )
                                                />
                                                {o}
                                            </label>
                                        }
                                    })
                                    .collect_view()}
                            </div>
                        }.into_any()
                    }
                    _ => view! {
                        <label class="field">
                            <span class="field-label">"Is one of (comma-separated)"</span>
                            <input
                                type="text"
                                data-testid="field-values"
                                data-path=p.clone()
                                prop:value=move || joined(&chosen())
                                on:change=move |e| update(
                                    None,
                                    ConditionChange::Choices(event_target_value(&e)),
                                )
                            />
                        </label>
                    }
                    .into_any(),
                };
                view! {
                    {key_choice(None)}
                    {values_field}
                }
                .into_any()
            }
            ConditionType::DeliverableValueNumeric => view! {
                {key_choice(Some(DeliverableType::Number))}
                {choice(
                    "Operator",
                    "operator",
                    p.clone(),
                    || {
                        [
                            ("gt", ">"),
                            ("gte", "≥"),
                            ("lt", "<"),
                            ("lte", "≤"),
                            ("eq", "="),
                            ("neq", "≠"),
                            ("between", "between"),
                        ]
                            .iter()
                            .map(|(v, l)| (v.to_string(), l.to_string()))
                            .collect()
                    },
                    cfg_str("operator"),
                    set(None, ConditionChange::Operator),
                )}
                {if between {
                    view! {
                        {number(NumberField::Min, "From", None)}
                        {number(NumberField::Max, "To", None)}
                    }
                        .into_any()
                } else {
                    number(NumberField::Value, "Than", None).into_any()
                }}
            }
            .into_any(),
            ConditionType::TurnCountExceeded => view! {
                {number(NumberField::Turns, "Turns", Some("1"))}
                {choice(
                    "Counting",
                    "scope",
                    p.clone(),
                    || {
                        vec![
                            ("without_progress".into(), "turns without progress".into()),
                            ("total".into(), "all turns in this state".into()),
                        ]
                    },
                    move || {
                        let s = cfg_str("scope")();
                        if s.is_empty() { "without_progress".into() } else { s }
                    },
                    set(None, ConditionChange::Scope),
                )}
            }
            .into_any(),
            ConditionType::VisitCountExceeded => view! {
                {number(NumberField::Visits, "Entered at least this many times", Some("1"))}
                {choice(
                    "State",
                    "visits-state",
                    p.clone(),
                    move || {
                        let mut all = vec![(String::new(), "this state".to_string())];
                        all.extend(
                            names
                                .with(|n| {
                                    n.states()
                                        .iter()
                                        .map(|s| (s.id.clone(), s.label()))
                                        .collect::<Vec<_>>()
                                }),
                        );
                        all
                    },
                    cfg_str("state_id"),
                    move |v: String| update(
                        None,
                        ConditionChange::VisitedState((!v.is_empty()).then_some(v)),
                    ),
                )}
            }
            .into_any(),
            ConditionType::ToolResult => {
                let tool_codes = move || {
                    let tool = cfg_str("tool")();
                    names.with(|n| {
                        n.tools()
                            .iter()
                            .find(|t| t.name == tool)
                            .map(|t| t.response_codes.clone())
                            .unwrap_or_default()
                    })
                };
                view! {
                    {choice(
                        "Tool",
                        "tool",
                        p.clone(),
                        move || {
                            names
                                .with(|n| {
                                    n.tools()
                                        .iter()
                                        .map(|t| (t.name.clone(), t.name.clone()))
                                        .collect()
                                })
                        },
                        cfg_str("tool"),
                        set(None, ConditionChange::Tool),
                    )}
                    {choice(
                        "Returned",
                        "response-code",
                        p.clone(),
                        move || tool_codes().into_iter().map(|c| (c.clone(), c)).collect(),
                        cfg_str("response_code"),
                        set(None, ConditionChange::ResponseCode),
                    )}
                    <label class="field check">
                        <input
                            type="checkbox"
                            data-testid="field-negated"
                            data-path=p.clone()
                            prop:checked=move || cfg_str("negated")() == "true"
                            on:change=move |e| update(
                                None,
                                ConditionChange::Negated(event_target_checked(&e)),
                            )
                        />
                        <span>"Anything but this code"</span>
                    </label>
                }
                .into_any()
            }
            ConditionType::SessionStateActive => view! {
                {choice(
                    "Session state",
                    "session-state",
                    p.clone(),
                    move || {
                        names
                            .with(|n| {
                                n.session_states()
                                    .iter()
                                    .map(|s| (s.id.clone(), s.id.clone()))
                                    .collect()
                            })
                    },
                    cfg_str("session_state"),
                    set(None, ConditionChange::SessionState),
                )}
                {choice(
                    "Is",
                    "session-negated",
                    p.clone(),
                    || {
                        vec![
                            ("false".into(), "on (active)".into()),
                            ("true".into(), "off (not active)".into()),
                        ]
                    },
                    move || {
                        if cfg_str("negated")() == "true" { "true".into() } else { "false".into() }
                    },
                    move |v: String| update(None, ConditionChange::Negated(v == "true")),
                )}
            }
            .into_any(),
            ConditionType::SessionStateValue => {
                let state_of = move || {
                    let id = cfg_str("session_state")();
                    names.with(|n| n.session_states().iter().find(|s| s.id == id).cloned())
                };
                let operators = move || {
                    let st = state_of();
                    let list = st.as_ref().is_some_and(|s| s.list);
                    let number = st.as_ref().is_some_and(|s| s.kind == SessionType::Number);
                    let mut ops: Vec<(String, String)> =
                        vec![("eq".into(), "=".into()), ("neq".into(), "≠".into())];
                    if list {
                        ops.push(("contains".into(), "holds".into()));
                    } else {
                        ops.push(("in".into(), "is one of".into()));
                    }
                    if number && !list {
                        for (v, l) in [("gt", ">"), ("gte", "≥"), ("lt", "<"), ("lte", "≤")] {
                            ops.push((v.into(), l.into()));
                        }
                    }
                    ops
                };
                let shown = move || {
                    current()
                        .map(|(_, c)| match (c.get("values"), c.get("value")) {
                            (Some(Value::Array(v)), _) => joined(v),
                            (_, Some(Value::Array(v))) => joined(v),
                            (_, Some(Value::String(s))) => s.clone(),
                            (_, Some(other)) => other.to_string(),
                            _ => String::new(),
                        })
                        .unwrap_or_default()
                };
                view! {
                    {choice(
                        "Session state",
                        "session-state",
                        p.clone(),
                        move || {
                            names
                                .with(|n| {
                                    n.valued_session_states()
                                        .map(|s| (s.id.clone(), s.id.clone()))
                                        .collect()
                                })
                        },
                        cfg_str("session_state"),
                        set(None, ConditionChange::SessionState),
                    )}
                    {choice(
                        "Compare",
                        "session-operator",
                        p.clone(),
                        operators,
                        move || {
                            let s = cfg_str("operator")();
                            if s.is_empty() { "eq".into() } else { s }
                        },
                        set(None, ConditionChange::SessionOperator),
                    )}
                    <label class="field">
                        <span class="field-label">"Value (a list: comma-separated)"</span>
                        <input
                            type="text"
                            data-testid="field-session-value"
                            data-path=p.clone()
                            prop:value=shown
                            on:change=move |e| {
                                let text = event_target_value(&e);
                                update(None, ConditionChange::SessionValue(text))
                            }
                        />
                    </label>
                }
                .into_any()
            }
            ConditionType::AllOf | ConditionType::AnyOf | ConditionType::Compound => {
                let operator = (ty == ConditionType::Compound).then(|| {
                    choice(
                        "Combine with",
                        "compound-operator",
                        p.clone(),
                        || {
                            vec![
                                ("and".into(), "and (all true)".into()),
                                ("or".into(), "or (any true)".into()),
                            ]
                        },
                        cfg_str("operator"),
                        set(None, ConditionChange::Combine),
                    )
                });
                let children = (0..count)
                    .map(|i| {
                        let mut child = path.get_value();
                        child.push(i);
                        let remove = move |_| update(None, ConditionChange::RemoveChild(i));
                        view! {
                            <div class="condition-child">
                                <button
                                    class="remove"
                                    title="Remove this condition"
                                    data-testid="remove-condition"
                                    data-path=path_name(&child)
                                    on:click=remove
                                >
                                    "✕"
                                </button>
                                <ConditionEditor root=root.get_value() path=child />
                            </div>
                        }
                    })
                    .collect_view();
                let add = move |_| update(None, ConditionChange::AddChild);
                view! {
                    {operator}
                    <div class="condition-children">{children}</div>
                    <button
                        class="add"
                        data-testid="add-condition"
                        data-path=p.clone()
                        on:click=add
                    >
                        "+ Add condition"
                    </button>
                }
                .into_any()
            }
        }
    };
    view! {
        <div class="condition" data-testid="condition" data-path=pname.clone()>
            {choice(
                "Condition",
                "condition-type",
                pname.clone(),
                || {
                    ConditionType::ALL
                        .iter()
                        .map(|t| (t.as_str().to_string(), label(*t).to_string()))
                        .collect()
                },
                ty_value,
                move |v: String| {
                    if let Some(ty) = ConditionType::from_name(&v) {
                        update(None, ConditionChange::Type(ty));
                    }
                },
            )}
            {fields}
        </div>
    }
    .into_any()
}
