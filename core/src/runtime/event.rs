//! The trace of a conversation: what the runtime did in each turn and why, as data an author's
//! test panel lists, each event with a one-line `text` a non-programmer understands.

use serde::{Deserialize, Serialize};

use super::action::Action;
use super::session::Ended;
use crate::plan::{InterruptionKind, Priority};

/// Something that happened in a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// The turn it happened in (0: the opening).
    pub turn: u32,
    /// What happened.
    #[serde(flatten)]
    pub what: What,
    /// The event in one line: "moved to Billing because issue_type = billing (priority 1)".
    pub text: String,
}

/// The kinds of events, with their data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum What {
    /// The agent asked for an action and the runtime applied it.
    ActionAccepted {
        /// The action.
        action: Action,
    },
    /// The agent asked for an action and the runtime refused it.
    ActionRejected {
        /// The action.
        action: Action,
        /// Why it was refused, in words.
        reason: String,
    },
    /// A task of the current state was done.
    TaskCompleted {
        /// The task's id.
        task_id: String,
        /// `true` when completed because its deliverables became known, not by an action.
        auto: bool,
    },
    /// An optional task was skipped.
    TaskSkipped {
        /// The task's id.
        task_id: String,
    },
    /// The goal was closed as achieved.
    GoalClosed {
        /// What the user said that achieved it.
        quote: String,
    },
    /// The goal was given up.
    GoalGivenUp {
        /// What the user said that gave it up.
        quote: String,
    },
    /// The stuck-state safety net released a task (or the goal, `task_id` absent) as skipped.
    ReleasedStuck {
        /// The task released; none: the goal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task_id: Option<String>,
        /// The turns it stayed without progress.
        turns_without_progress: u32,
    },
    /// A transition fired.
    Transition(Move),
    /// A state was entered.
    Entered {
        /// The state's id.
        state_id: String,
    },
    /// The conversation ended.
    Ended {
        /// How, where and when.
        ending: Ended,
    },
    /// A session state's value (`value`, `null` when cleared) or flag (`active`) changed.
    SessionStateChanged {
        /// The session state's id.
        session_state: String,
        /// Its new value, when the value changed (`null`: cleared).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        value: Option<serde_json::Value>,
        /// Its new flag, when the flag changed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        active: Option<bool>,
        /// Who changed it.
        by: ChangedBy,
    },
    /// An interruption fired instead of the state's transitions.
    Interrupted {
        /// The interruption's id.
        interruption: String,
        /// Its kind: yield, abandon or preempt.
        interruption_kind: InterruptionKind,
        /// The state it fired in.
        from: String,
        /// The state it went to.
        to: String,
    },
    /// The open task was set aside for a detour.
    Parked {
        /// The state of the parked task.
        state_id: String,
    },
    /// A task was closed by an `abandon` or `preempt` (the open one, or the parked one).
    Dropped {
        /// The state of the dropped task.
        state_id: String,
    },
    /// A return point handed the conversation back to the parked task (`fresh`: it had been
    /// forgotten, and its state was entered afresh).
    Resumed {
        /// The state handed back to.
        state_id: String,
        /// Whether the task had been forgotten and its state entered afresh.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        fresh: bool,
    },
    /// The parked task was away too long and was forgotten.
    ParkedForgotten {
        /// The state of the forgotten task.
        state_id: String,
    },
    /// Entering a state forgot the values of its `ask_again` tasks, to ask for them afresh.
    Forgotten {
        /// The keys whose values were forgotten.
        keys: Vec<String>,
    },
    /// The language-model agent failed this turn and the author had the simulator answer it
    /// instead (docs/agents.md, "When it fails").
    AgentFallback {
        /// Why the language model failed.
        reason: String,
    },
}

/// Who changed a session state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangedBy {
    /// The session's start (`initially_active`).
    Start,
    /// A transition's `effects`.
    Effect,
    /// A state's `on_enter`.
    Entry,
    /// The agent's `set_session_state`.
    Agent,
    /// An `auto_activate` / `auto_deactivate` rule.
    Auto,
    /// Switched with its parent or by an exclusive peer.
    Cascade,
    /// Set by hand in a test chat.
    Author,
}

impl ChangedBy {
    /// How the trace and the JSON output write it.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangedBy::Start => "start",
            ChangedBy::Effect => "effect",
            ChangedBy::Entry => "entry",
            ChangedBy::Agent => "agent",
            ChangedBy::Auto => "auto",
            ChangedBy::Cascade => "cascade",
            ChangedBy::Author => "author",
        }
    }

    /// "by the transition", "automatically": how the trace says it.
    pub fn describe(self) -> &'static str {
        match self {
            ChangedBy::Start => "at the start",
            ChangedBy::Effect => "by the transition",
            ChangedBy::Entry => "on entering the state",
            ChangedBy::Agent => "by the agent",
            ChangedBy::Auto => "by its automatic rule",
            ChangedBy::Cascade => "with its parent or an exclusive peer",
            ChangedBy::Author => "by the author",
        }
    }
}

/// A move from one state to another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Move {
    /// The state it left.
    pub from: String,
    /// The state it entered.
    pub to: String,
    /// The transition's index in `from`'s list; `None` for a goal state's fall-through to the next
    /// state in plan order.
    pub index: Option<usize>,
    /// The transition's priority, when it has one.
    pub priority: Option<Priority>,
    /// The condition with the values that made it true: "risk_score = 9 ≥ 8".
    pub why: String,
}

impl Event {
    /// An event of `turn`, with its one line for the author.
    pub fn new(turn: u32, what: What, text: String) -> Event {
        Event { turn, what, text }
    }
}
