//! Files that broke: corrupted versions, drafts that do not read, stray files, live markers naming nothing: each said with its file, the plan still listed.

use super::*;

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

/// `plan check --plan` of a draft that no longer reads as a plan reports it as `plan check FILE`
/// does: `invalid-json` or `schema` findings and exit 1, not a failure to run (exit 2).
#[test]
fn a_stored_draft_that_broke_is_checked_like_a_file() {
    let (_, ws) = seeded("check-broken");
    let draft = ws.join("daily-routine/draft.json");
    for (text, code) in [
        ("{\n  \"id\": \"daily-routine\",\n", "invalid-json"),
        ("{\"id\": \"daily-routine\", \"title\": 3}", "schema"),
        (
            "<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> theirs\n",
            "invalid-json",
        ),
    ] {
        fs::write(&draft, text).unwrap();
        let out = plan(
            &ws,
            &["check", "--plan", "daily-routine", "--format", "json"],
        );
        assert_eq!(out.status.code(), Some(1), "{text}: {out:?}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["diagnostics"][0]["code"], code, "{report}");
        assert_eq!(report["diagnostics"][0]["file"], "daily-routine/draft.json");
        let out = plan(&ws, &["check", "--plan", "daily-routine"]);
        assert_eq!(out.status.code(), Some(1));
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains(&format!("error[{code}]")), "{said}");
    }
}
