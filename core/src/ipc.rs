//! The messages between the desktop shell and its UI, compiled into both so they cannot drift.
//!
//! Every command returns `Result<_, IpcError>`; the UI decides what to show by the error's `code`,
//! never by its text.

use serde::{Deserialize, Serialize};

use crate::plan::Plan;

/// Command name: list the plans the app can open. No arguments; returns `Vec<PlanSummary>`.
pub const LIST_PLANS: &str = "list_plans";
/// Command name: what the editor's first screen needs, in one round trip: the plan list and the
/// plan to open. Arguments: [`StartArgs`]; returns [`Started`] as raw JSON bytes.
pub const START: &str = "start";
/// Command name: load one plan. Arguments: [`LoadPlanArgs`]; returns [`LoadedPlan`] as raw JSON
/// bytes.
pub const LOAD_PLAN: &str = "load_plan";
/// Command name: save the editor's draft (autosave). The request's body is the plan's JSON as raw
/// bytes and its [`PLAN_ID_HEADER`] header names the plan (no JSON round trip through JavaScript
/// for megabytes of plan); returns nothing.
pub const SAVE_DRAFT: &str = "save_draft";
/// Event the shell emits when a plan file changed on disk; payload: [`PlansChanged`].
pub const PLANS_CHANGED: &str = "plans-changed";

/// One entry of the plan list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanSummary {
    /// The plan's id (its folder name in the workspace).
    pub id: String,
    /// Display title; the id when the plan cannot be read.
    pub title: String,
    pub states: usize,
    pub transitions: usize,
    /// Why the plan cannot be opened, when it cannot.
    pub error: Option<IpcError>,
}

/// Arguments of [`LOAD_PLAN`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadPlanArgs {
    pub id: String,
}

/// Arguments of [`START`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartArgs {
    /// The plan the window showed last (kept by the page), opened again when it still opens.
    pub remembered: Option<String>,
}

/// Answer of [`START`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Started {
    pub plans: Vec<PlanSummary>,
    /// The remembered plan, or else the first in the list that opens; none when none does.
    pub opened: Option<OpenedPlan>,
}

/// A plan opened at start, with its id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpenedPlan {
    pub id: String,
    /// Not flattened: serde would buffer the whole plan to read it.
    pub loaded: LoadedPlan,
}

/// Answer of [`LOAD_PLAN`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadedPlan {
    pub plan: Plan,
    /// Where the plan was read from, for the author's orientation.
    pub source: String,
}

/// The header of a [`SAVE_DRAFT`] request that names the plan (ids are slugs, so always ASCII).
pub const PLAN_ID_HEADER: &str = "plan-id";

/// Payload of [`PLANS_CHANGED`]: the ids whose files changed (empty: re-read everything).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlansChanged {
    pub ids: Vec<String>,
}

/// An error as it crosses IPC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{message}")]
pub struct IpcError {
    pub code: ErrorCode,
    pub message: String,
}

/// What kind of failure, for the UI to act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// No plan with that id.
    NotFound,
    /// The id is not a plan id (`^[a-z0-9][a-z0-9_-]{0,63}$`).
    BadId,
    /// The file is not JSON.
    InvalidJson,
    /// The file is JSON but not a plan.
    Schema,
    /// The file is over the size limit.
    TooLarge,
    /// The file or folder could not be read.
    Io,
    /// Another writer holds the plan.
    InUse,
    /// A version file does not match its content hash.
    Corrupted,
    /// The operation was refused as asked (a publish with errors, an existing id).
    Refused,
    /// The app itself failed: a command that is not allowed, a window not connected to the app.
    Internal,
}
