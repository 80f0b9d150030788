//! The condition builder's decisions, without a browser: where a condition lives (a transition
//! or a session state's rule, and the path of child indexes below it), reading and replacing the
//! condition there, the settings a type starts with, and the keys and values offered.

use plan_core::coerce::coerce_session;
use plan_core::condition::{Condition, ConditionType};
use plan_core::edit::PlanDetails;
use plan_core::plan::{
    Deliverable, DeliverableType, Plan, SessionState, SessionType, StateType, Transition,
};
use serde_json::{json, Map, Value};

use crate::plan_names::KeyName;

/// Where a condition lives: a transition's own condition, a session state's automatic rule, or
/// an interruption's condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Root {
    Transition {
        from: String,
        index: usize,
    },
    Rule {
        session_state: String,
        deactivate: bool,
    },
    /// The condition that fires an interruption by itself.
    Interruption {
        id: String,
    },
}

impl Root {
    /// A prefix that keeps one condition's bursts of typing apart from another's.
    pub(super) fn name(&self) -> String {
        match self {
            Root::Transition { from, index } => format!("{from}:t{index}"),
            Root::Rule {
                session_state,
                deactivate,
            } => format!("rule:{session_state}:{deactivate}"),
            Root::Interruption { id } => format!("interruption:{id}"),
        }
    }
}

/// The condition at `path` below a root condition.
pub(super) fn descend(
    root: (ConditionType, Map<String, Value>),
    path: &[usize],
) -> Option<(ConditionType, Map<String, Value>)> {
    let mut current = root;
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

/// The condition at `path` of a transition: its type and config.
pub(super) fn node(
    t: &Transition,
    kind: StateType,
    path: &[usize],
) -> Option<(ConditionType, Map<String, Value>)> {
    descend(
        (t.condition_type_in(kind), t.condition_config.clone()),
        path,
    )
}

/// Replaces the condition at a non-empty `path` below a root whose config is `root`.
pub(super) fn set_below(
    root: &mut Map<String, Value>,
    path: &[usize],
    ty: ConditionType,
    cfg: Map<String, Value>,
) {
    let Some((&last, parents)) = path.split_last() else {
        return;
    };
    let mut cfg_at = root;
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

/// Replaces the condition at `path` of a transition.
pub(super) fn set_node(
    t: &mut Transition,
    path: &[usize],
    ty: ConditionType,
    cfg: Map<String, Value>,
) {
    if path.is_empty() {
        t.condition_type = Some(ty);
        t.condition_config = cfg;
    } else {
        set_below(&mut t.condition_config, path, ty, cfg);
    }
}

/// Replaces the condition at `path` of an automatic rule.
pub(super) fn set_rule(
    c: &mut Condition,
    path: &[usize],
    ty: ConditionType,
    cfg: Map<String, Value>,
) {
    if path.is_empty() {
        c.condition_type = ty;
        c.condition_config = cfg;
    } else {
        set_below(&mut c.condition_config, path, ty, cfg);
    }
}

/// The condition of a root that stands alone (a session state's rule, an interruption's
/// condition); none for a transition's, which lives in its state.
pub(super) fn standalone<'p>(plan: &'p Plan, root: &Root) -> Option<&'p Condition> {
    match root {
        Root::Transition { .. } => None,
        Root::Rule {
            session_state,
            deactivate,
        } => {
            let st = plan.session_state(session_state)?;
            if *deactivate {
                st.auto_deactivate.as_ref()
            } else {
                st.auto_activate.as_ref()
            }
        }
        Root::Interruption { id } => plan.interruption(id)?.condition.as_ref(),
    }
}

/// [`standalone`] in the plan's details, to change and dispatch.
pub(super) fn standalone_mut<'d>(d: &'d mut PlanDetails, root: &Root) -> Option<&'d mut Condition> {
    match root {
        Root::Transition { .. } => None,
        Root::Rule {
            session_state,
            deactivate,
        } => {
            let st = d
                .session_states
                .iter_mut()
                .find(|s| s.id == *session_state)?;
            if *deactivate {
                st.auto_deactivate.as_mut()
            } else {
                st.auto_activate.as_mut()
            }
        }
        Root::Interruption { id } => d
            .interruptions
            .iter_mut()
            .find(|x| x.id == *id)?
            .condition
            .as_mut(),
    }
}

