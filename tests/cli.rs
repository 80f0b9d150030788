//! `plan check` as a user runs it: output, exit codes, JSON shape.
//! The text output is kept in insta snapshots, so a change in wording is reviewed.

use std::process::Command;

use plan_tests::cli::{plan, root, scratch, stdout};
use serde_json::Value;

fn sample_plans() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("plans"))
        .unwrap()
        .map(|e| format!("plans/{}", e.unwrap().file_name().to_string_lossy()))
        .filter(|p| p.ends_with(".json"))
        .collect();
    files.sort();
    files
}

#[test]
fn sample_plans_check_clean_with_exit_0() {
    let files = sample_plans();
    let args: Vec<&str> = ["check"]
        .into_iter()
        .chain(files.iter().map(String::as_str))
        .collect();
    let o = plan(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    for f in &files {
        assert!(stdout(&o).contains(&format!("{f}: ok, no problems")));
    }
}

#[test]
fn broken_plans_read_like_a_compilers_output() {
    for name in ["broken-support", "not-json", "wrong-shape"] {
        let file = format!("tests/fixtures/{name}.json");
        let o = plan(&["check", &file]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        insta::assert_snapshot!(name, stdout(&o));
    }
}

#[test]
fn json_output_is_one_document_with_the_documented_fields() {
    let o = plan(&[
        "check",
        "--format",
        "json",
        "plans/customer-support.json",
        "tests/fixtures/broken-support.json",
        "tests/fixtures/not-json.json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let list = doc["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), 10);
    let first = &list[1];
    assert_eq!(first["file"], "tests/fixtures/broken-support.json");
    assert_eq!(first["code"], "unknown-target-state");
    assert_eq!(first["severity"], "error");
    assert_eq!(
        first["location"],
        serde_json::json!({"path": "/states/1/transitions/0/target_state_id",
            "state_id": "intake", "transition_index": 0})
    );
    let last = &list[9];
    assert_eq!(
        (last["file"].as_str(), last["code"].as_str()),
        (Some("tests/fixtures/not-json.json"), Some("invalid-json"))
    );
    assert_eq!(last["location"], serde_json::json!({"path": ""}));
}

#[test]
fn a_file_that_is_not_utf8_is_an_invalid_json_finding_with_its_place() {
    let dir = std::env::temp_dir().join(format!("plan-cli-not-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Latin-1 "é" on the second line, and a UTF-16 file with its byte-order mark.
    let latin1 = dir.join("latin1.json");
    std::fs::write(&latin1, b"{\n  \"title\": \"Caf\xe9\"}").unwrap();
    let utf16 = dir.join("utf16.json");
    std::fs::write(&utf16, b"\xff\xfe{\x00}\x00").unwrap();
    let (a, b) = (latin1.to_str().unwrap(), utf16.to_str().unwrap());
    let o = plan(&["check", "--format", "json", a, b]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let doc: Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    let list = doc["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{doc}");
    assert_eq!(list[0]["code"], "invalid-json");
    assert_eq!(list[0]["file"], a);
    let said = list[0]["message"].as_str().unwrap();
    assert!(
        said.starts_with("Line 2, column 16: the file is not UTF-8 text"),
        "{said}"
    );
    let said = list[1]["message"].as_str().unwrap();
    assert!(
        said.contains("UTF-16") && said.contains("save it as UTF-8"),
        "{said}"
    );
    // In text, with the file named.
    let o = plan(&["check", a]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("error[invalid-json]: Line 2, column 16"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unreadable_file_exits_2_and_names_it_and_the_others_are_still_checked() {
    let o = plan(&[
        "check",
        "nowhere/missing.json",
        "plans/customer-support.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("nowhere/missing.json"), "{err}");
    assert!(stdout(&o).contains("plans/customer-support.json: ok"));
}

/// A new author's first try names the workspace's plan where a file is read: the refusal says
/// how to name it (and a missing file that does not read as a plan's id gets no such hint).
#[test]
fn a_plan_id_given_as_a_file_is_pointed_at_plan() {
    for command in ["check", "chat", "explore"] {
        let o = plan(&[command, "support"]);
        assert_eq!(o.status.code(), Some(2), "{command}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "(a plan of the workspace is named with --plan: plan {command} --plan support)"
            )),
            "{command}: {err}"
        );
    }
    let o = plan(&["check", "nowhere/missing.json"]);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("--plan"));
}

#[test]
fn usage_errors_exit_2_and_version_exits_0() {
    assert_eq!(plan(&["check"]).status.code(), Some(2));
    assert_eq!(plan(&["frobnicate"]).status.code(), Some(2));
    let v = plan(&["--version"]);
    assert_eq!(v.status.code(), Some(0));
    assert!(stdout(&v).starts_with("plan "));
}

/// Every command that exits 0 or 1 with `--format json` prints one JSON document on stdout: the
/// plan's diagnostics when it has errors (explore, chat, test, publish), as `plan check` prints
/// them, else what failed.
#[test]
fn json_means_one_json_document_for_every_outcome_that_exits_0_or_1() {
    let dir = scratch("json-outcomes");
    let ws = dir.join("ws");
    let ws = ws.to_str().unwrap();
    let broken = "tests/fixtures/broken-support.json";
    let script = dir.join("script.json");
    std::fs::write(&script, r#"{"turns": [{"user": "hello"}]}"#).unwrap();
    let script = script.to_str().unwrap();
    assert_eq!(plan(&["--workspace", ws, "list"]).status.code(), Some(0));
    assert_eq!(
        plan(&["--workspace", ws, "import", "customer-support", broken])
            .status
            .code(),
        Some(0)
    );
    let runs: Vec<Vec<&str>> = vec![
        vec!["check", broken],
        vec!["explore", broken],
        vec!["chat", broken, "--script", script],
        vec!["explore", "--plan", "customer-support"],
        vec!["chat", "--plan", "customer-support", "--script", script],
        vec!["publish", "customer-support"],
        vec!["publish", "medical-intake"],
        vec!["publish", "medical-intake"],
        vec!["explore", "plans/customer-support.json", "--max-turns", "3"],
        vec!["list"],
        vec!["versions", "medical-intake"],
    ];
    for args in runs {
        let full: Vec<&str> = ["--workspace", ws, "--format", "json"]
            .into_iter()
            .chain(args.iter().copied())
            .collect();
        let o = plan(&full);
        let code = o.status.code();
        assert!(code == Some(0) || code == Some(1), "{args:?}: {code:?}");
        let doc: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
            panic!(
                "{args:?} (exit {code:?}) printed no JSON document ({e}): {:?}",
                stdout(&o)
            )
        });
        if args.contains(&broken) || args.contains(&"customer-support") {
            let diagnostics = doc["diagnostics"].as_array().expect("diagnostics");
            assert!(
                diagnostics
                    .iter()
                    .any(|d| d["severity"] == "error" && d["file"].is_string()),
                "{args:?}: {doc}"
            );
            assert_eq!(code, Some(1), "{args:?}");
        }
    }
    // The second publish of an unchanged draft: exit 1, said in the document.
    let o = plan(&[
        "--workspace",
        ws,
        "--format",
        "json",
        "publish",
        "medical-intake",
    ]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        doc["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("nothing to publish")),
        "{doc}"
    );
}

/// Writing to a closed stdout or stderr (`plan … 2>&1 | head -c 200`) ends the command with its
/// own exit code, never a signal, however often it is tried.
#[test]
fn a_closed_pipe_ends_no_command_by_a_signal() {
    use std::process::Stdio;
    let broken = "tests/fixtures/broken-support.json";
    for i in 0..20 {
        for (args, code) in [
            (vec!["check", broken], 1),
            (vec!["explore", broken], 1),
            (vec!["explore", "plans/customer-support.json"], 0),
            (vec!["schema"], 0),
            (vec!["check", "no-such-file.json"], 2),
        ] {
            let mut child = Command::new(plan_tests::binary("plan").unwrap())
                .args(&args)
                .current_dir(root())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // Both pipes closed before the program writes (or, every other time, after a
            // moment): every write fails with a broken pipe.
            if i % 2 == 1 {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            drop(child.stdout.take());
            drop(child.stderr.take());
            let status = child.wait().unwrap();
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(
                status.signal(),
                None,
                "{args:?} ended by a signal: {status}"
            );
            assert_eq!(status.code(), Some(code), "{args:?}");
        }
    }
}

/// A key given twice inside a condition's settings is a `schema` finding at the second key, as
/// anywhere else; so is one in a flow export refused at import.
#[test]
fn a_key_given_twice_inside_a_condition_is_a_finding_at_the_second_key() {
    let dir = scratch("twice");
    let text = std::fs::read_to_string(root().join("plans/customer-support.json")).unwrap();
    let twice = text.replacen(
        r#""value": "billing""#,
        r#""value": "technical", "value": "billing""#,
        1,
    );
    assert_ne!(twice, text);
    let file = dir.join("twice.json");
    std::fs::write(&file, twice).unwrap();
    let o = plan(&["--format", "json", "check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = &doc["diagnostics"][0];
    assert_eq!(d["code"], "schema");
    assert_eq!(
        d["location"]["path"],
        "/states/1/transitions/0/condition_config/value"
    );
    assert!(d["message"]
        .as_str()
        .unwrap()
        .contains("\"value\" is given a second time here"));
}
