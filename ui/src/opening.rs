//! Opening plans and keeping up with the disk: the first screen (the list and the plan to open in
//! one answer), opening a plan from the list, the list asked for again whenever plan files change,
//! and the open plan's draft reloaded when another program changed it (the editor decides what to
//! do with it: reload, or ask the author).

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::{LoadedPlan, OpenedPlan, PlanSummary, PlansChanged, Started};
use plan_api::ApiError;

use crate::canvas::camera::Camera;
use crate::canvas::scene::Scene;
use crate::editor::Editor;
use crate::ipc;
use crate::notice::Notice;
use crate::timeline::{mark, mark_opened};

/// The first screen's answer on its way: asked for before the window's parts are made, so that
/// it travels while the page loads.
#[derive(Clone)]
pub struct FirstScreen(ipc::StartAsked);

impl FirstScreen {
    /// Asks the shell for the first screen now, for the plan this window showed last (a reload).
    pub fn ask() -> FirstScreen {
        mark("start-start");
        FirstScreen(ipc::start(remembered_plan()))
    }

    /// Once the answer is in (or the request failed).
    pub async fn arrived(&self) {
        self.0.settled().await
    }
}

/// The workspace's plans as the window knows them, and the opening of one.
#[derive(Clone, Copy)]
pub struct Opening {
    editor: Editor,
    camera: Camera,
    scene: Memo<Scene>,
    /// The plan list, as the shell last listed it.
    pub plans: RwSignal<Vec<PlanSummary>>,
    /// Why the list could not be read.
    pub list_error: RwSignal<Option<ApiError>>,
    /// Why the plan asked for could not be opened.
    load_error: RwSignal<Option<ApiError>>,
    /// Where the open plan's draft is on disk.
    pub source: RwSignal<String>,
    /// The plan being opened, until it is: a reload for it meanwhile (the watcher) waits for that
    /// load instead of opening it a second time over the author's first edits, and a slower
    /// answer for a plan the author has already left is dropped.
    opening: StoredValue<Option<String>>,
    /// Lists are asked for on every change on disk; answers can arrive out of order, and only the
    /// newest request's answer is shown.
    asked: StoredValue<u64>,
    /// Until the first screen's answer is in, it opens the plan (not a list the watcher asked for).
    starting: StoredValue<bool>,
    /// The open plan's draft changed on disk while a read-only view was shown in its place: it is
    /// read again when the draft comes back.
    stale: StoredValue<bool>,
}

impl Opening {
    pub fn new(editor: Editor, camera: Camera, scene: Memo<Scene>) -> Opening {
        Opening {
            editor,
            camera,
            scene,
            plans: RwSignal::new(Vec::new()),
            list_error: RwSignal::new(None),
            load_error: RwSignal::new(None),
            source: RwSignal::new(String::new()),
            opening: StoredValue::new(None),
            asked: StoredValue::new(0),
            starting: StoredValue::new(true),
            stale: StoredValue::new(false),
        }
    }

    /// The first screen: the list and the plan to open come in one answer (`first`), read by the
    /// shell while the page loads. Then plan-file changes are listened to.
    pub fn start(self, first: FirstScreen) {
        let editor = self.editor;
        spawn_local(async move {
            let started = first.0.answer().await;
            mark("start-done");
            self.starting.set_value(false);
            match started {
                Ok(Started {
                    plans: list,
                    opened,
                    unopened,
                }) => {
                    // A list the watcher asked for meanwhile is at least as new.
                    if self.asked.get_value() == 0 {
                        self.list_error.set(None);
                        self.show_list(list);
                    }
                    if let Some(OpenedPlan { id, loaded }) = opened {
                        if editor.id.get_untracked().is_none() && self.opening.get_value().is_none()
                        {
                            self.show(id, loaded, true);
                        }
                    }
                    // After the plan shows: showing one clears the notice.
                    if let Some(why) = unopened {
                        editor.notice.set(Some(Notice::refused(&why)));
                    }
                }
                // The list's own request says why, or opens the plan after all.
                Err(_) => return self.refresh(),
            }
            // A plan created while the answer was on its way was listed but not opened.
            if editor.id.get_untracked().is_none() && self.asked.get_value() > 0 {
                self.refresh();
            }
        });
        Effect::new(move |_| {
            if let Some(id) = editor.id.get() {
                remember_plan(&id);
            }
        });
        ipc::on_plans_changed(move |changed| self.on_changed(changed));
    }

