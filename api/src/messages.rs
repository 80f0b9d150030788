//! The messages between the desktop shell and its page: each command's name, its arguments and
//! its answer. Compiled into both (the UI takes this crate without its `store` feature), so they
//! cannot drift. Every command answers `Result<_, ApiError>`; the UI decides by the error's
//! `code`, never by its text.
//!
//! Plans cross as raw JSON bytes where they can be large (a plan opened, a version viewed, a
//! comparison, the draft saved), instead of being parsed into JavaScript objects and printed back.

use plan_core::diff::{ListedChange, Overlay};
pub use plan_core::revision::VersionInfo;
use plan_core::{Diagnostic, Plan, Revision};
use serde::{Deserialize, Serialize};

pub use crate::agent::{
    AgentChoice, AgentKind, AgentSettings, ConnectionReport, GoalCheck, ToolCallRecord,
};
use crate::error::ApiError;

/// The editor's first screen in one round trip: [`StartArgs`] → [`Started`] (raw bytes).
pub const START: &str = "start";
/// The plan list: no arguments → `Vec<PlanSummary>`.
pub const LIST_PLANS: &str = "list_plans";
/// One plan's draft: [`PlanArgs`] → [`LoadedPlan`] (raw bytes).
pub const LOAD_PLAN: &str = "load_plan";
/// The editor's autosave. The request's body is the plan's JSON as raw bytes and its
/// [`PLAN_ID_HEADER`] header names the plan → [`DraftStatus`]. Its [`SAVE_TOKEN_HEADER`] names
/// the save; with a [`SAVE_BASE_HEADER`] the body is instead a
/// `plan_core::draft_changes::DraftChanges` against the draft that save wrote, refused with
/// `UnknownBase` when the shell no longer holds that draft as the file.
pub const SAVE_DRAFT: &str = "save_draft";
/// A new plan: [`NewPlan`] → [`Created`].
pub const NEW_PLAN: &str = "new_plan";
/// A copy of a plan's draft under a new id: [`PlanArgs`] → [`Created`].
pub const DUPLICATE_PLAN: &str = "duplicate_plan";
/// A plan's title changed: [`RenamePlan`] → nothing.
pub const RENAME_PLAN: &str = "rename_plan";
/// A plan moved to the trash: [`PlanArgs`] → [`TrashEntry`].
pub const DELETE_PLAN: &str = "delete_plan";
/// The plans in the trash: no arguments → `Vec<TrashEntry>`.
pub const LIST_TRASH: &str = "list_trash";
/// A plan back from the trash: [`RestorePlan`] → [`Created`].
pub const RESTORE_PLAN: &str = "restore_plan";
/// The sample plans a new plan can start from: no arguments → `Vec<Sample>`.
pub const LIST_SAMPLES: &str = "list_samples";
/// What publishing the draft would do: [`PlanArgs`] → [`PublishPreview`].
pub const PUBLISH_PREVIEW: &str = "publish_preview";
/// The draft published as the next version: [`Publish`] → [`Published`].
pub const PUBLISH: &str = "publish";
/// A plan's versions: [`PlanArgs`] → `Vec<VersionInfo>`.
pub const LIST_VERSIONS: &str = "list_versions";
/// One version, to view: [`VersionArgs`] → [`LoadedVersion`] (raw bytes).
pub const LOAD_VERSION: &str = "load_version";
/// A version made live: [`VersionArgs`] → [`LiveVersion`].
pub const SET_LIVE: &str = "set_live";
/// A version made the draft: [`VersionArgs`] → [`Reopened`].
pub const REOPEN_VERSION: &str = "reopen_version";
/// Two documents of a plan compared: [`CompareArgs`] → [`Comparison`] (raw bytes).
pub const COMPARE: &str = "compare";
/// A file the author picks in a native dialog, imported: [`ImportArgs`] → `Option<Imported>`
/// (none: the author cancelled).
pub const IMPORT_FILE: &str = "import_file";
/// A document of a plan written to a file the author picks in a native dialog: [`ExportArgs`] →
/// `Option<Exported>` (none: the author cancelled).
pub const EXPORT_FILE: &str = "export_file";
/// A new test conversation: [`StartChat`] → [`ChatView`].
pub const CHAT_START: &str = "chat_start";
/// One turn of a test conversation: [`ChatSay`] → [`ChatView`].
pub const CHAT_SAY: &str = "chat_say";
/// A session state set by the author during a test conversation: [`ChatSetState`] → [`ChatView`].
pub const CHAT_SET_STATE: &str = "chat_set_state";
/// The last turn of a test conversation taken back: [`ChatRef`] → [`ChatView`].
pub const CHAT_STEP_BACK: &str = "chat_step_back";
/// The newest test conversation of a plan: [`PlanArgs`] → `Option<ChatView>`.
pub const CHAT_LATEST: &str = "chat_latest";
/// The test case a conversation makes, to trim before saving: [`ChatRef`] → `Script`.
pub const CHAT_CASE: &str = "chat_case";
/// A test case saved in the plan's `tests/`: [`SaveCase`] → [`SavedCase`].
pub const SAVE_CASE: &str = "save_case";
/// The plan's saved test cases run: [`RunSuite`] → [`SuiteRun`], with [`SUITE_PROGRESS`]
/// events while it runs.
pub const RUN_SUITE: &str = "run_suite";
/// The language-model agent's saved settings: no arguments → `Option<AgentSettings>` (none:
/// never set up).
pub const AGENT_SETTINGS: &str = "agent_settings";
/// The agent's settings checked and kept in the user's config folder: [`AgentSettings`] →
/// `AgentSettings` (as kept).
pub const SAVE_AGENT_SETTINGS: &str = "save_agent_settings";
/// "Test connection" with the settings in the form (not yet kept): [`AgentSettings`] →
/// [`ConnectionReport`].
pub const TEST_CONNECTION: &str = "test_connection";
/// Whether the first start's welcome is due: no arguments → `bool` (not yet dismissed).
pub const WELCOME: &str = "welcome";
/// The welcome dismissed: it never shows again for this user. No arguments → nothing.
pub const DISMISS_WELCOME: &str = "dismiss_welcome";
/// The open plan's draft explored in the background: [`PlanArgs`] → [`ExploreView`], with
/// [`EXPLORE_PROGRESS`] events while it runs.
pub const EXPLORE: &str = "explore";
/// The running search stopped (it answers what it reached): no arguments → nothing.
pub const EXPLORE_STOP: &str = "explore_stop";
/// The rules publishing the draft would newly break: [`PlanArgs`] → [`PublishRules`].
pub const PUBLISH_RULES: &str = "publish_rules";
/// What publishing the draft changes for callers: [`PlanArgs`] → [`PublishOutcomes`].
pub const PUBLISH_OUTCOMES: &str = "publish_outcomes";
/// A plan's personas and runs, for the Simulate tab: [`PlanArgs`] → [`SimulationOverview`].
pub const SIMULATION_OVERVIEW: &str = "simulation_overview";
/// A simulation run (or replayed) in the background: [`SimulateArgs`] → [`RunReport`], with
/// [`SIMULATE_PROGRESS`] events while it runs.
pub const SIMULATE: &str = "simulate";
/// The running simulation stopped (it keeps what finished): no arguments → nothing.
pub const SIMULATE_STOP: &str = "simulate_stop";
/// A persona written from the form, checked against the draft first: [`SavePersonaArgs`] →
/// [`SimulationOverview`].
pub const SAVE_PERSONA: &str = "save_persona";
/// A past run read back: [`RunArgs`] → [`RunReport`].
pub const RUN_REPORT: &str = "run_report";
/// One conversation of a run, read-only with its test case: [`ConversationArgs`] →
/// [`ConversationView`].
pub const RUN_CONVERSATION: &str = "run_conversation";
/// Two runs of a plan compared: [`CompareRunsArgs`] → [`RunComparison`].
pub const COMPARE_RUNS: &str = "compare_runs";
/// The Share panel's state of the workspace: no arguments → [`share::ShareStatus`].
pub const SHARE_STATUS: &str = "share_status";
/// A checkpoint saved: [`share::CheckpointArgs`] → [`share::Checkpoint`].
pub const SHARE_CHECKPOINT: &str = "share_checkpoint";
/// Others' changes got: no arguments → [`share::Received`].
pub const SHARE_GET: &str = "share_get";
/// Ours sent: no arguments → [`share::Sent`].
pub const SHARE_SEND: &str = "share_send";
/// The open plan's conflicts left by a get: [`PlanArgs`] → `Vec<Conflict>`.
pub const PLAN_CONFLICTS: &str = "plan_conflicts";
/// One conflict chosen: [`share::ResolveArgs`] → the conflicts left.
pub const RESOLVE_CONFLICT: &str = "resolve_conflict";
/// Event the shell emits after each simulated conversation; payload: [`SimulateProgress`].
pub const SIMULATE_PROGRESS: &str = "simulate-progress";
/// Event the shell emits while a search runs; payload: [`ExploreProgress`].
pub const EXPLORE_PROGRESS: &str = "explore-progress";
/// Event the shell emits while a suite runs; payload: [`SuiteProgress`].
pub const SUITE_PROGRESS: &str = "suite-progress";
/// Event the shell emits when plan files changed on disk; payload: [`PlansChanged`].
pub const PLANS_CHANGED: &str = "plans-changed";

