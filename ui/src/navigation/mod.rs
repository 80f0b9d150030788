//! Where the author is in the window: which tab of the right-hand panel shows and which dialog is
//! open. One store, reached through the context and changed only through its methods: the
//! actions, the lifecycle, the test chat and the explorer ask it to show a tab or open a dialog;
//! none of them writes another store's signals.

mod dialog;
mod publish_gate;

use leptos::prelude::*;

pub use dialog::{Confirmation, Confirmed, Dialog, Publishing};
pub use publish_gate::PublishGate;

/// Which tab of the right-hand panel is showing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Inspect,
    Problems,
    Versions,
    /// The test chat.
    Chat,
    /// Every conversation the plan allows, explored.
    Explore,
    /// Simulated callers: personas, runs and their results.
    Simulate,
    /// Only while comparing.
    Changes,
}

/// The tab shown and the dialog open.
#[derive(Clone, Copy)]
pub struct Navigation {
    tab: RwSignal<Tab>,
    dialog: RwSignal<Option<Dialog>>,
}

impl Default for Navigation {
    fn default() -> Self {
        Self::new()
    }
}

impl Navigation {
    pub fn new() -> Navigation {
        Navigation {
            tab: RwSignal::new(Tab::Inspect),
            dialog: RwSignal::new(None),
        }
    }

    /// The tab showing (tracked).
    pub fn tab(&self) -> Tab {
        self.tab.get()
    }

    /// The tab showing, read without tracking.
    pub fn tab_untracked(&self) -> Tab {
        self.tab.get_untracked()
    }

    /// `tab` is showing (tracked).
    pub fn showing(&self, tab: Tab) -> bool {
        self.tab.with(|t| *t == tab)
    }

    /// Shows `tab`. Asked for even when it already shows: asking for a tab is what opens a folded
    /// panel (`Actions::open_panel_on_tab_change` follows every ask).
    pub fn show(&self, tab: Tab) {
        self.tab.set(tab);
    }

    /// The dialog open (tracked).
    pub fn dialog(&self) -> Option<Dialog> {
        self.dialog.get()
    }

    /// The dialog open, read without tracking.
    pub fn dialog_untracked(&self) -> Option<Dialog> {
        self.dialog.get_untracked()
    }

    /// Reads the dialog open (tracked) without copying it.
    pub fn with_dialog<T>(&self, read: impl FnOnce(Option<&Dialog>) -> T) -> T {
        self.dialog.with(|d| read(d.as_ref()))
    }

    /// Opens `dialog`, in place of any other.
    pub fn open(&self, dialog: Dialog) {
        self.dialog.set(Some(dialog));
    }

    /// Opens `dialog` unless another is open (what the author is doing comes first).
    pub fn open_if_none(&self, dialog: Dialog) {
        if self.dialog.with_untracked(Option::is_none) {
            self.dialog.set(Some(dialog));
        }
    }

    /// Closes the dialog open; returns it.
    pub fn close(&self) -> Option<Dialog> {
        let open = self.dialog.get_untracked();
        if open.is_some() {
            self.dialog.set(None);
        }
        open
    }

    /// The publish dialog is open.
    pub fn publishing(&self) -> bool {
        self.dialog
            .with_untracked(|d| matches!(d, Some(Dialog::Publish(_))))
    }

    /// Changes the publish dialog's state, if it is still open (the author may have closed it
    /// while the shell was answering).
    pub fn update_publishing(&self, change: impl FnOnce(&mut Publishing)) {
        self.dialog.update(|d| {
            if let Some(Dialog::Publish(p)) = d {
                change(p);
            }
        });
    }
}
