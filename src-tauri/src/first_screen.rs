//! The editor's first screen (the `start` command's answer): the plan list and the plan to open,
//! read from disk and made into the bytes the page receives.
//!
//! The shell begins on it the moment it starts, on a thread of its own, while its window and the
//! page are still coming up: between the shell's `main` and the page's first request there are
//! ~500 ms here (GTK and the web view starting, then the page loading its wasm), and reading and
//! serializing a plan of 5,000 states takes ~130 ms of that instead of being waited for (the page
//! asked, then waited, before: `scripts/bench-app.sh`, issue 6). The early answer is only used
//! while it is still true: when the page asks, every draft must still be the very file that was
//! read (same identity: inode, length, modification time) and the workspace must hold the same
//! plans; otherwise, or for a page that asks for a particular plan (a reload after a crash), the
//! answer is made afresh.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver};
use std::sync::Mutex;

use plan_core::ipc::{IpcError, LoadedPlan, OpenedPlan, Started};
use plan_core::store::{FirstScreen, Workspace};

use crate::commands::json_bytes;
use crate::known::{Identity, Known};

/// A first screen as sent: the answer's bytes, and what it was read from.
pub struct Answer {
    /// Each plan's draft identity, taken before the drafts were read (a draft changed during the
    /// read then looks changed afterwards, never the other way round).
    seen: BTreeMap<String, Option<Identity>>,
    /// The opened plan's draft and its identity before it was read, if one opens.
    opened: Option<(PathBuf, Option<Identity>)>,
    /// The [`Started`] answer as JSON.
    pub bytes: Vec<u8>,
}

impl Answer {
    /// Reads the first screen of `ws`, opening `remembered` when it opens.
    pub fn read(ws: &Workspace, remembered: Option<&str>) -> Result<Answer, IpcError> {
        let seen: BTreeMap<String, Option<Identity>> =
            (ws.plan_ids().map_err(|e| IpcError::from(&e))?)
                .into_iter()
                .map(|id| {
                    let seen = ws.draft_path(&id).ok().and_then(|p| Identity::of(&p));
                    (id, seen)
                })
                .collect();
        let FirstScreen { plans, first } = ws
            .first_screen(remembered)
            .map_err(|e| IpcError::from(&e))?;
        let (opened, source) = match first {
            Some((id, plan)) => {
                let path = ws.draft_path(&id).map_err(|e| IpcError::from(&e))?;
                let source = path.display().to_string();
                let before = seen.get(&id).copied().flatten();
                let loaded = LoadedPlan { plan, source };
                (Some(OpenedPlan { id, loaded }), Some((path, before)))
            }
            None => (None, None),
        };
        let bytes = json_bytes(&Started { plans, opened })?;
        Ok(Answer {
            seen,
            opened: source,
            bytes,
        })
    }

    /// Whether the workspace still holds exactly what this answer was read from.
    fn still_true(&self, ws: &Workspace) -> bool {
        let Ok(ids) = ws.plan_ids() else {
            return false;
        };
        ids.len() == self.seen.len()
            && ids.iter().all(|id| {
                self.seen.get(id).is_some_and(|seen| {
                    seen.is_some() && *seen == ws.draft_path(id).ok().and_then(|p| Identity::of(&p))
                })
            })
    }

    /// Records the opened draft as read by the app, as it was before it was read.
    pub fn remember(&self, known: &Known) {
        if let Some((path, Some(before))) = &self.opened {
            known.read(path, *before);
        }
    }
}

/// The first screen the shell began reading when it started, until the page takes it.
pub struct Early(Mutex<Option<Receiver<Result<Answer, IpcError>>>>);

impl Early {
    /// Starts reading the first screen of the workspace at `root` on a thread of its own.
    pub fn begin(root: PathBuf) -> Early {
        let (send, receive) = channel();
        let spawned = std::thread::Builder::new()
            .name("first-screen".into())
            .spawn(move || {
                let _ = send.send(Answer::read(&Workspace::at(&root), None));
            });
        Early(Mutex::new(spawned.ok().map(|_| receive)))
    }

