//! The condition builder: every condition type of the plan format, composites nested to any
//! depth, with pickers that offer only what fits (declared keys, an enum key's values, number keys
//! for numeric tests, declared tools and their codes).
//!
//! A condition is edited where it lives: `path` is the list of child indexes from the
//! transition's own condition down through `conditions` arrays.

use leptos::prelude::*;
use plan_core::condition::ConditionType;
use plan_core::plan::{Deliverable, DeliverableType, Plan, StateType, Transition};
use serde_json::{json, Map, Value};

use super::fields::choice;
use super::state::edit;
use crate::editor::Editor;

/// The condition at `path`: its type and config.
fn node(
    t: &Transition,
    kind: StateType,
    path: &[usize],
) -> Option<(ConditionType, Map<String, Value>)> {
    let mut current = (t.condition_type_in(kind), t.condition_config.clone());
    for &i in path {
        let child = current.1.get("conditions")?.as_array()?.get(i)?.clone();
        let ty = ConditionType::from_name(child.get("condition_type")?.as_str()?)?;
        let cfg = child
            .get("condition_config")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        current = (ty, cfg);
    }
    Some(current)
}

/// Replaces the condition at `path`.
fn set_node(t: &mut Transition, path: &[usize], ty: ConditionType, cfg: Map<String, Value>) {
    let Some((&last, parents)) = path.split_last() else {
        t.condition_type = Some(ty);
        t.condition_config = cfg;
        return;
    };
    let mut cfg_at = &mut t.condition_config;
    for &i in parents {
        let Some(next) = cfg_at
            .get_mut("conditions")
            .and_then(Value::as_array_mut)
            .and_then(|a| a.get_mut(i))
            .and_then(|c| c.get_mut("condition_config"))
            .and_then(Value::as_object_mut)
        else {
            return;
        };
        cfg_at = next;
    }
    if let Some(slot) = cfg_at
        .get_mut("conditions")
        .and_then(Value::as_array_mut)
        .and_then(|a| a.get_mut(last))
    {
        *slot = json!({"condition_type": ty.as_str(), "condition_config": Value::Object(cfg)});
    }
}

/// A sensible starting config for a condition of type `ty`, keeping `key` where it fits.
fn template(ty: ConditionType, key: Option<String>, plan: &Plan) -> Map<String, Value> {
    let first_key = || {
        key.clone()
            .or_else(|| keys(plan, None).first().map(|d| d.key.clone()))
            .unwrap_or_default()
    };
    let v = match ty {
        ConditionType::AllTasksComplete | ConditionType::GoalAchieved => json!({}),
        ConditionType::DeliverableExists => json!({"key": first_key()}),
        ConditionType::DeliverableValue => {
            let k = first_key();
            json!({"key": k, "value": default_value(plan, &k)})
        }
        ConditionType::DeliverableValueIn => {
            let k = first_key();
            json!({"key": k, "values": [default_value(plan, &k)]})
        }
        ConditionType::DeliverableValueNumeric => {
            let k = key
                .filter(|k| declared(plan, k).is_some_and(|d| d.kind == DeliverableType::Number))
                .or_else(|| {
                    keys(plan, Some(DeliverableType::Number))
                        .first()
                        .map(|d| d.key.clone())
                })
                .unwrap_or_default();
            json!({"key": k, "operator": "gte", "value": 0})
        }
        ConditionType::TurnCountExceeded => json!({"turns": 3, "scope": "without_progress"}),
        ConditionType::AllOf | ConditionType::AnyOf => {
            json!({"conditions": [{"condition_type": "deliverable_exists", "condition_config": {"key": first_key()}}]})
        }
        ConditionType::Compound => json!({"operator": "and", "conditions": [
            {"condition_type": "deliverable_exists", "condition_config": {"key": first_key()}}]}),
        ConditionType::ToolResult => {
            let tool = plan.tools.first();
            json!({"tool": tool.map(|t| t.name.clone()).unwrap_or_default(),
                   "response_code": tool.and_then(|t| t.response_codes.first().cloned()).unwrap_or_default(),
                   "negated": false})
        }
    };
    v.as_object().cloned().unwrap_or_default()
}

