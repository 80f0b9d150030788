//! A plan's draft: opened, autosaved, imported from a file and exported to one (both files
//! picked in native dialogs).

use std::sync::Arc;

use plan_api::messages::{
    DraftStatus, Exported, Imported, PLAN_ID_HEADER, SAVE_BASE_HEADER, SAVE_TOKEN_HEADER,
};
use plan_api::{drafts, ApiError, Context, ErrorCode};
use plan_core::draft_changes::DraftChanges;
use plan_core::{Plan, Revision};
use tauri::ipc::{InvokeBody, Request, Response};
use tauri::{AppHandle, State};

use super::{blocking, on, raw};
use crate::dialogs;
use crate::saved_draft::SavedDraft;
use crate::seen_files::{Identity, SeenFiles};

/// The draft of one plan, read fresh from disk: a `LoadedPlan` as JSON bytes (half the time to
/// open a plan of 5,000 states, against JSON parsed into JavaScript and printed back).
#[tauri::command]
pub async fn load_plan(
    ctx: State<'_, Context>,
    known: State<'_, Arc<SeenFiles>>,
    id: String,
) -> Result<Response, ApiError> {
    let (ctx, known) = (ctx.inner().clone(), Arc::clone(&known));
    blocking(move || {
        let source = ctx.workspace().draft_path(&id)?;
        let seen = Identity::of(&source);
        let read = drafts::load(&ctx, &id);
        // Even a draft that does not parse is now known: the author may choose to write over it.
        if let Some(seen) = seen {
            known.read(&source, seen);
        }
        raw(&read?)
    })
    .await
}

/// Writes the editor's draft (autosave): atomic, durable, under the plan's lock. The body is the
/// plan's JSON as raw bytes, the plan id in a header (see `plan_api::messages::SAVE_DRAFT`). The
/// file is recorded as the app's own, so that the watcher does not send it back to the page. A
/// draft another program changed since the app last read it is not written over: the save is
/// refused, and the watcher's report of that change lets the author choose. The saved plan is
/// kept ([`SavedDraft`]) for a publish that follows, and for the next save, which may then send only
/// what changed since (a [`DraftChanges`] against the save named in its base header).
#[tauri::command]
pub async fn save_draft(
    ctx: State<'_, Context>,
    known: State<'_, Arc<SeenFiles>>,
    held: State<'_, Arc<SavedDraft>>,
    request: Request<'_>,
) -> Result<DraftStatus, ApiError> {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let id =
        header(PLAN_ID_HEADER).ok_or_else(|| ApiError::internal("a save without the plan's id"))?;
    let token = header(SAVE_TOKEN_HEADER).and_then(|t| t.parse::<u64>().ok());
    let base = header(SAVE_BASE_HEADER).and_then(|t| t.parse::<u64>().ok());
    let bytes = match request.body() {
        InvokeBody::Raw(bytes) => bytes.clone(),
        InvokeBody::Json(value) => serde_json::to_vec(value).unwrap_or_default(),
    };
    let (ctx, known, held) = (ctx.inner().clone(), Arc::clone(&known), Arc::clone(&held));
    blocking(move || {
        let path = ctx.workspace().draft_path(&id)?;
        let plan = plan_to_save(&bytes, base, &held, &path)?;
        let status = drafts::save(&ctx, &id, &plan, known.as_ref())?;
        // As written: the file always carries its folder's id.
        let mut plan = plan;
        plan.id = id;
        held.keep(&path, plan, token);
        Ok(status)
    })
    .await
}

/// The plan a save's body says: the whole plan, or with a `base`, the changes since the draft the
/// save `base` wrote, which `held` must still hold as the file at `path` (else `UnknownBase`).
fn plan_to_save(
    bytes: &[u8],
    base: Option<u64>,
    held: &SavedDraft,
    path: &std::path::Path,
) -> Result<Plan, ApiError> {
    let not_a_plan =
        |e: serde_json::Error| ApiError::internal(format!("the draft to save is not a plan: {e}"));
    let Some(base) = base else {
        return plan_core::deep_json::from_slice(bytes).map_err(not_a_plan);
    };
    let unknown = || {
        ApiError::new(
            ErrorCode::UnknownBase,
            format!("{} is no longer the draft the app saved", path.display()),
        )
    };
    let before = held.saved_by(path, base).ok_or_else(unknown)?;
    let changes: DraftChanges = serde_json::from_slice(bytes).map_err(not_a_plan)?;
    changes.apply(&before).map_err(|_| unknown())
}

/// Asks the author for a file (either import format) and imports it into the draft of `into`, or
/// as a new plan; none when the author cancels. A draft it replaces is one the app wrote, so the
/// page reloads it itself rather than hearing of it from the watcher.
#[tauri::command]
pub async fn import_file(
    app: AppHandle,
    ctx: State<'_, Context>,
    known: State<'_, Arc<SeenFiles>>,
    into: Option<String>,
) -> Result<Option<Imported>, ApiError> {
    let Some(file) = dialogs::pick_plan_file(&app).await else {
        return Ok(None);
    };
    let (ctx, known) = (ctx.inner().clone(), Arc::clone(&known));
    blocking(move || {
        let imported = drafts::import(&ctx, &file, into.as_deref())?;
        known.wrote(&ctx.workspace().draft_path(&imported.id)?);
        Ok(Some(imported))
    })
    .await
}

/// Asks the author where to write the plan document `revision` of plan `id`, and writes it
/// there; none when the author cancels.
#[tauri::command]
pub async fn export_file(
    app: AppHandle,
    ctx: State<'_, Context>,
    id: String,
    revision: Revision,
) -> Result<Option<Exported>, ApiError> {
    // `.plan.json`: the file type the package registers, so the file opens in the app again.
    let name = match revision {
        Revision::Draft => format!("{id}.plan.json"),
        Revision::Version(n) => format!("{id}-v{n}.plan.json"),
        Revision::Live => format!("{id}-live.plan.json"),
    };
    let Some(path) = dialogs::choose_export_file(&app, &name).await else {
        return Ok(None);
    };
    on(&ctx, move |ctx| {
        drafts::export_to(ctx, &id, revision, &path).map(Some)
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_of_changes_is_made_on_the_draft_its_base_wrote_and_refused_on_any_other() {
        let dir = std::env::temp_dir().join(format!("save-changes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("draft.json");
        let before = plan_core::synthetic::plan(50);
        std::fs::write(&path, serde_json::to_vec(&before).unwrap()).unwrap();
        let held = SavedDraft::default();
        held.keep(&path, before.clone(), Some(1));
        let mut after = before.clone();
        std::sync::Arc::make_mut(&mut after.states[3]).title = "Typed".into();
        let body = serde_json::to_vec(&DraftChanges::between(&before, &after)).unwrap();
        assert_eq!(plan_to_save(&body, Some(1), &held, &path).unwrap(), after);
        let whole = serde_json::to_vec(&after).unwrap();
        assert_eq!(plan_to_save(&whole, None, &held, &path).unwrap(), after);
        let code = |r: Result<Plan, ApiError>| r.unwrap_err().code;
        assert_eq!(
            code(plan_to_save(&body, Some(2), &held, &path)),
            ErrorCode::UnknownBase,
            "another save's draft"
        );
        // Another program wrote the file: the draft held is no longer what it holds.
        std::fs::write(&path, b"{}").unwrap();
        assert_eq!(
            code(plan_to_save(&body, Some(1), &held, &path)),
            ErrorCode::UnknownBase
        );
        assert_eq!(
            code(plan_to_save(b"[", None, &held, &path)),
            ErrorCode::Internal
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
