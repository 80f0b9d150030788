//! Fresh state ids, and pasting copies of states with fresh ids and their arrows rewired.

use std::collections::BTreeMap;

use crate::plan::{Plan, Position, State};

/// `base` if no state has it, else `base-2`, `base-3`…
pub fn unique_id(p: &Plan, base: &str) -> String {
    let taken = |id: &str| p.states.iter().any(|s| s.id == id);
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !taken(id))
        .unwrap_or_else(|| base.to_string())
}

/// Adds copies of `states` with fresh ids (`<id>-copy`, `<id>-copy-2`…); a transition between
/// two copied states points at the copy, one to a state outside the copy keeps its target.
/// Returns the new ids, in order.
pub(super) fn paste(
    p: &mut Plan,
    states: &[State],
    layout: &BTreeMap<String, Position>,
    offset: Position,
) -> Vec<String> {
    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
    for s in states {
        let base = format!("{}-copy", s.id);
        // Ids must be unique against the plan and against the copies made so far.
        let mut id = unique_id(p, &base);
        let mut n = 2;
        while renamed.values().any(|v| v == &id) {
            id = unique_id(p, &format!("{base}-{n}"));
            n += 1;
        }
        renamed.insert(s.id.clone(), id);
    }
    let mut out = Vec::with_capacity(states.len());
    for s in states {
        let mut copy = s.clone();
        copy.id = renamed[&s.id].clone();
        for t in &mut copy.transitions {
            if let Some(new) = renamed.get(&t.target_state_id) {
                t.target_state_id = new.clone();
            }
        }
        let at = layout.get(&s.id).copied().unwrap_or_default();
        p.layout.insert(
            copy.id.clone(),
            Position {
                x: at.x + offset.x,
                y: at.y + offset.y,
            },
        );
        out.push(copy.id.clone());
        p.states.push(std::sync::Arc::new(copy));
    }
    out
}
