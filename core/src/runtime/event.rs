//! The trace of a conversation: what the runtime did in each turn and why, as data an author's
//! test panel lists, each event with a one-line `text` a non-programmer understands.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::session::Ended;
use crate::plan::Priority;

/// Something that happened in a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub turn: u32,
    #[serde(flatten)]
    pub what: What,
    /// The event in one line: "moved to Billing because issue_type = billing (priority 1)".
    pub text: String,
}

/// The kinds of events, with their data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum What {
    ActionAccepted {
        action: Action,
    },
    ActionRejected {
        action: Action,
        reason: String,
    },
    TaskCompleted {
        task_id: String,
        /// `true` when completed because its deliverables became known, not by an action.
        auto: bool,
    },
    TaskSkipped {
        task_id: String,
    },
    GoalClosed {
        quote: String,
    },
    GoalGivenUp {
        quote: String,
    },
    /// The stuck-state safety net released a task (or the goal, `task_id` absent) as skipped.
    ReleasedStuck {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task_id: Option<String>,
        turns_without_progress: u32,
    },
    Transition(Move),
    Entered {
        state_id: String,
    },
    Ended {
        ending: Ended,
    },
}

/// A move from one state to another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Move {
    pub from: String,
    pub to: String,
    /// The transition's index in `from`'s list; `None` for a goal state's fall-through to the next
    /// state in plan order.
    pub index: Option<usize>,
    pub priority: Option<Priority>,
    /// The condition with the values that made it true: "risk_score = 9 ≥ 8".
    pub why: String,
}

impl Event {
    pub fn new(turn: u32, what: What, text: String) -> Event {
        Event { turn, what, text }
    }
}
