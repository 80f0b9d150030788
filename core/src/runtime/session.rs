//! What one conversation knows at any moment: the [`Session`], serializable to JSON and saved after
//! every turn, so a conversation survives a crash or a restart and resumes exactly.
//!
//! Everything is ordered (vectors, B-tree maps), so the same conversation always serializes to the
//! same bytes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::plan::{Ending, Plan, State, StateType};

/// The version of the session format written by this program.
pub const SESSION_SCHEMA: u32 = 1;

/// One conversation with a plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Session {
    /// Version of this format.
    pub schema: u32,
    /// The plan this conversation runs, pinned by its content hash.
    pub plan: PlanRef,
    /// User turns so far (the opening is turn 0).
    pub turn: u32,
    /// The state the conversation is in.
    pub state_id: String,
    /// The current visit of `state_id`.
    pub visit: Visit,
    /// Collected values, session-wide (kept across states), by key.
    pub deliverables: BTreeMap<String, Recorded>,
    /// Every declared session state's value and flag, by id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub session_states: BTreeMap<String, super::SessionValue>,
    /// Notes the agent kept, at most `settings.max_insights`.
    pub insights: Vec<Insight>,
    /// Everything said, in order.
    pub transcript: Vec<Line>,
    /// The states visited, in order, the start state first.
    pub path: Vec<String>,
    /// How the conversation ended; `None` while it goes on.
    pub ended: Option<Ended>,
    /// The task set aside for a detour (docs/interruptions.md); `None` when nothing is parked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parked: Option<Parked>,
    /// Interruptions fired by their condition whose condition has not been false since.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spent_conditions: Vec<String>,
    /// The return point this turn came back through, if it did: its instructions come first in
    /// the turn's prompt and reply. Cleared at the next turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returned_from: Option<String>,
}

/// A parked task: where it was, why, since when, and its visit exactly as it was (`None` once
/// forgotten: the slot stays taken until a return point is reached).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parked {
    /// The state the task was in.
    pub state_id: String,
    /// The interruption that parked it.
    pub interruption: String,
    /// The turn it was parked in.
    pub since_turn: u32,
    /// How many turns it is kept before it is forgotten (0: never).
    pub ttl_turns: u32,
    /// Its visit as it was; none once forgotten.
    pub visit: Option<Visit>,
}

impl Parked {
    /// The last turn in which it can still be resumed, when it is ever forgotten.
    pub fn kept_until(&self) -> Option<u32> {
        (self.ttl_turns > 0).then(|| self.since_turn + self.ttl_turns)
    }
}

/// Which plan a session runs: its id, which document of it, and the hash of that content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRef {
    /// The plan's id.
    pub id: String,
    /// Which document of it.
    pub version: PlanVersion,
    /// `sha256:<hex>` of the plan's canonical JSON ([`crate::hash::content_hash`]).
    pub content_hash: String,
}

/// The document of a plan a session runs: `"draft"`, a version number, or `"file"` (a plan file
/// run as is, outside any workspace).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanVersion {
    /// The plan's draft.
    Draft,
    /// A plan file run as is, outside any workspace.
    File,
    /// A published version.
    Number(u32),
}

impl std::fmt::Display for PlanVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanVersion::Draft => write!(f, "draft"),
            PlanVersion::File => write!(f, "file"),
            PlanVersion::Number(n) => write!(f, "version {n}"),
        }
    }
}

impl Serialize for PlanVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PlanVersion::Draft => s.serialize_str("draft"),
            PlanVersion::File => s.serialize_str("file"),
            PlanVersion::Number(n) => s.serialize_u32(*n),
        }
    }
}

impl<'de> Deserialize<'de> for PlanVersion {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) if s == "draft" => Ok(PlanVersion::Draft),
            Value::String(s) if s == "file" => Ok(PlanVersion::File),
            Value::Number(n) => n
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(PlanVersion::Number)
                .ok_or_else(|| serde::de::Error::custom("a version number must be a whole number")),
            other => Err(serde::de::Error::custom(format!(
                "expected \"draft\", \"file\" or a version number, found {other}"
            ))),
        }
    }
}

