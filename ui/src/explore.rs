//! The Explore tab's store: the open plan's draft explored by the shell in the background (every
//! conversation it allows, up to bounds), its progress and a Stop, what it found, one finding's
//! conversation drawn on the canvas, the coverage colouring, and exploring again after an edit,
//! by itself when the last search was quick. The decisions are pure functions here, tested
//! natively; `panels::explore` shows them.

use std::collections::{HashMap, HashSet};

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::{ExploreView, FindingView};
use plan_api::ApiError;
use plan_core::explore::{TransitionId, WINDOW_BOUNDS};

use crate::actions::Actions;
use crate::editor::{Editor, SaveState};
use crate::ipc;
use crate::navigation::{Dialog, Navigation, Tab};
use crate::test_chat::TestChat;

/// A search that took less than this is run again by itself after each saved edit; a longer one
/// waits for the author's "Explore again".
pub const QUICK_MILLIS: u64 = 1_000;

/// How many configurations reach a state, in four steps for the coverage colours: `never`, `few`
/// (under a tenth of the most any state has), `some` (under a half), `many`.
pub fn reach_level(count: Option<usize>, most: usize) -> &'static str {
    match count.unwrap_or(0) {
        0 => "never",
        n if n * 10 < most => "few",
        n if n * 2 < most => "some",
        _ => "many",
    }
}

/// What the canvas marks for the Explore tab: the states and transitions of the finding shown
/// (its last state as the current one), else with the coverage colouring on how many
/// configurations enter each state and which transitions fire at all.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExploreMarks {
    pub current: Option<String>,
    pub visited: HashSet<String>,
    pub covered: Option<HashSet<TransitionId>>,
    /// By state id: how many configurations enter it (coverage colouring only).
    pub reach: Option<HashMap<String, usize>>,
}

/// The marks of `found` with finding `shown` drawn, or its coverage when `coverage` is on.
pub fn marks(found: &ExploreView, shown: Option<usize>, coverage: bool) -> ExploreMarks {
    let explored = &found.explored;
    if let Some(f) = shown.and_then(|i| explored.findings.get(i)) {
        return ExploreMarks {
            current: f.path.last().cloned(),
            visited: f.path.iter().cloned().collect(),
            covered: Some(f.fired.iter().cloned().collect()),
            reach: None,
        };
    }
    if !coverage {
        return ExploreMarks::default();
    }
    let fired = explored
        .coverage
        .transitions
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(id, _)| id.clone())
        .collect();
    ExploreMarks {
        covered: Some(fired),
        reach: Some(
            explored
                .coverage
                .states
                .iter()
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
        ),
        ..ExploreMarks::default()
    }
}

/// The summary line: "Explored 8,119 ways a conversation can go, every conversation up to 40 turns: 1 error,
/// 2 warnings", or where the search stopped.
pub fn summary(found: &ExploreView) -> String {
    use plan_core::explore::Stopped;
    use plan_core::Severity;
    let explored = &found.explored;
    let count = |s: Severity| {
        explored
            .findings
            .iter()
            .filter(|f| f.finding.severity == s)
            .count()
    };
    let (e, w) = (count(Severity::Error), count(Severity::Warning));
    let plural = |n: usize, one: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {one}s")
        }
    };
    let how = match explored.stopped {
        None => "every conversation".to_string(),
        Some(Stopped::MaxTurns) => format!("stopped at {} turns", WINDOW_BOUNDS.max_turns),
        Some(Stopped::MaxConfigurations) => "stopped at the most it may check".to_string(),
        Some(Stopped::MaxMemory) => "stopped at the memory ceiling".to_string(),
        Some(Stopped::MaxMoves) => "stopped at the work ceiling".to_string(),
        Some(Stopped::Asked) => "stopped".to_string(),
    };
    format!(
        "Explored {} ways a conversation can go ({how}) in {} ms: {}, {}",
        thousands(explored.configurations),
        found.millis,
        plural(e, "error"),
        plural(w, "warning")
    )
}

/// `78028` → "78,028" (`plan_api::messages::thousands`, for a count of the window's).
pub fn thousands(n: usize) -> String {
    plan_api::messages::thousands(n as u64)
}

/// How long a finding's conversation is: "a conversation of 3 turns", "at the opening".
pub fn length_words(f: &FindingView) -> Option<String> {
    let n = f.finding.script.as_ref()?.turns.len();
    Some(match n {
        0 => "shown at the opening".to_string(),
        1 => "shown in a conversation of 1 turn".to_string(),
        n => format!("shown in a conversation of {n} turns"),
    })
}

