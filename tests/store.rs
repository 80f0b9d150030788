//! The plan store through the `plan` command, as a user drives it: the whole lifecycle, bad input
//! that changes nothing, corrupted versions, the writer lock, and writers killed mid-write.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use plan_core::hash::content_hash;
use plan_core::parse_plan;
use plan_tests::cli::{bin, plan_in as plan, root, scratch};
use serde_json::Value;

// The store's cases by concern, in files of their own.
#[path = "store/broken.rs"]
mod broken;
#[path = "store/limits.rs"]
mod limits;
#[path = "store/writers.rs"]
mod writers;

fn ok(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output, code: i32) -> String {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Changes `from` to `to` in a version file (read-only, as the store writes it), as a corrupting
/// disk or a careless hand would.
fn tamper(version: &Path, from: &str, to: &str) {
    let mut perms = fs::metadata(version).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    fs::set_permissions(version, perms).unwrap();
    let text = fs::read_to_string(version).unwrap();
    assert!(
        text.contains(from),
        "{from} is not in {}",
        version.display()
    );
    fs::write(version, text.replace(from, to)).unwrap();
}

/// Every file below `dir` with its bytes, to show that nothing changed.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.clone(), fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_new_workspace_is_seeded_with_the_sample_plans() {
    let ws = scratch("seed").join("new-workspace");
    let listed = json(&ok(&plan(&ws, &["--format", "json", "list"])));
    let ids: Vec<&str> = listed["plans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "account-care",
            "collections",
            "customer-support",
            "daily-routine",
            "medical-intake",
            "vehicle-viewing"
        ]
    );
    for id in ids {
        assert!(ws.join(id).join("draft.json").is_file());
        for sub in ["versions", "history", "tests", "sessions"] {
            assert!(ws.join(id).join(sub).is_dir(), "{id}/{sub}");
        }
    }
    // The repository's plans/ is never written.
    assert!(!root().join("plans/customer-support").exists());
}

#[test]
fn a_failing_command_leaves_no_workspace_behind() {
    let base = scratch("no-workspace");
    let ws = base.join("new").join("deeper");
    err(&plan(&ws, &["publish", "no-such-plan"]), 2);
    err(&plan(&ws, &["export", "customer-support", "--live"]), 2);
    assert!(
        !base.join("new").exists(),
        "a failed command made a workspace"
    );
    // A command that succeeds makes it, seeded, as before; one failing later leaves it.
    ok(&plan(&ws, &["list"]));
    err(&plan(&ws, &["publish", "no-such-plan"]), 2);
    assert!(ws.join("customer-support/draft.json").is_file());
}

#[test]
fn the_workspace_comes_from_the_environment_when_no_flag_names_it() {
    let ws = scratch("env").join("from-env");
    let o = Command::new(bin())
        .args(["list"])
        .env("PLAN_BUILDER_WORKSPACE", &ws)
        .output()
        .unwrap();
    ok(&o);
    assert!(ws.join("customer-support/draft.json").is_file());
    let data = scratch("xdg");
    let o = Command::new(bin())
        .args(["list"])
        .env_remove("PLAN_BUILDER_WORKSPACE")
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    ok(&o);
    assert!(data
        .join("plan-builder/plans/customer-support/draft.json")
        .is_file());
}

