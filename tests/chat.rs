//! `plan chat` and `plan test` as a user runs them (issue 5): the scripted JSON shape, the
//! interactive terminal, sessions saved and resumed, saved test cases and their counts.

use std::fs;
use std::path::Path;

use plan_tests::cli::{chat_script, exits, plan, plan_json, plan_with_input as plan_with, scratch};
use serde_json::{json, Value};

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    k.sort();
    k
}

/// The fields of the JSON record's opening, in order; a turn has these and its own.
const OPENING_KEYS: [&str; 7] = [
    "agent",
    "deliverables",
    "events",
    "parked",
    "prompt",
    "session_states",
    "state",
];

#[test]
fn a_scripted_chat_prints_the_documented_json_shape() {
    let doc = plan_json(
        &[
            "chat",
            "plans/customer-support.json",
            "--script",
            "plans/tests/customer-support/billing-refund.json",
        ],
        0,
    );
    assert_eq!(keys(&doc), ["ended", "opening", "turns"]);
    assert_eq!(doc["opening"]["state"], "greeting");
    assert!(doc["opening"]["agent"]
        .as_str()
        .unwrap()
        .contains("first name"));
    let turns = doc["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 8);
    for (i, t) in turns.iter().enumerate() {
        assert_eq!(
            keys(t),
            [&OPENING_KEYS[..], &["transition", "turn", "user"]].concat()
        );
        assert_eq!(t["turn"], json!(i + 1), "user turns only, from 1");
    }
    assert_eq!(
        turns[3]["transition"],
        json!({"from": "customer-intake", "to": "billing-support", "index": 0, "priority": 1,
               "why": "issue_type = billing"})
    );
    assert_eq!(turns[0]["transition"]["why"], "all tasks are done");
    assert_eq!(turns[1]["transition"], Value::Null);
    assert_eq!(
        turns[3]["deliverables"]["issue_type"],
        json!({"value": "billing", "state_id": "customer-intake", "turn": 4,
               "quote": "I have a question about my bill, it's billing"})
    );
    let moved = turns[3]["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "transition")
        .unwrap();
    assert_eq!(
        moved["text"],
        "moved to Billing support because issue_type = billing (priority 1)"
    );
    assert_eq!(
        doc["ended"],
        json!({"kind": "complete", "state_id": "farewell", "turn": 8})
    );
}

#[test]
fn a_failed_expectation_names_the_turn_and_what_differed() {
    let o = chat_script(
        "plans/customer-support.json",
        "failed-expectation",
        &json!({"turns": [{"user": "Anna"}, {"user": "Anna Smith", "expect": {
            "state": "billing-support", "deliverables": {"customer_name": "Bob"}, "ended": true}}]}),
        &[],
    );
    let (out, err) = exits(&o, 1);
    assert!(out.contains("you> Anna Smith"), "{out}");
    assert!(err.contains("turn 2: expected state 'billing-support', but the conversation is in 'customer-intake'"), "{err}");
    assert!(err.contains("turn 2: expected customer_name = Bob, but it is Anna Smith"));
    assert!(err.contains("turn 2: expected the conversation to have ended, but it goes on"));
}

#[test]
fn a_script_that_runs_past_the_end_of_its_session_fails() {
    let o = chat_script(
        "plans/collections.json",
        "past-the-end",
        &json!({"turns": [{"user": "/tool verify_customer NOT_FOUND"}, {"user": "hello?"}]}),
        &["--format", "json"],
    );
    let (out, err) = exits(&o, 1);
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        doc["turns"].as_array().unwrap().len(),
        1,
        "the late turn is not run"
    );
    assert_eq!(doc["ended"]["kind"], "hand_off");
    assert_eq!(doc["ended"]["to"], "+49 30 1234567");
    assert!(
        err.contains("turn 2: not run: the conversation already ended at turn 1"),
        "{err}"
    );
}

#[test]
fn a_chat_on_a_plan_with_errors_is_refused() {
    let o = plan(&["chat", "tests/fixtures/broken-support.json"]);
    let (_, err) = exits(&o, 1);
    assert!(err.contains("error[unknown-target-state]"), "{err}");
    assert!(err.contains("fix them before a test conversation"));
    let o = plan(&["chat", "tests/fixtures/not-json.json"]);
    let (_, err) = exits(&o, 1);
    assert!(err.contains("invalid-json"), "{err}");
    let o = plan(&["chat", "no/such/file.json"]);
    exits(&o, 2);
}

#[test]
fn an_interactive_chat_reads_messages_from_standard_input() {
    // A line ending in a backslash continues the message: two commands in one turn.
    let input = "/tool verify_customer CUSTOMER_VERIFIED\n/tool get_balance 100 EUR\\\n/tool classify Sofortzahlung\n";
    let o = plan_with(&["chat", "plans/collections.json"], input);
    let (out, _) = exits(&o, 0);
    assert!(
        out.contains("you> /tool verify_customer CUSTOMER_VERIFIED"),
        "{out}"
    );
    assert!(out.contains("→ moved to S2 Saldo mitteilen & Absicht klären because verify_customer returned CUSTOMER_VERIFIED (priority 1)"), "{out}");
    assert!(out.contains("...> /tool classify Sofortzahlung"));
    assert!(out.contains("■ the conversation ended in "));
    assert!(out.contains("hung up"));
}

#[test]
fn a_workspace_chat_saves_its_session_every_turn_and_resumes_it() {
    let ws = scratch("resume").join("ws");
    let ws_arg = ws.to_str().unwrap();
    let o = plan_with(
        &["chat", "--plan", "customer-support", "--workspace", ws_arg],
        "Anna\nAnna Smith\n",
    );
    let (_, err) = exits(&o, 0);
    let name = err
        .split("--resume ")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .expect("the session's name is printed")
        .to_string();
    let file = ws.join(format!("customer-support/sessions/{name}.json"));
    let saved: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["turn"], 2);
    assert_eq!(saved["state_id"], "customer-intake");
    assert_eq!(saved["plan"]["version"], "draft");
    assert!(saved["plan"]["content_hash"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));

    // The saved conversation `session` resumed in a terminal, `input` typed.
    let resume = |session: &str, input: &str| {
        let args = [
            "chat",
            "--plan",
            "customer-support",
            "--resume",
            session,
            "--workspace",
            ws_arg,
        ];
        plan_with(&args, input)
    };
    let o = resume(&name, "AC-778\n");
    let (out, _) = exits(&o, 0);
    assert!(out.contains("recorded account_number = AC-778"), "{out}");
    let saved: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["turn"], 3);
    assert_eq!(
        saved["deliverables"]["customer_name"]["value"],
        "Anna Smith"
    );

    // The plan changes: the session refuses to resume.
    let mut draft: Value =
        serde_json::from_str(&fs::read_to_string(ws.join("customer-support/draft.json")).unwrap())
            .unwrap();
    draft["title"] = json!("Customer support, revised");
    let edited = ws.join("../edited.json");
    fs::write(&edited, draft.to_string()).unwrap();
    let o = plan(&[
        "import",
        "customer-support",
        edited.to_str().unwrap(),
        "--workspace",
        ws_arg,
    ]);
    exits(&o, 0);
    let before = fs::read(&file).unwrap();
    let o = resume(&name, "billing\n");
    let (_, err) = exits(&o, 2);
    // Said in the author's words: the plan and what to do, no session file name, no hashes.
    assert!(
        err.contains("this conversation ran customer-support (draft) as it was then, and the plan has changed since"),
        "{err}"
    );
    assert!(!err.contains(&name) && !err.contains("sha256"), "{err}");
    assert_eq!(fs::read(&file).unwrap(), before, "the session is untouched");
    let o = resume("nope", "");
    let (_, err) = exits(&o, 2);
    assert!(err.contains("has no saved session \"nope\""), "{err}");
}

