//! The Simulate tab's store: the open plan's personas and past runs, a run's settings as the
//! author types them, a run made by the shell in the background with its progress and a Stop, and
//! the report shown (the run just made, or a past one opened or replayed). The decisions are pure
//! functions here, tested natively; `panels::simulate` shows them.

pub mod compare;
pub mod cost;
pub mod persona_form;
pub mod run_form;
pub mod stepping;

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::{
    ConversationView, PersonaTally, RunComparison, RunReport, RunSettings, SimulateArgs,
    SimulateProgress, SimulationOverview,
};
use plan_core::coverage::TransitionId;
use plan_core::simulate::conversation::{Status, VerdictRecord};
use plan_core::simulate::judge::Verdict;

use crate::editor::Editor;
use crate::ipc;
use crate::navigation::{Navigation, Tab};

/// How the window names state `id`: its title (the id only where the title cannot tell it apart,
/// or for a state the plan no longer has).
pub fn state_words(names: &[crate::plan_names::StateName], id: &str) -> String {
    names
        .iter()
        .find(|s| s.id == id)
        .map(|s| s.label(names))
        .unwrap_or_else(|| id.to_string())
}

/// How the window names persona `id`: its title, else its id.
pub fn persona_words(overview: Option<&SimulationOverview>, id: &str) -> String {
    overview
        .and_then(|o| o.personas.iter().find(|p| p.id == id))
        .map(|p| p.name.clone())
        .unwrap_or_else(|| id.to_string())
}

/// A status in the author's words.
pub fn status_words(status: Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Unsure => "unsure",
        Status::CallerFailed => "caller failed",
        Status::Error => "could not finish",
        Status::Diverged => "left its recording",
        Status::Stopped => "stopped",
    }
}

/// A persona's conversations counted: "3 passed, 1 failed" (`unsure` and caller failures when
/// any).
pub fn tally_words(t: &PersonaTally) -> String {
    let mut out = format!("{} passed, {} failed", t.passed, t.failed);
    if t.unsure > 0 {
        let _ = write!(out, ", {} unsure", t.unsure);
    }
    if t.caller_failed > 0 {
        let _ = write!(out, ", {} caller failed", t.caller_failed);
    }
    out
}

/// The whole run counted, over its personas.
pub fn run_words(tallies: &[PersonaTally]) -> String {
    let mut all = PersonaTally::default();
    for t in tallies {
        all.passed += t.passed;
        all.failed += t.failed;
        all.unsure += t.unsure;
        all.caller_failed += t.caller_failed;
    }
    tally_words(&all)
}

/// A verdict as a line: "yes (3 of 3 votes agree)", "not asked: its session states were never
/// active".
pub fn verdict_words(v: &VerdictRecord) -> String {
    if v.verdict == Verdict::NotAsked {
        return "not asked: its session states were never active".to_string();
    }
    let (agree, of) = v.agreement.split_once('/').unwrap_or(("0", "0"));
    let word = match v.verdict {
        Verdict::Yes => "yes",
        Verdict::No => "no",
        _ => "unsure",
    };
    format!("{word} ({agree} of {of} votes agree)")
}

/// What the heat map marks on the canvas: by state, how many conversations entered it, and ended
/// and stalled there; the transitions some conversation took.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeatMarks {
    pub entered: HashMap<String, usize>,
    pub ended_stalled: HashMap<String, (u32, u32)>,
    pub taken: HashSet<TransitionId>,
}

/// The heat map of `report`.
pub fn heat_marks(report: &RunReport) -> HeatMarks {
    let heat = &report.heat;
    let mut ended_stalled: HashMap<String, (u32, u32)> = HashMap::new();
    for (state, n) in &heat.ended_in {
        ended_stalled.entry(state.clone()).or_default().0 = *n;
    }
    for (state, n) in &heat.stalled_in {
        ended_stalled.entry(state.clone()).or_default().1 = *n;
    }
    HeatMarks {
        entered: heat
            .states
            .iter()
            .map(|(k, v)| (k.clone(), *v as usize))
            .collect(),
        ended_stalled,
        taken: heat
            .transitions
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(t, _)| t.clone())
            .collect(),
    }
}

#[derive(Clone, Copy)]
pub struct Simulating {
    editor: Editor,
    /// The open plan's personas and runs.
    pub overview: RwSignal<Option<SimulationOverview>>,
    /// The run shown.
    pub report: RwSignal<Option<RunReport>>,
    /// A run is under way, and how far it has come.
    pub running: RwSignal<bool>,
    pub progress: RwSignal<Option<SimulateProgress>>,
    /// Why the last request could not be done.
    pub error: RwSignal<Option<String>>,
    /// Two runs compared (`compare`), shown until another run is opened or made.
    pub comparison: RwSignal<Option<RunComparison>>,
    /// The run's settings as typed (`run_form`).
    pub run_fields: RwSignal<run_form::RunFields>,
    /// The run shown coloured on the canvas (the heat map).
    pub heat: RwSignal<bool>,
    /// The conversation opened read-only, turn by turn, and what saving it as a test case said.
    pub opened: RwSignal<Option<ConversationView>>,
    /// The turn of the opened conversation shown on the canvas (`stepping`; none: its end).
    pub step: RwSignal<Option<usize>>,
    pub saved: RwSignal<Option<String>>,
    /// The caller being written in the form (`crate::simulate::persona_form`), and why it was not saved.
    pub persona_form: RwSignal<Option<persona_form::PersonaFields>>,
    pub persona_error: RwSignal<Option<String>>,
}

