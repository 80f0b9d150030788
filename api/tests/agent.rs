//! The language-model agent (docs/agents.md) against a real OpenAI-compatible HTTP server on
//! 127.0.0.1 that answers with scripted completions and records each request: the request of a
//! strict, a loose and a goal state; calls becoming actions; the second request; the goal check;
//! each failure changing nothing; tool results from the switches and from scripts; the key sent
//! only in its header and written nowhere; the simulator answering a failed turn.

#[allow(dead_code)] // what the end-to-end tests use of it
#[path = "../../tests/harness/model_server.rs"]
mod model_server;

// Failures and settings, in files of their own.
#[path = "agent/configured.rs"]
mod configured;
#[path = "agent/failures.rs"]
mod failures;

use model_server::{calls, text, ModelServer, Scripted};
use plan_api::agent::model::LanguageModel;
use plan_api::agent::{settings, AgentChoice, AgentKind, AgentSettings};
use plan_api::conversations::{self, Conversation, StartChat};
use plan_api::messages::ChatSay;
use plan_api::{Context, ErrorCode};
use plan_core::runtime::{
    script, Chat, PlanRef, PlanVersion, RunError, Session, Start, ToolResults, What,
};
use plan_core::{Plan, Revision};
use serde_json::json;

fn plan(name: &str) -> Plan {
    let path = format!("{}/../plans/{name}.json", env!("CARGO_MANIFEST_DIR"));
    plan_core::parse_plan(&std::fs::read_to_string(path).unwrap()).expect("the sample parses")
}

fn settings_for(server: &ModelServer) -> AgentSettings {
    AgentSettings {
        base_url: server.base_url.clone(),
        model: "test-model".into(),
        timeout_s: 5,
        ..AgentSettings::default()
    }
}

fn model(server: &ModelServer) -> LanguageModel {
    LanguageModel::new(settings_for(server), None)
}

fn plan_ref(plan: &Plan) -> PlanRef {
    PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    }
}

/// A conversation of `plan` with the model, begun in `state`.
fn chat_in<'a>(plan: &'a Plan, agent: &'a LanguageModel, state: &str) -> Chat<'a, LanguageModel> {
    Chat::open_from(plan, agent, plan_ref(plan), &from(state))
        .expect("it opens")
        .0
}

fn from(state: &str) -> Start {
    Start {
        state: Some(state.into()),
        ..Start::default()
    }
}

#[test]
fn a_strict_state_offers_only_the_current_task_and_its_keys() {
    let server = ModelServer::start();
    let (plan, agent) = (plan("customer-support"), model(&server));
    let mut chat = chat_in(&plan, &agent, "customer-intake");
    server.answer([text("May I have your name?")]);
    let t = chat.say("hello").expect("the model answered");
    assert_eq!(t.reply, "May I have your name?");
    let r = &server.completions()[0];
    assert_eq!(r.body["model"], "test-model");
    let system = r.system();
    assert!(system.contains("The current task:\n- identify"), "{system}");
    assert!(
        !system.contains("- classify"),
        "only the current task: {system}"
    );
    assert!(system.contains("customer_name (string)"), "{system}");
    let f = r.functions();
    assert!(f.contains(&"record_deliverable".into()) && f.contains(&"note_insight".into()));
    // Required and still missing: it can be neither completed nor skipped now.
    assert!(!f.contains(&"complete_task".into()) && !f.contains(&"skip_task".into()));
    assert!(!f.contains(&"close_goal".into()), "not a goal state: {f:?}");
    let keys = &r.parameters("record_deliverable").unwrap()["properties"]["key"]["enum"];
    assert_eq!(keys, &json!(["customer_name", "account_number"]));
    let messages = r.body["messages"].as_array().unwrap();
    assert_eq!(
        messages.last().unwrap(),
        &json!({"role": "user", "content": "hello"})
    );
    assert_eq!(
        messages[1]["role"], "assistant",
        "the opening is in the transcript"
    );
    assert_eq!(
        chat.session.transcript.last().unwrap().by,
        Some(AgentKind::LanguageModel)
    );
}

