//! The editor store: the one place the open plan lives and changes.
//!
//! The plan changes only through [`Editor::dispatch`] (a `plan_core::edit::Command`), undo and
//! redo, and reloads from disk. Every change is kept in the [`history::History`] and saved to
//! `draft.json` by the autosave below within a second. Derived state (the canvas scene, the
//! problems) is computed from the plan by `Memo`s elsewhere; `Effect`s only talk to the outside.

pub mod history;

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_core::edit::{apply, Command};
use plan_core::ipc::IpcError;
use plan_core::Plan;

use crate::ipc;
use history::History;

/// How soon after a change the draft is written (a change during a save is written right after).
const SAVE_AFTER: Duration = Duration::from_millis(300);
/// How long to wait before trying a failed save again.
const RETRY_AFTER: Duration = Duration::from_millis(1_500);

/// What is selected on the canvas.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    pub states: Vec<String>,
    /// A transition: its source state and index.
    pub transition: Option<(String, usize)>,
}

impl Selection {
    pub fn state(id: &str) -> Selection {
        Selection {
            states: vec![id.to_string()],
            transition: None,
        }
    }
}

/// What the file on disk holds when the author must choose between it and the editor's plan.
#[derive(Debug, Clone, PartialEq)]
pub enum Theirs {
    /// Another writer's draft, which came while the editor had unsaved edits.
    Plan(Plan),
    /// The file can no longer be read (why): the editor keeps the plan and writes nothing until
    /// the author chooses, or the file becomes readable again.
    Unreadable(IpcError),
}

/// Where the draft stands against the file on disk.
#[derive(Debug, Clone, PartialEq)]
pub enum SaveState {
    Saved,
    /// Changed, waiting to be written.
    Unsaved,
    Saving,
    /// The last write failed; it is retried.
    Failed(String),
    /// The file changed on disk while there were unsaved edits: the author chooses.
    Conflict,
}

impl SaveState {
    /// What the status bar says.
    pub fn label(&self) -> String {
        match self {
            SaveState::Saved => "Saved".into(),
            SaveState::Unsaved | SaveState::Saving => "Saving…".into(),
            SaveState::Failed(why) => format!("Not saved: {why}"),
            SaveState::Conflict => "Conflict".into(),
        }
    }
}

/// The editor's state, shared by every view (all fields are cheap copies of signal handles).
#[derive(Clone, Copy)]
pub struct Editor {
    /// The id of the open plan.
    pub id: RwSignal<Option<String>>,
    pub plan: RwSignal<Option<Plan>>,
    pub selection: RwSignal<Selection>,
    pub save: RwSignal<SaveState>,
    pub can_undo: RwSignal<bool>,
    pub can_redo: RwSignal<bool>,
    /// The draft on disk when it changed under unsaved edits, or broke.
    pub theirs: RwSignal<Option<Theirs>>,
    /// The latest message for the author (a refused edit, what a delete took with it).
    pub notice: RwSignal<Option<String>>,
    history: StoredValue<History>,
    /// The plan as last written to (or read from) disk.
    on_disk: StoredValue<OnDisk>,
    /// The plans this editor wrote most recently, newest last: when the watcher reports one of
    /// them, it is our own save coming back, not someone else's change.
    written: StoredValue<Vec<Plan>>,
    /// A save is scheduled or running.
    saving: StoredValue<bool>,
    /// What changed in the plan since the canvas last drew it (see [`Editor::take_change`]).
    change: StoredValue<Change>,
}

/// What the editor knows the draft on disk holds.
enum OnDisk {
    /// Nothing readable (no plan open, or the file broke).
    Nothing,
    /// This plan.
    Plan(Plan),
    /// The plan the editor holds, unchanged since it was opened: the editor's own copy is made
    /// only when the plan is first replaced (by an edit, an undo, a reload), so that opening a
    /// plan does not copy it (10–50 ms of a 1,000–5,000-state plan's first frame in the page).
    AsOpened,
}

