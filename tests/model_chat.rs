//! `plan chat … --agent llm` and `plan test … --agent llm` as a user runs them, against the
//! OpenAI-compatible test server on 127.0.0.1 (docs/agents.md): a scripted chat printing the model's
//! calls, a failed turn refused with exit 2 or answered by the simulator with `--fallback
//! simulator`, saved cases reported per case. And, only when `PLAN_BUILDER_LLM_BASE_URL` is set,
//! one live turn against a real local server.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use plan_tests::cli::{root, scratch};
use plan_tests::model_server::{calls, text, ModelServer};
use serde_json::{json, Value};

/// `plan` with a config folder of its own (no saved settings) and none of the user's variables.
fn plan(args: &[&str], config: &Path) -> Output {
    Command::new(plan_tests::binary("plan").unwrap_or_else(|e| panic!("{e}")))
        .args(args)
        .current_dir(root())
        .env("XDG_CONFIG_HOME", config)
        .env_remove("PLAN_BUILDER_LLM_BASE_URL")
        .env_remove("PLAN_BUILDER_LLM_MODEL")
        .env_remove("PLAN_BUILDER_LLM_API_KEY")
        .env_remove("PLAN_BUILDER_WORKSPACE")
        .output()
        .expect("the plan binary runs")
}

fn outputs(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `plan chat` of the support sample with `script`, answered by `test-model` at `base_url`.
fn model_chat<'a>(script: &'a str, base_url: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "chat",
        "plans/customer-support.json",
        "--script",
        script,
        "--format",
        "json",
        "--agent",
        "llm",
        "--base-url",
        base_url,
        "--model",
        "test-model",
    ];
    args.extend_from_slice(more);
    args
}

fn write_script(dir: &Path, script: Value) -> String {
    let file = dir.join("script.json");
    fs::write(&file, script.to_string()).unwrap();
    file.display().to_string()
}

