//! A plan file opened from outside the app (a file manager's "Open with Plan Builder", or
//! `plan-builder FILE`): a workspace's own file shows its plan, a copy of a draft shows that plan
//! instead of a second copy, any other plan file becomes a new plan, and a file that cannot be
//! read changes nothing and names the file.

use std::path::PathBuf;

use plan_api::drafts::open_file;
use plan_api::{workspace, Context};

fn workspace_and_outside(name: &str) -> (Context, PathBuf) {
    let base = std::env::temp_dir().join(format!("api-open-file-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let ctx = Context::open(&base.join("plans"), || "2026-12-04T10:00:00Z".into()).unwrap();
    let outside = base.join("downloads");
    std::fs::create_dir_all(&outside).unwrap();
    (ctx, outside)
}

fn plan_ids(ctx: &Context) -> Vec<String> {
    workspace::plans(ctx)
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect()
}

#[test]
fn a_file_of_the_workspace_or_a_copy_of_a_draft_opens_its_plan_without_importing() {
    let (ctx, outside) = workspace_and_outside("own");
    let before = plan_ids(&ctx);
    let draft = ctx.workspace().draft_path("collections").unwrap();
    assert_eq!(
        open_file(&ctx, &draft).unwrap(),
        ("collections".into(), false)
    );
    let copy = outside.join("collections.plan.json");
    std::fs::copy(&draft, &copy).unwrap();
    assert_eq!(
        open_file(&ctx, &copy).unwrap(),
        ("collections".into(), false)
    );
    assert_eq!(plan_ids(&ctx), before, "nothing was imported");
}

#[test]
fn another_plan_file_is_imported_as_a_new_plan_once() {
    let (ctx, outside) = workspace_and_outside("new");
    let draft = ctx.workspace().draft_path("daily-routine").unwrap();
    let text = std::fs::read_to_string(draft)
        .unwrap()
        .replace("\"id\": \"daily-routine\"", "\"id\": \"pizza-order\"");
    let file = outside.join("pizza.plan.json");
    std::fs::write(&file, text).unwrap();
    let (id, imported) = open_file(&ctx, &file).unwrap();
    assert_eq!((id.as_str(), imported), ("pizza-order", true));
    assert!(plan_ids(&ctx).contains(&id));
    let count = plan_ids(&ctx).len();
    assert_eq!(
        open_file(&ctx, &file).unwrap(),
        (id, false),
        "opened again: the same plan"
    );
    assert_eq!(plan_ids(&ctx).len(), count);
}

#[test]
fn a_file_that_cannot_be_read_names_the_file_and_changes_nothing() {
    let (ctx, outside) = workspace_and_outside("bad");
    let before = plan_ids(&ctx);
    let missing = outside.join("gone.plan.json");
    let e = open_file(&ctx, &missing).unwrap_err();
    assert!(e.message.contains("gone.plan.json"), "{}", e.message);
    let broken = outside.join("broken.plan.json");
    std::fs::write(&broken, "{ \"states\": [").unwrap();
    let e = open_file(&ctx, &broken).unwrap_err();
    assert!(e.message.contains("broken.plan.json"), "{}", e.message);
    assert_eq!(plan_ids(&ctx), before);
}