impl Simulating {
    pub fn new(editor: Editor, navigation: Navigation) -> Simulating {
        let simulating = Simulating {
            editor,
            overview: RwSignal::new(None),
            report: RwSignal::new(None),
            running: RwSignal::new(false),
            progress: RwSignal::new(None),
            error: RwSignal::new(None),
            comparison: RwSignal::new(None),
            run_fields: RwSignal::new(run_form::RunFields::default()),
            heat: RwSignal::new(true),
            opened: RwSignal::new(None),
            step: RwSignal::new(None),
            saved: RwSignal::new(None),
            persona_form: RwSignal::new(None),
            persona_error: RwSignal::new(None),
        };
        // Another plan opened: nothing shown of the one before.
        Effect::new(move |before: Option<Option<String>>| {
            let id = editor.id.get();
            if before.is_some_and(|b| b != id) {
                simulating.overview.set(None);
                simulating.report.set(None);
                simulating.error.set(None);
                simulating.persona_form.set(None);
            }
            id
        });
        // The tab shown: its personas and runs read again (files the author edits beside the app).
        Effect::new(move |_| {
            if navigation.showing(Tab::Simulate) && editor.id.get().is_some() {
                simulating.refresh();
            }
        });
        ipc::on_simulate_progress(move |p| {
            if simulating.running.get_untracked() {
                simulating.progress.set(Some(p));
            }
        });
        simulating
    }

    /// How many evaluations the open plan asks of a conversation, at most.
    pub fn evaluations(self) -> usize {
        self.editor
            .plan
            .with(|p| p.as_ref().map(|p| p.evaluations.len()).unwrap_or(0))
    }

    /// What a run with the form's settings will ask of the model server, at most, and about how
    /// long it takes (from the last run with the same model), in words.
    pub fn estimate_words(self) -> String {
        self.overview.with(|o| {
            let Some(o) = o else {
                return String::new();
            };
            let (conversations, votes, agent) = self
                .run_fields
                .with(|f| (f.conversations, f.votes, f.agent_llm));
            let e = cost::estimate(&o.personas, self.evaluations(), conversations, votes, agent);
            let time = self.run_fields.with(|f| {
                cost::time_words(&o.runs, (&f.caller_url, &f.caller_model), e.requests())
            });
            match time {
                Some(t) => format!("{} {t}", cost::estimate_words(&e)),
                None => cost::estimate_words(&e),
            }
        })
    }

    /// The open plan's id.
    pub fn editor_id(self) -> Option<String> {
        self.editor.id.get_untracked()
    }

