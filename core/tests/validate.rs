//! The validator against the format's diagnostic table: for every code, a minimal plan that
//! triggers it (code, severity and location asserted) and its fixed twin (the code is gone).

use plan_core::validate::{check_text, Severity};
use serde_json::{json, Value};

mod twins;
use twins::{case, report};

/// A small plan with no findings at all: the base every case breaks in one place.
fn base() -> Value {
    json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "Intake", "type": "strict", "instructions": "Ask.",
         "tasks": [{"id": "t", "deliverables": [
            {"key": "kind", "type": "enum", "enum_values": ["billing", "other"]},
            {"key": "score", "type": "number"}]}],
         "allowed_tools": ["lookup"],
         "transitions": [{"target_state_id": "b"}]},
        {"id": "b", "title": "Done"}
    ], "tools": [{"name": "lookup", "response_codes": ["FOUND", "MISSING"]}]})
}

fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut plan = base();
    f(&mut plan);
    plan
}

fn cond(kind: &str, config: Value) -> Value {
    json!({"target_state_id": "b", "condition_type": kind, "condition_config": config})
}

#[test]
fn the_base_plan_is_clean() {
    assert_eq!(report(&base()), vec![]);
}

#[test]
fn invalid_json_gives_line_and_column() {
    let (plan, r) = check_text("{\"id\": \"p\",\n\"title\": }");
    assert!(plan.is_none());
    let d = &r.diagnostics[0];
    assert_eq!(
        (d.code.as_str(), d.severity),
        ("invalid-json", Severity::Error)
    );
    assert!(d.message.starts_with("Line 2, column 10"), "{}", d.message);
    assert_eq!(check_text(&base().to_string()).1.diagnostics, vec![]);
}

/// A key given twice in one object is refused at its second occurrence (serde would keep the last one: two
/// `target_state_id` on a transition sent the chat to the second); the fixed twin reads clean.
#[test]
fn a_key_given_twice_is_refused_at_its_object() {
    let text = base().to_string().replacen(
        "\"target_state_id\":\"b\"",
        "\"target_state_id\":\"b\",\"target_state_id\":\"a\"",
        1,
    );
    let (plan, r) = check_text(&text);
    assert!(plan.is_none());
    let d = &r.diagnostics[0];
    assert_eq!((d.code.as_str(), d.severity), ("schema", Severity::Error));
    assert_eq!(d.location.path, "/states/0/transitions/0/target_state_id");
    assert_eq!(d.location.state_id.as_deref(), Some("a"));
    assert_eq!(d.location.transition_index, Some(0));
    assert!(
        d.message
            .contains("\"target_state_id\" is given a second time here"),
        "{}",
        d.message
    );
    assert_eq!(check_text(&base().to_string()).1.diagnostics, vec![]);
}

/// The base plan with its first transition's condition `composites` `all_of` groups deep.
fn nested_condition(composites: usize) -> String {
    let mut config = r#"{"conditions":[{"condition_type":"deliverable_exists","condition_config":{"key":"kind"}}]}"#.to_string();
    for _ in 1..composites {
        config = format!(
            r#"{{"conditions":[{{"condition_type":"all_of","condition_config":{config}}}]}}"#
        );
    }
    base().to_string().replacen(
        r#"{"target_state_id":"b"}"#,
        &format!(
            r#"{{"target_state_id":"b","condition_type":"all_of","condition_config":{config}}}"#
        ),
        1,
    )
}

/// Conditions nest to the plans' documented depth (1,000 levels of JSON, about 330 composites),
/// where serde_json alone stopped at 128 (41 composites, "not valid JSON: recursion limit
/// exceeded"); past it the finding says how deep and where.
#[test]
fn conditions_nest_to_the_documented_depth_and_past_it_are_said_too_deep() {
    for composites in [41, 330] {
        let (plan, r) = check_text(&nested_condition(composites));
        assert!(
            plan.is_some(),
            "{composites} composites: {:?}",
            r.diagnostics
        );
        assert_eq!(r.diagnostics, vec![], "{composites} composites");
    }
    let (plan, r) = check_text(&nested_condition(400));
    assert!(plan.is_none());
    let d = &r.diagnostics[0];
    assert_eq!((d.code.as_str(), d.severity), ("schema", Severity::Error));
    assert!(
        d.message
            .contains("nested too deeply (1206 levels; at most 1000)")
            && d.message.starts_with("Line 1, column "),
        "{}",
        d.message
    );
}

/// A plan written as a list (serde reads a struct from its fields in order) is not a plan file.
#[test]
fn a_document_that_is_not_an_object_is_not_a_plan() {
    for text in ["[]", "[\"p\", \"P\"]", "\"plan\"", "12"] {
        let (plan, r) = check_text(text);
        assert!(plan.is_none(), "{text}");
        let d = &r.diagnostics[0];
        assert_eq!(d.code.as_str(), "schema", "{text}");
        assert!(
            d.message.starts_with("A plan is one JSON object"),
            "{}",
            d.message
        );
    }
}