/// What changed in the plan since the canvas last drew it: the canvas redraws one state's card
/// and arrows instead of the whole plan when that is all an edit touched (typing in the inspector
/// of a large plan would otherwise rebuild thousands of cards on every keystroke).
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Nothing since the last drawing.
    Drawn,
    /// Only this state's content (its id and its place in the plan kept).
    OneState(String),
    /// Anything else.
    Any,
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

impl Editor {
    pub fn new() -> Editor {
        Editor {
            id: RwSignal::new(None),
            plan: RwSignal::new(None),
            selection: RwSignal::new(Selection::default()),
            save: RwSignal::new(SaveState::Saved),
            can_undo: RwSignal::new(false),
            can_redo: RwSignal::new(false),
            theirs: RwSignal::new(None),
            notice: RwSignal::new(None),
            history: StoredValue::new(History::default()),
            on_disk: StoredValue::new(OnDisk::Nothing),
            written: StoredValue::new(Vec::new()),
            saving: StoredValue::new(false),
            change: StoredValue::new(Change::Any),
        }
    }

    /// Shows plan `id` as read from disk, with a fresh history.
    pub fn open(&self, id: String, plan: Plan) {
        self.history.update_value(History::clear);
        self.written.set_value(Vec::new());
        // Set before the plan, so the plan it replaces is not taken for the one on disk.
        self.on_disk.set_value(OnDisk::Nothing);
        self.id.set(Some(id));
        self.set_plan(Some(plan), None);
        self.on_disk.set_value(OnDisk::AsOpened);
        self.selection.set(Selection::default());
        self.theirs.set(None);
        self.save.set(SaveState::Saved);
        self.notice.set(None);
        self.refresh_undo();
    }

    /// Closes the plan (it could not be read).
    pub fn close(&self) {
        self.history.update_value(History::clear);
        self.on_disk.set_value(OnDisk::Nothing);
        self.theirs.set(None);
        self.save.set(SaveState::Saved);
        self.set_plan(None, None);
        self.selection.set(Selection::default());
        self.refresh_undo();
    }

    /// Applies `command` as one undo step; returns whether it applied.
    pub fn dispatch(&self, command: Command) -> bool {
        self.apply(command, None)
    }

    /// Applies `command` as part of a burst of typing in the field `key` (one undo step).
    pub fn dispatch_typing(&self, command: Command, key: &str) -> bool {
        self.apply(command, Some(key))
    }

    fn apply(&self, command: Command, burst: Option<&str>) -> bool {
        // Applied to the plan in place, not to a copy of it: a copy of a large plan on every
        // keystroke was a good part of the time typing took.
        let outcome = self.plan.with_untracked(|p| {
            p.as_ref().map(|before| {
                apply(before, &command).map(|applied| {
                    if applied.plan == *before {
                        return None;
                    }
                    self.history
                        .update_value(|h| h.record(before, burst, now_ms()));
                    Some(applied)
                })
            })
        });
        let Some(outcome) = outcome else {
            return false;
        };
        match outcome {
            Ok(None) => true,
            Ok(Some(applied)) => {
                if !applied.touched.is_empty() {
                    self.selection.set(Selection {
                        states: applied.touched,
                        transition: None,
                    });
                }
                let only = match &command {
                    Command::ReplaceState { id, .. } => Some(id.as_str()),
                    _ => None,
                };
                self.replace(applied.plan, only);
                true
            }
            Err(e) => {
                self.notice.set(Some(e.to_string()));
                false
            }
        }
    }

    /// Ends a burst of typing (the field lost focus).
    pub fn end_typing(&self) {
        self.history.update_value(History::end_burst);
    }

    pub fn undo(&self) {
        let Some(current) = self.plan.get_untracked() else {
            return;
        };
        let mut previous = None;
        self.history.update_value(|h| previous = h.undo(&current));
        if let Some(p) = previous {
            self.keep_selection_valid(&p);
            self.replace(p, None);
        }
    }

