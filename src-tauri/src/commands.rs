//! The commands the UI invokes. Each is a few lines over `plan_core::store`; file IO runs off the
//! main thread so the window never stalls on a slow disk.

use plan_core::ipc::{ErrorCode, IpcError, LoadedPlan, PlanSummary};
use plan_core::store::Workspace;
use plan_core::Plan;
use tauri::State;

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

/// The draft of one plan, read fresh from disk.
#[tauri::command]
pub async fn load_plan(ws: State<'_, Workspace>, id: String) -> Result<LoadedPlan, IpcError> {
    let ws = Workspace::at(ws.root());
    blocking(move || {
        let plan = ws.read_draft(&id).map_err(|e| IpcError::from(&e))?;
        let source = ws.root().join(&id).join("draft.json");
        Ok(LoadedPlan {
            plan,
            source: source.display().to_string(),
        })
    })
    .await
}

/// Writes the editor's draft (autosave): atomic, durable, under the plan's lock.
#[tauri::command]
pub async fn save_draft(ws: State<'_, Workspace>, id: String, plan: Plan) -> Result<(), IpcError> {
    let ws = Workspace::at(ws.root());
    blocking(move || ws.save_draft(&id, &plan).map_err(|e| IpcError::from(&e))).await
}
