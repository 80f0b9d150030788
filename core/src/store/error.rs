//! Why a store operation did not happen, one variant per reason, each said in words that name the
//! plan, version or file. Nothing on disk changed when one is returned.

use std::path::PathBuf;

use crate::files::FileError;
use crate::parse::ParseProblem;
use crate::validate::Diagnostic;

/// Why a store operation did not happen. Nothing on disk changed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Not a plan id.
    #[error("\"{id}\" is not a plan id: use lowercase letters, digits, '-' and '_' (at most 64), starting with a letter or digit")]
    BadId {
        /// What was given as an id.
        id: String,
    },
    /// No plan has this id.
    #[error("there is no plan \"{id}\" in this workspace")]
    NotFound {
        /// The plan's id.
        id: String,
    },
    /// A plan (or a test case) of this name exists already.
    #[error("a plan \"{id}\" already exists")]
    Exists {
        /// The plan's id.
        id: String,
    },
    /// The plan has no such version.
    #[error("plan \"{id}\" has no version {version}")]
    NoVersion {
        /// The plan's id.
        id: String,
        /// The version's number.
        version: u32,
    },
    /// The plan has no live version.
    #[error("plan \"{id}\" has no live version")]
    NoLive {
        /// The plan's id.
        id: String,
    },
    /// A published version whose content no longer matches its hash.
    #[error("{}: version {version} is corrupted ({reason}); it can be neither set live nor reopened", path.display())]
    Corrupted {
        /// The file.
        path: PathBuf,
        /// The version's number.
        version: u32,
        /// Why it cannot be read.
        reason: String,
    },
    /// Another writer holds the plan's lock.
    #[error("plan \"{id}\" is in use by another writer; try again when it is done")]
    InUse {
        /// The plan's id.
        id: String,
    },
    /// A plan file that does not parse.
    #[error("{}: {}", path.display(), problems.first().map(|p| p.to_string()).unwrap_or_default())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it, the first first.
        problems: Vec<ParseProblem>,
    },
    /// A file over the size limit.
    #[error("{}: the file is {size} bytes; plans are limited to 32 MiB", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// A `live.json` that cannot be read or names no intact version.
    #[error("{}: {reason}; set a live version again (plan live ID N, or Set live in the Versions tab)", path.display())]
    BadLive {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A plan that would be written larger than any reader takes: nothing is written.
    #[error("{}: this plan would be {size} bytes written out; plans are limited to 32 MiB, so it could not be read back: nothing was written", path.display())]
    TooLargeToWrite {
        /// The file it would have been written to.
        path: PathBuf,
        /// Its size written out, in bytes.
        size: u64,
    },
    /// Publishing a draft with errors.
    #[error("plan \"{id}\" has {} error(s); publishing is refused until they are fixed", diagnostics.iter().filter(|d| d.severity == crate::Severity::Error).count())]
    PublishRefused {
        /// The plan's id.
        id: String,
        /// The plan's findings, errors among them.
        diagnostics: Vec<Diagnostic>,
    },
    /// Publishing a draft that equals the newest version.
    #[error("the draft of \"{id}\" is unchanged since version {version}: nothing to publish")]
    Unchanged {
        /// The plan's id.
        id: String,
        /// The version's number.
        version: u32,
    },
    /// No saved session has this name.
    #[error("plan \"{id}\" has no saved session \"{name}\"")]
    NoSession {
        /// The plan's id.
        id: String,
        /// The session's name.
        name: String,
    },
    /// A test case name that cannot name a file.
    #[error("\"{name}\" cannot name a test case: use letters, digits, '-', '_' and '.', starting with a letter or digit")]
    BadCaseName {
        /// The name given.
        name: String,
    },
    /// No persona by that name beside the plan.
    #[error("plan \"{id}\" has no persona \"{persona}\" (personas/{persona}.json)")]
    NoPersona {
        /// The plan's id.
        id: String,
        /// The persona's id.
        persona: String,
    },
    /// A persona id that cannot name a file.
    #[error("\"{name}\" cannot name a persona: use letters, digits, '-', '_' and '.', starting with a letter or digit")]
    BadPersonaName {
        /// The name given.
        name: String,
    },
    /// No simulation run by that id.
    #[error("plan \"{id}\" has no run \"{run}\" (runs/{run}/)")]
    NoRun {
        /// The plan's id.
        id: String,
        /// The run's id.
        run: String,
    },
    /// A session file that cannot be used.
    #[error("{}: not a session: {message}", path.display())]
    BadSession {
        /// The file.
        path: PathBuf,
        /// What is wrong, in words.
        message: String,
    },
    /// A link inside the workspace that leads outside it, or nowhere: nothing is read or written
    /// through it.
    #[error("{}{}: Plan Builder reads and writes only inside its workspace ({}); put the folder or file itself there instead of a link", path.display(), match target { Some(t) if t.exists() => format!(" is a link to {}, outside the workspace", t.display()), Some(t) => format!(" is a link to {}, which does not exist", t.display()), None => " is a link that leads nowhere".to_string() }, root.display())]
    Outside {
        /// The link.
        path: PathBuf,
        /// Where it leads, if that can be read.
        target: Option<PathBuf>,
        /// The workspace's folder.
        root: PathBuf,
    },
    /// A conversation's log that cannot be read.
    #[error("{}: line {line}, column {column}: the conversation's log cannot be read ({message}); move the file aside to go on without the history it kept", path.display())]
    BadLog {
        /// The file.
        path: PathBuf,
        /// The line where reading stopped.
        line: usize,
        /// The column where reading stopped.
        column: usize,
        /// What is wrong, in words.
        message: String,
    },
}

impl From<FileError> for StoreError {
    fn from(e: FileError) -> Self {
        match e {
            FileError::Io { path, source } => StoreError::Io { path, source },
            FileError::TooLarge { path, size } => StoreError::TooLarge { path, size },
            FileError::Invalid { path, problems } => StoreError::Invalid { path, problems },
        }
    }
}
