//! Which document of a plan an operation reads (its draft, a published version, or the version
//! that is live), and what the list of versions says of each. The store reads them; the app and
//! the `plan` command name and list them the same way (the page too, which has no store).

use serde::{Deserialize, Serialize};

/// A plan's draft, one of its versions, or its live version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Revision {
    /// The draft.
    Draft,
    /// A published version.
    Version(u32),
    /// The live version.
    Live,
}

impl Revision {
    /// The word that names it where an author picks one: `draft`, `live`, or the version's number.
    pub fn word(self) -> String {
        match self {
            Revision::Draft => "draft".into(),
            Revision::Live => "live".into(),
            Revision::Version(n) => n.to_string(),
        }
    }

    /// The revision a word names: `draft`, `live`, a number (`3` or `v3`); none for anything else.
    pub fn from_word(word: &str) -> Option<Revision> {
        match word {
            "draft" => Some(Revision::Draft),
            "live" => Some(Revision::Live),
            n => n
                .trim_start_matches('v')
                .parse()
                .ok()
                .map(Revision::Version),
        }
    }
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

/// One version as the versions list shows it (`plan versions`, the app's Versions tab).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionInfo {
    /// Its number.
    pub version: u32,
    /// When it was published (RFC 3339).
    pub published_at: String,
    /// What it changes, in the author's words.
    pub note: String,
    /// The sha256 of its canonical JSON.
    pub content_hash: String,
    /// Whether it is the live one.
    pub live: bool,
    /// Why the version cannot be used, when it is corrupted.
    pub corrupted: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_revision_reads_back_from_its_word() {
        for r in [Revision::Draft, Revision::Live, Revision::Version(12)] {
            assert_eq!(Revision::from_word(&r.word()), Some(r));
        }
        assert_eq!(Revision::from_word("v3"), Some(Revision::Version(3)));
        assert_eq!(Revision::from_word("newest"), None);
    }
}
