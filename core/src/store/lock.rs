//! One writer per plan: an advisory lock on `<plan>/.lock`, held for the length of a write.
//! Readers never take it. The operating system releases it when the process ends, however it ends.
//!
//! A writer that finds the lock taken waits a moment ([`PATIENCE`]) before it says the plan is in
//! use. A write holds the lock for milliseconds, so a second writer arriving mid-write should wait its
//! turn, not fail. And a lock this process has just released can still be held for an instant by a
//! child it is spawning: between fork and exec the child holds a copy of every descriptor, the
//! lock's included (CI failure of stop 10: a delete right after a publish was told "in use" while
//! another test thread was starting a process).

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;
use std::time::{Duration, Instant};

use super::StoreError;

/// How long a writer waits for a busy lock before it reports the plan in use.
pub const PATIENCE: Duration = Duration::from_millis(250);

/// How often a waiting writer tries again.
const RETRY: Duration = Duration::from_millis(5);

/// Held while a plan is being written; released on drop.
pub struct PlanLock {
    _file: File,
}

impl PlanLock {
    /// Takes the lock of the plan in `dir`, waiting up to [`PATIENCE`] for another writer to finish,
    /// or says that another writer has it.
    pub fn take(dir: &Path, id: &str) -> Result<PlanLock, StoreError> {
        let path = dir.join(".lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| StoreError::Io {
                path: path.clone(),
                source,
            })?;
        let began = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(PlanLock { _file: file }),
                Err(TryLockError::WouldBlock) if began.elapsed() < PATIENCE => {
                    std::thread::sleep(RETRY)
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(StoreError::InUse { id: id.to_string() })
                }
                Err(TryLockError::Error(source)) => return Err(StoreError::Io { path, source }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("plan-lock-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_writer_waits_for_a_lock_released_within_moments() {
        // Regression (CI failure of stop 10): a lock held for an instant by someone else, like a
        // child process between fork and exec, must not make a write fail.
        let dir = scratch("brief");
        let held = PlanLock::take(&dir, "p").unwrap();
        let releaser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(40));
            drop(held);
        });
        assert!(PlanLock::take(&dir, "p").is_ok());
        releaser.join().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_lock_held_past_the_patience_is_reported_in_use() {
        let dir = scratch("long");
        let _held = PlanLock::take(&dir, "p").unwrap();
        let began = Instant::now();
        let err = PlanLock::take(&dir, "p").err().expect("the lock is busy");
        assert!(
            matches!(err, StoreError::InUse { ref id } if id == "p"),
            "{err}"
        );
        assert!(began.elapsed() >= PATIENCE);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
