//! The one error of every operation: a stable code to act on, the message to show, and, for a
//! refused publish, the problems that refused it. The app shows `message` and decides by `code`;
//! the `plan` command prints `message` and takes its exit code from `code`: the same words in both.

use plan_core::edit::EditError;
use plan_core::runtime::RunError;
use plan_core::Diagnostic;
use serde::{Deserialize, Serialize};

/// Why an operation did not happen. Nothing on disk changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// The stable code callers decide by.
    pub code: ErrorCode,
    /// What happened, in words for the author.
    pub message: String,
    /// The validation problems behind a [`ErrorCode::HasErrors`] refusal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

/// What kind of failure, for the front ends to act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// No plan, version, live version, session or trash entry by that name.
    NotFound,
    /// The id is not a plan id (`^[a-z0-9][a-z0-9_-]{0,63}$`).
    BadId,
    /// The file is not JSON.
    InvalidJson,
    /// The file is JSON but not a plan (or not a session).
    Schema,
    /// The file is over the size limit.
    TooLarge,
    /// A file or folder could not be read or written.
    Io,
    /// Another writer holds the plan.
    InUse,
    /// A version file does not match its content hash.
    Corrupted,
    /// A plan with that id exists already.
    Exists,
    /// The draft is what the newest version holds: nothing to publish.
    Unchanged,
    /// The plan has validation errors: publishing (or running it) is refused until they are fixed.
    HasErrors,
    /// The plan a conversation runs changed since it began: it cannot go on (start a new one).
    Stale,
    /// The conversation has ended: it takes no more turns.
    Ended,
    /// The agent of a test conversation failed (a language model that did not answer).
    Agent,
    /// The operation was refused as asked: an edit that cannot apply, a file that changed on
    /// disk since it was read.
    Refused,
    /// The app itself failed: a command that is not allowed, a window not connected to the app.
    Internal,
    /// A draft's changes were told against a draft the app no longer holds (another program
    /// wrote the file, the app restarted): the page sends the whole draft instead.
    UnknownBase,
    /// A link inside the workspace leads outside it (or nowhere): nothing goes through it.
    OutsideWorkspace,
}

impl ErrorCode {
    /// The code as it is written (`not-found`): the UI's `data-code`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not-found",
            ErrorCode::BadId => "bad-id",
            ErrorCode::InvalidJson => "invalid-json",
            ErrorCode::Schema => "schema",
            ErrorCode::TooLarge => "too-large",
            ErrorCode::Io => "io",
            ErrorCode::OutsideWorkspace => "outside-workspace",
            ErrorCode::InUse => "in-use",
            ErrorCode::Corrupted => "corrupted",
            ErrorCode::Exists => "exists",
            ErrorCode::Unchanged => "unchanged",
            ErrorCode::HasErrors => "has-errors",
            ErrorCode::Stale => "stale",
            ErrorCode::Ended => "ended",
            ErrorCode::Agent => "agent",
            ErrorCode::Refused => "refused",
            ErrorCode::Internal => "internal",
            ErrorCode::UnknownBase => "unknown-base",
        }
    }
}

impl ApiError {
    /// An error of `code` saying `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            diagnostics: Vec::new(),
        }
    }

    /// A failure of the program rather than of the request.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::Internal, message)
    }
}

impl From<EditError> for ApiError {
    fn from(e: EditError) -> Self {
        ApiError::new(ErrorCode::Refused, e.to_string())
    }
}

impl From<RunError> for ApiError {
    fn from(e: RunError) -> Self {
        let code = match &e {
            RunError::Ended(_) => ErrorCode::Ended,
            RunError::Agent(_) => ErrorCode::Agent,
            RunError::NoStartState => ErrorCode::HasErrors,
            RunError::UnknownState(_)
            | RunError::NotDeclared(_)
            | RunError::BadPreset { .. }
            | RunError::UnknownSessionState(_)
            | RunError::BadSessionPreset { .. }
            | RunError::MessageTooLong(_) => ErrorCode::Refused,
        };
        ApiError::new(code, e.to_string())
    }
}

#[cfg(feature = "store")]
mod store_errors {
    use super::{ApiError, ErrorCode};
    use plan_core::files::FileError;
    use plan_core::parse::ProblemKind;
    use plan_core::store::StoreError;

    impl From<StoreError> for ApiError {
        fn from(e: StoreError) -> Self {
            let code = match &e {
                StoreError::Io { .. } => ErrorCode::Io,
                StoreError::Outside { .. } => ErrorCode::OutsideWorkspace,
                StoreError::BadId { .. } => ErrorCode::BadId,
                StoreError::NotFound { .. }
                | StoreError::NoVersion { .. }
                | StoreError::NoLive { .. }
                | StoreError::NoSession { .. } => ErrorCode::NotFound,
                StoreError::BadSession { .. } | StoreError::BadCaseName { .. } => ErrorCode::Schema,
                StoreError::BadLog { .. } => ErrorCode::InvalidJson,
                StoreError::Invalid { problems, .. } => match problems.first().map(|p| p.kind) {
                    Some(ProblemKind::InvalidJson) => ErrorCode::InvalidJson,
                    _ => ErrorCode::Schema,
                },
                StoreError::TooLarge { .. } | StoreError::TooLargeToWrite { .. } => {
                    ErrorCode::TooLarge
                }
                StoreError::InUse { .. } => ErrorCode::InUse,
                StoreError::Corrupted { .. } | StoreError::BadLive { .. } => ErrorCode::Corrupted,
                StoreError::Exists { .. } => ErrorCode::Exists,
                StoreError::PublishRefused { .. } => ErrorCode::HasErrors,
                StoreError::Unchanged { .. } => ErrorCode::Unchanged,
            };
            let message = e.to_string();
            let diagnostics = match e {
                StoreError::PublishRefused { diagnostics, .. } => diagnostics,
                _ => Vec::new(),
            };
            ApiError {
                code,
                message,
                diagnostics,
            }
        }
    }

    impl From<FileError> for ApiError {
        fn from(e: FileError) -> Self {
            ApiError::from(StoreError::from(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_written_as_serde_writes_it() {
        use ErrorCode::*;
        for code in [
            NotFound,
            BadId,
            InvalidJson,
            Schema,
            TooLarge,
            Io,
            InUse,
            Corrupted,
            Exists,
            Unchanged,
            HasErrors,
            Stale,
            Ended,
            Agent,
            Refused,
            Internal,
            UnknownBase,
        ] {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::json!(code.as_str())
            );
        }
    }
}
