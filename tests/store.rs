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
fn what_a_killed_writer_left_is_cleaned_up_by_the_next_command_of_any_kind() {
    let ws = scratch("leftovers").join("ws");
    ok(&plan(&ws, &["list"]));
    // A writer that has ended (killed mid-write) is known by its process id in the file's name.
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let dir = ws.join("customer-support");
    let places = ["", "versions", "history", "tests", "sessions"];
    let leftover = |place: &str| dir.join(place).join(format!(".tmp-{dead}-0-x.json"));
    for place in places {
        fs::write(leftover(place), "torn").unwrap();
    }
    // A writer still running (this test's process) keeps its file.
    let live = dir.join(format!(".tmp-{}-0-draft.json", std::process::id()));
    fs::write(&live, "being written").unwrap();
    // A read, not a write of the same kind.
    ok(&plan(&ws, &["export", "customer-support"]));
    for place in places {
        assert!(!leftover(place).exists(), "left in {place}/");
    }
    assert!(live.exists(), "a running writer's file was taken away");
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
fn a_corrupted_version_is_reported_and_can_be_neither_live_nor_reopened() {
    let ws = scratch("corrupt").join("ws");
    ok(&plan(&ws, &["list"]));
    ok(&plan(&ws, &["publish", "collections"]));
    tamper(
        &ws.join("collections/versions/1.json"),
        "Verabschiedung",
        "Tampered",
    );
    assert!(ok(&plan(&ws, &["versions", "collections"])).contains("CORRUPTED"));
    assert!(err(&plan(&ws, &["live", "collections", "1"]), 2).contains("corrupted"));
    assert!(err(&plan(&ws, &["reopen", "collections", "1"]), 2).contains("corrupted"));
    assert!(!ws.join("collections/live.json").exists());
}

#[test]
fn a_second_writer_is_told_the_plan_is_in_use() {
    let ws = scratch("lock").join("ws");
    ok(&plan(&ws, &["list"]));
    // Another process holds the plan's lock (util-linux flock takes the same flock(2) lock). A
    // process of its own, because a lock held in this test process would leak, for an instant,
    // into every child that other tests spawn meanwhile.
    // -o: the lock stays with flock itself, not with its sleeping child, so killing flock frees it.
    let mut holder = Command::new("flock")
        .arg("-o")
        .arg(ws.join("medical-intake/.lock"))
        .args(["sleep", "30"])
        .spawn()
        .expect("flock (util-linux) runs");
    // Wait until the holder has it: a non-blocking flock of our own then fails.
    let lock_file = ws.join("medical-intake/.lock");
    let held = (0..250).any(|_| {
        let free = Command::new("flock")
            .args(["-n", "-o"])
            .arg(&lock_file)
            .arg("true")
            .status()
            .is_ok_and(|s| s.success());
        if free {
            std::thread::sleep(Duration::from_millis(20));
        }
        !free
    });
    assert!(held, "flock never took the lock");
    let o = plan(&ws, &["publish", "medical-intake"]);
    let message = err(&o, 2);
    let exported = plan(&ws, &["export", "medical-intake"]);
    let _ = holder.kill();
    let _ = holder.wait();
    assert!(message.contains("is in use by another writer"), "{message}");
    assert!(!ws.join("medical-intake/versions/1.json").exists());
    // Readers are never blocked.
    ok(&exported);
    assert_eq!(ok(&plan(&ws, &["publish", "medical-intake"])), "1\n");
}

/// `plan import` and `plan publish` are `plan_api::drafts::import` and `versions::publish`, the
/// functions the app's shell calls (its publish goes through the same `Workspace::publish_plan`
/// that `publish` ends in): killing them mid-write covers the app's path too.
#[test]
fn writers_killed_at_random_moments_leave_old_or_new_files_never_torn_ones() {
    let dir = scratch("crash");
    let ws = dir.join("ws");
    ok(&plan(&ws, &["list"]));
    // Drafts the import will write, each different, so publishing always has something new.
    let base = fs::read_to_string(root().join("plans/medical-intake.json")).unwrap();
    let mut written = vec![fs::read_to_string(ws.join("medical-intake/draft.json")).unwrap()];
    let mut files = Vec::new();
    for i in 0..12 {
        let text = base.replace("\"Medical intake\"", &format!("\"Medical intake {i}\""));
        let path = dir.join(format!("draft-{i}.json"));
        fs::write(&path, &text).unwrap();
        files.push(path);
        written.push(text);
    }
    let written: Vec<String> = written
        .iter()
        .map(|t| content_hash(&parse_plan(t).unwrap()))
        .collect();
    // Kill at a uniformly random moment of a whole run: measure how long one takes first.
    let timed = |args: &[&str]| {
        let t = std::time::Instant::now();
        ok(&plan(&ws, args));
        t.elapsed()
    };
    let span = timed(&["import", "medical-intake", files[11].to_str().unwrap()])
        .max(timed(&["publish", "medical-intake"]));
    let span_us = (span.as_micros() as u64).max(1000) * 6 / 5;
    let mut rng = plan_tests::random::Lcg(0x5eed);
    let rounds = 300;
    for round in 0..rounds {
        let file = &files[round % files.len()];
        let args: Vec<&str> = if round % 2 == 0 {
            vec!["import", "medical-intake", file.to_str().unwrap()]
        } else {
            vec!["publish", "medical-intake", "-m", "crash test"]
        };
        let mut child = Command::new(bin())
            .arg("--workspace")
            .arg(&ws)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(rng.next(span_us)));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
    }
    // Every file parses; versions are contiguous and intact; the draft is one that was written.
    let plan_dir = ws.join("medical-intake");
    let draft = fs::read_to_string(plan_dir.join("draft.json")).unwrap();
    let draft_hash = content_hash(&parse_plan(&draft).expect("the draft is a whole plan"));
    assert!(
        written.contains(&draft_hash),
        "the draft is not one of the written drafts"
    );
    let versions = json(&ok(&plan(
        &ws,
        &["--format", "json", "versions", "medical-intake"],
    )));
    let list = versions["versions"].as_array().unwrap();
    for (i, v) in list.iter().enumerate() {
        assert_eq!(v["version"], i as u64 + 1, "version numbers have a gap");
        assert!(v["corrupted"].is_null(), "{v}");
        assert!(written.contains(&v["content_hash"].as_str().unwrap().to_string()));
    }
    for entry in fs::read_dir(plan_dir.join("history")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') {
            parse_plan(&fs::read_to_string(entry.path()).unwrap())
                .unwrap_or_else(|e| panic!("history/{name} is torn: {e:?}"));
        }
    }
    // Leftover temporary files are cleaned by the next writer.
    ok(&plan(
        &ws,
        &["import", "medical-intake", files[0].to_str().unwrap()],
    ));
    let leftovers = fs::read_dir(&plan_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-"))
        .count();
    assert_eq!(leftovers, 0);
    assert!(
        list.len() > 1,
        "no publish ever completed: the kills came too early to test much"
    );
    eprintln!(
        "crash test: {rounds} writers killed within {span_us} µs of starting; {} versions survived intact",
        list.len()
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

#[test]
fn the_apps_plan_list_shows_a_broken_draft_with_its_reason_and_hides_nothing() {
    use plan_api::{workspace, Context, ErrorCode};
    let dir = scratch("summaries");
    let ctx = Context::open(&dir.join("ws"), || "2026-01-01T00:00:00Z".into()).unwrap();
    let ws = ctx.workspace();
    fs::create_dir_all(ws.root().join("broken")).unwrap();
    fs::write(
        ws.root().join("broken/draft.json"),
        "{\"id\": \"broken\",\n  oops}",
    )
    .unwrap();
    fs::write(ws.root().join("notes.txt"), "not a plan").unwrap();
    let list = workspace::plans(&ctx).unwrap();
    assert_eq!(list.len(), 7, "the six samples and the broken one");
    let broken = list.iter().find(|p| p.id == "broken").unwrap();
    let error = broken.error.as_ref().unwrap();
    assert_eq!(error.code, ErrorCode::InvalidJson);
    assert!(error.message.contains("broken/draft.json") && error.message.contains("line 2"));
    let support = list.iter().find(|p| p.id == "customer-support").unwrap();
    assert_eq!((support.states, support.transitions), (6, 7));
    assert_eq!(
        ws.plan_of_path(&ws.root().join("broken/draft.json"))
            .as_deref(),
        Some("broken")
    );
    assert_eq!(
        ws.plan_of_path(&ws.root().join("broken/.tmp-1-2-draft.json")),
        None
    );
    assert_eq!(
        ws.plan_of_path(&ws.root().join(".trash/x/draft.json")),
        None
    );
    // What the app shows of a plan: its draft, live marker and versions, not its chats.
    for (rel, shown) in [
        ("broken", true),
        ("broken/draft.json", true),
        ("broken/live.json", true),
        ("broken/versions/1.json", true),
        ("broken/sessions/20261202-100000.json", false),
        ("broken/sessions/.log/20261202-100000.jsonl", false),
        ("broken/tests/x.json", false),
        ("broken/history/x.json", false),
    ] {
        let id = ws.document_of_path(&ws.root().join(rel));
        assert_eq!(id.is_some(), shown, "{rel}");
    }
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

/// Regression (issue 6): the editor saves every step, so a draft can hold an enum key not yet
/// given values; the app then could not reopen the draft it had just written and closed the plan.
/// Such a draft reads, lists and opens; validation and publishing report the missing values.
#[test]
fn a_draft_saved_between_two_edits_opens_and_its_schema_problem_is_reported() {
    use plan_core::plan::DeliverableType;
    use plan_core::store::Workspace;
    use plan_core::validate::{validate, Code};
    let dir = scratch("in-progress");
    let ws = Workspace::open(&dir.join("ws"), "2026-01-01T00:00:00Z").unwrap();
    let mut draft = ws.read_draft("customer-support").unwrap();
    let key = &mut std::sync::Arc::make_mut(&mut draft.states[1]).tasks[0].deliverables[0];
    key.kind = DeliverableType::Enum;
    key.enum_values = Some(Vec::new());
    ws.save_draft("customer-support", &draft).unwrap();

    let reopened = ws.read_draft("customer-support").unwrap();
    assert_eq!(reopened, draft);
    let report = validate(&reopened);
    let schema: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::Schema)
        .collect();
    assert_eq!(schema.len(), 1, "{report:?}");
    assert_eq!(
        schema[0].location.path,
        "/states/1/tasks/0/deliverables/0/enum_values"
    );
    assert_eq!(
        schema[0].location.state_id.as_deref(),
        Some(draft.states[1].id.as_str())
    );
    let ctx = plan_api::Context::at(ws.root(), || "2026-01-01T00:00:00Z".into());
    let listed = plan_api::workspace::plans(&ctx).unwrap();
    let support = listed.iter().find(|p| p.id == "customer-support").unwrap();
    assert!(support.error.is_none(), "{:?}", support.error);

    let ws = dir.join("ws");
    let o = plan(&ws, &["publish", "customer-support"]);
    err(&o, 1);
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("error[schema]"), "{shown}");
    assert!(!ws.join("customer-support/versions/1.json").exists());
    let checked = plan(&ws, &["check", "--plan", "customer-support"]);
    assert_eq!(checked.status.code(), Some(1));
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

#[test]
fn a_full_disk_refuses_an_import_and_a_reopen_and_leaves_the_workspace_as_it_was() {
    let dir = scratch("full-disk");
    let Some(disk) = plan_tests::small_disk::SmallDisk::mount(&dir.join("disk"), 8192) else {
        eprintln!("skipped: a tmpfs cannot be mounted here (it needs root)");
        return;
    };
    let ws = disk.path().join("ws");
    // A large plan (~10 times a sample) outside the small disk, and a version of it inside.
    let mut big = plan_core::synthetic::plan(400);
    big.id = "big".into();
    let big_file = dir.join("big.json");
    fs::write(&big_file, serde_json::to_string_pretty(&big).unwrap()).unwrap();
    ok(&plan(&ws, &["import", "big", big_file.to_str().unwrap()]));
    ok(&plan(&ws, &["publish", "big"]));
    let small_file = dir.join("small.json");
    fs::copy(ws.join("daily-routine/draft.json"), &small_file).unwrap();
    ok(&plan(&ws, &["import", "big", small_file.to_str().unwrap()]));
    let big_size = fs::metadata(&big_file).unwrap().len();
    disk.fill_leaving(big_size / 4);

    let before = snapshot(&ws);
    for args in [
        vec!["import", "big", big_file.to_str().unwrap()],
        vec!["reopen", "big", "1"],
    ] {
        let said = err(&plan(&ws, &args), 2);
        assert!(said.contains("No space left"), "{args:?}: {said}");
        assert_eq!(
            snapshot(&ws),
            before,
            "{args:?} on a full disk changed the workspace (a copy left in history/?)"
        );
    }
}

/// A plan whose condition nests `composites` `all_of` groups deep.
fn deep_plan(composites: usize) -> String {
    let mut config = r#"{"conditions":[{"condition_type":"deliverable_exists","condition_config":{"key":"kind"}}]}"#.to_string();
    for _ in 1..composites {
        config = format!(
            r#"{{"conditions":[{{"condition_type":"all_of","condition_config":{config}}}]}}"#
        );
    }
    format!(
        r#"{{"id":"deep","title":"Deep","states":[
{{"id":"a","title":"Intake","type":"strict","instructions":"Ask.","tasks":[{{"id":"t","deliverables":[{{"key":"kind","type":"string"}}]}}],
 "transitions":[{{"target_state_id":"b","condition_type":"all_of","condition_config":{config}}}]}},
{{"id":"b","title":"Done"}}]}}"#
    )
}

