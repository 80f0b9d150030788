//! The workspace store: plans on disk as `docs/store.md` lays them out, shared by the app and the
//! CLI.
//!
//! ```text
//! <workspace>/<plan id>/
//!     draft.json      the editable draft
//!     versions/N.json immutable, read-only, verified by content hash on every read
//!     live.json       {"version": N, "set_at": "…"}
//!     history/        drafts replaced by import or reopen
//!     tests/ sessions/
//! <workspace>/.trash/ deleted plans
//! ```
//!
//! Every write is atomic and durable ([`atomic`]) and made under the plan's lock ([`lock`]); any
//! failure leaves what was on disk as it was. Time comes in as an RFC 3339 string: the store has
//! no clock of its own.

pub mod atomic;
mod chat_log;
mod contained;
mod conversations;
mod draft_file;
mod error;
pub mod lock;
pub mod pretty;
mod samples;
mod saved_chat;
mod simulations;
mod trash;
mod undo;
mod versions;

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::parse::{is_slug, plan_from_value, ParseProblem, ProblemKind};
use crate::plan::Plan;
pub use crate::revision::{Revision, VersionInfo};
pub use chat_log::ChatLog;
pub use conversations::is_session_name;
use draft_file::a_file_or_nothing;
pub use draft_file::{draft_bytes, read_import};
pub use error::StoreError;
pub use saved_chat::AuthorChange;
pub use versions::version_renumbered;

/// What a writer of drafts besides this store knows: the editor's shell, which remembers each
/// draft as it last read or wrote it. `()` is the guard of a caller with nothing to protect.
pub trait DraftGuard {
    /// Whether another program changed the draft at `path` since the caller last read or wrote it;
    /// asked with the new draft ready beside it, just before it takes the old one's place.
    fn changed_by_another(&self, _path: &Path) -> bool {
        false
    }

    /// The draft at `path` is now the file the store wrote, whose metadata (taken before the
    /// rename, which keeps its inode and modification time) is `written`. Taken afterwards, a
    /// program writing the file between the rename and the look would pass for the store's own
    /// save, and its change would go unseen: an end-to-end test caught that once in many runs.
    fn wrote(&self, _path: &Path, _written: &fs::Metadata) {}
}

impl DraftGuard for () {}
use lock::PlanLock;

type Result<T> = std::result::Result<T, StoreError>;

/// A published version as stored in `versions/N.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Version {
    /// Its number: 1, 2, … in the order published.
    pub version: u32,
    /// When it was published (RFC 3339).
    pub published_at: String,
    /// What it changes, in the author's words (may be empty).
    pub note: String,
    /// The sha256 of the plan's canonical JSON, checked when the version is read.
    pub content_hash: String,
    /// The version that was newest when this one was published.
    pub based_on: Option<u32>,
    /// The plan, as published.
    pub plan: Plan,
}

/// A version's details without its plan.
struct VersionHead {
    version: u32,
    published_at: String,
    note: String,
    content_hash: String,
    based_on: Option<u32>,
}

/// `live.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Live {
    /// The live version's number.
    pub version: u32,
    /// When it was set live (RFC 3339).
    pub set_at: String,
}

/// A draft replaced by an import or a reopen, and where the one it replaced was kept.
#[derive(Debug, Clone, PartialEq)]
pub struct Replaced {
    /// The plan that replaced the draft.
    pub plan: Plan,
    /// The replaced draft's copy in `history/`; none when the plan had no draft yet.
    pub kept: Option<PathBuf>,
}

/// A plan in the workspace's trash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trashed {
    /// Its folder's name in `.trash/` (`<id>-<time>`), which names it for a restore.
    pub entry: String,
    /// The id it had.
    pub id: String,
    /// When it was deleted (RFC 3339).
    pub deleted_at: String,
}

/// The ids of the sample plans (the repository's `plans/`, built into the program).
pub fn sample_ids() -> impl Iterator<Item = &'static str> {
    samples::SAMPLES.iter().map(|(id, _)| *id)
}

