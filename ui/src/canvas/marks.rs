//! What the canvas marks over the plan it draws: problems, a comparison's changes, the test chat's
//! conversation and the suite's coverage, the Explore tab's path or coverage. Made by the app from
//! the stores of each; read by every card and arrow.

use std::collections::{HashMap, HashSet};

use plan_core::coverage::TransitionId;
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
    pub covered: Option<HashSet<TransitionId>>,
    /// The Explore tab's coverage: by state, how many configurations enter it; or the Simulate
    /// tab's heat map: how many simulated conversations did.
    pub reach: Option<HashMap<String, usize>>,
    /// The heat map's: by state, how many simulated conversations ended and stalled there (set:
    /// `reach` counts conversations, not configurations).
    pub heat: Option<HashMap<String, (u32, u32)>>,
    /// The states with conflicts left by getting others' changes.
    pub conflicts: HashSet<String>,
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

/// How the marks show on one card. A card reads them through one memo of this, not one per
/// mark: the first frame of a large plan makes a few hundred cards, arrows and labels, and
/// each reactive node costs to make while the wasm is still being warmed up.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CardMarks {
    /// The worst problem of the state.
    pub problem: Option<Severity>,
    /// What a comparison says happened to the state.
    pub diff: Option<Change>,
    /// The test chat is in the state now, has been in it, has parked its task there.
    pub current: bool,
    pub visited: bool,
    pub parked: bool,
    /// The Explore tab's coverage, when shown: the level's name and how many configurations
    /// enter the state (conversations, for the heat map).
    pub reach: Option<(&'static str, usize)>,
    /// The heat map's, when shown: how many conversations ended and stalled in the state.
    pub heat: Option<(u32, u32)>,
    /// Others' changes left a conflict on the state.
    pub conflict: bool,
}

impl CardMarks {
    pub fn of(marks: &Marks, state: &str) -> CardMarks {
        CardMarks {
            problem: marks.states.get(state).copied(),
            diff: marks.diff_states.get(state).copied(),
            current: marks.current.as_deref() == Some(state),
            visited: marks.visited.contains(state),
            parked: marks.parked.as_deref() == Some(state),
            reach: marks.reach.as_ref().map(|r| {
                let most = r.values().copied().max().unwrap_or(0);
                let n = r.get(state).copied();
                (crate::explore::reach_level(n, most), n.unwrap_or(0))
            }),
            heat: marks
                .heat
                .as_ref()
                .map(|h| h.get(state).copied().unwrap_or((0, 0))),
            conflict: marks.conflicts.contains(state),
        }
    }
}

/// How the marks show on one transition's arrow and its label (one memo each, as for a card).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArrowMarks {
    /// The transition has a problem.
    pub problem: bool,
    /// What a comparison says happened to it.
    pub diff: Option<Change>,
    /// Why the test chat's last move took it, if it did.
    pub fired: Option<String>,
    /// Whether the last suite run took it (none before a run).
    pub covered: Option<bool>,
}

impl ArrowMarks {
    pub fn of(marks: &Marks, from: &str, index: usize) -> ArrowMarks {
        let key = (from.to_string(), index);
        ArrowMarks {
            problem: marks.arrows.contains(&key),
            diff: marks.diff_arrows.get(&key).copied(),
            fired: marks
                .fired
                .as_ref()
                .filter(|(f, i, _)| f == from && *i == index)
                .map(|(_, _, why)| why.clone()),
            covered: marks
                .covered
                .as_ref()
                .map(|c| c.contains(&TransitionId::new(from, index))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_shows_only_the_marks_about_its_own_state() {
        let mut marks = Marks::default();
        marks.states.insert("greet".into(), Severity::Warning);
        marks.diff_states.insert("greet".into(), Change::Changed);
        marks.current = Some("greet".into());
        marks.visited.insert("greet".into());
        marks.parked = Some("book".into());
        marks.reach = Some(HashMap::from([("greet".into(), 3), ("book".into(), 40)]));
        let greet = CardMarks::of(&marks, "greet");
        assert_eq!(greet.problem, Some(Severity::Warning));
        assert_eq!(greet.diff, Some(Change::Changed));
        assert!(greet.current && greet.visited && !greet.parked);
        assert_eq!(greet.reach, Some(("few", 3)));
        let book = CardMarks::of(&marks, "book");
        assert_eq!(book.problem, None);
        assert!(!book.current && !book.visited && book.parked);
        assert_eq!(book.reach, Some(("many", 40)));
        assert_eq!(CardMarks::of(&marks, "other").reach, Some(("never", 0)));
        assert_eq!(
            CardMarks::of(&Marks::default(), "greet"),
            CardMarks::default()
        );
    }

    #[test]
    fn an_arrow_shows_only_the_marks_about_its_own_transition() {
        let mut marks = Marks::default();
        marks.arrows.insert(("greet".into(), 1));
        marks.diff_arrows.insert(("greet".into(), 0), Change::Added);
        marks.fired = Some(("greet".into(), 0, "asked to book".into()));
        marks.covered = Some(HashSet::from([TransitionId::new("greet", 0)]));
        let first = ArrowMarks::of(&marks, "greet", 0);
        assert!(!first.problem);
        assert_eq!(first.diff, Some(Change::Added));
        assert_eq!(first.fired.as_deref(), Some("asked to book"));
        assert_eq!(first.covered, Some(true));
        let second = ArrowMarks::of(&marks, "greet", 1);
        assert!(second.problem);
        assert_eq!(
            (second.diff, second.fired, second.covered),
            (None, None, Some(false))
        );
        assert_eq!(ArrowMarks::of(&Marks::default(), "greet", 0).covered, None);
    }
}