/// The current visit of a state: what has happened since the conversation last entered it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Visit {
    /// The turn the state was entered in; the user's words of this visit are those of later turns.
    pub since: u32,
    /// The state's tasks in plan order with their status (empty in a goal state: its tasks are
    /// ignored).
    pub tasks: Vec<TaskProgress>,
    /// The goal's status; `None` outside goal states.
    pub goal: Option<GoalStatus>,
    /// User turns in this visit, the current one included.
    pub total: u32,
    /// Consecutive turns of this visit without progress.
    pub without_progress: u32,
    /// The latest response code of each tool called in this visit.
    pub tools: BTreeMap<String, String>,
    /// Turns spent away in a detour while this visit was parked (first and last, inclusive):
    /// what the user said then was not said in this visit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub away: Vec<[u32; 2]>,
}

impl Visit {
    /// A fresh visit of `state`, entered in turn `since`.
    pub fn of(state: &State, since: u32) -> Visit {
        let goal_state = state.kind == StateType::Goal;
        Visit {
            since,
            tasks: if goal_state {
                Vec::new()
            } else {
                state
                    .tasks
                    .iter()
                    .map(|t| TaskProgress {
                        id: t.id.clone(),
                        status: TaskStatus::Pending,
                    })
                    .collect()
            },
            goal: goal_state.then_some(GoalStatus::Open),
            total: 0,
            without_progress: 0,
            tools: BTreeMap::new(),
            away: Vec::new(),
        }
    }

    /// The status of task `id` in this visit.
    pub fn task(&self, id: &str) -> Option<TaskStatus> {
        self.tasks.iter().find(|t| t.id == id).map(|t| t.status)
    }

    /// Index of the first task not yet addressed: the current task of a strict state.
    pub fn first_pending(&self) -> Option<usize> {
        self.tasks
            .iter()
            .position(|t| t.status == TaskStatus::Pending)
    }

    /// Whether every task is completed or skipped (true without tasks).
    pub fn all_tasks_addressed(&self) -> bool {
        self.first_pending().is_none()
    }

    /// Whether the goal is done: closed, given up or released.
    pub fn goal_done(&self) -> bool {
        self.goal.is_some_and(|g| g != GoalStatus::Open)
    }
}

/// A task's status in a visit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskProgress {
    /// The task's id.
    pub id: String,
    /// Where it stands.
    pub status: TaskStatus,
}

/// Where a task stands in a visit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Not done yet.
    Pending,
    /// Done.
    Completed,
    /// Skipped: optional, or released by the stuck-state safety net.
    Skipped,
}

/// Where a goal state's goal stands in a visit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoalStatus {
    /// Being pursued.
    Open,
    /// Achieved.
    Closed,
    /// Given up.
    GivenUp,
    /// Released by the stuck-state safety net.
    Skipped,
}

/// A collected value and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recorded {
    /// The value.
    pub value: Value,
    /// The state it was recorded in.
    pub state_id: String,
    /// The turn it was recorded in.
    pub turn: u32,
    /// What the user said that gave it, when the agent quoted it.
    pub quote: Option<String>,
}

/// A note the agent kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Insight {
    /// What the agent noted.
    pub text: String,
    /// The state it was noted in.
    pub state_id: String,
    /// The turn it was noted in.
    pub turn: u32,
}

/// One message of the transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Line {
    /// Who said it.
    pub role: Role,
    /// What was said.
    pub text: String,
    /// The turn it was said in.
    pub turn: u32,
    /// Which agent wrote an agent's line (docs/agents.md, "What is kept"); none on the user's lines
    /// and on lines written before it was kept (the simulator's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<AgentKind>,
}

/// Who plays the agent's part in a test conversation (docs/agents.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// The built-in, offline, deterministic agent (docs/runtime.md).
    #[default]
    Simulator,
    /// An OpenAI-compatible Chat Completions endpoint.
    #[serde(rename = "llm")]
    LanguageModel,
}