/// Sample plan `id`, read from the copy built into the program.
pub fn sample_plan(id: &str) -> Result<Plan> {
    let (_, text) = samples::SAMPLES
        .iter()
        .find(|(sample, _)| *sample == id)
        .ok_or_else(|| StoreError::NotFound { id: id.to_string() })?;
    let path = || PathBuf::from(format!("plans/{id}.json"));
    let doc: serde_json::Value = serde_json::from_str(text).map_err(|e| StoreError::Invalid {
        path: path(),
        problems: vec![ParseProblem {
            kind: ProblemKind::InvalidJson,
            pointer: String::new(),
            line_column: Some((e.line(), e.column())),
            message: e.to_string(),
        }],
    })?;
    plan_from_value(&doc).map_err(|problems| StoreError::Invalid {
        path: path(),
        problems,
    })
}

/// A folder of plans. Cloning it copies its path.
#[derive(Debug, Clone)]
pub struct Workspace {
    root: PathBuf,
}

/// `secs` since the Unix epoch as RFC 3339 in UTC (`2026-11-30T12:00:00Z`), the form the store
/// records times in. Callers pass the clock in; the store has none.
pub fn timestamp(secs: i64) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The default workspace: `$XDG_DATA_HOME/plan-builder/plans`, else
/// `~/.local/share/plan-builder/plans`.
pub fn default_root() -> Option<PathBuf> {
    if let Some(data) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(data).join("plan-builder/plans"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/plan-builder/plans"))
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Removes what killed writers left in plan folder `dir` and its folders, the first time this
/// process uses the plan: so the next command of any kind on a plan cleans up after a `plan`
/// that was killed (a command is a process), and the app does so once per plan it opens. Once,
/// because listing 500 versions would otherwise read every folder 500 times.
fn sweep_once(dir: &Path) {
    static SWEPT: std::sync::Mutex<std::collections::BTreeSet<PathBuf>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let first = SWEPT
        .lock()
        .map(|mut swept| swept.insert(dir.to_path_buf()))
        .unwrap_or(false);
    if first {
        for sub in [
            "",
            "versions",
            "history",
            "tests",
            "sessions",
            "sessions/.log",
        ] {
            atomic::remove_dead_leftovers(&dir.join(sub));
        }
    }
}

/// A time as it can stand in a file name on every platform (no ':').
fn file_stamp(now: &str) -> String {
    now.replace(':', "-")
}

fn to_json(value: &impl Serialize) -> Vec<u8> {
    pretty::to_vec(value, 64 * 1024)
}

impl Workspace {
    /// Opens the workspace at `root`; a folder that does not exist yet is created and seeded with
    /// the sample plans.
    pub fn open(root: &Path, now: &str) -> Result<Workspace> {
        let ws = Workspace::at(root);
        let root = ws.root.as_path();
        if !root.exists() {
            fs::create_dir_all(root).map_err(io(root))?;
            for id in sample_ids() {
                ws.create(id, sample_plan(id)?, now)?;
            }
            for (id, name, text) in samples::SAMPLE_TESTS {
                ws.seed_test(id, name, text)?;
            }
            for (id, name, text) in samples::SAMPLE_PERSONAS {
                let dir = ws.plan_dir(id)?.join("personas");
                fs::create_dir_all(&dir).map_err(io(&dir))?;
                let path = dir.join(format!("{name}.json"));
                atomic::write(&path, text.as_bytes(), false).map_err(io(&path))?;
            }
        }
        Ok(ws)
    }

    /// Writes a sample test case into plan `id`'s `tests/`; its `"plan"` field, which points
    /// from the repository's `plans/tests/` to the plan file, is dropped: in a workspace the test
    /// runs against the plan whose folder holds it.
    fn seed_test(&self, id: &str, name: &str, text: &str) -> Result<()> {
        let path = self
            .plan_dir(id)?
            .join("tests")
            .join(format!("{name}.json"));
        let mut script: crate::runtime::script::Script =
            serde_json::from_str(text).map_err(|e| StoreError::Io {
                path: PathBuf::from(format!("plans/tests/{id}/{name}.json")),
                source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
            })?;
        script.plan = None;
        atomic::write(&path, &to_json(&script), false).map_err(io(&path))
    }

    /// The folder the workspace lives in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The workspace at `root`, as it is: nothing is created or seeded (for a second handle on a
    /// workspace already opened).
    pub fn at(root: &Path) -> Workspace {
        // Absolute, so that a path is found inside it whichever way it was written.
        let root = std::path::absolute(root).unwrap_or_else(|_| root.to_path_buf());
        Workspace { root }
    }

    /// The folder of plan `id`; refuses ids that are not slugs, so no id reaches outside, and a
    /// folder (or what it holds) that is a link leading outside the workspace.
    pub fn plan_dir(&self, id: &str) -> Result<PathBuf> {
        if !is_slug(id) {
            return Err(StoreError::BadId { id: id.to_string() });
        }
        let dir = self.root.join(id);
        self.contained_plan(&dir)?;
        Ok(dir)
    }

    /// Where plan `id`'s draft is (`<root>/<id>/draft.json`), whether or not it exists; an id that
    /// is not a slug is refused, as by every other method. For callers that watch or stat the
    /// file; reads and writes go through the methods below.
    pub fn draft_path(&self, id: &str) -> Result<PathBuf> {
        Ok(self.plan_dir(id)?.join("draft.json"))
    }

    /// The folder of plan `id`, which must have a draft. A `draft.json` that is not a file (a
    /// folder) still makes a plan: listed, its versions readable, its draft refused by name.
    fn existing(&self, id: &str) -> Result<PathBuf> {
        let dir = self.plan_dir(id)?;
        if fs::symlink_metadata(dir.join("draft.json")).is_ok() {
            sweep_once(&dir);
            Ok(dir)
        } else {
            Err(StoreError::NotFound { id: id.to_string() })
        }
    }

    /// The ids of the plans in the workspace: folders with a slug name and a draft.
    pub fn plan_ids(&self) -> Result<Vec<String>> {
        let mut ids = Vec::new();
        for entry in fs::read_dir(&self.root).map_err(io(&self.root))?.flatten() {
            let id = entry.file_name().to_string_lossy().into_owned();
            let draft = entry.path().join("draft.json");
            if is_slug(&id) && fs::symlink_metadata(&draft).is_ok() {
                ids.push(id);
            }
        }
        Ok(ids)
    }

    /// Creates plan `id` with `plan` as its draft (its id set to `id`).
    pub fn create(&self, id: &str, mut plan: Plan, _now: &str) -> Result<()> {
        let dir = self.plan_dir(id)?;
        if dir.join("draft.json").exists() {
            return Err(StoreError::Exists { id: id.to_string() });
        }
        plan.id = id.to_string();
        // Refused before anything is made: a plan that could not be read back leaves no folder.
        let path = dir.join("draft.json");
        let bytes = draft_bytes(&path, &plan, 64 * 1024)?;
        for sub in ["versions", "history", "tests", "sessions"] {
            fs::create_dir_all(dir.join(sub)).map_err(io(&dir))?;
        }
        let _lock = PlanLock::take(&dir, id)?;
        atomic::write(&path, &bytes, false).map_err(io(&dir))
    }

    /// The plan a path inside the workspace belongs to (`<root>/<id>/…`), read from the path
    /// alone (the file may be gone already, as a deleted plan's are); none for hidden files
    /// (temporary and lock files), the trash, and paths elsewhere. A relative path is taken from
    /// the current folder. The one answer to "which plan holds this path", for the watcher and
    /// for test files alike.
    pub fn plan_of_path(&self, path: &Path) -> Option<String> {
        let path = std::path::absolute(path).ok()?;
        let rel = path.strip_prefix(&self.root).ok()?;
        let id = rel.components().next()?.as_os_str().to_str()?;
        let name = path.file_name()?.to_str()?;
        (is_slug(id) && !name.starts_with('.')).then(|| id.to_string())
    }

    /// The plan whose draft, live marker or versions `path` is: what the app shows of a plan.
    /// Its sessions, test cases and history are not (a test chat writes its session after every
    /// turn; each was read as a change of the plan, and the plan read again).
    pub fn document_of_path(&self, path: &Path) -> Option<String> {
        let id = self.plan_of_path(path)?;
        let path = std::path::absolute(path).ok()?;
        let inside = path.strip_prefix(self.root.join(&id)).ok()?;
        // The plan's folder itself: it came or went (moved in, or away to the trash).
        let Some(first) = inside.components().next() else {
            return Some(id);
        };
        let first = first.as_os_str().to_str()?;
        matches!(first, "draft.json" | "live.json" | "versions").then_some(id)
    }

    /// The workspace and plan whose folder holds `path`, wherever that workspace is: the nearest
    /// folder above `path` that is a plan's (a slug name, with a draft).
    pub fn holding(path: &Path) -> Option<(Workspace, String)> {
        let path = std::path::absolute(path).ok()?;
        let dir = path
            .ancestors()
            .skip(1)
            .find(|dir| dir.join("draft.json").is_file())?;
        let ws = Workspace::at(dir.parent()?);
        let id = ws.plan_of_path(&path)?;
        Some((ws, id))
    }

    /// When plan `id` last changed on disk: its draft, its live version or its versions, in
    /// seconds since the Unix epoch; none when that cannot be read.
    pub fn changed_at(&self, id: &str) -> Option<i64> {
        let dir = self.plan_dir(id).ok()?;
        ["draft.json", "live.json", "versions"]
            .iter()
            .filter_map(|name| fs::metadata(dir.join(name)).ok()?.modified().ok())
            .max()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_secs() as i64)
    }

    /// The draft of plan `id`, read as work in progress: a draft the editor saved between two steps
    /// (an enum key not yet given values) opens, and validation reports what is still missing.
    pub fn read_draft(&self, id: &str) -> Result<Plan> {
        let dir = self.existing(id)?;
        Ok(crate::files::read_draft(&dir.join("draft.json"))?)
    }

    /// Replaces the draft (the editor's autosave).
    pub fn save_draft(&self, id: &str, plan: &Plan) -> Result<()> {
        self.save_draft_unless(id, plan, &()).map(drop)
    }

    /// Replaces the draft unless `guard` says the file on disk is no longer the one the caller
    /// last read; then nothing is replaced and the answer is `false`. It is asked last, once the
    /// new draft is written and flushed beside the old one, so that only the rename is left
    /// between the check and the replacement (asked first, a change made while the draft was
    /// written and flushed was silently written over). Once in place, the guard is told what the
    /// file it wrote looks like, as measured before the rename (see [`DraftGuard::wrote`]).
    pub fn save_draft_unless(
        &self,
        id: &str,
        plan: &Plan,
        guard: &impl DraftGuard,
    ) -> Result<bool> {
        let dir = self.existing(id)?;
        let _lock = PlanLock::take(&dir, id)?;
        atomic::remove_leftovers(&dir);
        a_file_or_nothing(&dir.join("draft.json"))?;
        // The new draft is about as large as the old one: size the buffer once.
        let hint =
            fs::metadata(dir.join("draft.json")).map_or(64 * 1024, |m| m.len() as usize + 4096);
        let path = dir.join("draft.json");
        let bytes = if plan.id == id {
            draft_bytes(&path, plan, hint)?
        } else {
            let mut renamed = plan.clone();
            renamed.id = id.to_string();
            draft_bytes(&path, &renamed, hint)?
        };
        let prepared = atomic::prepare(&path, &bytes, false).map_err(io(&dir))?;
        let written = prepared.metadata().map_err(io(&dir))?;
        if guard.changed_by_another(&path) {
            return Ok(false);
        }
        prepared.commit().map_err(io(&dir))?;
        guard.wrote(&path, &written);
        Ok(true)
    }

    /// Replaces the draft of `id` (created if new) from a file in this project's format or the
    /// flow export format; the replaced draft goes to `history/` first. Versions are not touched.
    pub fn import(&self, id: &str, file: &Path, now: &str) -> Result<Replaced> {
        let dir = self.plan_dir(id)?;
        let mut plan = read_import(file, id)?;
        plan.id = id.to_string();
        if !dir.join("draft.json").exists() {
            self.create(id, plan.clone(), now)?;
            return Ok(Replaced { plan, kept: None });
        }
        let _lock = PlanLock::take(&dir, id)?;
        atomic::remove_leftovers(&dir);
        let bytes = draft_bytes(&dir.join("draft.json"), &plan, 64 * 1024)?;
        let kept = self.replace_draft(&dir, "import", now, &bytes)?;
        Ok(Replaced { plan, kept })
    }

    /// Replaces the draft in plan folder `dir` with `bytes`, its old draft kept in `history/`
    /// first (named for `why`); answers where. When the new draft cannot be written (a full
    /// disk), the copy goes again: a refused replacement leaves `history/` as it was.
    pub(super) fn replace_draft(
        &self,
        dir: &Path,
        why: &str,
        now: &str,
        bytes: &[u8],
    ) -> Result<Option<PathBuf>> {
        a_file_or_nothing(&dir.join("draft.json"))?;
        let kept = self.keep_in_history(dir, why, now)?;
        if let Err(e) = atomic::write(&dir.join("draft.json"), bytes, false) {
            if let Some(copy) = &kept {
                let _ = fs::remove_file(copy);
            }
            return Err(io(dir)(e));
        }
        Ok(kept)
    }

    /// Copies the current draft into `history/` (whatever it holds, even if it does not parse);
    /// returns the copy's path, none when there was no draft.
    fn keep_in_history(&self, dir: &Path, why: &str, now: &str) -> Result<Option<PathBuf>> {
        let draft = dir.join("draft.json");
        let Ok(bytes) = fs::read(&draft) else {
            return Ok(None);
        };
        let history = dir.join("history");
        fs::create_dir_all(&history).map_err(io(&history))?;
        let stamp = file_stamp(now);
        let mut n = 0;
        let path = loop {
            let name = if n == 0 {
                format!("{stamp}-{why}.json")
            } else {
                format!("{stamp}-{why}-{n}.json")
            };
            let p = history.join(name);
            if !p.exists() {
                break p;
            }
            n += 1;
        };
        atomic::write(&path, &bytes, false).map_err(io(&history))?;
        Ok(Some(path))
    }
    /// The plan document `revision` of plan `id`.
    pub fn export(&self, id: &str, revision: Revision) -> Result<Plan> {
        match revision {
            Revision::Draft => self.read_draft(id),
            Revision::Version(n) => Ok(self.read_version(id, n)?.plan),
            Revision::Live => {
                let live = self
                    .live(id)?
                    .ok_or_else(|| StoreError::NoLive { id: id.to_string() })?;
                Ok(self.read_version(id, live.version)?.plan)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Workspace;

    #[test]
    fn a_draft_changed_while_a_save_is_written_is_not_replaced() {
        // Regression (issue 6, a CI run of session 8): the app checked for another program's
        // change before writing and flushing its save, and a file broken on disk meanwhile was
        // written over. The check now comes last, just before the rename.
        let root = std::env::temp_dir().join(format!("plan-save-unless-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let ws = Workspace::at(&root);
        let mut plan = crate::synthetic::plan(3);
        plan.id = "p".into();
        ws.create("p", plan.clone(), "2026-01-01T00:00:00Z")
            .unwrap();
        let broken = "{ oops }\n";
        let saved = ws
            .save_draft_unless("p", &plan, &AnotherWrites(broken))
            .unwrap();
        assert!(!saved);
        let dir = root.join("p");
        assert_eq!(
            std::fs::read_to_string(dir.join("draft.json")).unwrap(),
            broken
        );
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(super::atomic::TEMP_PREFIX))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        assert!(ws.save_draft_unless("p", &plan, &()).unwrap());
        assert_eq!(ws.read_draft("p").unwrap(), plan);
        let _ = std::fs::remove_dir_all(&root);
    }

    /// A guard under which another program writes `0` over the draft as the save is about to
    /// replace it.
    struct AnotherWrites(&'static str);

    impl super::DraftGuard for AnotherWrites {
        fn changed_by_another(&self, path: &std::path::Path) -> bool {
            std::fs::write(path, self.0).unwrap();
            true
        }
    }

    #[test]
    fn timestamps_are_rfc3339_in_utc() {
        assert_eq!(super::timestamp(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::timestamp(1_798_633_442), "2026-12-30T12:24:02Z");
        assert_eq!(super::timestamp(951_782_400), "2000-02-29T00:00:00Z");
    }
}
