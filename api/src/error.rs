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

/// Declares the codes once: each variant with its word (serde's name, `as_str`, the UI's
/// `data-code`), and the list of them all.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $name:ident = $word:literal,)*) => {
        /// What kind of failure, for the front ends to act on.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum ErrorCode {
            $($(#[doc = $doc])* #[serde(rename = $word)] $name,)*
        }

        impl ErrorCode {
            /// Every code.
            pub const ALL: &[ErrorCode] = &[$(ErrorCode::$name),*];

            /// The code as it is written (`not-found`): the UI's `data-code`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$name => $word,)*
                }
            }
        }
    };
}

error_codes! {
    /// No plan, version, live version, session or trash entry by that name.
    NotFound = "not-found",
    /// The id is not a plan id (`^[a-z0-9][a-z0-9_-]{0,63}$`).
    BadId = "bad-id",
    /// The file is not JSON.
    InvalidJson = "invalid-json",
    /// The file is not JSON because git merged it as text (its conflict markers are in it).
    MergedAsText = "merged-as-text",
    /// The file is JSON but not a plan (or not a session).
    Schema = "schema",
    /// The file is over the size limit.
    TooLarge = "too-large",
    /// A file or folder could not be read or written.
    Io = "io",
    /// Another writer holds the plan.
    InUse = "in-use",
    /// A version file does not match its content hash.
    Corrupted = "corrupted",
    /// A plan with that id exists already.
    Exists = "exists",
    /// The draft is what the newest version holds: nothing to publish.
    Unchanged = "unchanged",
    /// The plan has validation errors: publishing (or running it) is refused until they are fixed.
    HasErrors = "has-errors",
    /// A merge left conflicts in the draft: publishing is refused until each is chosen.
    Conflicts = "conflicts",
    /// The plan a conversation runs changed since it began: it cannot go on (start a new one).
    Stale = "stale",
    /// The conversation has ended: it takes no more turns.
    Ended = "ended",
    /// The agent of a test conversation failed (a language model that did not answer).
    Agent = "agent",
    /// The operation was refused as asked: an edit that cannot apply, a file that changed on
    /// disk since it was read.
    Refused = "refused",
    /// The app itself failed: a command that is not allowed, a window not connected to the app.
    Internal = "internal",
    /// A draft's changes were told against a draft the app no longer holds (another program
    /// wrote the file, the app restarted): the page sends the whole draft instead.
    UnknownBase = "unknown-base",
    /// A link inside the workspace leads outside it (or nowhere): nothing goes through it.
    OutsideWorkspace = "outside-workspace",
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
                | StoreError::NoSession { .. }
                | StoreError::NoPersona { .. }
                | StoreError::NoRun { .. } => ErrorCode::NotFound,
                StoreError::BadSession { .. }
                | StoreError::BadCaseName { .. }
                | StoreError::BadPersonaName { .. } => ErrorCode::Schema,
                StoreError::BadLog { .. } => ErrorCode::InvalidJson,
                StoreError::Invalid { problems, .. } => match problems.first().map(|p| p.kind) {
                    Some(ProblemKind::InvalidJson) => ErrorCode::InvalidJson,
                    Some(ProblemKind::MergedAsText) => ErrorCode::MergedAsText,
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
    fn every_code_is_written_as_serde_writes_it_and_read_back() {
        assert_eq!(ErrorCode::ALL.len(), 20);
        for &code in ErrorCode::ALL {
            let written = serde_json::to_value(code).unwrap();
            assert_eq!(written, serde_json::json!(code.as_str()));
            assert_eq!(serde_json::from_value::<ErrorCode>(written).unwrap(), code);
        }
    }
}
