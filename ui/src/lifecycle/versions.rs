//! Publishing and the versions: the publish dialog (what the draft changes, or the errors that
//! block it), the versions list, a version viewed read-only, set live, reopened as the draft, and
//! two documents compared on the canvas. Every operation that reads the draft on disk waits for
//! the editor's autosave first.

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::DraftStatus;
use plan_core::Revision;

use super::Lifecycle;
use crate::editor::{Comparing, Mode};
use crate::ipc;
use crate::navigation::{Confirmation, Confirmed, Dialog, PublishGate, Publishing, Tab};

impl Lifecycle {
    /// Opens the publish dialog and asks what publishing would do.
    pub fn open_publish(self) {
        let Some(id) = self.open_id() else { return };
        if !self.editor.mode.with_untracked(Mode::is_draft) {
            return self
                .editor
                .say_refused("Only the draft can be published: go back to the draft first.");
        }
        self.navigation.open(Dialog::Publish(Publishing::default()));
        spawn_local(async move {
            let state = match self.editor.settled().await {
                Err(why) => Publishing {
                    error: Some(plan_api::ApiError::new(plan_api::ErrorCode::Refused, why)),
                    ..Publishing::default()
                },
                Ok(()) => match ipc::publish_preview(&id).await {
                    Ok(preview) => Publishing {
                        preview: Some(preview),
                        ..Publishing::default()
                    },
                    Err(e) => Publishing {
                        error: Some(e),
                        ..Publishing::default()
                    },
                },
            };
            let explore = state
                .preview
                .as_ref()
                .is_some_and(|p| p.errors.is_empty() && !p.unchanged);
            // Unless the author closed it meanwhile.
            if !self.navigation.publishing() {
                return;
            }
            self.navigation.open(Dialog::Publish(state));
            if explore {
                let rules = ipc::publish_rules(&id).await;
                self.navigation.update_publishing(|p| p.rules = Some(rules));
                let outcomes = ipc::publish_outcomes(&id).await;
                self.navigation
                    .update_publishing(|p| p.outcomes = Some(outcomes));
            }
        });
    }

    /// The draft has rules to check before it is published (tracked).
    pub fn has_rules(&self) -> bool {
        self.editor
            .plan
            .with(|p| p.as_ref().is_some_and(|p| !p.rules.is_empty()))
    }

    /// What the publish dialog allows now (tracked); see [`PublishGate`].
    pub fn publish_gate(&self) -> PublishGate {
        self.navigation.with_dialog(|d| match d {
            Some(Dialog::Publish(p)) => PublishGate::of(p, self.has_rules()),
            _ => PublishGate::of(&Publishing::default(), false),
        })
    }

    fn publish_gate_untracked(&self) -> PublishGate {
        untrack(|| self.publish_gate())
    }

    /// Publishes the draft with `note`, if the gate is open; the dialog closes on success and says why on refusal.
    pub fn publish(self, note: String) {
        let Some(id) = self.open_id() else { return };
        if !self.publish_gate_untracked().is_open() {
            return;
        }
        self.navigation.update_publishing(|p| p.busy = true);
        spawn_local(async move {
            let published = match self.editor.settled().await {
                Ok(()) => ipc::publish(&id, &note).await,
                Err(why) => Err(plan_api::ApiError::new(plan_api::ErrorCode::Refused, why)),
            };
            match published {
                Ok(p) => {
                    self.navigation.close();
                    self.editor.draft_status.set(Some(DraftStatus::Published));
                    self.editor.published();
                    self.editor.say(format!("Published version {}.", p.version));
                    self.opening.refresh();
                }
                Err(e) => self.navigation.update_publishing(|p| {
                    p.busy = false;
                    p.error = Some(e);
                }),
            }
        });
    }

    /// Reads plan `id`'s versions again.
    pub fn refresh_versions(self, id: String) {
        spawn_local(async move {
            let listed = ipc::list_versions(&id).await;
            if self.open_id().as_deref() != Some(id.as_str()) {
                return;
            }
            match listed {
                Ok(list) => self.versions.set(list),
                Err(_) => self.versions.set(Vec::new()),
            }
        });
    }