#[derive(Clone, Copy)]
pub struct Exploring {
    editor: Editor,
    actions: Actions,
    navigation: Navigation,
    test_chat: TestChat,
    /// The last search's answer.
    pub found: RwSignal<Option<ExploreView>>,
    /// A search is under way, and how many configurations it has reached.
    pub running: RwSignal<bool>,
    pub progress: RwSignal<usize>,
    /// Why the last search could not run (a plan with errors, say).
    pub error: RwSignal<Option<ApiError>>,
    /// The finding whose conversation the canvas draws.
    pub shown: RwSignal<Option<usize>>,
    /// The canvas coloured by coverage.
    pub coverage: RwSignal<bool>,
    /// The draft changed since the last search.
    pub stale: RwSignal<bool>,
    /// Edits saved since the plan opened: a search answers for the draft as it was when it began.
    saved_edits: RwSignal<u64>,
}

impl Exploring {
    pub fn new(
        editor: Editor,
        actions: Actions,
        navigation: Navigation,
        test_chat: TestChat,
    ) -> Exploring {
        let exploring = Exploring {
            editor,
            actions,
            navigation,
            test_chat,
            found: RwSignal::new(None),
            running: RwSignal::new(false),
            progress: RwSignal::new(0),
            error: RwSignal::new(None),
            shown: RwSignal::new(None),
            coverage: RwSignal::new(false),
            stale: RwSignal::new(false),
            saved_edits: RwSignal::new(0),
        };
        // Another plan opened: nothing found yet.
        Effect::new(move |before: Option<Option<String>>| {
            let id = editor.id.get();
            if before.is_some_and(|b| b != id) {
                exploring.forget();
            }
            id
        });
        // An edit saved: what was found may no longer hold.
        Effect::new(move |before: Option<bool>| {
            let saved = editor.save.get() == SaveState::Saved;
            if saved && before == Some(false) {
                exploring.saved_edits.update(|n| *n += 1);
                // A plan refused for its errors is tried again after each edit (it is quick).
                if exploring.error.with_untracked(Option::is_some) {
                    exploring.error.set(None);
                }
                if exploring.found.with_untracked(Option::is_some) {
                    exploring.stale.set(true);
                    exploring.shown.set(None);
                }
            }
            saved
        });
        // The tab shown with nothing found yet, or after an edit when the last search was quick:
        // explored by itself.
        Effect::new(move |_| {
            let on_tab = navigation.showing(Tab::Explore);
            let stale = exploring.stale.get();
            let nothing_yet =
                exploring.found.with(Option::is_none) && exploring.error.with(Option::is_none);
            let quick = exploring
                .found
                .with_untracked(|f| f.as_ref().is_some_and(|f| f.millis < QUICK_MILLIS));
            if on_tab && !exploring.running.get_untracked() && (nothing_yet || (stale && quick)) {
                exploring.start();
            }
        });
        ipc::on_explore_progress(move |p| {
            if exploring.running.get_untracked() {
                exploring.progress.set(p.configurations);
            }
        });
        exploring
    }

    fn forget(self) {
        self.found.set(None);
        self.error.set(None);
        self.shown.set(None);
        self.stale.set(false);
        self.progress.set(0);
    }

