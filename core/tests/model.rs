//! The plan model against the format spec: every seed example reads unchanged, defaults are the
//! spec's, unknown fields are refused where they stand, and a round trip through JSON loses nothing.

use std::path::{Path, PathBuf};

use plan_core::parse::{parse_plan, ProblemKind};
use plan_core::plan::{DeliverableType, Ending, Plan, Priority, Settings, StateType};
use plan_core::ConditionType;
use serde_json::{json, Value};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/seed")
}

fn sample_plans() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../plans");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// A plan holding `states`; the first state's transitions may point at states that do not exist:
/// that is the validator's business, not the model's.
fn plan_with(states: Vec<Value>) -> Value {
    json!({"id": "p", "title": "P", "states": states})
}

fn parse_value(v: &Value) -> Result<Plan, Vec<plan_core::ParseProblem>> {
    parse_plan(&v.to_string())
}

/// Fields that may be left out when written because they equal the spec's default.
fn is_default(field: &str, v: &Value) -> bool {
    match field {
        "description" | "instructions" | "instruction" | "label" | "success_description" => {
            v == &json!("")
        }
        "tasks" | "transitions" | "allowed_tools" | "deliverables" | "tools" | "response_codes" => {
            v == &json!([])
        }
        "required" => v == &json!(true),
        "priority" => v.as_f64() == Some(1.0),
        "condition_config" | "layout" => v == &json!({}),
        "settings" => parse_settings(v) == Settings::default(),
        _ => false,
    }
}

fn is_always_written_default(field: &str, v: &Value) -> bool {
    matches!(
        (field, v.as_str(), v.as_u64()),
        ("schema_version", _, Some(1)) | ("type", Some("loose" | "string"), _)
    )
}

fn parse_settings(v: &Value) -> Settings {
    serde_json::from_value(v.clone()).unwrap()
}

/// Asserts that `written` says exactly what `original` says: the same values (numbers compared as
/// numbers), and nothing dropped but fields equal to their defaults.
fn assert_same_meaning(original: &Value, written: &Value, at: &str) {
    match (original, written) {
        (Value::Object(o), Value::Object(w)) => {
            for (k, wv) in w {
                match o.get(k) {
                    Some(ov) => assert_same_meaning(ov, wv, &format!("{at}/{k}")),
                    // Written always, so a file says its format and each mode or type outright.
                    None => assert!(
                        is_always_written_default(k, wv),
                        "{at}/{k} was added when written: {wv}"
                    ),
                }
            }
            for (k, ov) in o {
                if !w.contains_key(k) {
                    assert!(is_default(k, ov), "{at}/{k} = {ov} was lost when written");
                }
            }
        }
        (Value::Array(o), Value::Array(w)) => {
            assert_eq!(o.len(), w.len(), "{at}: list length changed");
            for (i, (ov, wv)) in o.iter().zip(w).enumerate() {
                assert_same_meaning(ov, wv, &format!("{at}/{i}"));
            }
        }
        (Value::Number(o), Value::Number(w)) => assert_eq!(o.as_f64(), w.as_f64(), "{at}"),
        _ => assert_eq!(original, written, "{at}"),
    }
}

fn assert_round_trip(original: &Value) -> Plan {
    let plan = parse_value(original).unwrap_or_else(|p| panic!("{p:?}"));
    let written = serde_json::to_value(&plan).unwrap();
    assert_same_meaning(original, &written, "");
    let again = parse_value(&written).unwrap();
    assert_eq!(
        plan, again,
        "reading the written plan gave a different plan"
    );
    assert_eq!(
        serde_json::to_value(&again).unwrap(),
        written,
        "writing is not stable"
    );
    plan
}

#[test]
fn every_seed_state_example_reads_unchanged_inside_a_plan() {
    let mut count = 0;
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let example: Value = serde_json::from_str(&read(&path)).unwrap();
        let state = if name.starts_with("state-") {
            example
        } else if name.starts_with("transitions-") {
            let mut s = json!({"id": "s", "title": "S"});
            s["transitions"] = example["transitions"].clone();
            s
        } else {
            json!({"id": "s", "title": "S", "transitions": [example]})
        };
        assert_round_trip(&plan_with(vec![state]));
        count += 1;
    }
    assert_eq!(
        count, 15,
        "the seed has 4 states, 10 transitions and a priority example"
    );
}

#[test]
fn the_seed_complete_state_example_reads_into_the_right_fields() {
    let example: Value =
        serde_json::from_str(&read(&fixtures().join("state-customer-intake.json"))).unwrap();
    let plan = assert_round_trip(&plan_with(vec![example]));
    let state = &plan.states[0];
    assert_eq!(state.kind, StateType::Strict);
    assert_eq!(state.tasks.len(), 2);
    let issue = &state.tasks[1].deliverables[0];
    assert_eq!(issue.kind, DeliverableType::Enum);
    assert_eq!(
        issue.enum_values.as_deref(),
        Some(&["billing".into(), "technical".into(), "general".into()][..])
    );
    assert_eq!(state.transitions[2].priority, Priority(10.0));
    assert_eq!(
        state.transitions[0].condition_type,
        Some(ConditionType::DeliverableValue)
    );
}

