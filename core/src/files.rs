//! Plan files on disk: a folder of `<id>.json` plan documents, as the sample plans in `plans/` are.
//!
//! Until the workspace store exists, the app lists and opens plans straight from such a folder.
//! Reading never writes. A file that cannot be read as a plan is still listed, with the reason, so
//! one broken file never hides the others.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::ipc::{ErrorCode, IpcError, PlanSummary};
use crate::parse::{is_slug, parse_plan, ParseProblem, ProblemKind};
use crate::plan::Plan;

/// Plan files larger than this are refused rather than read.
pub const MAX_PLAN_BYTES: u64 = 32 * 1024 * 1024;

/// Why a plan file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: the file is {size} bytes; plans are limited to 32 MiB")]
    TooLarge { path: PathBuf, size: u64 },
    #[error("{path}: {}", first(.problems))]
    Invalid {
        path: PathBuf,
        problems: Vec<ParseProblem>,
    },
    #[error("\"{id}\" is not a plan id: use lowercase letters, digits, '-' and '_'")]
    BadId { id: String },
    #[error("there is no plan \"{id}\" in {dir}")]
    NotFound { id: String, dir: PathBuf },
}

fn first(problems: &[ParseProblem]) -> String {
    let mut text = problems.first().map(|p| p.to_string()).unwrap_or_default();
    if problems.len() > 1 {
        text.push_str(&format!(" (and {} more problems)", problems.len() - 1));
    }
    text
}

impl From<&FileError> for IpcError {
    fn from(e: &FileError) -> Self {
        let code = match e {
            FileError::Io { .. } => ErrorCode::Io,
            FileError::TooLarge { .. } => ErrorCode::TooLarge,
            FileError::Invalid { problems, .. } => match problems.first().map(|p| p.kind) {
                Some(ProblemKind::InvalidJson) => ErrorCode::InvalidJson,
                _ => ErrorCode::Schema,
            },
            FileError::BadId { .. } => ErrorCode::BadId,
            FileError::NotFound { .. } => ErrorCode::NotFound,
        };
        IpcError {
            code,
            message: e.to_string(),
        }
    }
}

/// Reads and parses one plan file.
pub fn read_plan(path: &Path) -> Result<Plan, FileError> {
    let text = read_text(path)?;
    parse_plan(&text).map_err(|problems| FileError::Invalid {
        path: path.to_path_buf(),
        problems,
    })
}

/// Reads a plan file's text, refusing files over [`MAX_PLAN_BYTES`] unread.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > MAX_PLAN_BYTES {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            size,
        });
    }
    let mut text = String::with_capacity(size as usize);
    // Read at most one byte past the limit, in case the file grows while it is read.
    file.take(MAX_PLAN_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    Ok(text)
}

/// The file of plan `id` in `dir`; refuses ids that are not slugs, so no id can name a path
/// outside the folder.
pub fn plan_path(dir: &Path, id: &str) -> Result<PathBuf, FileError> {
    if !is_slug(id) {
        return Err(FileError::BadId { id: id.to_string() });
    }
    Ok(dir.join(format!("{id}.json")))
}

/// Reads plan `id` from `dir`.
pub fn load_plan(dir: &Path, id: &str) -> Result<Plan, FileError> {
    let path = plan_path(dir, id)?;
    if !path.is_file() {
        return Err(FileError::NotFound {
            id: id.to_string(),
            dir: dir.to_path_buf(),
        });
    }
    read_plan(&path)
}

/// Every `<id>.json` in `dir`, sorted by title, each with its counts or the reason it cannot be read.
pub fn list_plans(dir: &Path) -> Result<Vec<PlanSummary>, FileError> {
    let entries = fs::read_dir(dir).map_err(|source| FileError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(id) = plan_id_of(&path) else {
            continue;
        };
        out.push(match read_plan(&path) {
            Ok(plan) => PlanSummary {
                id,
                title: plan.title.clone(),
                states: plan.states.len(),
                transitions: plan.transition_count(),
                error: None,
            },
            Err(e) => PlanSummary {
                title: id.clone(),
                id,
                states: 0,
                transitions: 0,
                error: Some(IpcError::from(&e)),
            },
        });
    }
    out.sort_by_key(|p| p.title.to_lowercase());
    Ok(out)
}

/// The plan id a file in a plan folder stands for: `<slug>.json`, else none.
pub fn plan_id_of(path: &Path) -> Option<String> {
    if path.extension()? != "json" {
        return None;
    }
    let stem = path.file_stem()?.to_str()?;
    is_slug(stem).then(|| stem.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("plan-core-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_broken_file_is_listed_with_its_reason_and_hides_nothing() {
        let dir = temp_dir("list");
        fs::write(
            dir.join("good.json"),
            r#"{"id": "good", "title": "Good", "states": [{"id": "a", "title": "A"}]}"#,
        )
        .unwrap();
        fs::write(dir.join("broken.json"), "{\"id\": \"broken\",\n  oops}").unwrap();
        fs::write(dir.join("notes.txt"), "not a plan").unwrap();
        let list = list_plans(&dir).unwrap();
        assert_eq!(list.len(), 2);
        let broken = list.iter().find(|p| p.id == "broken").unwrap();
        let error = broken.error.as_ref().unwrap();
        assert_eq!(error.code, ErrorCode::InvalidJson);
        assert!(error.message.contains("broken.json"), "{}", error.message);
        assert!(error.message.contains("line 2"), "{}", error.message);
        let good = list.iter().find(|p| p.id == "good").unwrap();
        assert_eq!((good.states, good.error.is_none()), (1, true));
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn an_id_that_is_not_a_slug_cannot_reach_outside_the_folder() {
        let dir = temp_dir("slug");
        let err = load_plan(&dir, "../../etc/passwd").unwrap_err();
        assert_eq!(IpcError::from(&err).code, ErrorCode::BadId);
        let err = load_plan(&dir, "missing").unwrap_err();
        assert_eq!(IpcError::from(&err).code, ErrorCode::NotFound);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_unread() {
        let dir = temp_dir("big");
        let path = dir.join("big.json");
        let file = fs::File::create(&path).unwrap();
        file.set_len(MAX_PLAN_BYTES + 1).unwrap();
        let err = read_plan(&path).unwrap_err();
        assert!(matches!(err, FileError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("big.json"));
        fs::remove_dir_all(dir).unwrap();
    }
}
