//! Effects and rules: on-enter changes and a transition's effects in order, who may set a state, gated tools, how session-state conditions compare, the prompt of a turn.

use super::*;

/// Two states joined by a transition with effects; the second changes things on entry.
fn effects_plan() -> Plan {
    plan(json!({"id": "p", "title": "P",
    "states": [
        {"id": "a", "title": "A", "type": "loose",
         "on_enter": [{"session_state": "visits", "add": 1}],
         "transitions": [{"target_state_id": "b", "condition_type": "deliverable_exists",
                          "condition_config": {"key": "go"},
                          "effects": [{"session_state": "tier", "value": "gold"}, {"session_state": "vip", "active": true},
                                      {"session_state": "tier", "value": null}]}],
         "tasks": [{"id": "t", "deliverables": [{"key": "go", "type": "boolean"}]}]},
        {"id": "b", "title": "B", "type": "loose",
         "on_enter": [{"session_state": "visits", "add": 1}, {"session_state": "done", "value": true, "active": true}],
         "tasks": [{"id": "u", "deliverables": [{"key": "x"}]}]}],
    "session_states": [
        {"id": "visits", "type": "number"},
        {"id": "tier", "type": "string"},
        {"id": "vip", "type": "prompt", "prompt": "VIP {{session.state.visits}}."},
        {"id": "done"},
        {"id": "welcome", "auto_activate": {"condition_type": "session_state_value",
            "condition_config": {"session_state": "visits", "operator": "gte", "value": 1}}}
    ]}))
}

#[test]
fn entering_the_start_state_applies_its_on_enter_changes_then_the_auto_rules() {
    let p = effects_plan();
    let (s, events) = begin(&p);
    assert_eq!(value(&s, "visits"), json!(1), "no value counts as 0");
    assert!(active(&s, "welcome"));
    assert_eq!(
        changes(&events),
        [
            ("visits".into(), Some(json!(1)), None, "entry"),
            ("welcome".into(), None, Some(true), "auto")
        ]
    );
}

#[test]
fn a_fired_transitions_effects_apply_in_order_before_the_next_state_is_entered() {
    let p = effects_plan();
    let (s, _) = begin(&p);
    let (s, events) = say(&p, &s, "go: yes");
    assert_eq!(s.state_id, "b");
    assert_eq!(value(&s, "tier"), Value::Null, "set, then cleared by null");
    assert!(active(&s, "vip") && active(&s, "done"));
    assert_eq!(value(&s, "visits"), json!(2));
    assert_eq!(value(&s, "done"), json!(true));
    let who: Vec<(String, &str)> = changes(&events).into_iter().map(|c| (c.0, c.3)).collect();
    assert_eq!(
        who,
        [
            ("tier".to_string(), "effect"),
            ("vip".to_string(), "effect"),
            ("tier".to_string(), "effect"),
            ("visits".to_string(), "entry"),
            ("done".to_string(), "entry"),
            ("done".to_string(), "entry"),
        ]
    );
    let moved = events
        .iter()
        .position(|e| matches!(e.what, What::Transition(_)));
    let entered = events
        .iter()
        .position(|e| matches!(e.what, What::Entered { .. }));
    let first_effect = events
        .iter()
        .position(|e| matches!(e.what, What::SessionStateChanged { .. }));
    assert!(moved < first_effect && first_effect < entered);
}

#[test]
fn set_session_state_is_accepted_only_when_the_agent_may_change_it_and_it_fits() {
    let p = plan(json!({"id": "p", "title": "P",
    "states": [{"id": "a", "title": "A", "instructions": "Talk.",
        "transitions": [{"target_state_id": "z", "condition_type": "turn_count_exceeded", "condition_config": {"turns": 99}}]},
        {"id": "z", "title": "Z"}],
    "session_states": [
        {"id": "locked", "type": "number"},
        {"id": "n", "type": "number", "agent_can_change": true},
        {"id": "tags", "type": "enum", "enum_values": ["Roaming", "Data"], "list": true, "agent_can_change": true},
        {"id": "p", "type": "prompt", "prompt": "x", "agent_can_change": true}
    ]}));
    let (s, _) = begin(&p);
    let (s, events) = say(
        &p,
        &s,
        "/state locked 3\n/state n three\n/state p x\n/state tags roaming, fax\n/state ghost 1",
    );
    assert_eq!(
        rejected(&events),
        [
            "did not change locked: the plan does not let the agent change it",
            "did not change n: \"three\" is not a number",
            "did not change p: p is a prompt state: it has no value",
            "did not change tags: \"roaming, fax\" is not a list of one of Roaming, Data",
            "did not change ghost: the plan has no such session state",
        ]
    );
    let (s, _) = say(&p, &s, "/state n 3\n/state tags roaming, data");
    assert_eq!(value(&s, "n"), json!(3));
    assert_eq!(value(&s, "tags"), json!(["Roaming", "Data"]));
    // A JSON list, `add` and a clear, as a language model would send them.
    let actions = [
        Action::SetSessionState {
            session_state: "tags".into(),
            value: Some(Some(json!(["data"]))),
            add: None,
            active: Some(true),
        },
        Action::SetSessionState {
            session_state: "n".into(),
            value: None,
            add: Some(2.into()),
            active: None,
        },
    ];
    let (s, _) = step(&p, &s, "", &actions).unwrap();
    assert_eq!(value(&s, "tags"), json!(["Data"]));
    assert!(active(&s, "tags"));
    assert_eq!(value(&s, "n"), json!(5));
    let clear = [Action::SetSessionState {
        session_state: "n".into(),
        value: Some(None),
        add: None,
        active: None,
    }];
    let (s, _) = step(&p, &s, "", &clear).unwrap();
    assert_eq!(value(&s, "n"), Value::Null);
    let json = serde_json::to_value(&clear[0]).unwrap();
    assert_eq!(
        json,
        json!({"action": "set_session_state", "session_state": "n", "value": null})
    );
}

