//! The test chat: a conversation with the plan run by the shell's simulator or a language model
//! (the agent switch, its settings, a failed turn kept for Retry or the simulator), one turn at a time
//! (every turn saved in the workspace), what the canvas lights for it, taking a turn back, test
//! from here, a conversation saved as a test case, and the plan's suite run with its coverage.
//! The decisions are here; `panels::chat` shows them.

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::{AgentKind, AgentSettings, CaseRun, ChatView, SuiteProgress, SuiteRun};
use plan_api::{ApiError, ErrorCode};
use plan_core::runtime::script::Script;
use plan_core::runtime::{Preset, Start, ToolResults};
use plan_core::Revision;

use crate::actions::Actions;
use crate::editor::{Editor, Mode, SaveState};
use crate::ipc;
use crate::lifecycle::Lifecycle;
use crate::navigation::{Dialog, Navigation, Tab};

mod agent;
mod answering;
mod beginning;
mod conversation_status;
mod marks;
mod play;
mod transcript;
pub use agent::{
    call_lines, conversation_cost, cost_line, model_takes_part, no_functions_turn, writer_label,
    CallLine, FailedTurn, SettingsForm,
};
pub use beginning::{preset_rows, summary, BeginChange, PresetRow};
pub use conversation_status::{
    counters, goal_words, known_rows, parked_text, session_rows, task_rows, KnownRow, SessionRow,
    TaskRow,
};
pub use marks::{marks, state_at, ChatMarks};
pub use transcript::{sentence_start, transcript_lines, TranscriptLine};

/// What the top bar says while a conversation is on: "Testing the draft", "Testing version 2".
pub fn label(revision: Revision) -> String {
    format!("Testing {revision}")
}

#[derive(Clone, Copy)]
pub struct TestChat {
    editor: Editor,
    actions: Actions,
    lifecycle: Lifecycle,
    navigation: Navigation,
    /// The conversation shown, if any.
    chat: RwSignal<Option<ChatView>>,
    /// A turn (or a start, a suite run) is under way.
    busy: RwSignal<bool>,
    /// Why the last request failed.
    error: RwSignal<Option<ApiError>>,
    /// What a new conversation runs: the draft, the live version or a version.
    run: RwSignal<Revision>,
    /// Where a new conversation begins, and what is known from the start.
    from: RwSignal<Start>,
    /// The last suite run, and how far the running one is.
    suite: RwSignal<Option<SuiteRun>>,
    progress: RwSignal<Option<SuiteProgress>>,
    /// A failing case opened from the suite's results.
    case: RwSignal<Option<CaseRun>>,
    /// Who answers the turns: the simulator or the language model (docs/agents.md).
    agent: RwSignal<AgentKind>,
    /// What each tool returns when the agent calls it without a code (the tool switches).
    tool_results: RwSignal<ToolResults>,
    /// The turn the language model failed, kept for Retry or the simulator.
    failed: RwSignal<Option<FailedTurn>>,
    /// The language model's settings as kept (none: not set up yet), and the form's state.
    settings: RwSignal<Option<AgentSettings>>,
    settings_note: RwSignal<Option<Result<String, String>>>,
    /// The models the server listed in the last "Test connection".
    models: RwSignal<Vec<String>>,
}

impl TestChat {
    pub fn new(
        editor: Editor,
        actions: Actions,
        lifecycle: Lifecycle,
        navigation: Navigation,
    ) -> TestChat {
        let test_chat = TestChat {
            editor,
            actions,
            lifecycle,
            navigation,
            chat: RwSignal::new(None),
            busy: RwSignal::new(false),
            error: RwSignal::new(None),
            run: RwSignal::new(Revision::Draft),
            from: RwSignal::new(Start::default()),
            suite: RwSignal::new(None),
            progress: RwSignal::new(None),
            case: RwSignal::new(None),
            agent: RwSignal::new(AgentKind::Simulator),
            tool_results: RwSignal::new(ToolResults::new()),
            failed: RwSignal::new(None),
            settings: RwSignal::new(None),
            settings_note: RwSignal::new(None),
            models: RwSignal::new(Vec::new()),
        };
        // A plan opened: its newest conversation is shown where it was (a new plan has none yet).
        Effect::new(move |before: Option<Option<String>>| {
            let id = editor.id.get();
            if before.as_ref() != Some(&id) {
                test_chat.forget();
                if let Some(id) = id.clone() {
                    // Asked once the plan is on screen (two frames on, and a moment after): its
                    // answer, and the shell's work for it, never hold up the plan's first frame
                    // (it did: open at 1,000 states 1,222 ms, the frame waiting for this answer).
                    request_animation_frame(move || {
                        request_animation_frame(move || {
                            set_timeout(
                                move || test_chat.load_latest(id),
                                std::time::Duration::from_millis(50),
                            )
                        })
                    });
                }
            }
            id
        });
        // The draft saved with the conversation in view (or the tab opened after edits): the
        // shell says whether the conversation can still go on in the plan as it is now.
        Effect::new(move |before: Option<bool>| {
            let now = navigation.showing(Tab::Chat) && editor.save.get() == SaveState::Saved;
            if now && before != Some(true) {
                test_chat.check_current();
            }
            now
        });
        ipc::on_suite_progress(move |p| test_chat.progress.set(Some(p)));
        test_chat
    }