#[test]
fn a_loose_state_lists_every_open_task_and_a_goal_state_only_its_objective() {
    let server = ModelServer::start();
    let (support, agent) = (plan("customer-support"), model(&server));
    let mut chat = chat_in(&support, &agent, "billing-support");
    server.answer([text("Which invoice?")]);
    chat.say("I was charged twice").unwrap();
    let r = &server.completions()[0];
    let system = r.system();
    assert!(
        system.contains("The tasks still open, in any order:\n- understand"),
        "{system}"
    );
    assert!(system.contains("- resolve"), "{system}");
    let keys = &r.parameters("record_deliverable").unwrap()["properties"]["key"]["enum"];
    assert_eq!(
        keys,
        &json!(["billing_topic", "invoice_number", "resolution"])
    );

    let routine = plan("daily-routine");
    let mut chat = chat_in(&routine, &agent, "explore-routine");
    server.answer([text("What does your morning look like?")]);
    chat.say("hi").unwrap();
    let r = server.completions().pop().unwrap();
    let system = r.system();
    assert!(
        system.contains("Objective: Understand what a normal day looks like"),
        "{system}"
    );
    assert!(
        system.contains("Success looks like: We know when they get up"),
        "{system}"
    );
    assert!(
        system.contains("Still missing: morning_routine"),
        "{system}"
    );
    assert!(
        !system.contains("task"),
        "no task list in goal mode: {system}"
    );
    let f = r.functions();
    assert!(
        f.contains(&"close_goal".into()) && f.contains(&"give_up_goal".into()),
        "{f:?}"
    );
    assert!(!f.contains(&"complete_task".into()));
}

#[test]
fn the_models_calls_become_actions_in_order_accepted_and_rejected() {
    let server = ModelServer::start();
    let (plan, agent) = (plan("customer-support"), model(&server));
    let mut chat = chat_in(&plan, &agent, "customer-intake");
    server.answer([calls(
        "Thank you, Chloe.",
        &[
            (
                "record_deliverable",
                json!({"key": "customer_name", "value": "Chloe Martin", "quote": "Chloe Martin"}),
            ),
            (
                "record_deliverable",
                json!({"key": "issue_type", "value": "billing"}),
            ),
        ],
    )]);
    let t = chat.say("I'm Chloe Martin, it's about billing").unwrap();
    assert_eq!(t.reply, "Thank you, Chloe.");
    assert_eq!(
        server.completions().len(),
        1,
        "it wrote text: no second request"
    );
    let s = &chat.session;
    assert_eq!(s.deliverables["customer_name"].value, json!("Chloe Martin"));
    assert!(
        !s.deliverables.contains_key("issue_type"),
        "strict: not the current task"
    );
    let judged: Vec<bool> = t
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::ActionAccepted { .. } => Some(true),
            What::ActionRejected { .. } => Some(false),
            _ => None,
        })
        .collect();
    assert_eq!(judged, [true, false]);
    assert_eq!(t.calls.len(), 2);
    assert!(t.calls[0].accepted && !t.calls[1].accepted);
    assert!(
        t.calls[1].result.starts_with("rejected: "),
        "{}",
        t.calls[1].result
    );
}

#[test]
fn calls_without_text_are_answered_again_with_each_result() {
    let server = ModelServer::start();
    let (plan, agent) = (plan("account-care"), model(&server));
    let mut chat = chat_in(&plan, &agent, "verify");
    server.answer([
        calls("", &[("call_tool", json!({"tool": "verify_identity"}))]),
        text("You are verified."),
    ]);
    // The author's switch says what the tool returns.
    let switches = ToolResults::from([("verify_identity".to_string(), "VERIFIED".to_string())]);
    let t = chat.say_with("my PIN is 1234", &switches).unwrap();
    assert_eq!(t.reply, "You are verified.");
    assert_eq!(chat.session.state_id, "billing", "the tool's code moved it");
    let second = &server.completions()[1];
    let m = second.body["messages"].as_array().unwrap();
    let n = m.len();
    assert_eq!(m[n - 2]["tool_calls"][0]["function"]["name"], "call_tool");
    // Text, not `null`: strict servers (llama-cpp-python's) refuse `null` with HTTP 500.
    assert_eq!(m[n - 2]["content"], json!(""));
    assert!(
        m.iter()
            .all(|msg| msg.as_object().unwrap().values().all(|v| !v.is_null())),
        "no field is null in any message: {m:?}"
    );
    assert_eq!(m[n - 1]["role"], "tool");
    assert_eq!(m[n - 1]["tool_call_id"], "call_0");
    assert_eq!(
        m[n - 1]["content"],
        "accepted: verify_identity returned VERIFIED"
    );
    assert!(
        second.body.get("tools").is_none(),
        "the reply is asked for, not more calls"
    );
}

