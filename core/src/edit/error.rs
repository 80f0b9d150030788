//! Why an edit command could not apply: data with one variant per reason, its words for the
//! author in its `Display`. A refused command changes nothing.

use super::Limit;

/// Why a command could not apply. The plan is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// No state has this id.
    #[error("there is no state '{0}'")]
    UnknownState(String),
    /// The state has no transition at this index.
    #[error("state '{from}' has no transition {index}")]
    UnknownTransition {
        /// The state.
        from: String,
        /// The index asked for.
        index: usize,
    },
    /// A state id that is empty.
    #[error("a state id cannot be empty")]
    EmptyId,
    /// A state id another state has.
    #[error("another state already has the id '{0}'")]
    IdTaken(String),
    /// A name another thing of its kind has.
    #[error("the name '{0}' is taken already")]
    NameTaken(String),
    #[error(
        "'{0}' cannot be used as a name: start with a letter or '_', then letters, digits or '_'"
    )]
    /// A name that is not a valid key or id.
    BadName(String),
    /// Nothing has this name.
    #[error("there is no '{0}'")]
    UnknownName(String),
    /// No session state has this id.
    #[error("there is no session state '{0}'")]
    UnknownSessionState(String),
    /// No evaluation has this id.
    #[error("there is no evaluation '{0}'")]
    UnknownEvaluation(String),
    /// The evaluation is limited to the session state already.
    #[error("'{}' is already asked only while '{}' is on", .0.evaluation, .0.session_state)]
    AlreadyLimited(Limit),
    /// A conflict's path is no longer in the plan, or their value no longer fits it.
    #[error("{0} is no longer in the draft as the merge left it: keep yours, or edit it")]
    ConflictGone(String),
    /// The evaluation is not limited to the session state.
    #[error("'{}' is not limited to '{}'", .0.evaluation, .0.session_state)]
    UnknownLimit(Limit),
}
