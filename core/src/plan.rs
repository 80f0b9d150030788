//! The plan document: serde types for every field of `docs/plan-format.md`.
//!
//! The types mirror the JSON one to one, so that a plan read and written again says the same thing.
//! Optional fields keep their *absence* where the default depends on context (a transition's
//! `condition_type` defaults differently in goal states; a state's `ending` only exists without
//! transitions), and fields equal to a fixed default are left out when written, so files stay short
//! and diffs stay small. Unknown fields are rejected everywhere, so a typo is an error, not a silent
//! no-op. Checks that serde cannot express (id patterns, enum values, unknown nested condition types)
//! live in [`crate::parse`]; meaning (references, graph) is for the validator.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use crate::evaluation::Evaluation;
pub use crate::interruption::{Interruption, InterruptionKind};
pub use crate::rule::{Rule, RuleKind};
pub use crate::session_state::{Activation, SessionChange, SessionState, SessionType};
pub use transition::{Priority, Transition};

mod transition;

/// The newest `schema_version` this program reads and writes.
pub const SCHEMA_VERSION: u32 = 1;

/// A conversation modelled as a graph of states joined by transitions.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// Format version; always written, so a file says which format it is in.
    #[serde(default = "schema_version_default")]
    pub schema_version: u32,
    /// Slug (`^[a-z0-9][a-z0-9_-]{0,63}$`), also the plan's folder name in a workspace.
    #[cfg_attr(feature = "schema", schemars(pattern(r"^[a-z0-9][a-z0-9_-]{0,63}$")))]
    pub id: String,
    /// Display name.
    pub title: String,
    /// What the plan is for.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The agent's base instructions for every turn of every state (templates allowed).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub instructions: String,
    /// The state every session starts in; absent means the first state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_state_id: Option<String>,
    /// The states in **plan order** (goal states fall through to the next one in this order).
    /// Shared, not copied, between the plans an edit makes: a copy of a plan (an undo step, the
    /// editor's copy on disk) copies one pointer a state, and an edit of one state makes only
    /// that state anew ([`Plan::state_mut`]).
    pub states: Vec<Arc<State>>,
    /// Tools the agent may call, with the response codes each can return.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tool>,
    /// Named conditions beside the graph, each with a value and an active flag (docs/session-states.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub session_states: Vec<SessionState>,
    /// What may happen when the user sets the open task aside (docs/interruptions.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub interruptions: Vec<Interruption>,
    /// What the author wants guaranteed of every conversation (explore.md, "Rules").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Rule>,
    /// Judge questions asked of every simulated conversation (simulate.md, "Evaluations").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evaluations: Vec<Evaluation>,
    /// The plan's settings.
    #[serde(default, skip_serializing_if = "Settings::is_default")]
    pub settings: Settings,
    /// Canvas positions by state id. No meaning at run time.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub layout: BTreeMap<String, Position>,
}

fn schema_version_default() -> u32 {
    1
}

/// Equal when every field is; a state two plans share is equal without being read, so comparing
/// a plan with the one an edit of one state made reads that one state.
impl PartialEq for Plan {
    fn eq(&self, other: &Plan) -> bool {
        // Every field named, so that a new one cannot be forgotten here.
        let Plan {
            schema_version,
            id,
            title,
            description,
            instructions,
            start_state_id,
            states,
            tools,
            session_states,
            interruptions,
            rules,
            evaluations,
            settings,
            layout,
        } = self;
        *schema_version == other.schema_version
            && *id == other.id
            && *title == other.title
            && *description == other.description
            && *instructions == other.instructions
            && *start_state_id == other.start_state_id
            && states.len() == other.states.len()
            && states
                .iter()
                .zip(&other.states)
                .all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
            && *tools == other.tools
            && *session_states == other.session_states
            && *interruptions == other.interruptions
            && *rules == other.rules
            && *evaluations == other.evaluations
            && *settings == other.settings
            && *layout == other.layout
    }
}

impl Plan {
    /// The id of the state sessions start in: `start_state_id`, else the first state's id.
    pub fn start_state_id(&self) -> Option<&str> {
        self.start_state_id
            .as_deref()
            .or_else(|| self.states.first().map(|s| s.id.as_str()))
    }