    pub fn redo(&self) {
        let Some(current) = self.plan.get_untracked() else {
            return;
        };
        let mut next = None;
        self.history.update_value(|h| next = h.redo(&current));
        if let Some(p) = next {
            self.keep_selection_valid(&p);
            self.replace(p, None);
        }
    }

    fn keep_selection_valid(&self, plan: &Plan) {
        self.selection.update(|s| {
            s.states.retain(|id| plan.state(id).is_some());
            if let Some((from, i)) = &s.transition {
                if plan.state(from).is_none_or(|st| st.transitions.len() <= *i) {
                    s.transition = None;
                }
            }
        });
    }

    fn refresh_undo(&self) {
        let (u, r) = self.history.with_value(|h| (h.can_undo(), h.can_redo()));
        self.can_undo.set(u);
        self.can_redo.set(r);
    }

    /// The plan changed in the editor: show it and save it soon.
    fn replace(&self, plan: Plan, only: Option<&str>) {
        self.set_plan(Some(plan), only);
        self.refresh_undo();
        if self.save.get_untracked() != SaveState::Conflict {
            self.save.set(SaveState::Unsaved);
            self.schedule_save(SAVE_AFTER);
        }
    }

    /// Sets the plan, noting what changed: only state `only`'s content, or anything.
    fn set_plan(&self, plan: Option<Plan>, only: Option<&str>) {
        self.change.update_value(|c| {
            *c = match (&*c, only) {
                (Change::Drawn, Some(id)) => Change::OneState(id.to_string()),
                (Change::OneState(was), Some(id)) if was == id => Change::OneState(id.to_string()),
                _ => Change::Any,
            }
        });
        let mut replaced = None;
        self.plan.update(|p| replaced = std::mem::replace(p, plan));
        // The plan as opened was the one on disk: it is kept as that, moved rather than copied.
        self.on_disk.update_value(|d| {
            if matches!(d, OnDisk::AsOpened) {
                *d = replaced.map_or(OnDisk::Nothing, OnDisk::Plan);
            }
        });
    }

    /// Whether `plan` is what the draft on disk holds, as far as the editor knows.
    fn on_disk_is(&self, plan: &Plan) -> bool {
        self.on_disk.with_value(|d| match d {
            OnDisk::Nothing => false,
            OnDisk::Plan(disk) => disk == plan,
            OnDisk::AsOpened => self.plan.with_untracked(|p| p.as_ref() == Some(plan)),
        })
    }

    /// What changed since the last call (the canvas calls it whenever it draws the plan).
    pub fn take_change(&self) -> Change {
        let mut taken = Change::Drawn;
        self.change.update_value(|c| std::mem::swap(c, &mut taken));
        taken
    }

    fn schedule_save(&self, after: Duration) {
        if self.saving.get_value() {
            return;
        }
        self.saving.set_value(true);
        let editor = *self;
        set_timeout(move || editor.save_now(), after);
    }

    /// Writes the current plan if it differs from the file; another change meanwhile is written
    /// right after.
    fn save_now(&self) {
        let (Some(id), Some(plan)) = (self.id.get_untracked(), self.plan.get_untracked()) else {
            self.saving.set_value(false);
            return;
        };
        if self.save.get_untracked() == SaveState::Conflict {
            self.saving.set_value(false);
            return;
        }
        if self.on_disk_is(&plan) {
            self.saving.set_value(false);
            self.save.set(SaveState::Saved);
            return;
        }
        self.save.set(SaveState::Saving);
        self.written.update_value(|w| {
            w.push(plan.clone());
            if w.len() > 3 {
                w.remove(0);
            }
        });
        let editor = *self;
        spawn_local(async move {
            let result = ipc::save_draft(&id, &plan).await;
            editor.saving.set_value(false);
            // The author may have opened another plan meanwhile.
            if editor.id.get_untracked().as_deref() != Some(id.as_str()) {
                return;
            }
            match result {
                Ok(()) => {
                    editor.on_disk.set_value(OnDisk::Plan(plan.clone()));
                    if editor.plan.get_untracked().as_ref() == Some(&plan) {
                        editor.save.set(SaveState::Saved);
                    } else {
                        editor.schedule_save(Duration::ZERO);
                    }
                }
                Err(e) => {
                    editor.save.set(SaveState::Failed(e.message));
                    editor.schedule_save(RETRY_AFTER);
                }
            }
        });
    }

