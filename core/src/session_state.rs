//! Session states (`docs/session-states.md`): named conditions beside the graph, each with a
//! typed value and an independent active flag; the changes transitions and state entries make to
//! them; and the plan's lookups over their `parent` tree.
//!
//! Like the rest of the model, the types mirror the JSON one to one. A change's `value` keeps the
//! difference between absent (leave the value alone) and `null` (clear it), so a plan read and
//! written again says the same thing.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Number, Value};

use crate::condition::Condition;
use crate::plan::{DeliverableType, Plan};

/// A named condition the conversation is in (`identity_verified`, `booking`).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(transform = crate::schema_rules::session_state)
)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionState {
    /// `^[A-Za-z_][A-Za-z0-9_]*$`, unique among session states.
    #[cfg_attr(feature = "schema", schemars(pattern(r"^[A-Za-z_][A-Za-z0-9_]*$")))]
    pub id: String,
    /// Its display name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// What it means, for the author.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Always written, as a deliverable's type is.
    #[serde(rename = "type", default)]
    pub kind: SessionType,
    /// The value is a list of `type` values (not for prompt states).
    #[serde(default, skip_serializing_if = "is_false")]
    pub list: bool,
    /// Allowed values of an `enum` state; `None` told apart from an empty list, as for deliverables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_values: Option<Vec<String>>,
    /// The value every session starts with.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::duplicate_keys::unique_optional_value"
    )]
    pub value: Option<Value>,
    /// The text added to the prompt while active; only on prompt states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// Whether it is active when a conversation starts.
    #[serde(default, skip_serializing_if = "is_false")]
    pub initially_active: bool,
    /// Another session state this one is nested under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// How it is switched on and off: by hand, by its rules, or both.
    #[serde(default, skip_serializing_if = "Activation::is_default")]
    pub activation: Activation,
    /// The rule that switches it on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_activate: Option<Condition>,
    /// Wins over `auto_activate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_deactivate: Option<Condition>,
    /// Whether the agent may change it (`set_session_state`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub agent_can_change: bool,
}

impl SessionState {
    /// A boolean state with only an id: what the editor's "Add session state" makes.
    pub fn new(id: &str) -> SessionState {
        SessionState {
            id: id.to_string(),
            title: String::new(),
            description: String::new(),
            kind: SessionType::Boolean,
            list: false,
            enum_values: None,
            value: None,
            prompt: None,
            initially_active: false,
            parent: None,
            activation: Activation::Independent,
            auto_activate: None,
            auto_deactivate: None,
            agent_can_change: false,
        }
    }

    /// Its automatic rule: the one that switches it off when `deactivate`, else the one that
    /// switches it on.
    pub fn automatic(&self, deactivate: bool) -> Option<&Condition> {
        if deactivate {
            self.auto_deactivate.as_ref()
        } else {
            self.auto_activate.as_ref()
        }
    }

    /// [`SessionState::automatic`], to change.
    pub fn automatic_mut(&mut self, deactivate: bool) -> Option<&mut Condition> {
        let rule = if deactivate {
            &mut self.auto_deactivate
        } else {
            &mut self.auto_activate
        };
        rule.as_mut()
    }

    /// The type of one value as a deliverable of that type would hold it; `None` for prompt states.
    pub fn value_type(&self) -> Option<DeliverableType> {
        self.kind.value_type()
    }

    /// The name an author reads: the title, else the id.
    pub fn name(&self) -> &str {
        if self.title.trim().is_empty() {
            &self.id
        } else {
            &self.title
        }
    }
}

/// The type of a session state.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionType {
    /// True or false.
    #[default]
    Boolean,
    /// A number.
    Number,
    /// Text.
    String,
    /// One of `enum_values`.
    Enum,
    /// Carries prompt text instead of a value.
    Prompt,
}

impl SessionType {
    /// Every type, in the order the editor offers them.
    pub const ALL: [SessionType; 5] = [
        SessionType::Boolean,
        SessionType::Number,
        SessionType::String,
        SessionType::Enum,
        SessionType::Prompt,
    ];

    /// How the plan format writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionType::Boolean => "boolean",
            SessionType::Number => "number",
            SessionType::String => "string",
            SessionType::Enum => "enum",
            SessionType::Prompt => "prompt",
        }
    }

    /// The deliverable type whose coercion rules a value of this type follows.
    pub fn value_type(self) -> Option<DeliverableType> {
        match self {
            SessionType::Boolean => Some(DeliverableType::Boolean),
            SessionType::Number => Some(DeliverableType::Number),
            SessionType::String => Some(DeliverableType::String),
            SessionType::Enum => Some(DeliverableType::Enum),
            SessionType::Prompt => None,
        }
    }
}

