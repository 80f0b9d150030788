//! The messages of simulations (simulate.md): what a run is asked to do, and what it found.

use plan_core::simulate::heat::Heat;
use plan_core::simulate::Outcome;
use plan_core::Revision;
use serde::{Deserialize, Serialize};

use crate::agent::{AgentSettings, Usage};

/// Who plays the plan's side of a simulated conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlanSide {
    /// The built-in simulator.
    Simulator,
    /// The language-model agent of docs/agents.md, with these settings.
    Llm {
        /// Where it is reached.
        settings: AgentSettings,
    },
}

/// A run's settings, as `run.json` keeps them (never a key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// Conversations per persona.
    pub conversations: u32,
    /// The caller-model's endpoint.
    pub caller: AgentSettings,
    /// The plan's side.
    pub agent: PlanSide,
    /// The judge's endpoint.
    pub judge: AgentSettings,
    /// Votes per judge question (odd).
    pub votes: u32,
    /// The share of votes that must agree for a verdict not to be unsure.
    pub min_agreement: f64,
    /// The judge's sampling temperature, so that votes are independent samples.
    pub judge_temperature: f64,
    /// Conversations run side by side.
    pub parallel: u32,
}

/// A run asked for: `plan simulate`'s flags, or the app's Simulate tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulateArgs {
    /// The plan's id.
    pub plan: String,
    /// Which document; none: the live version, else the draft.
    #[serde(default)]
    pub revision: Option<Revision>,
    /// The personas to run; empty: all of them.
    #[serde(default)]
    pub personas: Vec<String>,
    /// The seed; none: a new one, written in the run.
    #[serde(default)]
    pub seed: Option<u64>,
    /// How the run goes; none only for a replay, which runs with the settings it recorded.
    #[serde(default)]
    pub settings: Option<RunSettings>,
    /// A run to replay from its recording instead of asking the models.
    #[serde(default)]
    pub replay: Option<String>,
    /// With `replay`: send the requests that differ live, into a new recording.
    #[serde(default)]
    pub record_missing: bool,
}

/// The keys the three roles send, read from the environment by the front end; never written.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RoleKeys {
    /// The caller-model's key.
    pub caller: Option<String>,
    /// The agent's key.
    pub agent: Option<String>,
    /// The judge's key.
    pub judge: Option<String>,
}

/// Which plan a run ran: `{"id", "version" | "draft", "hash"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunPlan {
    /// The plan's id.
    pub id: String,
    /// The version, when it ran one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// Whether it ran the draft.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub draft: bool,
    /// The plan's content hash.
    pub hash: String,
}

/// One conversation as a run reports it: how it came out (core's), and what its models cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConversationSummary {
    /// How it came out.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The models' time, in milliseconds.
    pub ms: u64,
    /// The tokens the servers said were used.
    pub usage: Option<Usage>,
}

/// A persona's conversations, counted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonaTally {
    /// The persona's id.
    pub id: String,
    /// Conversations that passed.
    pub passed: u32,
    /// Conversations that failed, errored or diverged.
    pub failed: u32,
    /// Conversations with an unsure verdict.
    pub unsure: u32,
    /// Conversations whose caller failed.
    pub caller_failed: u32,
}

/// What a run found: `plan simulate --format json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// The run's id (its folder in `runs/`).
    pub run: String,
    /// The plan it ran.
    pub plan: RunPlan,
    /// Its seed.
    pub seed: u64,
    /// Every conversation, persona by persona.
    pub conversations: Vec<ConversationSummary>,
    /// Each persona's conversations, counted.
    pub personas: Vec<PersonaTally>,
    /// The heat map.
    pub heat: Heat,
    /// The run it replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_of: Option<String>,
    /// Whether it was stopped before it finished.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
    /// Its requests, tokens and the models' time, by role.
    #[serde(default)]
    pub cost: RunCost,
}

/// What one role's requests of a run cost: how many, the tokens the server counted, the time
/// the model took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RoleCost {
    /// Requests answered.
    pub requests: u32,
    /// Tokens the requests sent.
    pub prompt_tokens: u64,
    /// Tokens the model wrote.
    pub completion_tokens: u64,
    /// The model's time, in milliseconds.
    pub ms: u64,
}

/// A run's requests by role, counted from its recording (a replay's: as they were recorded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RunCost {
    /// The caller-model's.
    pub caller: RoleCost,
    /// The language-model agent's (its follow-ups and goal checks included).
    pub agent: RoleCost,
    /// The judge's.
    pub judge: RoleCost,
}

/// A persona, named by its content hash in `run.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunPersona {
    /// Its id.
    pub id: String,
    /// The SHA-256 of its file's content.
    pub hash: String,
}

