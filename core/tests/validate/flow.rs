//! Twins of the codes only the plan's flow shows: unreachable states, no way to end, shadowed arrows, answers no arrow handles, keys not collected before.

use super::*;

#[test]
fn unreachable_state() {
    let broken = with(|p| {
        p["states"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "c", "title": "Orphan"}))
    });
    let fixed = with(|p| {
        p["states"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "c", "title": "Orphan"}));
        p["states"][0]["transitions"]
            .as_array_mut()
            .unwrap()
            .push(json!({"target_state_id": "c", "priority": 2}));
    });
    let d = case(
        &broken,
        &fixed,
        "unreachable-state",
        Severity::Warning,
        "/states/2",
    );
    assert_eq!(d.location.state_id.as_deref(), Some("c"));
}

#[test]
fn no_way_to_end_is_reported_once_per_trapped_state() {
    let broken = with(|p| {
        p["states"][1] = json!({"id": "b", "title": "Loop 1", "instructions": "x",
            "transitions": [{"target_state_id": "c"}]});
        p["states"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "c", "title": "Loop 2", "instructions": "x",
                "transitions": [{"target_state_id": "b"}]}));
    });
    let found = report(&broken);
    let trapped: Vec<&str> = found
        .iter()
        .filter(|d| d.code.as_str() == "no-way-to-end")
        .map(|d| d.location.path.as_str())
        .collect();
    // Intake leads only into the loop, so it is trapped too.
    assert_eq!(trapped, ["/states/0", "/states/1", "/states/2"]);
    assert!(found.iter().all(|d| d.severity == Severity::Warning));
    let fixed = with(|p| {
        p["states"][1] = json!({"id": "b", "title": "Loop 1", "instructions": "x",
            "transitions": [{"target_state_id": "c"}, {"target_state_id": "d", "priority": 2}]});
        let states = p["states"].as_array_mut().unwrap();
        states.push(json!({"id": "c", "title": "Loop 2", "instructions": "x",
            "transitions": [{"target_state_id": "b"}]}));
        states.push(json!({"id": "d", "title": "End"}));
    });
    assert!(report(&fixed)
        .iter()
        .all(|d| d.code.as_str() != "no-way-to-end"));
}

#[test]
fn a_goal_state_falls_through_and_a_last_goal_state_can_end() {
    let plan = json!({"id": "p", "title": "P", "states": [
        {"id": "g", "title": "Goal", "type": "goal", "goal": {"objective": "o"},
         "transitions": [{"target_state_id": "g"}]},
        {"id": "h", "title": "Last goal", "type": "goal", "goal": {"objective": "o"},
         "transitions": [{"target_state_id": "g"}]}
    ]});
    // g falls through to h; h is last in plan order, so it can end: no trap, nothing unreachable.
    assert_eq!(report(&plan), vec![]);
}

#[test]
fn goal_condition_on_non_goal_state() {
    let broken =
        with(|p| p["states"][0]["transitions"][0]["condition_type"] = json!("goal_achieved"));
    case(
        &broken,
        &base(),
        "goal-condition-on-non-goal-state",
        Severity::Warning,
        "/states/0/transitions/0/condition_type",
    );
}

#[test]
fn shadowed_transition_compares_conditions_after_defaults() {
    let pair = |second: Value| {
        with(move |p| {
            p["states"][0]["transitions"] = json!([
                {"target_state_id": "b", "condition_type": "turn_count_exceeded",
                 "condition_config": {"turns": 3}, "priority": 2},
                second
            ])
        })
    };
    let d = case(
        &pair(
            json!({"target_state_id": "a", "condition_type": "turn_count_exceeded",
            "condition_config": {"turns": 3, "scope": "without_progress"}, "priority": 5}),
        ),
        &pair(
            json!({"target_state_id": "a", "condition_type": "turn_count_exceeded",
            "condition_config": {"turns": 4, "scope": "without_progress"}, "priority": 5}),
        ),
        "shadowed-transition",
        Severity::Warning,
        "/states/0/transitions/1",
    );
    assert_eq!(d.location.transition_index, Some(1));
}

/// Intake routes "billing" on, and "other" nowhere: a caller who says "other" is stuck there.
fn routes(transitions: Value) -> Value {
    with(move |p| p["states"][0]["transitions"] = transitions)
}

#[test]
fn an_answer_no_arrow_handles_is_named_and_an_arrow_or_a_fallback_handles_it() {
    let billing = cond(
        "deliverable_value",
        json!({"key": "kind", "value": "billing"}),
    );
    let other = cond(
        "deliverable_value",
        json!({"key": "kind", "value": "Other"}),
    );
    let d = case(
        &routes(json!([billing])),
        &routes(json!([billing, other])),
        "unhandled-value",
        Severity::Warning,
        "/states/0/tasks/0/deliverables/0",
    );
    assert!(d.message.contains("'other'"), "{}", d.message);
    assert_eq!(d.location.state_id.as_deref(), Some("a"));
    assert_eq!(d.location.task_id.as_deref(), Some("t"));
    // A fallback (all tasks done, the default) handles every answer.
    let fallback = json!({"target_state_id": "b", "priority": 9});
    assert!(report(&routes(json!([billing, fallback])))
        .iter()
        .all(|d| d.code.as_str() != "unhandled-value"));
    // A list that names both, or a check that any value passes, handles both.
    for handles in [
        cond(
            "deliverable_value_in",
            json!({"key": "kind", "values": ["billing", "other"]}),
        ),
        cond("deliverable_exists", json!({"key": "kind"})),
    ] {
        assert!(report(&routes(json!([billing, handles])))
            .iter()
            .all(|d| d.code.as_str() != "unhandled-value"));
    }
}

