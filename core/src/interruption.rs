//! Interruptions (docs/interruptions.md, from seed 003): what may happen when the user sets the open
//! task aside. A `yield` parks the task for a detour and comes back to it at a return point (a
//! state whose ending is `resume`); `abandon` drops it ("never mind"); `preempt` drops it even in a
//! state that cannot be interrupted. The types mirror the JSON one to one, as in [`crate::plan`].

use serde::{Deserialize, Serialize};

use crate::condition::Condition;
use crate::plan::Priority;

/// One interruption of the plan.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(transform = crate::schema_rules::interruption)
)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interruption {
    /// `^[a-z0-9][a-z0-9_-]{0,63}$`, unique among interruptions.
    #[cfg_attr(feature = "schema", schemars(pattern(r"^[a-z0-9][a-z0-9_-]{0,63}$")))]
    pub id: String,
    /// Its display name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// What it does with the open task: yield, abandon or preempt.
    #[serde(default, skip_serializing_if = "InterruptionKind::is_default")]
    pub kind: InterruptionKind,
    /// Where the conversation goes.
    pub target_state_id: String,
    /// When it applies, in words: what a language-model agent is told.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// What the simulator listens for (case-insensitive, whole words).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phrases: Vec<String>,
    /// Fires the interruption by itself when it becomes true.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// Lower wins when several fire in one turn; ties go to the earlier one.
    #[serde(default, skip_serializing_if = "Priority::is_default")]
    pub priority: Priority,
    /// `yield` only: the parked task is forgotten after this many user turns away; 0 keeps it.
    /// Signed so that a negative number reads and is reported (`schema`), not refused by serde.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ttl_turns: i64,
    /// The states it can fire in; empty: any state.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub only_in: Vec<String>,
}

impl Interruption {
    /// The name an author reads: the title, else the id.
    pub fn name(&self) -> &str {
        if self.title.is_empty() {
            &self.id
        } else {
            &self.title
        }
    }

    /// Whether it can fire in state `id` as far as `only_in` says.
    pub fn allowed_in(&self, id: &str) -> bool {
        self.only_in.is_empty() || self.only_in.iter().any(|s| s == id)
    }
}

/// What an interruption does to the open task.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InterruptionKind {
    /// Park it, deal with one thing, come back at a return point.
    #[default]
    Yield,
    /// Close it (and a parked one): "never mind".
    Abandon,
    /// As abandon, and it also fires in a state that cannot be interrupted.
    Preempt,
}

impl InterruptionKind {
    /// How the plan format writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            InterruptionKind::Yield => "yield",
            InterruptionKind::Abandon => "abandon",
            InterruptionKind::Preempt => "preempt",
        }
    }

    fn is_default(&self) -> bool {
        *self == InterruptionKind::Yield
    }
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}
