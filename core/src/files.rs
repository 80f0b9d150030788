//! Reading plan files from disk, with the size limit and errors that name the file and the place.
//! Used by the store and by `plan check`; reading never writes.

use std::fmt::Write as _;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::parse::{parse_draft, parse_plan, ParseProblem};
use crate::plan::Plan;

/// Plan files larger than this are refused rather than read.
pub const MAX_PLAN_BYTES: u64 = 32 * 1024 * 1024;

/// Why a plan file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Reading the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is over the size limit.
    #[error("{path}: the file is {size} bytes; plans are limited to 32 MiB")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// The file is not a plan.
    #[error("{path}: {}", first(.problems))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, the first first.
        problems: Vec<ParseProblem>,
    },
}

fn first(problems: &[ParseProblem]) -> String {
    let mut text = problems.first().map(|p| p.to_string()).unwrap_or_default();
    if problems.len() > 1 {
        let _ = write!(text, " (and {} more problems)", problems.len() - 1);
    }
    text
}

/// Reads and parses one plan file.
pub fn read_plan(path: &Path) -> Result<Plan, FileError> {
    let text = read_text(path)?;
    parse_plan(&text).map_err(|problems| FileError::Invalid {
        path: path.to_path_buf(),
        problems,
    })
}

/// Reads a draft file: its structure must be a plan's, its shape problems are validation's to
/// report (see [`parse_draft`]).
pub fn read_draft(path: &Path) -> Result<Plan, FileError> {
    let text = read_text(path)?;
    parse_draft(&text).map_err(|problems| FileError::Invalid {
        path: path.to_path_buf(),
        problems,
    })
}

/// Reads a plan file's text, refusing files over [`MAX_PLAN_BYTES`] unread; a file that is not
/// UTF-8 text is [`FileError::Invalid`], with the place of its first bad byte.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| FileError::Invalid {
        path: path.to_path_buf(),
        problems: vec![crate::unreadable::not_utf8(e.as_bytes())],
    })
}

/// Reads a plan file's bytes, refusing files over [`MAX_PLAN_BYTES`] unread.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    // Asked before opening: opening a FIFO waits for a writer, forever if none comes.
    if !fs::metadata(path).map_err(io)?.is_file() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a folder, a pipe or a device): plans are read from files",
        )));
    }
    let file = fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    if size > MAX_PLAN_BYTES {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            size,
        });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    // Read at most one byte past the limit, in case the file grows while it is read.
    file.take(MAX_PLAN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("plan-core-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_that_is_not_utf8_is_refused_with_the_place_of_its_first_bad_byte() {
        let dir = temp_dir("latin1");
        let path = dir.join("latin1.json");
        fs::write(&path, b"{\"id\": \"caf\xe9\"}").unwrap();
        let err = read_plan(&path).unwrap_err();
        let FileError::Invalid { problems, .. } = &err else {
            panic!("not refused as a bad plan file: {err}");
        };
        assert_eq!(problems[0].line_column, Some((1, 12)));
        assert!(
            err.to_string()
                .contains("latin1.json: line 1, column 12: the file is not UTF-8 text"),
            "{err}"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_or_a_folder_is_refused_at_once_not_waited_on() {
        let dir = temp_dir("fifo");
        let fifo = dir.join("plan.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let err = read_plan(&fifo).unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{err}");
        }
        let err = read_plan(&dir).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_unread() {
        let dir = temp_dir("big");
        let path = dir.join("big.json");
        let file = fs::File::create(&path).unwrap();
        file.set_len(MAX_PLAN_BYTES + 1).unwrap();
        let err = read_plan(&path).unwrap_err();
        assert!(matches!(err, FileError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("big.json"));
        fs::remove_dir_all(dir).unwrap();
    }
}
