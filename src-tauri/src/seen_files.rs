//! What the app last knew of each draft on disk: the identity (inode, length, modification
//! time) of the file as it last read or wrote it. Two uses:
//!
//! - the watcher leaves out changes to a file that is still exactly what the app knew, above all
//!   its own autosaves (each of those made the page load and parse the whole plan again, which at
//!   5,000 states held up typing for a few hundred milliseconds after every save);
//! - an autosave is refused when the file changed since the app knew it: another program wrote
//!   it between the app's last read and this save, and writing over it would lose that change
//!   without a word. The watcher brings the change to the author, who chooses (issue 6).
//!
//! Any other writer's change gives the file another identity (an atomic rename a new inode; an
//! in-place write a new modification time or length).

use std::collections::HashMap;
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

#[derive(Default)]
pub struct SeenFiles(Mutex<HashMap<PathBuf, Identity>>);

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Identity {
    inode: u64,
    len: u64,
    modified: Option<SystemTime>,
}

impl Identity {
    /// The file's identity now; none when it cannot be read.
    pub fn of(path: &Path) -> Option<Identity> {
        std::fs::metadata(path).ok().map(|m| Identity::from(&m))
    }

    fn from(m: &Metadata) -> Identity {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(m);
        #[cfg(not(unix))]
        let inode = 0;
        Identity {
            inode,
            len: m.len(),
            modified: m.modified().ok(),
        }
    }
}

impl SeenFiles {
    /// Records `path` as just written by the app.
    pub fn wrote(&self, path: &Path) {
        if let Some(id) = Identity::of(path) {
            self.read(path, id);
        }
    }

    /// Records `path` as read by the app when it had identity `id` (taken before reading, so
    /// that a write during the read shows as a change afterwards).
    pub fn read(&self, path: &Path, id: Identity) {
        if let Ok(mut map) = self.0.lock() {
            map.insert(path.to_path_buf(), id);
        }
    }

    /// Whether `path` is still exactly what the app knew of it.
    pub fn is_known(&self, path: &Path) -> bool {
        let Ok(map) = self.0.lock() else { return false };
        map.get(path)
            .is_some_and(|recorded| Identity::of(path).as_ref() == Some(recorded))
    }

    /// Whether another writer changed `path` since the app last read or wrote it. A file the
    /// app has not read yet has nothing to lose.
    pub fn changed_by_another(&self, path: &Path) -> bool {
        let Ok(map) = self.0.lock() else { return false };
        map.get(path)
            .is_some_and(|recorded| Identity::of(path).as_ref() != Some(recorded))
    }
}

/// The editor's saves go through [`SeenFiles`]: refused when another writer changed the draft, and
/// the file written remembered as measured before it took the old one's place.
impl plan_core::store::DraftGuard for SeenFiles {
    fn changed_by_another(&self, path: &Path) -> bool {
        SeenFiles::changed_by_another(self, path)
    }

    fn wrote(&self, path: &Path, written: &Metadata) {
        self.read(path, Identity::from(written));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder for one test, holding `draft.json` with `content`.
    fn draft(test: &str, content: &str) -> (PathBuf, PathBuf) {
        let dir = std::env::temp_dir().join(format!("{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("draft.json");
        std::fs::write(&path, content).unwrap();
        (dir, path)
    }

    #[test]
    fn a_file_is_known_until_another_writer_changes_it() {
        let (dir, path) = draft("own-writes", "{}");
        let own = SeenFiles::default();
        assert!(!own.is_known(&path), "not written by the app");
        own.wrote(&path);
        assert!(own.is_known(&path));
        // Another program replaces it atomically, as the store and most editors do.
        let other = dir.join("other.json");
        std::fs::write(&other, "{}").unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert!(!own.is_known(&path), "replaced by another writer");
        own.wrote(&path);
        // Or writes in place, longer.
        std::fs::write(&path, "{\"a\": 1}").unwrap();
        assert!(!own.is_known(&path), "written in place by another writer");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 6: an autosave landing right after another program's write lost that write.
    #[test]
    fn a_change_by_another_writer_since_the_last_read_is_seen() {
        let (dir, path) = draft("known", "{\"plan\": 1}");
        let known = SeenFiles::default();
        assert!(
            !known.changed_by_another(&path),
            "never read: nothing to lose"
        );
        known.read(&path, Identity::of(&path).unwrap());
        assert!(!known.changed_by_another(&path));
        std::fs::write(&path, "{ oops").unwrap();
        assert!(
            known.changed_by_another(&path),
            "broken in place by another program"
        );
        known.wrote(&path);
        assert!(
            !known.changed_by_another(&path),
            "written over as the author chose"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The editor's save, with another program writing the draft just after the rename and
    /// before the shell looks: the shell remembers the file it wrote, not the one it finds, so
    /// the other write is seen (the watcher brings it to the author).
    #[test]
    fn a_write_just_after_the_apps_own_save_is_not_taken_for_it() {
        let (dir, _) = draft("own-save-race", "{\"plan\": 1}");
        let known = SeenFiles::default();
        let ws = plan_core::store::Workspace::at(&dir);
        let mut plan = plan_core::synthetic::plan(2);
        plan.id = "p".into();
        ws.create("p", plan.clone(), "2026-01-01T00:00:00Z")
            .unwrap();
        let draft = dir.join("p").join("draft.json");
        known.read(&draft, Identity::of(&draft).unwrap());
        let guard = Interloper(&known);
        assert!(ws.save_draft_unless("p", &plan, &guard).unwrap());
        assert!(
            known.changed_by_another(&draft),
            "the broken write after the save is another program's"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `SeenFiles` as the shell uses it, with another program writing the draft in place between
    /// the store's rename and the shell's record of it.
    struct Interloper<'k>(&'k SeenFiles);

    impl plan_core::store::DraftGuard for Interloper<'_> {
        fn changed_by_another(&self, path: &Path) -> bool {
            plan_core::store::DraftGuard::changed_by_another(self.0, path)
        }

        fn wrote(&self, path: &Path, written: &Metadata) {
            std::fs::write(path, "{ oops").unwrap();
            plan_core::store::DraftGuard::wrote(self.0, path, written);
        }
    }
}
