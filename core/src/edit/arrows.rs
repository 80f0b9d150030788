//! New arrows of a state: one dropped between two cards (the mode's default condition), one for
//! an answer nothing handles (`unhandled-value`'s fix) and one for a tool's code nothing handles
//! (`unhandled-response-code`'s); each takes the state's next free
//! priority, so that it never ties with one already there.

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
    let reads_key = |t: &Transition| {
        crate::condition::Check::read(t.condition_type_in(state.kind), &t.condition_config)
            .is_ok_and(|c| {
                let mut read = Vec::new();
                crate::validate::keys_read(&c, &mut read);
                read.contains(&key)
            })
    };
    let to = state
        .transitions
        .iter()
        .find(|t| reads_key(t))
        .map_or_else(|| state.id.clone(), |t| t.target_state_id.clone());
    let mut config = serde_json::Map::new();
    config.insert("key".into(), key.into());
    config.insert("value".into(), value.clone());
    state.transitions.push(Transition {
        target_state_id: to,
        condition_type: Some(crate::condition::ConditionType::DeliverableValue),
        priority: next_priority(state),
        condition_config: config,
        label: String::new(),
        effects: Vec::new(),
    });
}

pub(super) fn code_arrow(state: &mut State, tool: &str, code: &str) {
    let reads_tool = |t: &Transition| {
        crate::condition::Check::read(t.condition_type_in(state.kind), &t.condition_config)
            .is_ok_and(|c| reads(&c, tool))
    };
    let to = state
        .transitions
        .iter()
        .find(|t| reads_tool(t))
        .map_or_else(|| state.id.clone(), |t| t.target_state_id.clone());
    let mut config = serde_json::Map::new();
    config.insert("tool".into(), tool.into());
    config.insert("response_code".into(), code.into());
    state.transitions.push(Transition {
        target_state_id: to,
        condition_type: Some(crate::condition::ConditionType::ToolResult),
        priority: next_priority(state),
        condition_config: config,
        label: String::new(),
        effects: Vec::new(),
    });
}

/// Whether `check` reads a code of `tool`.
fn reads(check: &crate::condition::Check, tool: &str) -> bool {
    use crate::condition::Check;
    match check {
        Check::ToolResult { tool: t, .. } => *t == tool,
        Check::AllOf(children) | Check::AnyOf(children) => children.iter().any(|c| reads(c, tool)),
        _ => false,
    }
}