/// Every command the page may call, for the shell's build script and capability file.
pub const COMMANDS: [&str; 50] = [
    START,
    LIST_PLANS,
    LOAD_PLAN,
    SAVE_DRAFT,
    NEW_PLAN,
    DUPLICATE_PLAN,
    RENAME_PLAN,
    DELETE_PLAN,
    LIST_TRASH,
    RESTORE_PLAN,
    LIST_SAMPLES,
    PUBLISH_PREVIEW,
    PUBLISH,
    LIST_VERSIONS,
    LOAD_VERSION,
    SET_LIVE,
    REOPEN_VERSION,
    COMPARE,
    IMPORT_FILE,
    EXPORT_FILE,
    CHAT_START,
    CHAT_SAY,
    CHAT_SET_STATE,
    CHAT_STEP_BACK,
    CHAT_LATEST,
    CHAT_CASE,
    SAVE_CASE,
    RUN_SUITE,
    AGENT_SETTINGS,
    SAVE_AGENT_SETTINGS,
    TEST_CONNECTION,
    WELCOME,
    DISMISS_WELCOME,
    EXPLORE,
    EXPLORE_STOP,
    PUBLISH_RULES,
    PUBLISH_OUTCOMES,
    SIMULATION_OVERVIEW,
    SIMULATE,
    SIMULATE_STOP,
    SAVE_PERSONA,
    RUN_REPORT,
    RUN_CONVERSATION,
    COMPARE_RUNS,
    SHARE_STATUS,
    SHARE_CHECKPOINT,
    SHARE_GET,
    SHARE_SEND,
    PLAN_CONFLICTS,
    RESOLVE_CONFLICT,
];