    /// The first screen of `ws` for a page that asks now: the early answer when the page asks for
    /// no plan in particular and it is still true, else one read afresh.
    pub fn answer(&self, ws: &Workspace, remembered: Option<&str>) -> Result<Answer, IpcError> {
        match remembered.map_or_else(|| self.take(ws), |_| None) {
            Some(early) => Ok(early),
            None => Answer::read(ws, remembered),
        }
    }

    /// The early answer, once: when it is done (waiting for it if need be) and still true of
    /// `ws`. Anything else (it failed, the workspace changed since, it was taken) is `None`.
    fn take(&self, ws: &Workspace) -> Option<Answer> {
        let receive = self.0.lock().ok()?.take()?;
        let answer = receive.recv().ok()?.ok()?;
        answer.still_true(ws).then_some(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::ipc::Started;

    /// A fresh workspace for one test, seeded with the sample plans.
    fn workspace(test: &str) -> (PathBuf, Workspace) {
        let root = std::env::temp_dir().join(format!("{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let ws = Workspace::open(&root, "2026-12-02T00:00:00Z").unwrap();
        (root, ws)
    }

    fn started(answer: &Answer) -> Started {
        serde_json::from_slice(&answer.bytes).unwrap()
    }

    #[test]
    fn the_early_first_screen_is_what_the_page_would_have_been_sent() {
        let (root, ws) = workspace("early-first-screen");
        let early = Early::begin(root.clone());
        let taken = early
            .take(&ws)
            .expect("nothing changed: the early answer stands");
        let fresh = Answer::read(&ws, None).unwrap();
        assert_eq!(taken.bytes, fresh.bytes);
        let opened = started(&taken).opened.expect("a sample plan opens");
        // The opened draft is known as read, so a save over another program's change is refused.
        let known = Known::default();
        taken.remember(&known);
        let draft = ws.draft_path(&opened.id).unwrap();
        assert!(known.is_known(&draft));
        assert!(early.take(&ws).is_none(), "taken once");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_page_that_asks_for_its_plan_gets_that_plan_read_afresh() {
        let (root, ws) = workspace("early-first-screen-remembered");
        let early = Early::begin(root.clone());
        let answer = early.answer(&ws, Some("medical-intake")).unwrap();
        assert_eq!(started(&answer).opened.unwrap().id, "medical-intake");
        // The early answer (the first plan by title) is still there for a page that asks for none.
        let first = early.answer(&ws, None).unwrap();
        assert_eq!(first.bytes, Answer::read(&ws, None).unwrap().bytes);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn an_early_first_screen_is_dropped_when_a_draft_changed_since_it_was_read() {
        let (root, ws) = workspace("early-first-screen-changed");
        let early = Early::begin(root.clone());
        // Wait until it is read, then another program rewrites the plan that opens first.
        let answer = early
            .0
            .lock()
            .unwrap()
            .take()
            .unwrap()
            .recv()
            .unwrap()
            .unwrap();
        let opened = started(&answer).opened.unwrap();
        let draft = ws.draft_path(&opened.id).unwrap();
        let mut plan = ws.read_draft(&opened.id).unwrap();
        plan.title = "Changed by another program".into();
        let other = root.join("other.json");
        std::fs::write(&other, serde_json::to_vec_pretty(&plan).unwrap()).unwrap();
        std::fs::rename(&other, &draft).unwrap();
        assert!(!answer.still_true(&ws), "a draft was replaced");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn an_early_first_screen_is_dropped_when_a_plan_was_added_or_removed() {
        let (root, ws) = workspace("early-first-screen-added");
        let answer = Answer::read(&ws, None).unwrap();
        assert!(answer.still_true(&ws));
        let mut plan = ws.read_draft("customer-support").unwrap();
        plan.id = "another".into();
        ws.create("another", plan, "2026-12-02T00:00:01Z").unwrap();
        assert!(!answer.still_true(&ws), "a plan was added");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
