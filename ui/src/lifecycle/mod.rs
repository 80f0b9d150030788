//! A plan's whole life in the window, over the shell's `plan_api` operations: the plan switcher's
//! actions (new, duplicate, rename, delete and back from the trash), publishing, the versions
//! (view, set live, reopen, compare), import and export. Each operation here is the decision and
//! the calls; the views only show its state and call it.

mod files;
mod plans;
mod versions;
mod welcome;

use leptos::prelude::*;
use plan_api::messages::{Sample, TrashEntry, VersionInfo};
use plan_api::ApiError;
use plan_core::Revision;

use crate::editor::Editor;
use crate::navigation::{Confirmed, Dialog, Navigation, Tab};
use crate::notice::Notice;
use crate::opening::Opening;
pub use plans::{badge, filter_plans};

#[derive(Clone, Copy)]
pub struct Lifecycle {
    editor: Editor,
    opening: Opening,
    navigation: Navigation,
    /// The open plan's versions, oldest first.
    pub versions: RwSignal<Vec<VersionInfo>>,
    /// The workspace's trash, most recently deleted first.
    pub trash: RwSignal<Vec<TrashEntry>>,
    /// The sample plans a new plan can start from.
    pub samples: RwSignal<Vec<Sample>>,
    /// What the Versions tab compares a version with.
    pub compare_with: RwSignal<Revision>,
    /// The versions are wanted outside their tab (the Export menu is open).
    pub versions_wanted: RwSignal<bool>,
}

impl Lifecycle {
    pub fn new(editor: Editor, opening: Opening, navigation: Navigation) -> Lifecycle {
        let lifecycle = Lifecycle {
            editor,
            opening,
            navigation,
            versions: RwSignal::new(Vec::new()),
            trash: RwSignal::new(Vec::new()),
            samples: RwSignal::new(Vec::new()),
            compare_with: RwSignal::new(Revision::Draft),
            versions_wanted: RwSignal::new(false),
        };
        // The versions are read while the Versions tab shows them (or the Export menu offers
        // them), again whenever the open plan or its files change; and the trash a moment after
        // the window has opened. Neither is asked for before the first plan is drawn: each answer
        // coming in then held up the first frame (open at 1,000 states 323 → ~500 ms).
        Effect::new(move |_| {
            let id = editor.id.get();
            opening.plans.track();
            let wanted = navigation.showing(Tab::Versions) || lifecycle.versions_wanted.get();
            if let (Some(id), true) = (id, wanted) {
                lifecycle.refresh_versions(id);
            }
        });
        lifecycle.greet();
        set_timeout(
            move || lifecycle.refresh_trash(),
            std::time::Duration::from_millis(1_500),
        );
        lifecycle
    }

    /// The open plan's newest version, as the plan list says (tracked).
    pub fn newest_version(&self) -> Option<u32> {
        let id = self.editor.id.get()?;
        self.opening.plans.with(|list| {
            list.iter()
                .find(|p| p.id == id)
                .and_then(|p| p.newest_version)
        })
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
        if self.navigation.close() == Some(Dialog::Welcome) {
            self.dismiss_welcome();
        }
    }

    /// The confirmed action of the confirmation dialog.
    pub fn confirm(self) {
        let Some(Dialog::Confirm(c)) = self.navigation.dialog_untracked() else {
            return;
        };
        self.navigation.close();
        match c.action {
            Confirmed::Reopen { version } => self.reopen(version),
        }
    }
}
