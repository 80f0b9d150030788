//! Which plan a test conversation runs, and when it may not: a plan file run as is, a plan of the
//! workspace (a version, the live one, the draft), a saved session's plan as it is now (refused
//! when it changed since, unless only its cards moved), and a session that has ended.

use std::path::Path;
use std::sync::Arc;

use plan_core::hash::{content_hash, run_hash};
use plan_core::runtime::{PlanRef, PlanVersion, Session};
use plan_core::store::Workspace;
use plan_core::validate::{check_text, validate, Diagnostic, Severity};
use plan_core::{Plan, Revision};

use crate::error::{ApiError, ErrorCode};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// A plan ready to run: checked, with the reference a session records.
#[derive(Debug, Clone)]
pub struct Target {
    /// The plan, checked.
    pub plan: Plan,
    /// How a session names it.
    pub plan_ref: PlanRef,
    /// How messages name it: `customer-support (draft)`, `support.json`.
    pub name: String,
}

/// A plan with errors cannot run: refused with its diagnostics.
fn refused(name: &str, diagnostics: Vec<Diagnostic>) -> ApiError {
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    ApiError {
        code: ErrorCode::HasErrors,
        message: format!(
            "{name} has {errors} error(s); fix them before a test conversation (plan check shows them)"
        ),
        diagnostics,
    }
}

/// A plan file, run as is (no workspace). Not JSON, not a plan, or a plan with errors: refused
/// with its diagnostics.
pub fn target_file(path: &Path) -> Result<Target> {
    let text = plan_core::files::read_text(path)
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("cannot read {e}")))?;
    let name = path.display().to_string();
    let (plan, report) = check_text(&text);
    match plan {
        Some(plan) if !report.has_errors() => Ok(Target {
            plan_ref: PlanRef {
                id: plan.id.clone(),
                version: PlanVersion::File,
                content_hash: content_hash(&plan),
            },
            plan,
            name,
        }),
        _ => Err(refused(&name, report.diagnostics)),
    }
}

/// Plan `id` of the workspace: `revision`, or by default the live version, else the draft.
pub fn target_plan(ws: &Workspace, id: &str, revision: Option<Revision>) -> Result<Target> {
    let (plan, version) = ws.plan_to_run(id, revision)?;
    let name = format!("{id} ({version})");
    let report = validate(&plan);
    if report.has_errors() {
        return Err(refused(&name, report.diagnostics));
    }
    Ok(Target {
        plan_ref: PlanRef {
            id: id.to_string(),
            version,
            content_hash: content_hash(&plan),
        },
        plan,
        name,
    })
}

/// The document a session ran.
pub fn revision_of(version: PlanVersion) -> Revision {
    match version {
        PlanVersion::Draft | PlanVersion::File => Revision::Draft,
        PlanVersion::Number(n) => Revision::Version(n),
    }
}

/// The plan a saved session ran, as it is now; refused when its content changed since (the
/// session would go on in a plan it did not start in). `runs` is the log's [`run_hash`] of the
/// plan when the session last took a turn: a plan whose cards only moved runs the same, and the
/// session goes on (the app's chat lives beside an author arranging the canvas).
pub fn resume_target(
    ctx: &Context,
    id: &str,
    session: &Session,
    runs: Option<&str>,
) -> Result<Arc<Target>> {
    let target = ctx.target(id, Some(revision_of(session.plan.version)))?;
    let moved_only = || runs.is_some_and(|r| r == run_hash(&target.plan));
    if target.plan_ref.content_hash != session.plan.content_hash && !moved_only() {
        return Err(ApiError::new(
            ErrorCode::Stale,
            // The author's words: which plan, and what to do; the session's file name and the
            // plans' hashes are the store's business.
            format!(
                "this conversation ran {id} ({}) as it was then, and the plan has changed since, so it cannot go on: start a new one",
                session.plan.version,
            ),
        ));
    }
    Ok(target)
}

/// A saved session that has ended takes no more turns.
pub fn refuse_ended(id: &str, name: &str, session: &Session) -> Result<()> {
    match &session.ended {
        Some(ended) => Err(ApiError::new(
            ErrorCode::Ended,
            format!(
                "session {name} of {id} has ended ({} in state '{}' at turn {}): start a new one",
                ended.describe(),
                ended.state_id,
                ended.turn
            ),
        )),
        None => Ok(()),
    }
}