/// `run.json`: what a run was, kept with it and never changed after it finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    /// The run's id.
    pub run: String,
    /// The plan it ran.
    pub plan: RunPlan,
    /// The personas it ran, with their content hashes.
    pub personas: Vec<RunPersona>,
    /// Its settings, without keys.
    pub settings: RunSettings,
    /// Its seed.
    pub seed: u64,
    /// When it started.
    pub started: String,
    /// When it finished.
    pub finished: String,
    /// The run it replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_of: Option<String>,
    /// Whether it was stopped.
    #[serde(default)]
    pub stopped: bool,
    /// How the judge was asked for the verdict's shape, once its server took it: a replay asks
    /// the same way.
    #[serde(default)]
    pub judge_format: plan_core::simulate::judge::JudgeFormat,
    /// Each persona's conversations, counted.
    pub summary: Vec<PersonaTally>,
    /// Its requests by role (none in a run kept before it was counted).
    #[serde(default)]
    pub cost: RunCost,
}

/// A finding of a persona file: the file, and the finding with its code and field path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PersonaProblem {
    /// The file, relative to the plan's folder (`personas/calm.json`).
    pub file: String,
    /// What is wrong, where.
    pub diagnostic: plan_core::Diagnostic,
}

/// A persona as the Simulate tab lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PersonaRow {
    /// Its id (its file's name).
    pub id: String,
    /// Its title, else its id.
    pub name: String,
    /// Who the caller is.
    pub who: String,
    /// Its behaviours' sentences.
    pub behaviour: Vec<String>,
    /// Its judge questions.
    pub questions: Vec<String>,
    /// What is wrong with it beside the draft, one line each (file, field, words, code).
    pub problems: Vec<String>,
    /// The file as read, for the form that edits it; none when it cannot be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persona: Option<plan_core::simulate::persona::Persona>,
}

/// A persona written from the Simulate tab's form: [`SAVE_PERSONA`](crate::messages::SAVE_PERSONA).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavePersonaArgs {
    /// The plan's id.
    pub id: String,
    /// The persona; its id names its file.
    pub persona: plan_core::simulate::persona::Persona,
    /// The id it had when the form opened (none: a new persona). A different id renames the file.
    #[serde(default)]
    pub was: Option<String>,
}

/// A past run as the Simulate tab lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    /// Its id.
    pub run: String,
    /// When it started.
    pub started: String,
    /// The plan it ran.
    pub plan: RunPlan,
    /// Each persona's conversations, counted.
    pub summary: Vec<PersonaTally>,
    /// The run it replayed.
    pub replay_of: Option<String>,
    /// Whether it was stopped.
    pub stopped: bool,
    /// The caller-model's server and model: an estimate before a run uses runs with the same.
    pub caller: (String, String),
    /// Its requests by role.
    pub cost: RunCost,
}

/// The Simulate tab of a plan: [`super::PlanArgs`] → this.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimulationOverview {
    /// The plan's personas.
    pub personas: Vec<PersonaRow>,
    /// Its runs, newest first.
    pub runs: Vec<RunRow>,
    /// The caller's server to offer: the app's saved agent settings, when there are some.
    pub caller: Option<AgentSettings>,
}

/// One run of a plan: [`super::RUN_REPORT`]'s arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunArgs {
    /// The plan's id.
    pub id: String,
    /// The run's id.
    pub run: String,
}

/// Two runs of a plan to compare: [`super::COMPARE_RUNS`]'s arguments, in either order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareRunsArgs {
    /// The plan's id.
    pub id: String,
    /// One run's id.
    pub run: String,
    /// The other's.
    pub other: String,
}

/// A run as a comparison names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparedRun {
    /// Its id.
    pub run: String,
    /// The plan it ran.
    pub plan: RunPlan,
}

/// Two runs compared, the earlier first: [`super::COMPARE_RUNS`]'s answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunComparison {
    /// The earlier run.
    pub before: ComparedRun,
    /// The later run.
    pub after: ComparedRun,
    /// Per persona, question, ending and turns.
    pub comparison: plan_core::simulate::compare::Comparison,
}

/// Payload of [`super::SIMULATE_PROGRESS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimulateProgress {
    /// Conversations finished.
    pub done: u32,
    /// Conversations in all.
    pub of: u32,
    /// User turns so far.
    pub turns: u32,
    /// The models' time so far, in milliseconds (a replay's: as recorded).
    #[serde(default)]
    pub model_ms: u64,
}

/// One conversation of a run, opened read-only: [`super::RUN_CONVERSATION`]'s answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConversationView {
    /// The conversation as its file keeps it.
    pub conversation: plan_core::simulate::conversation::Conversation,
    /// The conversation as a test case: the caller's messages with the state after each.
    pub case: plan_core::runtime::script::Script,
}

/// One conversation of a run: [`super::RUN_CONVERSATION`]'s arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConversationArgs {
    /// The plan's id.
    pub id: String,
    /// The run's id.
    pub run: String,
    /// The persona's id.
    pub persona: String,
    /// The conversation's number.
    pub k: u32,
}
