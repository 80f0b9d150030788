//! A small disk for tests of what a full disk does: a tmpfs mounted for one test and unmounted
//! when it ends (even by a panic). Mounting needs root; where it cannot be done, the test says it
//! was skipped.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A mounted tmpfs.
pub struct SmallDisk(PathBuf);

impl SmallDisk {
    /// Mounts a tmpfs of `kib` KiB on `at`; none where that cannot be done (not root).
    pub fn mount(at: &Path, kib: u32) -> Option<SmallDisk> {
        fs::create_dir_all(at).ok()?;
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(at)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then(|| SmallDisk(at.to_path_buf()))
    }

    /// Where it is mounted.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Fills the disk with a file, then frees `leave` bytes of it again.
    pub fn fill_leaving(&self, leave: u64) {
        use std::io::Write;
        let filler = self.0.join("filler");
        let mut f = fs::File::create(&filler).unwrap();
        let chunk = vec![0u8; 16 * 1024];
        while f.write_all(&chunk).is_ok() {}
        let _ = f.flush();
        let len = fs::metadata(&filler).unwrap().len();
        f.set_len(len.saturating_sub(leave)).unwrap();
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}
