//! The autosave: every change reaches `draft.json` within a second (written 300 ms after the first
//! unsaved change, so that continuous typing is still saved every second), a failed save is tried
//! again, and [`Editor::settled`] waits for the draft on disk to be the editor's before an
//! operation that reads it (publishing, comparing with the draft, viewing a version).

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::{Editor, OnDisk, SaveState};
use crate::ipc;

/// How soon after a change the draft is written (a change during a save is written right after).
pub(super) const SAVE_AFTER: Duration = Duration::from_millis(300);
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
        let editor = *self;
        spawn_local(async move {
            let result = ipc::save_draft(&id, &plan).await;
            editor.saving.set_value(false);
            // The author may have opened another plan meanwhile.
            if editor.id.get_untracked().as_deref() != Some(id.as_str()) {
                return;
            }
            match result {
                Ok(status) => {
                    editor.draft_status.set(Some(status));
                    editor
                        .on_disk
                        .set_value(OnDisk::Plan(Box::new(plan.clone())));
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
        if self.on_disk_is(&plan)
            || self.save.get_untracked() == SaveState::Conflict
            || !self.mode.get_untracked().is_draft()
        {
            return;
        }
        spawn_local(async move {
            let _ = ipc::save_draft(&id, &plan).await;
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