#[test]
fn a_workspace_chat_runs_the_live_version_unless_told_otherwise() {
    let ws = scratch("live").join("ws");
    let ws_arg = ws.to_str().unwrap();
    exits(
        &plan(&["publish", "daily-routine", "--workspace", ws_arg]),
        0,
    );
    exits(
        &plan(&["live", "daily-routine", "1", "--workspace", ws_arg]),
        0,
    );
    let script = ws.join("../s.json");
    fs::write(&script, json!({"turns": [{"user": "no"}]}).to_string()).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "chat",
            "--plan",
            "daily-routine",
            "--workspace",
            ws_arg,
            "--script",
            script.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = plan(&args);
        let (_, err) = exits(&o, 0);
        err
    };
    assert!(run(&[]).contains("of daily-routine (version 1)"));
    assert!(run(&["--draft"]).contains("of daily-routine (draft)"));
    assert!(run(&["--version", "1"]).contains("of daily-routine (version 1)"));
}

#[test]
fn plan_test_runs_a_plans_saved_cases_and_ends_with_the_counts() {
    let ws = scratch("suite").join("ws");
    let ws_arg = ws.to_str().unwrap();
    let o = plan(&["test", "customer-support", "--workspace", ws_arg]);
    let (out, _) = exits(&o, 0);
    assert!(
        out.contains("PASS customer-support/billing-refund (8 turns)"),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("3 passed, 0 failed"));

    fs::write(
        ws.join("customer-support/tests/wrong-route.json"),
        json!({"turns": [{"user": "Dee"}, {"user": "Dee Lee"}, {"user": "D-1"},
            {"user": "technical", "expect": {"state": "billing-support"}}]})
        .to_string(),
    )
    .unwrap();
    let o = plan(&["test", "customer-support", "--workspace", ws_arg]);
    let (out, _) = exits(&o, 1);
    assert!(
        out.contains("FAIL customer-support/wrong-route (4 turns)"),
        "{out}"
    );
    assert!(out.contains(
        "turn 4: expected state 'billing-support', but the conversation is in 'technical-support'"
    ));
    assert_eq!(out.lines().last(), Some("3 passed, 1 failed"));

    let doc = plan_json(&["test", "customer-support", "--workspace", ws_arg], 1);
    assert_eq!(
        (doc["passed"].clone(), doc["failed"].clone()),
        (json!(3), json!(1))
    );

    // The plan folder and a test file inside it work as well.
    let folder = ws.join("customer-support");
    let o = plan(&["test", folder.to_str().unwrap()]);
    let (out, _) = exits(&o, 1);
    assert_eq!(out.lines().last(), Some("3 passed, 1 failed"));
    let one = folder.join("tests/general-question.json");
    let o = plan(&["test", one.to_str().unwrap()]);
    let (out, _) = exits(&o, 0);
    assert_eq!(out.lines().last(), Some("1 passed, 0 failed"));
}