    /// The first state with this id (ids should be unique; the validator says when they are not).
    pub fn state(&self, id: &str) -> Option<&State> {
        self.states.iter().find(|s| s.id == id).map(|s| &**s)
    }

    /// The first state with this id, to change: made anew if another plan shares it.
    pub fn state_mut(&mut self, id: &str) -> Option<&mut State> {
        self.states
            .iter_mut()
            .find(|s| s.id == id)
            .map(Arc::make_mut)
    }

    /// Every state, to change: each one another plan shares is made anew (an edit that may touch
    /// any state, such as a rename, copies them all, as a plain copy of the plan would).
    pub fn states_mut(&mut self) -> impl Iterator<Item = &mut State> {
        self.states.iter_mut().map(Arc::make_mut)
    }

    /// The first interruption with this id.
    pub fn interruption(&self, id: &str) -> Option<&Interruption> {
        self.interruptions.iter().find(|i| i.id == id)
    }

    /// The plan's own fields, without its states (copied; they are small but for the layout, and
    /// a state is shared, not copied, on the way).
    pub fn without_states(&self) -> Plan {
        Plan {
            states: Vec::new(),
            ..self.clone()
        }
    }

    /// The number of transitions in the whole plan.
    pub fn transition_count(&self) -> usize {
        self.states.iter().map(|s| s.transitions.len()).sum()
    }
}

/// A phase of the conversation.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// Unique in the plan.
    pub id: String,
    /// The state's display name.
    pub title: String,
    /// Execution mode; always written, because it is what an author reads first.
    #[serde(rename = "type", default)]
    pub kind: StateType,
    /// What the state is for.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// What the agent is told while in this state.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub instructions: String,
    /// Must stay empty in a goal state.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<Task>,
    /// Only in goal states.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Goal>,
    /// Outgoing edges; none makes this an ending state.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transitions: Vec<Transition>,
    /// Names from the plan's `tools`; only these can be called here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_tools: Vec<String>,
    /// How the conversation ends here; absent means `complete` for a state without transitions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    /// Changes to session states on entering this state, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_enter: Vec<SessionChange>,
    /// `false`: only `preempt` interruptions can fire here (a payment confirmation, a consent).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub interruptible: bool,
}

impl State {
    /// A state without transitions ends the conversation.
    pub fn is_ending(&self) -> bool {
        self.transitions.is_empty()
    }

    /// How a session ends in this state, with the default filled in; `None` when it has transitions.
    pub fn effective_ending(&self) -> Option<Ending> {
        if !self.is_ending() {
            return None;
        }
        Some(self.ending.clone().unwrap_or(Ending::Complete {}))
    }

    /// Every deliverable this state declares: its tasks' and its goal's, in document order.
    pub fn deliverables(&self) -> impl Iterator<Item = &Deliverable> {
        self.tasks
            .iter()
            .flat_map(|t| t.deliverables.iter())
            .chain(self.goal.iter().flat_map(|g| g.deliverables.iter()))
    }

    /// Where transition `index` comes in the order the runtime checks this state's transitions
    /// (0 first; runtime.md step 6): lower priority first, then earlier in the list.
    pub fn check_order(&self, index: usize) -> usize {
        let Some(p) = self.transitions.get(index).map(|t| t.priority.0) else {
            return index;
        };
        self.transitions
            .iter()
            .enumerate()
            .filter(|(i, t)| t.priority.0 < p || (t.priority.0 == p && *i < index))
            .count()
    }

    /// This state's transition indexes in the order the runtime checks them.
    pub fn checked_in_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.transitions.len()).collect();
        order.sort_by_key(|&i| self.check_order(i));
        order
    }

    /// The transition checked just before (`earlier`) or just after transition `index`; `None`
    /// when `index` is checked first (last) or is not there.
    pub fn check_neighbour(&self, index: usize, earlier: bool) -> Option<usize> {
        let order = self.checked_in_order();
        let at = order.iter().position(|&i| i == index)?;
        let next = if earlier { at.checked_sub(1)? } else { at + 1 };
        order.get(next).copied()
    }
}

/// Execution mode of a state.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateType {
    /// One task at a time, in order; no skipping ahead.
    Strict,
    /// Tasks in any order.
    #[default]
    Loose,
    /// No task list: an objective and what is still missing towards it.
    Goal,
}