/// Every declared deliverable once (the first declaration), optionally only of one type.
fn keys(plan: &Plan, kind: Option<DeliverableType>) -> Vec<Deliverable> {
    let mut out: Vec<Deliverable> = Vec::new();
    for d in plan.states.iter().flat_map(|s| s.deliverables()) {
        if kind.is_none_or(|k| d.kind == k) && !out.iter().any(|o| o.key == d.key) {
            out.push(d.clone());
        }
    }
    out
}

fn declared<'p>(plan: &'p Plan, key: &str) -> Option<&'p Deliverable> {
    plan.states
        .iter()
        .flat_map(|s| s.deliverables())
        .find(|d| d.key == key)
}

fn default_value(plan: &Plan, key: &str) -> Value {
    match declared(plan, key) {
        Some(d) => match d.kind {
            DeliverableType::Enum => json!(d
                .enum_values
                .as_deref()
                .unwrap_or_default()
                .first()
                .cloned()
                .unwrap_or_default()),
            DeliverableType::Boolean => json!(true),
            DeliverableType::Number => json!(0),
            DeliverableType::String => json!(""),
        },
        None => json!(""),
    }
}

fn label(ty: ConditionType) -> &'static str {
    match ty {
        ConditionType::AllTasksComplete => "All tasks done",
        ConditionType::GoalAchieved => "Goal done",
        ConditionType::DeliverableExists => "A value is known",
        ConditionType::DeliverableValue => "A value equals",
        ConditionType::DeliverableValueIn => "A value is one of",
        ConditionType::DeliverableValueNumeric => "A number compares",
        ConditionType::TurnCountExceeded => "After a number of turns",
        ConditionType::AllOf => "All of these",
        ConditionType::AnyOf => "Any of these",
        ConditionType::Compound => "Combined (and / or)",
        ConditionType::ToolResult => "A tool returned",
    }
}

/// Values as an author types them: `a, b, 3`.
fn joined(values: &[Value]) -> String {
    let shown: Vec<String> = values
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string())
        })
        .collect();
    shown.join(", ")
}

/// What decides the form of one condition.
#[derive(Debug, Clone, PartialEq)]
struct Shape {
    ty: ConditionType,
    /// The declaration of the key it reads, if any.
    key: Option<Deliverable>,
    between: bool,
    children: usize,
}

/// An edit of one condition: its type and config, with the plan for context.
type Change = Box<dyn FnOnce(&Plan, &mut ConditionType, &mut Map<String, Value>)>;

