//! New arrows of a state: one dropped between two cards (the mode's default condition), one for
//! an answer nothing handles (`unhandled-value`'s fix) and one for a tool's code nothing handles
//! (`unhandled-response-code`'s); each takes the state's next free
//! priority, so that it never ties with one already there. And an arrow's place changed: two
//! arrows swapped in check order, or a merge conflict's theirs taken.

use crate::condition::{Check, ConditionType};
use crate::plan::{Priority, State, Transition};

pub(super) fn connect(state: &mut State, to: &str) {
    state.ending = None;
    state.transitions.push(Transition {
        target_state_id: to.to_string(),
        condition_type: None,
        priority: next_priority(state),
        condition_config: Default::default(),
        label: String::new(),
        effects: Vec::new(),
    });
}

/// The priority a new transition of `state` takes: the next whole number after its others' (1
/// for its first), so that a new arrow never ties with one already there.
fn next_priority(state: &State) -> Priority {
    let highest = state
        .transitions
        .iter()
        .map(|t| t.priority.0)
        .fold(0.0, f64::max);
    Priority(highest.floor() + 1.0)
}

pub(super) fn answer_arrow(state: &mut State, key: &str, value: &serde_json::Value) {
    let mut config = serde_json::Map::new();
    config.insert("key".into(), key.into());
    config.insert("value".into(), value.clone());
    let reads_key = |c: &Check| {
        let mut read = Vec::new();
        crate::validate::keys_read(c, &mut read);
        read.contains(&key)
    };
    add_arrow_beside(state, reads_key, ConditionType::DeliverableValue, config);
}

pub(super) fn code_arrow(state: &mut State, tool: &str, code: &str) {
    let mut config = serde_json::Map::new();
    config.insert("tool".into(), tool.into());
    config.insert("response_code".into(), code.into());
    add_arrow_beside(
        state,
        |c| crate::validate::reads_tool(c, tool),
        ConditionType::ToolResult,
        config,
    );
}

/// Adds an arrow of `kind` with `config` to `state`, next in order, going where the state's first
/// arrow whose condition `reads` goes (to the state itself when none does: the author then picks).
fn add_arrow_beside(
    state: &mut State,
    reads: impl Fn(&Check) -> bool,
    kind: ConditionType,
    config: serde_json::Map<String, serde_json::Value>,
) {
    let to = crate::validate::first_arrow_reading(state, reads).map_or_else(
        || state.id.clone(),
        |k| state.transitions[k].target_state_id.clone(),
    );
    state.transitions.push(Transition {
        target_state_id: to,
        condition_type: Some(kind),
        priority: next_priority(state),
        condition_config: config,
        label: String::new(),
        effects: Vec::new(),
    });
}

/// Transitions `index` and `with` of `state` exchange their places in check order: their places
/// in the list and their priorities, so that no other transition's place changes (both exist).
pub(super) fn swap_check_order(state: &mut State, index: usize, with: usize) {
    let transitions = &mut state.transitions;
    let (one, other) = (transitions[index].priority, transitions[with].priority);
    transitions[index].priority = other;
    transitions[with].priority = one;
    transitions.swap(index, with);
}

/// `plan` with a merge conflict's theirs put at its path; refused when the path is gone or theirs
/// no longer fits the plan.
pub(super) fn take_theirs(
    plan: &crate::plan::Plan,
    conflict: &crate::merge::Conflict,
) -> Result<crate::plan::Plan, super::EditError> {
    let gone = || super::EditError::ConflictGone(conflict.path.clone());
    let mut value = serde_json::to_value(plan).map_err(|_| gone())?;
    if !crate::merge::take_theirs(&mut value, conflict) {
        return Err(gone());
    }
    serde_json::from_value(value).map_err(|_| gone())
}
