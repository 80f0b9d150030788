//! Read-only views in the editor's place: a published version, or two documents of the plan
//! compared. The draft is put aside whole (its plan, undo history, what is on disk, the
//! selection) and comes back as it was; while a view is shown, every editing command is refused
//! and nothing is saved.

use std::collections::HashMap;

use leptos::prelude::*;
use plan_core::diff::{Change, ListedChange, Overlay};
use plan_core::{Plan, Revision};

use super::{history::History, Change as Drawn, Editor, OnDisk, Selection};

/// What the canvas shows.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Mode {
    /// The draft, which the author edits.
    #[default]
    Draft,
    /// A published version, read-only.
    Version(u32),
    /// `b`, with what only `a` had shown as ghosts; read-only.
    Compare { a: Revision, b: Revision },
}

impl Mode {
    /// What the top bar says.
    pub fn label(&self) -> String {
        match self {
            Mode::Draft => "Editing draft".into(),
            Mode::Version(n) => format!("Viewing version {n}, read-only"),
            Mode::Compare { a, b } => {
                format!("Comparing {} with {}, read-only", name(a), name(b))
            }
        }
    }

    pub fn is_draft(&self) -> bool {
        *self == Mode::Draft
    }
}

/// How the top bar names a document: "version 2", "the draft", "the live version".
fn name(r: &Revision) -> String {
    r.to_string()
}

/// What a comparison marks on the canvas, and its changes in words.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Comparing {
    pub states: HashMap<String, Change>,
    pub transitions: HashMap<(String, usize), Change>,
    pub changes: Vec<ListedChange>,
}

impl Comparing {
    /// The marks of `overlay` (whose plan the editor shows), and `changes`.
    pub fn of(overlay: &Overlay, changes: Vec<ListedChange>) -> Comparing {
        Comparing {
            states: overlay.states.clone().into_iter().collect(),
            transitions: overlay
                .transitions
                .iter()
                .map(|t| ((t.from.clone(), t.index), t.change))
                .collect(),
            changes,
        }
    }
}

/// The draft while a view is shown in its place.
pub(super) struct Aside {
    plan: Option<Plan>,
    history: History,
    on_disk: OnDisk,
    selection: Selection,
}

impl Editor {
    /// Shows `plan` read-only in the draft's place (the draft is put aside the first time).
    pub fn show_read_only(&self, plan: Plan, mode: Mode, comparing: Option<Comparing>) {
        let mut shown = Some(plan);
        self.plan.update(|p| std::mem::swap(p, &mut shown));
        if self.mode.get_untracked().is_draft() {
            let mut history = History::default();
            self.history
                .update_value(|h| std::mem::swap(h, &mut history));
            let mut on_disk = OnDisk::Nothing;
            self.on_disk
                .update_value(|d| std::mem::swap(d, &mut on_disk));
            self.aside.set_value(Some(Aside {
                plan: shown,
                history,
                on_disk,
                selection: self.selection.get_untracked(),
            }));
        }
        self.change.set_value(Drawn::Any);
        self.selected.set(Selection::default());
        self.comparing.set(comparing);
        self.mode.set(mode);
        self.refresh_undo();
    }

    /// The draft again, as it was put aside.
    pub fn back_to_draft(&self) {
        let mut taken = None;
        self.aside.update_value(|a| taken = a.take());
        let Some(aside) = taken else {
            self.mode.set(Mode::Draft);
            return;
        };
        self.history.set_value(aside.history);
        self.on_disk.set_value(aside.on_disk);
        self.change.set_value(Drawn::Any);
        self.plan.set(aside.plan);
        self.selected.set(aside.selection);
        self.comparing.set(None);
        self.mode.set(Mode::Draft);
        self.refresh_undo();
    }

    /// Refuses an edit while a view is shown; true when the draft is shown.
    pub(super) fn editable(&self) -> bool {
        let mode = self.mode.get_untracked();
        if !mode.is_draft() {
            self.say_refused(format!(
                "{}. Go back to the draft to change the plan.",
                mode.label()
            ));
        }
        mode.is_draft()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_bar_says_what_is_shown() {
        assert_eq!(Mode::Draft.label(), "Editing draft");
        assert_eq!(Mode::Version(3).label(), "Viewing version 3, read-only");
        assert_eq!(
            Mode::Compare {
                a: Revision::Version(1),
                b: Revision::Draft
            }
            .label(),
            "Comparing version 1 with the draft, read-only"
        );
    }
}