#[test]
fn schema_names_the_bad_value() {
    let broken = with(|p| p["states"][0]["tasks"][0]["required"] = json!("yes"));
    case(
        &broken,
        &base(),
        "schema",
        Severity::Error,
        "/states/0/tasks/0/required",
    );
    let unknown = with(|p| p["states"][1]["colour"] = json!("red"));
    case(
        &unknown,
        &base(),
        "schema",
        Severity::Error,
        "/states/1/colour",
    );
}

/// A schema finding inside a state names the state (and the task, the transition) it is in, as
/// every other finding does, so the canvas badges that card: when the file does not read as a plan
/// (`plan check`, an import) and when a draft holds it (the editor's checks).
#[test]
fn schema_findings_name_the_state_task_and_transition_they_are_in() {
    let located = |plan: &Value| {
        let (_, r) = check_text(&plan.to_string());
        let d = r.diagnostics.into_iter().next().expect("a finding");
        assert_eq!(d.code.as_str(), "schema");
        (
            d.location.state_id,
            d.location.task_id,
            d.location.transition_index,
        )
    };
    let in_task = with(|p| p["states"][0]["tasks"][0]["deliverables"][1]["type"] = json!("numbr"));
    assert_eq!(
        located(&in_task),
        (Some("a".into()), Some("t".into()), None)
    );
    let in_transition = with(|p| p["states"][0]["transitions"][0]["colour"] = json!(1));
    assert_eq!(located(&in_transition), (Some("a".into()), None, Some(0)));
    let in_state = with(|p| p["states"][1]["colour"] = json!("red"));
    assert_eq!(located(&in_state), (Some("b".into()), None, None));
    let in_plan = with(|p| p["colour"] = json!("red"));
    assert_eq!(located(&in_plan), (None, None, None));
    // A draft may hold an enum key without values: found by validation, at its place.
    let draft = with(|p| {
        p["states"][0]["tasks"][0]["deliverables"][0]
            .as_object_mut()
            .unwrap()
            .remove("enum_values");
    });
    let plan = plan_core::parse::parse_draft(&draft.to_string()).expect("a draft reads");
    let d = plan_core::validate(&plan)
        .diagnostics
        .into_iter()
        .find(|d| d.code.as_str() == "schema")
        .expect("the missing values are a schema finding");
    assert_eq!(
        (
            d.location.state_id.as_deref(),
            d.location.task_id.as_deref()
        ),
        (Some("a"), Some("t"))
    );
}

#[test]
fn unsupported_schema_version() {
    let broken = with(|p| p["schema_version"] = json!(2));
    let fixed = with(|p| p["schema_version"] = json!(1));
    case(
        &broken,
        &fixed,
        "unsupported-schema-version",
        Severity::Error,
        "/schema_version",
    );
}

#[test]
fn no_states() {
    let broken = json!({"id": "p", "title": "P", "states": []});
    case(&broken, &base(), "no-states", Severity::Error, "/states");
}

#[test]
fn unknown_start_state() {
    let broken = with(|p| p["start_state_id"] = json!("nowhere"));
    let fixed = with(|p| p["start_state_id"] = json!("a"));
    case(
        &broken,
        &fixed,
        "unknown-start-state",
        Severity::Error,
        "/start_state_id",
    );
    // An unknown start makes reachability unknowable: no unreachable-state then.
    assert!(report(&broken)
        .iter()
        .all(|d| d.code.as_str() != "unreachable-state"));
}

#[test]
fn duplicate_state_id() {
    let broken = with(|p| p["states"][1]["id"] = json!("a"));
    let d = case(
        &broken,
        &base(),
        "duplicate-state-id",
        Severity::Error,
        "/states/1/id",
    );
    assert_eq!(d.location.state_id.as_deref(), Some("a"));
}

#[test]
fn duplicate_task_id() {
    let broken = with(|p| {
        p["states"][0]["tasks"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "t"}))
    });
    let fixed = with(|p| {
        p["states"][0]["tasks"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "t2"}))
    });
    let d = case(
        &broken,
        &fixed,
        "duplicate-task-id",
        Severity::Error,
        "/states/0/tasks/1/id",
    );
    assert_eq!(
        (
            d.location.state_id.as_deref(),
            d.location.task_id.as_deref()
        ),
        (Some("a"), Some("t"))
    );
}

#[test]
fn duplicate_deliverable_key_across_tasks_of_one_state() {
    let broken = with(|p| {
        p["states"][0]["tasks"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "t2", "deliverables": [{"key": "score", "type": "number"}]}))
    });
    let fixed = with(|p| {
        p["states"][0]["tasks"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "t2", "deliverables": [{"key": "score2", "type": "number"}]}))
    });
    let d = case(
        &broken,
        &fixed,
        "duplicate-deliverable-key",
        Severity::Error,
        "/states/0/tasks/1/deliverables/0/key",
    );
    assert_eq!(d.location.task_id.as_deref(), Some("t2"));
}

