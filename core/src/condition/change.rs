//! What an author can change in one condition, as typed operations: the condition builder maps
//! each event to one [`ConditionChange`] and [`apply`] makes it, keeping what still fits and
//! dropping what no longer does (a comparison turned into `between` takes `min` and `max` instead
//! of `value`; a key of another type starts its value over). The builder holds no JSON of its own.
//!
//! Pure: the plan is read for what the settings refer to (a key's declaration, a tool's codes, a
//! session state's type), never changed here; the caller puts the changed condition back.

use serde_json::{json, Map, Value};

use super::operators::{Combine, NumericOperator, SessionOperator};
use super::{ConditionType, TurnScope};
use crate::coerce::coerce_session;
use crate::plan::{Deliverable, DeliverableType, Plan, SessionState, SessionType};

/// One change to one condition.
#[derive(Debug, Clone, PartialEq)]
pub enum ConditionChange {
    /// Another type: it starts from that type's settings ([`settings_for`]), keeping the key it
    /// read where that fits.
    Type(ConditionType),
    /// The key a value test reads; a value of the old key's kind starts over as the new key's.
    Key(String),
    /// The value compared with, as the author typed it: read as the key's type (a number, yes or
    /// no, a choice).
    Value(String),
    /// One choice of "is one of", on or off.
    Choice {
        /// The choice.
        value: String,
        /// Whether it is now among the values.
        on: bool,
    },
    /// The values of "is one of" as typed: comma-separated.
    Choices(String),
    /// A number comparison's operator; `between` takes `min` and `max` instead of `value`.
    Operator(NumericOperator),
    /// A number setting (`value`, `min`, `max`, `turns`, `visits`), as typed; text that is not a
    /// number changes nothing.
    Number {
        /// Which setting.
        field: NumberField,
        /// What the author typed.
        typed: String,
    },
    /// What turns count: `without_progress` or `total`.
    Scope(TurnScope),
    /// The state whose visits count; none: the state the condition is in.
    VisitedState(Option<String>),
    /// The tool whose result is tested; its first response code with it.
    Tool(String),
    /// The response code tested.
    ResponseCode(String),
    /// The test turned around ("anything but this code", "off").
    Negated(bool),
    /// The session state tested; a value comparison starts over with `=` and its default.
    SessionState(String),
    /// A session state value comparison's operator; `in` takes a list, the others one value.
    SessionOperator(SessionOperator),
    /// A session state's value as typed (comma-separated for `in`).
    SessionValue(String),
    /// `and` or `or` of a compound condition.
    Combine(Combine),
    /// One more condition inside a composite: "a value is known" of the first key.
    AddChild,
    /// The composite's condition at this place removed.
    RemoveChild(usize),
}

/// The number settings of conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberField {
    /// The value compared with.
    Value,
    /// The lower end of `between`.
    Min,
    /// The upper end of `between`.
    Max,
    /// The number of turns.
    Turns,
    /// The number of visits.
    Visits,
}

impl NumberField {
    /// The setting's name in a condition's config.
    pub fn name(self) -> &'static str {
        match self {
            NumberField::Value => "value",
            NumberField::Min => "min",
            NumberField::Max => "max",
            NumberField::Turns => "turns",
            NumberField::Visits => "visits",
        }
    }
}

/// Makes `change` to the condition of type `ty` with settings `cfg`, in `plan`.
pub fn apply(
    plan: &Plan,
    ty: &mut ConditionType,
    cfg: &mut Map<String, Value>,
    change: &ConditionChange,
) {
    apply_in(plan, None, ty, cfg, change)
}

