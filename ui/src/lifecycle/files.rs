//! Import and export through the shell's native file dialogs: a file (either format of the store)
//! into the open plan's draft (the replaced draft kept in history/) or as a new plan; any document
//! of the open plan out to a file. A file that cannot be imported is refused with the shell's
//! words, which name the file and the place, and nothing changes.

use leptos::task::spawn_local;
use plan_core::Revision;

use super::Lifecycle;
use crate::ipc;

impl Lifecycle {
    /// Imports a file the author picks: into the open plan's draft (`into_open`), or as a new plan.
    pub fn import(self, into_open: bool) {
        let into = if into_open { self.open_id() } else { None };
        if into_open && into.is_none() {
            return;
        }
        spawn_local(async move {
            // The draft about to be replaced is saved first, so that history/ keeps it as it was.
            if into.is_some() {
                if let Err(why) = self.editor.settled().await {
                    return self.editor.say_refused(why);
                }
            }
            match ipc::import_file(into.as_deref()).await {
                Ok(None) => {}
                Ok(Some(imported)) => {
                    if into.is_some() {
                        self.back_to_draft();
                    }
                    self.opening.refresh();
                    // A new plan opens; the open plan's draft is read again (one undo step).
                    self.opening.open(imported.id.clone(), into.is_none());
                    let errors = match imported.errors {
                        0 => String::new(),
                        1 => " It has 1 error: see Problems.".into(),
                        n => format!(" It has {n} errors: see Problems."),
                    };
                    let kept = imported
                        .kept
                        .map(|k| format!(" The previous draft is kept in {k}."))
                        .unwrap_or_default();
                    self.editor.say(format!(
                        "Imported {} states from {} into “{}”.{kept}{errors}",
                        imported.states, imported.file, imported.title
                    ));
                }
                Err(e) => self.refused(&e),
            }
        });
    }

    /// Writes `revision` of the open plan to a file the author picks.
    pub fn export(self, revision: Revision) {
        let Some(id) = self.open_id() else { return };
        spawn_local(async move {
            if revision == Revision::Draft {
                if let Err(why) = self.editor.settled().await {
                    return self.editor.say_refused(why);
                }
            }
            match ipc::export_file(&id, revision).await {
                Ok(None) => {}
                Ok(Some(exported)) => self
                    .editor
                    .say(format!("Exported {revision} to {}.", exported.path)),
                Err(e) => self.refused(&e),
            }
        });
    }
}
