//! The editor store: the one place the open plan lives and changes.
//!
//! The plan changes only through [`Editor::dispatch`] (a `plan_core::edit::Command`), undo and
//! redo, and reloads from disk. Every change is kept in the [`history::History`] and saved to
//! `draft.json` by the autosave ([`autosave`]) within a second; a change on disk is settled in
//! [`disk`]; a published version or a comparison can be shown read-only in the draft's place
//! ([`mode`]). Derived state (the canvas scene, the problems) is computed from the plan by
//! `Memo`s elsewhere; `Effect`s only talk to the outside.

mod autosave;
mod disk;
pub mod history;
mod mode;

use leptos::prelude::*;
use plan_api::messages::DraftStatus;
use plan_api::ApiError;
use plan_core::edit::{apply, Command, Limit};
use plan_core::Plan;

use crate::notice::Notice;
use crate::timeline::timed;
use history::History;
pub use mode::{Comparing, Mode};

/// What is selected on the canvas.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    pub states: Vec<String>,
    /// A transition: its source state and index.
    pub transition: Option<(String, usize)>,
    /// An edge of the lanes: an evaluation limited to a session state.
    pub limit: Option<Limit>,
}

impl Selection {
    pub fn state(id: &str) -> Selection {
        Selection {
            states: vec![id.to_string()],
            transition: None,
            limit: None,
        }
    }
}

/// What the file on disk holds when the author must choose between it and the editor's plan.
#[derive(Debug, Clone, PartialEq)]
pub enum OnDiskChoice {
    /// Another writer's draft, which came while the editor had unsaved edits.
    Plan(Box<Plan>),
    /// The file can no longer be read (why): the editor keeps the plan and writes nothing until
    /// the author chooses, or the file becomes readable again.
    Unreadable(ApiError),
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
    /// Whether a readable plan is open: one memo for every view that asks (the plan changes on
    /// every edit; this only when a plan opens, closes or breaks).
    pub plan_open: Memo<bool>,
    /// What is selected, read anywhere; changed only through [`Editor::select`].
    pub selection: ReadSignal<Selection>,
    selected: RwSignal<Selection>,
    pub save: RwSignal<SaveState>,
    pub can_undo: RwSignal<bool>,
    pub can_redo: RwSignal<bool>,
    /// The draft on disk when it changed under unsaved edits, or broke.
    pub on_disk_choice: RwSignal<Option<OnDiskChoice>>,
    /// The latest message for the author (a refused edit, what a delete took with it).
    pub notice: RwSignal<Option<Notice>>,
    /// What the canvas shows: the draft, or a read-only view in its place.
    pub mode: RwSignal<Mode>,
    /// What a comparison marks, while one is shown.
    pub comparing: RwSignal<Option<Comparing>>,
    /// How the draft on disk relates to the plan's newest version, as the shell last said.
    pub draft_status: RwSignal<Option<DraftStatus>>,
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
    /// The draft, while a read-only view is shown in its place.
    aside: StoredValue<Option<mode::Aside>>,
    /// The JSON of the states saved last, reused by the next save (see `autosave`).
    json: StoredValue<plan_core::plan_json::PlanJson>,
    /// The states added (or pasted) since the plan was opened or last published: their ids follow
    /// their titles; every other id stays as it is unless renamed under Advanced.
    following: StoredValue<std::collections::BTreeSet<String>>,
}

/// What the editor knows the draft on disk holds.
enum OnDisk {
    /// Nothing readable (no plan open, or the file broke).
    Nothing,
    /// This plan.
    Plan(Box<Plan>),
    /// This plan, as this page's save `token` wrote it: the next save may send only the changes
    /// since ([`plan_core::draft_changes::DraftChanges`]).
    Saved(Box<Plan>, u64),
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
    /// Only where these states are (a drop).
    Moved(Vec<String>),
    /// Anything else.
    Any,
}

impl Change {
    /// What changed since the last drawing when `edit` follows `self`.
    pub fn then(self, edit: Change) -> Change {
        match (self, edit) {
            (Change::Drawn, edit) => edit,
            (Change::OneState(a), Change::OneState(b)) if a == b => Change::OneState(a),
            (Change::Moved(mut a), Change::Moved(b)) => {
                for id in b {
                    if !a.contains(&id) {
                        a.push(id);
                    }
                }
                Change::Moved(a)
            }
            _ => Change::Any,
        }
    }
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

impl Editor {
    pub fn new() -> Editor {
        let selected = RwSignal::new(Selection::default());
        let plan: RwSignal<Option<Plan>> = RwSignal::new(None);
        Editor {
            id: RwSignal::new(None),
            plan,
            plan_open: Memo::new(move |_| plan.with(Option::is_some)),
            selection: selected.read_only(),
            selected,
            save: RwSignal::new(SaveState::Saved),
            can_undo: RwSignal::new(false),
            can_redo: RwSignal::new(false),
            on_disk_choice: RwSignal::new(None),
            notice: RwSignal::new(None),
            mode: RwSignal::new(Mode::Draft),
            comparing: RwSignal::new(None),
            draft_status: RwSignal::new(None),
            history: StoredValue::new(History::default()),
            on_disk: StoredValue::new(OnDisk::Nothing),
            written: StoredValue::new(Vec::new()),
            saving: StoredValue::new(false),
            change: StoredValue::new(Change::Any),
            aside: StoredValue::new(None),
            json: StoredValue::new(Default::default()),
            following: StoredValue::new(Default::default()),
        }
    }