#[test]
fn a_gated_tool_is_refused_and_not_offered_while_none_of_its_states_is_active() {
    let p = plan(json!({"id": "p", "title": "P",
        "states": [{"id": "a", "title": "A", "instructions": "Help.", "allowed_tools": ["refund", "lookup"],
            "transitions": [{"target_state_id": "z", "condition_type": "tool_result",
                "condition_config": {"tool": "refund", "response_code": "OK"}}]},
            {"id": "z", "title": "Z"}],
        "tools": [{"name": "refund", "response_codes": ["OK"], "available_when": ["verified", "manager"]},
                  {"name": "lookup", "response_codes": ["FOUND"]}],
        "session_states": [{"id": "verified", "agent_can_change": true}, {"id": "manager"}]}));
    let (s, _) = begin(&p);
    assert!(!tool_available(&p, &s, "refund") && tool_available(&p, &s, "lookup"));
    let reply = Simulator.reply_text(&p, &s);
    assert!(
        reply.contains("lookup") && !reply.contains("refund"),
        "{reply}"
    );
    let (s, events) = say(&p, &s, "/tool refund OK");
    assert_eq!(
        rejected(&events),
        ["did not call refund: refund is available only while verified or manager is active"]
    );
    assert_eq!(s.state_id, "a");
    let (s, _) = say(&p, &s, "/activate verified");
    assert!(Simulator.reply_text(&p, &s).contains("refund"));
    let (s, _) = say(&p, &s, "/tool refund OK");
    assert_eq!(s.state_id, "z");
}

#[test]
fn session_state_conditions_compare_as_the_spec_says() {
    let p = with_states(json!([
        {"id": "n", "type": "number"},
        {"id": "tags", "type": "string", "list": true},
        {"id": "tier", "type": "enum", "enum_values": ["gold", "silver"]},
        {"id": "on"}
    ]));
    let (s, _) = begin(&p);
    let holds = |s: &Session, kind: &str, config: Value| {
        let mut q = p.clone();
        std::sync::Arc::make_mut(&mut q.states[0]).transitions[0].condition_type =
            plan_core::ConditionType::from_name(kind);
        std::sync::Arc::make_mut(&mut q.states[0]).transitions[0].condition_config =
            config.as_object().unwrap().clone();
        std::sync::Arc::make_mut(&mut q.states[0]).transitions[0].priority =
            plan_core::plan::Priority(1.0);
        step(&q, s, "", &[]).unwrap().0.state_id == "z"
    };
    // No value: false whatever the operator.
    assert!(!holds(
        &s,
        "session_state_value",
        json!({"session_state": "n", "operator": "neq", "value": 1})
    ));
    let (s, _) = say(&p, &s, "/state n 4\n/state tags a, b\n/state tier GOLD");
    assert!(
        holds(
            &s,
            "session_state_value",
            json!({"session_state": "n", "value": "4"})
        ),
        "operator defaults to eq; coerced"
    );
    assert!(holds(
        &s,
        "session_state_value",
        json!({"session_state": "n", "operator": "gte", "value": 4})
    ));
    assert!(!holds(
        &s,
        "session_state_value",
        json!({"session_state": "n", "operator": "lt", "value": 4})
    ));
    assert!(holds(
        &s,
        "session_state_value",
        json!({"session_state": "tier", "operator": "in", "values": ["Silver", "Gold"]})
    ));
    assert!(holds(
        &s,
        "session_state_value",
        json!({"session_state": "tags", "operator": "contains", "value": "b"})
    ));
    assert!(holds(
        &s,
        "session_state_value",
        json!({"session_state": "tags", "value": ["a", "b"]})
    ));
    assert!(
        !holds(
            &s,
            "session_state_value",
            json!({"session_state": "tags", "value": ["b", "a"]})
        ),
        "the whole list, in order"
    );
    assert!(holds(
        &s,
        "session_state_active",
        json!({"session_state": "on", "negated": true})
    ));
    assert!(!holds(
        &s,
        "session_state_active",
        json!({"session_state": "on"})
    ));
}

#[test]
fn the_prompt_of_a_turn_joins_its_rendered_parts_with_a_blank_line() {
    let p = plan(json!({"id": "p", "title": "P",
        "instructions": "  Base for {{deliverable.name}}.  ",
        "states": [{"id": "a", "title": "A", "instructions": "{{if session.state.n}}n is {{session.state.n}}{{endif}}",
            "tasks": [{"id": "t", "deliverables": [{"key": "name"}]}],
            "transitions": [{"target_state_id": "z"}]}, {"id": "z", "title": "Z"}],
        "session_states": [
            {"id": "second", "type": "prompt", "prompt": "Second.", "agent_can_change": true},
            {"id": "first", "type": "prompt", "prompt": "  ", "agent_can_change": true},
            {"id": "n", "type": "number", "agent_can_change": true}]}));
    let (s, _) = begin(&p);
    assert_eq!(prompt(&p, &s), "Base for .");
    let (s, _) = say(&p, &s, "/activate first\n/activate second\n/state n 2.0");
    assert_eq!(prompt(&p, &s), "Base for .\n\nSecond.\n\nn is 2");
}
