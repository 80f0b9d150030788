//! A transition, the outgoing edge of a state, and its priority: which arrow the runtime checks
//! first, written back as the number the author wrote.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{SessionChange, StateType};
use crate::condition::ConditionType;

/// An outgoing edge of a state.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transition {
    /// The state it goes to.
    pub target_state_id: String,
    /// Absent means `all_tasks_complete`, or `goal_achieved` in a goal state: see
    /// [`Transition::condition_type_in`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition_type: Option<ConditionType>,
    /// Lower wins; ties go to the earlier transition.
    #[serde(default, skip_serializing_if = "Priority::is_default")]
    pub priority: Priority,
    /// Parameters of the condition, kept as JSON: everything inside is checked by the validator
    /// (`invalid-condition-config`), so a mistake there never stops a plan from loading.
    #[serde(
        default,
        skip_serializing_if = "Map::is_empty",
        deserialize_with = "crate::duplicate_keys::unique_map"
    )]
    pub condition_config: Map<String, Value>,
    /// Shown on the edge instead of the condition when set.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
    /// Changes to session states when this transition fires, before the target is entered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<SessionChange>,
}

impl Transition {
    /// The condition type with its default applied for a state of `kind`.
    pub fn condition_type_in(&self, kind: StateType) -> ConditionType {
        self.condition_type.unwrap_or(match kind {
            StateType::Goal => ConditionType::GoalAchieved,
            _ => ConditionType::AllTasksComplete,
        })
    }
}

/// A transition's priority: any JSON number. Integers are written back as integers.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Priority(pub f64);

impl Default for Priority {
    fn default() -> Self {
        Priority(1.0)
    }
}

impl Priority {
    pub(crate) fn is_default(&self) -> bool {
        self.0 == 1.0
    }
}

impl std::fmt::Display for Priority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Serialize for Priority {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // `1` must stay `1`, not become `1.0`, or every saved file would change under its author.
        if self.0.fract() == 0.0 && self.0.abs() < 9.0e15 {
            s.serialize_i64(self.0 as i64)
        } else {
            s.serialize_f64(self.0)
        }
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Priority {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Priority".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "default": 1,
            "description": "Lower wins; ties go to the earlier transition."
        })
    }
}

impl<'de> Deserialize<'de> for Priority {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        f64::deserialize(d).map(Priority)
    }
}
