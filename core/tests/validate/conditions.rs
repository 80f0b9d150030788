//! Twins of the conditions' and tools' codes: targets, keys, types, enum values, goals, tools.

use super::*;

#[test]
fn unknown_target_state() {
    let broken = with(|p| p["states"][0]["transitions"][0]["target_state_id"] = json!("billing"));
    let d = case(
        &broken,
        &base(),
        "unknown-target-state",
        Severity::Error,
        "/states/0/transitions/0/target_state_id",
    );
    assert_eq!(d.location.transition_index, Some(0));
    assert_eq!(
        d.message,
        "Transition 1 of 'Intake' goes to 'billing', but no state has that id. Pick an existing state or create 'billing'."
    );
}

#[test]
fn invalid_condition_config_is_found_at_any_depth() {
    let nested = |inner: Value| {
        with(move |p| {
            p["states"][0]["transitions"] = json!([cond(
                "all_of",
                json!({"conditions": [
                    {"condition_type": "deliverable_exists", "condition_config": {"key": "kind"}},
                    {"condition_type": "any_of", "condition_config": {"conditions": [inner]}}
                ]})
            )])
        })
    };
    let d = case(
        &nested(json!({"condition_type": "deliverable_value_numeric",
            "condition_config": {"key": "score", "operator": "between", "min": 9, "max": 1}})),
        &nested(json!({"condition_type": "deliverable_value_numeric",
            "condition_config": {"key": "score", "operator": "between", "min": 1, "max": 9}})),
        "invalid-condition-config",
        Severity::Error,
        "/states/0/transitions/0/condition_config/conditions/1/condition_config/conditions/0/condition_config/min",
    );
    assert_eq!(d.location.transition_index, Some(0));
    // A missing field points at the (nested) condition object.
    case(
        &nested(json!({"condition_type": "deliverable_value_numeric",
            "condition_config": {"key": "score", "operator": "between", "min": 1}})),
        &nested(
            json!({"condition_type": "deliverable_exists", "condition_config": {"key": "score"}}),
        ),
        "invalid-condition-config",
        Severity::Error,
        "/states/0/transitions/0/condition_config/conditions/1/condition_config/conditions/0",
    );
    // An empty composite, an unknown operator and a bad scope at the top.
    for (config, kind, path) in [
        (
            json!({"conditions": []}),
            "any_of",
            "/condition_config/conditions",
        ),
        (
            json!({"key": "score", "operator": "about", "value": 3}),
            "deliverable_value_numeric",
            "/condition_config/operator",
        ),
        (
            json!({"turns": 3, "scope": "forever"}),
            "turn_count_exceeded",
            "/condition_config/scope",
        ),
        (
            json!({"turns": 0}),
            "turn_count_exceeded",
            "/condition_config/turns",
        ),
        (
            json!({"key": "kind", "value": "billing", "extra": 1}),
            "deliverable_value",
            "/condition_config/extra",
        ),
    ] {
        let broken = with(|p| p["states"][0]["transitions"] = json!([cond(kind, config)]));
        case(
            &broken,
            &base(),
            "invalid-condition-config",
            Severity::Error,
            &format!("/states/0/transitions/0{path}"),
        );
    }
}

#[test]
fn every_broken_sibling_in_a_composite_is_reported() {
    let broken = with(|p| {
        p["states"][0]["transitions"] = json!([cond(
            "any_of",
            json!({"conditions": [
                {"condition_type": "deliverable_exists", "condition_config": {}},
                {"condition_type": "all_of", "condition_config": {"conditions": []}}
            ]})
        )])
    });
    let codes: Vec<String> = report(&broken)
        .iter()
        .map(|d| format!("{} {}", d.code, d.location.path))
        .collect();
    assert_eq!(
        codes,
        [
            "invalid-condition-config /states/0/transitions/0/condition_config/conditions/0",
            "invalid-condition-config /states/0/transitions/0/condition_config/conditions/1/condition_config/conditions",
        ]
    );
}

#[test]
fn unknown_deliverable_key() {
    let broken = with(|p| {
        p["states"][0]["transitions"] = json!([cond("deliverable_exists", json!({"key": "ghost"}))])
    });
    let fixed = with(|p| {
        p["states"][0]["transitions"] = json!([cond("deliverable_exists", json!({"key": "score"}))])
    });
    case(
        &broken,
        &fixed,
        "unknown-deliverable-key",
        Severity::Error,
        "/states/0/transitions/0/condition_config/key",
    );
}

#[test]
fn condition_type_mismatch() {
    let on = |t: Value| with(move |p| p["states"][0]["transitions"] = json!([t]));
    case(
        &on(cond(
            "deliverable_value_numeric",
            json!({"key": "kind", "operator": "gt", "value": 1}),
        )),
        &on(cond(
            "deliverable_value_numeric",
            json!({"key": "score", "operator": "gt", "value": 1}),
        )),
        "condition-type-mismatch",
        Severity::Error,
        "/states/0/transitions/0/condition_config/key",
    );
    case(
        &on(cond(
            "deliverable_value",
            json!({"key": "score", "value": "lots"}),
        )),
        &on(cond(
            "deliverable_value",
            json!({"key": "score", "value": "7"}),
        )),
        "condition-type-mismatch",
        Severity::Error,
        "/states/0/transitions/0/condition_config/value",
    );
    // A non-text value for an enum key is a mismatch, not a value outside the enum.
    let d = report(&on(cond(
        "deliverable_value",
        json!({"key": "kind", "value": 3}),
    )));
    assert_eq!(
        d.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(),
        ["condition-type-mismatch"]
    );
}

