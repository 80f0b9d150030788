//! The `git` installed on the machine, run as a program in the workspace's repository: never a
//! prompt (the user's credential helpers and SSH agent still answer), English output to read, and
//! a refusal in plain words naming what git said.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::error::{ApiError, ErrorCode};

/// A repository, reached from a folder inside it.
#[derive(Debug, Clone)]
pub struct Git {
    /// The folder git runs in (the workspace).
    dir: PathBuf,
}

impl Git {
    /// The repository holding `dir`, if it is in one.
    pub fn holding(dir: &Path) -> Option<Git> {
        let git = Git {
            dir: dir.to_path_buf(),
        };
        git.run(&["rev-parse", "--show-toplevel"])
            .ok()
            .filter(|o| o.status.success())
            .map(|_| git)
    }

    /// The repository holding `dir`, or a refusal saying how to make one. A folder the
    /// repository ignores (a workspace under a build folder, or in a home folder kept in git)
    /// is not in it: sharing it would write into a repository that does not keep it.
    pub fn required(dir: &Path) -> Result<Git, ApiError> {
        let git = Git::holding(dir).ok_or_else(|| {
            ApiError::new(
                ErrorCode::Refused,
                format!(
                    "{} is not in a git repository, so it cannot be shared: clone the team's \
                     repository and open the workspace inside it, or run `git init` there",
                    dir.display()
                ),
            )
        })?;
        if git.run(&["check-ignore", "-q", "."])?.status.success() {
            return Err(ApiError::new(
                ErrorCode::Refused,
                format!(
                    "{} is inside the git repository {} but ignored by it, so it cannot be shared \
                     there: keep the workspace in a repository of its own (git init)",
                    dir.display(),
                    git.top()?.display()
                ),
            ));
        }
        Ok(git)
    }

    /// Whether files of `dir` are kept in the repository (a workspace already shared, which
    /// the app sets up as it opens; it never sets up a repository on its own).
    pub fn keeps_files(&self) -> bool {
        self.ok(&["ls-files", "--", "."])
            .is_ok_and(|files| !files.trim().is_empty())
    }

    /// `git ARGS` in the workspace, whatever it answers.
    pub fn run(&self, args: &[&str]) -> Result<Output, ApiError> {
        Command::new("git")
            .args(args)
            .current_dir(&self.dir)
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("LC_ALL", "C")
            .env("GIT_MERGE_AUTOEDIT", "no")
            .output()
            .map_err(|e| {
                ApiError::new(
                    ErrorCode::Io,
                    format!("git could not be run ({e}): install git (apt-get install git)"),
                )
            })
    }

    /// `git ARGS`'s output; a failure says what git said.
    pub fn ok(&self, args: &[&str]) -> Result<String, ApiError> {
        let out = self.run(args)?;
        if out.status.success() {
            return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
        }
        Err(ApiError::new(
            ErrorCode::Refused,
            format!(
                "git {} failed: {}",
                args.first().copied().unwrap_or_default(),
                said(&out)
            ),
        ))
    }

    /// The repository's top folder.
    pub fn top(&self) -> Result<PathBuf, ApiError> {
        Ok(PathBuf::from(
            self.ok(&["rev-parse", "--show-toplevel"])?.trim(),
        ))
    }

    /// The workspace's path inside the repository (`` for the top, `plans/` below it).
    pub fn prefix(&self) -> Result<String, ApiError> {
        Ok(self.ok(&["rev-parse", "--show-prefix"])?.trim().to_string())
    }

    /// A setting of git's (`user.name`), if set.
    pub fn setting(&self, key: &str) -> Option<String> {
        let out = self.run(&["config", "--get", key]).ok()?;
        let value = String::from_utf8_lossy(&out.stdout).trim().to_string();
        (out.status.success() && !value.is_empty()).then_some(value)
    }

    /// The shared branch the current one follows (`origin/main`), if any.
    pub fn upstream(&self) -> Option<String> {
        let out = self
            .run(&["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"])
            .ok()?;
        let name = String::from_utf8_lossy(&out.stdout).trim().to_string();
        (out.status.success() && !name.is_empty()).then_some(name)
    }

    /// The file at `path` (from the top of the repository) in commit `rev`, if it is there.
    pub fn show(&self, rev: &str, path: &str) -> Option<String> {
        let out = self.run(&["show", &format!("{rev}:{path}")]).ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// What git wrote on failing, on one line.
pub fn said(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr);
    let text = if text.trim().is_empty() {
        String::from_utf8_lossy(&out.stdout)
    } else {
        text
    };
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("hint:"))
        .collect::<Vec<_>>()
        .join(" ")
}
