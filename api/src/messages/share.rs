//! Sharing a workspace through git (issue 45): what the Share panel and `plan share` show and
//! answer. The operations are in `crate::sharing`.

use plan_core::merge::Conflict;
use serde::{Deserialize, Serialize};

/// The conflicts of a plan's draft left by a merge, kept beside it in `draft.conflicts.json`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ConflictsFile {
    /// Each place both sides changed differently, not yet resolved; the draft holds ours.
    pub conflicts: Vec<Conflict>,
}

/// What `plan share init` (or the app, opening a workspace in a git repository) set up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShareSetUp {
    /// The repository's top folder.
    pub repository: String,
    /// Whether anything had to be written (false: it was set up already).
    pub changed: bool,
}

/// How a plan differs from the last checkpoint, or from what was last sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlanChange {
    /// A plan that is not in any checkpoint yet.
    New,
    /// A plan changed.
    Changed,
    /// A plan deleted.
    Deleted,
}

/// A plan with changes to share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedPlan {
    /// The plan's id.
    pub id: String,
    /// How it changed.
    pub change: PlanChange,
}

/// Plans named in a line, each by `name` of its id (its title in the window, its id in a
/// terminal), a new or deleted one said so: "Support, Billing (new)".
pub fn plans_in_words(list: &[ChangedPlan], name: impl Fn(&str) -> String) -> String {
    list.iter()
        .map(|p| match p.change {
            PlanChange::New => format!("{} (new)", name(&p.id)),
            PlanChange::Deleted => format!("{} (deleted)", name(&p.id)),
            PlanChange::Changed => name(&p.id),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A plan with conflicts left to choose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanConflicts {
    /// The plan's id.
    pub id: String,
    /// How many conflicts are left.
    pub count: usize,
}

/// The Share panel's state of the workspace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShareStatus {
    /// The repository's top folder.
    pub repository: String,
    /// The shared copy sends and gets go to (`origin/main`), if there is one.
    pub upstream: Option<String>,
    /// Plans changed since the last checkpoint.
    pub unsaved: Vec<ChangedPlan>,
    /// Plans in checkpoints not yet sent.
    pub unsent: Vec<ChangedPlan>,
    /// Plans with conflicts left from a get.
    pub conflicts: Vec<PlanConflicts>,
    /// The author's name and e-mail as git knows them, if it does.
    pub author: Option<Author>,
}

/// Who a checkpoint is by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Author {
    /// The author's name.
    pub name: String,
    /// The author's e-mail.
    pub email: String,
}

/// A checkpoint saved, or nothing to save.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The commit made (short), or `None` when nothing had changed.
    pub commit: Option<String>,
    /// The plans it holds changes of.
    pub plans: Vec<ChangedPlan>,
}

/// What came in for one plan with others' changes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PlanReceived {
    /// The plan's id.
    pub id: String,
    /// Titles of the states added to the draft.
    pub states_added: Vec<String>,
    /// Titles of the states changed.
    pub states_changed: Vec<String>,
    /// Titles of the states removed.
    pub states_removed: Vec<String>,
    /// The versions received.
    pub versions_received: Vec<u32>,
    /// Our versions renumbered because others had published the same numbers: (was, now).
    pub versions_renumbered: Vec<(u32, u32)>,
    /// Conflicts left to choose.
    pub conflicts: Vec<Conflict>,
}

impl PlanReceived {
    /// What came in for the plan, a phrase each, in the words of `plan share get` and the Share
    /// panel alike: "states added: Refunds", "versions received: v3",
    /// "your version 3 is now version 4: others published 3 first". The conflicts are
    /// [`PlanReceived::conflicts_in_words`].
    pub fn in_words(&self) -> Vec<String> {
        let mut parts = Vec::new();
        for (what, titles) in [
            ("states added", &self.states_added),
            ("states changed", &self.states_changed),
            ("states removed", &self.states_removed),
        ] {
            if !titles.is_empty() {
                parts.push(format!("{what}: {}", titles.join(", ")));
            }
        }
        if !self.versions_received.is_empty() {
            let v: Vec<String> = self
                .versions_received
                .iter()
                .map(|n| format!("v{n}"))
                .collect();
            parts.push(format!("versions received: {}", v.join(", ")));
        }
        for (was, now) in &self.versions_renumbered {
            parts.push(format!(
                "your version {was} is now version {now}: others published {was} first"
            ));
        }
        parts
    }

    /// "1 conflict to choose", "3 conflicts to choose"; none when the merge left none.
    pub fn conflicts_in_words(&self) -> Option<String> {
        match self.conflicts.len() {
            0 => None,
            1 => Some("1 conflict to choose".into()),
            n => Some(format!("{n} conflicts to choose")),
        }
    }
}

/// The outcome of getting others' changes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Received {
    /// Per plan that changed.
    pub plans: Vec<PlanReceived>,
    /// Whether anything came in at all.
    pub anything: bool,
}

/// The outcome of sending.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sent {
    /// Where it went (`origin/main`).
    pub to: String,
    /// The plans whose changes went.
    pub plans: Vec<ChangedPlan>,
}

/// How a conflict is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Ours, which the draft already holds.
    KeepMine,
    /// Theirs, put into the draft.
    TakeTheirs,
    /// The author's own edit (or theirs, put in by the window's edit), already in the draft.
    Edited,
}

/// A checkpoint asked for: [`crate::messages::SHARE_CHECKPOINT`]'s arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckpointArgs {
    /// The author's words.
    pub message: String,
    /// Who the author is, when git does not know yet.
    pub author: Option<Author>,
}

/// A conflict chosen: [`crate::messages::RESOLVE_CONFLICT`]'s arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResolveArgs {
    /// The plan.
    pub id: String,
    /// The conflict's path.
    pub path: String,
    /// How it is chosen.
    pub choice: Choice,
}