/// Found with the real small model: a reply of no words after a tool call, shown as the agent
/// saying nothing. A blank answer is asked once more; a second blank one fails the turn.
#[test]
fn a_blank_reply_is_asked_once_more_and_a_second_blank_fails_the_turn_changing_nothing() {
    let server = ModelServer::start();
    let (plan, agent) = (plan("account-care"), model(&server));
    let mut chat = chat_in(&plan, &agent, "verify");
    // Words of nothing but blanks, no call: the same messages again, without tools.
    server.answer([text(" \n "), text("Could you tell me your PIN?")]);
    let t = chat.say("hello").unwrap();
    assert_eq!(t.reply, "Could you tell me your PIN?");
    let sent = server.completions();
    assert_eq!(sent.len(), 2, "asked once more");
    assert_eq!(sent[1].body["messages"], sent[0].body["messages"]);
    assert!(sent[1].body.get("tools").is_none(), "words are asked for");
    // A call and no words, then no words again: the turn fails and nothing is applied.
    let before = chat.session.clone();
    server.answer([
        calls("", &[("call_tool", json!({"tool": "verify_identity"}))]),
        text("   "),
    ]);
    let e = chat.say("my PIN is 1234").unwrap_err();
    assert!(
        matches!(&e, RunError::Agent(a) if a.0 == plan_api::agent::model::NO_WORDS),
        "{e}"
    );
    assert_eq!(chat.session, before, "the tool call was not applied");
    // An empty first answer and an empty second: the same failure.
    server.answer([text(""), text("")]);
    assert!(matches!(
        chat.say("hello?").unwrap_err(),
        RunError::Agent(_)
    ));
    assert_eq!(chat.session, before);
}

#[test]
fn a_scripts_tool_results_say_what_a_tool_returns() {
    let server = ModelServer::start();
    let (plan, agent) = (plan("account-care"), model(&server));
    let script: script::Script = serde_json::from_value(json!({
        "start": {"state": "verify"},
        "tool_results": {"verify_identity": "FAILED"},
        "turns": [{"user": "1234", "expect": {"state": "verify"}}]
    }))
    .unwrap();
    server.answer([calls(
        "Let me check.",
        &[("call_tool", json!({"tool": "verify_identity"}))],
    )]);
    let run = script::run_from(
        &plan,
        &agent,
        plan_ref(&plan),
        None,
        &script,
        None,
        &mut |_| Ok(()),
    )
    .unwrap();
    assert_eq!(run.failures, []);
    assert_eq!(
        run.session.session_states["verify_attempts"].value,
        json!(1)
    );
    assert_eq!(
        run.record.turns[0].turn.calls[0].result,
        "accepted: verify_identity returned FAILED"
    );
}

