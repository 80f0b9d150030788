//! The validator against the format's diagnostic table: for every code, a minimal plan that
//! triggers it (code, severity and location asserted) and its fixed twin (the code is gone).

use plan_core::validate::{check_text, Severity};
use serde_json::{json, Value};

mod twins;
use twins::{case, report};

// The codes by concern, in files of their own; `base`, `with` and `cond` are theirs too.
#[path = "validate/conditions.rs"]
mod conditions;
#[path = "validate/flow.rs"]
mod flow;

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
        include_str!("validate/conditions.rs"),
        include_str!("validate/flow.rs"),
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
