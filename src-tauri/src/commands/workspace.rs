//! The workspace's plans: the first screen, the list, new plans, duplicates, titles, the trash.

use std::sync::Arc;

use plan_api::messages::{Created, NewPlan, PlanSource, PlanSummary, Sample, TrashEntry};
use plan_api::{workspace, ApiError, Context};
use tauri::ipc::Response;
use tauri::State;

use super::{blocking, on};
use crate::first_screen::PreparedFirstScreen;
use crate::seen_files::SeenFiles;

/// The editor's first screen in one round trip (see `plan_api::messages::START`): the plan list
/// and the plan to open, each draft read once. As raw JSON bytes. Usually read already, while the
/// app was starting (see [`crate::first_screen`]).
#[tauri::command]
pub async fn start(
    ctx: State<'_, Context>,
    known: State<'_, Arc<SeenFiles>>,
    early: State<'_, Arc<PreparedFirstScreen>>,
    remembered: Option<String>,
) -> Result<Response, ApiError> {
    let (ctx, known, early) = (ctx.inner().clone(), Arc::clone(&known), Arc::clone(&early));
    blocking(move || {
        let answer = early.answer(&ctx, remembered.as_deref())?;
        answer.remember(&known);
        Ok(Response::new(answer.bytes))
    })
    .await
}

/// Every plan in the workspace, with its counts and versions or why it cannot be opened.
#[tauri::command]
pub async fn list_plans(ctx: State<'_, Context>) -> Result<Vec<PlanSummary>, ApiError> {
    on(&ctx, workspace::plans).await
}

#[tauri::command]
pub async fn new_plan(
    ctx: State<'_, Context>,
    id: Option<String>,
    title: Option<String>,
    from: PlanSource,
) -> Result<Created, ApiError> {
    on(&ctx, move |ctx| {
        workspace::create(ctx, NewPlan { id, title, from })
    })
    .await
}

#[tauri::command]
pub async fn duplicate_plan(ctx: State<'_, Context>, id: String) -> Result<Created, ApiError> {
    on(&ctx, move |ctx| workspace::duplicate(ctx, &id)).await
}

#[tauri::command]
pub async fn rename_plan(
    ctx: State<'_, Context>,
    id: String,
    title: String,
) -> Result<(), ApiError> {
    on(&ctx, move |ctx| workspace::rename(ctx, &id, &title)).await
}

#[tauri::command]
pub async fn delete_plan(ctx: State<'_, Context>, id: String) -> Result<TrashEntry, ApiError> {
    on(&ctx, move |ctx| workspace::delete(ctx, &id)).await
}

#[tauri::command]
pub async fn list_trash(ctx: State<'_, Context>) -> Result<Vec<TrashEntry>, ApiError> {
    on(&ctx, workspace::trash).await
}

#[tauri::command]
pub async fn restore_plan(ctx: State<'_, Context>, entry: String) -> Result<Created, ApiError> {
    on(&ctx, move |ctx| workspace::restore(ctx, &entry)).await
}

#[tauri::command]
pub async fn list_samples() -> Result<Vec<Sample>, ApiError> {
    blocking(workspace::samples).await
}

/// Whether the first start's welcome is due (see `plan_api::welcome`).
#[tauri::command]
pub async fn welcome() -> Result<bool, ApiError> {
    blocking(|| {
        Ok(plan_api::welcome::due(
            plan_api::welcome::user_mark_file().as_deref(),
        ))
    })
    .await
}

/// The welcome dismissed for good.
#[tauri::command]
pub async fn dismiss_welcome() -> Result<(), ApiError> {
    blocking(|| plan_api::welcome::dismiss(plan_api::welcome::user_mark_file().as_deref())).await
}
