//! What the canvas marks over the plan it draws: problems, a comparison's changes, the test chat's
//! conversation and the suite's coverage, the Explore tab's path or coverage. Made by the app from
//! the stores of each; read by every card and arrow.

use std::collections::{HashMap, HashSet};

use plan_core::diff::Change;
use plan_core::{Report, Severity};

/// What to mark on the canvas: problems (the worst severity per state, and the transitions with
/// one), while two documents are compared what happened to each state and transition, the
/// test chat's marks and the Explore tab's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Marks {
    pub states: HashMap<String, Severity>,
    pub arrows: HashSet<(String, usize)>,
    pub diff_states: HashMap<String, Change>,
    pub diff_arrows: HashMap<(String, usize), Change>,
    /// The test chat's: where the conversation is, where it has been, what fired last and why,
    /// and after a suite run which transitions it took (none before).
    pub current: Option<String>,
    pub visited: HashSet<String>,
    /// The state of the task parked for a detour.
    pub parked: Option<String>,
    pub fired: Option<(String, usize, String)>,
    pub covered: Option<HashSet<(String, usize)>>,
    /// The Explore tab's coverage: by state, how many configurations enter it.
    pub reach: Option<HashMap<String, usize>>,
}

impl Marks {
    pub fn of(report: &Report) -> Marks {
        let mut marks = Marks::default();
        for d in &report.diagnostics {
            let Some(state) = &d.location.state_id else {
                continue;
            };
            let worst = marks.states.entry(state.clone()).or_insert(d.severity);
            // Severities order from the worst: Error < Warning < Info.
            *worst = (*worst).min(d.severity);
            if let Some(i) = d.location.transition_index {
                marks.arrows.insert((state.clone(), i));
            }
        }
        marks
    }
}