impl StateType {
    /// The name an author sees on the card's badge.
    pub fn label(self) -> &'static str {
        match self {
            StateType::Strict => "Strict",
            StateType::Loose => "Loose",
            StateType::Goal => "Goal",
        }
    }
}

/// How a conversation ends in an ending state. Empty-bodied variants are structs so that unknown
/// fields next to `kind` are rejected too.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Ending {
    /// What the conversation was for was done.
    Complete {},
    /// The caller hung up.
    HangUp {},
    /// Passed on to someone else (`to`: a person, queue or phone number) with a reason.
    HandOff {
        /// A person, queue or phone number.
        to: String,
        /// Why it is handed off.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        reason: String,
    },
    /// A return point: back to the parked task (docs/interruptions.md).
    Resume {},
}

/// A unit of work inside a state.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Unique within its state.
    pub id: String,
    /// What the task is.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// What the agent is told to do for it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub instruction: String,
    /// Whether the state waits for it.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub required: bool,
    /// The values it collects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deliverables: Vec<Deliverable>,
    /// Each entry of its state forgets its deliverables first, so they are asked afresh.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ask_again: bool,
}

/// A value the conversation collects. Keys are session-wide: the same key in two states is one value.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(transform = crate::schema_rules::deliverable))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deliverable {
    /// `^[A-Za-z_][A-Za-z0-9_]*$`.
    #[cfg_attr(feature = "schema", schemars(pattern(r"^[A-Za-z_][A-Za-z0-9_]*$")))]
    pub key: String,
    /// Always written: a reader should not have to know that the default is `string`.
    #[serde(rename = "type", default)]
    pub kind: DeliverableType,
    /// Allowed values of an `enum` key. Kept as an `Option` so that an empty list is told apart from
    /// none at all (both are errors on an enum; either is an error on another type).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_values: Option<Vec<String>>,
    /// Whether the task needs a value for it to be done.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub required: bool,
    /// How to ask for it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// The type of a deliverable's value.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeliverableType {
    /// Text.
    #[default]
    String,
    /// A number.
    Number,
    /// True or false.
    Boolean,
    /// One of the key's `enum_values`.
    Enum,
}

impl DeliverableType {
    /// The type as the format writes it: `string`, `number`, `boolean`, `enum`.
    pub fn as_str(self) -> &'static str {
        match self {
            DeliverableType::String => "string",
            DeliverableType::Number => "number",
            DeliverableType::Boolean => "boolean",
            DeliverableType::Enum => "enum",
        }
    }
}

/// The objective of a goal state.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// Required in meaning; a missing or empty one is the validator's `goal-missing`, not a parse
    /// error, so it defaults to empty here.
    #[serde(default)]
    pub objective: String,
    /// What achieving the goal looks like.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub success_description: String,
    /// The values the goal collects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deliverables: Vec<Deliverable>,
}

/// A tool the agent may call.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tool {
    /// The name the agent calls it by.
    pub name: String,
    /// What it does, as the agent is told.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Codes the tool can return. None declared: any code is accepted when called, but no
    /// `tool_result` condition can name one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub response_codes: Vec<String>,
    /// Session state ids: the tool exists for the agent only while one of them is active.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub available_when: Vec<String>,
}

/// Plan-wide runtime settings.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Consecutive turns without progress after which the current task or goal is released as
    /// skipped; `0` turns the safety net off.
    #[serde(default = "stuck_turns_default")]
    pub stuck_turns: u32,
    /// Insights kept per session.
    #[serde(default = "max_insights_default")]
    pub max_insights: u32,
}

fn stuck_turns_default() -> u32 {
    6
}

fn max_insights_default() -> u32 {
    25
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            stuck_turns: stuck_turns_default(),
            max_insights: max_insights_default(),
        }
    }
}

impl Settings {
    fn is_default(&self) -> bool {
        *self == Settings::default()
    }
}

/// A state's position on the canvas: the top-left corner of its card, in canvas units.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// Left edge, in canvas units.
    pub x: f64,
    /// Top edge, in canvas units.
    pub y: f64,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_false(b: &bool) -> bool {
    !*b
}