/// How switching a state on treats its peers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Activation {
    /// Switching it on changes no other state.
    #[default]
    Independent,
    /// Switching it on switches off its active exclusive peers.
    Exclusive,
}

impl Activation {
    fn is_default(&self) -> bool {
        *self == Activation::Independent
    }
}

/// What a transition (`effects`) or a state entry (`on_enter`) does to one session state.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(transform = crate::schema_rules::session_change)
)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionChange {
    /// The session state's id.
    pub session_state: String,
    /// `Some(None)` is `"value": null`, which clears the value; `None` leaves it alone.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub value: Option<Option<Value>>,
    /// Added to a number state (no value counts as 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add: Option<Number>,
    /// Its new flag, when the change sets it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}

impl SessionChange {
    /// "sets identity_verified", "switches on upsell", "adds 1 to attempts": the line a card or an
    /// arrow shows.
    pub fn describe(&self) -> String {
        let id = &self.session_state;
        let mut parts = Vec::new();
        match (&self.value, &self.add) {
            (Some(None), _) => parts.push(format!("clears {id}")),
            (Some(Some(v)), _) => parts.push(format!("sets {id} = {}", crate::runtime::show(v))),
            (None, Some(n)) => parts.push(format!("adds {n} to {id}")),
            (None, None) => {}
        }
        match self.active {
            Some(true) if parts.is_empty() => parts.push(format!("switches on {id}")),
            Some(false) if parts.is_empty() => parts.push(format!("switches off {id}")),
            Some(true) => parts.push("on".into()),
            Some(false) => parts.push("off".into()),
            None => {}
        }
        parts.join(", ")
    }
}

/// Reads a field that is present, `null` included, as `Some`, so that `"value": null` (clear) is
/// told apart from no `value` at all (serde's default, `None`).
pub fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<Value>>, D::Error> {
    crate::duplicate_keys::unique_optional_value(d).map(Some)
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Plan {
    /// The first session state with this id.
    pub fn session_state(&self, id: &str) -> Option<&SessionState> {
        self.session_states.iter().find(|s| s.id == id)
    }

    /// The ancestors of session state `id`, nearest first; stops at a cycle or an unknown parent.
    pub fn session_ancestors(&self, id: &str) -> Vec<&SessionState> {
        let mut out: Vec<&SessionState> = Vec::new();
        let mut at = self.session_state(id).and_then(|s| s.parent.as_deref());
        while let Some(p) = at {
            let Some(parent) = self.session_state(p) else {
                break;
            };
            if parent.id == id || out.iter().any(|s| s.id == parent.id) {
                break;
            }
            out.push(parent);
            at = parent.parent.as_deref();
        }
        out
    }

    /// The session states nested under `id` at any depth, in plan order.
    pub fn session_descendants(&self, id: &str) -> Vec<&SessionState> {
        let states = &self.session_states;
        let mut under = vec![false; states.len()];
        let mut frontier = vec![id];
        while let Some(parent) = frontier.pop() {
            for (i, s) in states.iter().enumerate() {
                if !under[i] && s.id != id && s.parent.as_deref() == Some(parent) {
                    under[i] = true;
                    frontier.push(&s.id);
                }
            }
        }
        states
            .iter()
            .zip(under)
            .filter_map(|(s, u)| u.then_some(s))
            .collect()
    }

    /// The peers of `id`: the other session states with the same parent.
    pub fn session_peers(&self, id: &str) -> Vec<&SessionState> {
        let Some(me) = self.session_state(id) else {
            return Vec::new();
        };
        self.session_states
            .iter()
            .filter(|s| s.id != id && s.parent == me.parent)
            .collect()
    }

    /// The tool named `name`.
    pub fn tool(&self, name: &str) -> Option<&crate::plan::Tool> {
        self.tools.iter().find(|t| t.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_change_tells_clearing_from_leaving_alone() {
        let clear: SessionChange =
            serde_json::from_value(json!({"session_state": "a", "value": null})).unwrap();
        assert_eq!(clear.value, Some(None));
        assert_eq!(
            serde_json::to_value(&clear).unwrap(),
            json!({"session_state": "a", "value": null})
        );
        let alone: SessionChange =
            serde_json::from_value(json!({"session_state": "a", "active": true})).unwrap();
        assert_eq!(alone.value, None);
        assert_eq!(alone.describe(), "switches on a");
        let add: SessionChange =
            serde_json::from_value(json!({"session_state": "n", "add": 1})).unwrap();
        assert_eq!(serde_json::to_value(&add).unwrap()["add"], json!(1));
        assert_eq!(add.describe(), "adds 1 to n");
    }
}
