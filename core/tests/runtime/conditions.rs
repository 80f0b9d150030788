//! Conditions: every condition type, and composites to any depth.

use super::*;

fn fires(condition_type: &str, config: Value, setup: &[Action]) -> Option<String> {
    let p = plan(
        json!({"id": "p", "title": "P", "settings": {"stuck_turns": 0},
        "tools": [{"name": "check", "response_codes": ["OK", "FAIL"]}],
        "states": [
        {"id": "a", "title": "A", "allowed_tools": ["check"], "tasks": [{"id": "t", "deliverables": [
            {"key": "n", "type": "number", "required": false},
            {"key": "c", "type": "enum", "enum_values": ["billing", "technical", "other"], "required": false},
            {"key": "flag", "type": "boolean", "required": false},
            {"key": "name", "required": false}]}],
         "transitions": [{"target_state_id": "b", "condition_type": condition_type, "condition_config": config}]},
        {"id": "b", "title": "B"}]}),
    );
    let (s, ev) = turn(&p, &begin(&p), "", setup);
    (s.state_id == "b").then(|| moved(&ev).map(|m| m.why.clone()).unwrap_or_default())
}

#[test]
fn every_condition_type_is_evaluated() {
    let n = |x: i64| set("n", json!(x));
    assert_eq!(
        fires(
            "deliverable_exists",
            json!({"key": "name"}),
            &[set("name", json!("Ada"))]
        )
        .as_deref(),
        Some("name is known (Ada)")
    );
    assert_eq!(
        fires("deliverable_exists", json!({"key": "name"}), &[]),
        None
    );
    assert_eq!(
        fires(
            "deliverable_value",
            json!({"key": "c", "value": "Billing"}),
            &[set("c", json!("billing"))]
        )
        .as_deref(),
        Some("c = billing")
    );
    assert_eq!(
        fires(
            "deliverable_value",
            json!({"key": "flag", "value": "yes"}),
            &[set("flag", json!(true))]
        )
        .as_deref(),
        Some("flag = true")
    );
    assert_eq!(
        fires(
            "deliverable_value",
            json!({"key": "c", "value": "billing"}),
            &[set("c", json!("other"))]
        ),
        None
    );
    assert_eq!(
        fires(
            "deliverable_value_in",
            json!({"key": "c", "values": ["billing", "technical"]}),
            &[set("c", json!("technical"))]
        )
        .as_deref(),
        Some("c = technical, one of billing, technical")
    );
    assert_eq!(
        fires(
            "deliverable_value_in",
            json!({"key": "c", "values": ["billing"]}),
            &[set("c", json!("other"))]
        ),
        None
    );
    for (op, value, x, holds) in [
        ("gt", 5, 6, true),
        ("gt", 5, 5, false),
        ("gte", 5, 5, true),
        ("lt", 5, 4, true),
        ("lt", 5, 5, false),
        ("lte", 5, 5, true),
        ("eq", 5, 5, true),
        ("eq", 5, 6, false),
        ("neq", 5, 6, true),
        ("neq", 5, 5, false),
    ] {
        let got = fires(
            "deliverable_value_numeric",
            json!({"key": "n", "operator": op, "value": value}),
            &[n(x)],
        );
        assert_eq!(got.is_some(), holds, "{x} {op} {value}");
    }
    assert_eq!(
        fires(
            "deliverable_value_numeric",
            json!({"key": "n", "operator": "gte", "value": 8}),
            &[n(9)]
        )
        .as_deref(),
        Some("n = 9 ≥ 8")
    );
    let between = |inclusive: bool, x: i64| {
        fires(
            "deliverable_value_numeric",
            json!({"key": "n", "operator": "between", "min": 4, "max": 7, "inclusive": inclusive}),
            &[n(x)],
        )
    };
    assert_eq!(between(true, 4).as_deref(), Some("4 ≤ n = 4 ≤ 7"));
    assert!(between(false, 4).is_none());
    assert!(between(false, 5).is_some());
    assert!(between(true, 8).is_none());
    assert_eq!(
        fires(
            "tool_result",
            json!({"tool": "check", "response_code": "OK"}),
            &[Action::CallTool {
                tool: "check".into(),
                response_code: "OK".into()
            }]
        )
        .as_deref(),
        Some("check returned OK")
    );
    assert_eq!(
        fires(
            "tool_result",
            json!({"tool": "check", "response_code": "OK", "negated": true}),
            &[Action::CallTool {
                tool: "check".into(),
                response_code: "FAIL".into()
            }]
        )
        .as_deref(),
        Some("check returned FAIL, not OK")
    );
    assert_eq!(
        fires(
            "tool_result",
            json!({"tool": "check", "response_code": "OK", "negated": true}),
            &[]
        ),
        None,
        "no call yet: false either way"
    );
    assert_eq!(
        fires(
            "tool_result",
            json!({"tool": "check", "response_code": "OK"}),
            &[]
        ),
        None
    );
    assert_eq!(
        fires("goal_achieved", json!({}), &[set("name", json!("x"))]),
        None,
        "never true outside a goal state"
    );
    assert!(fires(
        "all_tasks_complete",
        json!({}),
        &[Action::Complete {
            task_id: "t".into()
        }]
    )
    .is_some());
    assert_eq!(
        fires(
            "turn_count_exceeded",
            json!({"turns": 1, "scope": "total"}),
            &[]
        )
        .as_deref(),
        Some("1 turn in this state (limit 1)")
    );
}

#[test]
fn composites_are_evaluated_to_any_depth() {
    let tree = json!({"operator": "and", "conditions": [
        {"condition_type": "any_of", "condition_config": {"conditions": [
            {"condition_type": "deliverable_value_numeric", "condition_config": {"key": "n", "operator": "gte", "value": 8}},
            {"condition_type": "all_of", "condition_config": {"conditions": [
                {"condition_type": "deliverable_value", "condition_config": {"key": "c", "value": "billing"}},
                {"condition_type": "deliverable_exists", "condition_config": {"key": "name"}}]}}]}},
        {"condition_type": "compound", "condition_config": {"operator": "or", "conditions": [
            {"condition_type": "deliverable_value", "condition_config": {"key": "flag", "value": true}}]}}]});
    let base = [set("flag", json!(true))];
    assert_eq!(
        fires(
            "compound",
            tree.clone(),
            &[base[0].clone(), set("n", json!(9))]
        )
        .as_deref(),
        Some("n = 9 ≥ 8 and flag = true")
    );
    assert_eq!(
        fires(
            "compound",
            tree.clone(),
            &[
                base[0].clone(),
                set("c", json!("billing")),
                set("name", json!("Ada"))
            ]
        )
        .as_deref(),
        Some("c = billing and name is known (Ada) and flag = true")
    );
    assert_eq!(
        fires(
            "compound",
            tree.clone(),
            &[base[0].clone(), set("c", json!("billing"))]
        ),
        None,
        "the inner all_of is not complete"
    );
    assert_eq!(
        fires("compound", tree, &[set("n", json!(9))]),
        None,
        "the and needs flag"
    );
}