#[test]
fn plan_test_runs_the_repositorys_sample_cases_from_their_folders() {
    let o = plan(&[
        "test",
        "plans/tests/customer-support",
        "plans/tests/medical-intake",
        "plans/tests/daily-routine",
        "plans/tests/collections",
    ]);
    let (out, _) = exits(&o, 0);
    assert_eq!(out.lines().last(), Some("17 passed, 0 failed"), "{out}");
}

/// serde reads a struct from a list of its fields, so `"expect": ["billing-support"]` was read as
/// an expected state: a script's parts are objects, and anything else is refused at its place.
#[test]
fn a_script_part_written_as_a_list_is_refused_at_its_place() {
    let dir = scratch("list-parts");
    for (name, script) in [
        (
            "expect",
            json!({"turns": [{"user": "hi", "expect": ["billing-support"]}]}),
        ),
        ("turn", json!({"turns": [["hi"]]})),
        ("whole", json!(["hi"])),
    ] {
        let file = dir.join(format!("{name}.json"));
        fs::write(&file, script.to_string()).unwrap();
        let o = plan(&[
            "chat",
            "plans/customer-support.json",
            "--script",
            file.to_str().unwrap(),
        ]);
        let (_, err) = exits(&o, 2);
        assert!(
            err.contains("not a script: invalid type: sequence, expected an object"),
            "{name}: {err}"
        );
    }
    // The same expectation as an object runs.
    let o = chat_script(
        "plans/customer-support.json",
        "fixed-expectation",
        &json!({"turns": [{"user": "hi", "expect": {"state": "customer-intake"}}]}),
        &[],
    );
    exits(&o, 0);
}

#[test]
fn a_test_that_cannot_run_fails_with_its_reason_and_a_missing_target_is_a_usage_error() {
    let dir = scratch("no-plan");
    fs::write(
        dir.join("orphan.json"),
        json!({"turns": [{"user": "hi"}]}).to_string(),
    )
    .unwrap();
    fs::write(dir.join("broken.json"), "{\"turns\": [").unwrap();
    let o = plan(&["test", dir.to_str().unwrap()]);
    let (out, _) = exits(&o, 1);
    assert!(
        out.contains("cannot tell which plan this test runs"),
        "{out}"
    );
    assert!(out.contains("not a script"), "{out}");
    assert_eq!(out.lines().last(), Some("0 passed, 2 failed"));
    let o = plan(&["test", "no/such/dir"]);
    let (_, err) = exits(&o, 2);
    assert!(
        err.contains("no/such/dir: no such file, folder or plan"),
        "{err}"
    );
}

