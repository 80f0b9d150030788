//! A draft told as what changed since a draft both sides have: the editor's autosave of a large
//! plan sends the states an edit made anew and, for the rest, where they stand in the draft it
//! saved before, instead of the whole plan (11 MB of JSON at 10,000 states, written and copied on
//! the page's thread every second while the author types).
//!
//! A state is "the same" when it is the very state of the earlier plan (states are shared between
//! the plans edits make, see `Plan::states`), so telling the changes reads no state's content.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::plan::{Plan, State};

/// Plan `plan`, with its states told as parts and its layout kept from the earlier plan or given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DraftChanges {
    /// The plan's own fields: without states, and without a layout when `layout_kept`.
    pub plan: Plan,
    /// The layout is the earlier plan's.
    pub layout_kept: bool,
    /// The states in plan order.
    pub states: Vec<StatePart>,
}

/// A run of states of the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StatePart {
    /// `count` states of the earlier plan, from its state `from` on.
    Kept {
        /// The index of the first one in the earlier plan.
        from: usize,
        /// How many.
        count: usize,
    },
    /// A state the earlier plan does not have.
    New(Arc<State>),
}

/// Why changes cannot be applied to a plan: they were told against another one.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the changes name states {from}..{end} of a plan of {len} states")]
pub struct NotTheirBase {
    /// The first state named.
    pub from: usize,
    /// One past the last state named.
    pub end: usize,
    /// How many states the plan has.
    pub len: usize,
}

impl DraftChanges {
    /// What makes `now` out of `before`.
    pub fn between(before: &Plan, now: &Plan) -> DraftChanges {
        let layout_kept = before.layout == now.layout;
        let mut plan = now.without_states();
        if layout_kept {
            plan.layout.clear();
        }
        // Where each state of `before` stands, asked only when a state is not where it was.
        let mut at: Option<HashMap<usize, usize>> = None;
        let mut states: Vec<StatePart> = Vec::new();
        for (i, s) in now.states.iter().enumerate() {
            let found = match before.states.get(i) {
                Some(b) if Arc::ptr_eq(b, s) => Some(i),
                _ => at
                    .get_or_insert_with(|| {
                        before
                            .states
                            .iter()
                            .enumerate()
                            .map(|(j, b)| (address(b), j))
                            .collect()
                    })
                    .get(&address(s))
                    .copied(),
            };
            match (found, states.last_mut()) {
                (Some(j), Some(StatePart::Kept { from, count })) if *from + *count == j => {
                    *count += 1
                }
                (Some(j), _) => states.push(StatePart::Kept { from: j, count: 1 }),
                (None, _) => states.push(StatePart::New(Arc::clone(s))),
            }
        }
        DraftChanges {
            plan,
            layout_kept,
            states,
        }
    }

    /// The plan these changes make out of `before`: its kept states shared, not copied.
    pub fn apply(self, before: &Plan) -> Result<Plan, NotTheirBase> {
        let DraftChanges {
            mut plan,
            layout_kept,
            states,
        } = self;
        for part in states {
            match part {
                StatePart::Kept { from, count } => {
                    let end = from.saturating_add(count);
                    let Some(kept) = before.states.get(from..end) else {
                        return Err(NotTheirBase {
                            from,
                            end,
                            len: before.states.len(),
                        });
                    };
                    plan.states.extend(kept.iter().cloned());
                }
                StatePart::New(s) => plan.states.push(s),
            }
        }
        if layout_kept {
            plan.layout = before.layout.clone();
        }
        Ok(plan)
    }
}

fn address(s: &Arc<State>) -> usize {
    Arc::as_ptr(s) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::{apply, Command};
    use crate::plan::Position;

    fn round_trip(before: &Plan, now: &Plan) -> DraftChanges {
        let changes = DraftChanges::between(before, now);
        // As the page sends it and the shell reads it.
        let text = serde_json::to_vec(&changes).unwrap();
        let read: DraftChanges = serde_json::from_slice(&text).unwrap();
        assert_eq!(read.clone().apply(before).unwrap(), *now);
        changes
    }

    #[test]
    fn typing_in_one_state_sends_that_state_and_two_runs() {
        let before = crate::synthetic::plan(1_000);
        let mut s = before.state("s500").unwrap().clone();
        s.description = "typed".into();
        let now = apply(
            &before,
            &Command::ReplaceState {
                id: "s500".into(),
                state: Box::new(s),
            },
        )
        .unwrap()
        .plan;
        let changes = round_trip(&before, &now);
        assert!(changes.layout_kept);
        assert!(changes.plan.states.is_empty() && changes.plan.layout.is_empty());
        assert_eq!(changes.states.len(), 3);
        assert_eq!(
            changes.states[0],
            StatePart::Kept {
                from: 0,
                count: 500
            }
        );
        assert!(matches!(&changes.states[1], StatePart::New(s) if s.description == "typed"));
        assert_eq!(
            changes.states[2],
            StatePart::Kept {
                from: 501,
                count: 499
            }
        );
        // What the shell makes shares the states it had.
        let made = changes.apply(&before).unwrap();
        assert!(Arc::ptr_eq(&made.states[0], &before.states[0]));
    }

    #[test]
    fn every_kind_of_edit_comes_out_as_the_plan_it_made() {
        let mut before = crate::synthetic::with_session_states(300, 10);
        let moved = Command::MoveStates {
            moves: [("s3".to_string(), Position { x: 5.0, y: 7.0 })].into(),
        };
        let edits = [moved]
            .into_iter()
            .chain(crate::synthetic::list_edits())
            .chain([
                Command::AddState {
                    kind: crate::edit::NewState::Loose,
                    at: Position { x: 1.0, y: 2.0 },
                    from: None,
                },
                Command::AddState {
                    kind: crate::edit::NewState::Goal,
                    at: Position { x: 500.0, y: 2.0 },
                    from: Some("s1".into()),
                },
                Command::AutoLayout {
                    only_overlaps: false,
                },
            ]);
        for edit in &edits.collect::<Vec<_>>() {
            let now = apply(&before, edit).unwrap().plan;
            round_trip(&before, &now);
            before = now;
        }
        let mut retitled = before.clone();
        retitled.title = "Another title".into();
        round_trip(&before, &retitled);
        round_trip(&before, &crate::synthetic::plan(20));
    }

    #[test]
    fn changes_told_against_another_plan_are_refused() {
        let before = crate::synthetic::plan(100);
        let changes = DraftChanges::between(&before, &before);
        assert_eq!(
            changes.states,
            vec![StatePart::Kept {
                from: 0,
                count: 100
            }]
        );
        let smaller = crate::synthetic::plan(10);
        assert_eq!(
            changes.apply(&smaller),
            Err(NotTheirBase {
                from: 0,
                end: 100,
                len: 10
            })
        );
    }
}