#[test]
fn every_sample_plan_loads_round_trips_and_has_a_position_for_every_state() {
    let files = sample_plans();
    assert!(files.len() >= 4, "plans/ holds the four sample plans");
    for path in files {
        let original: Value = serde_json::from_str(&read(&path)).unwrap();
        let plan = assert_round_trip(&original);
        let stem = path.file_stem().unwrap().to_string_lossy();
        assert_eq!(plan.id, stem, "{}: id and file name differ", path.display());
        for state in &plan.states {
            assert!(
                plan.layout.contains_key(&state.id),
                "{}: state {} has no canvas position",
                path.display(),
                state.id
            );
        }
    }
}

#[test]
fn defaults_are_the_specs() {
    let plan = parse_value(&json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "tasks": [{"id": "t", "deliverables": [{"key": "k"}]}],
         "transitions": [{"target_state_id": "g"}]},
        {"id": "g", "title": "G", "type": "goal", "goal": {"objective": "o"},
         "transitions": [{"target_state_id": "e"}]},
        {"id": "e", "title": "E"}
    ]}))
    .unwrap();
    assert_eq!(plan.schema_version, 1);
    assert_eq!(plan.start_state_id(), Some("a"));
    assert_eq!(plan.settings.stuck_turns, 6);
    assert_eq!(plan.settings.max_insights, 25);
    let a = &plan.states[0];
    assert_eq!(a.kind, StateType::Loose);
    assert!(a.tasks[0].required && a.tasks[0].deliverables[0].required);
    assert_eq!(a.tasks[0].deliverables[0].kind, DeliverableType::String);
    assert_eq!(a.transitions[0].priority, Priority(1.0));
    assert_eq!(
        a.transitions[0].condition_type_in(a.kind),
        ConditionType::AllTasksComplete
    );
    let g = &plan.states[1];
    assert_eq!(
        g.transitions[0].condition_type_in(g.kind),
        ConditionType::GoalAchieved
    );
    assert_eq!(a.effective_ending(), None);
    assert_eq!(plan.states[2].effective_ending(), Some(Ending::Complete {}));
}

#[test]
fn every_ending_kind_reads_and_hand_off_needs_a_to() {
    for ending in [
        json!({"kind": "complete"}),
        json!({"kind": "hang_up"}),
        json!({"kind": "hand_off", "to": "+49 30 1234567", "reason": "asked for a person"}),
    ] {
        assert_round_trip(&plan_with(vec![
            json!({"id": "a", "title": "A", "ending": ending}),
        ]));
    }
    let err = parse_value(&plan_with(vec![
        json!({"id": "a", "title": "A", "ending": {"kind": "hand_off", "reason": "x"}}),
    ]))
    .unwrap_err();
    assert_eq!(err[0].kind, ProblemKind::Schema);
    assert_eq!(err[0].pointer, "/states/0/ending");
    assert!(err[0].message.contains("\"to\""), "{}", err[0].message);
}

#[test]
fn unknown_fields_are_refused_and_named() {
    let cases = [
        (
            json!({"id": "p", "title": "P", "states": [], "colour": 1}),
            "/colour",
        ),
        (
            plan_with(vec![json!({"id": "a", "title": "A", "titel": "x"})]),
            "/states/0/titel",
        ),
        (
            plan_with(vec![
                json!({"id": "a", "title": "A", "tasks": [{"id": "t", "optional": true}]}),
            ]),
            "/states/0/tasks/0/optional",
        ),
        (
            plan_with(vec![json!({"id": "a", "title": "A", "tasks": [{"id": "t",
                "deliverables": [{"key": "k", "format": "x"}]}]})]),
            "/states/0/tasks/0/deliverables/0/format",
        ),
        (
            plan_with(vec![json!({"id": "a", "title": "A",
                "transitions": [{"target_state_id": "a", "when": "x"}]})]),
            "/states/0/transitions/0/when",
        ),
        (
            plan_with(vec![
                json!({"id": "a", "title": "A", "ending": {"kind": "complete", "to": "x"}}),
            ]),
            // At the field its kind does not take, not at the ending.
            "/states/0/ending/to",
        ),
        (
            json!({"id": "p", "title": "P", "states": [], "settings": {"stuck": 1}}),
            "/settings/stuck",
        ),
        (
            json!({"id": "p", "title": "P", "states": [], "tools": [{"name": "t", "codes": []}]}),
            "/tools/0/codes",
        ),
        (
            json!({"id": "p", "title": "P", "states": [], "layout": {"a": {"x": 1, "y": 2, "z": 3}}}),
            "/layout/a/z",
        ),
    ];
    for (doc, pointer) in cases {
        let err = parse_value(&doc).unwrap_err();
        assert_eq!(err.len(), 1, "{doc}");
        assert_eq!(err[0].kind, ProblemKind::Schema, "{doc}");
        assert_eq!(err[0].pointer, pointer, "{doc}: {}", err[0].message);
        assert!(
            err[0].message.contains("unknown field"),
            "{}",
            err[0].message
        );
    }
}