#[test]
fn an_unhandled_yes_or_no_is_said_in_words_and_an_interruption_on_it_handles_it() {
    let plan = |interruption: Option<Value>| {
        with(|p| {
            p["states"][0]["tasks"][0]["deliverables"] =
                json!([{"key": "confirmed", "type": "boolean"}]);
            p["states"][0]["transitions"] = json!([cond(
                "deliverable_value",
                json!({"key": "confirmed", "value": true})
            )]);
            if let Some(x) = interruption {
                p["interruptions"] = json!([x]);
            }
        })
    };
    let found = report(&plan(None));
    let unhandled: Vec<_> = found
        .iter()
        .filter(|d| d.code.as_str() == "unhandled-value")
        .collect();
    assert_eq!(unhandled.len(), 1, "{found:#?}");
    assert!(
        unhandled[0].message.contains("'no' for confirmed"),
        "{}",
        unhandled[0].message
    );
    // Condition on something else: the answer still goes unhandled.
    let elsewhere = json!({"id": "human", "target_state_id": "b", "kind": "abandon",
        "condition": {"condition_type": "turn_count_exceeded", "condition_config": {"turns": 3}}});
    assert!(report(&plan(Some(elsewhere)))
        .iter()
        .any(|d| d.code.as_str() == "unhandled-value"));
    let on_no = json!({"id": "declined", "target_state_id": "b", "kind": "abandon",
        "condition": {"condition_type": "deliverable_value",
                      "condition_config": {"key": "confirmed", "value": false}}});
    assert!(report(&plan(Some(on_no)))
        .iter()
        .all(|d| d.code.as_str() != "unhandled-value"));
}

/// Intake moves on when the lookup finds the caller, and nowhere when it does not: a call that
/// answers MISSING leaves the conversation where it is.
#[test]
fn a_tool_code_no_arrow_reads_is_named_and_an_arrow_a_negation_or_a_fallback_handles_it() {
    let found = cond(
        "tool_result",
        json!({"tool": "lookup", "response_code": "FOUND"}),
    );
    let missing = cond(
        "tool_result",
        json!({"tool": "lookup", "response_code": "MISSING"}),
    );
    let d = case(
        &routes(json!([found])),
        &routes(json!([found, missing])),
        "unhandled-response-code",
        Severity::Warning,
        "/states/0/transitions/0",
    );
    assert!(
        d.message.contains("lookup tool answers MISSING") && d.message.contains("'Intake'"),
        "{}",
        d.message
    );
    assert_eq!(d.location.transition_index, Some(0));
    let quiet = |transitions: Value| {
        report(&routes(transitions))
            .iter()
            .all(|d| d.code.as_str() != "unhandled-response-code")
    };
    // "Not FOUND" handles every other code; a fallback every answer.
    let not_found = cond(
        "tool_result",
        json!({"tool": "lookup", "response_code": "FOUND", "negated": true}),
    );
    assert!(quiet(json!([found, not_found])));
    assert!(quiet(
        json!([found, {"target_state_id": "b", "priority": 9}])
    ));
    // A state whose arrows read no code of the tool is not judged on its codes.
    assert!(quiet(json!([cond(
        "turn_count_exceeded",
        json!({"turns": 2})
    )])));
}

/// Three-valued: an arrow that needs "billing" and something else can still fire for billing; an
/// arrow that needs "billing" and "other" at once fires for neither.
#[test]
fn an_answer_is_unhandled_only_where_every_arrow_is_false_whatever_else_holds() {
    let and = |a: Value, b: Value| {
        json!({"target_state_id": "b", "condition_type": "all_of",
               "condition_config": {"conditions": [a, b]}})
    };
    let leaf =
        |kind: &str, config: Value| json!({"condition_type": kind, "condition_config": config});
    let billing = leaf(
        "deliverable_value",
        json!({"key": "kind", "value": "billing"}),
    );
    let other = leaf(
        "deliverable_value",
        json!({"key": "kind", "value": "other"}),
    );
    let later = leaf("turn_count_exceeded", json!({"turns": 2}));
    let count = |transitions: Value| {
        report(&routes(transitions))
            .iter()
            .filter(|d| d.code.as_str() == "unhandled-value")
            .count()
    };
    assert_eq!(
        count(json!([
            and(billing.clone(), later.clone()),
            and(other.clone(), later)
        ])),
        0
    );
    assert_eq!(count(json!([and(billing, other)])), 2);
}

#[test]
fn key_not_collected_before() {
    // Done reads "kind", which only Intake collects: fine, Intake leads to Done.
    let reads = |collector_first: bool| {
        with(move |p| {
            let done = json!({"id": "b", "title": "Done", "instructions": "x",
                "transitions": [cond("deliverable_exists", json!({"key": "kind"}))]});
            let end = json!({"id": "c", "title": "End"});
            p["states"][1] = done;
            p["states"].as_array_mut().unwrap().push(end);
            p["states"][1]["transitions"][0]["target_state_id"] = json!("c");
            if !collector_first {
                // Start in Done: nothing leads into it from Intake any more.
                p["start_state_id"] = json!("b");
                p["states"][0]["transitions"][0]["target_state_id"] = json!("c");
                p["states"][1]["transitions"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"target_state_id": "a", "priority": 2}));
            }
        })
    };
    let found = report(&reads(true));
    assert!(
        found
            .iter()
            .all(|d| d.code.as_str() != "key-not-collected-before"),
        "{found:#?}"
    );
    let d = report(&reads(false))
        .into_iter()
        .find(|d| d.code.as_str() == "key-not-collected-before")
        .expect("Done reads kind before anyone collects it");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(
        d.location.path,
        "/states/1/transitions/0/condition_config/key"
    );
}