#[test]
fn enum_value_not_allowed_and_only_that() {
    let on = |t: Value| with(move |p| p["states"][0]["transitions"] = json!([t]));
    case(
        &on(cond(
            "deliverable_value_in",
            json!({"key": "kind", "values": ["billing", "refund"]}),
        )),
        // Values coerce as recorded ones do: "Billing" is the enum value billing.
        &on(cond(
            "deliverable_value_in",
            json!({"key": "kind", "values": ["Billing", "other"]}),
        )),
        "enum-value-not-allowed",
        Severity::Error,
        "/states/0/transitions/0/condition_config/values/1",
    );
    let d = report(&on(cond(
        "deliverable_value",
        json!({"key": "kind", "value": "refund"}),
    )));
    assert_eq!(
        d.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(),
        ["enum-value-not-allowed"]
    );
}

#[test]
fn goal_missing_without_goal_and_with_empty_objective() {
    let goal_state = |goal: Option<Value>| {
        with(move |p| {
            let mut s = json!({"id": "b", "title": "Done", "type": "goal"});
            if let Some(g) = goal {
                s["goal"] = g;
            }
            p["states"][1] = s;
        })
    };
    let fixed = goal_state(Some(json!({"objective": "Say goodbye"})));
    case(
        &goal_state(None),
        &fixed,
        "goal-missing",
        Severity::Error,
        "/states/1",
    );
    case(
        &goal_state(Some(json!({"objective": " "}))),
        &fixed,
        "goal-missing",
        Severity::Error,
        "/states/1/goal/objective",
    );
}

#[test]
fn goal_on_non_goal_state() {
    let broken = with(|p| p["states"][1]["goal"] = json!({"objective": "x"}));
    case(
        &broken,
        &base(),
        "goal-on-non-goal-state",
        Severity::Error,
        "/states/1/goal",
    );
}

#[test]
fn unknown_tool_in_allowed_tools_and_in_a_condition() {
    let broken = with(|p| p["states"][0]["allowed_tools"] = json!(["lookup", "teleport"]));
    case(
        &broken,
        &base(),
        "unknown-tool",
        Severity::Error,
        "/states/0/allowed_tools/1",
    );
    let in_condition = with(|p| {
        p["states"][0]["transitions"] = json!([cond(
            "tool_result",
            json!({"tool": "teleport", "response_code": "OK"})
        )])
    });
    let fixed = with(|p| {
        p["states"][0]["transitions"] = json!([cond(
            "tool_result",
            json!({"tool": "lookup", "response_code": "FOUND"})
        )])
    });
    case(
        &in_condition,
        &fixed,
        "unknown-tool",
        Severity::Error,
        "/states/0/transitions/0/condition_config/tool",
    );
}

#[test]
fn unknown_response_code() {
    let on = |code: &str| {
        let code = code.to_string();
        with(move |p| {
            p["states"][0]["transitions"] = json!([cond(
                "tool_result",
                json!({"tool": "lookup", "response_code": code, "negated": true})
            )])
        })
    };
    case(
        &on("GONE"),
        &on("MISSING"),
        "unknown-response-code",
        Severity::Error,
        "/states/0/transitions/0/condition_config/response_code",
    );
    // A tool with no declared codes accepts any when called, but a condition can name none.
    let no_codes = with(|p| {
        p["tools"][0] = json!({"name": "lookup"});
        p["states"][0]["transitions"] = json!([cond(
            "tool_result",
            json!({"tool": "lookup", "response_code": "FOUND"})
        )])
    });
    assert!(report(&no_codes)
        .iter()
        .any(|d| d.code.as_str() == "unknown-response-code"));
}

#[test]
fn tool_not_allowed() {
    let condition = cond(
        "tool_result",
        json!({"tool": "lookup", "response_code": "FOUND"}),
    );
    let c2 = condition.clone();
    let broken = with(move |p| {
        p["states"][0]["allowed_tools"] = json!([]);
        p["states"][0]["transitions"] = json!([condition]);
    });
    let fixed = with(move |p| p["states"][0]["transitions"] = json!([c2]));
    case(
        &broken,
        &fixed,
        "tool-not-allowed",
        Severity::Error,
        "/states/0/transitions/0/condition_config/tool",
    );
}

#[test]
fn ending_with_transitions() {
    let broken = with(|p| p["states"][0]["ending"] = json!({"kind": "hang_up"}));
    let fixed = with(|p| p["states"][1]["ending"] = json!({"kind": "hang_up"}));
    case(
        &broken,
        &fixed,
        "ending-with-transitions",
        Severity::Error,
        "/states/0/ending",
    );
}

#[test]
fn goal_state_has_tasks() {
    let goal = |tasks: Value| {
        with(move |p| {
            p["states"][1] = json!({"id": "b", "title": "Done", "type": "goal",
                "goal": {"objective": "o"}, "tasks": tasks});
        })
    };
    case(
        &goal(json!([{"id": "left-over"}])),
        &goal(json!([])),
        "goal-state-has-tasks",
        Severity::Warning,
        "/states/1/tasks",
    );
}
