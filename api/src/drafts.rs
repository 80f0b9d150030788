//! A plan's draft: read to edit, saved by the editor, replaced from a file (either import
//! format), written out as a plan document.

use std::path::Path;

use plan_core::store::{atomic, read_import, DraftGuard, Replaced};
use plan_core::validate::validate;
use plan_core::{Plan, Revision, Severity};

use crate::error::{ApiError, ErrorCode};
use crate::messages::{DraftStatus, Exported, Imported, LoadedPlan};
use crate::workspace::{free_id, slug_of, status};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// The draft of plan `id`, read as work in progress (see `Workspace::read_draft`).
pub fn load(ctx: &Context, id: &str) -> Result<LoadedPlan> {
    let ws = ctx.workspace();
    let source = ws.draft_path(id)?.display().to_string();
    Ok(LoadedPlan {
        plan: ws.read_draft(id)?,
        source,
    })
}

/// Replaces the draft of plan `id` with `plan` (the editor's autosave), unless `guard` says the
/// file on disk is no longer the one the caller last read: then nothing is written and the save
/// is refused. Answers how the saved draft relates to the newest version.
pub fn save(ctx: &Context, id: &str, plan: &Plan, guard: &impl DraftGuard) -> Result<DraftStatus> {
    let ws = ctx.workspace();
    if !ws.save_draft_unless(id, plan, guard)? {
        return Err(ApiError::new(
            ErrorCode::Refused,
            format!(
                "{} changed on disk since the app read it; not written over",
                ws.draft_path(id)?.display()
            ),
        ));
    }
    Ok(status(ws, id, plan, ws.newest_version(id)?))
}

/// A file in either format of `docs/store.md` (a plan document, or a flow export) imported as the
/// draft of plan `into` (its draft kept in `history/` first; created when new), or, with no `into`, as a new plan
/// whose id comes from the plan's own id, else the file's name. A file that cannot be read as
/// either changes nothing.
pub fn import(ctx: &Context, file: &Path, into: Option<&str>) -> Result<Imported> {
    let ws = ctx.workspace();
    let id = match into {
        // Created when it does not exist yet; a draft that does not parse is replaced all the
        // same (and kept in history/).
        Some(id) => id.to_string(),
        None => {
            // The file is read here to name the plan, and again by the import: both read it
            // whole, and an unreadable file is refused by the first, changing nothing.
            let plan = read_import(file, "imported")?;
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let base = if plan.id.is_empty() || plan.id == "imported" {
                slug_of(&stem)
            } else {
                slug_of(&plan.id)
            };
            free_id(ws, &base)?
        }
    };
    let Replaced { plan, kept } = ws.import(&id, file, &ctx.now())?;
    let errors = validate(&plan).count(Severity::Error);
    let kept = kept.and_then(|path| {
        let dir = ws.plan_dir(&id).ok()?;
        Some(path.strip_prefix(dir).ok()?.display().to_string())
    });
    Ok(Imported {
        id,
        file: file.display().to_string(),
        title: plan.title,
        states: plan.states.len(),
        errors,
        kept,
    })
}

/// The plan a file opened from outside the app (the file manager, `plan-builder FILE`) shows: the
/// workspace's own plan when the file is one of its files (a draft, a version) or has the very
/// bytes of a plan's draft (a file opened twice is not imported twice), else the file imported as
/// a new plan ([`import`]). Answers the plan's id and whether it was imported.
pub fn open_file(ctx: &Context, file: &Path) -> Result<(String, bool)> {
    let ws = ctx.workspace();
    let unreadable = |e: std::io::Error| {
        ApiError::new(
            ErrorCode::Io,
            format!("cannot open {}: {e}", file.display()),
        )
    };
    let file = file.canonicalize().map_err(unreadable)?;
    let ids = ws.plan_ids()?;
    if let Ok(root) = ws.root().canonicalize() {
        if let Ok(inside) = file.strip_prefix(&root) {
            let first = inside.components().next();
            let id = first.and_then(|c| c.as_os_str().to_str());
            if let Some(id) = id.filter(|id| ids.iter().any(|known| known == id)) {
                return Ok((id.to_string(), false));
            }
        }
    }
    let bytes = plan_core::files::read_bytes(&file)?;
    for id in &ids {
        let same = ws
            .draft_path(id)
            .ok()
            .and_then(|draft| std::fs::read(draft).ok())
            .is_some_and(|draft| draft == bytes);
        if same {
            return Ok((id.clone(), false));
        }
    }
    Ok((import(ctx, &file, None)?.id, true))
}

/// The plan document `revision` of plan `id`, as `plan export` prints it: pretty JSON (compact
/// past 8 MiB, as a draft is written).
pub fn export_text(ctx: &Context, id: &str, revision: Revision) -> Result<String> {
    let plan = ctx.workspace().export(id, revision)?;
    // Indented as a draft is, and compact past the same size: a file that can be imported again.
    let bytes = plan_core::store::draft_bytes(Path::new(&format!("{id}.json")), &plan, 64 * 1024)?;
    String::from_utf8(bytes)
        .map_err(|e| ApiError::internal(format!("the plan could not be written out: {e}")))
}

/// Writes the plan document `revision` of plan `id` to `path` (atomically: a file that was there
/// is replaced whole or not at all).
pub fn export_to(ctx: &Context, id: &str, revision: Revision, path: &Path) -> Result<Exported> {
    let text = export_text(ctx, id, revision)?;
    atomic::write(path, text.as_bytes(), false)
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", path.display())))?;
    Ok(Exported {
        path: path.display().to_string(),
    })
}
