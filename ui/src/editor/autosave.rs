//! The autosave: every change reaches `draft.json` within a second (written 300 ms after the first
//! unsaved change, so that continuous typing is still saved every second), a failed save is tried
//! again, and [`Editor::settled`] waits for the draft on disk to be the editor's before an
//! operation that reads it (publishing, comparing with the draft, viewing a version).

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;

use plan_api::{ApiError, ErrorCode};
use plan_core::draft_changes::DraftChanges;
use plan_core::Plan;

use super::{Editor, OnDisk, SaveState};
use crate::ipc;

/// A name for a save, unique to this page: a random start (another page of the app, or this one
/// reloaded, counts from elsewhere), then one more each save.
fn next_token() -> u64 {
    thread_local! {
        static NEXT: std::cell::Cell<u64> =
            std::cell::Cell::new((js_sys::Math::random() * (1u64 << 52) as f64) as u64);
    }
    NEXT.with(|n| {
        let t = n.get();
        n.set(t.wrapping_add(1));
        t
    })
}

/// How soon after a change the draft is written (a change during a save is written right after).
pub(super) const SAVE_AFTER: Duration = Duration::from_millis(300);
/// How long after a plan opens its first save starts being prepared, and how many states' text a
/// step of it writes (1–3 ms of the page's time each, between frames).
pub(super) const PREPARE_AFTER: Duration = Duration::from_millis(400);
const PREPARE_STATES: usize = 250;
const PREPARE_EVERY: Duration = Duration::from_millis(20);
/// How long to wait before trying a failed save again.
const RETRY_AFTER: Duration = Duration::from_millis(1_500);
/// How long [`Editor::settled`] waits for a save at most.
const SETTLE_AT_MOST: Duration = Duration::from_secs(10);

impl Editor {
    pub(super) fn schedule_save(&self, after: Duration) {
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
        crate::timeline::timed("save: start", || self.start_save());
    }

    fn start_save(&self) {
        let (Some(id), Some(plan)) = (self.id.get_untracked(), self.plan.get_untracked()) else {
            self.saving.set_value(false);
            return;
        };
        // A read-only view holds no draft to save (it was saved before the view was shown).
        if self.save.get_untracked() == SaveState::Conflict || !self.mode.get_untracked().is_draft()
        {
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
        let token = next_token();
        let body = crate::timeline::timed("save: serialize", || self.body_of(&plan));
        let editor = *self;
        spawn_local(async move {
            let result = match body {
                Ok((bytes, base)) => ipc::save_draft(&id, &bytes, token, base).await,
                Err(e) => Err(e),
            };
            editor.saving.set_value(false);
            // The author may have opened another plan meanwhile.
            if editor.id.get_untracked().as_deref() != Some(id.as_str()) {
                return;
            }
            crate::timeline::timed("save: done", || match result {
                Ok(status) => {
                    editor.draft_status.set(Some(status));
                    let current = editor.plan.with_untracked(|p| p.as_ref() == Some(&plan));
                    editor
                        .on_disk
                        .set_value(OnDisk::Saved(Box::new(plan), token));
                    if current {
                        editor.save.set(SaveState::Saved);
                    } else {
                        editor.schedule_save(Duration::ZERO);
                    }
                }
                Err(e) if e.code == ErrorCode::UnknownBase => {
                    // The shell no longer holds the draft the changes were told against: the
                    // whole draft, at once.
                    editor.on_disk.update_value(|d| {
                        *d = match std::mem::replace(d, OnDisk::Nothing) {
                            OnDisk::Saved(plan, _) => OnDisk::Plan(plan),
                            other => other,
                        }
                    });
                    editor.schedule_save(Duration::ZERO);
                }
                Err(e) => {
                    editor.save.set(SaveState::Failed(e.message));
                    editor.schedule_save(RETRY_AFTER);
                }
            });
        });
    }

    /// What a save sends for `plan`: the changes since the draft this page saved last, when the
    /// shell should still hold it (with that save's token), else the whole plan, whose states'
    /// text is reused from the save before (`PlanJson`).
    fn body_of(&self, plan: &Plan) -> Result<(Vec<u8>, Option<u64>), ApiError> {
        let changes = self.on_disk.with_value(|d| match d {
            OnDisk::Saved(before, token) => Some((
                serde_json::to_vec(&DraftChanges::between(before, plan)),
                *token,
            )),
            _ => None,
        });
        let internal = |e: serde_json::Error| ApiError::new(ErrorCode::Internal, e.to_string());
        if let Some((bytes, token)) = changes {
            return bytes.map(|b| (b, Some(token))).map_err(internal);
        }
        let mut bytes = Ok(Vec::new());
        self.json.update_value(|json| bytes = json.write(plan));
        bytes.map(|b| (b, None)).map_err(internal)
    }

    /// Writes the text of the open plan's states ahead, a few at a time, so that its first save (the
    /// whole plan: the shell holds no draft of this page's yet) writes no state on a frame of its
    /// own; later saves send only changes.
    pub(super) fn prepare_first_save(&self, after: Duration) {
        let editor = *self;
        let id = self.id.get_untracked();
        set_timeout(
            move || {
                if editor.id.get_untracked() != id || !editor.mode.get_untracked().is_draft() {
                    return;
                }
                let mut done = true;
                editor.plan.with_untracked(|p| {
                    if let Some(p) = p {
                        editor.json.update_value(|json| {
                            done = crate::timeline::timed("save: prepare", || {
                                json.prepare(p, PREPARE_STATES).unwrap_or(true)
                            })
                        });
                    }
                });
                if !done {
                    editor.prepare_first_save(PREPARE_EVERY);
                }
            },
            after,
        );
    }

    /// Writes unsaved edits now, before another plan is opened.
    pub fn flush(&self) {
        let (Some(id), Some(plan)) = (self.id.get_untracked(), self.plan.get_untracked()) else {
            return;
        };
        if self.on_disk_is(&plan)
            || self.save.get_untracked() == SaveState::Conflict
            || !self.mode.get_untracked().is_draft()
        {
            return;
        }
        spawn_local(async move {
            if let Ok(bytes) = serde_json::to_vec(&plan) {
                let _ = ipc::save_draft(&id, &bytes, next_token(), None).await;
            }
        });
    }

    /// Waits until the draft on disk is the editor's plan: at once when it is saved, after the
    /// save when one is due. Refused when the author must first settle a change on disk, or the
    /// save keeps failing (with why).
    pub async fn settled(&self) -> Result<(), String> {
        let waited = Duration::from_millis(50);
        let mut left = SETTLE_AT_MOST;
        loop {
            if !self.mode.get_untracked().is_draft() {
                return Ok(());
            }
            match self.save.get_untracked() {
                SaveState::Saved => return Ok(()),
                SaveState::Conflict => {
                    return Err(
                        "This plan changed on disk: choose which version to keep first.".into(),
                    )
                }
                SaveState::Failed(why) => return Err(format!("The draft is not saved yet: {why}")),
                SaveState::Unsaved | SaveState::Saving => {
                    if !self.saving.get_value() {
                        self.schedule_save(Duration::ZERO);
                    }
                }
            }
            if left.is_zero() {
                return Err("The draft is still being saved: try again in a moment.".into());
            }
            ipc::pause(waited).await;
            left = left.saturating_sub(waited);
        }
    }
}