    /// Writes unsaved edits now, before another plan is opened.
    pub fn flush(&self) {
        let (Some(id), Some(plan)) = (self.id.get_untracked(), self.plan.get_untracked()) else {
            return;
        };
        if self.on_disk_is(&plan) || self.save.get_untracked() == SaveState::Conflict {
            return;
        }
        spawn_local(async move {
            let _ = ipc::save_draft(&id, &plan).await;
        });
    }

    /// The draft as it is on disk now (the watcher saw it change): our own save needs nothing;
    /// with no unsaved edits it replaces the plan (one undo step); otherwise the author chooses.
    pub fn on_disk_changed(&self, disk: Plan) {
        let Some(current) = self.plan.get_untracked() else {
            return;
        };
        let was_unreadable = self
            .theirs
            .with_untracked(|t| matches!(t, Some(Theirs::Unreadable(_))));
        if disk == current {
            self.on_disk.set_value(OnDisk::Plan(disk));
            self.theirs.set(None);
            if self.save.get_untracked() == SaveState::Conflict {
                self.save.set(SaveState::Saved);
            }
            return;
        }
        let known = self.on_disk_is(&disk) || self.written.with_value(|w| w.contains(&disk));
        if known && !was_unreadable {
            // Our own save's echo (perhaps of a save still being answered), or nothing new.
            return;
        }
        let unsaved = !self.on_disk_is(&current);
        if unsaved {
            self.theirs.set(Some(Theirs::Plan(disk)));
            self.save.set(SaveState::Conflict);
        } else {
            self.history
                .update_value(|h| h.record(&current, None, now_ms()));
            self.on_disk.set_value(OnDisk::Plan(disk.clone()));
            self.keep_selection_valid(&disk);
            self.set_plan(Some(disk), None);
            self.theirs.set(None);
            self.save.set(SaveState::Saved);
            self.refresh_undo();
        }
    }

    /// The draft on disk can no longer be read (someone wrote a broken file): the plan stays open
    /// as it is, nothing is written over the file, and the author chooses.
    pub fn on_disk_unreadable(&self, why: IpcError) {
        if self.plan.with_untracked(Option::is_some) {
            self.theirs.set(Some(Theirs::Unreadable(why)));
            self.save.set(SaveState::Conflict);
        }
    }

    /// Settles a conflict: take the file's version (`true`, undoable; a file that cannot be read
    /// closes the plan, and the caller shows why) or keep the editor's and write it over the file.
    pub fn resolve_conflict(&self, take_theirs: bool) {
        let Some(theirs) = self.theirs.get_untracked() else {
            return;
        };
        self.theirs.set(None);
        let theirs = match theirs {
            Theirs::Plan(plan) => plan,
            Theirs::Unreadable(_) if take_theirs => {
                self.close();
                return;
            }
            Theirs::Unreadable(_) => {
                // Nothing readable is on disk: the editor's plan is written over the file.
                self.on_disk.set_value(OnDisk::Nothing);
                self.save.set(SaveState::Unsaved);
                self.schedule_save(Duration::ZERO);
                return;
            }
        };
        self.on_disk.set_value(OnDisk::Plan(theirs.clone()));
        self.save.set(SaveState::Saved);
        if take_theirs {
            if let Some(current) = self.plan.get_untracked() {
                self.history
                    .update_value(|h| h.record(&current, None, now_ms()));
            }
            self.keep_selection_valid(&theirs);
            self.set_plan(Some(theirs), None);
            self.refresh_undo();
        } else {
            self.save.set(SaveState::Unsaved);
            self.schedule_save(Duration::ZERO);
        }
    }
}
