//! The heat map of a run (simulate.md, "In the app"): how many conversations entered each state,
//! took each transition, ended in each state, or stalled in it (the same state for 3 turns or
//! more, or cut at the caller's `max_turns` there).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::conversation::{Conversation, Ending};
use crate::coverage::TransitionId;

/// Turns in one state from which a conversation counts as stalled there.
pub const STALLED_TURNS: u32 = 3;

/// Counts of conversations, by state and by transition (`<state>/<index>`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Heat {
    /// Conversations that entered each state (the first state counts).
    pub states: BTreeMap<String, u32>,
    /// Conversations that took each transition (written `<from state>/<index>`); a goal state's
    /// fall-through to the next state is not a transition and is not counted.
    pub transitions: BTreeMap<TransitionId, u32>,
    /// Conversations that ended in each state (the plan ended them, or the caller hung up).
    pub ended_in: BTreeMap<String, u32>,
    /// Conversations that stalled in each state.
    pub stalled_in: BTreeMap<String, u32>,
}

/// The heat of `conversations`.
pub fn heat<'a>(conversations: impl IntoIterator<Item = &'a Conversation>) -> Heat {
    let mut heat = Heat::default();
    for c in conversations {
        let Some(opening) = &c.opening else { continue };
        let mut entered = BTreeSet::from([opening.state.clone()]);
        let mut taken = BTreeSet::new();
        let mut stalled = BTreeSet::new();
        let (mut state, mut since) = (opening.state.clone(), 0u32);
        for record in &c.transcript {
            if let Some(m) = &record.turn.transition {
                if let Some(index) = m.index {
                    taken.insert(TransitionId::new(m.from.clone(), index));
                }
                entered.insert(m.to.clone());
            }
            if record.state == state {
                since += 1;
                if since >= STALLED_TURNS {
                    stalled.insert(state.clone());
                }
            } else {
                (state, since) = (record.state.clone(), 0);
            }
        }
        match c.outcome.ended {
            Ending::Complete | Ending::HangUp | Ending::HandOff | Ending::CallerHungUp => {
                *heat.ended_in.entry(state.clone()).or_default() += 1;
            }
            Ending::MaxTurns => {
                stalled.insert(state.clone());
            }
            Ending::None => {}
        }
        for key in taken {
            *heat.transitions.entry(key).or_default() += 1;
        }
        for (set, map) in [(entered, &mut heat.states), (stalled, &mut heat.stalled_in)] {
            for key in set {
                *map.entry(key).or_default() += 1;
            }
        }
    }
    heat
}
