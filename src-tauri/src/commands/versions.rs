//! Publishing and versions: the publish dialog's preview, the publish, the versions list, a
//! version viewed, live, reopen, compare.

use std::sync::Arc;

use plan_api::messages::{LiveVersion, PublishPreview, Published, Reopened, VersionInfo};
use plan_api::{versions, ApiError, Context};
use plan_core::Revision;
use tauri::ipc::Response;
use tauri::State;

use super::{blocking, on, raw};
use crate::saved_draft::SavedDraft;
use crate::seen_files::SeenFiles;

#[tauri::command]
pub async fn publish_preview(
    ctx: State<'_, Context>,
    id: String,
) -> Result<PublishPreview, ApiError> {
    on(&ctx, move |ctx| versions::preview(ctx, &id)).await
}

/// Publishes the draft: the one the app saved last when it is still the file (no second reading),
/// else the file as it is.
#[tauri::command]
pub async fn publish(
    ctx: State<'_, Context>,
    held: State<'_, Arc<SavedDraft>>,
    id: String,
    note: String,
) -> Result<Published, ApiError> {
    let (ctx, held) = (ctx.inner().clone(), Arc::clone(&held));
    blocking(
        move || match held.current(&ctx.workspace().draft_path(&id)?) {
            Some(draft) => versions::publish_plan(&ctx, &id, &draft, &note),
            None => versions::publish(&ctx, &id, &note),
        },
    )
    .await
}

#[tauri::command]
pub async fn list_versions(
    ctx: State<'_, Context>,
    id: String,
) -> Result<Vec<VersionInfo>, ApiError> {
    on(&ctx, move |ctx| versions::list(ctx, &id)).await
}

/// One version, to view read-only: a `LoadedVersion` as raw JSON bytes.
#[tauri::command]
pub async fn load_version(
    ctx: State<'_, Context>,
    id: String,
    version: u32,
) -> Result<Response, ApiError> {
    on(&ctx, move |ctx| raw(&versions::load(ctx, &id, version)?)).await
}

#[tauri::command]
pub async fn set_live(
    ctx: State<'_, Context>,
    id: String,
    version: u32,
) -> Result<LiveVersion, ApiError> {
    on(&ctx, move |ctx| versions::set_live(ctx, &id, version)).await
}

/// Makes a version the draft. The page reloads the draft itself, so the write is recorded as the
/// app's own.
#[tauri::command]
pub async fn reopen_version(
    ctx: State<'_, Context>,
    known: State<'_, Arc<SeenFiles>>,
    id: String,
    version: u32,
) -> Result<Reopened, ApiError> {
    let (ctx, known) = (ctx.inner().clone(), Arc::clone(&known));
    blocking(move || {
        let reopened = versions::reopen(&ctx, &id, version)?;
        known.wrote(&ctx.workspace().draft_path(&id)?);
        Ok(reopened)
    })
    .await
}

/// Two documents of a plan compared: a `Comparison` as raw JSON bytes.
#[tauri::command]
pub async fn compare(
    ctx: State<'_, Context>,
    id: String,
    a: Revision,
    b: Revision,
) -> Result<Response, ApiError> {
    on(&ctx, move |ctx| raw(&versions::compare(ctx, &id, a, b)?)).await
}
