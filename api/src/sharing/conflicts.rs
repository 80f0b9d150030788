//! A plan's conflicts left by a merge: `draft.conflicts.json` beside its draft (documented in
//! docs/sharing.md), read, added to by a later merge, and resolved one by one: ours kept, theirs
//! taken, or an edit of the author's; when none is left the file goes.

use std::fs;
use std::path::{Path, PathBuf};

use plan_core::edit::{apply, Command};
use plan_core::merge::Conflict;
use plan_core::store::{atomic, pretty};

use crate::error::{ApiError, ErrorCode};
pub use crate::messages::share::Choice;
use crate::messages::share::ConflictsFile;
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// The file's name, beside `draft.json`.
pub const FILE: &str = "draft.conflicts.json";


fn io(path: &Path) -> impl Fn(std::io::Error) -> ApiError + '_ {
    move |e| ApiError::new(ErrorCode::Io, format!("{}: {e}", path.display()))
}

/// The conflicts kept in `folder` (a plan's), none when there is no file.
pub fn read(folder: &Path) -> Result<Vec<Conflict>> {
    let path = folder.join(FILE);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(&path)(e)),
    };
    let file: ConflictsFile = serde_json::from_str(&text).map_err(|e| {
        ApiError::new(
            ErrorCode::InvalidJson,
            format!("{}: not a list of conflicts: {e}", path.display()),
        )
    })?;
    Ok(file.conflicts)
}

/// `more` added to the conflicts kept in `folder` (one at the same path is replaced: the newer
/// merge's is what the draft now holds).
pub fn add(folder: &Path, more: &[Conflict]) -> Result<()> {
    let mut all = read(folder)?;
    all.retain(|c| more.iter().all(|m| m.path != c.path));
    all.extend(more.iter().cloned());
    write(folder, &all)
}

fn write(folder: &Path, conflicts: &[Conflict]) -> Result<()> {
    let path = folder.join(FILE);
    if conflicts.is_empty() {
        return match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(&path)(e)),
            _ => Ok(()),
        };
    }
    let file = ConflictsFile {
        conflicts: conflicts.to_vec(),
    };
    atomic::write(&path, &pretty::to_vec(&file, 1024), false).map_err(io(&path))
}

/// "a conflict", "3 conflicts".
pub fn count_in_words(n: usize) -> String {
    if n == 1 {
        "a conflict".to_string()
    } else {
        format!("{n} conflicts")
    }
}

/// What refuses publishing plan `id` while a merge's conflicts are left to choose (the same words
/// in the publish dialog, before the author tries, and in the refusal of the publish itself).
pub fn publish_refusal(ctx: &Context, id: &str) -> Result<Option<ApiError>> {
    let left = of_plan(ctx, id)?.len();
    Ok((left > 0).then(|| {
        ApiError::new(
            ErrorCode::Conflicts,
            format!(
                "This draft still has {} from a merge to choose: keep yours or take theirs, then publish.",
                count_in_words(left)
            ),
        )
    }))
}

/// Plan `id`'s conflicts.
pub fn of_plan(ctx: &Context, id: &str) -> Result<Vec<Conflict>> {
    read(&ctx.workspace().plan_dir(id)?)
}

/// Plan `id`'s conflict at `path` resolved by `choice`: with theirs, their value goes into the
/// draft first. Answers the conflicts left.
pub fn resolve(ctx: &Context, id: &str, path: &str, choice: Choice) -> Result<Vec<Conflict>> {
    let ws = ctx.workspace();
    let folder: PathBuf = ws.plan_dir(id)?;
    let mut all = read(&folder)?;
    let Some(at) = all.iter().position(|c| c.path == path) else {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("plan {id} has no conflict at {path}"),
        ));
    };
    if choice == Choice::TakeTheirs {
        let draft = ws.read_draft(id)?;
        let taken = apply(&draft, &Command::TakeTheirs(Box::new(all[at].clone())))?;
        ws.save_draft(id, &taken.plan)?;
    }
    all.remove(at);
    write(&folder, &all)?;
    Ok(all)
}