    /// Whether the author can change what the canvas shows: a readable plan is open and its draft
    /// is shown (tracked).
    pub fn can_change(&self) -> bool {
        self.plan_open.get() && self.mode.with(Mode::is_draft)
    }

    /// Shows plan `id` as read from disk, with a fresh history.
    pub fn open(&self, id: String, plan: Plan) {
        self.aside.set_value(None);
        self.mode.set(Mode::Draft);
        self.comparing.set(None);
        self.history.update_value(History::clear);
        self.following.update_value(|ids| ids.clear());
        self.written.set_value(Vec::new());
        // Set before the plan, so the plan it replaces is not taken for the one on disk.
        self.on_disk.set_value(OnDisk::Nothing);
        self.id.set(Some(id));
        self.set_plan(Some(plan), Change::Any);
        self.on_disk.set_value(OnDisk::AsOpened);
        self.selected.set(Selection::default());
        self.on_disk_choice.set(None);
        self.save.set(SaveState::Saved);
        self.refresh_undo();
        self.json.set_value(Default::default());
        self.prepare_first_save(autosave::PREPARE_AFTER);
    }

    /// Closes the plan (it could not be read, or it was deleted).
    pub fn close(&self) {
        self.aside.set_value(None);
        self.mode.set(Mode::Draft);
        self.comparing.set(None);
        self.history.update_value(History::clear);
        self.on_disk.set_value(OnDisk::Nothing);
        self.on_disk_choice.set(None);
        self.save.set(SaveState::Saved);
        self.set_plan(None, Change::Any);
        self.selected.set(Selection::default());
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
        if !self.editable() {
            return false;
        }
        // Applied to the plan in place, not to a copy of it: a copy of a large plan on every
        // keystroke was a good part of the time typing took.
        let outcome = self.plan.with_untracked(|p| {
            p.as_ref().map(|before| {
                timed("edit: apply", || apply(before, &command)).map(|applied| {
                    if timed("edit: compare", || applied.plan == *before) {
                        return None;
                    }
                    timed("edit: history", || {
                        self.history
                            .update_value(|h| h.record(before, burst, now_ms()))
                    });
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
                self.follow_titles(&command, &applied.touched);
                if !applied.touched.is_empty() {
                    self.selected.set(Selection {
                        states: applied.touched,
                        transition: None,
                        limit: None,
                    });
                }
                if let Command::RenameState { from, to } = &command {
                    // The renamed state stays selected (and its card keeps the focus).
                    self.selected.update(|s| {
                        for id in s.states.iter_mut().filter(|id| *id == from) {
                            *id = to.clone();
                        }
                        if let Some((f, _)) = s.transition.as_mut().filter(|(f, _)| f == from) {
                            *f = to.clone();
                        }
                    });
                }
                let change = match &command {
                    Command::ReplaceState { id, .. } => Change::OneState(id.clone()),
                    Command::MoveStates { moves } => Change::Moved(moves.keys().cloned().collect()),
                    _ => Change::Any,
                };
                self.replace(applied.plan, change);
                true
            }
            Err(e) => {
                self.notice.set(Some(Notice::refused(&ApiError::from(e))));
                false
            }
        }
    }

    /// Keeps [`Editor::id_follows_title`] true of the states `command` added or pasted; a state
    /// whose id the author set (a rename) no longer follows its title.
    fn follow_titles(&self, command: &Command, touched: &[String]) {
        self.following.update_value(|ids| match command {
            Command::AddState { .. } | Command::Paste { .. } => ids.extend(touched.iter().cloned()),
            Command::RenameState { from, .. } => {
                ids.remove(from);
            }
            _ => {}
        });
    }

    /// Whether state `id`'s id follows its title: added since the plan was opened or last
    /// published and not renamed by the author, or still holding the id the editor gave it
    /// (`new-state`…).
    pub fn id_follows_title(&self, id: &str) -> bool {
        plan_core::edit::is_placeholder_id(id) || self.following.with_value(|ids| ids.contains(id))
    }

    /// Gives state `id` the id its title reads as, when its id follows its title (one undo step
    /// after the typing's).
    pub fn follow_title(&self, id: &str) {
        if !self.id_follows_title(id) {
            return;
        }
        let to = self.plan.with_untracked(|p| {
            let p = p.as_ref()?;
            plan_core::edit::id_following_title(p, id, &p.state(id)?.title)
        });
        let Some(to) = to else { return };
        self.end_typing();
        let command = Command::RenameState {
            from: id.to_string(),
            to: to.clone(),
        };
        if self.dispatch(command) {
            // The id it had stays followed too, for an undo that brings it back.
            self.following.update_value(|ids| {
                ids.insert(id.to_string());
                ids.insert(to);
            });
        }
    }

    /// The draft was published: versions and callers now know its states by their ids, which no
    /// longer follow titles.
    pub fn published(&self) {
        self.following.update_value(|ids| ids.clear());
    }

    /// Selects `selection` (states, or one transition) on the canvas and in the inspector.
    pub fn select(&self, selection: Selection) {
        self.selected.set(selection);
    }

    /// Ends a burst of typing (the field lost focus).
    pub fn end_typing(&self) {
        self.history.update_value(History::end_burst);
    }

    pub fn undo(&self) {
        if !self.editable() {
            return;
        }
        let Some(current) = self.plan.get_untracked() else {
            return;
        };
        let mut previous = None;
        self.history.update_value(|h| previous = h.undo(&current));
        if let Some(p) = previous {
            self.keep_selection_valid(&p);
            self.replace(p, Change::Any);
        }
    }

    pub fn redo(&self) {
        if !self.editable() {
            return;
        }
        let Some(current) = self.plan.get_untracked() else {
            return;
        };
        let mut next = None;
        self.history.update_value(|h| next = h.redo(&current));
        if let Some(p) = next {
            self.keep_selection_valid(&p);
            self.replace(p, Change::Any);
        }
    }

    fn keep_selection_valid(&self, plan: &Plan) {
        self.selected.update(|s| {
            s.states.retain(|id| plan.state(id).is_some());
            if let Some((from, i)) = &s.transition {
                if plan.state(from).is_none_or(|st| st.transitions.len() <= *i) {
                    s.transition = None;
                }
            }
            let drawn = |l: &Limit| {
                plan.evaluations
                    .iter()
                    .any(|e| e.id == l.evaluation && e.only_while_active.contains(&l.session_state))
            };
            if s.limit.as_ref().is_some_and(|l| !drawn(l)) {
                s.limit = None;
            }
        });
    }

    fn refresh_undo(&self) {
        let (u, r) = self.history.with_value(|h| (h.can_undo(), h.can_redo()));
        self.can_undo.set(u);
        self.can_redo.set(r);
    }

    /// The plan changed in the editor: show it and save it soon.
    fn replace(&self, plan: Plan, change: Change) {
        self.set_plan(Some(plan), change);
        self.refresh_undo();
        if self.save.get_untracked() != SaveState::Conflict {
            self.save.set(SaveState::Unsaved);
            self.schedule_save(autosave::SAVE_AFTER);
        }
    }

    /// Sets the plan, noting what changed (see [`Change`]).
    fn set_plan(&self, plan: Option<Plan>, change: Change) {
        self.change
            .update_value(|c| *c = std::mem::replace(c, Change::Drawn).then(change));
        let mut replaced = None;
        timed("edit: notify", || {
            self.plan.update(|p| replaced = std::mem::replace(p, plan))
        });
        // The plan as opened was the one on disk: it is kept as that, moved rather than copied.
        self.on_disk.update_value(|d| {
            if matches!(d, OnDisk::AsOpened) {
                *d = replaced.map_or(OnDisk::Nothing, |p| OnDisk::Plan(Box::new(p)));
            }
        });
    }

    /// Whether `plan` is what the draft on disk holds, as far as the editor knows.
    fn on_disk_is(&self, plan: &Plan) -> bool {
        self.on_disk.with_value(|d| match d {
            OnDisk::Nothing => false,
            OnDisk::Plan(disk) | OnDisk::Saved(disk, _) => **disk == *plan,
            OnDisk::AsOpened => self.plan.with_untracked(|p| p.as_ref() == Some(plan)),
        })
    }

    /// Tells the author something.
    pub fn say(&self, text: impl Into<String>) {
        self.notice.set(Some(Notice::info(text)));
    }

    /// Tells the author why something was refused.
    pub fn say_refused(&self, text: impl Into<String>) {
        self.notice.set(Some(Notice::refused_here(text)));
    }

    /// What changed since the last call (the canvas calls it whenever it draws the plan).
    pub fn take_change(&self) -> Change {
        let mut taken = Change::Drawn;
        self.change.update_value(|c| std::mem::swap(c, &mut taken));
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::Change;

    #[test]
    fn what_changed_since_the_last_drawing_adds_up() {
        let one = |id: &str| Change::OneState(id.into());
        let moved = |ids: &[&str]| Change::Moved(ids.iter().map(|s| s.to_string()).collect());
        assert_eq!(Change::Drawn.then(one("a")), one("a"));
        assert_eq!(one("a").then(one("a")), one("a"), "typing in one state");
        assert_eq!(one("a").then(one("b")), Change::Any);
        assert_eq!(moved(&["a"]).then(moved(&["b", "a"])), moved(&["a", "b"]));
        assert_eq!(moved(&["a"]).then(one("a")), Change::Any);
        assert_eq!(Change::Any.then(one("a")), Change::Any);
    }
}
