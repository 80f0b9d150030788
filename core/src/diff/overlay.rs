//! Two plans drawn as one, for a canvas that shows what changed: the newer plan, with what only
//! the older one had put back as ghosts, and what happened to each state and transition.
//!
//! A removed state comes back where it stood in the older plan, with its transitions; a
//! transition removed from a state that is still there comes back at its old place in the
//! state's list (transitions are compared by position, so its index is the one the older plan
//! gave it and the one [`super::diff`] names). Positions are not compared: moving a card is no
//! change.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::{by_state_id, diff, Change, PlanDiff};
use crate::layout;
use crate::plan::Plan;

/// The changes between two plans, ready to draw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Overlay {
    /// The newer plan with the older one's removed states and transitions added back.
    pub plan: Plan,
    /// What differs, as [`super::diff`] says it.
    pub diff: PlanDiff,
    /// Each state that differs, by id.
    pub states: BTreeMap<String, Change>,
    /// Each transition that differs, by its place in [`Overlay::plan`].
    pub transitions: Vec<TransitionMark>,
}

/// A transition that differs: transition `index` of state `from` in the overlay's plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransitionMark {
    /// The state it leaves.
    pub from: String,
    /// Its index among the state's transitions.
    pub index: usize,
    /// How it changed.
    pub change: Change,
}

/// `new` with what only `old` had put back, and the marks of what changed from `old` to `new`.
/// Takes `new` whole: it becomes the overlay's plan (a copy of a 5,000-state plan is ~10 ms).
pub fn overlay(old: &Plan, new: Plan) -> Overlay {
    let diff = diff(old, &new);
    let old_states = by_state_id(old);
    let mut plan = new;
    let place: HashMap<String, usize> = plan
        .states
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.clone(), i))
        .collect();
    let mut states = BTreeMap::new();
    let mut transitions = Vec::new();
    // Only the positions of what is put back are needed from the old plan.
    let old_places = diff
        .states
        .iter()
        .any(|s| s.change == Change::Removed)
        .then(|| layout::complete(old));
    for s in &diff.states {
        states.insert(s.state_id.clone(), s.change);
        let old_state = old_states.get(s.state_id.as_str());
        match s.change {
            Change::Added | Change::Changed => {
                let Some(&at) = place.get(&s.state_id) else {
                    continue;
                };
                let old_count = old_state.map_or(0, |o| o.transitions.len());
                for index in 0..plan.states[at].transitions.len() {
                    let change = match (s.change, index < old_count) {
                        (Change::Added, _) | (_, false) => Some(Change::Added),
                        _ => s
                            .transitions
                            .iter()
                            .any(|t| t.change == Change::Changed && index_of(&t.id) == Some(index))
                            .then_some(Change::Changed),
                    };
                    if let Some(change) = change {
                        transitions.push(TransitionMark {
                            from: s.state_id.clone(),
                            index,
                            change,
                        });
                    }
                }
                // Transitions the old state had past the new one's last are ghosts now.
                if let Some(old_state) = old_state {
                    let kept = plan.states[at].transitions.len();
                    for (index, t) in old_state.transitions.iter().enumerate().skip(kept) {
                        std::sync::Arc::make_mut(&mut plan.states[at])
                            .transitions
                            .push(t.clone());
                        transitions.push(TransitionMark {
                            from: s.state_id.clone(),
                            index,
                            change: Change::Removed,
                        });
                    }
                }
            }
            Change::Removed => {
                let Some(old_state) = old_state else {
                    continue;
                };
                plan.states.push(std::sync::Arc::new((*old_state).clone()));
                if let Some(at) = old_places.as_ref().and_then(|p| p.get(&s.state_id)) {
                    plan.layout.insert(s.state_id.clone(), *at);
                }
                for index in 0..old_state.transitions.len() {
                    transitions.push(TransitionMark {
                        from: s.state_id.clone(),
                        index,
                        change: Change::Removed,
                    });
                }
            }
        }
    }
    Overlay {
        plan,
        diff,
        states,
        transitions,
    }
}

/// The index in a transition item's id (`"2 → billing"`).
fn index_of(item: &str) -> Option<usize> {
    item.split(' ').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_plan;

    const OLD: &str = r#"{"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "transitions": [
            {"target_state_id": "b"}, {"target_state_id": "c", "priority": 2}]},
        {"id": "b", "title": "B"},
        {"id": "c", "title": "C", "transitions": [{"target_state_id": "b"}]}
    ], "layout": {"a": {"x": 0, "y": 0}, "b": {"x": 300, "y": 0}, "c": {"x": 300, "y": 200}}}"#;

    const NEW: &str = r#"{"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "transitions": [{"target_state_id": "b", "priority": 3}]},
        {"id": "b", "title": "B, renamed"},
        {"id": "d", "title": "D"}
    ], "layout": {"a": {"x": 0, "y": 0}, "b": {"x": 600, "y": 0}, "d": {"x": 0, "y": 400}}}"#;

    #[test]
    fn a_removed_state_comes_back_as_a_ghost_where_it_stood_with_its_transitions() {
        let o = overlay(&parse_plan(OLD).unwrap(), parse_plan(NEW).unwrap());
        let ids: Vec<&str> = o.plan.states.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "d", "c"]);
        assert_eq!(o.states["c"], Change::Removed);
        assert_eq!(o.plan.layout["c"].x, 300.0);
        assert!(o.transitions.contains(&TransitionMark {
            from: "c".into(),
            index: 0,
            change: Change::Removed
        }));
    }

    #[test]
    fn added_changed_and_removed_transitions_are_marked_at_their_places() {
        let o = overlay(&parse_plan(OLD).unwrap(), parse_plan(NEW).unwrap());
        assert_eq!(o.states["a"], Change::Changed);
        assert_eq!(o.states["b"], Change::Changed);
        assert_eq!(o.states["d"], Change::Added);
        let a: Vec<(usize, Change)> = o
            .transitions
            .iter()
            .filter(|t| t.from == "a")
            .map(|t| (t.index, t.change))
            .collect();
        // The priority changed on the first; the second is gone and drawn as a ghost.
        assert_eq!(a, [(0, Change::Changed), (1, Change::Removed)]);
        assert_eq!(
            o.plan.state("a").unwrap().transitions[1].target_state_id,
            "c"
        );
    }

    #[test]
    fn moving_cards_marks_nothing() {
        let old = parse_plan(OLD).unwrap();
        let mut moved = old.clone();
        moved.layout.clear();
        let o = overlay(&old, moved.clone());
        assert!(o.states.is_empty() && o.transitions.is_empty());
        assert_eq!(o.plan, moved);
    }
}
