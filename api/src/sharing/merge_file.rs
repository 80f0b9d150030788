//! `plan merge BASE OURS THEIRS [--path P]`: git's merge driver for a workspace's files. git hands
//! it three temporary files and the file's path in the repository; the result goes into OURS.
//! A draft is merged by its meaning (`plan_core::merge`), its conflicts written beside the real
//! draft in `draft.conflicts.json`; a `live.json` changed on both sides keeps the one set last.

use std::fs;
use std::path::{Path, PathBuf};

use plan_core::files::read_text;
use plan_core::merge::{merge, Conflict};
use plan_core::parse::parse_draft;
use plan_core::store::{atomic, pretty, Live};
use plan_core::Plan;

use super::conflicts;
use crate::error::{ApiError, ErrorCode};

type Result<T> = std::result::Result<T, ApiError>;

/// The three sides git gives a merge driver, and the file's path in the repository.
#[derive(Debug, Clone)]
pub struct MergeFiles {
    /// The common ancestor (`%O`; empty when there is none).
    pub base: PathBuf,
    /// Ours (`%A`): the merged result is written here.
    pub ours: PathBuf,
    /// Theirs (`%B`).
    pub theirs: PathBuf,
    /// The file's path in the repository (`%P`), relative to the folder git runs the driver in;
    /// none: OURS is the file itself.
    pub path: Option<PathBuf>,
}

/// What a merge left.
#[derive(Debug, Clone, PartialEq)]
pub struct FileMerged {
    /// Where both sides changed one thing differently (written beside the draft).
    pub conflicts: Vec<Conflict>,
}

/// Merges the three sides into OURS: clean (no conflict) or with the conflicts written beside
/// the draft. Refused, with OURS untouched, when a side cannot be read as its kind of file.
pub fn merge_files(files: &MergeFiles) -> Result<FileMerged> {
    let real = files.path.clone().unwrap_or_else(|| files.ours.clone());
    if real.file_name().is_some_and(|n| n == "live.json") {
        return merge_live(files);
    }
    let read = |path: &Path, side: &str| -> Result<Option<Plan>> {
        let text = read_text(path).map_err(ApiError::from)?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        parse_draft(&text).map(Some).map_err(|problems| {
            let first = problems.first().map(|p| p.to_string()).unwrap_or_default();
            ApiError::new(
                ErrorCode::Schema,
                format!("{} ({side} of the merge): {first}", real.display()),
            )
        })
    };
    let base = read(&files.base, "the common ancestor")?;
    let (Some(ours), Some(theirs)) = (read(&files.ours, "ours")?, read(&files.theirs, "theirs")?)
    else {
        return Err(ApiError::new(
            ErrorCode::Schema,
            format!("{}: one side of the merge is empty", real.display()),
        ));
    };
    let merged = merge(base.as_ref(), &ours, &theirs);
    let bytes = pretty::plan_document(&merged.plan, 4096 + merged.plan.states.len() * 1_400);
    let beside = real.parent().unwrap_or(Path::new(".")).to_path_buf();
    if !merged.conflicts.is_empty() {
        conflicts::add(&beside, &merged.conflicts)?;
    }
    write(&files.ours, &bytes)?;
    Ok(FileMerged {
        conflicts: merged.conflicts,
    })
}

/// Two `live.json` files: one side's change when only one changed it, else the one set last (an
/// absent side is a plan without a live version).
fn merge_live(files: &MergeFiles) -> Result<FileMerged> {
    let read = |path: &Path| -> Result<Option<Live>> {
        let text = fs::read_to_string(path)
            .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", path.display())))?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        serde_json::from_str(&text).map(Some).map_err(|e| {
            ApiError::new(
                ErrorCode::InvalidJson,
                format!("{}: not a live marker: {e}", path.display()),
            )
        })
    };
    let (base, ours, theirs) = (
        read(&files.base)?,
        read(&files.ours)?,
        read(&files.theirs)?,
    );
    let chosen = if ours == base {
        theirs
    } else if theirs == base {
        ours
    } else {
        match (ours, theirs) {
            (Some(o), Some(t)) => Some(if t.set_at > o.set_at { t } else { o }),
            (o, t) => o.or(t),
        }
    };
    let bytes = chosen
        .map(|live| pretty::to_vec(&live, 64))
        .unwrap_or_default();
    write(&files.ours, &bytes)?;
    Ok(FileMerged {
        conflicts: Vec::new(),
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    atomic::write(path, bytes, false)
        .map_err(|e| ApiError::new(ErrorCode::Io, format!("{}: {e}", path.display())))
}
