//! The edges between session states and evaluations (simulate.md, "Evaluations in the plan";
//! seed 001): an edge from a session state to an evaluation asks the evaluation only while that
//! state is on. Drawing one, deleting one and moving its end are each one command, so one undo
//! step, and each refuses what would not change the plan.

use serde::{Deserialize, Serialize};

use super::EditError;
use crate::plan::Plan;

/// One edge of the canvas's lanes: evaluation `evaluation` asked only while session state
/// `session_state` is on (one entry of the evaluation's `only_while_active`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Limit {
    /// The session state the edge leaves.
    pub session_state: String,
    /// The evaluation the edge enters.
    pub evaluation: String,
}

/// Adds `limit` to its evaluation; refused when either end does not exist or the edge is there.
pub(super) fn add(p: &mut Plan, limit: &Limit) -> Result<(), EditError> {
    if p.session_state(&limit.session_state).is_none() {
        return Err(EditError::UnknownSessionState(limit.session_state.clone()));
    }
    let states = &mut evaluation_mut(p, &limit.evaluation)?.only_while_active;
    if states.contains(&limit.session_state) {
        return Err(EditError::AlreadyLimited(limit.clone()));
    }
    states.push(limit.session_state.clone());
    Ok(())
}

/// Removes `limit` from its evaluation; refused when the edge is not there.
pub(super) fn remove(p: &mut Plan, limit: &Limit) -> Result<(), EditError> {
    let states = &mut evaluation_mut(p, &limit.evaluation)?.only_while_active;
    let before = states.len();
    states.retain(|s| *s != limit.session_state);
    if states.len() == before {
        return Err(EditError::UnknownLimit(limit.clone()));
    }
    Ok(())
}

/// Moves `limit`'s evaluation end to evaluation `to` (the edge's end dragged onto another card).
pub(super) fn move_to(p: &mut Plan, limit: &Limit, to: &str) -> Result<(), EditError> {
    remove(p, limit)?;
    add(
        p,
        &Limit {
            session_state: limit.session_state.clone(),
            evaluation: to.to_string(),
        },
    )
}

fn evaluation_mut<'p>(
    p: &'p mut Plan,
    id: &str,
) -> Result<&'p mut crate::evaluation::Evaluation, EditError> {
    p.evaluations
        .iter_mut()
        .find(|e| e.id == id)
        .ok_or_else(|| EditError::UnknownEvaluation(id.to_string()))
}
