//! The plan switcher's actions: a new plan (blank or from a sample), a duplicate, a new title,
//! delete to the trash (with Undo) and back; and how the list is searched and labelled.

use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_api::messages::{DraftStatus, NewPlan, PlanSource, PlanSummary};
use plan_core::edit::{Command, PlanDetails};

use super::Lifecycle;
use crate::ipc;
use crate::navigation::Dialog;
use crate::notice::{Notice, Undo};

/// The plans whose title or id contains `query` (any case), in the list's order.
pub fn filter_plans(plans: &[PlanSummary], query: &str) -> Vec<PlanSummary> {
    let q = query.trim().to_lowercase();
    plans
        .iter()
        .filter(|p| {
            q.is_empty() || p.title.to_lowercase().contains(&q) || p.id.to_lowercase().contains(&q)
        })
        .cloned()
        .collect()
}

/// What the version badge says about a plan: its newest version, its live one, and whether the
/// draft has changed since ("v2 · live v1 · changed since v2").
pub fn badge(status: Option<DraftStatus>, newest: Option<u32>, live: Option<u32>) -> String {
    let Some(newest) = newest else {
        return "Not published yet".into();
    };
    let mut parts = vec![format!("v{newest}")];
    match live {
        Some(l) if l == newest => parts.push("live".into()),
        Some(l) => parts.push(format!("live v{l}")),
        None => parts.push("none live".into()),
    }
    if status == Some(DraftStatus::Changed) {
        parts.push(format!("changed since v{newest}"));
    }
    parts.join(" · ")
}

impl Lifecycle {
    /// The samples, for the new-plan dialog (asked once).
    pub fn new_plan_dialog(self) {
        self.navigation.open(Dialog::NewPlan);
        if self.samples.with_untracked(Vec::is_empty) {
            spawn_local(async move {
                if let Ok(list) = ipc::list_samples().await {
                    self.samples.set(list);
                }
            });
        }
    }

    /// A new plan titled `title`, blank or a copy of sample `sample`, opened once made.
    pub fn new_plan(self, title: String, sample: Option<String>) {
        let from = match sample {
            Some(id) => PlanSource::Sample { id },
            None => PlanSource::Blank,
        };
        let request = NewPlan {
            id: None,
            title: Some(title).filter(|t| !t.trim().is_empty()),
            from,
        };
        self.navigation.close();
        spawn_local(async move {
            match ipc::new_plan(&request).await {
                Ok(created) => {
                    self.opening.refresh();
                    self.opening.open(created.id, true);
                    self.editor
                        .say(format!("Created the plan “{}”.", created.title));
                }
                Err(e) => self.refused(&e),
            }
        });
    }

    /// A copy of plan `id`'s draft under a new id, opened.
    pub fn duplicate(self, id: String) {
        spawn_local(async move {
            // The copy is of the draft on disk: the open plan's edits go there first.
            if self.open_id().as_deref() == Some(id.as_str()) {
                if let Err(why) = self.editor.settled().await {
                    return self.editor.say_refused(why);
                }
            }
            match ipc::duplicate_plan(&id).await {
                Ok(created) => {
                    self.opening.refresh();
                    self.opening.open(created.id.clone(), true);
                    self.editor.say(format!(
                        "Duplicated as “{}” ({}): the draft only, no versions.",
                        created.title, created.id
                    ));
                }
                Err(e) => self.refused(&e),
            }
        });
    }

    /// Plan `id` gets the title `title`: for the open plan an edit like any other (one undo
    /// step), for another plan written to its draft.
    pub fn rename(self, id: String, title: String) {
        let title = title.trim().to_string();
        if title.is_empty() {
            return self.editor.say_refused("A plan's title cannot be empty.");
        }
        if self.open_id().as_deref() == Some(id.as_str()) {
            let details = self.editor.plan.with_untracked(|p| {
                p.as_ref().map(|p| PlanDetails {
                    title: title.clone(),
                    ..PlanDetails::of(p)
                })
            });
            if let Some(details) = details {
                self.editor.dispatch(Command::SetPlanDetails(details));
            }
            return;
        }
        spawn_local(async move {
            match ipc::rename_plan(&id, &title).await {
                Ok(()) => self.opening.refresh(),
                Err(e) => self.refused(&e),
            }
        });
    }

    /// Plan `id` to the workspace's trash; the notice's Undo brings it back.
    pub fn delete(self, id: String) {
        spawn_local(async move {
            match ipc::delete_plan(&id).await {
                Ok(trashed) => {
                    self.opening.forget(&id);
                    self.opening.refresh();
                    self.refresh_trash();
                    let text = format!("Moved “{}” to the trash.", trashed.title);
                    self.editor
                        .notice
                        .set(Some(Notice::info(text).with_undo(Undo::RestorePlan {
                            entry: trashed.entry,
                        })));
                }
                Err(e) => self.refused(&e),
            }
        });
    }

    /// A plan back from the trash, opened.
    pub fn restore(self, entry: String) {
        let shown = self.editor.id.get_untracked();
        spawn_local(async move {
            match ipc::restore_plan(&entry).await {
                Ok(created) => {
                    self.opening.refresh();
                    self.refresh_trash();
                    // Opened unless the author has picked another plan meanwhile.
                    if self.editor.id.get_untracked() == shown {
                        self.opening.open(created.id.clone(), true);
                    }
                    self.editor
                        .say(format!("“{}” is back ({}).", created.title, created.id));
                }
                Err(e) => self.refused(&e),
            }
        });
    }

    /// The notice's Undo.
    pub fn undo_notice(self, undo: Undo) {
        self.editor.notice.set(None);
        match undo {
            Undo::RestorePlan { entry } => self.restore(entry),
        }
    }

    pub(super) fn refresh_trash(self) {
        spawn_local(async move {
            if let Ok(list) = ipc::list_trash().await {
                self.trash.set(list);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: &str, title: &str) -> PlanSummary {
        PlanSummary {
            id: id.into(),
            title: title.into(),
            states: 1,
            transitions: 0,
            error: None,
            draft: DraftStatus::Unpublished,
            newest_version: None,
            live_version: None,
            changed_at: None,
            problems: Vec::new(),
        }
    }

    #[test]
    fn the_switcher_finds_plans_by_title_or_id_in_any_case() {
        let list = [
            summary("customer-support", "Customer support"),
            summary("medical-intake", "Medical intake"),
        ];
        let ids =
            |q: &str| -> Vec<String> { filter_plans(&list, q).into_iter().map(|p| p.id).collect() };
        assert_eq!(ids("SUPPORT"), ["customer-support"]);
        assert_eq!(ids("medical-"), ["medical-intake"]);
        assert_eq!(ids("  "), ["customer-support", "medical-intake"]);
        assert!(ids("refund").is_empty());
    }

    #[test]
    fn the_badge_says_newest_live_and_unpublished_changes() {
        assert_eq!(badge(None, None, None), "Not published yet");
        assert_eq!(
            badge(Some(DraftStatus::Published), Some(2), Some(2)),
            "v2 · live"
        );
        assert_eq!(
            badge(Some(DraftStatus::Changed), Some(2), Some(1)),
            "v2 · live v1 · changed since v2"
        );
        assert_eq!(
            badge(Some(DraftStatus::Published), Some(1), None),
            "v1 · none live"
        );
    }
}