#[test]
fn the_goal_check_saying_no_rejects_the_close_with_its_reason() {
    let server = ModelServer::start();
    let (plan, agent) = (plan("daily-routine"), model(&server));
    let mut chat = chat_in(&plan, &agent, "explore-routine");
    server.answer([
        calls(
            "And what do you look forward to?",
            &[
                ("record_deliverable", json!({"key": "morning_routine", "value": "walk the dog", "quote": "I walk the dog"})),
                ("close_goal", json!({"quote": "I walk the dog"})),
            ],
        ),
        text(r#"{"met": false, "reason": "nothing yet about what they look forward to"}"#),
    ]);
    let t = chat.say("I get up at 7 and I walk the dog").unwrap();
    let check = &server.completions()[1];
    let asked = check.body["messages"][1]["content"].as_str().unwrap();
    assert!(asked.contains("\"I walk the dog\""), "{asked}");
    assert!(asked.contains("We know when they get up"), "{asked}");
    assert!(
        chat.session.visit.goal_done().then_some(()).is_none(),
        "the goal stays open"
    );
    assert_eq!(t.goal_checks.len(), 1);
    assert!(!t.goal_checks[0].met);
    let reason = t
        .events
        .iter()
        .find_map(|e| match &e.what {
            What::ActionRejected { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .expect("the close was rejected");
    assert_eq!(
        reason,
        "the goal check said no: nothing yet about what they look forward to"
    );
    assert!(!t.calls[1].accepted);
}

#[test]
fn the_goal_check_saying_yes_lets_the_close_through() {
    let server = ModelServer::start();
    let (plan, agent) = (plan("daily-routine"), model(&server));
    let mut chat = chat_in(&plan, &agent, "explore-routine");
    server.answer([
        calls(
            "Lovely. What do you look forward to?",
            &[
                ("record_deliverable", json!({"key": "morning_routine", "value": "up at 7, walk the dog"})),
                ("close_goal", json!({"quote": "I walk the dog"})),
            ],
        ),
        text("```json\n{\"met\": true, \"reason\": \"they said when they get up and what they do\"}\n```"),
    ]);
    let t = chat.say("I'm up at 7 and I walk the dog").unwrap();
    assert!(t.goal_checks[0].met);
    assert!(t.calls.iter().all(|c| c.accepted), "{:?}", t.calls);
    assert_eq!(
        chat.session.state_id, "looking-forward",
        "the goal closed and its route fired"
    );
}

/// A conversation of the vehicle sample with a task parked for a detour, and its session file.
fn parked_conversation(name: &str) -> (Context, Conversation) {
    let root = std::env::temp_dir().join(format!("api-agent-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let ctx = Context::open(&root, || "2026-12-03T10:00:00Z".into()).unwrap();
    let request = StartChat {
        id: "vehicle-viewing".into(),
        revision: Some(Revision::Draft),
        start: Start::default(),
    };
    let mut c = Conversation::start(&ctx, &request).unwrap();
    for m in ["8842", "Is there parking?"] {
        c.say(m, &ToolResults::new()).unwrap();
    }
    assert!(c.session().parked.is_some());
    (ctx, c)
}

fn session_file(ctx: &Context, c: &Conversation) -> std::path::PathBuf {
    ctx.root()
        .join("vehicle-viewing/sessions")
        .join(format!("{}.json", c.name()))
}

/// A turn of conversation `c` of the vehicle sample, answered as `agent` and `fallback` say.
fn said(c: &Conversation, agent: AgentKind, fallback: Option<&str>) -> ChatSay {
    ChatSay {
        id: "vehicle-viewing".into(),
        name: c.name().into(),
        message: "I'll arrive by car".into(),
        tool_results: ToolResults::new(),
        agent: AgentChoice {
            agent,
            fallback: fallback.map(str::to_string),
        },
    }
}

/// A completion whose calls are written in its text, as a server that did not parse them sends it,
/// with the tokens it counted.
fn written_calls(text: &str, usage: (u64, u64)) -> Scripted {
    Scripted::Body(json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": usage.0, "completion_tokens": usage.1, "total_tokens": usage.0 + usage.1},
    }))
}

#[test]
fn calls_written_in_the_text_are_made_actions_and_a_turn_says_its_tokens_and_time() {
    let server = ModelServer::start();
    let (plan, agent) = (plan("customer-support"), model(&server));
    let mut chat = chat_in(&plan, &agent, "customer-intake");
    server.answer([
        written_calls(
            "<tool_call>\n{\"name\": \"record_deliverable\", \"arguments\": {\"key\": \"customer_name\", \"value\": \"Chloe Martin\"}}\n</tool_call>",
            (300, 25),
        ),
        written_calls("Thank you, Chloe.", (340, 8)),
    ]);
    let t = chat.say("I am Chloe Martin").unwrap();
    assert_eq!(
        t.reply, "Thank you, Chloe.",
        "the calls' text is not the reply"
    );
    assert_eq!(
        chat.session.deliverables["customer_name"].value,
        json!("Chloe Martin")
    );
    assert_eq!(t.calls.len(), 1);
    assert!(t.calls[0].accepted);
    let ms = t.ms.expect("a model turn says how long it took");
    assert_eq!(
        t.usage,
        Some(plan_core::runtime::Usage {
            prompt_tokens: 640,
            completion_tokens: 33
        }),
        "both requests counted"
    );
    assert!(!t.uncalled);
    assert!(ms < 5_000);
    // As `plan chat --format json` and the log keep it.
    let record = script::TurnRecord::of(&chat.session, t);
    let v = serde_json::to_value(&record).unwrap();
    assert_eq!(
        v["usage"],
        json!({"prompt_tokens": 640, "completion_tokens": 33})
    );
    assert!(v["ms"].is_u64());
    assert!(v.get("uncalled").is_none());
}

#[test]
fn a_model_that_calls_nothing_while_the_plan_waits_is_told_apart_and_said_once() {
    use plan_api::agent::{uncalled_notice_at, ModelTurnCalls};
    let server = ModelServer::start();
    let root = std::env::temp_dir().join(format!("api-agent-uncalled-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let ctx = Context::open(&root, || "2026-12-03T10:00:00Z".into()).unwrap();
    let request = StartChat {
        id: "customer-support".into(),
        revision: Some(Revision::Draft),
        start: Start::default(),
    };
    let mut c = Conversation::start(&ctx, &request).unwrap();
    let settings = settings_for(&server);
    server.answer([
        text("Hello! How can I help?"),
        text("Sure."),
        text("Of course."),
    ]);
    let agent = plan_api::answerer::Answerer::Model(LanguageModel::new(settings.clone(), None));
    let say =
        |c: &mut Conversation, m: &str| c.say_by(m, &ToolResults::new(), &agent).cloned().unwrap();
    let turns: Vec<_> = ["hi", "I am Chloe", "Chloe Martin"]
        .iter()
        .map(|m| say(&mut c, m))
        .collect();
    assert!(turns.iter().all(|t| t.uncalled && t.ms.is_some()));
    let facts = turns.iter().map(|t| {
        t.ms.map(|_| ModelTurnCalls {
            called: !t.calls.is_empty(),
            uncalled: t.uncalled,
        })
    });
    assert_eq!(
        uncalled_notice_at(facts),
        Some(1),
        "at the second turn, and only there"
    );
    // A model that called once is a model that calls: no notice, whatever follows.
    let called = [
        Some(ModelTurnCalls {
            called: true,
            uncalled: false,
        }),
        Some(ModelTurnCalls {
            called: false,
            uncalled: true,
        }),
        Some(ModelTurnCalls {
            called: false,
            uncalled: true,
        }),
    ];
    assert_eq!(uncalled_notice_at(called), None);
    // Test connection asks for one function by name: this server answers with text.
    server.answer([text("pong")]);
    let report = LanguageModel::new(settings.clone(), None)
        .test_connection()
        .unwrap();
    assert_eq!(report.functions, Some(false), "{}", report.message);
    assert!(report.message.contains("--jinja"), "{}", report.message);
    let asked = server.completions().last().unwrap().clone();
    assert_eq!(asked.body["tool_choice"], "auto", "as a turn asks");
    assert_eq!(asked.functions(), ["ping"]);
    server.answer([calls("", &[("ping", json!({"word": "ok"}))])]);
    let report = LanguageModel::new(settings, None)
        .test_connection()
        .unwrap();
    assert_eq!(report.functions, Some(true));
    assert!(
        report.message.ends_with("function calling works"),
        "{}",
        report.message
    );
}