    /// Shows version `n` read-only in the draft's place.
    pub fn view(self, n: u32) {
        let Some(id) = self.open_id() else { return };
        spawn_local(async move {
            if let Err(why) = self.editor.settled().await {
                return self.editor.say_refused(why);
            }
            match ipc::load_version(&id, n).await {
                Ok(v) if self.open_id().as_deref() == Some(id.as_str()) => {
                    self.editor.show_read_only(v.plan, Mode::Version(n), None);
                    self.editor.notice.set(None);
                }
                Ok(_) => {}
                Err(e) => self.refused(&e),
            }
        });
    }

    /// Makes version `n` the live one.
    pub fn set_live(self, n: u32) {
        let Some(id) = self.open_id() else { return };
        spawn_local(async move {
            match ipc::set_live(&id, n).await {
                Ok(_) => {
                    self.editor.say(format!(
                        "Version {n} is live: new test conversations run it."
                    ));
                    self.opening.refresh();
                }
                Err(e) => self.refused(&e),
            }
        });
    }

    /// Asks whether version `n` should replace the draft.
    pub fn ask_reopen(self, n: u32) {
        self.navigation.open(Dialog::Confirm(Confirmation {
            title: format!("Reopen version {n} as the draft?"),
            text: format!(
                "The draft is replaced by version {n}. The draft as it is now is kept in the \
                 plan's history folder, and every version stays as it is."
            ),
            confirm: "Reopen as draft",
            action: Confirmed::Reopen { version: n },
        }));
    }

    /// Version `n` becomes the draft; the replaced draft is kept in history/, and the notice says
    /// where.
    pub(super) fn reopen(self, n: u32) {
        let Some(id) = self.open_id() else { return };
        spawn_local(async move {
            if let Err(why) = self.editor.settled().await {
                return self.editor.say_refused(why);
            }
            match ipc::reopen_version(&id, n).await {
                Ok(reopened) => {
                    self.back_to_draft();
                    // The draft on disk is the version now: read it (one undo step).
                    self.opening.open(id, false);
                    let kept = reopened
                        .kept
                        .map(|k| format!(" The previous draft is kept in {k}."))
                        .unwrap_or_default();
                    self.editor
                        .say(format!("Version {n} is now the draft.{kept}"));
                    self.opening.refresh();
                }
                Err(e) => self.refused(&e),
            }
        });
    }

    /// Chooses what a version's Compare compares it with.
    pub fn compare_with_revision(self, with: Revision) {
        self.compare_with.set(with);
    }

    /// Shows `b` compared with `a` on the canvas (read-only), with the list of changes.
    pub fn compare(self, a: Revision, b: Revision) {
        let Some(id) = self.open_id() else { return };
        // Older to newer, whichever way they were picked: what the newer one added is "new".
        let (a, b) = match (a, b) {
            (Revision::Version(x), Revision::Version(y)) if x > y => (b, a),
            (Revision::Draft, other) => (other, Revision::Draft),
            pair => pair,
        };
        if a == b {
            return self
                .editor
                .say_refused("Pick two different documents to compare.");
        }
        spawn_local(async move {
            if let Err(why) = self.editor.settled().await {
                return self.editor.say_refused(why);
            }
            match ipc::compare(&id, a, b).await {
                Ok(c) if self.open_id().as_deref() == Some(id.as_str()) => {
                    let comparing = Comparing::of(&c.overlay, c.changes);
                    self.editor.show_read_only(
                        c.overlay.plan,
                        Mode::Compare { a, b },
                        Some(comparing),
                    );
                    self.editor.notice.set(None);
                    self.navigation.show(Tab::Changes);
                }
                Ok(_) => {}
                Err(e) => self.refused(&e),
            }
        });
    }

    /// The draft back in the editor's place (read again if it changed on disk meanwhile).
    pub fn back_to_draft(self) {
        self.editor.back_to_draft();
        if self.navigation.tab_untracked() == Tab::Changes {
            self.navigation.show(Tab::Versions);
        }
        self.opening.draft_back();
    }
}
