//! `plan explore` as a user runs it (explore.md, "Command line"): a plan file with a dead end and a
//! broken rule (exit 1, a line per finding with its shortest conversation, the summary), its JSON
//! document, each finding's script reproducing it in `plan chat --script`; a sample of the
//! workspace explored clean (exit 0); a plan with errors refused with its diagnostics.

use std::fs;
use std::process::Output;

use plan_tests::cli::{plan, scratch};
use serde_json::{json, Value};

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Asks yes or no; "no" leads to a state that only a "yes" leaves, which can no longer be given
/// (plan-core's explorer tests use the same plan), with a rule that every call can end.
fn stuck() -> Value {
    let mut plan: Value =
        serde_json::from_str(include_str!("../core/tests/fixtures/stuck.json")).unwrap();
    plan["rules"] =
        json!([{"id": "ends", "title": "Every call can end", "kind": "can_always_end"}]);
    plan
}

#[test]
fn a_dead_end_and_a_broken_rule_are_found_with_their_shortest_conversations() {
    let dir = scratch("stuck");
    let file = dir.join("stuck.plan.json");
    fs::write(&file, stuck().to_string()).unwrap();
    let file = file.to_str().unwrap();
    let o = plan(&["explore", file]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains("error[explore-dead-end] state 'wait':")
            && out.contains("(shortest conversation: 1 turn)")
            && out.contains("error[explore-rule-broken] rule 'ends':")
            && out.contains("explored 5 configurations (complete): 2 errors, 1 warning"),
        "{out}"
    );

    let o = plan(&["--format", "json", "explore", file]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(doc["complete"], true);
    assert_eq!(doc["coverage"]["states"]["wait"], 1);
    let findings = doc["findings"].as_array().unwrap();
    let dead = findings
        .iter()
        .find(|f| f["code"] == "explore-dead-end")
        .expect("a dead end");
    assert_eq!(dead["severity"], "error");
    assert_eq!(dead["location"]["state_id"], "wait");
    // Its script, said by `plan chat`, ends in the dead end.
    let script = dir.join("dead-end.json");
    fs::write(&script, dead["script"].to_string()).unwrap();
    let o = plan(&[
        "--format",
        "json",
        "chat",
        file,
        "--script",
        script.to_str().unwrap(),
    ]);
    let chat: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(chat["turns"][0]["state"], "wait", "{chat}");
}

#[test]
fn a_sample_of_the_workspace_explores_clean_and_a_plan_with_errors_is_refused() {
    let dir = scratch("samples");
    let ws = dir.join("ws");
    let ws = ws.to_str().unwrap();
    let o = plan(&["--workspace", ws, "explore", "--plan", "medical-intake"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(out.contains("(complete): 0 errors, 0 warnings"), "{out}");

    let mut broken = stuck();
    broken["states"][1]["transitions"][0]["target_state_id"] = json!("nowhere");
    let file = dir.join("broken.plan.json");
    fs::write(&file, broken.to_string()).unwrap();
    let o = plan(&["explore", file.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(err.contains("unknown-target-state"), "{err}");
}

/// `--compare`: the edit's change for callers, in words and in the JSON document.
#[test]
fn compare_says_what_an_edit_changes_for_callers() {
    let dir = scratch("compare");
    let old = dir.join("old.plan.json");
    fs::write(&old, stuck().to_string()).unwrap();
    let mut edited = stuck();
    edited["states"][0]["transitions"][1]["target_state_id"] = json!("wrap");
    let new = dir.join("new.plan.json");
    fs::write(&new, edited.to_string()).unwrap();
    let (new, old) = (new.to_str().unwrap(), old.to_str().unwrap());
    let o = plan(&["explore", new, "--compare", old]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.contains("1 conversation: not ended before, now ended in Wrap-up (shortest: 1 turn)")
            && out.contains("no longer entered: wait")
            && out.contains("gone: error[explore-dead-end]"),
        "{out}"
    );
    let o = plan(&["--format", "json", "explore", new, "--compare", old]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["compare"]["states_lost"], json!(["wait"]));
    assert_eq!(doc["compare"]["outcomes"][0]["to"], "ended in Wrap-up");
    assert_eq!(doc["compare"]["outcomes"][0]["count"], 1);
}