    /// Plan files changed on disk: the list is asked for again, and the open plan read again if
    /// it was among them.
    fn on_changed(self, changed: PlansChanged) {
        self.refresh();
        if let Some(id) = self.editor.id.get_untracked() {
            if changed.ids.is_empty() || changed.ids.contains(&id) {
                if self.editor.mode.with_untracked(|m| m.is_draft()) {
                    self.open(id, false);
                } else {
                    self.stale.set_value(true);
                }
            }
        }
    }

    /// The draft is back in the editor's place: read it again if it changed meanwhile.
    pub fn draft_back(self) {
        if self.stale.get_value() {
            self.stale.set_value(false);
            if let Some(id) = self.editor.id.get_untracked() {
                self.open(id, false);
            }
        }
    }

    /// Shows a plan fresh from disk as the open plan; `refit`: a different plan than the one
    /// shown, which opens as `camera::opening_view` says.
    fn show(self, id: String, loaded: LoadedPlan, refit: bool) {
        self.load_error.set(None);
        self.source.set(loaded.source);
        let status = self
            .plans
            .with_untracked(|list| list.iter().find(|p| p.id == id).map(|p| p.draft));
        self.editor.open(id, loaded.plan);
        self.editor.draft_status.set(status);
        mark("editor-opened");
        mark_opened();
        if refit {
            self.scene.with_untracked(|s| self.camera.open_on(s));
        }
    }

    /// Opens plan `id` (`refit`: it is a different plan than the one shown), or reads the open
    /// one again (the editor decides what to do with what is on disk).
    pub fn open(self, id: String, refit: bool) {
        let editor = self.editor;
        let same = editor.id.get_untracked().as_deref() == Some(id.as_str());
        if !same {
            if self.opening.get_value().as_deref() == Some(id.as_str()) && !refit {
                return;
            }
            // Unsaved edits held back by a change on disk would be left behind: settle it first.
            if editor.on_disk_choice.with_untracked(Option::is_some) {
                editor.say_refused(
                    "This plan changed on disk: choose which version to keep before opening another.",
                );
                return;
            }
            editor.flush();
            // What was said about the plan being left is no news on the next one (what an
            // operation says about the plan it opens comes after this).
            editor.notice.set(None);
            self.opening.set_value(Some(id.clone()));
        }
        spawn_local(async move {
            mark("load-plan-start");
            let result = ipc::load_plan(&id).await;
            mark("load-plan-done");
            let shown = editor.id.get_untracked();
            let pending = self.opening.get_value();
            if !answer_is_current(&id, same, shown.as_deref(), pending.as_deref()) {
                return;
            }
            if !same {
                self.opening.set_value(None);
            }
            match result {
                Ok(loaded) if same && editor.plan.with_untracked(Option::is_some) => {
                    self.load_error.set(None);
                    self.source.set(loaded.source);
                    editor.on_disk_changed(loaded.plan);
                    // Picked again from the list: shown as a plan is when it opens.
                    if refit {
                        self.scene.with_untracked(|s| self.camera.open_on(s));
                    }
                }
                Ok(loaded) => self.show(id, loaded, refit),
                // The open plan's file broke under it: the editor keeps the plan (never lose work).
                Err(e) if same && editor.plan.with_untracked(Option::is_some) => {
                    editor.on_disk_unreadable(e);
                }
                Err(e) => {
                    editor.id.set(Some(id));
                    editor.close();
                    self.load_error.set(Some(e));
                }
            }
        });
    }

    /// Why the plan asked for cannot be opened, if it cannot (tracked).
    pub fn load_error(self) -> Option<ApiError> {
        self.load_error.get()
    }

