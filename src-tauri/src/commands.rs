//! The commands the UI invokes. Each is a few lines over `plan_core::store`; file IO runs off the
//! main thread so the window never stalls on a slow disk.

use std::sync::Arc;

use plan_core::ipc::{ErrorCode, IpcError, LoadedPlan, PlanSummary, PLAN_ID_HEADER};
use plan_core::store::Workspace;
use plan_core::Plan;
use tauri::ipc::{InvokeBody, Request, Response};
use tauri::State;

use crate::first_screen::Early;
use crate::known::{Identity, Known};

/// Runs blocking store work on tokio's blocking pool and flattens a join failure into an IPC error.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, IpcError> + Send + 'static,
) -> Result<T, IpcError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        Err(IpcError {
            code: ErrorCode::Internal,
            message: format!("reading plans failed: {e}"),
        })
    })
}

/// Every plan in the workspace, with its counts or why it cannot be opened.
#[tauri::command]
pub async fn list_plans(ws: State<'_, Workspace>) -> Result<Vec<PlanSummary>, IpcError> {
    let ws = Workspace::at(ws.root());
    blocking(move || ws.summaries().map_err(|e| IpcError::from(&e))).await
}

/// The draft of one plan, read fresh from disk: a [`LoadedPlan`] as JSON bytes. Sent raw, so the
/// page hands the bytes to the UI as they are instead of parsing megabytes of JSON into JavaScript
/// objects and printing them back to text (half the time to open a plan of 5,000 states).
#[tauri::command]
pub async fn load_plan(
    ws: State<'_, Workspace>,
    known: State<'_, Arc<Known>>,
    id: String,
) -> Result<Response, IpcError> {
    let (ws, known) = (Workspace::at(ws.root()), Arc::clone(&known));
    blocking(move || {
        let source = ws.draft_path(&id).map_err(|e| IpcError::from(&e))?;
        let seen = Identity::of(&source);
        let read = ws.read_draft(&id).map_err(|e| IpcError::from(&e));
        // Even a draft that does not parse is now known: the author may choose to write over it.
        if let Some(seen) = seen {
            known.read(&source, seen);
        }
        let plan = read?;
        let loaded = LoadedPlan {
            plan,
            source: source.display().to_string(),
        };
        raw(&loaded)
    })
    .await
}

/// The editor's first screen in one round trip (see `plan_core::ipc::START`): the plan list and
/// the plan to open, each draft read once. As raw JSON bytes, like [`load_plan`]. Usually read
/// already, while the app was starting (see [`crate::first_screen`]).
#[tauri::command]
pub async fn start(
    ws: State<'_, Workspace>,
    known: State<'_, Arc<Known>>,
    early: State<'_, Arc<Early>>,
    remembered: Option<String>,
) -> Result<Response, IpcError> {
    let (ws, known, early) = (
        Workspace::at(ws.root()),
        Arc::clone(&known),
        Arc::clone(&early),
    );
    blocking(move || {
        let answer = early.answer(&ws, remembered.as_deref())?;
        answer.remember(&known);
        Ok(Response::new(answer.bytes))
    })
    .await
}

/// An answer as raw JSON bytes: the page hands them to the UI as they are.
fn raw(answer: &impl serde::Serialize) -> Result<Response, IpcError> {
    json_bytes(answer).map(Response::new)
}

/// An answer as JSON bytes, or why it could not be made.
pub fn json_bytes(answer: &impl serde::Serialize) -> Result<Vec<u8>, IpcError> {
    serde_json::to_vec(answer).map_err(|e| IpcError {
        code: ErrorCode::Internal,
        message: format!("sending the answer failed: {e}"),
    })
}

/// Writes the editor's draft (autosave): atomic, durable, under the plan's lock. The body is the
/// plan's JSON as raw bytes, the plan id in a header (see `plan_core::ipc::SAVE_DRAFT`). The file
/// is recorded as the app's own, so that the watcher does not send it back to the page. A draft
/// another program changed since the app last read it is not written over: the save is refused,
/// and the watcher's report of that change lets the author choose.
#[tauri::command]
pub async fn save_draft(
    ws: State<'_, Workspace>,
    known: State<'_, Arc<Known>>,
    request: Request<'_>,
) -> Result<(), IpcError> {
    let refused = |message: String| IpcError {
        code: ErrorCode::Internal,
        message,
    };
    let id = request
        .headers()
        .get(PLAN_ID_HEADER)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| refused("a save without the plan's id".into()))?
        .to_string();
    let bytes = match request.body() {
        InvokeBody::Raw(bytes) => bytes.clone(),
        InvokeBody::Json(value) => serde_json::to_vec(value).unwrap_or_default(),
    };
    let (ws, known) = (Workspace::at(ws.root()), Arc::clone(&known));
    blocking(move || {
        let plan: Plan = serde_json::from_slice(&bytes)
            .map_err(|e| refused(format!("the plan to save for {id} is not a plan: {e}")))?;
        let path = ws.draft_path(&id).map_err(|e| IpcError::from(&e))?;
        let saved = ws
            .save_draft_unless(&id, &plan, |path| known.changed_by_another(path))
            .map_err(|e| IpcError::from(&e))?;
        if !saved {
            return Err(IpcError {
                code: ErrorCode::Refused,
                message: format!(
                    "{} changed on disk since the app read it; not written over",
                    path.display()
                ),
            });
        }
        known.wrote(&path);
        Ok(())
    })
    .await
}
