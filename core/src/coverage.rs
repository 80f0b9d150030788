//! What conversations went through: a transition named once ([`TransitionId`]: its state and its
//! index among the state's transitions, written `"<from>/<index>"` where JSON needs a string), and
//! how many entered each state and fired each transition ([`Coverage`]), for explore's
//! configurations and a test suite's conversations alike.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::plan::Plan;
use crate::runtime::script::ChatRecord;

/// Transition `index` of state `from`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TransitionId {
    /// The state it leaves.
    pub from: String,
    /// Its index among that state's transitions.
    pub index: usize,
}

impl TransitionId {
    /// Transition `index` of state `from`.
    pub fn new(from: impl Into<String>, index: usize) -> TransitionId {
        TransitionId {
            from: from.into(),
            index,
        }
    }

    /// Reads `"<from>/<index>"`.
    pub fn parse(text: &str) -> Option<TransitionId> {
        let (from, index) = text.rsplit_once('/')?;
        Some(TransitionId::new(from, index.parse().ok()?))
    }
}

impl fmt::Display for TransitionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.from, self.index)
    }
}

impl Serialize for TransitionId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TransitionId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        TransitionId::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not \"<state>/<index>\"")))
    }
}

/// How many entered each state and fired each transition: configurations for explore, the
/// conversations that did for a test suite. What no one entered or fired is absent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    /// By state id.
    pub states: BTreeMap<String, usize>,
    /// By transition.
    pub transitions: BTreeMap<TransitionId, usize>,
}

impl Coverage {
    /// What the conversations `records` went through on `plan` (`plan test --coverage`, the
    /// app's suite run): each state entered and each transition fired, counted once per
    /// conversation. A goal state's fall-through to the next state is not a transition of the
    /// plan and does not count; nor does a transition the plan no longer has.
    pub fn of_conversations<'r>(
        plan: &Plan,
        records: impl IntoIterator<Item = &'r ChatRecord>,
    ) -> Coverage {
        let exists =
            |from: &str, i: usize| plan.state(from).is_some_and(|s| i < s.transitions.len());
        let mut coverage = Coverage::default();
        for record in records {
            let mut states = BTreeSet::from([record.opening.state.as_str()]);
            let mut fired = BTreeSet::new();
            for t in &record.turns {
                states.insert(t.state.as_str());
                if let Some(m) = &t.turn.transition {
                    if let Some(i) = m.index.filter(|i| exists(&m.from, *i)) {
                        fired.insert(TransitionId::new(m.from.clone(), i));
                    }
                }
            }
            for id in states {
                coverage.entered(id, 1);
            }
            for t in fired {
                coverage.fired(t, 1);
            }
        }
        coverage
    }

    /// `transition` fired `times` more.
    pub fn fired(&mut self, transition: TransitionId, times: usize) {
        *self.transitions.entry(transition).or_default() += times;
    }

    /// State `id` entered `times` more.
    pub fn entered(&mut self, id: &str, times: usize) {
        *self.states.entry(id.to_string()).or_default() += times;
    }

    /// The transitions of `plan` that fired, in plan order (a transition the plan no longer has is
    /// left out).
    pub fn taken<'p>(&self, plan: &'p Plan) -> Vec<(&'p str, usize, &'p str)> {
        self.transitions_of(plan, true)
    }

    /// The transitions of `plan` that never fired, in plan order: `(from, index, to)`.
    pub fn untaken<'p>(&self, plan: &'p Plan) -> Vec<(&'p str, usize, &'p str)> {
        self.transitions_of(plan, false)
    }

    fn transitions_of<'p>(&self, plan: &'p Plan, fired: bool) -> Vec<(&'p str, usize, &'p str)> {
        plan.states
            .iter()
            .flat_map(|s| {
                s.transitions
                    .iter()
                    .enumerate()
                    .map(move |(i, t)| (s.id.as_str(), i, t.target_state_id.as_str()))
            })
            .filter(|(from, i, _)| {
                self.transitions.contains_key(&TransitionId::new(*from, *i)) == fired
            })
            .collect()
    }

    /// "9 of 11 transitions tested".
    pub fn summary(&self, plan: &Plan) -> String {
        let total = plan.transition_count();
        let word = if total == 1 {
            "transition"
        } else {
            "transitions"
        };
        format!("{} of {total} {word} tested", self.taken(plan).len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transition_is_written_as_its_state_and_index_and_read_back() {
        let id = TransitionId::new("ask-name", 12);
        assert_eq!(id.to_string(), "ask-name/12");
        assert_eq!(TransitionId::parse("ask-name/12"), Some(id.clone()));
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"ask-name/12\"");
        assert_eq!(TransitionId::parse("ask-name"), None);
        assert!(serde_json::from_str::<TransitionId>("\"a/x\"").is_err());
    }

    #[test]
    fn coverage_is_json_keyed_by_the_transition_as_text_in_plan_order() {
        let mut c = Coverage::default();
        c.fired(TransitionId::new("a", 10), 1);
        c.fired(TransitionId::new("a", 2), 2);
        c.entered("a", 3);
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"states":{"a":3},"transitions":{"a/2":2,"a/10":1}}"#
        );
        assert_eq!(serde_json::from_str::<Coverage>(&json).unwrap(), c);
    }
}