    /// The conversation shown, if any.
    pub fn chat(&self) -> ReadSignal<Option<ChatView>> {
        self.chat.read_only()
    }

    /// Whether a turn (or a start, a suite run) is under way.
    pub fn busy(&self) -> ReadSignal<bool> {
        self.busy.read_only()
    }

    /// What a new conversation runs.
    pub fn run(&self) -> ReadSignal<Revision> {
        self.run.read_only()
    }

    /// Where a new conversation begins, and what is known from the start.
    pub fn from(&self) -> ReadSignal<Start> {
        self.from.read_only()
    }

    /// The last suite run.
    pub fn suite(&self) -> ReadSignal<Option<SuiteRun>> {
        self.suite.read_only()
    }

    /// The failing case opened from the suite's results.
    pub fn case(&self) -> ReadSignal<Option<CaseRun>> {
        self.case.read_only()
    }

    /// Who answers the turns.
    pub fn agent(&self) -> ReadSignal<AgentKind> {
        self.agent.read_only()
    }

    /// The turn the language model failed, kept for Retry or the simulator.
    pub fn failed(&self) -> ReadSignal<Option<FailedTurn>> {
        self.failed.read_only()
    }

    /// The language model's settings as kept (none: not set up yet).
    pub fn settings(&self) -> ReadSignal<Option<AgentSettings>> {
        self.settings.read_only()
    }

    /// Why the last request failed.
    pub fn error(&self) -> ReadSignal<Option<ApiError>> {
        self.error.read_only()
    }

    /// How far the running suite is.
    pub fn progress(&self) -> ReadSignal<Option<SuiteProgress>> {
        self.progress.read_only()
    }

    /// What each tool returns when the agent calls it without a code.
    pub fn tool_results(&self) -> ReadSignal<ToolResults> {
        self.tool_results.read_only()
    }

    /// The models the server listed in the last "Test connection".
    pub fn models(&self) -> ReadSignal<Vec<String>> {
        self.models.read_only()
    }

    /// What the last "Test connection" or "Save" of the settings said.
    pub fn settings_note(&self) -> ReadSignal<Option<Result<String, String>>> {
        self.settings_note.read_only()
    }

    /// Changes how a new conversation begins (the one in view goes on as it began).
    pub fn change_beginning(self, change: BeginChange) {
        match change {
            BeginChange::Run(run) => self.run.set(run),
            other => self.from.update(|start| beginning::apply(start, other)),
        }
    }

    /// Closes the failing case opened from the suite's results; the conversation shows again.
    pub fn close_case(self) {
        self.case.set(None);
    }

    /// Asks again whether the shown conversation of the draft can go on (its plan may have
    /// changed); only its `stale` is taken from the answer.
    fn check_current(self) {
        let Some((id, name)) = self.chat.with_untracked(|c| {
            c.as_ref()
                .filter(|c| c.revision == Revision::Draft && c.stale.is_none())
                .map(|c| (c.id.clone(), c.name.clone()))
        }) else {
            return;
        };
        spawn_local(async move {
            if let Ok(Some(view)) = ipc::chat_latest(&id).await {
                if view.name == name && view.stale.is_some() {
                    self.chat.update(|c| {
                        if let Some(c) = c.as_mut().filter(|c| c.name == name) {
                            c.stale = view.stale;
                        }
                    });
                }
            }
        });
    }

    /// Whether the top bar says "Testing": a conversation is shown in the Chat tab.
    pub fn is_on(&self) -> bool {
        self.navigation.showing(Tab::Chat) && self.chat.with(Option::is_some)
    }

    fn forget(self) {
        self.chat.set(None);
        self.failed.set(None);
        self.tool_results.set(ToolResults::new());
        self.error.set(None);
        self.suite.set(None);
        self.case.set(None);
        self.progress.set(None);
        self.from.set(Start::default());
    }

    fn load_latest(self, id: String) {
        spawn_local(async move {
            let answer = ipc::chat_latest(&id).await;
            if self.editor.id.get_untracked().as_deref() != Some(id.as_str()) {
                return;
            }
            match answer {
                // Shown when the author opens the Chat tab; a version's, on that version.
                Ok(Some(view)) => {
                    self.run.set(view.revision);
                    self.chat.set(Some(view));
                }
                Ok(None) => {}
                // Its log cannot be read, say: said in the Chat tab, never a history lost silently.
                Err(e) => self.error.set(Some(e)),
            }
        });
    }

    /// Shows what a request answered, or why it failed.
    fn show(self, answer: Result<ChatView, ApiError>) {
        self.busy.set(false);
        match answer {
            Ok(view) => {
                self.error.set(None);
                self.case.set(None);
                self.show_document(view.revision);
                self.chat.set(Some(view));
            }
            // The plan changed under the conversation: offered a restart, not an error.
            Err(e) if e.code == ErrorCode::Stale && self.chat.with_untracked(Option::is_some) => {
                self.chat.update(|c| {
                    if let Some(c) = c.as_mut() {
                        c.stale = Some(e.message);
                    }
                });
            }
            Err(e) => self.error.set(Some(e)),
        }
    }

