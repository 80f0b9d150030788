//! The language-model agent against a real OpenAI-compatible server and a real model:
//! llama-cpp-python's server with SmolLM2-135M-Instruct (`harness/llama.rs`), started on
//! 127.0.0.1 with a function-calling chat format and with the model's own template. The tiny model
//! answers badly; what is asserted is our side: the server takes every request we send (it
//! validates strictly), every turn answers or fails with a clear error and changes nothing, calls
//! that arrive are made actions or rejected with a reason, each turn says its tokens and time, a
//! model that never calls a function is told apart (in the chat, once, and by Test connection),
//! and nothing panics. The scripted server of `model_chat.rs` and `api/tests/agent.rs` stays for
//! exact assertions.

use std::process::Command;

use plan_api::agent::answer::Call;
use plan_api::agent::http::Http;
use plan_api::agent::model::LanguageModel;
use plan_api::agent::request;
use plan_api::agent::{uncalled_notice_at, AgentSettings, ModelTurnCalls};
use plan_core::runtime::{Chat, PlanRef, PlanVersion, RunError};
use plan_core::Plan;
use plan_tests::cli::root;
use plan_tests::llama::{LlamaServer, Template, MODEL};
use serde_json::Value;

fn support() -> Plan {
    let text = std::fs::read_to_string(root().join("plans/customer-support.json")).unwrap();
    plan_core::parse_plan(&text).expect("the sample parses")
}

fn start(template: Template) -> LlamaServer {
    LlamaServer::start(template).unwrap_or_else(|e| panic!("{e}"))
}

fn settings(server: &LlamaServer) -> AgentSettings {
    AgentSettings {
        base_url: server.base_url.clone(),
        model: MODEL.into(),
        temperature: 0.0,
        seed: Some(7),
        timeout_s: 120,
        ..AgentSettings::default()
    }
}

/// What an author says to the support plan's intake, one message a turn.
const MESSAGES: [&str; 3] = [
    "Hi, I was charged twice on my last bill.",
    "My name is Ann Lee, account number 12345.",
    "It is a billing issue.",
];

/// Every turn of a conversation with the model: answered, or refused in words with the session
/// exactly as it was.
fn talk(server: &LlamaServer) -> Vec<Result<plan_core::runtime::Turn, String>> {
    let plan = support();
    let agent = LanguageModel::new(settings(server), None);
    let plan_ref = PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    let (mut chat, _) = Chat::open(&plan, &agent, plan_ref).expect("it opens");
    let mut turns = Vec::new();
    for message in MESSAGES {
        let before = chat.session.clone();
        match chat.say(message) {
            Ok(t) => turns.push(Ok(t)),
            Err(RunError::Agent(e)) => {
                assert_eq!(chat.session, before, "a failed turn changed the session");
                assert!(!e.0.trim().is_empty(), "a failure says what failed");
                turns.push(Err(e.0));
            }
            Err(other) => panic!("a turn failed other than by the model: {other}"),
        }
    }
    turns
}

