//! Sharing the workspace through git in the window (issue 45): the Share panel's state and its
//! three steps (save a checkpoint, get others' changes, send mine), and the open plan's
//! conflicts left by a get, chosen one by one (Keep mine; Take theirs, an edit command and one
//! undo step). The decisions are here and in [`words`]; the views only show them.

pub mod banner;
pub mod words;

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::share::{Author, Choice, ShareStatus};
use plan_api::ApiError;
use plan_core::edit::Command;
use plan_core::merge::Conflict;

use crate::editor::Editor;
use crate::ipc;
use crate::opening::Opening;

/// What the last step said: done, or refused, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Said {
    /// The step was refused (said in git's or the shell's words).
    pub refused: bool,
    /// What happened, a line each.
    pub lines: Vec<String>,
}

#[derive(Clone, Copy)]
pub struct Sharing {
    editor: Editor,
    opening: Opening,
    /// The workspace's state for the Share panel; none until asked, an error when the
    /// workspace is not in a git repository.
    pub status: RwSignal<Option<Result<ShareStatus, ApiError>>>,
    /// What the last step said.
    pub said: RwSignal<Option<Said>>,
    /// A step is under way.
    pub busy: RwSignal<bool>,
    /// The open plan's conflicts left by a get, not chosen yet.
    pub conflicts: RwSignal<Vec<Conflict>>,
}

impl Sharing {
    pub fn new(editor: Editor, opening: Opening) -> Sharing {
        let sharing = Sharing {
            editor,
            opening,
            status: RwSignal::new(None),
            said: RwSignal::new(None),
            busy: RwSignal::new(false),
            conflicts: RwSignal::new(Vec::new()),
        };
        // The open plan's conflicts, read when it opens and whenever plan files change.
        Effect::new(move |_| {
            opening.plans.track();
            match editor.id.get() {
                Some(id) => sharing.read_conflicts(id),
                None => sharing.conflicts.set(Vec::new()),
            }
        });
        sharing
    }

    fn read_conflicts(self, id: String) {
        spawn_local(async move {
            let found = ipc::plan_conflicts(&id).await.unwrap_or_default();
            if self.editor.id.get_untracked().as_deref() == Some(id.as_str()) {
                self.conflicts.set(found);
            }
        });
    }

    /// The Share panel's state asked for again.
    pub fn refresh(self) {
        spawn_local(async move {
            let status = ipc::share_status().await;
            self.status.set(Some(status));
        });
    }

    /// Runs one step: busy meanwhile, its words (or its refusal's) said, the state asked again.
    fn step<T: 'static>(
        self,
        run: impl std::future::Future<Output = Result<T, ApiError>> + 'static,
        words: impl Fn(&T) -> Vec<String> + 'static,
    ) {
        if self.busy.get_untracked() {
            return;
        }
        self.busy.set(true);
        spawn_local(async move {
            let said = match run.await {
                Ok(answer) => Said {
                    refused: false,
                    lines: words(&answer),
                },
                Err(e) => Said {
                    refused: true,
                    lines: vec![e.message],
                },
            };
            self.editor.say(said.lines.join(" "));
            self.said.set(Some(said));
            self.busy.set(false);
            self.refresh();
            self.opening.refresh();
            if let Some(id) = self.editor.id.get_untracked() {
                self.read_conflicts(id);
            }
        });
    }

    /// Plan `id`'s title, as the plan list has it (its id when it has none).
    pub fn title_of(self, id: &str) -> String {
        self.opening.plans.with_untracked(|list| {
            list.iter()
                .find(|p| p.id == id)
                .map_or_else(|| id.to_string(), |p| p.title.clone())
        })
    }

    /// Saves a checkpoint with the author's words (`who` kept first, when git did not know them).
    pub fn checkpoint(self, message: String, who: Option<Author>) {
        self.step(ipc::share_checkpoint(message, who), move |saved| {
            vec![match &saved.commit {
                Some(c) => format!(
                    "Checkpoint {c} saved: {}.",
                    words::plan_list(&saved.plans, &|id| self.title_of(id))
                ),
                None => "Nothing to save: no plan changed since the last checkpoint.".into(),
            }]
        });
    }

    /// Gets others' changes.
    pub fn get(self) {
        self.step(ipc::share_get(), move |got| {
            words::received(got, &|id| self.title_of(id))
        });
    }

    /// Sends ours.
    pub fn send(self) {
        self.step(ipc::share_send(), move |sent| {
            vec![if sent.plans.is_empty() {
                format!("Nothing to send: {} has all your checkpoints.", sent.to)
            } else {
                format!(
                    "Sent to {}: {}.",
                    sent.to,
                    words::plan_list(&sent.plans, &|id| self.title_of(id))
                )
            }]
        });
    }

    /// The conflict at `path` kept as the draft has it (ours, or the author's edit of it).
    pub fn keep_mine(self, path: String) {
        self.forget(path, Choice::KeepMine);
    }

    /// The conflict taken as theirs: their value put into the draft (one undo step), then the
    /// conflict forgotten.
    pub fn take_theirs(self, conflict: Conflict) {
        let path = conflict.path.clone();
        if self
            .editor
            .dispatch(Command::TakeTheirs(Box::new(conflict)))
        {
            self.forget(path, Choice::Edited);
        }
    }

    fn forget(self, path: String, choice: Choice) {
        let Some(id) = self.editor.id.get_untracked() else {
            return;
        };
        spawn_local(async move {
            match ipc::resolve_conflict(&id, &path, choice).await {
                Ok(left) => {
                    if left.is_empty() {
                        self.editor
                            .say("No conflict left: save a checkpoint, then send.");
                    }
                    self.conflicts.set(left);
                }
                Err(e) => self.editor.say_refused(e.message),
            }
        });
    }
}