    /// Starts a new conversation as `run` and `from` say (the canvas shows what it runs).
    pub fn start(self) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        let (revision, from) = (self.run.get_untracked(), self.from.get_untracked());
        self.busy.set(true);
        self.navigation.show(Tab::Chat);
        spawn_local(async move {
            // A chat of the draft runs what the author sees: the autosave first.
            if revision == Revision::Draft {
                if let Err(why) = self.editor.settled().await {
                    self.busy.set(false);
                    return self.editor.say_refused(why);
                }
            }
            let answer = ipc::chat_start(&id, Some(revision), &from).await;
            self.show(answer);
        });
    }

    /// The canvas shows the document the conversation runs: the draft, or that version
    /// read-only (its states may differ from the draft's).
    fn show_document(self, revision: Revision) {
        let shown = self.editor.mode.get_untracked();
        match revision {
            Revision::Draft if !shown.is_draft() => self.lifecycle.back_to_draft(),
            Revision::Version(n) if shown != Mode::Version(n) => self.lifecycle.view(n),
            _ => {}
        }
    }

    /// A new conversation beginning as the shown one did.
    pub fn restart(self) {
        if let Some(view) = self.chat.get_untracked() {
            self.run.set(view.revision);
            self.from.set(view.start);
        }
        self.start();
    }

    /// One turn: the author's message (or a tool's call from its button), answered by the agent
    /// chosen.
    pub fn say(self, message: String) {
        self.say_as(message, None);
    }

    /// The author sets a session state by hand during the conversation (`by: author`).
    pub fn set_session_state(self, state: String, preset: Preset) {
        let Some(view) = self.chat.get_untracked() else {
            return;
        };
        if self.busy.get_untracked() {
            return;
        }
        self.busy.set(true);
        spawn_local(async move {
            let answer = ipc::chat_set_state(&view.id, &view.name, &state, &preset).await;
            self.show(answer);
        });
    }

    /// Takes the last turn back, to try another answer.
    pub fn step_back(self) {
        let Some(view) = self.chat.get_untracked() else {
            return;
        };
        self.busy.set(true);
        spawn_local(async move {
            let answer = ipc::chat_step_back(&view.id, &view.name).await;
            self.show(answer);
        });
    }

    /// Test from here: the Chat tab, ready to begin in state `id` with the values the author
    /// gives.
    pub fn test_from(self, state: String) {
        self.from.update(|f| f.state = Some(state));
        self.chat.set(None);
        self.case.set(None);
        self.navigation.show(Tab::Chat);
    }

    /// The conversation as a test case, for the author to trim in a dialog before it is saved.
    pub fn propose_case(self) {
        let Some(view) = self.chat.get_untracked() else {
            return;
        };
        spawn_local(async move {
            match ipc::chat_case(&view.id, &view.name).await {
                Ok(script) => self.navigation.open(Dialog::SaveCase(script)),
                Err(e) => self.error.set(Some(e)),
            }
        });
    }

    /// Saves `script` as test case `name` of the open plan; a refusal is `refused`'s to show.
    pub fn save_case(self, name: String, script: Script, refused: RwSignal<Option<ApiError>>) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        spawn_local(async move {
            match ipc::save_case(&id, name.trim(), &script).await {
                Ok(saved) => {
                    self.lifecycle.close_dialog();
                    self.editor.say(format!(
                        "Saved the conversation as the test case {}.",
                        saved.file
                    ));
                    // Listed at once with the others, each with its result: the suite runs in
                    // the simulator, a few milliseconds a case.
                    self.run_suite();
                }
                Err(e) => refused.set(Some(e)),
            }
        });
    }

    /// Runs every saved case of the open plan against what `run` says (the draft by default).
    pub fn run_suite(self) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        let revision = self.run.get_untracked();
        self.busy.set(true);
        // Shown at once, before the first case is done ("Running the suite…").
        self.progress.set(Some(SuiteProgress { done: 0, total: 0 }));
        self.case.set(None);
        spawn_local(async move {
            if revision == Revision::Draft {
                let _ = self.editor.settled().await;
            }
            let answer = ipc::run_suite(&id, Some(revision)).await;
            self.busy.set(false);
            match answer {
                Ok(run) => {
                    self.error.set(None);
                    self.suite.set(Some(run));
                }
                Err(e) => self.error.set(Some(e)),
            }
        });
    }

    /// Opens a failing case of the last suite run at the turn where it differed.
    pub fn open_case(self, name: String) {
        let case = self.suite.with_untracked(|s| {
            s.as_ref()
                .and_then(|s| s.cases.iter().find(|c| c.name == name).cloned())
        });
        if let Some(case) = case {
            if let Some(state) = state_at(&case, case.failures.first().map_or(0, |f| f.turn)) {
                self.actions.centre_on(&state);
            }
            self.case.set(Some(case));
        }
    }
}

#[cfg(test)]
mod tests;