#[test]
fn a_plan_nested_to_the_documented_depth_is_imported_published_and_read_back_and_past_it_is_said_too_deep(
) {
    let dir = scratch("deep");
    let ws = dir.join("ws");
    let file = dir.join("deep.json");
    fs::write(&file, deep_plan(330)).unwrap();
    ok(&plan(&ws, &["check", file.to_str().unwrap()]));
    ok(&plan(&ws, &["import", "deep", file.to_str().unwrap()]));
    ok(&plan(&ws, &["publish", "deep"]));
    let exported = ok(&plan(&ws, &["export", "deep", "--version", "1"]));
    assert_eq!(
        plan_core::deep_json::depth(exported.as_bytes()).0,
        plan_core::deep_json::depth(deep_plan(330).as_bytes()).0
    );
    let too_deep = dir.join("too-deep.json");
    fs::write(&too_deep, deep_plan(400)).unwrap();
    let o = plan(&ws, &["check", too_deep.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("nested too deeply (1206 levels; at most 1000)"),
        "{said}"
    );
    let refused = err(
        &plan(&ws, &["import", "deep", too_deep.to_str().unwrap()]),
        2,
    );
    assert!(refused.contains("nested too deeply"), "{refused}");
}

/// A plan of `transitions` arrows from its first state, each with a condition nested
/// `composites` deep: wide and deep at once (333 KB of JSON was 37.6 MB indented).
fn wide_deep_plan(transitions: usize, composites: usize) -> String {
    let deep = deep_plan(composites);
    let at = deep.find(r#"{"target_state_id":"b""#).unwrap();
    let end = deep.find("]},\n{\"id\":\"b\"").unwrap();
    let arrow = &deep[at..end];
    let arrows = vec![arrow; transitions].join(",");
    format!("{}{arrows}{}", &deep[..at], &deep[end..])
}

/// A plan of about `bytes` bytes: states with long descriptions; or, `inflating`, whose states
/// compare a number with lists of `1e9` (4 bytes read, `1000000000.0,` written: 13).
fn wide_plan(bytes: usize, inflating: bool) -> String {
    let condition = if inflating {
        format!(
            r#""condition_type":"deliverable_value_in","condition_config":{{"key":"n","values":[{}]}}"#,
            vec!["1e9"; 20_000].join(",")
        )
    } else {
        r#""condition_type":"deliverable_exists","condition_config":{"key":"n"}"#.to_string()
    };
    let description = "x".repeat(if inflating { 10 } else { 60_000 });
    let state = |i: usize| {
        format!(
            r#"{{"id":"s{i}","title":"State {i}","type":"loose","description":"{description}","tasks":[{{"id":"t","deliverables":[{{"key":"n","type":"number"}}]}}],"transitions":[{{"target_state_id":"b",{condition}}}]}}"#
        )
    };
    let one = state(0).len();
    let states: Vec<String> = (0..bytes / one).map(state).collect();
    format!(
        r#"{{"id":"wide","title":"Wide","start_state_id":"s0","states":[{},{{"id":"b","title":"Done"}}]}}"#,
        states.join(",")
    )
}

#[test]
fn what_an_import_accepts_is_written_so_that_it_can_be_read_back() {
    let dir = scratch("read-back");
    let ws = dir.join("ws");
    // The deepest the reader takes, twenty times over: indented it would be ~40 MB.
    let file = dir.join("wide-deep.json");
    let text = wide_deep_plan(20, 330);
    assert!(text.len() < 600_000);
    fs::write(&file, &text).unwrap();
    ok(&plan(&ws, &["import", "deep", file.to_str().unwrap()]));
    let draft = ws.join("deep/draft.json");
    let size = fs::metadata(&draft).unwrap().len();
    assert!(size < 1_000_000, "the draft is {size} bytes");
    ok(&plan(&ws, &["check", "--plan", "deep"]));
    assert!(ok(&plan(&ws, &["list"])).contains("deep "));
    ok(&plan(&ws, &["publish", "deep"]));
    let exported = ok(&plan(&ws, &["export", "deep"]));
    assert!(exported.len() < 1_000_000);
    let again = dir.join("exported.json");
    fs::write(&again, &exported).unwrap();
    ok(&plan(
        &ws,
        &["import", "deep-again", again.to_str().unwrap()],
    ));
    ok(&plan(&ws, &["reopen", "deep", "1"]));
    ok(&plan(&ws, &["check", "--plan", "deep"]));

    // The widest: just under 32 MiB, read and written back within it.
    let file = dir.join("wide.json");
    let text = wide_plan(31 * 1024 * 1024, false);
    assert!(text.len() > 30 * 1024 * 1024 && text.len() < 32 * 1024 * 1024);
    fs::write(&file, &text).unwrap();
    ok(&plan(&ws, &["import", "wide", file.to_str().unwrap()]));
    let size = fs::metadata(ws.join("wide/draft.json")).unwrap().len();
    assert!(size <= 32 * 1024 * 1024, "the draft is {size} bytes");
    ok(&plan(&ws, &["check", "--plan", "wide"]));

    // Accepted at the door only if it fits written out: `1e9` is written `1000000000.0`.
    let file = dir.join("inflating.json");
    let text = wide_plan(12 * 1024 * 1024, true);
    fs::write(&file, &text).unwrap();
    let before = snapshot(&ws);
    let said = err(&plan(&ws, &["import", "wide", file.to_str().unwrap()]), 2);
    assert!(
        said.contains("wide/draft.json: this plan would be")
            && said.contains("plans are limited to 32 MiB, so it could not be read back"),
        "{said}"
    );
    let said = err(
        &plan(&ws, &["import", "inflated", file.to_str().unwrap()]),
        2,
    );
    assert!(said.contains("inflated/draft.json"), "{said}");
    assert_eq!(
        snapshot(&ws),
        before,
        "a refused import changed the workspace"
    );
    assert!(
        !ws.join("inflated").exists(),
        "a refused import left a plan folder"
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

/// Only canonical version files count: a copy named `01.json` is not version 1 again and a
/// folder named `9.json` does not make the next publish version 10; both are reported by name.
#[test]
fn only_files_named_as_versions_are_versions_and_the_rest_is_reported() {
    let (_, ws) = seeded("stray-versions");
    ok(&plan(&ws, &["publish", "medical-intake", "-m", "one"]));
    let versions = ws.join("medical-intake/versions");
    fs::copy(versions.join("1.json"), versions.join("01.json")).unwrap();
    fs::create_dir(versions.join("9.json")).unwrap();
    fs::write(versions.join("notes.txt"), "mine").unwrap();
    let listed = ok(&plan(
        &ws,
        &["--format", "json", "versions", "medical-intake"],
    ));
    let doc = json(&listed);
    let numbers: Vec<u64> = doc["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1]);
    let problems = doc["problems"].to_string();
    for name in ["01.json", "9.json", "notes.txt"] {
        assert!(
            problems.contains(&format!("versions/{name}: ignored")),
            "{problems}"
        );
    }
    // The next publish is version 2, and the plan list says what is wrong.
    retitle(&ws, "medical-intake", "Medical intake", "Medical intake 2");
    assert_eq!(ok(&plan(&ws, &["publish", "medical-intake"])).trim(), "2");
    assert!(versions.join("2.json").is_file());
    let list = ok(&plan(&ws, &["list"]));
    assert!(
        list.contains("medical-intake: ") && list.contains("versions/9.json: ignored (not a file)"),
        "{list}"
    );
}

/// A `draft.json` that is a folder keeps the plan listed, with the file named; nothing writes
/// over it, and the refusals name the file, not the plan's folder.
#[test]
fn a_draft_that_is_not_a_file_is_said_with_its_name_and_the_plan_stays_listed() {
    let (_, ws) = seeded("draft-folder");
    let draft = ws.join("daily-routine/draft.json");
    fs::remove_file(&draft).unwrap();
    fs::create_dir(&draft).unwrap();
    let list = ok(&plan(&ws, &["list"]));
    assert!(
        list.contains("daily-routine") && list.contains("unreadable"),
        "{list}"
    );
    assert!(
        list.contains(&format!("{}: not a regular file", draft.display())),
        "{list}"
    );
    let said = err(&plan(&ws, &["check", "--plan", "daily-routine"]), 2);
    assert!(said.contains(&draft.display().to_string()), "{said}");
    let before = snapshot(&ws);
    let said = err(
        &plan(
            &ws,
            &[
                "import",
                "daily-routine",
                root().join("plans/daily-routine.json").to_str().unwrap(),
            ],
        ),
        2,
    );
    assert!(
        said.contains(&format!("{}: not a regular file", draft.display())),
        "{said}"
    );
    assert_eq!(snapshot(&ws), before);
    assert!(draft.is_dir());
}

/// A `live.json` that names no intact version (missing, corrupted) or cannot be read is an error
/// naming that file, not "v99" nor "version 0"; the plan stays listed with the problem, its
/// versions are listed, and setting a live version mends it.
#[test]
fn a_live_marker_naming_no_intact_version_is_said_with_its_file() {
    let (_, ws) = seeded("bad-live");
    ok(&plan(&ws, &["publish", "medical-intake"]));
    let live = ws.join("medical-intake/live.json");
    for (text, why) in [
        (
            r#"{"version": 99, "set_at": "2026-01-01T00:00:00Z"}"#,
            "it names version 99, which does not exist",
        ),
        ("garbled", "it is not readable"),
    ] {
        fs::write(&live, text).unwrap();
        let said = err(&plan(&ws, &["live", "medical-intake"]), 2);
        assert!(
            said.contains(&live.display().to_string()) && said.contains(why),
            "{said}"
        );
        assert!(
            !said.contains("v99") && !said.contains("version 0"),
            "{said}"
        );
        let list = ok(&plan(&ws, &["list"]));
        assert!(
            list.contains(&format!("medical-intake: {}", live.display())),
            "{list}"
        );
        let versions = ok(&plan(&ws, &["versions", "medical-intake"]));
        assert!(
            versions.contains("v1 ") && versions.contains(why),
            "{versions}"
        );
        let said = err(
            &plan(&ws, &["chat", "--plan", "medical-intake", "--live"]),
            2,
        );
        assert!(said.contains(&live.display().to_string()), "{said}");
    }
    tamper(
        &ws.join("medical-intake/versions/1.json"),
        "Medical intake",
        "Medical outtake",
    );
    fs::write(&live, r#"{"version": 1, "set_at": "2026-01-01T00:00:00Z"}"#).unwrap();
    let said = err(&plan(&ws, &["live", "medical-intake"]), 2);
    assert!(
        said.contains("it names version 1, which is corrupted"),
        "{said}"
    );
    // Setting it again mends it.
    retitle(&ws, "medical-intake", "Medical intake", "Medical intake 2");
    ok(&plan(&ws, &["publish", "medical-intake"]));
    ok(&plan(&ws, &["live", "medical-intake", "2"]));
    assert!(!ok(&plan(&ws, &["list"])).contains("note:"));
}

/// A flow export that gives one key twice is refused at import with the key's place, as a plan is.
#[test]
fn a_flow_export_that_gives_a_key_twice_is_refused_with_its_place() {
    let dir = scratch("flow-twice");
    let ws = dir.join("ws");
    let text = fs::read_to_string(root().join("core/tests/fixtures/flow-export.json")).unwrap();
    let twice = text.replacen(
        r#""name": "Ausgang 1","#,
        r#""name": "Ausgang 1", "name": "Ausgang 2","#,
        1,
    );
    assert_ne!(twice, text);
    let file = dir.join("flow.json");
    fs::write(&file, twice).unwrap();
    let said = err(&plan(&ws, &["import", "flow", file.to_str().unwrap()]), 2);
    assert!(
        said.contains("\"name\" is given a second time here"),
        "{said}"
    );
    assert!(
        said.contains("/outputs/0ee3293b-6e72-4472-9cb1-5a7f48a7b460/name"),
        "{said}"
    );
}
