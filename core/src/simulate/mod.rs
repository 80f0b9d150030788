//! Simulated callers (simulate.md): a language model plays a caller described by a persona, many
//! times, against the plan; each conversation is checked exactly and judged with its doubt shown,
//! and every model request and answer is kept so that a run can be replayed byte for byte.
//!
//! Everything here is pure: the model is reached through an [`Exchange`] the caller passes in (a
//! live server that records, or a recording that answers), so a conversation is a function of the
//! plan, the persona, the settings and the exchange's answers.
//!
//! - [`persona`]: the persona file, read and checked against the plan;
//! - [`caller`]: what the caller-model is told and how its answer is read;
//! - [`judge`]: a judge question's request, its votes and the verdict with its agreement;
//! - [`case`]: a simulated conversation kept as a test case;
//! - [`checks`]: a persona's `expect` against a conversation as it ran;
//! - [`conversation`]: one simulated conversation, from the plan's opening to its status;
//! - [`recording`]: a run's requests and answers, and a replay's lookup by place;
//! - [`heat`]: how many conversations entered, took, ended or stalled where;
//! - [`compare`]: two runs compared, per persona, question, ending and turns;
//! - [`run_id`]: a run's id, made from when it began, and said in words.

pub mod caller;
pub mod case;
pub mod checks;
pub mod compare;
pub mod conversation;
pub mod heat;
pub mod judge;
pub mod persona;
pub mod recording;
pub mod run_id;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use conversation::{simulate, Conversation, ConversationSpec, Outcome, Status};
pub use persona::{read_persona, Behaviour, Persona};

/// The end marker a caller-model answers with to hang up.
pub const END_MARKER: &str = "[END]";

/// Which part a model request plays in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelRole {
    /// The caller-model's next message.
    Caller,
    /// The agent's first request of a turn.
    Agent,
    /// The agent's second request, after it called functions and wrote nothing.
    AgentFollowup,
    /// The goal check before the agent closes or gives up a goal.
    GoalCheck,
    /// One vote of the judge.
    Judge,
}

impl ModelRole {
    /// The word in recordings (`agent_followup`).
    pub fn as_str(self) -> &'static str {
        match self {
            ModelRole::Caller => "caller",
            ModelRole::Agent => "agent",
            ModelRole::AgentFollowup => "agent_followup",
            ModelRole::GoalCheck => "goal_check",
            ModelRole::Judge => "judge",
        }
    }
}

/// Where a request stands in a run: what a replay looks it up by.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Place {
    /// `<persona>/<k>`.
    pub conversation: String,
    /// The conversation's turn (the judge's votes come after its last turn).
    pub turn: u32,
    /// Which part it plays.
    pub role: ModelRole,
    /// The judge question's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The vote's number, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vote: Option<u32>,
    /// The request's number among requests of the same conversation, turn and role (an agent may
    /// check two goals in a turn), from 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub nth: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A model's answer to one request, as the exchange got it.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchanged {
    /// The answer's body (a Chat Completions JSON object).
    pub body: Value,
}

/// Where a replay left its recording, and what differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Divergence {
    /// The turn whose request differs.
    pub turn: u32,
    /// Which request of the turn (`caller`, `agent`…).
    pub role: ModelRole,
    /// What differs, in words ("the system prompt", "not in the recording").
    pub what: String,
}

/// Why a request got no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExchangeError {
    /// The server could not answer (after agents.md's handling), in words.
    #[error("{0}")]
    Failed(String),
    /// A replay's request differs from the recording's, or is not in it: nothing was sent.
    #[error("the conversation left its recording at turn {}, {}: {}", .0.turn, .0.role.as_str(), .0.what)]
    Diverged(Divergence),
    /// The run was stopped.
    #[error("stopped")]
    Stopped,
    /// The judge's server refused the way the request asks for the verdict's shape
    /// (`response_format`): the request is made again in the next format.
    #[error("the server refused the answer format: {0}")]
    FormatRefused(String),
}

/// Whoever answers a run's model requests: a live server (recording each), or a recording.
pub trait Exchange {
    /// The answer to `body`, sent as `place`.
    fn complete(&self, place: &Place, body: &Value) -> Result<Exchanged, ExchangeError>;
    /// How the last request of `conversation` failed to be answered, when it did: the agent's
    /// requests go through the agent, which says only that it failed.
    fn failure(&self, conversation: &str) -> Option<ExchangeError>;
    /// The format judge requests are made in now (a run steps down once a server refuses one).
    fn judge_format(&self) -> judge::JudgeFormat {
        judge::JudgeFormat::JsonSchema
    }
    /// The judge's server refused `refused`: from now on, `next`.
    fn judge_format_refused(&self, _refused: judge::JudgeFormat, _next: judge::JudgeFormat) {}
}

/// How a role's requests are made (the endpoint itself is the exchange's business).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RequestSettings {
    /// The model's name, as the server knows it.
    pub model: String,
    /// Sampling temperature.
    pub temperature: f64,
}

/// The text and tokens of a Chat Completions answer, read tolerantly.
pub fn answer_text(body: &Value) -> Option<String> {
    let message = body.get("choices")?.get(0)?.get("message")?;
    match message.get("content") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Array(parts)) => Some(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(""),
        ),
        Some(Value::Null) | None => Some(String::new()),
        Some(_) => None,
    }
}
