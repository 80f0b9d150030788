//! Which document of a plan an operation reads: its draft, a published version, or the version
//! that is live. The store reads them; the app and the `plan` command name them the same way.

use serde::{Deserialize, Serialize};

/// A plan's draft, one of its versions, or its live version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Revision {
    Draft,
    Version(u32),
    Live,
}

impl std::fmt::Display for Revision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Revision::Draft => write!(f, "the draft"),
            Revision::Version(n) => write!(f, "version {n}"),
            Revision::Live => write!(f, "the live version"),
        }
    }
}
