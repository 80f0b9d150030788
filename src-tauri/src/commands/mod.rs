//! The commands the page invokes, one module per area of `plan_api`. Each maps its arguments to
//! one API call on tokio's blocking pool (file IO never stalls the window) and sends the answer:
//! as JSON, or as raw JSON bytes where a whole plan crosses (the page hands them to the UI as they
//! are instead of parsing megabytes into JavaScript objects and printing them back). The shell
//! adds only what is the app's own: which files it last read or wrote ([`crate::seen_files`]), and the
//! native file dialogs ([`crate::dialogs`]).

pub mod conversations;
pub mod drafts;
pub mod explore;
pub mod share;
pub mod simulate;
pub mod versions;
pub mod workspace;

use plan_api::{ApiError, Context};
use tauri::ipc::Response;
use tauri::State;

/// Runs blocking work on tokio's blocking pool and flattens a join failure into an API error.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| Err(ApiError::internal(format!("the request failed: {e}"))))
}

/// Runs `work` on the app's context on the blocking pool: what most commands are.
pub async fn on<T: Send + 'static>(
    ctx: &State<'_, Context>,
    work: impl FnOnce(&Context) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let ctx = ctx.inner().clone();
    blocking(move || work(&ctx)).await
}

/// An answer as raw JSON bytes: the page hands them to the UI as they are.
pub fn raw(answer: &impl serde::Serialize) -> Result<Response, ApiError> {
    json_bytes(answer).map(Response::new)
}

/// An answer as JSON bytes, or why it could not be made.
pub fn json_bytes(answer: &impl serde::Serialize) -> Result<Vec<u8>, ApiError> {
    serde_json::to_vec(answer)
        .map_err(|e| ApiError::internal(format!("sending the answer failed: {e}")))
}
