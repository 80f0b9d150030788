//! A three-way merge of plan drafts by their meaning, as git's merge driver uses it (issue 45):
//! the common ancestor `base`, `ours` and `theirs`, each a plan, merged element by element and
//! field by field. Pure: no IO; `plan merge` and the Share panel read and write the files.
//!
//! The rules, the same at every depth of the document:
//! - a value changed on one side only takes that side's; changed alike on both, either;
//! - changed differently on both sides, it is a [`Conflict`], and the merged plan keeps ours;
//! - the lists of things with a name (states, tasks, deliverables, tools, session states,
//!   interruptions, rules, evaluations, and a state's transitions) are merged element by element,
//!   matched by that name (see `key.rs`); an element added on either side is kept, one deleted on one
//!   side and left alone on the other is deleted, one deleted on one side and changed on the other
//!   is a conflict (ours kept: deleted, if ours deleted it);
//! - the order of such a list is a value of its own: reordered on one side, that order; on both,
//!   differently, a conflict at the list's own path, whose values are the lists of names;
//! - lists of words (allowed tools, response codes, enum values…) are sets: additions and removals
//!   of both sides are kept;
//! - card positions (`layout`) never conflict: a card moved on both sides keeps ours.

mod key;
mod take;
mod value;

pub use take::take_theirs;

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::plan::{Plan, State};

/// One place where both sides changed the same thing differently. A side that is absent had no
/// such element (never there, or deleted).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflict {
    /// Where, as a path of names: `/states/billing/title`,
    /// `/states/intake/transitions/billing#0/priority`, `/states` (the order of the states).
    pub path: String,
    /// The common ancestor's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<Value>,
    /// Ours: the value the merged plan has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ours: Option<Value>,
    /// Theirs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theirs: Option<Value>,
}

/// The outcome of a merge: the plan (ours wherever in conflict) and the conflicts, in document
/// order.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    /// The merged plan.
    pub plan: Plan,
    /// Where both sides changed one thing differently.
    pub conflicts: Vec<Conflict>,
}

/// Merges `ours` and `theirs`, two descendants of `base` (`None`: no common ancestor, as when
/// both sides added the plan).
pub fn merge(base: Option<&Plan>, ours: &Plan, theirs: &Plan) -> Merged {
    // A state the same on all three sides (most of them) crosses as a stub and comes back as
    // ours: turning a 1,000-state plan into JSON and back three times was most of a merge's time.
    let same = unchanged_states(base, ours, theirs);
    let as_value = |p: &Plan| value_of(p, &same);
    let (base_value, ours_value, theirs_value) =
        (base.map(as_value), as_value(ours), as_value(theirs));
    let mut merger = value::Merger::default();
    let merged = merger.merge(
        &mut Vec::new(),
        base_value.as_ref(),
        Some(&ours_value),
        Some(&theirs_value),
    );
    match merged.and_then(|v| plan_of(v, ours)) {
        Some(plan) => Merged {
            plan,
            conflicts: merger.conflicts,
        },
        // Each field comes whole from one side, so the result has the model's shape; should it
        // ever not, the author keeps their own plan and sees theirs as one conflict.
        None => {
            let whole = |p: &Plan| serde_json::to_value(p).ok();
            Merged {
                plan: ours.clone(),
                conflicts: vec![Conflict {
                    path: String::new(),
                    base: base.and_then(whole),
                    ours: whole(ours),
                    theirs: whole(theirs),
                }],
            }
        }
    }
}

/// The field a stub state is marked by (no state has it: fields are the model's).
const STUB: &str = "\u{0}unchanged";

/// The ids of the states equal on all three sides.
fn unchanged_states(base: Option<&Plan>, ours: &Plan, theirs: &Plan) -> HashSet<String> {
    let Some(base) = base else {
        return HashSet::new();
    };
    let (o, t) = (by_id(ours), by_id(theirs));
    let equal = |a: &std::sync::Arc<State>, b: &std::sync::Arc<State>| {
        std::sync::Arc::ptr_eq(a, b) || a == b
    };
    base.states
        .iter()
        .filter(|b| {
            o.get(b.id.as_str()).is_some_and(|s| equal(b, s))
                && t.get(b.id.as_str()).is_some_and(|s| equal(b, s))
        })
        .map(|b| b.id.clone())
        .collect()
}

/// A plan's states by id.
fn by_id(plan: &Plan) -> HashMap<&str, &std::sync::Arc<State>> {
    plan.states.iter().map(|s| (s.id.as_str(), s)).collect()
}

/// `plan` as JSON, the states in `same` as stubs.
fn value_of(plan: &Plan, same: &HashSet<String>) -> Value {
    let rest = Plan {
        states: Vec::new(),
        ..plan.clone()
    };
    let mut value = serde_json::to_value(&rest).unwrap_or(Value::Null);
    let states = plan
        .states
        .iter()
        .map(|s| {
            if same.contains(&s.id) {
                serde_json::json!({"id": s.id, STUB: true})
            } else {
                serde_json::to_value(s.as_ref()).unwrap_or(Value::Null)
            }
        })
        .collect();
    if let Some(fields) = value.as_object_mut() {
        fields.insert("states".into(), Value::Array(states));
    }
    value
}

/// The merged JSON as a plan, each stub state taken from `ours` (where it is the same as on the
/// other sides).
fn plan_of(mut value: Value, ours: &Plan) -> Option<Plan> {
    let states = match value.get_mut("states") {
        Some(Value::Array(states)) => std::mem::take(states),
        _ => Vec::new(),
    };
    let mut plan: Plan = serde_json::from_value(value).ok()?;
    let kept = by_id(ours);
    for state in states {
        if state.get(STUB).is_some() {
            let id = state.get("id")?.as_str()?;
            plan.states.push(std::sync::Arc::clone(kept.get(id)?));
        } else {
            plan.states
                .push(std::sync::Arc::new(serde_json::from_value(state).ok()?));
        }
    }
    Some(plan)
}

/// The state a conflict's path is about, if any (`/states/billing/...` → `billing`; a card's
/// position, `/layout/billing`, never conflicts).
pub fn state_of(path: &str) -> Option<String> {
    let mut parts = path.split('/').skip(1);
    match (parts.next(), parts.next()) {
        (Some("states"), Some(id)) => Some(key::unescape(id)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
