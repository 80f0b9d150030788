//! The first start's welcome: asked of the shell once the window is up, shown until the author
//! dismisses it (Close, Escape, or any of its three ways in), after which it never comes back.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::Lifecycle;
use crate::ipc;
use crate::navigation::Dialog;

impl Lifecycle {
    /// Shows the welcome when it is due and nothing else is being asked.
    pub(super) fn greet(self) {
        spawn_local(async move {
            if ipc::welcome().await != Ok(true) {
                return;
            }
            if self.samples.with_untracked(Vec::is_empty) {
                if let Ok(list) = ipc::list_samples().await {
                    self.samples.set(list);
                }
            }
            self.navigation.open_if_none(Dialog::Welcome);
        });
    }

    /// The welcome, dismissed for good. A failure to keep that is said: the welcome would
    /// otherwise come back at the next start without a word why.
    pub(super) fn dismiss_welcome(self) {
        spawn_local(async move {
            if let Err(e) = ipc::dismiss_welcome().await {
                self.refused(&e);
            }
        });
    }

    /// The welcome's first way in: sample `id`, opened from the workspace (where the first start
    /// put every sample), or made again from the samples when the author has deleted it since.
    pub fn open_sample(self, id: String, title: String) {
        self.close_dialog();
        let in_workspace = self
            .opening
            .plans
            .with_untracked(|list| list.iter().any(|p| p.id == id));
        if in_workspace {
            self.opening.open(id, true);
        } else {
            self.new_plan(title, Some(id));
        }
    }

    /// The second way in: a blank plan, named in the new-plan dialog.
    pub fn start_blank(self) {
        self.close_dialog();
        self.new_plan_dialog();
    }

    /// The third way in: a plan file from elsewhere, imported as a new plan.
    pub fn import_from_welcome(self) {
        self.close_dialog();
        self.import(false);
    }
}
