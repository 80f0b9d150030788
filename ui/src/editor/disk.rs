//! A draft changed on disk by another program: reloaded when there are no unsaved edits (one undo
//! step), else the author chooses; a file that can no longer be read closes nothing and is never
//! written over without the author's word.

use std::time::Duration;

use leptos::prelude::*;
use plan_api::ApiError;
use plan_core::Plan;

use super::{now_ms, Editor, OnDisk, OnDiskChoice, SaveState};

impl Editor {
    /// The draft as it is on disk now (the watcher saw it change): our own save needs nothing;
    /// with no unsaved edits it replaces the plan (one undo step); otherwise the author chooses.
    pub fn on_disk_changed(&self, disk: Plan) {
        let Some(current) = self.plan.get_untracked() else {
            return;
        };
        let was_unreadable = self
            .on_disk_choice
            .with_untracked(|t| matches!(t, Some(OnDiskChoice::Unreadable(_))));
        if disk == current {
            self.on_disk.set_value(OnDisk::Plan(Box::new(disk)));
            self.on_disk_choice.set(None);
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
            self.on_disk_choice
                .set(Some(OnDiskChoice::Plan(Box::new(disk))));
            self.save.set(SaveState::Conflict);
        } else {
            self.history
                .update_value(|h| h.record(&current, None, now_ms()));
            self.on_disk.set_value(OnDisk::Plan(Box::new(disk.clone())));
            self.keep_selection_valid(&disk);
            self.set_plan(Some(disk), super::Change::Any);
            self.on_disk_choice.set(None);
            self.save.set(SaveState::Saved);
            self.refresh_undo();
        }
    }

    /// The draft on disk can no longer be read (someone wrote a broken file): the plan stays open
    /// as it is, nothing is written over the file, and the author chooses.
    pub fn on_disk_unreadable(&self, why: ApiError) {
        if self.plan.with_untracked(Option::is_some) {
            self.on_disk_choice.set(Some(OnDiskChoice::Unreadable(why)));
            self.save.set(SaveState::Conflict);
        }
    }

    /// Settles a conflict: take the file's version (`true`, undoable; a file that cannot be read
    /// closes the plan, and the caller shows why) or keep the editor's and write it over the file.
    pub fn resolve_conflict(&self, take_file: bool) {
        let Some(choice) = self.on_disk_choice.get_untracked() else {
            return;
        };
        self.on_disk_choice.set(None);
        let file = match choice {
            OnDiskChoice::Plan(plan) => *plan,
            OnDiskChoice::Unreadable(_) if take_file => {
                self.close();
                return;
            }
            OnDiskChoice::Unreadable(_) => {
                // Nothing readable is on disk: the editor's plan is written over the file.
                self.on_disk.set_value(OnDisk::Nothing);
                self.save.set(SaveState::Unsaved);
                self.schedule_save(Duration::ZERO);
                return;
            }
        };
        self.on_disk.set_value(OnDisk::Plan(Box::new(file.clone())));
        self.save.set(SaveState::Saved);
        if take_file {
            if let Some(current) = self.plan.get_untracked() {
                self.history
                    .update_value(|h| h.record(&current, None, now_ms()));
            }
            self.keep_selection_valid(&file);
            self.set_plan(Some(file), super::Change::Any);
            self.refresh_undo();
        } else {
            self.save.set(SaveState::Unsaved);
            self.schedule_save(Duration::ZERO);
        }
    }
}