#[test]
fn the_whole_lifecycle_import_publish_edit_publish_live_reopen_diff_export() {
    let ws = scratch("lifecycle").join("ws");
    let export_file = root().join("core/tests/fixtures/flow-export.json");
    // Import the flow export of the seed document as a new plan.
    ok(&plan(
        &ws,
        &["import", "calls", export_file.to_str().unwrap()],
    ));
    let draft = ws.join("calls/draft.json");
    let imported = parse_plan(&fs::read_to_string(&draft).unwrap()).unwrap();
    assert_eq!((imported.id.as_str(), imported.states.len()), ("calls", 4));

    assert_eq!(
        ok(&plan(&ws, &["publish", "calls", "-m", "imported"])),
        "1\n"
    );
    // Unchanged: refused, exit 1, no new version.
    let why = err(&plan(&ws, &["publish", "calls"]), 1);
    assert!(why.contains("unchanged since version 1"), "{why}");
    assert!(!ws.join("calls/versions/2.json").exists());

    // Edit the draft (as the editor's autosave would) and publish again.
    let mut edited = imported.clone();
    std::sync::Arc::make_mut(&mut edited.states[3]).title = "Goodbye".into();
    fs::write(&draft, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    assert_eq!(
        ok(&plan(&ws, &["publish", "calls", "-m", "renamed farewell"])),
        "2\n"
    );

    // Versions are read-only files holding the spec's fields, hash included.
    let v2 = ws.join("calls/versions/2.json");
    assert!(fs::metadata(&v2).unwrap().permissions().readonly());
    let doc = json(&fs::read_to_string(&v2).unwrap());
    assert_eq!(doc["version"], 2);
    assert_eq!(doc["note"], "renamed farewell");
    assert_eq!(doc["based_on"], 1);
    assert_eq!(doc["content_hash"], content_hash(&edited).as_str());
    assert!(doc["published_at"].as_str().unwrap().ends_with('Z'));

    ok(&plan(&ws, &["live", "calls", "1"]));
    let live = json(&fs::read_to_string(ws.join("calls/live.json")).unwrap());
    assert_eq!(live["version"], 1);
    let versions = json(&ok(&plan(&ws, &["--format", "json", "versions", "calls"])));
    let marks: Vec<(u64, bool)> = versions["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["version"].as_u64().unwrap(), v["live"].as_bool().unwrap()))
        .collect();
    assert_eq!(marks, [(1, true), (2, false)]);
    assert!(ok(&plan(&ws, &["versions", "calls"])).contains("live"));

    // Reopen version 1: the draft becomes v1's plan, the replaced draft goes to history/.
    ok(&plan(&ws, &["reopen", "calls", "1"]));
    let reopened = parse_plan(&fs::read_to_string(&draft).unwrap()).unwrap();
    assert_eq!(reopened.states[3].title, imported.states[3].title);
    let history: Vec<_> = fs::read_dir(ws.join("calls/history")).unwrap().collect();
    assert_eq!(history.len(), 1);

    // The diff names the changed state and field, as text and as JSON; positions do not count.
    let text = ok(&plan(&ws, &["diff", "calls", "1", "2"]));
    assert!(
        text.contains("~ state ebc687d6-ed86-4ac8-b6ab-412061367298: title"),
        "{text}"
    );
    let d = json(&ok(&plan(
        &ws,
        &["--format", "json", "diff", "calls", "2", "draft"],
    )));
    assert_eq!(d["states"][0]["fields"], serde_json::json!(["title"]));
    assert_eq!(
        ok(&plan(&ws, &["diff", "calls", "1", "draft"])),
        "no changes\n"
    );

    // Export the live version to a file: a plan document that reads back as v1's plan.
    let out = ws.join("exported.json");
    ok(&plan(
        &ws,
        &["export", "calls", "--live", "-o", out.to_str().unwrap()],
    ));
    let exported = parse_plan(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(content_hash(&exported), content_hash(&imported));
    let stdout = ok(&plan(&ws, &["export", "calls", "--version", "2"]));
    assert_eq!(parse_plan(&stdout).unwrap().states[3].title, "Goodbye");

    // list shows it all.
    let list = ok(&plan(&ws, &["list"]));
    let line = list.lines().find(|l| l.starts_with("calls ")).unwrap();
    assert!(line.contains("v2") && line.contains("v1"), "{line}");
    // check --plan validates the draft of the workspace.
    assert!(ok(&plan(&ws, &["check", "--plan", "calls"])).contains("ok, no problems"));
}

#[test]
fn a_publish_with_errors_is_refused_with_its_diagnostics() {
    let ws = scratch("refused").join("ws");
    ok(&plan(&ws, &["list"]));
    let draft = ws.join("customer-support/draft.json");
    let text = fs::read_to_string(&draft).unwrap().replace(
        "\"target_state_id\": \"farewell\"",
        "\"target_state_id\": \"goodbye\"",
    );
    fs::write(&draft, text).unwrap();
    let o = plan(&ws, &["publish", "customer-support"]);
    let why = err(&o, 1);
    assert!(why.contains("publishing is refused"), "{why}");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("error[unknown-target-state]"), "{shown}");
    assert!(!ws.join("customer-support/versions/1.json").exists());
    assert_eq!(
        err(&plan(&ws, &["check", "--plan", "customer-support"]), 1),
        ""
    );
}

#[test]
fn bad_input_gets_a_clear_error_and_changes_nothing() {
    let dir = scratch("bad");
    let ws = dir.join("ws");
    ok(&plan(&ws, &["list"]));
    ok(&plan(&ws, &["publish", "daily-routine"]));
    let not_json = dir.join("not-json.json");
    fs::write(&not_json, "{\"id\": \"x\",\n \"title\": }").unwrap();
    let wrong_shape = dir.join("wrong.json");
    fs::write(
        &wrong_shape,
        r#"{"id": "x", "title": "X", "states": [{"id": "a"}]}"#,
    )
    .unwrap();
    let huge = dir.join("huge.json");
    fs::File::create(&huge)
        .unwrap()
        .set_len(32 * 1024 * 1024 + 1)
        .unwrap();
    let before = snapshot(&ws);
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (
            vec!["import", "daily-routine", not_json.to_str().unwrap()],
            2,
            "line 2, column 11",
        ),
        (
            vec!["import", "daily-routine", wrong_shape.to_str().unwrap()],
            2,
            "/states/0",
        ),
        (
            vec!["import", "daily-routine", huge.to_str().unwrap()],
            2,
            "32 MiB",
        ),
        (
            vec!["import", "../escape", wrong_shape.to_str().unwrap()],
            2,
            "not a plan id",
        ),
        (
            vec!["import", "Daily", not_json.to_str().unwrap()],
            2,
            "not a plan id",
        ),
        (
            vec!["export", "daily-routine", "--version", "7"],
            2,
            "no version 7",
        ),
        (vec!["live", "daily-routine", "9"], 2, "no version 9"),
        (vec!["reopen", "daily-routine", "3"], 2, "no version 3"),
        (vec!["export", "nobody"], 2, "no plan \"nobody\""),
        (
            vec!["export", "medical-intake", "--live"],
            2,
            "no live version",
        ),
        (vec!["new", "daily-routine"], 2, "already exists"),
        (
            vec!["diff", "daily-routine", "1", "banana"],
            2,
            "not a version",
        ),
    ];
    for (args, code, says) in cases {
        let message = err(&plan(&ws, &args), code);
        assert!(message.contains(says), "{args:?}: {message}");
        assert!(!message.contains("panicked"), "{message}");
    }
    assert!(err(
        &plan(
            &ws,
            &["import", "daily-routine", not_json.to_str().unwrap()]
        ),
        2
    )
    .contains("not-json.json"));
    assert_eq!(
        snapshot(&ws),
        before,
        "a failed command changed the workspace"
    );
}

#[test]
fn new_makes_a_blank_plan_or_one_from_a_file_in_either_format() {
    let ws = scratch("new").join("ws");
    ok(&plan(&ws, &["new", "faq", "--title", "Frequently asked"]));
    let blank = parse_plan(&fs::read_to_string(ws.join("faq/draft.json")).unwrap()).unwrap();
    assert_eq!(
        (blank.id.as_str(), blank.title.as_str()),
        ("faq", "Frequently asked")
    );
    assert_eq!(blank.states.len(), 1);
    assert!(plan_core::validate(&blank).diagnostics.is_empty());
    let export = root().join("core/tests/fixtures/flow-export.json");
    ok(&plan(
        &ws,
        &["new", "calls", "--from", export.to_str().unwrap()],
    ));
    let from = parse_plan(&fs::read_to_string(ws.join("calls/draft.json")).unwrap()).unwrap();
    assert_eq!((from.id.as_str(), from.states.len()), ("calls", 4));
    let json = json(&ok(&plan(&ws, &["--format", "json", "list"])));
    assert!(json["plans"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["id"] == "calls"));
}

#[test]
fn a_deleted_plan_goes_to_the_trash_not_away() {
    use plan_core::store::Workspace;
    let dir = scratch("trash");
    let ws = Workspace::open(&dir.join("ws"), "2026-01-01T00:00:00Z").unwrap();
    ws.publish("daily-routine", "kept", "2026-01-01T00:00:01Z")
        .unwrap();
    let trashed = ws.delete("daily-routine", "2026-01-01T00:00:02Z").unwrap();
    let to = dir.join("ws/.trash").join(&trashed.entry);
    assert!(to.join("draft.json").is_file() && to.join("versions/1.json").is_file());
    assert!(ws.plan_ids().unwrap().iter().all(|p| p != "daily-routine"));
    assert_eq!(ws.trashed().unwrap(), std::slice::from_ref(&trashed));
    assert_eq!(trashed.deleted_at, "2026-01-01T00:00:02Z");
    // And back, with its version.
    ws.restore(&trashed.entry, "daily-routine").unwrap();
    assert!(ws.read_version("daily-routine", 1).is_ok());
    assert!(ws.trashed().unwrap().is_empty());
}

/// Issue 6 (open time): the app's first screen comes from one pass over the workspace, the list
/// and the plan to open: the remembered plan when it opens, otherwise the first that does.
#[test]
fn the_first_screen_opens_the_remembered_plan_or_else_the_first_that_opens() {
    use plan_api::{workspace, Context};
    let dir = scratch("first-screen");
    let ctx = Context::open(&dir.join("ws"), || "2026-01-01T00:00:00Z".into()).unwrap();
    let ws = ctx.workspace();
    // A broken draft is listed under its id, here first in the list: never the one opened.
    fs::create_dir_all(ws.root().join("aaa-broken")).unwrap();
    fs::write(ws.root().join("aaa-broken/draft.json"), "{oops").unwrap();
    let screen = workspace::start(&ctx, None).unwrap();
    assert_eq!(screen.plans, workspace::plans(&ctx).unwrap());
    let opens: Vec<_> = screen.plans.iter().filter(|p| p.error.is_none()).collect();
    let opened = screen.opened.unwrap();
    assert_eq!(opened.id, opens[0].id);
    assert_eq!(opened.loaded.plan, ws.read_draft(&opened.id).unwrap());

    let remembered = workspace::start(&ctx, Some("customer-support"))
        .unwrap()
        .opened;
    assert_eq!(remembered.unwrap().id, "customer-support");
    for gone in ["aaa-broken", "no-such-plan"] {
        let fallback = workspace::start(&ctx, Some(gone)).unwrap().opened;
        assert_eq!(fallback.unwrap().id, opens[0].id, "{gone}");
    }
}

/// Issue 15: the app and `plan` refuse the same things in the same words, because both call the
/// same `plan_api` function (the app's shell calls exactly these, the CLI prints their message).
#[test]
fn the_app_and_the_cli_refuse_with_the_same_words() {
    use plan_api::{drafts, versions, workspace, Context, ErrorCode};
    use plan_core::Revision;
    let dir = scratch("same-words");
    let ws = dir.join("ws");
    ok(&plan(&ws, &["publish", "daily-routine"]));
    let ctx = Context::open(&ws, || "2026-01-01T00:00:00Z".into()).unwrap();
    let not_json = dir.join("not-json.json");
    fs::write(&not_json, "{\"id\": \"x\",\n \"title\": }").unwrap();
    let mut flow: Value =
        serde_json::from_str(include_str!("../core/tests/fixtures/flow-export.json")).unwrap();
    let first = flow["flow"]["statesOrder"][0].as_str().unwrap().to_string();
    let output = flow["flow"]["states"][&first]["outputsOrder"][0]
        .as_str()
        .unwrap()
        .to_string();
    flow["flow"]["states"][&first]["outputs"][&output]["transitionTo"] = "nowhere".into();
    let dangling = dir.join("dangling.json");
    fs::write(&dangling, flow.to_string()).unwrap();
    ok(&plan(&ws, &["publish", "collections"]));
    tamper(
        &ws.join("collections/versions/1.json"),
        "Forderungsmanagement",
        "Forderungsmanagemant",
    );
    // A plan whose versions/ is a link to a folder outside the workspace.
    let outside = dir.join("outside-versions");
    fs::create_dir_all(&outside).unwrap();
    let linked = ws.join("customer-support/versions");
    fs::remove_dir_all(&linked).unwrap();
    std::os::unix::fs::symlink(&outside, &linked).unwrap();

    let before = snapshot(&ws);
    let cases: Vec<(Vec<&str>, plan_api::ApiError)> = vec![
        (
            vec!["publish", "customer-support"],
            versions::publish(&ctx, "customer-support", "").unwrap_err(),
        ),
        (
            vec!["publish", "daily-routine"],
            versions::publish(&ctx, "daily-routine", "").unwrap_err(),
        ),
        (
            vec!["import", "daily-routine", not_json.to_str().unwrap()],
            drafts::import(&ctx, &not_json, Some("daily-routine")).unwrap_err(),
        ),
        (
            vec!["import", "daily-routine", dangling.to_str().unwrap()],
            drafts::import(&ctx, &dangling, Some("daily-routine")).unwrap_err(),
        ),
        (
            vec!["live", "daily-routine", "9"],
            versions::set_live(&ctx, "daily-routine", 9).unwrap_err(),
        ),
        (
            vec!["reopen", "collections", "1"],
            versions::reopen(&ctx, "collections", 1).unwrap_err(),
        ),
        (
            vec!["export", "medical-intake", "--live"],
            drafts::export_text(&ctx, "medical-intake", Revision::Live).unwrap_err(),
        ),
        (
            vec!["new", "daily-routine"],
            workspace::create(
                &ctx,
                plan_api::messages::NewPlan {
                    id: Some("daily-routine".into()),
                    title: None,
                    from: plan_api::messages::PlanSource::Blank,
                },
            )
            .unwrap_err(),
        ),
    ];
    for (args, refused) in cases {
        let code = match refused.code {
            ErrorCode::HasErrors | ErrorCode::Unchanged | ErrorCode::Conflicts => 1,
            _ => 2,
        };
        let said = err(&plan(&ws, &args), code);
        assert_eq!(said, format!("plan: {}\n", refused.message), "{args:?}");
    }
    // The dangling flow export names the place of the output that goes nowhere.
    let refused = drafts::import(&ctx, &dangling, None).unwrap_err();
    assert_eq!(refused.code, ErrorCode::Schema);
    assert!(
        refused.message.contains("dangling.json")
            && refused.message.contains(&format!(
                "/flow/states/{first}/outputs/{output}/transitionTo"
            )),
        "{}",
        refused.message
    );
    assert_eq!(snapshot(&ws), before, "a refusal changed the workspace");
    assert_eq!(
        fs::read_dir(&outside).unwrap().count(),
        0,
        "a publish went through the link"
    );
}

/// A fresh workspace for one test, seeded with the sample plans: the test's folder and it.
fn seeded(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let ws = dir.join("ws");
    ok(&plan(&ws, &["list"]));
    (dir, ws)
}

/// Changes plan `id`'s draft title from `from` to `to` on disk, as another program would.
fn retitle(ws: &Path, id: &str, from: &str, to: &str) {
    let draft = ws.join(id).join("draft.json");
    let text = fs::read_to_string(&draft).unwrap();
    fs::write(&draft, text.replacen(from, to, 1)).unwrap();
}
