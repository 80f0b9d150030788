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

use plan_api::{workspace, ApiError, Context};

use crate::commands::json_bytes;
use crate::seen_files::{Identity, SeenFiles};

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
    /// Reads the first screen of `ctx`'s workspace, opening `remembered` when it opens.
    pub fn read(ctx: &Context, remembered: Option<&str>) -> Result<Answer, ApiError> {
        let ws = ctx.workspace();
        let seen: BTreeMap<String, Option<Identity>> = ws
            .plan_ids()?
            .into_iter()
            .map(|id| {
                let seen = ws.draft_path(&id).ok().and_then(|p| Identity::of(&p));
                (id, seen)
            })
            .collect();
        let started = workspace::start(ctx, remembered)?;
        let opened = match &started.opened {
            Some(opened) => {
                let path = ws.draft_path(&opened.id)?;
                let before = seen.get(&opened.id).copied().flatten();
                Some((path, before))
            }
            None => None,
        };
        let bytes = json_bytes(&started)?;
        Ok(Answer {
            seen,
            opened,
            bytes,
        })
    }

    /// Whether the workspace still holds exactly what this answer was read from.
    fn still_true(&self, ctx: &Context) -> bool {
        let ws = ctx.workspace();
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
    pub fn remember(&self, known: &SeenFiles) {
        if let Some((path, Some(before))) = &self.opened {
            known.read(path, *before);
        }
    }
}

/// The first screen the shell began reading when it started, until the page takes it.
pub struct PreparedFirstScreen(Mutex<Option<Receiver<Result<Answer, ApiError>>>>);

impl PreparedFirstScreen {
    /// Starts reading the first screen of `ctx`'s workspace on a thread of its own, opening plan
    /// `shown` (a file the app was started with) when it opens.
    pub fn begin(ctx: Context, shown: Option<String>) -> PreparedFirstScreen {
        let (send, receive) = channel();
        let spawned = std::thread::Builder::new()
            .name("first-screen".into())
            .spawn(move || {
                let _ = send.send(Answer::read(&ctx, shown.as_deref()));
            });
        PreparedFirstScreen(Mutex::new(spawned.ok().map(|_| receive)))
    }

    /// The first screen of `ws` for a page that asks now: the early answer when the page asks for
    /// no plan in particular and it is still true, else one read afresh.
    pub fn answer(&self, ctx: &Context, remembered: Option<&str>) -> Result<Answer, ApiError> {
        match remembered.map_or_else(|| self.take(ctx), |_| None) {
            Some(early) => Ok(early),
            None => Answer::read(ctx, remembered),
        }
    }

    /// The early answer, once: when it is done (waiting for it if need be) and still true of
    /// `ws`. Anything else (it failed, the workspace changed since, it was taken) is `None`.
    fn take(&self, ctx: &Context) -> Option<Answer> {
        let receive = self.0.lock().ok()?.take()?;
        let answer = receive.recv().ok()?.ok()?;
        answer.still_true(ctx).then_some(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_api::messages::Started;

    /// A fresh workspace for one test, seeded with the sample plans.
    fn workspace(test: &str) -> (PathBuf, Context) {
        let root = std::env::temp_dir().join(format!("{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let ctx = Context::open(&root, || "2026-12-02T00:00:00Z".into()).unwrap();
        (root, ctx)
    }

    fn started(answer: &Answer) -> Started {
        serde_json::from_slice(&answer.bytes).unwrap()
    }

    #[test]
    fn the_early_first_screen_is_what_the_page_would_have_been_sent() {
        let (root, ctx) = workspace("early-first-screen");
        let ws = ctx.workspace();
        let early = PreparedFirstScreen::begin(ctx.clone(), None);
        let taken = early
            .take(&ctx)
            .expect("nothing changed: the early answer stands");
        let fresh = Answer::read(&ctx, None).unwrap();
        assert_eq!(taken.bytes, fresh.bytes);
        let opened = started(&taken).opened.expect("a sample plan opens");
        // The opened draft is known as read, so a save over another program's change is refused.
        let known = SeenFiles::default();
        taken.remember(&known);
        let draft = ws.draft_path(&opened.id).unwrap();
        assert!(known.is_known(&draft));
        assert!(early.take(&ctx).is_none(), "taken once");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_page_that_asks_for_its_plan_gets_that_plan_read_afresh() {
        let (root, ctx) = workspace("early-first-screen-remembered");
        let early = PreparedFirstScreen::begin(ctx.clone(), None);
        let answer = early.answer(&ctx, Some("medical-intake")).unwrap();
        assert_eq!(started(&answer).opened.unwrap().id, "medical-intake");
        // The early answer (the first plan by title) is still there for a page that asks for none.
        let first = early.answer(&ctx, None).unwrap();
        assert_eq!(first.bytes, Answer::read(&ctx, None).unwrap().bytes);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn an_early_first_screen_is_dropped_when_a_draft_changed_since_it_was_read() {
        let (root, ctx) = workspace("early-first-screen-changed");
        let ws = ctx.workspace();
        let early = PreparedFirstScreen::begin(ctx.clone(), None);
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
        assert!(!answer.still_true(&ctx), "a draft was replaced");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn an_early_first_screen_is_dropped_when_a_plan_was_added_or_removed() {
        let (root, ctx) = workspace("early-first-screen-added");
        let ws = ctx.workspace();
        let answer = Answer::read(&ctx, None).unwrap();
        assert!(answer.still_true(&ctx));
        let mut plan = ws.read_draft("customer-support").unwrap();
        plan.id = "another".into();
        ws.create("another", plan, "2026-12-02T00:00:01Z").unwrap();
        assert!(!answer.still_true(&ctx), "a plan was added");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