/// With a function-calling chat format: the server takes every request we send (the second
/// request's assistant message included, which it refused when its content was `null`), calls
/// come back and are made actions or rejected with a reason, each turn says its tokens and time,
/// and Test connection says that function calling works.
#[test]
fn a_function_calling_server_takes_every_request_and_each_turn_says_what_it_did_and_cost() {
    let mut server = start(Template::FunctionCalling);
    let turns = talk(&server);
    let log = server.log_text();
    let mut calls = 0;
    for (i, t) in turns.iter().enumerate() {
        match t {
            Ok(t) => {
                // Found with this server and model: a blank reply after a call. It is asked
                // once more, and never shown as the agent's words.
                assert!(!t.reply.trim().is_empty(), "turn {i}: a reply of no words");
                let ms = t.ms.expect("a model turn says its time");
                let usage = t.usage.expect("llama-cpp-python counts tokens");
                assert!(usage.prompt_tokens > 100, "turn {i}: {usage:?}");
                assert!(ms > 0);
                for c in &t.calls {
                    calls += 1;
                    assert!(
                        c.result == "accepted"
                            || c.result.starts_with("accepted: ")
                            || (c.result.starts_with("rejected: ") && c.result.len() > 12),
                        "turn {i}: a call's result says what became of it: {c:?}"
                    );
                    assert_eq!(c.accepted, c.result.starts_with("accepted"));
                }
            }
            // The tiny model may write arguments that are not JSON: said, nothing applied. What
            // must never happen is the server refusing the request we sent.
            Err(e) => assert!(
                !e.contains("HTTP 500") && !e.contains("HTTP 422") && !e.contains("HTTP 400"),
                "turn {i}: the server refused our request: {e}\n{log}"
            ),
        }
    }
    assert!(
        turns.iter().any(Result::is_ok),
        "no turn answered: {turns:?}\n{log}"
    );
    // Whether this model calls a function in these three turns is its whim (asking again after a
    // blank reply changes what follows). The second request's shape is what must be taken: it is
    // sent as a turn would send it after a call, whatever the model chose above.
    if calls == 0 {
        let plan = support();
        let agent = LanguageModel::new(settings(&server), None);
        let plan_ref = PlanRef {
            id: plan.id.clone(),
            version: PlanVersion::File,
            content_hash: String::new(),
        };
        let (chat, _) = Chat::open(&plan, &agent, plan_ref).expect("it opens");
        let first = request::first(&settings(&server), &plan, &chat.session, MESSAGES[0]);
        let call = Call {
            id: None,
            name: "record_deliverable".into(),
            arguments: r#"{"key": "customer_name", "value": "Ann"}"#.into(),
        };
        let second = request::second(&settings(&server), &first, &[call], &["accepted".into()]);
        let answered = Http::new(&settings(&server), None).complete(&second);
        assert!(
            answered.is_ok(),
            "the server refused the second request (tool messages): {answered:?}\n{}",
            server.log_text()
        );
    }
    let report = LanguageModel::new(settings(&server), None)
        .test_connection()
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(report.functions, Some(true), "{}", report.message);
    assert!(
        report.message.ends_with("function calling works"),
        "{}",
        report.message
    );
}

/// With the model's own template: every turn answers, none calls a function and the plan never
/// moves; the chat says so once, at the second turn (`plan chat`, text and JSON, with each turn's
/// cost and the total), and Test connection does not say that function calling works.
#[test]
fn a_server_that_does_not_call_functions_is_recognised_in_the_chat_once_and_by_test_connection() {
    let mut server = start(Template::Model);
    let turns = talk(&server);
    let log = server.log_text();
    let facts: Vec<Option<ModelTurnCalls>> = turns
        .iter()
        .map(|t| {
            let t = t.as_ref().unwrap_or_else(|e| panic!("{e}\n{log}"));
            assert!(t.ms.is_some(), "a model turn says its time");
            Some(ModelTurnCalls {
                called: !t.calls.is_empty(),
                uncalled: t.uncalled,
            })
        })
        .collect();
    assert!(
        facts
            .iter()
            .all(|f| f.is_some_and(|f| f.uncalled && !f.called)),
        "the model's own template never calls in a turn: {facts:?}"
    );
    assert_eq!(
        uncalled_notice_at(facts),
        Some(1),
        "said at the second turn"
    );
    let report = LanguageModel::new(settings(&server), None)
        .test_connection()
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert!(
        !report.message.ends_with("function calling works") && report.message.contains("--jinja"),
        "{}",
        report.message
    );
    assert_eq!(report.models, [MODEL]);
    plan_chat_says_each_turns_cost_and_that_the_model_calls_no_functions(&server);
}

