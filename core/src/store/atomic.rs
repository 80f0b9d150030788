//! Durable, atomic file writes: a temporary file in the same folder, written and flushed to disk,
//! renamed over the target, and the folder flushed too. A crash at any moment leaves the old file
//! or the new one, never a torn one; a killed writer can leave only a dot-named temporary file,
//! which readers ignore and the next writer removes.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Prefix of temporary files; every name starting with '.' is ignored by readers.
pub const TEMP_PREFIX: &str = ".tmp-";

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically and durably; `read_only` makes the new file read-only
/// before it appears.
pub fn write(path: &Path, bytes: &[u8], read_only: bool) -> std::io::Result<()> {
    prepare(path, bytes, read_only)?.commit()
}

/// A file written and flushed under a temporary name, not yet in place: [`Prepared::commit`] puts
/// it there; dropping it removes it. This lets a writer do the slow part (writing, fsync) while it
/// is still deciding whether to go ahead.
pub struct Prepared {
    temp: PathBuf,
    target: PathBuf,
    committed: bool,
}

impl Prepared {
    /// The metadata of the file written, as it will be once in place (a rename keeps it).
    pub fn metadata(&self) -> std::io::Result<fs::Metadata> {
        fs::metadata(&self.temp)
    }

    /// Renames the file into place and flushes the folder.
    pub fn commit(mut self) -> std::io::Result<()> {
        fs::rename(&self.temp, &self.target)?;
        self.committed = true;
        sync_dir(self.target.parent().unwrap_or(Path::new(".")))
    }
}

impl Drop for Prepared {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Writes and flushes `bytes` under a temporary name next to `path`.
pub fn prepare(path: &Path, bytes: &[u8], read_only: bool) -> std::io::Result<Prepared> {
    prepare_parts(path, &[bytes], read_only)
}

/// [`prepare`] of a file made of `parts` one after another (never joined in memory).
pub fn prepare_parts(path: &Path, parts: &[&[u8]], read_only: bool) -> std::io::Result<Prepared> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prepared = Prepared {
        temp: dir.join(format!(
            "{TEMP_PREFIX}{}-{}-{name}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        )),
        target: path.to_path_buf(),
        committed: false,
    };
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&prepared.temp)?;
    for part in parts {
        file.write_all(part)?;
    }
    file.sync_all()?;
    if read_only {
        let mut perms = file.metadata()?.permissions();
        perms.set_readonly(true);
        fs::set_permissions(&prepared.temp, perms)?;
    }
    Ok(prepared)
}

/// Flushes a folder's entries (a rename, a new file) to disk.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    // Folders cannot be opened for syncing on every platform; where they cannot, the rename is
    // as durable as the platform makes it.
    match File::open(dir) {
        Ok(d) => d.sync_all().or(Ok(())),
        Err(_) => Ok(()),
    }
}

/// Removes the temporary files in `dir` whose writer no longer runs (one that was killed): safe
/// without the plan's lock, since a running writer's files (this process's among them) are left
/// alone. A writer is known by the process id in the file's name; where the system does not say
/// which processes run (not Linux), nothing is removed here and the next writer of that kind
/// removes them ([`remove_leftovers`]).
pub fn remove_dead_leftovers(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(writer) = writer_of(&name.to_string_lossy()) else {
            continue;
        };
        if writer != std::process::id() && !runs(writer) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The process that wrote temporary file `name` (`.tmp-<pid>-<n>-<target>`).
fn writer_of(name: &str) -> Option<u32> {
    name.strip_prefix(TEMP_PREFIX)?
        .split('-')
        .next()?
        .parse()
        .ok()
}

#[cfg(target_os = "linux")]
fn runs(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

#[cfg(not(target_os = "linux"))]
fn runs(_pid: u32) -> bool {
    true
}

/// Removes temporary files that killed writers left in `dir`. Call with the plan's lock held.
pub fn remove_leftovers(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX) {
            let _ = fs::remove_file(entry.path());
        }
    }
}
