//! The commands the UI invokes. Each is a few lines over `plan_core::files`; file IO runs off the
//! main thread so the window never stalls on a slow disk.

use plan_core::files;
use plan_core::ipc::{ErrorCode, IpcError, LoadedPlan, PlanSummary};
use tauri::State;

use crate::PlanDir;

/// Runs blocking file work on tokio's blocking pool and flattens a join failure into an IPC error.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, IpcError> + Send + 'static,
) -> Result<T, IpcError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        Err(IpcError {
            code: ErrorCode::Io,
            message: format!("reading plans failed: {e}"),
        })
    })
}

/// Every plan in the plan folder, with its counts or why it cannot be opened.
#[tauri::command]
pub async fn list_plans(dir: State<'_, PlanDir>) -> Result<Vec<PlanSummary>, IpcError> {
    let dir = dir.0.clone();
    blocking(move || files::list_plans(&dir).map_err(|e| IpcError::from(&e))).await
}

/// One plan, read fresh from disk.
#[tauri::command]
pub async fn load_plan(dir: State<'_, PlanDir>, id: String) -> Result<LoadedPlan, IpcError> {
    let dir = dir.0.clone();
    blocking(move || {
        let plan = files::load_plan(&dir, &id).map_err(|e| IpcError::from(&e))?;
        let source = files::plan_path(&dir, &id)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        Ok(LoadedPlan { plan, source })
    })
    .await
}