/// [`apply`] to a condition of state `near` (a transition's): a key it starts on is that state's
/// own first one when it has one, not the plan's.
pub fn apply_in(
    plan: &Plan,
    near: Option<&str>,
    ty: &mut ConditionType,
    cfg: &mut Map<String, Value>,
    change: &ConditionChange,
) {
    use ConditionChange as C;
    let text = |s: &str| Value::String(s.to_string());
    match change {
        C::Type(to) => {
            if ty != to {
                let key = cfg.get("key").and_then(Value::as_str).map(str::to_string);
                *cfg = settings_near(*to, key, plan, near);
                *ty = *to;
            }
        }
        C::Key(key) => {
            cfg.insert("key".into(), text(key));
            // A value that no longer fits the key's type starts over.
            if cfg.contains_key("value") && !cfg.contains_key("operator") {
                cfg.insert("value".into(), default_value(plan, key));
            }
            if cfg.contains_key("values") {
                cfg.insert("values".into(), json!([default_value(plan, key)]));
            }
        }
        C::Value(typed) => {
            let key = cfg.get("key").and_then(Value::as_str).unwrap_or_default();
            let value = value_for_key(plan, key, typed);
            cfg.insert("value".into(), value);
        }
        C::Choice { value, on } => {
            let mut list: Vec<Value> = cfg
                .get("values")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            list.retain(|v| *v != text(value));
            if *on {
                list.push(text(value));
            }
            cfg.insert("values".into(), Value::Array(list));
        }
        C::Choices(typed) => {
            let list = items(typed).map(text).collect();
            cfg.insert("values".into(), Value::Array(list));
        }
        C::Operator(op) => {
            if *op == NumericOperator::Between {
                cfg.remove("value");
                cfg.entry("min").or_insert(json!(0));
                cfg.entry("max").or_insert(json!(10));
            } else {
                cfg.remove("min");
                cfg.remove("max");
                cfg.remove("inclusive");
                cfg.entry("value").or_insert(json!(0));
            }
            cfg.insert("operator".into(), text(op.as_str()));
        }
        C::Number { field, typed } => {
            let number = match field {
                // Counts are whole numbers.
                NumberField::Turns | NumberField::Visits => {
                    typed.trim().parse::<u64>().ok().map(|n| json!(n))
                }
                _ => number(typed),
            };
            if let Some(n) = number {
                cfg.insert(field.name().into(), n);
            }
        }
        C::Scope(scope) => {
            cfg.insert("scope".into(), text(scope.as_str()));
        }
        C::VisitedState(state) => match state {
            Some(id) => {
                cfg.insert("state_id".into(), text(id));
            }
            None => {
                cfg.remove("state_id");
            }
        },
        C::Tool(tool) => {
            let code = plan
                .tool(tool)
                .and_then(|t| t.response_codes.first().cloned())
                .unwrap_or_default();
            cfg.insert("tool".into(), text(tool));
            cfg.insert("response_code".into(), text(&code));
        }
        C::ResponseCode(code) => {
            cfg.insert("response_code".into(), text(code));
        }
        C::Negated(on) => {
            cfg.insert("negated".into(), json!(on));
        }
        C::SessionState(id) => {
            cfg.insert("session_state".into(), text(id));
            if *ty == ConditionType::SessionStateValue {
                cfg.insert("operator".into(), json!("eq"));
                cfg.remove("values");
                cfg.insert("value".into(), session_default(plan, id));
            }
        }
        C::SessionOperator(op) => {
            let id = word(cfg, "session_state").to_string();
            let list_state = plan.session_state(&id).is_some_and(|s| s.list);
            if *op == SessionOperator::In {
                let first = cfg
                    .remove("value")
                    .unwrap_or_else(|| session_default(plan, &id));
                cfg.insert("values".into(), json!([first]));
            } else if let Some(Value::Array(values)) = cfg.remove("values") {
                let first = values
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| session_default(plan, &id));
                cfg.insert("value".into(), first);
            }
            // `contains` tests one element of a list state; the other tests the whole value.
            let value = cfg.remove("value");
            let value = match (op, value) {
                (SessionOperator::In, v) => v,
                (SessionOperator::Contains, Some(Value::Array(items))) => Some(
                    items
                        .into_iter()
                        .next()
                        .unwrap_or_else(|| element_default(plan, &id)),
                ),
                (SessionOperator::Contains, v) => {
                    Some(v.unwrap_or_else(|| element_default(plan, &id)))
                }
                (_, Some(v)) if list_state && !v.is_array() => Some(json!([v])),
                (_, v) => Some(v.unwrap_or_else(|| session_default(plan, &id))),
            };
            if let Some(v) = value {
                cfg.insert("value".into(), v);
            }
            cfg.insert("operator".into(), text(op.as_str()));
        }
        C::SessionValue(typed) => {
            let id = word(cfg, "session_state").to_string();
            let op = cfg
                .get("operator")
                .and_then(Value::as_str)
                .and_then(SessionOperator::from_name)
                .unwrap_or(SessionOperator::Eq);
            // One value of the state's type (a list state's element, for `in` and `contains`).
            let one = |t: &str| {
                let mut single = plan.session_state(&id).cloned();
                if let Some(s) = single.as_mut() {
                    s.list = false;
                }
                let v = text(t.trim());
                single.and_then(|s| coerce_session(&v, &s)).unwrap_or(v)
            };
            if op == SessionOperator::In {
                let list = items(typed).map(one).collect();
                cfg.insert("values".into(), Value::Array(list));
            } else if op == SessionOperator::Contains {
                cfg.insert("value".into(), one(typed));
            } else {
                cfg.insert("value".into(), session_value_from_text(plan, &id, typed));
            }
        }
        C::Combine(op) => {
            cfg.insert("operator".into(), text(op.as_str()));
        }
        C::AddChild => {
            let leaf = json!({
                "condition_type": ConditionType::DeliverableExists.as_str(),
                "condition_config": settings_near(ConditionType::DeliverableExists, None, plan, near),
            });
            match cfg.get_mut("conditions").and_then(Value::as_array_mut) {
                Some(list) => list.push(leaf),
                None => {
                    cfg.insert("conditions".into(), json!([leaf]));
                }
            }
        }
        C::RemoveChild(i) => {
            if let Some(list) = cfg.get_mut("conditions").and_then(Value::as_array_mut) {
                if *i < list.len() {
                    list.remove(*i);
                }
            }
        }
    }
}

