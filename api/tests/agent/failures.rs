//! When the model fails: the session exactly as before the turn, an HTTP error that says what to check, the simulator answering the failed turn with why.

use super::*;

#[test]
fn every_failure_of_the_model_leaves_the_session_exactly_as_before_the_turn() {
    let server = ModelServer::start();
    let not_json_arguments = Scripted::Body(json!({"choices": [{"message": {"tool_calls": [
        {"id": "c1", "function": {"name": "record_deliverable", "arguments": "{key: arrival"}}]}}]}));
    let failures: Vec<(&str, Scripted, &str)> = vec![
        (
            "timeout",
            Scripted::Hang(std::time::Duration::from_secs(3)),
            "did not answer within 1 s",
        ),
        (
            "http error",
            Scripted::Status(503, r#"{"error":{"message":"overloaded"}}"#.into()),
            "answered HTTP 503 (overloaded)",
        ),
        (
            "malformed answer",
            Scripted::Raw("<html>hello</html>".into()),
            "not with a Chat Completions answer",
        ),
        (
            "arguments not json",
            not_json_arguments,
            "arguments that are not a JSON object",
        ),
        (
            "unknown function",
            calls("", &[("book_flight", json!({}))]),
            "does not have: book_flight",
        ),
    ];
    let (ctx, mut c) = parked_conversation("failures");
    let file = session_file(&ctx, &c);
    let before = std::fs::read(&file).unwrap();
    let session: Session = c.session().clone();
    let mut settings = settings_for(&server);
    settings.timeout_s = 1;
    let agent = plan_api::answerer::Answerer::Model(LanguageModel::new(settings.clone(), None));
    for (what, answer, says) in failures {
        server.answer([answer]);
        let e = c
            .say_by("I'll arrive by car", &ToolResults::new(), &agent)
            .expect_err(what);
        assert_eq!(e.code, ErrorCode::Agent, "{what}");
        assert!(e.message.contains(says), "{what}: {}", e.message);
        assert_eq!(c.session(), &session, "{what}: the session is as before");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            before,
            "{what}: nothing written"
        );
    }
    // Refused: nothing listens on that port any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    settings.base_url = format!("http://127.0.0.1:{port}/v1");
    let gone = plan_api::answerer::Answerer::Model(LanguageModel::new(settings, None));
    let e = c.say_by("by car", &ToolResults::new(), &gone).unwrap_err();
    assert_eq!(e.message, format!("could not reach http://127.0.0.1:{port}/v1: is the model server running on this machine, on that port?"));
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // After a restart, the saved session goes on exactly as the one that never failed would.
    let mut resumed = Conversation::resume(&ctx, "vehicle-viewing", c.name()).unwrap();
    assert_eq!(resumed.session(), &session, "the parked task is kept");
    let (_, mut twin) = parked_conversation("failures-twin");
    let a = resumed
        .say("I'll arrive by car", &ToolResults::new())
        .unwrap()
        .clone();
    let b = twin
        .say("I'll arrive by car", &ToolResults::new())
        .unwrap()
        .clone();
    assert_eq!((a.reply, a.events), (b.reply, b.events));
}

#[test]
fn an_http_error_says_what_to_check() {
    let server = ModelServer::start();
    let (plan, agent) = (plan("customer-support"), model(&server));
    for (status, body, says) in [
        (401, r#"{"error":{"message":"invalid api key"}}"#, "answered HTTP 401 (invalid api key): check the key variable in the agent's settings"),
        (404, "", "answered HTTP 404: check the base URL (it usually ends in /v1) and the model's name"),
        (429, "slow down", "answered HTTP 429 (slow down): the server is busy or over a limit: wait a moment and retry"),
    ] {
        let mut chat = chat_in(&plan, &agent, "greeting");
        server.answer([Scripted::Status(status, body.into())]);
        let e = chat.say("hello").unwrap_err();
        assert!(matches!(&e, RunError::Agent(a) if a.0 == format!("{} {says}", server.base_url)), "{e}");
    }
}

#[test]
fn a_failed_turn_answered_by_the_simulator_records_why() {
    let (ctx, c) = parked_conversation("fallback");
    let request = said(
        &c,
        AgentKind::LanguageModel,
        Some("could not reach http://localhost:11434/v1"),
    );
    let view = conversations::say_as(&ctx, &request, None).unwrap();
    let last = view.turns.last().unwrap();
    assert_eq!(last.by, AgentKind::Simulator);
    assert!(
        matches!(&last.events[0].what, What::AgentFallback { reason } if reason.contains("could not reach"))
    );
    // Without settings, the model is not set up: said, nothing changed.
    let request = said(&c, AgentKind::LanguageModel, None);
    let e = conversations::say_as(&ctx, &request, None).unwrap_err();
    assert_eq!(e.code, ErrorCode::Agent);
    assert!(e.message.contains("not set up"), "{}", e.message);
}
