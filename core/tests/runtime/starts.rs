//! Starting from a state, tool results and coverage (issue 16).

use super::*;

fn routed() -> Plan {
    plan(json!({"id": "p", "title": "P",
        "tools": [{"name": "lookup", "response_codes": ["FOUND", "MISSING"]}],
        "states": [
        {"id": "intake", "title": "Intake", "tasks": [{"id": "classify", "deliverables": [
            {"key": "issue_type", "type": "enum", "enum_values": ["billing", "technical"]}]}],
         "transitions": [
            {"target_state_id": "billing", "condition_type": "deliverable_value", "condition_config": {"key": "issue_type", "value": "billing"}},
            {"target_state_id": "technical", "condition_type": "deliverable_value", "condition_config": {"key": "issue_type", "value": "technical"}, "priority": 2}]},
        {"id": "billing", "title": "Billing", "allowed_tools": ["lookup"],
         "transitions": [{"target_state_id": "done", "condition_type": "tool_result", "condition_config": {"tool": "lookup", "response_code": "MISSING"}}]},
        {"id": "technical", "title": "Technical", "tasks": [{"id": "fix", "deliverables": [{"key": "fixed", "type": "boolean"}]}],
         "transitions": [{"target_state_id": "done"}]},
        {"id": "done", "title": "Done"}]}))
}

fn file_ref(p: &Plan) -> PlanRef {
    PlanRef {
        id: p.id.clone(),
        version: PlanVersion::File,
        content_hash: plan_core::hash::content_hash(p),
    }
}

#[test]
fn a_conversation_can_begin_in_any_state_with_values_already_known() {
    let p = routed();
    let from = Start {
        state: Some("technical".into()),
        deliverables: [("issue_type".to_string(), json!("Technical"))].into(),
        ..Start::default()
    };
    let (s, events) = start_from(&p, file_ref(&p), &from).expect("starts");
    assert_eq!(s.state_id, "technical");
    assert_eq!(s.path, ["technical"]);
    // Recorded at turn 0 in that state, without a quote, coerced to the enum's canonical value.
    let known = &s.deliverables["issue_type"];
    assert_eq!(
        (
            known.value.clone(),
            known.state_id.as_str(),
            known.turn,
            known.quote.clone()
        ),
        (json!("technical"), "technical", 0, None)
    );
    assert_eq!(
        texts(&events),
        [
            "issue_type = technical known from the start",
            "entered Technical"
        ]
    );
    // A value that finishes a task of the state completes it when the state is entered.
    let from = Start {
        state: Some("technical".into()),
        deliverables: [("fixed".to_string(), json!("yes"))].into(),
        ..Start::default()
    };
    let (s, _) = start_from(&p, file_ref(&p), &from).expect("starts");
    assert_eq!(s.visit.tasks[0].status, TaskStatus::Completed);
}

#[test]
fn a_start_naming_no_state_or_an_undeclared_key_or_a_wrong_value_is_refused() {
    let p = routed();
    let nowhere = Start {
        state: Some("nowhere".into()),
        ..Start::default()
    };
    assert_eq!(
        start_from(&p, file_ref(&p), &nowhere).unwrap_err(),
        RunError::UnknownState("nowhere".into())
    );
    let undeclared = Start {
        deliverables: [("mood".to_string(), json!("fine"))].into(),
        ..Start::default()
    };
    assert_eq!(
        start_from(&p, file_ref(&p), &undeclared).unwrap_err(),
        RunError::NotDeclared("mood".into())
    );
    let wrong = Start {
        deliverables: [("issue_type".to_string(), json!("weather"))].into(),
        ..Start::default()
    };
    let e = start_from(&p, file_ref(&p), &wrong).unwrap_err();
    assert!(matches!(e, RunError::BadPreset { .. }), "{e}");
    assert!(e.to_string().contains("enum"), "{e}");
}

#[test]
fn a_tool_called_without_a_code_returns_the_tests_choice_else_its_first_code() {
    let p = routed();
    let (mut chat, _) = Chat::open_from(
        &p,
        &Simulator,
        file_ref(&p),
        &Start {
            state: Some("billing".into()),
            ..Start::default()
        },
    )
    .expect("opens");
    let call = |code: &str| Action::CallTool {
        tool: "lookup".into(),
        response_code: code.into(),
    };
    assert_eq!(
        Simulator.actions(&p, &chat.session, "/tool lookup", &NO_TOOLS),
        [call("FOUND")]
    );
    let chosen: ToolResults = [("lookup".to_string(), "MISSING".to_string())].into();
    assert_eq!(
        Simulator.actions(&p, &chat.session, "/tool lookup", &chosen),
        [call("MISSING")]
    );
    chat.say_with("/tool lookup", &chosen).expect("turn");
    assert_eq!(chat.session.state_id, "done");
}

#[test]
fn a_script_starts_where_its_start_says_and_its_tools_return_what_it_says() {
    let p = routed();
    let script: script::Script = serde_json::from_value(json!({
        "start": {"state": "billing", "deliverables": {"issue_type": "billing"}},
        "tool_results": {"lookup": "FOUND"},
        "turns": [
            {"user": "/tool lookup", "expect": {"state": "billing"}},
            {"user": "/tool lookup", "tool_results": {"lookup": "MISSING"}, "expect": {"state": "done", "ended": "complete"}}
        ]}))
    .expect("a script");
    let run =
        script::run(&p, &Simulator, file_ref(&p), None, &script, &mut |_| Ok(())).expect("runs");
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    let opening = &run.record.opening;
    assert_eq!(opening.state, "billing");
    assert_eq!(opening.deliverables["issue_type"].value, json!("billing"));
    assert_eq!(
        texts(&opening.events),
        [
            "issue_type = billing known from the start",
            "entered Billing"
        ]
    );
    // `--from` wins over the script's start state.
    let run = script::run_from(
        &p,
        &Simulator,
        file_ref(&p),
        None,
        &script,
        Some("intake"),
        &mut |_| Ok(()),
    )
    .expect("runs");
    assert_eq!(run.record.opening.state, "intake");
}

#[test]
fn coverage_counts_the_transitions_the_conversations_took() {
    let p = routed();
    let script: script::Script = serde_json::from_value(json!({"turns": [
        {"user": "/set issue_type technical"}, {"user": "/set fixed yes"}, {"user": "thanks"}]}))
    .expect("a script");
    let run =
        script::run(&p, &Simulator, file_ref(&p), None, &script, &mut |_| Ok(())).expect("runs");
    let coverage = plan_core::coverage::Coverage::of_conversations(&p, [&run.record]);
    assert_eq!(
        coverage.taken(&p),
        [("intake", 1, "technical"), ("technical", 0, "done")]
    );
    assert_eq!(coverage.summary(&p), "2 of 4 transitions tested");
    assert_eq!(
        coverage.states.keys().collect::<Vec<_>>(),
        ["done", "intake", "technical"]
    );
    assert_eq!(
        coverage.untaken(&p),
        [("intake", 0, "billing"), ("billing", 0, "done")]
    );
}