#[test]
fn deliverable_type_conflict_in_type_and_in_enum_values() {
    let declare = |d: Value| {
        with(move |p| {
            p["states"][1]["tasks"] = json!([{"id": "u", "deliverables": [d]}]);
        })
    };
    let same = declare(json!({"key": "score", "type": "number"}));
    case(
        &declare(json!({"key": "score", "type": "string"})),
        &same,
        "deliverable-type-conflict",
        Severity::Error,
        "/states/1/tasks/0/deliverables/0/type",
    );
    case(
        &declare(json!({"key": "kind", "type": "enum", "enum_values": ["billing"]})),
        &declare(json!({"key": "kind", "type": "enum", "enum_values": ["billing", "other"]})),
        "deliverable-type-conflict",
        Severity::Error,
        "/states/1/tasks/0/deliverables/0/enum_values",
    );
}

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

#[test]
fn empty_state() {
    let broken = with(|p| {
        p["states"][0] = json!({"id": "a", "title": "Intake",
        "transitions": [{"target_state_id": "b"}]})
    });
    let fixed = with(|p| {
        p["states"][0] = json!({"id": "a", "title": "Intake",
        "instructions": "Say hello.", "transitions": [{"target_state_id": "b"}]})
    });
    case(&broken, &fixed, "empty-state", Severity::Info, "/states/0");
}

#[test]
fn diagnostics_come_in_document_order() {
    let broken = with(|p| {
        p["start_state_id"] = json!("zzz");
        p["states"][0]["transitions"][0]["target_state_id"] = json!("x");
        p["states"][1]["goal"] = json!({"objective": "o"});
        p["states"][0]["allowed_tools"] = json!(["nope"]);
    });
    let paths: Vec<String> = report(&broken)
        .iter()
        .map(|d| d.location.path.clone())
        .collect();
    assert_eq!(
        paths,
        [
            "/start_state_id",
            "/states/0/allowed_tools/0",
            "/states/0/transitions/0/target_state_id",
            // With its only way out broken, Intake can no longer reach an end.
            "/states/0",
            "/states/1/goal",
        ]
    );
}

#[test]
fn every_code_of_the_format_is_covered_here() {
    let source = [
        include_str!("validate.rs"),
        include_str!("validate_session_states.rs"),
        include_str!("validate_interruptions.rs"),
    ]
    .concat();
    for code in plan_core::Code::ALL {
        assert!(
            source.contains(&format!("\"{}\"", code.as_str())),
            "no test names {code}"
        );
    }
}

#[test]
fn every_seed_example_is_accepted_as_a_state() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seed");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let example: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let state = if name.starts_with("state-") {
            example
        } else if name.starts_with("transitions-") {
            json!({"id": "s", "title": "S", "transitions": example["transitions"]})
        } else {
            json!({"id": "s", "title": "S", "transitions": [example]})
        };
        let found = report(&json!({"id": "p", "title": "P", "states": [state]}));
        // The examples point at states and keys of plans they are excerpts of; their shape and
        // their conditions' settings are what must be right.
        let wrong: Vec<_> = found
            .iter()
            .filter(|d| {
                matches!(
                    d.code.as_str(),
                    "invalid-json" | "schema" | "invalid-condition-config"
                )
            })
            .collect();
        assert!(wrong.is_empty(), "{name}: {wrong:#?}");
    }
}

#[test]
fn leaves_before_tasks_done() {
    // Intake asks for the kind, then the score; its only route reads the kind, so it leaves as
    // soon as the kind is known and the score is never asked for.
    let two_tasks = |route: Value, more: Option<Value>| {
        with(move |p| {
            p["states"][0]["tasks"] = json!([
                {"id": "kind", "description": "Ask the kind", "deliverables": [
                    {"key": "kind", "type": "enum", "enum_values": ["billing", "other"]}]},
                {"id": "score", "description": "Ask the score", "deliverables": [
                    {"key": "score", "type": "number"}]}
            ]);
            p["states"][0]["transitions"] = json!([route]);
            if let Some(more) = more {
                p["states"][0]["transitions"]
                    .as_array_mut()
                    .unwrap()
                    .push(more);
            }
        })
    };
    let early = cond(
        "deliverable_value",
        json!({"key": "kind", "value": "billing"}),
    );
    let waits = cond(
        "all_of",
        json!({"conditions": [
            {"condition_type": "all_tasks_complete", "condition_config": {}},
            {"condition_type": "deliverable_value", "condition_config": {"key": "kind", "value": "billing"}}
        ]}),
    );
    let d = case(
        &two_tasks(early.clone(), None),
        &two_tasks(waits, None),
        "leaves-before-tasks-done",
        Severity::Warning,
        "/states/0/transitions/0/condition_config",
    );
    assert_eq!(d.location.state_id.as_deref(), Some("a"));
    assert_eq!(d.location.transition_index, Some(0));
    assert!(
        d.message.contains("'kind'") && d.message.contains("'Ask the score'"),
        "{}",
        d.message
    );
    // The same early route beside one that waits for every task is a shortcut the author chose.
    let shortcut = two_tasks(early, Some(json!({"target_state_id": "b", "priority": 2})));
    assert!(report(&shortcut)
        .iter()
        .all(|d| d.code.as_str() != "leaves-before-tasks-done"));
}
