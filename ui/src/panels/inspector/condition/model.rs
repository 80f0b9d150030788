//! Where a condition the builder edits lives, without a browser: a transition or a session
//! state's rule or an interruption's condition, and the path of child indexes below it; reading and
//! replacing the condition there. What a change does to a condition is core's
//! (`plan_core::condition::change`).

use plan_core::condition::{Condition, ConditionType};
use plan_core::edit::PlanDetails;
use plan_core::plan::{Plan, StateType, Transition};
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
    /// The condition a rule of the plan wants true (explore.md, "Rules").
    PlanRule {
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
            Root::PlanRule { id } => format!("plan-rule:{id}"),
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

/// Replaces the condition at `path` below a root whose settings are `config`; an empty path
/// replaces the root itself, whose type `set_type` takes.
fn replace(
    config: &mut Map<String, Value>,
    set_type: impl FnOnce(ConditionType),
    path: &[usize],
    ty: ConditionType,
    cfg: Map<String, Value>,
) {
    if path.is_empty() {
        set_type(ty);
        *config = cfg;
    } else {
        set_below(config, path, ty, cfg);
    }
}

/// Replaces the condition at `path` of a transition.
pub(super) fn set_node(
    t: &mut Transition,
    path: &[usize],
    ty: ConditionType,
    cfg: Map<String, Value>,
) {
    let set_type = |ty| t.condition_type = Some(ty);
    replace(&mut t.condition_config, set_type, path, ty, cfg);
}

/// Replaces the condition at `path` of an automatic rule.
pub(super) fn set_rule(
    c: &mut Condition,
    path: &[usize],
    ty: ConditionType,
    cfg: Map<String, Value>,
) {
    let set_type = |ty| c.condition_type = ty;
    replace(&mut c.condition_config, set_type, path, ty, cfg);
}

/// The condition of a root that stands alone (a session state's rule, an interruption's
/// condition); none for a transition's, which lives in its state.
pub(super) fn standalone<'p>(plan: &'p Plan, root: &Root) -> Option<&'p Condition> {
    match root {
        Root::Transition { .. } => None,
        Root::Rule {
            session_state,
            deactivate,
        } => plan.session_state(session_state)?.automatic(*deactivate),
        Root::Interruption { id } => plan.interruption(id)?.condition.as_ref(),
        Root::PlanRule { id } => plan.rules.iter().find(|r| r.id == *id)?.condition.as_ref(),
    }
}

/// [`standalone`] in the plan's details, to change and dispatch.
pub(super) fn standalone_mut<'d>(d: &'d mut PlanDetails, root: &Root) -> Option<&'d mut Condition> {
    match root {
        Root::Interruption { id } => d
            .interruptions
            .iter_mut()
            .find(|x| x.id == *id)?
            .condition
            .as_mut(),
        Root::PlanRule { id } => d.rules.iter_mut().find(|r| r.id == *id)?.condition.as_mut(),
        Root::Rule {
            session_state,
            deactivate,
        } => d
            .session_states
            .iter_mut()
            .find(|s| s.id == *session_state)?
            .automatic_mut(*deactivate),
        Root::Transition { .. } => None,
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

/// What decides the form of one condition.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Shape {
    pub(super) ty: ConditionType,
    /// The declaration of the key it reads, if any.
    pub(super) key: Option<KeyName>,
    pub(super) between: bool,
    pub(super) children: usize,
}

pub(super) fn path_name(path: &[usize]) -> String {
    path.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::condition::change::settings_for;
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
            let cfg = settings_for(ty, Some("topic".into()), &p);
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
        let cfg = settings_for(ConditionType::AnyOf, None, &p);
        let t = &mut std::sync::Arc::make_mut(&mut p.states[0]).transitions[0];
        t.condition_type = Some(ConditionType::AnyOf);
        t.condition_config = cfg;
        let inner = settings_for(ConditionType::AllOf, None, &base_plan());
        set_node(t, &[0], ConditionType::AllOf, inner);
        let leaf = settings_for(ConditionType::DeliverableValueNumeric, None, &base_plan());
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