#[test]
fn a_scripted_chat_with_the_model_prints_its_calls_and_replies() {
    let dir = scratch("scripted");
    let server = ModelServer::start();
    server.answer([
        calls(
            "Thanks, Chloe. And your account number?",
            &[(
                "record_deliverable",
                json!({"key": "customer_name", "value": "Chloe Martin"}),
            )],
        ),
        text("Got it."),
    ]);
    let script = write_script(
        &dir,
        json!({"start": {"state": "customer-intake"}, "turns": [
            {"user": "I'm Chloe Martin", "expect": {"deliverables": {"customer_name": "Chloe Martin"}}},
            {"user": "CM-1"}
        ]}),
    );
    let o = plan(&model_chat(&script, &server.base_url, &[]), &dir);
    let (out, err) = outputs(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let turns = doc["turns"].as_array().unwrap();
    assert_eq!(turns[0]["agent"], "Thanks, Chloe. And your account number?");
    assert_eq!(turns[0]["calls"][0]["function"], "record_deliverable");
    assert_eq!(turns[0]["calls"][0]["accepted"], true);
    assert_eq!(turns[1]["agent"], "Got it.");
    assert_eq!(server.completions().len(), 2);
}

#[test]
fn a_failed_model_turn_exits_2_or_is_answered_by_the_simulator_with_fallback() {
    let dir = scratch("fallback");
    // Nothing queued: the server answers 500.
    let server = ModelServer::start();
    let script = write_script(&dir, json!({"turns": [{"user": "Chloe"}]}));
    let o = plan(&model_chat(&script, &server.base_url, &[]), &dir);
    let (_, err) = outputs(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("answered HTTP 500 (no scripted answer left)"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let o = plan(
        &model_chat(&script, &server.base_url, &["--fallback", "simulator"]),
        &dir,
    );
    let (out, err) = outputs(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let first = &doc["turns"][0]["events"][0];
    assert_eq!(first["kind"], "agent_fallback", "{first}");
    assert!(first["reason"].as_str().unwrap().contains("HTTP 500"));
}

#[test]
fn an_interactive_chat_with_the_model_says_a_failed_turn_and_goes_on() {
    let dir = scratch("interactive");
    let server = ModelServer::start();
    // The first message fails (nothing queued yet for it: a 500), the second is answered.
    server.answer([
        plan_tests::model_server::Scripted::Status(500, "{}".into()),
        text("Nice to meet you, Chloe."),
    ]);
    let mut child = Command::new(plan_tests::binary("plan").unwrap())
        .args(["chat", "plans/customer-support.json", "--agent", "llm"])
        .args(["--base-url", &server.base_url, "--model", "test-model"])
        .current_dir(root())
        .env("XDG_CONFIG_HOME", &dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"Hi, I'm Chloe\nHi, I'm Chloe\n/quit\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let (out, err) = outputs(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("answered HTTP 500") && err.contains("nothing changed: say it again to retry"),
        "{err}"
    );
    assert!(out.contains("Nice to meet you, Chloe."), "{out}");
    assert_eq!(
        out.matches("you> Hi, I'm Chloe").count(),
        1,
        "only the answered turn is shown: {out}"
    );
}

#[test]
fn plan_test_runs_saved_cases_with_the_model_reporting_each() {
    let dir = scratch("suite");
    let server = ModelServer::start();
    let plan_file = root().join("plans/account-care.json");
    fs::write(
        dir.join("verified.json"),
        json!({"plan": plan_file, "start": {"state": "verify"}, "tool_results": {"verify_identity": "VERIFIED"},
               "turns": [{"user": "my PIN is 1234", "expect": {"state": "billing"}}]})
        .to_string(),
    )
    .unwrap();
    fs::write(
        dir.join("still-verifying.json"),
        json!({"plan": plan_file, "start": {"state": "verify"},
               "turns": [{"user": "hello", "expect": {"state": "billing"}}]})
        .to_string(),
    )
    .unwrap();
    // Cases run in file order: still-verifying, then verified.
    server.answer([
        text("Hello! What is your PIN?"),
        calls(
            "Checking.",
            &[("call_tool", json!({"tool": "verify_identity"}))],
        ),
    ]);
    let d = dir.display().to_string();
    let o = plan(
        &[
            "test",
            &d,
            "--agent",
            "llm",
            "--base-url",
            &server.base_url,
            "--model",
            "test-model",
        ],
        &dir,
    );
    let (out, err) = outputs(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        out.contains("FAIL") && out.contains("still-verifying.json"),
        "{out}"
    );
    assert!(
        out.contains("PASS") && out.contains("verified.json (1 turn)"),
        "{out}"
    );
    assert!(out.contains("1 passed, 1 failed"), "{out}");
}

#[test]
fn the_settings_come_from_flags_else_variables_and_a_missing_one_is_said() {
    let dir = scratch("settings");
    let o = plan(
        &["chat", "plans/customer-support.json", "--agent", "llm"],
        &dir,
    );
    let (_, err) = outputs(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("--agent llm needs a model server: give --base-url URL"),
        "{err}"
    );
    let o = plan(
        &[
            "chat",
            "plans/customer-support.json",
            "--agent",
            "llm",
            "--base-url",
            "localhost:1",
        ],
        &dir,
    );
    let (_, err) = outputs(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("--agent llm needs a model: give --model NAME"),
        "{err}"
    );
}

/// Runs only with `PLAN_BUILDER_LLM_BASE_URL` (and `PLAN_BUILDER_LLM_MODEL`) set: one turn with a
/// real local server. Without them it says so and checks nothing.
#[test]
fn a_live_turn_against_a_real_server_when_one_is_configured() {
    let Ok(base_url) = std::env::var("PLAN_BUILDER_LLM_BASE_URL") else {
        eprintln!("PLAN_BUILDER_LLM_BASE_URL is not set: the live test does not run");
        return;
    };
    let dir = scratch("live");
    let script = write_script(&dir, json!({"turns": [{"user": "Hi, I'm Chloe"}]}));
    let mut cmd = Command::new(plan_tests::binary("plan").unwrap());
    cmd.args([
        "chat",
        "plans/customer-support.json",
        "--script",
        &script,
        "--format",
        "json",
    ])
    .args(["--agent", "llm", "--base-url", &base_url])
    .current_dir(root());
    let o = cmd.output().unwrap();
    let (out, err) = outputs(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert!(!doc["turns"][0]["agent"]
        .as_str()
        .unwrap_or_default()
        .is_empty());
}