/// A setting that is a word, as written; empty when it is not.
fn word<'c>(cfg: &'c Map<String, Value>, field: &str) -> &'c str {
    cfg.get(field).and_then(Value::as_str).unwrap_or_default()
}

/// The items of a list as typed: comma-separated, trimmed, empty ones left out.
fn items(typed: &str) -> impl Iterator<Item = &str> {
    typed.split(',').map(str::trim).filter(|s| !s.is_empty())
}

/// A number as typed: whole numbers stay whole (`3`, not `3.0`); text that is not one is none.
fn number(typed: &str) -> Option<Value> {
    let x = typed.trim().parse::<f64>().ok().filter(|x| x.is_finite())?;
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Some(json!(x as i64))
    } else {
        serde_json::Number::from_f64(x).map(Value::Number)
    }
}

/// The value compared with a key, as typed: a number for a number key (0 for text that is not
/// one), yes/no for a boolean key, the text for the others.
fn value_for_key(plan: &Plan, key: &str, typed: &str) -> Value {
    match declared(plan, key).map(|d| d.kind) {
        Some(DeliverableType::Number) => number(typed).unwrap_or(json!(0)),
        Some(DeliverableType::Boolean) => json!(typed == "true"),
        _ => Value::String(typed.to_string()),
    }
}

/// The first declaration of `key`.
fn declared<'p>(plan: &'p Plan, key: &str) -> Option<&'p crate::plan::Deliverable> {
    plan.states
        .iter()
        .flat_map(|s| s.deliverables())
        .find(|d| d.key == key)
}

