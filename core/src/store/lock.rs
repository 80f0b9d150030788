//! One writer per plan: an advisory lock on `<plan>/.lock`, held for the length of a write.
//! Readers never take it. The operating system releases it when the process ends, however it ends.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

use super::StoreError;

/// Held while a plan is being written; released on drop.
pub struct PlanLock {
    _file: File,
}

impl PlanLock {
    /// Takes the lock of the plan in `dir`, or says that another writer has it.
    pub fn take(dir: &Path, id: &str) -> Result<PlanLock, StoreError> {
        let path = dir.join(".lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| StoreError::Io { path, source })?;
        match file.try_lock() {
            Ok(()) => Ok(PlanLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(StoreError::InUse { id: id.to_string() }),
            Err(TryLockError::Error(source)) => Err(StoreError::Io {
                path: dir.join(".lock"),
                source,
            }),
        }
    }
}
