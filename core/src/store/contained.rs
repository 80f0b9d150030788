//! Every path the store reads or writes stays inside the workspace once links are resolved
//! (`docs/store.md`: a path outside the workspace is refused, nothing changed). A link inside the
//! workspace may lead elsewhere inside it; one that leads outside it, or nowhere, is refused with
//! its path and where it leads. The workspace's own folder may be a link: it is where the
//! workspace is.
//!
//! Links are checked where they can be met: each folder and file on the way from the workspace's
//! root to the path (a plan's folder, its `versions/`, `history/`, `tests/`, `sessions/`, its
//! draft, live marker and lock, the trash), at the moment the store is about to use them. A
//! rename over a link replaces the link and never writes through it, so a new file the store
//! makes never leaves; reads and folders are what follow links, and those are checked.

use std::fs;
use std::path::{Path, PathBuf};

use super::{Result, StoreError, Workspace};

/// What a plan's folder holds directly, each of which could be a link: checked whenever the
/// folder is used.
const PLAN_ENTRIES: [&str; 9] = [
    "draft.json",
    "live.json",
    ".lock",
    "versions",
    "history",
    "tests",
    "sessions",
    "personas",
    "runs",
];

impl Workspace {
    /// Refuses `path` (inside the workspace as written) when a link on the way to it leads
    /// outside the workspace or nowhere. Parts of the path that do not exist yet are fine: the
    /// store makes them where the existing part is, inside. A path that is not under the
    /// workspace's folder at all (a file to import) is not the workspace's to check.
    pub(super) fn contained(&self, path: &Path) -> Result<()> {
        let Ok(rel) = path.strip_prefix(&self.root) else {
            return Ok(());
        };
        // A workspace not made yet has nothing inside it to lead anywhere.
        let Ok(root) = fs::canonicalize(&self.root) else {
            return Ok(());
        };
        let mut at = self.root.clone();
        for part in rel.components() {
            at.push(part);
            if !self.leads_inside(&root, &at)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Plan folder `dir` (`<root>/<id>`) and what it holds directly, checked as [`Self::contained`].
    pub(super) fn contained_plan(&self, dir: &Path) -> Result<()> {
        self.contained(dir)?;
        let Ok(root) = fs::canonicalize(&self.root) else {
            return Ok(());
        };
        for entry in PLAN_ENTRIES {
            self.leads_inside(&root, &dir.join(entry))?;
        }
        Ok(())
    }

    /// Whether `at` exists (false: nothing below it exists either), refusing it when it is a link
    /// that leads outside `root` (the workspace's folder, resolved) or to nothing.
    fn leads_inside(&self, root: &Path, at: &Path) -> Result<bool> {
        let Ok(meta) = fs::symlink_metadata(at) else {
            return Ok(false);
        };
        if !meta.file_type().is_symlink() {
            return Ok(true);
        }
        match fs::canonicalize(at) {
            Ok(target) if target.starts_with(root) => Ok(true),
            Ok(target) => Err(self.outside(at, Some(target))),
            Err(_) => Err(self.outside(at, fs::read_link(at).ok())),
        }
    }

    fn outside(&self, path: &Path, target: Option<PathBuf>) -> StoreError {
        StoreError::Outside {
            path: path.to_path_buf(),
            target,
            root: self.root.clone(),
        }
    }
}
