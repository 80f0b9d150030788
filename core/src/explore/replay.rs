//! A finding's conversation said again to the simulator from the plan's start: the states it
//! enters and the transitions it fires (what the window lights on the canvas) and its turns (what
//! a test case is made of). The one replay the API, the command line and the window share.

use super::TransitionId;
use crate::plan::Plan;
use crate::runtime::script::Script;
use crate::runtime::{Chat, PlanRef, Session, Simulator, Start, ToolResults, Turn, What};

/// A conversation replayed.
#[derive(Debug, Clone, PartialEq)]
pub struct Replayed {
    /// The states it enters, in order, from the opening.
    pub path: Vec<String>,
    /// The transitions it fires, in order.
    pub fired: Vec<TransitionId>,
    /// The session it leaves.
    pub session: Session,
    /// Its turns, the opening first.
    pub turns: Vec<Turn>,
}

/// `script` said to the simulator from `plan`'s start; none when the plan does not open or a turn
/// is refused (the script no longer fits the plan).
pub fn replay(plan: &Plan, plan_ref: PlanRef, script: &Script) -> Option<Replayed> {
    let (mut chat, opening) =
        Chat::open_from(plan, &Simulator, plan_ref, &Start::default()).ok()?;
    let mut turns = vec![opening];
    for t in &script.turns {
        turns.push(chat.say_with(&t.user, &ToolResults::new()).ok()?);
    }
    let fired = turns
        .iter()
        .flat_map(|t| &t.events)
        .filter_map(|e| match &e.what {
            What::Transition(m) => m.index.map(|i| TransitionId::new(m.from.clone(), i)),
            _ => None,
        })
        .collect();
    Some(Replayed {
        path: chat.session.path.clone(),
        fired,
        session: chat.session,
        turns,
    })
}
