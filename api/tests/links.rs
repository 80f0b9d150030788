//! Links inside a workspace never take a read or a write outside it (issue 31; `docs/store.md`):
//! a plan's folder, its `versions/`, `history/`, `sessions/`, its draft or the trash made a link
//! to a folder elsewhere is refused with the link's path and where it leads, by every operation
//! that would go through it, and nothing changes inside or outside. Links that stay inside the
//! workspace, and a workspace that is itself a link, work as folders do.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use plan_api::conversations;
use plan_api::messages::StartChat;
use plan_api::{drafts, versions, workspace, ApiError, Context, ErrorCode};
use plan_core::runtime::Start;
use plan_core::Revision;

struct Setup {
    ctx: Context,
    root: PathBuf,
    outside: PathBuf,
}

fn setup(name: &str) -> Setup {
    let base = std::env::temp_dir().join(format!("api-links-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let root = base.join("plans");
    let ctx = Context::open(&root, || "2026-12-04T10:00:00Z".into()).unwrap();
    let outside = base.join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("keep.txt"), "the user's own file\n").unwrap();
    Setup { ctx, root, outside }
}

/// Every file under `dir` (links not followed) with its bytes, and every link with its target.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                out.insert(path, target.to_string_lossy().as_bytes().to_vec());
            } else if kind.is_dir() {
                out.insert(path.clone(), Vec::new());
                todo.push(path);
            } else {
                out.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// `e` is the refusal of a link at `link`.
fn refused_at(e: ApiError, link: &Path) {
    assert_eq!(e.code, ErrorCode::OutsideWorkspace, "{}", e.message);
    assert!(
        e.message.contains(&link.display().to_string()),
        "the message names the link {}: {}",
        link.display(),
        e.message
    );
    assert!(
        e.message.contains("only inside its workspace"),
        "{}",
        e.message
    );
}

/// An operation tried through a link, named for the failure message.
type Attempt<'a> = (&'a str, &'a dyn Fn() -> Result<(), ApiError>);

/// Runs `refused` (each of which must be refused at `link`), then checks that nothing changed
/// inside the workspace or outside it.
fn nothing_changes(s: &Setup, link: &Path, refused: &[Attempt]) {
    let inside = snapshot(&s.root);
    let outside = snapshot(&s.outside);
    for (what, op) in refused {
        match op() {
            Ok(()) => panic!("{what} went through the link {}", link.display()),
            Err(e) => refused_at(e, link),
        }
    }
    assert_eq!(
        snapshot(&s.outside),
        outside,
        "something was written outside"
    );
    assert_eq!(
        snapshot(&s.root),
        inside,
        "something changed in the workspace"
    );
}

fn sample_file(s: &Setup) -> PathBuf {
    let file = s.outside.join("import.plan.json");
    let draft = s.ctx.workspace().draft_path("daily-routine").unwrap();
    std::fs::copy(draft, &file).unwrap();
    file
}

fn chat(id: &str) -> StartChat {
    StartChat {
        id: id.into(),
        revision: Some(Revision::Draft),
        start: Start::default(),
    }
}

#[test]
fn a_plan_folder_that_leads_outside_is_refused_by_every_operation() {
    let s = setup("plan-folder");
    let elsewhere = s.outside.join("plan");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let draft = s.ctx.workspace().draft_path("collections").unwrap();
    std::fs::copy(&draft, elsewhere.join("draft.json")).unwrap();
    let link = s.root.join("linked");
    symlink(&elsewhere, &link).unwrap();
    let file = sample_file(&s);
    nothing_changes(
        &s,
        &link,
        &[
            ("load", &|| drafts::load(&s.ctx, "linked").map(drop)),
            ("import into", &|| {
                drafts::import(&s.ctx, &file, Some("linked")).map(drop)
            }),
            ("publish", &|| {
                versions::publish(&s.ctx, "linked", "n").map(drop)
            }),
            ("chat", &|| {
                conversations::start(&s.ctx, &chat("linked")).map(drop)
            }),
            ("delete", &|| workspace::delete(&s.ctx, "linked").map(drop)),
            ("export", &|| {
                drafts::export_text(&s.ctx, "linked", Revision::Draft).map(drop)
            }),
        ],
    );
}

#[test]
fn a_dangling_plan_folder_link_is_said_as_a_link_not_as_a_file_that_exists() {
    let s = setup("dangling");
    let link = s.root.join("ghost");
    symlink(s.outside.join("nothing-here"), &link).unwrap();
    let file = sample_file(&s);
    nothing_changes(
        &s,
        &link,
        &[("import into", &|| {
            drafts::import(&s.ctx, &file, Some("ghost")).map(drop)
        })],
    );
    let e = drafts::import(&s.ctx, &file, Some("ghost")).unwrap_err();
    assert!(e.message.contains("which does not exist"), "{}", e.message);
}

#[test]
fn versions_history_and_sessions_folders_that_lead_outside_are_refused() {
    let s = setup("subfolders");
    let file = sample_file(&s);
    for (sub, id) in [
        ("versions", "customer-support"),
        ("history", "medical-intake"),
        ("sessions", "collections"),
    ] {
        let dir = s.root.join(id).join(sub);
        let elsewhere = s.outside.join(sub);
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        symlink(&elsewhere, &dir).unwrap();
        nothing_changes(
            &s,
            &dir,
            &[
                ("publish", &|| versions::publish(&s.ctx, id, "n").map(drop)),
                ("import into", &|| {
                    drafts::import(&s.ctx, &file, Some(id)).map(drop)
                }),
                ("chat", &|| {
                    conversations::start(&s.ctx, &chat(id)).map(drop)
                }),
                ("list versions", &|| versions::list(&s.ctx, id).map(drop)),
            ],
        );
    }
}

#[test]
fn a_draft_that_is_a_link_to_a_file_outside_is_neither_read_nor_published() {
    let s = setup("draft-link");
    let draft = s.root.join("customer-support").join("draft.json");
    let elsewhere = s.outside.join("someone-elses.json");
    std::fs::rename(&draft, &elsewhere).unwrap();
    symlink(&elsewhere, &draft).unwrap();
    nothing_changes(
        &s,
        &draft,
        &[
            ("load", &|| {
                drafts::load(&s.ctx, "customer-support").map(drop)
            }),
            ("publish", &|| {
                versions::publish(&s.ctx, "customer-support", "n").map(drop)
            }),
        ],
    );
}

#[test]
fn a_trash_that_leads_outside_takes_no_plan_there() {
    let s = setup("trash");
    let trash = s.root.join(".trash");
    symlink(&s.outside, &trash).unwrap();
    nothing_changes(
        &s,
        &trash,
        &[("delete", &|| {
            workspace::delete(&s.ctx, "collections").map(drop)
        })],
    );
}

#[test]
fn links_that_stay_inside_and_a_workspace_that_is_a_link_work_as_folders_do() {
    let s = setup("inside");
    // The workspace reached through a link to it.
    let alias = s.outside.join("alias");
    symlink(&s.root, &alias).unwrap();
    let ctx = Context::open(&alias, || "2026-12-04T11:00:00Z".into()).unwrap();
    // A plan's versions kept in another folder of the same workspace.
    let shared = alias.join("shared-versions");
    std::fs::create_dir_all(&shared).unwrap();
    let versions_dir = alias.join("customer-support").join("versions");
    std::fs::remove_dir_all(&versions_dir).unwrap();
    symlink(&shared, &versions_dir).unwrap();
    let published = versions::publish(&ctx, "customer-support", "through links").unwrap();
    assert_eq!(published.version, 1);
    assert!(shared.join("1.json").is_file());
    assert_eq!(versions::list(&ctx, "customer-support").unwrap().len(), 1);
}