#[test]
fn a_wrong_type_is_located_by_its_pointer() {
    let err = parse_value(&plan_with(vec![json!({"id": "a", "title": "A",
        "transitions": [{"target_state_id": "a"}, {"target_state_id": "a", "priority": "high"}]})]))
    .unwrap_err();
    assert_eq!(err[0].pointer, "/states/0/transitions/1/priority");
}

#[test]
fn text_that_is_not_json_is_reported_with_line_and_column() {
    let err = parse_plan("{\n  \"id\": \"p\",\n  \"title\": \n}").unwrap_err();
    assert_eq!(err[0].kind, ProblemKind::InvalidJson);
    assert_eq!(err[0].line_column, Some((4, 1)));
    assert!(err[0]
        .to_string()
        .starts_with("line 4, column 1: not valid JSON"));
}

#[test]
fn unknown_condition_types_are_schema_errors_at_any_depth_other_config_problems_are_not() {
    let top = parse_value(&plan_with(vec![json!({"id": "a", "title": "A",
        "transitions": [{"target_state_id": "a", "condition_type": "sometimes"}]})]))
    .unwrap_err();
    assert_eq!(top[0].pointer, "/states/0/transitions/0/condition_type");

    let nested = parse_value(&plan_with(vec![json!({"id": "a", "title": "A",
    "transitions": [{"target_state_id": "a", "condition_type": "all_of", "condition_config": {
        "conditions": [
            {"condition_type": "deliverable_exists", "condition_config": {"key": "k"}},
            {"condition_type": "any_of", "condition_config": {"conditions": [
                {"condition_type": "sometimes"}
            ]}}
        ]}}]})]))
    .unwrap_err();
    assert_eq!(nested.len(), 1);
    assert_eq!(
        nested[0].pointer,
        "/states/0/transitions/0/condition_config/conditions/1/condition_config/conditions/0/condition_type"
    );

    // A broken config is the validator's to report: the plan still loads.
    assert!(parse_value(&plan_with(vec![json!({"id": "a", "title": "A",
        "transitions": [{"target_state_id": "a", "condition_type": "deliverable_value_numeric",
            "condition_config": {"operator": "roughly", "extra": [1]}}]})]))
    .is_ok());
}

#[test]
fn shape_rules_serde_cannot_express_are_all_reported() {
    let err = parse_value(&json!({"id": "Not A Slug", "title": "P",
        "states": [{"id": "a", "title": "A", "tasks": [{"id": "t", "deliverables": [
            {"key": "2fast"},
            {"key": "e", "type": "enum"},
            {"key": "f", "type": "enum", "enum_values": []},
            {"key": "g", "type": "enum", "enum_values": ["x", "y", "x"]},
            {"key": "h", "type": "string", "enum_values": ["x"]}
        ]}]}],
        "tools": [{"name": "t", "response_codes": ["A", "A"]}, {"name": "t"}]}))
    .unwrap_err();
    let pointers: Vec<&str> = err.iter().map(|p| p.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/id",
            "/states/0/tasks/0/deliverables/0/key",
            "/states/0/tasks/0/deliverables/1",
            "/states/0/tasks/0/deliverables/2/enum_values",
            "/states/0/tasks/0/deliverables/3/enum_values/2",
            "/states/0/tasks/0/deliverables/4/enum_values",
            "/tools/0/response_codes/1",
            "/tools/1/name",
        ]
    );
    assert!(err.iter().all(|p| p.kind == ProblemKind::Schema));
}

#[test]
fn priorities_keep_their_number_form() {
    let plan = assert_round_trip(&plan_with(vec![
        json!({"id": "a", "title": "A", "transitions": [
        {"target_state_id": "a", "priority": 10}, {"target_state_id": "a", "priority": 2.5}]}),
    ]));
    let written = serde_json::to_string(&plan).unwrap();
    assert!(written.contains("\"priority\":10}"), "{written}");
    assert!(written.contains("\"priority\":2.5"), "{written}");
}

#[test]
fn every_sample_plan_validates_without_errors_or_warnings() {
    for path in sample_plans() {
        let report = plan_core::validate(&parse_plan(&read(&path)).unwrap());
        assert!(
            report.diagnostics.is_empty(),
            "{}: {:#?}",
            path.display(),
            report.diagnostics
        );
    }
}