/// `plan chat` as an author runs it against `server` (which does not call functions): the turns
/// with their cost, the notice once, the conversation's total; and as JSON for programs.
fn plan_chat_says_each_turns_cost_and_that_the_model_calls_no_functions(server: &LlamaServer) {
    let dir = plan_tests::target_dir()
        .join("real-model-tests")
        .join(std::process::id().to_string());
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("script.json");
    let turns: Vec<Value> = MESSAGES
        .iter()
        .map(|m| serde_json::json!({"user": m}))
        .collect();
    std::fs::write(&script, serde_json::json!({ "turns": turns }).to_string()).unwrap();
    let chat = |format: &str| {
        let out = Command::new(plan_tests::binary("plan").unwrap_or_else(|e| panic!("{e}")))
            .args(["chat", "plans/customer-support.json", "--script"])
            .arg(&script)
            .args(["--format", format, "--agent", "llm", "--base-url"])
            .arg(&server.base_url)
            .args(["--model", MODEL])
            .current_dir(root())
            .env("XDG_CONFIG_HOME", &dir)
            .env_remove("PLAN_BUILDER_LLM_BASE_URL")
            .env_remove("PLAN_BUILDER_LLM_MODEL")
            .env_remove("PLAN_BUILDER_LLM_API_KEY")
            .output()
            .expect("plan runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{text}\n{err}");
        text
    };
    let text = chat("text");
    assert_eq!(
        text.matches("note: This model answered without calling any function, so the plan cannot move: start llama.cpp's server with --jinja").count(),
        1,
        "{text}"
    );
    assert_eq!(text.matches(" tokens, ").count(), MESSAGES.len(), "{text}");
    assert!(
        text.contains(&format!("The language model: {} turns, ", MESSAGES.len())),
        "{text}"
    );
    let json: Value = serde_json::from_str(&chat("json")).expect("JSON");
    for t in json["turns"].as_array().unwrap() {
        assert!(t["usage"]["prompt_tokens"].as_u64().unwrap() > 0, "{t}");
        assert!(t["ms"].as_u64().is_some(), "{t}");
        assert_eq!(t["uncalled"], true, "{t}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Simulated callers played by the real model (simulate.md): the caller-model and the judge are
/// SmolLM2 on llama-cpp-python's server, the plan's side the simulator. The tiny model plays and
/// judges badly; what is asserted is our side: every conversation ends with a status and a reason
/// where it did not pass, every vote is yes, no or invalid with its agreement, the server takes the
/// judge's requests (in the format it accepts), and with the server stopped the replay sends
/// nothing and writes the same conversations byte for byte.
#[test]
fn simulated_callers_played_by_the_real_model_replay_without_it() {
    let ws = plan_tests::cli::scratch("simulate").join("ws");
    let server = start(Template::Model);
    let run = |args: &[&str]| {
        let mut c = plan_tests::cli::command();
        for role in ["LLM", "CALLER", "JUDGE"] {
            for field in ["BASE_URL", "MODEL", "API_KEY"] {
                c.env_remove(format!("PLAN_BUILDER_{role}_{field}"));
            }
        }
        c.arg("--workspace")
            .arg(&ws)
            .args(["simulate", "--plan", "daily-routine", "--format", "json"])
            .args(args)
            .output()
            .unwrap()
    };
    let first = run(&[
        "--conversations",
        "2",
        "--seed",
        "11",
        "--caller-base-url",
        &server.base_url,
        "--caller-model",
        MODEL,
    ]);
    let code = first.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let report: Value = serde_json::from_slice(&first.stdout).unwrap();
    let conversations = report["conversations"].as_array().unwrap();
    assert_eq!(conversations.len(), 4, "{report}");
    for c in conversations {
        let status = c["status"].as_str().unwrap();
        assert!(
            ["passed", "failed", "unsure", "caller_failed"].contains(&status),
            "the real server took every request: {c}"
        );
        if status == "caller_failed" {
            assert!(!c["reason"].as_str().unwrap().is_empty());
            continue;
        }
        for v in c["verdicts"].as_array().unwrap() {
            let votes = v["votes"].as_array().unwrap();
            assert_eq!(votes.len(), 3, "{v}");
            assert!(votes
                .iter()
                .all(|x| ["yes", "no", "invalid"].contains(&x.as_str().unwrap())));
            assert!(v["agreement"].as_str().unwrap().ends_with("/3"), "{v}");
        }
    }
    let dir = ws
        .join("daily-routine/runs")
        .join(report["run"].as_str().unwrap());
    let kept: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    // llama-cpp-python takes a schema only beside json_object.
    assert_eq!(kept["judge_format"], "json_object", "{kept}");
    drop(server);
    let again = run(&["--replay", report["run"].as_str().unwrap()]);
    assert_eq!(
        again.status.code(),
        code,
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let replayed: Value = serde_json::from_slice(&again.stdout).unwrap();
    let redir = ws
        .join("daily-routine/runs")
        .join(replayed["run"].as_str().unwrap());
    for entry in std::fs::read_dir(dir.join("conversations")).unwrap() {
        let name = entry.unwrap().file_name();
        assert_eq!(
            std::fs::read(dir.join("conversations").join(&name)).unwrap(),
            std::fs::read(redir.join("conversations").join(&name)).unwrap(),
            "{name:?} replays byte for byte with the server gone"
        );
    }
}
