//! One turn of a conversation, as every part that keeps or shows one records it: the runtime's
//! answer to a message, the line of a conversation's log, the turn `plan chat --format json`
//! prints (with the state after it, [`super::script::TurnRecord`]), the turn the Chat tab draws.
//! One type, so a field added to a turn is added once.

use serde::{Deserialize, Serialize};

use super::chat::{GoalCheck, ToolCallRecord, TurnCost, Usage};
use super::{AgentKind, Event, Move};

/// What one user turn (or the opening, turn 0) was and produced.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Turn {
    /// Its number in the conversation: 0 is the opening, user turns count from 1.
    #[serde(rename = "turn")]
    pub number: u32,
    /// What the user said; none for the opening.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// The agent's reply (`reply` in logs written before it had its public name).
    #[serde(rename = "agent", alias = "reply")]
    pub reply: String,
    /// What happened, in order (the trace).
    #[serde(default)]
    pub events: Vec<Event>,
    /// The transition taken in this turn, if any.
    #[serde(default)]
    pub transition: Option<Move>,
    /// What the agent was told when it wrote the reply (docs/session-states.md, "The prompt of a
    /// turn").
    #[serde(default)]
    pub prompt: String,
    /// The parked task's state after the turn (docs/interruptions.md), if one is parked.
    #[serde(default)]
    pub parked: Option<String>,
    /// Who wrote the reply (docs/agents.md, "What is kept"); the simulator when not said.
    #[serde(default, skip_serializing_if = "is_simulator")]
    pub by: AgentKind,
    /// The functions a language model called, with their results; none for the simulator's turns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<ToolCallRecord>,
    /// The goal checks a language model made before a close or a give-up.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub goal_checks: Vec<GoalCheck>,
    /// A language model's tokens this turn, when its server counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// How long a language model's turn took, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    /// The model was offered functions, called none, and the plan did not move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uncalled: bool,
}

impl Turn {
    /// Records what a language model's turn cost (nothing for a turn without a cost).
    pub fn with_cost(mut self, cost: Option<TurnCost>) -> Turn {
        if let Some(cost) = cost {
            self.usage = cost.usage;
            self.ms = Some(cost.ms);
            self.uncalled = cost.uncalled;
        }
        self
    }
}

fn is_simulator(by: &AgentKind) -> bool {
    *by == AgentKind::Simulator
}
