//! The draft the app saved last, kept as the plan it is: a publish of the plan the author has
//! just edited then needs no second reading of `draft.json` (at 5,000 states, reading and parsing
//! it again was half of a publish: 62 ms against 28 ms, `cargo bench -p plan-cli --bench store`).
//! It is used only while the file is still exactly what the app wrote (same identity: inode,
//! length, modification time); otherwise the draft is read from disk. The page's next save can
//! then send only what changed since this one (named by the page's token for it).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use plan_core::Plan;

use crate::seen_files::Identity;

/// One draft: the open plan's (the app saves one plan at a time).
#[derive(Default)]
pub struct SavedDraft(Mutex<Option<Kept>>);

struct Kept {
    path: PathBuf,
    identity: Identity,
    plan: Arc<Plan>,
    /// The page's name for the save that wrote it.
    token: Option<u64>,
}

impl SavedDraft {
    /// Keeps `plan` as what `path` holds now (just written by the app, by the save `token`).
    pub fn keep(&self, path: &Path, plan: Plan, token: Option<u64>) {
        if let (Some(identity), Ok(mut held)) = (Identity::of(path), self.0.lock()) {
            *held = Some(Kept {
                path: path.to_path_buf(),
                identity,
                plan: Arc::new(plan),
                token,
            });
        }
    }

    /// The plan `path` holds, when it is still the one kept.
    pub fn current(&self, path: &Path) -> Option<Arc<Plan>> {
        let held = self.0.lock().ok()?;
        let kept = held.as_ref()?;
        (kept.path == path && Identity::of(path).as_ref() == Some(&kept.identity))
            .then(|| Arc::clone(&kept.plan))
    }

    /// The plan `path` holds, when it is still the one the save `token` wrote.
    pub fn saved_by(&self, path: &Path, token: u64) -> Option<Arc<Plan>> {
        let current = self.current(path)?;
        let held = self.0.lock().ok()?;
        (held.as_ref()?.token == Some(token)).then_some(current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_draft_stands_only_while_the_file_is_the_one_written() {
        let dir = std::env::temp_dir().join(format!("held-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("draft.json");
        let plan = plan_core::synthetic::plan(3);
        std::fs::write(&path, serde_json::to_vec(&plan).unwrap()).unwrap();
        let held = SavedDraft::default();
        assert!(held.current(&path).is_none(), "nothing kept yet");
        held.keep(&path, plan.clone(), Some(7));
        assert_eq!(held.current(&path).as_deref(), Some(&plan));
        assert_eq!(held.saved_by(&path, 7).as_deref(), Some(&plan));
        assert!(held.saved_by(&path, 8).is_none(), "another save's draft");
        assert!(held.current(&dir.join("other.json")).is_none());
        // Another program replaces the file: the kept plan is no longer what it holds.
        let other = dir.join("other.json");
        std::fs::write(&other, "{}").unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert!(held.current(&path).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