impl AgentKind {
    /// How sessions and the JSON output write it.
    pub fn as_str(self) -> &'static str {
        match self {
            AgentKind::Simulator => "simulator",
            AgentKind::LanguageModel => "llm",
        }
    }

    /// How the app and the CLI name it.
    pub fn label(self) -> &'static str {
        match self {
            AgentKind::Simulator => "Simulator",
            AgentKind::LanguageModel => "Language model",
        }
    }
}

/// Who said a line of the transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The user.
    User,
    /// The agent.
    Agent,
}

/// How a conversation ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ended {
    /// `complete`, `hang_up` or `hand_off`.
    pub kind: EndKind,
    /// Where a hand-off goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Why it was handed off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The state it ended in.
    pub state_id: String,
    /// The turn it ended in.
    pub turn: u32,
}

/// How a conversation ends (a state's `ending`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndKind {
    /// What the conversation was for was done.
    Complete,
    /// The caller hung up.
    HangUp,
    /// Handed off to a person.
    HandOff,
}

impl EndKind {
    /// How sessions and the JSON output write it.
    pub fn as_str(self) -> &'static str {
        match self {
            EndKind::Complete => "complete",
            EndKind::HangUp => "hang_up",
            EndKind::HandOff => "hand_off",
        }
    }
}

impl Ended {
    /// The end an ending of state `state_id` makes in turn `turn`.
    pub fn from_ending(ending: &Ending, state_id: &str, turn: u32) -> Ended {
        let (kind, to, reason) = match ending {
            // A return point with nothing parked ends the conversation as complete.
            Ending::Complete {} | Ending::Resume {} => (EndKind::Complete, None, None),
            Ending::HangUp {} => (EndKind::HangUp, None, None),
            Ending::HandOff { to, reason } => (
                EndKind::HandOff,
                Some(to.clone()),
                (!reason.is_empty()).then(|| reason.clone()),
            ),
        };
        Ended {
            kind,
            to,
            reason,
            state_id: state_id.to_string(),
            turn,
        }
    }

    /// "handed off to billing team (refund over limit)", "completed", "hung up".
    pub fn describe(&self) -> String {
        match self.kind {
            EndKind::Complete => "completed".into(),
            EndKind::HangUp => "hung up".into(),
            EndKind::HandOff => {
                let to = self.to.as_deref().unwrap_or("someone");
                match &self.reason {
                    Some(r) => format!("handed off to {to} ({r})"),
                    None => format!("handed off to {to}"),
                }
            }
        }
    }
}

impl Session {
    /// The state of the task parked for a detour, if one is.
    pub fn parked_state_id(&self) -> Option<String> {
        self.parked.as_ref().map(|p| p.state_id.clone())
    }

    /// The current state in `plan` (absent only when the plan changed under the session).
    pub fn state<'p>(&self, plan: &'p Plan) -> Option<&'p State> {
        plan.state(&self.state_id)
    }

    /// What the user said in the current visit, message by message, without command lines
    /// (`/…`, which are not speech): the text a quote must come from.
    pub fn speech_this_visit(&self) -> impl Iterator<Item = String> + '_ {
        let since = self.visit.since;
        let away = &self.visit.away;
        self.transcript
            .iter()
            .filter(move |l| {
                l.role == Role::User
                    && l.turn > since
                    && !away.iter().any(|[a, b]| (*a..=*b).contains(&l.turn))
            })
            .map(|l| speech(&l.text))
    }

    /// The agent's latest reply.
    pub fn last_reply(&self) -> Option<&str> {
        self.transcript
            .iter()
            .rev()
            .find(|l| l.role == Role::Agent)
            .map(|l| l.text.as_str())
    }
}

/// The plain lines of a message (not commands, not blank), trimmed and joined by newlines.
pub fn speech(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('/'))
        .collect();
    lines.join("\n")
}
