//! Test conversations in the workspace: sessions saved after every turn in `<plan>/sessions/`,
//! and saved test cases in `<plan>/tests/`.
//!
//! Sessions are written atomically but without the plan's lock: a test chat reads the plan and
//! writes only its own session file, so it never blocks an author editing the draft.

use std::fs;
use std::path::PathBuf;

use super::{atomic, io, Result, Revision, StoreError, Workspace};
use crate::plan::Plan;
use crate::runtime::{PlanVersion, Session, Start, Turn};

/// What is kept beside a saved session (`sessions/.log/<name>.json`): how it began, every turn
/// (with its trace), the sessions before the latest turns (newest last), so that a turn can be
/// taken back after a restart.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct ChatLog {
    /// How the conversation began (a state, values already known).
    #[serde(default)]
    pub start: Start,
    /// Every turn so far, the opening first.
    #[serde(default)]
    pub turns: Vec<Turn>,
    /// The sessions the latest turns started from, oldest first.
    #[serde(default)]
    pub before: Vec<Session>,
    /// The run hash of the plan the session runs (none in logs written before it was kept).
    #[serde(default)]
    pub runs: Option<String>,
}

impl ChatLog {
    /// The log as far as `session` goes: what a turn saved after its log but not its session (a
    /// kill, a full disk in between) left ahead of it is dropped, so that the last turn is in
    /// both or in neither. A turn writes its log first and a step back its session first, so
    /// whatever an interruption leaves, it is the log that is ahead, never behind.
    pub fn as_far_as(mut self, session: &Session) -> ChatLog {
        self.turns.retain(|t| t.number <= session.turn);
        self.before.retain(|b| b.turn < session.turn);
        self
    }
}

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

    fn sessions_dir(&self, id: &str) -> Result<PathBuf> {
        Ok(self.existing(id)?.join("sessions"))
    }

    fn session_path(&self, id: &str, name: &str) -> Result<PathBuf> {
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

    /// Saves a session (atomically, durably) as `sessions/<name>.json`.
    pub fn save_session(&self, id: &str, name: &str, session: &Session) -> Result<()> {
        let path = self.session_path(id, name)?;
        let dir = self.sessions_dir(id)?;
        fs::create_dir_all(&dir).map_err(io(&dir))?;
        atomic::remove_leftovers(&dir);
        let bytes = super::to_json(session);
        atomic::write(&path, &bytes, false).map_err(io(&path))
    }

    /// Where session `name`'s log is kept: `sessions/.log/<name>.json` (hidden, so not a session).
    pub fn session_log_path(&self, id: &str, name: &str) -> Result<PathBuf> {
        let session = self.session_path(id, name)?;
        let path = self.sessions_dir(id)?.join(".log").join(
            session
                .file_name()
                .map(|n| n.to_os_string())
                .unwrap_or_default(),
        );
        self.contained(&path)?;
        Ok(path)
    }

    /// Saves the log kept beside session `name` (the trace of every turn, the sessions before the
    /// latest ones), atomically.
    pub fn save_session_log(&self, id: &str, name: &str, log: &ChatLog) -> Result<()> {
        let path = self.session_log_path(id, name)?;
        let dir = path.parent().map(PathBuf::from).unwrap_or_default();
        fs::create_dir_all(&dir).map_err(io(&dir))?;
        atomic::remove_leftovers(&dir);
        let bytes = serde_json::to_vec(log).map_err(|e| io(&path)(std::io::Error::other(e)))?;
        atomic::write(&path, &bytes, false).map_err(io(&path))
    }

    /// The log kept beside session `name`: none yet is an empty history (a session written before
    /// logs were kept); one that cannot be read is an error that names the file, never a history
    /// silently lost.
    pub fn read_session_log(&self, id: &str, name: &str) -> Result<ChatLog> {
        let path = self.session_log_path(id, name)?;
        if !path.is_file() {
            return Ok(ChatLog::default());
        }
        let text = crate::files::read_text(&path)?;
        serde_json::from_str(&text).map_err(|e| StoreError::BadLog {
            path,
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })
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

    /// The saved session `name` of plan `id`.
    pub fn read_session(&self, id: &str, name: &str) -> Result<Session> {
        let path = self.session_path(id, name)?;
        if !path.is_file() {
            return Err(StoreError::NoSession {
                id: id.to_string(),
                name: name.to_string(),
            });
        }
        let text = crate::files::read_text(&path)?;
        serde_json::from_str(&text).map_err(|e| StoreError::BadSession {
            path,
            message: format!("line {}, column {}: {e}", e.line(), e.column()),
        })
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
fn json_names(dir: &std::path::Path) -> Vec<String> {
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