    /// Reads the open plan's personas and runs again.
    pub fn refresh(self) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        spawn_local(async move {
            let answer = ipc::simulation_overview(&id).await;
            if self.editor.id.get_untracked().as_deref() != Some(id.as_str()) {
                return;
            }
            match answer {
                Ok(overview) => {
                    // The form starts from the app's saved model server, once.
                    if let Some(caller) = &overview.caller {
                        if self.run_fields.with_untracked(|f| f.caller_url.is_empty()) {
                            self.run_fields.update(|f| {
                                f.caller_url = caller.base_url.clone();
                                f.caller_model = caller.model.clone();
                            });
                        }
                    }
                    self.overview.set(Some(overview));
                }
                Err(e) => self.error.set(Some(e.message)),
            }
        });
    }

    /// Runs every persona of the open plan's draft with the form's settings.
    pub fn run(self) {
        let settings = self.run_fields.with_untracked(run_form::settings_of);
        match settings {
            Ok(settings) => self.start(Some(settings), None),
            Err(why) => self.error.set(Some(why)),
        }
    }

    /// Replays past run `run` from its recording, with its recorded settings: nothing is sent.
    pub fn replay(self, run: String) {
        self.start(None, Some(run));
    }

    fn start(self, settings: Option<RunSettings>, replay: Option<String>) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        self.running.set(true);
        self.progress.set(None);
        self.error.set(None);
        spawn_local(async move {
            if let Err(why) = self.editor.settled().await {
                self.running.set(false);
                return self.error.set(Some(why));
            }
            let args = SimulateArgs {
                plan: id.clone(),
                revision: Some(plan_core::Revision::Draft),
                personas: Vec::new(),
                seed: None,
                settings,
                replay,
                record_missing: false,
            };
            let answer = ipc::simulate(&args).await;
            self.running.set(false);
            if self.editor.id.get_untracked().as_deref() != Some(id.as_str()) {
                return;
            }
            match answer {
                Ok(report) => {
                    self.opened.set(None);
                    self.comparison.set(None);
                    self.report.set(Some(report));
                }
                Err(e) => self.error.set(Some(e.message)),
            }
            self.refresh();
        });
    }

    /// Stops the run under way; it keeps what finished.
    pub fn stop(self) {
        spawn_local(async move {
            let _ = ipc::simulate_stop().await;
        });
    }

    /// Opens conversation `k` of `persona` in the run shown, read-only (again: closes it).
    pub fn open_conversation(self, persona: String, k: u32) {
        let same = self.opened.with_untracked(|o| {
            o.as_ref().is_some_and(|o| {
                o.conversation.outcome.persona == persona && o.conversation.outcome.k == k
            })
        });
        self.saved.set(None);
        if same {
            return self.opened.set(None);
        }
        let (Some(id), Some(run)) = (
            self.editor.id.get_untracked(),
            self.report
                .with_untracked(|r| r.as_ref().map(|r| r.run.clone())),
        ) else {
            return;
        };
        spawn_local(async move {
            match ipc::run_conversation(&id, &run, &persona, k).await {
                Ok(view) => {
                    self.step.set(None);
                    self.opened.set(Some(view));
                }
                Err(e) => self.error.set(Some(e.message)),
            }
        });
    }

    /// Saves the conversation opened as test case `name` of the plan.
    pub fn save_case(self, name: String) {
        let (Some(id), Some(script)) = (
            self.editor.id.get_untracked(),
            self.opened
                .with_untracked(|o| o.as_ref().map(|o| o.case.clone())),
        ) else {
            return;
        };
        spawn_local(async move {
            match ipc::save_case(&id, name.trim(), &script).await {
                Ok(saved) => self.saved.set(Some(format!("Saved as {}", saved.file))),
                Err(e) => self.saved.set(Some(e.message)),
            }
        });
    }

    /// Shows past run `run`.
    pub fn open(self, run: String) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        spawn_local(async move {
            match ipc::run_report(&id, &run).await {
                Ok(report) => {
                    self.error.set(None);
                    self.opened.set(None);
                    self.comparison.set(None);
                    self.report.set(Some(report));
                }
                Err(e) => self.error.set(Some(e.message)),
            }
        });
    }

    /// Past run `run` compared with the run shown.
    pub fn compare(self, run: String) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        let Some(shown) = self
            .report
            .with_untracked(|r| r.as_ref().map(|r| r.run.clone()))
        else {
            return;
        };
        spawn_local(async move {
            match ipc::compare_runs(&id, &shown, &run).await {
                Ok(c) => {
                    self.error.set(None);
                    self.comparison.set(Some(c));
                }
                Err(e) => self.error.set(Some(e.message)),
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heat_map_counts_conversations_by_state_and_marks_the_arrows_taken() {
        let report: RunReport = serde_json::from_value(serde_json::json!({
            "run": "r", "plan": {"id": "p", "draft": true, "hash": "h"}, "seed": 1,
            "conversations": [], "personas": [],
            "heat": {"states": {"a": 4, "b": 3}, "transitions": {"a/0": 3, "a/1": 0},
                     "ended_in": {"b": 2}, "stalled_in": {"a": 1, "b": 1}}
        }))
        .unwrap();
        let heat = heat_marks(&report);
        assert_eq!(heat.entered.get("a"), Some(&4));
        assert_eq!(heat.ended_stalled.get("b"), Some(&(2, 1)));
        assert_eq!(heat.ended_stalled.get("a"), Some(&(0, 1)));
        assert_eq!(heat.taken, HashSet::from([TransitionId::new("a", 0)]));
        let (words, shown) = crate::canvas::items::reach_words(3, Some((2, 1)));
        assert_eq!(shown, "3 in · 2 ended · 1 stalled");
        assert!(words.contains("3 entered, 2 ended here, 1 stalled here"));
        assert_eq!(
            crate::canvas::items::reach_words(0, Some((0, 0))).1,
            "never"
        );
    }

    #[test]
    fn counts_and_verdicts_read_as_words() {
        let t = PersonaTally {
            id: "a".into(),
            passed: 3,
            failed: 1,
            unsure: 0,
            caller_failed: 2,
        };
        assert_eq!(tally_words(&t), "3 passed, 1 failed, 2 caller failed");
        assert_eq!(
            run_words(&[t.clone(), t]),
            "6 passed, 2 failed, 4 caller failed"
        );
        let v = VerdictRecord {
            id: "q".into(),
            question: "Q?".into(),
            verdict: Verdict::Unsure,
            votes: vec![],
            reasons: vec![],
            agreement: "2/3".into(),
            turns_shown: vec![],
        };
        assert_eq!(verdict_words(&v), "unsure (2 of 3 votes agree)");
        assert_eq!(status_words(Status::CallerFailed), "caller failed");
    }
}
