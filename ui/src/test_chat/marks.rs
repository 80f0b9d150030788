//! What the canvas lights for the test chat, decided without a browser: the current state, the
//! states visited, the task parked for a detour, the transition that fired last and why, a failing
//! case's state at the turn it failed, and the transitions a suite run took.

use std::collections::HashSet;

use plan_api::messages::{CaseRun, ChatView, SuiteRun};
use plan_core::runtime::What;

/// What the canvas marks for the test chat: the current state, the states visited, the
/// transition that fired last (with why), and after a suite run the transitions it took.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChatMarks {
    pub current: Option<String>,
    pub visited: HashSet<String>,
    /// The state of the task parked for a detour, lit beside the current one.
    pub parked: Option<String>,
    pub fired: Option<(String, usize, String)>,
    /// `(from, index)` of the transitions the suite took; none before a suite run.
    pub covered: Option<HashSet<plan_core::coverage::TransitionId>>,
}

/// The state a failing case was in at the turn it failed (1-based), else where it ended up.
pub fn state_at(case: &CaseRun, turn: u32) -> Option<String> {
    let record = case.record.as_ref()?;
    record
        .turns
        .iter()
        .find(|t| t.turn.number == turn)
        .or(record.turns.last())
        .map(|t| t.state.clone())
        .or_else(|| Some(record.opening.state.clone()))
}

/// What the canvas marks for `chat` (and, when one is open, a failing case at its turn) and
/// `suite`.
pub fn marks(
    chat: Option<&ChatView>,
    case: Option<&CaseRun>,
    suite: Option<&SuiteRun>,
) -> ChatMarks {
    let mut m = ChatMarks::default();
    if let Some(case) = case {
        let turn = case.failures.first().map_or(0, |f| f.turn);
        m.current = state_at(case, turn);
    } else if let Some(chat) = chat {
        m.current = Some(chat.session.state_id.clone());
        m.visited = chat.session.path.iter().cloned().collect();
        m.parked = chat.session.parked.as_ref().map(|p| p.state_id.clone());
        // The why in the trace's own words: "moved to Billing support because issue_type =
        // billing (priority 1)".
        m.fired = chat.turns.last().and_then(|t| {
            t.events.iter().find_map(|e| match &e.what {
                What::Transition(mv) => Some((mv.from.clone(), mv.index?, e.text.clone())),
                _ => None,
            })
        });
    }
    if let Some(suite) = suite {
        m.covered = Some(suite.coverage.transitions.keys().cloned().collect());
    }
    m
}
