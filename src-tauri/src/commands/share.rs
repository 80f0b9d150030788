//! Sharing the workspace through git (issue 45): the Share panel's status, checkpoint, get and
//! send, and a plan's conflicts chosen one by one.

use plan_api::messages::share::{Author, Checkpoint, Received, Sent, ShareStatus};
use plan_api::sharing::conflicts::{self, Choice};
use plan_api::sharing::share;
use plan_api::{ApiError, Context};
use plan_core::merge::Conflict;
use tauri::State;

use super::on;

#[tauri::command]
pub async fn share_status(ctx: State<'_, Context>) -> Result<ShareStatus, ApiError> {
    on(&ctx, share::status).await
}

#[tauri::command]
pub async fn share_checkpoint(
    ctx: State<'_, Context>,
    message: String,
    author: Option<Author>,
) -> Result<Checkpoint, ApiError> {
    on(&ctx, move |ctx| {
        share::checkpoint(ctx, &message, author.as_ref())
    })
    .await
}

#[tauri::command]
pub async fn share_get(ctx: State<'_, Context>) -> Result<Received, ApiError> {
    on(&ctx, share::get).await
}

#[tauri::command]
pub async fn share_send(ctx: State<'_, Context>) -> Result<Sent, ApiError> {
    on(&ctx, share::send).await
}

#[tauri::command]
pub async fn plan_conflicts(
    ctx: State<'_, Context>,
    id: String,
) -> Result<Vec<Conflict>, ApiError> {
    on(&ctx, move |ctx| conflicts::of_plan(ctx, &id)).await
}

/// One conflict chosen: the page has already put theirs into the draft it saves (an edit
/// command, one undo step) when it took theirs, so the shell only forgets the conflict.
#[tauri::command]
pub async fn resolve_conflict(
    ctx: State<'_, Context>,
    id: String,
    path: String,
    choice: Choice,
) -> Result<Vec<Conflict>, ApiError> {
    on(&ctx, move |ctx| conflicts::resolve(ctx, &id, &path, choice)).await
}
