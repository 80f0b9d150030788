//! Test conversations in the workspace: sessions saved after every turn in `<plan>/sessions/`
//! (the session and its log: [`super::saved_chat`]), and saved test cases in `<plan>/tests/`.
//!
//! Sessions are written atomically but without the plan's lock: a test chat reads the plan and
//! writes only its own session file, so it never blocks an author editing the draft.

use std::fs;
use std::path::PathBuf;

use super::{atomic, io, Result, Revision, StoreError, Workspace};
use crate::plan::Plan;
use crate::runtime::PlanVersion;

/// Whether `name` can name a session file: letters, digits, `-`, `_`, `.`, not starting with a
/// dot, at most 100 characters (so no name reaches outside `sessions/`).
pub fn is_session_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && name.len() <= 100
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !name.contains("..")
}

impl Workspace {
    /// The plan document `revision` of plan `id`, and how a session names it. `None` means the live
    /// version when there is one, else the draft: what new sessions run by default.
    pub fn plan_to_run(&self, id: &str, revision: Option<Revision>) -> Result<(Plan, PlanVersion)> {
        let revision = match revision {
            Some(r) => r,
            None if self.live(id)?.is_some() => Revision::Live,
            None => Revision::Draft,
        };
        match revision {
            Revision::Draft => Ok((self.read_draft(id)?, PlanVersion::Draft)),
            Revision::Version(n) => Ok((self.read_version(id, n)?.plan, PlanVersion::Number(n))),
            Revision::Live => {
                let live = self
                    .live(id)?
                    .ok_or_else(|| StoreError::NoLive { id: id.to_string() })?;
                let plan = self.read_version(id, live.version)?.plan;
                Ok((plan, PlanVersion::Number(live.version)))
            }
        }
    }

    /// The file that [`Workspace::plan_to_run`] reads for `revision` (resolved the same way),
    /// for a caller that keeps what it read and reads again only when the file changed.
    pub fn document_file(
        &self,
        id: &str,
        revision: Option<Revision>,
    ) -> Result<(PathBuf, PlanVersion)> {
        let dir = self.existing(id)?;
        let revision = match revision {
            Some(r) => r,
            None if self.live(id)?.is_some() => Revision::Live,
            None => Revision::Draft,
        };
        let version = |n: u32| {
            (
                dir.join(format!("versions/{n}.json")),
                PlanVersion::Number(n),
            )
        };
        Ok(match revision {
            Revision::Draft => (dir.join("draft.json"), PlanVersion::Draft),
            Revision::Version(n) => version(n),
            Revision::Live => {
                let live = self
                    .live(id)?
                    .ok_or_else(|| StoreError::NoLive { id: id.to_string() })?;
                version(live.version)
            }
        })
    }

    pub(super) fn sessions_dir(&self, id: &str) -> Result<PathBuf> {
        Ok(self.existing(id)?.join("sessions"))
    }

    pub(super) fn session_path(&self, id: &str, name: &str) -> Result<PathBuf> {
        if !is_session_name(name) {
            return Err(StoreError::BadSession {
                path: PathBuf::from(name),
                message: "not a session name: use letters, digits, '-', '_' and '.'".into(),
            });
        }
        let path = self.sessions_dir(id)?.join(format!("{name}.json"));
        self.contained(&path)?;
        Ok(path)
    }

    /// A name for a new session of plan `id` started at `now`, not used yet.
    pub fn new_session_name(&self, id: &str, now: &str) -> Result<String> {
        let dir = self.sessions_dir(id)?;
        let stamp: String = now.chars().filter(|c| c.is_ascii_digit()).collect();
        let stamp = match stamp.len() {
            14.. => format!("{}-{}", &stamp[..8], &stamp[8..14]),
            _ => "session".to_string(),
        };
        let mut n = 1;
        let mut name = stamp.clone();
        while dir.join(format!("{name}.json")).exists() {
            n += 1;
            name = format!("{stamp}-{n}");
        }
        Ok(name)
    }

    /// Where session `name`'s log is kept: `sessions/.log/<name>.jsonl` (hidden, so not a
    /// session); with `.json`, where the earlier format kept it.
    pub fn session_log_path(&self, id: &str, name: &str) -> Result<PathBuf> {
        self.log_file(id, name, "jsonl")
    }

    pub(super) fn log_file(&self, id: &str, name: &str, extension: &str) -> Result<PathBuf> {
        self.session_path(id, name)?;
        let path = self
            .sessions_dir(id)?
            .join(".log")
            .join(format!("{name}.{extension}"));
        self.contained(&path)?;
        Ok(path)
    }

    /// Writes test case `name` of plan `id` (`tests/<name>.json`); one of that name stays.
    pub fn save_test_case(
        &self,
        id: &str,
        name: &str,
        script: &crate::runtime::script::Script,
    ) -> Result<PathBuf> {
        if !is_session_name(name) {
            return Err(StoreError::BadCaseName {
                name: name.to_string(),
            });
        }
        let dir = self.existing(id)?.join("tests");
        fs::create_dir_all(&dir).map_err(io(&dir))?;
        let path = dir.join(format!("{name}.json"));
        if path.exists() {
            return Err(StoreError::Exists {
                id: format!("{id}/tests/{name}"),
            });
        }
        atomic::write(&path, &super::to_json(script), false).map_err(io(&path))?;
        Ok(path)
    }

    /// The names of the saved sessions of plan `id`, sorted.
    pub fn sessions(&self, id: &str) -> Result<Vec<String>> {
        Ok(json_names(&self.sessions_dir(id)?))
    }

    /// The test case files of plan `id` (`tests/*.json`), sorted by name.
    pub fn test_cases(&self, id: &str) -> Result<Vec<PathBuf>> {
        let dir = self.existing(id)?.join("tests");
        let cases: Vec<PathBuf> = json_names(&dir)
            .into_iter()
            .map(|n| dir.join(format!("{n}.json")))
            .collect();
        for case in &cases {
            self.contained(case)?;
        }
        Ok(cases)
    }
}

/// The stems of the `*.json` files of `dir` that are not hidden, sorted; none if it is missing.
pub(super) fn json_names(dir: &std::path::Path) -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".json")?;
            (!name.starts_with('.') && e.path().is_file()).then(|| stem.to_string())
        })
        .collect();
    out.sort();
    out
}
