//! A plan's whole life in the window, over the shell's `plan_api` operations: the plan switcher's
//! actions (new, duplicate, rename, delete and back from the trash), publishing, the versions
//! (view, set live, reopen, compare), import and export. Each operation here is the decision and
//! the calls; the views only show its state and call it.

mod files;
mod plans;
mod versions;

use leptos::prelude::*;
use plan_api::messages::{PublishPreview, Sample, TrashEntry, VersionEntry};
use plan_api::ApiError;
use plan_core::Revision;

use crate::actions::Actions;
use crate::editor::Editor;
use crate::notice::Notice;
use crate::opening::Opening;
pub use plans::{badge, filter_plans};

/// The window's dialogs (one at a time).
#[derive(Debug, Clone, PartialEq)]
pub enum Dialog {
    /// Publish, with what it would do once the shell has said.
    Publish(Publishing),
    /// A new plan: its title and what it starts from.
    NewPlan,
    /// An action that replaces something, asked first.
    Confirm(Confirmation),
}

/// The publish dialog's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Publishing {
    /// What publishing would do; none until the shell has answered.
    pub preview: Option<PublishPreview>,
    /// Why the preview or the publish failed.
    pub error: Option<ApiError>,
    /// A publish is under way.
    pub busy: bool,
}

/// An action to confirm.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirmation {
    pub title: String,
    pub text: String,
    /// The confirm button's words.
    pub confirm: &'static str,
    pub action: Confirmed,
}

/// What a confirmation does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    /// Version N becomes the draft.
    Reopen { version: u32 },
}

#[derive(Clone, Copy)]
pub struct Lifecycle {
    editor: Editor,
    opening: Opening,
    actions: Actions,
    /// The open plan's versions, oldest first.
    pub versions: RwSignal<Vec<VersionEntry>>,
    /// The workspace's trash, most recently deleted first.
    pub trash: RwSignal<Vec<TrashEntry>>,
    /// The sample plans a new plan can start from.
    pub samples: RwSignal<Vec<Sample>>,
    /// The dialog shown, if any.
    pub dialog: RwSignal<Option<Dialog>>,
    /// What the Versions tab compares a version with.
    pub compare_with: RwSignal<Revision>,
}

impl Lifecycle {
    pub fn new(editor: Editor, opening: Opening, actions: Actions) -> Lifecycle {
        let lifecycle = Lifecycle {
            editor,
            opening,
            actions,
            versions: RwSignal::new(Vec::new()),
            trash: RwSignal::new(Vec::new()),
            samples: RwSignal::new(Vec::new()),
            dialog: RwSignal::new(None),
            compare_with: RwSignal::new(Revision::Draft),
        };
        // The versions follow the open plan, and whatever changes its files.
        Effect::new(move |_| {
            let id = editor.id.get();
            opening.plans.track();
            if let Some(id) = id {
                lifecycle.refresh_versions(id);
            }
        });
        Effect::new(move |_| {
            opening.plans.track();
            lifecycle.refresh_trash();
        });
        lifecycle
    }

    /// The id of the open plan, if one is.
    fn open_id(&self) -> Option<String> {
        self.editor.id.get_untracked()
    }

    /// Tells the author an operation was refused, in the shell's words.
    fn refused(&self, e: &ApiError) {
        self.editor.notice.set(Some(Notice::refused(e)));
    }

    pub fn close_dialog(&self) {
        self.dialog.set(None);
    }

    /// The confirmed action of the confirmation dialog.
    pub fn confirm(self) {
        let Some(Dialog::Confirm(c)) = self.dialog.get_untracked() else {
            return;
        };
        self.dialog.set(None);
        match c.action {
            Confirmed::Reopen { version } => self.reopen(version),
        }
    }
}