    /// The open plan's file can no longer be read and the author chose to close the plan: the
    /// editor lets it go, and the canvas says why it cannot be opened.
    pub fn close_unreadable(self, why: ApiError) {
        self.editor.resolve_conflict(true);
        self.load_error.set(Some(why));
    }

    /// Asks for the plan list again; with no plan open, the first that opens is opened.
    pub fn refresh(self) {
        self.asked.update_value(|n| *n += 1);
        let mine = self.asked.get_value();
        spawn_local(async move {
            mark("list-plans-start");
            let listed = ipc::list_plans().await;
            mark("list-plans-done");
            if self.asked.get_value() != mine {
                return;
            }
            match listed {
                Ok(list) => {
                    self.list_error.set(None);
                    // After a reload (the web view crashed) the plan that was open comes back.
                    let opens = |id: &str| list.iter().any(|p| p.id == id && p.error.is_none());
                    let first = remembered_plan().filter(|id| opens(id)).or_else(|| {
                        list.iter()
                            .find(|p| p.error.is_none())
                            .map(|p| p.id.clone())
                    });
                    self.show_list(list);
                    if self.editor.id.get_untracked().is_none() && !self.starting.get_value() {
                        if let Some(id) = first {
                            self.open(id, true);
                        }
                    }
                }
                Err(e) => self.list_error.set(Some(e)),
            }
        });
    }

    /// Shows a list from the shell; the open plan's draft status comes with it.
    fn show_list(self, list: Vec<PlanSummary>) {
        if let Some(id) = self.editor.id.get_untracked() {
            if let Some(p) = list.iter().find(|p| p.id == id) {
                self.editor.draft_status.set(Some(p.draft));
            }
        }
        self.plans.set(list);
    }

    /// The plan list without `id`, and the plan to open instead when `id` was the open one (the
    /// first other plan that opens); the editor is closed when there is none.
    pub fn forget(self, id: &str) {
        let mut next = None;
        self.plans.update(|list| {
            list.retain(|p| p.id != id);
            next = list
                .iter()
                .find(|p| p.error.is_none())
                .map(|p| p.id.clone());
        });
        if self.editor.id.get_untracked().as_deref() == Some(id) {
            match next {
                Some(next) => {
                    // The deleted plan has nothing left to save.
                    self.editor.close();
                    self.open(next, true);
                }
                None => {
                    self.editor.close();
                    self.editor.id.set(None);
                }
            }
        }
    }
}

/// The page's session storage: it outlives a reload of the page, not the app.
fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

const OPEN_PLAN_KEY: &str = "plan-builder.open-plan";

fn remember_plan(id: &str) {
    if let Some(s) = session_storage() {
        let _ = s.set_item(OPEN_PLAN_KEY, id);
    }
}

fn remembered_plan() -> Option<String> {
    session_storage()?.get_item(OPEN_PLAN_KEY).ok()?
}

/// Whether the answer to a plan read for `asked` is still wanted when it arrives: a plan being
/// opened (`same` false) must still be the one asked for last (`pending`); a plan read again
/// because it changed on disk (`same`) must still be the one shown, with no other being opened,
/// or its content would land under another plan's name, and that plan's autosave.
fn answer_is_current(asked: &str, same: bool, shown: Option<&str>, pending: Option<&str>) -> bool {
    if same {
        shown == Some(asked) && pending.is_none()
    } else {
        pending == Some(asked)
    }
}

#[cfg(test)]
mod tests {
    use super::answer_is_current;

    #[test]
    fn a_late_answer_never_lands_on_a_plan_picked_since() {
        // Opening B, then C: B's answer is dropped, C's taken.
        assert!(!answer_is_current("b", false, Some("a"), Some("c")));
        assert!(answer_is_current("c", false, Some("a"), Some("c")));
        // A read again while shown, answered after the author opened B: dropped.
        assert!(!answer_is_current("a", true, Some("b"), None));
        // ... or while B is still being opened: dropped too.
        assert!(!answer_is_current("a", true, Some("a"), Some("b")));
        // Still the plan shown, nothing else asked for: taken.
        assert!(answer_is_current("a", true, Some("a"), None));
    }
}