/// The header of a [`SAVE_DRAFT`] request that names the plan (ids are slugs, so always ASCII).
pub const PLAN_ID_HEADER: &str = "plan-id";
/// The header of a [`SAVE_DRAFT`] request that names this save (a number the page chose).
pub const SAVE_TOKEN_HEADER: &str = "plan-save";
/// The header of a [`SAVE_DRAFT`] request whose body is the changes since the save it names.
pub const SAVE_BASE_HEADER: &str = "plan-base";

/// How the draft relates to the newest version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DraftStatus {
    /// Never published.
    Unpublished,
    /// The same as the newest version.
    Published,
    /// Changed since the newest version.
    Changed,
    /// The draft cannot be read as a plan.
    Broken,
}

/// One entry of the plan list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanSummary {
    /// The plan's id (its folder name in the workspace).
    pub id: String,
    /// Display title; the id when the plan cannot be read.
    pub title: String,
    /// How many states it has.
    pub states: usize,
    /// How many transitions its states have.
    pub transitions: usize,
    /// Why the plan cannot be opened, when it cannot.
    pub error: Option<ApiError>,
    /// Whether its draft differs from its newest version.
    pub draft: DraftStatus,
    /// Its newest published version, if any.
    pub newest_version: Option<u32>,
    /// Its live version, if one is set.
    pub live_version: Option<u32>,
    /// When the plan last changed on disk (RFC 3339): the list is sorted by it, newest first.
    pub changed_at: Option<String>,
    /// What is wrong with its files besides its draft, each naming the file (a `live.json` that
    /// names no intact version, entries of `versions/` that are not versions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

/// The arguments of a command about one plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanArgs {
    /// The plan's id.
    pub id: String,
}

/// The arguments of a command about one version of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionArgs {
    /// The plan's id.
    pub id: String,
    /// The version's number.
    pub version: u32,
}

/// Arguments of [`START`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct StartArgs {
    /// The plan the window showed last (kept by the page), opened again when it still opens.
    pub remembered: Option<String>,
}

/// Answer of [`START`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Started {
    /// The workspace's plans, most recently changed first.
    pub plans: Vec<PlanSummary>,
    /// The remembered plan, or else the first in the list that opens; none when none does.
    pub opened: Option<OpenedPlan>,
    /// Why a file the app was started with (`plan-builder FILE`) is not the plan shown: told in
    /// the window, where someone who opened the file from a file manager looks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unopened: Option<ApiError>,
}

/// A plan opened at start, with its id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpenedPlan {
    /// The plan's id.
    pub id: String,
    /// Not flattened: serde would buffer the whole plan to read it.
    pub loaded: LoadedPlan,
}

/// Answer of [`LOAD_PLAN`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadedPlan {
    /// The plan as its draft holds it.
    pub plan: Plan,
    /// Where the plan was read from, for the author's orientation.
    pub source: String,
}

/// What a new plan starts from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum PlanSource {
    /// One start state, nothing else.
    Blank,
    /// A copy of a sample plan.
    /// A sample plan shipped with the app, by id.
    Sample {
        /// The sample's id.
        id: String,
    },
    /// A file in either import format.
    /// A plan file chosen on disk.
    File {
        /// The file's path.
        path: String,
    },
}