/// The session states a value comparison can read: every one but prompt states.
pub(super) fn valued_states(plan: &Plan) -> Vec<&SessionState> {
    plan.session_states
        .iter()
        .filter(|s| s.kind != SessionType::Prompt)
        .collect()
}

/// What an author typed as a session state's value, read as the state holds it.
pub fn session_value_from_text(plan: &Plan, id: &str, text: &str) -> Value {
    let text_value = Value::String(text.to_string());
    plan.session_state(id)
        .and_then(|st| coerce_session(&text_value, st))
        .unwrap_or(text_value)
}

pub(super) fn session_default(plan: &Plan, id: &str) -> Value {
    match plan.session_state(id) {
        Some(st) if st.list => json!([]),
        Some(st) => match st.kind {
            SessionType::Number => json!(0),
            SessionType::Boolean => json!(true),
            SessionType::Enum => json!(st
                .enum_values
                .as_deref()
                .unwrap_or_default()
                .first()
                .cloned()
                .unwrap_or_default()),
            _ => json!(""),
        },
        None => json!(""),
    }
}

/// A sensible starting config for a condition of type `ty`, keeping `key` where it fits.
pub(super) fn template(ty: ConditionType, key: Option<String>, plan: &Plan) -> Map<String, Value> {
    let first_key = || {
        key.clone()
            .or_else(|| first_declared_key(plan, None))
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
                .or_else(|| first_declared_key(plan, Some(DeliverableType::Number)))
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
            let id = valued_states(plan)
                .first()
                .map(|s| s.id.clone())
                .unwrap_or_default();
            json!({"session_state": id, "operator": "eq", "value": session_default(plan, &id)})
        }
    };
    v.as_object().cloned().unwrap_or_default()
}

/// The first declared key, optionally of one type.
fn first_declared_key(plan: &Plan, kind: Option<DeliverableType>) -> Option<String> {
    plan.states
        .iter()
        .flat_map(|s| s.deliverables())
        .find(|d| kind.is_none_or(|k| d.kind == k))
        .map(|d| d.key.clone())
}

pub(super) fn declared<'p>(plan: &'p Plan, key: &str) -> Option<&'p Deliverable> {
    plan.states
        .iter()
        .flat_map(|s| s.deliverables())
        .find(|d| d.key == key)
}

pub(super) fn default_value(plan: &Plan, key: &str) -> Value {
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

pub(super) fn label(ty: ConditionType) -> &'static str {
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
        ConditionType::SessionStateActive => "A session state is on",
        ConditionType::SessionStateValue => "A session state's value",
        ConditionType::VisitCountExceeded => "A state entered a number of times",
    }
}

/// Values as an author types them: `a, b, 3`.
pub(super) fn joined(values: &[Value]) -> String {
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
pub(super) struct Shape {
    pub(super) ty: ConditionType,
    /// The declaration of the key it reads, if any.
    pub(super) key: Option<KeyName>,
    pub(super) between: bool,
    pub(super) children: usize,
}

/// An edit of one condition: its type and config, with the plan for context.
pub(super) type Change = Box<dyn FnOnce(&Plan, &mut ConditionType, &mut Map<String, Value>)>;

pub(super) fn path_name(path: &[usize]) -> String {
    path.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(".")
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
            "session_states": [{"id": "vip", "agent_can_change": true}, {"id": "tries", "type": "number"}],
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
            let t = &mut std::sync::Arc::make_mut(&mut p.states[0]).transitions[0];
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
                Code::UnknownSessionState,
                Code::SessionValueMismatch,
            ] {
                assert!(!codes.contains(&bad), "{ty:?}: {codes:?}");
            }
        }
    }

    #[test]
    fn nested_conditions_are_read_and_replaced_by_their_path() {
        let mut p = plan();
        let cfg = template(ConditionType::AnyOf, None, &p);
        let t = &mut std::sync::Arc::make_mut(&mut p.states[0]).transitions[0];
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
