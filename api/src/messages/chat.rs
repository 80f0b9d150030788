//! The test chat's messages: a conversation started, a turn, a session state set by hand, a
//! test case saved and the suite run (the commands are listed in [`super`]).

use std::path::PathBuf;

use plan_core::coverage::Coverage;
use plan_core::runtime::script::{ChatRecord, Failure, Script};
use plan_core::runtime::{Session, Start, ToolResults, Turn};
use plan_core::Revision;
use serde::{Deserialize, Serialize};

use super::AgentChoice;

/// How a new conversation is asked for.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StartChat {
    /// The plan's id.
    pub id: String,
    /// The document to run; none: the live version, else the draft.
    pub revision: Option<Revision>,
    /// Where it begins, and what is known from the start ("test from here").
    #[serde(default)]
    pub start: Start,
}

/// Arguments of [`CHAT_SAY`](super::CHAT_SAY).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatSay {
    /// The plan's id.
    pub id: String,
    /// The session's name in `<plan>/sessions/`.
    pub name: String,
    /// What the user says.
    pub message: String,
    /// What the plan's tools return when called without a code (the tool switches).
    #[serde(default)]
    pub tool_results: ToolResults,
    /// Who answers: the simulator (the default) or the language model of the saved settings.
    #[serde(default)]
    pub agent: AgentChoice,
}

/// Arguments of [`CHAT_SET_STATE`](super::CHAT_SET_STATE): the session state `state` of conversation `name` set as
/// `preset` says (`by: author`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatSetState {
    /// The plan's id.
    pub id: String,
    /// The session's name in `<plan>/sessions/`.
    pub name: String,
    /// The session state's id.
    pub state: String,
    /// What the author sets it to.
    pub preset: plan_core::runtime::Preset,
}

/// One conversation of a plan: arguments of [`CHAT_STEP_BACK`](super::CHAT_STEP_BACK) and [`CHAT_CASE`](super::CHAT_CASE).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatRef {
    /// The plan's id.
    pub id: String,
    /// The session's name in `<plan>/sessions/`.
    pub name: String,
}

/// Arguments of [`SAVE_CASE`](super::SAVE_CASE).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SaveCase {
    /// The plan's id.
    pub id: String,
    /// The case's name: its file in `tests/` (letters, digits, `-`, `_`, `.`).
    pub name: String,
    /// The conversation as a script, with the expectations the author kept.
    pub script: Script,
}

/// Arguments of [`RUN_SUITE`](super::RUN_SUITE).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSuite {
    /// The plan's id.
    pub id: String,
    /// The document to test; none: the draft.
    pub revision: Option<Revision>,
}

/// Payload of [`SUITE_PROGRESS`](super::SUITE_PROGRESS).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteProgress {
    /// Cases run so far.
    pub done: usize,
    /// Cases in the suite.
    pub total: usize,
}

/// A test conversation as the app shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatView {
    /// The plan's id.
    pub id: String,
    /// The session's name in `<plan>/sessions/`.
    pub name: String,
    /// What it runs.
    pub revision: Revision,
    /// The session: where it is, what is known, the transcript.
    pub session: Session,
    /// How it began ("test from here"), for a restart and a saved case.
    pub start: Start,
    /// Each turn's trace, the opening first.
    pub turns: Vec<Turn>,
    /// Whether a turn can be taken back.
    pub can_step_back: bool,
    /// Why it cannot go on: the plan changed since it began (a restart is offered).
    pub stale: Option<String>,
}

/// Where a saved test case went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedCase {
    /// The case's name in `<plan>/tests/`.
    pub name: String,
    /// `tests/<name>.json`, relative to the plan's folder.
    pub file: String,
}

/// One saved test case run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseRun {
    /// The case's name (its file's stem).
    pub name: String,
    /// The case's file.
    pub file: PathBuf,
    /// Whether every expectation held.
    pub passed: bool,
    /// How many turns it has.
    pub turns: usize,
    /// The expectations that did not hold.
    pub failures: Vec<Failure>,
    /// The conversation it had (the app opens a failing one at its first failure).
    pub record: Option<ChatRecord>,
}

/// A plan's saved test cases run, with the transitions they took.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuiteRun {
    /// Every case, in file order.
    pub cases: Vec<CaseRun>,
    /// The states the cases entered and the transitions they took.
    pub coverage: Coverage,
    /// "9 of 11 transitions tested".
    pub coverage_summary: String,
}