/// Arguments of [`NEW_PLAN`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewPlan {
    /// The id; none: made from the title (`Refund desk` → `refund-desk`, `-2`… when taken).
    pub id: Option<String>,
    /// The title; none: the source's own (a blank plan's is its id).
    pub title: Option<String>,
    /// What the new plan starts from.
    pub from: PlanSource,
}

/// A plan made by [`NEW_PLAN`], [`DUPLICATE_PLAN`] or [`RESTORE_PLAN`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    /// The new plan's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// How many states it has.
    pub states: usize,
}

/// Arguments of [`RENAME_PLAN`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenamePlan {
    /// The plan's id.
    pub id: String,
    /// Its new title.
    pub title: String,
}

/// A plan in the workspace's trash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrashEntry {
    /// Names it for [`RESTORE_PLAN`].
    pub entry: String,
    /// The id it had.
    pub id: String,
    /// The plan's title when it was deleted.
    pub title: String,
    /// When it was deleted (RFC 3339).
    pub deleted_at: String,
}

/// Arguments of [`RESTORE_PLAN`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestorePlan {
    /// The trash entry's folder name.
    pub entry: String,
}

/// A sample plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    /// The sample's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// How many states it has.
    pub states: usize,
}

/// Answer of [`PUBLISH_PREVIEW`]: what publishing the draft now would do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishPreview {
    /// The version it would be compared with; none: this would be the first version.
    pub newest: Option<u32>,
    /// The number it would get.
    pub next: u32,
    /// What the draft changes against the newest version (everything, for a first version).
    pub changes: Vec<ListedChange>,
    /// The draft is what the newest version holds: there is nothing to publish.
    pub unchanged: bool,
    /// The errors that block publishing, each with its place.
    pub errors: Vec<Diagnostic>,
    /// What refuses a publish while a merge's conflicts are left to choose (code `conflicts`), in
    /// the words the publish itself would say; none when there are none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<ApiError>,
}

/// Arguments of [`PUBLISH`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Publish {
    /// The plan's id.
    pub id: String,
    /// What this version changes, in the author's words (may be empty).
    pub note: String,
}

/// Answer of [`PUBLISH`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Published {
    /// The number the new version was given.
    pub version: u32,
}

/// Answer of [`LOAD_VERSION`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadedVersion {
    /// The version's number.
    pub version: u32,
    /// When it was published (RFC 3339).
    pub published_at: String,
    /// The note it was published with.
    pub note: String,
    /// The plan as published.
    pub plan: Plan,
}

/// The live version of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveVersion {
    /// The live version's number.
    pub version: u32,
    /// When it was set live (RFC 3339).
    pub set_at: String,
}

/// Answer of [`REOPEN_VERSION`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reopened {
    /// The version the draft was made from.
    pub version: u32,
    /// Where the replaced draft was kept (`history/<file>`, relative to the plan's folder).
    pub kept: Option<String>,
}

/// Arguments of [`COMPARE`]: from `a` to `b`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareArgs {
    /// The plan's id.
    pub id: String,
    /// The earlier revision.
    pub a: Revision,
    /// The later revision.
    pub b: Revision,
}

/// Answer of [`COMPARE`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The earlier revision.
    pub a: Revision,
    /// The later revision.
    pub b: Revision,
    /// `b` with what only `a` had put back, and the marks of what changed.
    pub overlay: Overlay,
    /// The changes in words, each with its place.
    pub changes: Vec<ListedChange>,
}

/// Arguments of [`IMPORT_FILE`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportArgs {
    /// The plan whose draft the file replaces; none: the file becomes a new plan.
    pub into: Option<String>,
}

/// A file imported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Imported {
    /// The id the plan was given (the file's own, or a free one near it).
    pub id: String,
    /// The file it came from.
    pub file: String,
    /// Its title.
    pub title: String,
    /// How many states it has.
    pub states: usize,
    /// How many validation errors the imported plan has (it is imported all the same: a draft
    /// may be work in progress).
    pub errors: usize,
    /// Where the replaced draft was kept (`history/<file>`); none for a new plan.
    pub kept: Option<String>,
}

/// Arguments of [`EXPORT_FILE`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportArgs {
    /// The plan's id.
    pub id: String,
    /// Which of its documents to export.
    pub revision: Revision,
}

/// A plan document written to a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exported {
    /// Where the file was written.
    pub path: String,
}

/// Payload of [`PLANS_CHANGED`]: the ids whose files changed (empty: re-read everything).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlansChanged {
    /// The ids of the plans whose files changed on disk.
    pub ids: Vec<String>,
}

/// A count as the window and the command line write it: `78028` → "78,028".
pub fn thousands(n: u64) -> String {
    plan_core::explore::thousands(usize::try_from(n).unwrap_or(usize::MAX))
}

mod chat;
mod explore;
pub mod share;
mod simulate;
pub use chat::*;
pub use explore::*;
pub use simulate::*;
