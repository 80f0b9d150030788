//! The drafts the app itself wrote last, so that the watcher does not report the app's own
//! autosaves back to it: each of those made the page load and parse the whole plan again, which
//! at 5,000 states held up typing for a few hundred milliseconds after every save.
//!
//! A file is the app's own while its identity on disk (inode, length, modification time) is the
//! one recorded right after the app wrote it. Any other writer's change gives it another identity
//! (an atomic rename gives a new inode; an in-place write a new modification time), so it is
//! reported as before.

use std::collections::HashMap;
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

#[derive(Default)]
pub struct OwnWrites(Mutex<HashMap<PathBuf, Identity>>);

#[derive(Debug, Clone, Copy, PartialEq)]
struct Identity {
    inode: u64,
    len: u64,
    modified: Option<SystemTime>,
}

impl Identity {
    fn of(path: &Path) -> Option<Identity> {
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

impl OwnWrites {
    /// Records `path` as just written by the app.
    pub fn wrote(&self, path: &Path) {
        if let (Some(id), Ok(mut map)) = (Identity::of(path), self.0.lock()) {
            map.insert(path.to_path_buf(), id);
        }
    }

    /// Whether `path` is still exactly what the app wrote last.
    pub fn is_own(&self, path: &Path) -> bool {
        let Ok(map) = self.0.lock() else { return false };
        map.get(path)
            .is_some_and(|recorded| Identity::of(path).as_ref() == Some(recorded))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_own_until_another_writer_changes_it() {
        let dir = std::env::temp_dir().join(format!("own-writes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("draft.json");
        std::fs::write(&path, "{}").unwrap();
        let own = OwnWrites::default();
        assert!(!own.is_own(&path), "not written by the app");
        own.wrote(&path);
        assert!(own.is_own(&path));
        // Another program replaces it atomically, as the store and most editors do.
        let other = dir.join("other.json");
        std::fs::write(&other, "{}").unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert!(!own.is_own(&path), "replaced by another writer");
        own.wrote(&path);
        // Or writes in place, longer.
        std::fs::write(&path, "{\"a\": 1}").unwrap();
        assert!(!own.is_own(&path), "written in place by another writer");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