    /// Explores the draft as it is saved (the autosave first).
    pub fn start(self) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        self.running.set(true);
        self.progress.set(0);
        spawn_local(async move {
            if let Err(why) = self.editor.settled().await {
                self.running.set(false);
                return self.editor.say_refused(why);
            }
            let edits = self.saved_edits.get_untracked();
            let answer = ipc::explore(&id).await;
            // An edit saved while it ran: the answer is of the draft before it.
            let stale = self.saved_edits.get_untracked() != edits;
            if self.editor.id.get_untracked().as_deref() != Some(id.as_str()) {
                return;
            }
            self.running.set(false);
            self.shown.set(None);
            match answer {
                Ok(found) => {
                    self.error.set(None);
                    self.stale.set(stale);
                    self.found.set(Some(found));
                }
                Err(e) => {
                    self.found.set(None);
                    self.stale.set(false);
                    self.error.set(Some(e));
                }
            }
        });
    }

    /// Stops the running search: it answers what it reached.
    pub fn stop(self) {
        spawn_local(async move {
            let _ = ipc::explore_stop().await;
        });
    }

    /// Draws finding `index`'s conversation on the canvas (again: hides it), its states brought
    /// into view together.
    pub fn show(self, index: usize) {
        if self.shown.get_untracked() == Some(index) {
            return self.shown.set(None);
        }
        self.shown.set(Some(index));
        if let Some(f) = self.finding(index) {
            self.actions.frame_states(&f.path);
        }
    }

    /// Colours the canvas by coverage (`on`) or not; either way no finding is drawn.
    pub fn show_coverage(self, on: bool) {
        self.coverage.set(on);
        self.shown.set(None);
    }

    /// Plays finding `index`'s conversation in the test chat.
    pub fn play(self, index: usize) {
        if let Some(script) = self.finding(index).and_then(|f| f.finding.script) {
            self.test_chat.play(script);
        }
    }

    /// Offers finding `index`'s conversation as a test case, to trim and name before it is saved.
    pub fn save_case(self, index: usize) {
        if let Some(case) = self.finding(index).and_then(|f| f.case) {
            self.navigation.open(Dialog::SaveCase(case));
        }
    }

    fn finding(self, index: usize) -> Option<FindingView> {
        self.found.with_untracked(|f| {
            f.as_ref()
                .and_then(|f| f.explored.findings.get(index).cloned())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::explore::{Coverage, Explored, Finding, FindingCode, Place};
    use plan_core::Severity;

    fn found() -> ExploreView {
        let mut coverage = Coverage::default();
        coverage.states.insert("greet".into(), 100);
        coverage.states.insert("billing".into(), 40);
        coverage.states.insert("refund".into(), 3);
        coverage.states.insert("unused".into(), 0);
        coverage.fired(TransitionId::new("greet", 0), 40);
        coverage.fired(TransitionId::new("greet", 1), 0);
        coverage.fired(TransitionId::new("billing", 2), 3);
        ExploreView {
            run: 1,
            millis: 12,
            explored: Explored {
                complete: true,
                stopped: None,
                configurations: 8119,
                conversations: 12,
                turns_max: 6,
                coverage,
                findings: vec![FindingView {
                    finding: Finding {
                        code: FindingCode::RuleBroken,
                        severity: Severity::Error,
                        message: "rule refund-needs-id is broken".into(),
                        location: Place::default(),
                        script: Some(plan_core::runtime::script::Script::default()),
                    },
                    path: vec!["greet".into(), "billing".into(), "refund".into()],
                    fired: vec![
                        TransitionId::new("greet", 0),
                        TransitionId::new("billing", 2),
                    ],
                    case: None,
                    story: Default::default(),
                }],
                compare: None,
                cost: Default::default(),
            },
        }
    }

    #[test]
    fn coverage_levels_go_from_never_to_many() {
        assert_eq!(reach_level(None, 100), "never");
        assert_eq!(reach_level(Some(0), 100), "never");
        assert_eq!(reach_level(Some(3), 100), "few");
        assert_eq!(reach_level(Some(40), 100), "some");
        assert_eq!(reach_level(Some(100), 100), "many");
    }

    #[test]
    fn a_shown_finding_marks_its_path_and_its_last_state() {
        let m = marks(&found(), Some(0), true);
        assert_eq!(m.current.as_deref(), Some("refund"));
        assert_eq!(m.visited.len(), 3);
        let covered = m.covered.unwrap();
        assert!(covered.contains(&TransitionId::new("billing", 2)));
        assert!(!covered.contains(&TransitionId::new("greet", 1)));
        assert!(
            m.reach.is_none(),
            "the path, not the coverage, while one is shown"
        );
    }

    #[test]
    fn coverage_marks_how_often_each_state_is_entered_and_which_arrows_fire() {
        let m = marks(&found(), None, true);
        assert_eq!(m.reach.as_ref().unwrap()["refund"], 3);
        let covered = m.covered.unwrap();
        assert!(covered.contains(&TransitionId::new("greet", 0)));
        assert!(!covered.contains(&TransitionId::new("greet", 1)));
        assert_eq!(marks(&found(), None, false), ExploreMarks::default());
    }

    #[test]
    fn the_summary_counts_and_says_how_far_it_went() {
        assert_eq!(
            summary(&found()),
            "Explored 8,119 ways a conversation can go (every conversation) in 12 ms: 1 error, 0 warnings"
        );
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(999), "999");
        let mut stopped = found();
        stopped.explored.complete = false;
        stopped.explored.stopped = Some(plan_core::explore::Stopped::MaxMemory);
        assert!(summary(&stopped).contains("(stopped at the memory ceiling)"));
        stopped.explored.stopped = Some(plan_core::explore::Stopped::MaxMoves);
        assert!(summary(&stopped).contains("(stopped at the work ceiling)"));
    }
}