/// The first declared key, optionally of one type.
/// The first key (of type `kind`, if given) state `near` collects, else the plan's first.
fn first_declared_key(
    plan: &Plan,
    kind: Option<DeliverableType>,
    near: Option<&str>,
) -> Option<String> {
    let fits = |d: &&Deliverable| kind.is_none_or(|k| d.kind == k);
    near.and_then(|id| plan.state(id))
        .and_then(|s| s.deliverables().find(fits))
        .or_else(|| plan.states.iter().flat_map(|s| s.deliverables()).find(fits))
        .map(|d| d.key.clone())
}

/// An enum's first choice, or empty text when it has none.
fn first_choice(choices: Option<&[String]>) -> Value {
    json!(choices.and_then(|c| c.first()).cloned().unwrap_or_default())
}

/// A value that fits `key`: an enum key's first choice, yes, 0, or empty text.
pub fn default_value(plan: &Plan, key: &str) -> Value {
    match declared(plan, key) {
        Some(d) => match d.kind {
            DeliverableType::Enum => first_choice(d.enum_values.as_deref()),
            DeliverableType::Boolean => json!(true),
            DeliverableType::Number => json!(0),
            DeliverableType::String => json!(""),
        },
        None => json!(""),
    }
}

/// The session states a value comparison can read: every one but prompt states.
pub fn valued_session_states(plan: &Plan) -> impl Iterator<Item = &SessionState> {
    plan.session_states
        .iter()
        .filter(|s| s.kind != SessionType::Prompt)
}

/// What an author typed as session state `id`'s value, read as the state holds it (text that does
/// not fit stays text, for the checker to point at).
pub fn session_value_from_text(plan: &Plan, id: &str, text: &str) -> Value {
    let text_value = Value::String(text.to_string());
    plan.session_state(id)
        .and_then(|st| coerce_session(&text_value, st))
        .unwrap_or(text_value)
}

/// A value that fits session state `id`.
pub fn session_default(plan: &Plan, id: &str) -> Value {
    plan.session_state(id)
        .map_or(json!(""), |st| default_of(st, st.list))
}

/// A value of `st`'s type: a list (empty) when `list`, else one element.
fn default_of(st: &SessionState, list: bool) -> Value {
    if list {
        return json!([]);
    }
    match st.kind {
        SessionType::Number => json!(0),
        SessionType::Boolean => json!(true),
        SessionType::Enum => first_choice(st.enum_values.as_deref()),
        _ => json!(""),
    }
}

/// A value that fits one element of session state `id` (a list state's element).
fn element_default(plan: &Plan, id: &str) -> Value {
    plan.session_state(id)
        .map_or(json!(""), |st| default_of(st, false))
}

/// The settings a condition of type `ty` starts with in `plan`: valid wherever the plan declares
/// what they need, keeping `key` where it fits.
pub fn settings_for(ty: ConditionType, key: Option<String>, plan: &Plan) -> Map<String, Value> {
    settings_near(ty, key, plan, None)
}

/// [`settings_for`] a condition of state `near`: a key it starts on is the state's own first.
pub fn settings_near(
    ty: ConditionType,
    key: Option<String>,
    plan: &Plan,
    near: Option<&str>,
) -> Map<String, Value> {
    let first_key = || {
        key.clone()
            .or_else(|| first_declared_key(plan, None, near))
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
                .or_else(|| first_declared_key(plan, Some(DeliverableType::Number), near))
                .unwrap_or_default();
            json!({"key": k, "operator": "gte", "value": 0})
        }
        ConditionType::TurnCountExceeded => json!({"turns": 3, "scope": "without_progress"}),
        ConditionType::VisitCountExceeded => json!({"visits": 3}),
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
        ConditionType::SessionStateActive => {
            let id = plan.session_states.first().map(|s| s.id.clone());
            json!({"session_state": id.unwrap_or_default(), "negated": false})
        }
        ConditionType::SessionStateValue => {
            let id = valued_session_states(plan)
                .next()
                .map(|s| s.id.clone())
                .unwrap_or_default();
            json!({"session_state": id, "operator": "eq", "value": session_default(plan, &id)})
        }
    };
    v.as_object().cloned().unwrap_or_default()
}
