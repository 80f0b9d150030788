//! Messages to the author, shown over the canvas: what an action did, or why it was refused (the
//! refusal's code kept, for the page's hooks and for acting on it), and, where an action can be
//! taken back from there, how.

use plan_api::{ApiError, ErrorCode};

/// One message.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub text: String,
    /// The code of the refusal it reports; none for news.
    pub error: Option<ErrorCode>,
    /// What its Undo button does, if it has one.
    pub undo: Option<Undo>,
}

/// An action a notice's Undo button takes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undo {
    /// A plan moved to the trash comes back.
    RestorePlan { entry: String },
}

impl Notice {
    /// News.
    pub fn info(text: impl Into<String>) -> Notice {
        Notice {
            text: text.into(),
            error: None,
            undo: None,
        }
    }

    /// A refusal, in the words of whoever refused.
    pub fn refused(e: &ApiError) -> Notice {
        Notice {
            text: e.message.clone(),
            error: Some(e.code),
            undo: None,
        }
    }

    /// A refusal of the page's own (an edit while viewing a version).
    pub fn refused_here(text: impl Into<String>) -> Notice {
        Notice {
            text: text.into(),
            error: Some(ErrorCode::Refused),
            undo: None,
        }
    }

    pub fn with_undo(mut self, undo: Undo) -> Notice {
        self.undo = Some(undo);
        self
    }
}
