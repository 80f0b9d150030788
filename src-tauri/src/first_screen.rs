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
    /// The [`plan_api::messages::Started`] answer as JSON.
    pub bytes: Vec<u8>,
}

impl Answer {
    /// Reads the first screen of `ctx`'s workspace, opening `remembered` when it opens, and
    /// telling `unopened` (why a file the app was started with is not shown), if any.
    pub fn read(
        ctx: &Context,
        remembered: Option<&str>,
        unopened: Option<ApiError>,
    ) -> Result<Answer, ApiError> {
        let ws = ctx.workspace();
        let seen: BTreeMap<String, Option<Identity>> = ws
            .plan_ids()?
            .into_iter()
            .map(|id| {
                let seen = ws.draft_path(&id).ok().and_then(|p| Identity::of(&p));
                (id, seen)
            })
            .collect();
        let mut started = workspace::start(ctx, remembered)?;
        started.unopened = unopened;
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

/// The first screen the shell began reading when it started, until the page takes it; and why
/// a file the app was started with is not shown, until the page is told (once).
pub struct PreparedFirstScreen {
    early: Mutex<Option<Receiver<Result<Answer, ApiError>>>>,
    unopened: Mutex<Option<ApiError>>,
}

impl PreparedFirstScreen {
    /// Starts reading the first screen of `ctx`'s workspace on a thread of its own, opening plan
    /// `shown` (a file the app was started with) when it opens, or telling `unopened`: why that
    /// file could not be shown. (Told in the window: a dialog before the window, the way it was
    /// first done, held the whole start until someone closed it.)
    pub fn begin(
        ctx: Context,
        shown: Option<String>,
        unopened: Option<ApiError>,
    ) -> PreparedFirstScreen {
        let (send, receive) = channel();
        let told = unopened.clone();
        let spawned = std::thread::Builder::new()
            .name("first-screen".into())
            .spawn(move || {
                let _ = send.send(Answer::read(&ctx, shown.as_deref(), told));
            });
        PreparedFirstScreen {
            early: Mutex::new(spawned.ok().map(|_| receive)),
            unopened: Mutex::new(unopened),
        }
    }

    /// The first screen of `ws` for a page that asks now: the early answer when the page asks for
    /// no plan in particular and it is still true, else one read afresh.
    pub fn answer(&self, ctx: &Context, remembered: Option<&str>) -> Result<Answer, ApiError> {
        let unopened = self.unopened.lock().ok().and_then(|mut u| u.take());
        match remembered.map_or_else(|| self.take(ctx), |_| None) {
            Some(early) => Ok(early),
            None => Answer::read(ctx, remembered, unopened),
        }
    }

    /// The early answer, once: when it is done (waiting for it if need be) and still true of
    /// `ws`. Anything else (it failed, the workspace changed since, it was taken) is `None`.
    fn take(&self, ctx: &Context) -> Option<Answer> {
        let receive = self.early.lock().ok()?.take()?;
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
        let early = PreparedFirstScreen::begin(ctx.clone(), None, None);
        let taken = early
            .take(&ctx)
            .expect("nothing changed: the early answer stands");
        let fresh = Answer::read(&ctx, None, None).unwrap();
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
        let early = PreparedFirstScreen::begin(ctx.clone(), None, None);
        let answer = early.answer(&ctx, Some("medical-intake")).unwrap();
        assert_eq!(started(&answer).opened.unwrap().id, "medical-intake");
        // The early answer (the first plan by title) is still there for a page that asks for none.
        let first = early.answer(&ctx, None).unwrap();
        assert_eq!(first.bytes, Answer::read(&ctx, None, None).unwrap().bytes);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn why_a_file_given_at_start_is_not_shown_is_told_to_the_first_page_only() {
        let (root, ctx) = workspace("early-first-screen-unopened");
        let why = ApiError::new(plan_api::ErrorCode::Io, "cannot open /nowhere.plan.json");
        let early = PreparedFirstScreen::begin(ctx.clone(), None, Some(why.clone()));
        assert_eq!(
            started(&early.answer(&ctx, None).unwrap()).unopened,
            Some(why.clone())
        );
        assert_eq!(started(&early.answer(&ctx, None).unwrap()).unopened, None);
        // Told as well when the early answer no longer stands.
        let early = PreparedFirstScreen::begin(ctx.clone(), None, Some(why.clone()));
        let answer = early.answer(&ctx, Some("medical-intake")).unwrap();
        assert_eq!(started(&answer).unopened, Some(why));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn an_early_first_screen_is_dropped_when_a_draft_changed_since_it_was_read() {
        let (root, ctx) = workspace("early-first-screen-changed");
        let ws = ctx.workspace();
        let early = PreparedFirstScreen::begin(ctx.clone(), None, None);
        // Wait until it is read, then another program rewrites the plan that opens first.
        let answer = early
            .early
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
        let answer = Answer::read(&ctx, None, None).unwrap();
        assert!(answer.still_true(&ctx));
        let mut plan = ws.read_draft("customer-support").unwrap();
        plan.id = "another".into();
        ws.create("another", plan, "2026-12-02T00:00:01Z").unwrap();
        assert!(!answer.still_true(&ctx), "a plan was added");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
