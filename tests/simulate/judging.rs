//! The judge: its doubt shown, an unparsable vote invalid, a server that refuses the JSON Schema format, an evaluation asked only of the turns its session state was active in.

use super::*;

#[test]
fn the_judges_doubt_is_shown_and_an_unparsable_vote_is_invalid() {
    let ws = scratch("judge").join("ws");
    let server = ModelServer::start();
    // not-today: one caller turn ("ready_to_start: false" ends the plan), then three votes.
    server.answer([
        text("ready_to_start: false"),
        text(r#"{"verdict": "yes", "reason": "kind"}"#),
        text(r#"{"verdict": "no", "reason": "abrupt"}"#),
        text("Yes, it was kind."),
    ]);
    let r = not_today_once(&ws, &server, 1);
    let v = &r["conversations"][0]["verdicts"][0];
    assert_eq!(v["votes"], json!(["yes", "no", "invalid"]));
    assert_eq!(
        (v["verdict"].as_str(), v["agreement"].as_str()),
        (Some("unsure"), Some("1/3"))
    );
    assert_eq!(r["conversations"][0]["status"], "unsure");
    // The judge's request asks for the verdict's shape, and each vote has its own seed.
    let judged = judged(&server);
    assert_eq!(judged.len(), 3);
    assert_eq!(judged[0]["response_format"]["type"], "json_schema");
    let seeds: Vec<&Value> = judged.iter().map(|b| &b["seed"]).collect();
    assert!(seeds[0] != seeds[1] && seeds[1] != seeds[2], "{seeds:?}");
    assert_eq!(judged[0]["temperature"], 0.7);
}

/// A plan whose `escalated` session state is switched on by the arrow to Escalated, with one
/// evaluation limited to it and one limited to a state never active.
fn escalating_plan() -> Value {
    json!({"id": "esc", "title": "Escalation", "states": [
        {"id": "intake", "title": "Intake", "type": "loose", "instructions": "Ask what is wrong.",
         "tasks": [{"id": "t", "deliverables": [{"key": "angry", "type": "boolean"}]}],
         "transitions": [{"target_state_id": "escalated", "condition_type": "deliverable_value",
            "condition_config": {"key": "angry", "value": true},
            "effects": [{"session_state": "escalated", "active": true}]}]},
        {"id": "escalated", "title": "Escalated", "type": "loose", "instructions": "Calm the caller.",
         "tasks": [{"id": "u", "deliverables": [{"key": "calm", "type": "boolean"}]}],
         "transitions": [{"target_state_id": "done", "condition_type": "deliverable_value",
            "condition_config": {"key": "calm", "value": true}}]},
        {"id": "done", "title": "Done", "ending": {"kind": "complete"}}
    ], "session_states": [
        {"id": "escalated", "type": "boolean"},
        {"id": "vip", "type": "boolean"}
    ], "evaluations": [
        {"id": "calm-while-escalated", "question": "While escalated, did the assistant stay calm?", "only_while_active": ["escalated"]},
        {"id": "vip-care", "question": "Was the VIP offered the lounge?", "only_while_active": ["vip"]}
    ]})
}

#[test]
fn an_evaluation_limited_to_a_session_state_is_asked_only_of_the_turns_it_was_active() {
    let ws = scratch("evaluations").join("ws");
    let server = ModelServer::start();
    let file = ws.with_file_name("esc.json");
    fs::write(&file, escalating_plan().to_string()).unwrap();
    let mut new = command();
    let o = new
        .arg("--workspace")
        .arg(&ws)
        .args(["new", "esc", "--from"])
        .arg(&file)
        .output()
        .unwrap();
    exits(&o, 0);
    fs::create_dir_all(ws.join("esc/personas")).unwrap();
    fs::write(
        ws.join("esc/personas/upset.json"),
        json!({"id": "upset", "who": "You are upset about a late delivery.", "max_turns": 5,
               "expect": {"ending": "complete", "visits": ["escalated"]}})
        .to_string(),
    )
    .unwrap();
    server.answer([
        text("I'm fine, just asking."),
        text("angry: true"),
        text("calm: true"),
        text(r#"{"verdict": "yes", "reason": "calm"}"#),
    ]);
    let r = report(
        &simulate(
            &ws,
            &live(
                &server,
                &["--plan", "esc", "--conversations", "1", "--votes", "1"],
            ),
        ),
        0,
    );
    let c = &r["conversations"][0];
    assert_eq!(
        (c["status"].as_str(), c["turns"].as_u64()),
        (Some("passed"), Some(3)),
        "{c}"
    );
    let limited = &c["verdicts"][0];
    assert_eq!(limited["id"], "calm-while-escalated");
    // Switched on in turn 2, active through turn 3.
    assert_eq!(limited["turns_shown"], json!([2, 3]));
    assert_eq!(c["verdicts"][1]["verdict"], "not_asked");
    assert_eq!(c["verdicts"][1]["votes"], json!([]));
    let judged = judged(&server);
    assert_eq!(judged.len(), 1, "no request for an evaluation not asked");
    let shown = judged[0]["messages"][1]["content"].as_str().unwrap();
    assert!(shown.starts_with("Excerpts of the conversation"), "{shown}");
    assert!(
        !shown.contains("just asking") && shown.contains("angry: true"),
        "{shown}"
    );
}

#[test]
fn a_judge_server_that_refuses_the_json_schema_format_is_asked_in_the_next_and_the_replay_knows() {
    let ws = scratch("judge-format").join("ws");
    let server = ModelServer::start();
    let refused = r#"{"error":{"message":"1 validation error: ('body', 'response_format', 'type') Input should be 'text' or 'json_object'"}}"#;
    server.answer([
        text("ready_to_start: false"),
        plan_tests::model_server::Scripted::Status(500, refused.into()),
        text(r#"{"verdict": "yes", "reason": "kind"}"#),
    ]);
    let one_vote = [&NOT_TODAY_ONCE[..], &["--votes", "1"]].concat();
    let r = report(&simulate(&ws, &live(&server, &one_vote)), 0);
    assert_eq!(r["conversations"][0]["verdicts"][0]["verdict"], "yes");
    let judged = judged(&server);
    assert_eq!(judged[0]["response_format"]["type"], "json_schema");
    assert_eq!(judged[1]["response_format"]["type"], "json_object");
    assert_eq!(
        judged[1]["response_format"]["schema"]["required"],
        json!(["verdict", "reason"])
    );
    let dir = run_dir(&ws, "daily-routine", &r["run"]);
    let run: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["judge_format"], "json_object");
    let sent = server.completions().len();
    let again = report(
        &simulate(
            &ws,
            &[
                "--plan",
                "daily-routine",
                "--replay",
                r["run"].as_str().unwrap(),
            ],
        ),
        0,
    );
    assert_eq!(again["conversations"][0]["status"], "passed");
    assert_eq!(server.completions().len(), sent);
}