fn path_name(path: &[usize]) -> String {
    path.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// The condition of transition `index` of state `from` at `path`, and its children.
#[component]
pub fn ConditionEditor(editor: Editor, from: String, index: usize, path: Vec<usize>) -> AnyView {
    let from = StoredValue::new(from);
    let path = StoredValue::new(path);
    let current = move || {
        editor.plan.with(|p| {
            let p = p.as_ref()?;
            let s = p.state(&from.get_value())?;
            node(s.transitions.get(index)?, s.kind, &path.get_value())
        })
    };
    let update = move |burst: Option<&'static str>, f: Change| {
        let id = from.get_value();
        let Some(plan) = editor.plan.get_untracked() else {
            return;
        };
        let key = burst.map(|b| format!("{id}:t{index}:{}:{b}", path_name(&path.get_value())));
        edit(editor, &id, key, |s| {
            let kind = s.kind;
            if let Some(t) = s.transitions.get_mut(index) {
                if let Some((mut ty, mut cfg)) = node(t, kind, &path.get_value()) {
                    f(&plan, &mut ty, &mut cfg);
                    set_node(t, &path.get_value(), ty, cfg);
                }
            }
        });
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
    let set_field = move |field: &'static str, parse: fn(&str) -> Value| {
        move |v: String| {
            update(
                Some(field),
                Box::new(move |_, _, cfg| {
                    cfg.insert(field.to_string(), parse(&v));
                }),
            )
        }
    };
    let pname = path_name(&path.get_value());
    let all_keys = move |kind: Option<DeliverableType>| {
        move || {
            editor.plan.with(|p| {
                p.as_ref()
                    .map(|p| {
                        keys(p, kind)
                            .into_iter()
                            .map(|d| (d.key.clone(), d.key))
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default()
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
                key: editor
                    .plan
                    .with(|p| p.as_ref().and_then(|p| declared(p, &key).cloned())),
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
                move |v: String| {
                    update(
                        None,
                        Box::new(move |plan, _, cfg| {
                            cfg.insert("key".into(), json!(v));
                            // A value that no longer fits the key's type starts over.
                            if cfg.contains_key("value") && !cfg.contains_key("operator") {
                                cfg.insert("value".into(), default_value(plan, &v));
                            }
                            if cfg.contains_key("values") {
                                cfg.insert("values".into(), json!([default_value(plan, &v)]));
                            }
                        }),
                    )
                },
            )
        };
        match ty {
            ConditionType::AllTasksComplete | ConditionType::GoalAchieved => ().into_any(),
            ConditionType::DeliverableExists => key_choice(None).into_any(),
            ConditionType::DeliverableValue => {
                let value_field = match key_decl() {
                    Some(d) if d.kind == DeliverableType::Enum => {
                        let values = d.enum_values.clone().unwrap_or_default();
                        choice("Equals", "value", p.clone(), move || values.iter().map(|v| (v.clone(), v.clone())).collect(), cfg_str("value"), set_field("value", |v| json!(v))).into_any()
                    }
                    Some(d) if d.kind == DeliverableType::Boolean => choice(
                        "Equals", "value", p.clone(),
                        || vec![("true".into(), "yes".into()), ("false".into(), "no".into())],
                        cfg_str("value"), set_field("value", |v| json!(v == "true")),
                    ).into_any(),
                    Some(d) if d.kind == DeliverableType::Number => view! {
                        <label class="field"><span class="field-label">"Equals"</span>
                        <input type="number" data-testid="field-value" data-path=p.clone() prop:value=cfg_str("value")
                            on:input=move |e| set_field("value", |v| v.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map_or(json!(0), Value::Number))(event_target_value(&e)) /></label>
                    }.into_any(),
                    _ => view! {
                        <label class="field"><span class="field-label">"Equals"</span>
                        <input type="text" data-testid="field-value" data-path=p.clone() prop:value=cfg_str("value")
                            on:input=move |e| set_field("value", |v| json!(v))(event_target_value(&e)) /></label>
                    }.into_any(),
                };
                view! { {key_choice(None)} {value_field} }.into_any()
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
                            <div class="field"><span class="field-label">"Is one of"</span>
                            {options.into_iter().map(|o| {
                                let o2 = o.clone();
                                let o3 = o.clone();
                                view! {
                                    <label class="check"><input type="checkbox" data-testid="field-values" data-value=o.clone() data-path=p.clone()
                                        prop:checked=move || chosen().contains(&json!(o2.clone()))
                                        on:change=move |e| {
                                            let on = event_target_checked(&e);
                                            let o = o3.clone();
                                            update(None, Box::new(move |_, _, cfg| {
                                                let mut list: Vec<Value> = cfg.get("values").and_then(Value::as_array).cloned().unwrap_or_default();
                                                list.retain(|v| *v != json!(o));
                                                if on { list.push(json!(o)); }
                                                cfg.insert("values".into(), Value::Array(list));
                                            }))
                                        } />{o}</label>
                                }
                            }).collect_view()}
                            </div>
                        }.into_any()
                    }
                    _ => view! {
                        <label class="field"><span class="field-label">"Is one of (comma-separated)"</span>
                        <input type="text" data-testid="field-values" data-path=p.clone()
                            prop:value=move || joined(&chosen())
                            on:change=move |e| {
                                let text = event_target_value(&e);
                                update(None, Box::new(move |_, _, cfg| {
                                    let list: Vec<Value> = text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| json!(s)).collect();
                                    cfg.insert("values".into(), Value::Array(list));
                                }))
                            } /></label>
                    }.into_any(),
                };
                view! { {key_choice(None)} {values_field} }.into_any()
            }
            ConditionType::DeliverableValueNumeric => {
                let number = |field: &'static str, label: &'static str| {
                    let pp = p.clone();
                    view! {
                        <label class="field"><span class="field-label">{label}</span>
                        <input type="number" data-testid=format!("field-{field}") data-path=pp prop:value=cfg_str(field)
                            on:input=move |e| {
                                let v = event_target_value(&e);
                                update(Some(field), Box::new(move |_, _, cfg| {
                                    if let Some(n) = v.parse::<f64>().ok().and_then(|x| if x.fract() == 0.0 { Some(json!(x as i64)) } else { serde_json::Number::from_f64(x).map(Value::Number) }) {
                                        cfg.insert(field.into(), n);
                                    }
                                }))
                            } /></label>
                    }
                };
                view! {
                    {key_choice(Some(DeliverableType::Number))}
                    {choice("Operator", "operator", p.clone(),
                        || [("gt", ">"), ("gte", "≥"), ("lt", "<"), ("lte", "≤"), ("eq", "="), ("neq", "≠"), ("between", "between")]
                            .iter().map(|(v, l)| (v.to_string(), l.to_string())).collect(),
                        cfg_str("operator"),
                        move |v: String| update(None, Box::new(move |_, _, cfg| {
                            if v == "between" {
                                cfg.remove("value");
                                cfg.insert("min".into(), json!(0));
                                cfg.insert("max".into(), json!(10));
                            } else {
                                cfg.remove("min"); cfg.remove("max"); cfg.remove("inclusive");
                                cfg.entry("value").or_insert(json!(0));
                            }
                            cfg.insert("operator".into(), json!(v));
                        })))}
                    {if between {
                        view! { {number("min", "From")} {number("max", "To")} }.into_any()
                    } else {
                        number("value", "Than").into_any()
                    }}
                }.into_any()
            }
            ConditionType::TurnCountExceeded => view! {
                <label class="field"><span class="field-label">"Turns"</span>
                <input type="number" min="1" data-testid="field-turns" data-path=p.clone() prop:value=cfg_str("turns")
                    on:input=move |e| {
                        let v = event_target_value(&e);
                        update(Some("turns"), Box::new(move |_, _, cfg| { if let Ok(n) = v.parse::<u64>() { cfg.insert("turns".into(), json!(n)); } }))
                    } /></label>
                {choice("Counting", "scope", p.clone(),
                    || vec![("without_progress".into(), "turns without progress".into()), ("total".into(), "all turns in this state".into())],
                    move || { let s = cfg_str("scope")(); if s.is_empty() { "without_progress".into() } else { s } },
                    set_field("scope", |v| json!(v)))}
            }.into_any(),
            ConditionType::ToolResult => {
                let tool_codes = move || {
                    let tool = cfg_str("tool")();
                    editor.plan.with(|pl| pl.as_ref().and_then(|pl| pl.tools.iter().find(|t| t.name == tool)).map(|t| t.response_codes.clone()).unwrap_or_default())
                };
                view! {
                    {choice("Tool", "tool", p.clone(),
                        move || editor.plan.with(|pl| pl.as_ref().map(|pl| pl.tools.iter().map(|t| (t.name.clone(), t.name.clone())).collect()).unwrap_or_default()),
                        cfg_str("tool"),
                        move |v: String| update(None, Box::new(move |plan, _, cfg| {
                            let code = plan.tools.iter().find(|t| t.name == v).and_then(|t| t.response_codes.first().cloned()).unwrap_or_default();
                            cfg.insert("tool".into(), json!(v));
                            cfg.insert("response_code".into(), json!(code));
                        })))}
                    {choice("Returned", "response-code", p.clone(),
                        move || tool_codes().into_iter().map(|c| (c.clone(), c)).collect(),
                        cfg_str("response_code"), set_field("response_code", |v| json!(v)))}
                    <label class="field check"><input type="checkbox" data-testid="field-negated" data-path=p.clone()
                        prop:checked=move || cfg_str("negated")() == "true"
                        on:change=move |e| { let on = event_target_checked(&e); update(None, Box::new(move |_, _, cfg| { cfg.insert("negated".into(), json!(on)); })) } />
                        <span>"Anything but this code"</span></label>
                }.into_any()
            }
            ConditionType::AllOf | ConditionType::AnyOf | ConditionType::Compound => {
                let operator = (ty == ConditionType::Compound).then(|| choice("Combine with", "compound-operator", p.clone(),
                    || vec![("and".into(), "and (all true)".into()), ("or".into(), "or (any true)".into())],
                    cfg_str("operator"), set_field("operator", |v| json!(v))));
                let children = (0..count).map(|i| {
                    let mut child = path.get_value();
                    child.push(i);
                    let remove = move |_| update(None, Box::new(move |_, _, cfg| {
                        if let Some(list) = cfg.get_mut("conditions").and_then(Value::as_array_mut) {
                            if i < list.len() { list.remove(i); }
                        }
                    }));
                    view! {
                        <div class="condition-child">
                            <button class="remove" title="Remove this condition" data-testid="remove-condition" data-path=path_name(&child) on:click=remove>"✕"</button>
                            <ConditionEditor editor=editor from=from.get_value() index=index path=child />
                        </div>
                    }
                }).collect_view();
                let add = move |_| update(None, Box::new(move |plan, _, cfg| {
                    let leaf = json!({"condition_type": "deliverable_exists", "condition_config": template(ConditionType::DeliverableExists, None, plan)});
                    match cfg.get_mut("conditions").and_then(Value::as_array_mut) {
                        Some(list) => list.push(leaf),
                        None => { cfg.insert("conditions".into(), json!([leaf])); }
                    }
                }));
                view! {
                    {operator}
                    <div class="condition-children">{children}</div>
                    <button class="add" data-testid="add-condition" data-path=p.clone() on:click=add>"+ Add condition"</button>
                }.into_any()
            }
        }
    };
    view! {
        <div class="condition" data-testid="condition" data-path=pname.clone()>
            {choice("Condition", "condition-type", pname.clone(),
                || ConditionType::ALL.iter().map(|t| (t.as_str().to_string(), label(*t).to_string())).collect(),
                ty_value,
                move |v: String| {
                    let Some(ty) = ConditionType::from_name(&v) else { return };
                    update(None, Box::new(move |plan, old_ty, cfg| {
                        if *old_ty != ty {
                            let key = cfg.get("key").and_then(Value::as_str).map(str::to_string);
                            *cfg = template(ty, key, plan);
                            *old_ty = ty;
                        }
                    }))
                })}
            {fields}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::{validate, Code};

    /// A plan with a text, a number and an enum key, and a tool with codes.
    fn plan() -> Plan {
        plan_core::parse_plan(
            r#"{"id": "p", "title": "P",
            "tools": [{"name": "lookup", "response_codes": ["FOUND", "MISSING"]}],
            "states": [
              {"id": "a", "title": "A", "allowed_tools": ["lookup"], "tasks": [{"id": "t", "deliverables": [
                {"key": "name"}, {"key": "age", "type": "number"},
                {"key": "topic", "type": "enum", "enum_values": ["billing", "other"]}]}],
               "transitions": [{"target_state_id": "b"}]},
              {"id": "b", "title": "B"}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn every_condition_type_starts_from_a_valid_condition() {
        let base = plan();
        for ty in ConditionType::ALL {
            let mut p = base.clone();
            let cfg = template(ty, Some("topic".into()), &p);
            let t = &mut p.states[0].transitions[0];
            t.condition_type = Some(ty);
            t.condition_config = cfg;
            let codes = validate(&p).codes();
            for bad in [
                Code::InvalidConditionConfig,
                Code::ConditionTypeMismatch,
                Code::UnknownDeliverableKey,
                Code::EnumValueNotAllowed,
                Code::UnknownTool,
                Code::UnknownResponseCode,
                Code::ToolNotAllowed,
            ] {
                assert!(!codes.contains(&bad), "{ty:?}: {codes:?}");
            }
        }
    }

    #[test]
    fn nested_conditions_are_read_and_replaced_by_their_path() {
        let mut p = plan();
        let cfg = template(ConditionType::AnyOf, None, &p);
        let t = &mut p.states[0].transitions[0];
        t.condition_type = Some(ConditionType::AnyOf);
        t.condition_config = cfg;
        let inner = template(ConditionType::AllOf, None, &base_plan());
        set_node(t, &[0], ConditionType::AllOf, inner);
        let leaf = template(ConditionType::DeliverableValueNumeric, None, &base_plan());
        set_node(t, &[0, 0], ConditionType::DeliverableValueNumeric, leaf);
        let (ty, cfg) = node(t, StateType::Loose, &[0, 0]).unwrap();
        assert_eq!(ty, ConditionType::DeliverableValueNumeric);
        assert_eq!(cfg["key"], "age", "only number keys for a numeric test");
        assert_eq!(
            node(t, StateType::Loose, &[0]).unwrap().0,
            ConditionType::AllOf
        );
        assert!(!validate(&p).has_errors());
    }

    fn base_plan() -> Plan {
        plan()
    }
}