/// Issue 16: "test from here" from the command line: `--from STATE`, a script's `start` with
/// values already known and its `tool_results`, `/tool NAME` without a code, and the opening's
/// events and values in the JSON record.
#[test]
fn a_chat_can_begin_anywhere_with_values_known_and_tools_answer_as_the_script_says() {
    let from_balance = json!({
            "start": {"state": "balance"},
            "tool_results": {"classify": "Sofortzahlung"},
            "turns": [
                {"user": "/tool get_balance", "expect": {"state": "balance"}},
                {"user": "/tool classify", "tool_results": {"classify": "Rückfrage"},
                 "expect": {"state": "forward", "ended": "hand_off"}}
            ]
    });
    let o = chat_script(
        "plans/collections.json",
        "from-here",
        &from_balance,
        &["--format", "json"],
    );
    let (out, err) = exits(&o, 0);
    let doc: Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(doc["opening"]["state"], "balance", "{err}");
    assert_eq!(keys(&doc["opening"]), OPENING_KEYS);
    // The turn's own tool result wins over the script's.
    let turns = doc["turns"].as_array().unwrap();
    assert_eq!(turns[1]["transition"]["to"], "forward");

    // Values known from the start: recorded at turn 0, without a quote, and said in the opening.
    let o = chat_script(
        "plans/customer-support.json",
        "technical-from-here",
        &json!({
            "start": {"state": "technical-support", "deliverables": {"issue_type": "Technical"}},
            "turns": [{"user": "the router blinks red", "expect": {"state": "technical-support"}}]
        }),
        &["--format", "json"],
    );
    let (out, err) = exits(&o, 0);
    let doc: Value = serde_json::from_str(&out).expect("one JSON document");
    let known = &doc["opening"]["deliverables"]["issue_type"];
    assert_eq!(
        (&known["value"], &known["turn"], &known["quote"]),
        (&json!("technical"), &json!(0), &Value::Null),
        "{err}"
    );
    let events: Vec<&str> = doc["opening"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert_eq!(
        events[0], "issue_type = technical known from the start",
        "{events:?}"
    );

    // `--from` wins over the script's start state, and names a state or is a usage error.
    let o = chat_script(
        "plans/collections.json",
        "from-identify",
        &from_balance,
        &["--from", "identify", "--format", "json"],
    );
    let doc: Value = serde_json::from_str(&exits(&o, 1).0).expect("one JSON document");
    assert_eq!(doc["opening"]["state"], "identify");
    let o = plan(&["chat", "plans/collections.json", "--from", "nowhere"]);
    let (_, err) = exits(&o, 2);
    assert!(err.contains("no state 'nowhere'"), "{err}");
    // Interactively too, with a bare /tool returning the tool's first code.
    let o = plan_with(
        &["chat", "plans/collections.json", "--from", "identify"],
        "/tool verify_customer\n",
    );
    let (out, _) = exits(&o, 0);
    assert!(out.contains("verify_customer"), "{out}");
    assert!(out.contains("→ moved to"), "{out}");
}

/// Issue 16: `plan test --coverage` says which transitions the cases took and which they never
/// took, and how many of the plan's were tested.
#[test]
fn plan_test_coverage_names_the_transitions_taken_and_never_taken() {
    let o = plan(&["test", "plans/tests/customer-support", "--coverage"]);
    let (out, _) = exits(&o, 0);
    assert!(
        out.contains("coverage of ") && out.contains("customer-support.json"),
        "{out}"
    );
    assert!(
        out.contains("taken        customer-intake → billing-support #0"),
        "{out}"
    );
    assert!(
        out.lines().last().unwrap().ends_with("transitions tested"),
        "{out}"
    );
    let doc = plan_json(
        &[
            "test",
            "plans/tests/customer-support/billing-refund.json",
            "--coverage",
        ],
        0,
    );
    let c = &doc["coverage"][0];
    assert_eq!(c["total"], json!(7));
    let untaken: Vec<&str> = c["untaken"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["to"].as_str())
        .collect();
    assert!(untaken.contains(&"technical-support"), "{untaken:?}");
    assert_eq!(c["tested"].as_u64().unwrap() + untaken.len() as u64, 7);
}

/// Interruptions (issue 18): `plan chat --format json` says what is parked after each turn, and the
/// vehicle-viewing sample's cases pass from the command line.
#[test]
fn a_chat_prints_the_parked_task_and_the_interruption_cases_pass() {
    let dir = std::env::temp_dir().join(format!("plan-chat-parked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("script.json");
    std::fs::write(
        &script,
        r#"{"turns": [{"user": "8842"}, {"user": "Is there parking?"}, {"user": "by car"}]}"#,
    )
    .unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../plans/vehicle-viewing.json");
    let doc = plan_json(
        &[
            "chat",
            sample.to_str().unwrap(),
            "--script",
            script.to_str().unwrap(),
        ],
        0,
    );
    let parked: Vec<&Value> = doc["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["parked"])
        .collect();
    assert_eq!(parked, [&Value::Null, &json!("booking"), &Value::Null]);
    assert_eq!(doc["turns"][2]["state"], "booking");
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../plans/tests/vehicle-viewing");
    let o = plan(&["test", cases.to_str().unwrap()]);
    let (out, _) = exits(&o, 0);
    assert!(out.contains("4 passed, 0 failed"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
