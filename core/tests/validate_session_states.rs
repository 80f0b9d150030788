//! The session-state codes of `docs/session-states.md` against the validator: for each, a minimal
//! plan that triggers it (code, severity, path) and its fixed twin; and the shape rules (`schema`).

use plan_core::validate::{check_text, validate, Diagnostic, Severity};
use serde_json::{json, Value};

mod twins;
use twins::{case, report};

/// A clean plan with session states: a prompt state switched on by an effect, a counter, a parent
/// with an exclusive child, a gated tool.
fn base() -> Value {
    json!({"id": "p", "title": "P",
    "instructions": "Be kind. {{if isActive session.state.vip}}A VIP.{{endif}}",
    "states": [
      {"id": "a", "title": "Intake", "type": "loose", "instructions": "Ask {{deliverable.name}}.",
       "tasks": [{"id": "t", "deliverables": [{"key": "name"}, {"key": "score", "type": "number"}]}],
       "allowed_tools": ["refund"],
       "on_enter": [{"session_state": "tries", "add": 1}],
       "transitions": [{"target_state_id": "b",
          "condition_type": "session_state_value",
          "condition_config": {"session_state": "tries", "operator": "gte", "value": 1},
          "effects": [{"session_state": "vip", "active": true}, {"session_state": "child", "active": true}]}]},
      {"id": "b", "title": "Done"}],
    "tools": [{"name": "refund", "response_codes": ["OK"], "available_when": ["vip"]}],
    "session_states": [
      {"id": "vip", "type": "prompt", "prompt": "Offer the lounge."},
      {"id": "tries", "type": "number", "value": 0},
      {"id": "mode", "type": "boolean"},
      {"id": "child", "type": "boolean", "parent": "mode", "activation": "exclusive"},
      {"id": "tier", "type": "enum", "enum_values": ["gold", "silver"], "value": "gold",
       "auto_activate": {"condition_type": "deliverable_exists", "condition_config": {"key": "name"}}},
      {"id": "tags", "type": "string", "list": true, "value": ["a"]}
    ]})
}

fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut plan = base();
    f(&mut plan);
    plan
}

fn transition_condition(kind: &str, config: Value) -> Value {
    with(|p| {
        p["states"][0]["transitions"][0]["condition_type"] = json!(kind);
        p["states"][0]["transitions"][0]["condition_config"] = config;
    })
}

#[test]
fn the_base_plan_is_clean() {
    assert_eq!(report(&base()), vec![]);
}

#[test]
fn duplicate_session_state_points_at_the_second_id() {
    let broken = with(|p| p["session_states"][2]["id"] = json!("tries"));
    let fixed = with(|p| p["session_states"][2]["id"] = json!("mode2"));
    // The parent of `child` is gone in both, which is another code.
    case(
        &broken,
        &fixed,
        "duplicate-session-state",
        Severity::Error,
        "/session_states/2/id",
    );
}

/// Evaluations (simulate.md): limited to session states that exist, ids unique, a question asked.
#[test]
fn an_evaluation_limited_to_an_unknown_session_state_points_at_that_entry() {
    let evaluations = |limit: &str| {
        with(|p| {
            p["evaluations"] = json!([
                {"id": "calm", "title": "Calm", "question": "Did the agent stay calm?"},
                {"id": "vip-care", "question": "Was the VIP offered the lounge?",
                 "only_while_active": ["vip", limit]}
            ])
        })
    };
    case(
        &evaluations("vipp"),
        &evaluations("mode"),
        "unknown-session-state",
        Severity::Error,
        "/evaluations/1/only_while_active/1",
    );
}

#[test]
fn two_evaluations_with_one_id_point_at_the_second() {
    let evaluations = |second: &str| {
        with(|p| {
            p["evaluations"] = json!([
                {"id": "calm", "question": "Did the agent stay calm?"},
                {"id": second, "question": "Was the caller greeted?"}
            ])
        })
    };
    case(
        &evaluations("calm"),
        &evaluations("greeted"),
        "duplicate-evaluation",
        Severity::Error,
        "/evaluations/1/id",
    );
}

#[test]
fn an_evaluation_without_a_question_is_refused_at_its_question() {
    let evaluation =
        |question: &str| with(|p| p["evaluations"] = json!([{"id": "calm", "question": question}]));
    case(
        &evaluation("  "),
        &evaluation("Did the agent stay calm?"),
        "empty-evaluation-question",
        Severity::Error,
        "/evaluations/0/question",
    );
}

#[test]
fn an_evaluation_id_that_is_not_a_slug_is_a_shape_problem() {
    let evaluation =
        |id: &str| with(|p| p["evaluations"] = json!([{"id": id, "question": "Calm?"}]));
    case(
        &evaluation("Calm Check"),
        &evaluation("calm-check"),
        "schema",
        Severity::Error,
        "/evaluations/0/id",
    );
}

#[test]
fn unknown_session_state_is_found_in_every_place_that_names_one() {
    let places: Vec<(Value, &str)> = vec![
        (
            transition_condition(
                "session_state_active",
                json!({"session_state": "nope"}),
            ),
            "/states/0/transitions/0/condition_config/session_state",
        ),
        (
            with(|p| p["states"][0]["on_enter"][0]["session_state"] = json!("nope")),
            "/states/0/on_enter/0/session_state",
        ),
        (
            with(|p| {
                p["states"][0]["transitions"][0]["effects"][0]["session_state"] = json!("nope")
            }),
            "/states/0/transitions/0/effects/0/session_state",
        ),
        (
            with(|p| p["states"][0]["instructions"] = json!("{{session.state.nope}}")),
            "/states/0/instructions",
        ),
        (
            with(|p| p["tools"][0]["available_when"][0] = json!("nope")),
            "/tools/0/available_when/0",
        ),
        (
            with(|p| p["session_states"][3]["parent"] = json!("nope")),
            "/session_states/3/parent",
        ),
        (
            with(|p| {
                p["session_states"][4]["auto_activate"] = json!({"condition_type": "any_of", "condition_config": {"conditions": [
                    {"condition_type": "session_state_active", "condition_config": {"session_state": "nope"}}]}})
            }),
            "/session_states/4/auto_activate/condition_config/conditions/0/condition_config/session_state",
        ),
    ];
    for (broken, path) in places {
        let found = report(&broken);
        let hits: Vec<&Diagnostic> = found
            .iter()
            .filter(|d| d.code.as_str() == "unknown-session-state")
            .collect();
        assert_eq!(hits.len(), 1, "{path}: {found:#?}");
        assert_eq!(hits[0].location.path, path);
        assert_eq!(hits[0].severity, Severity::Error);
    }
    assert!(report(&base()).is_empty());
}

#[test]
fn several_initially_active_reports_each_after_the_first() {
    let broken = with(|p| {
        p["session_states"][1]["initially_active"] = json!(true);
        p["session_states"][2]["initially_active"] = json!(true);
    });
    let fixed = with(|p| p["session_states"][1]["initially_active"] = json!(true));
    case(
        &broken,
        &fixed,
        "several-initially-active",
        Severity::Error,
        "/session_states/2/initially_active",
    );
}

#[test]
fn nested_initially_active_is_refused_on_a_nested_state() {
    let broken = with(|p| p["session_states"][3]["initially_active"] = json!(true));
    let fixed = with(|p| p["session_states"][2]["initially_active"] = json!(true));
    case(
        &broken,
        &fixed,
        "nested-initially-active",
        Severity::Error,
        "/session_states/3/initially_active",
    );
}

#[test]
fn session_state_cycle_is_reported_once_per_state_on_the_cycle() {
    let broken = with(|p| p["session_states"][2]["parent"] = json!("child"));
    let found = report(&broken);
    let paths: Vec<&str> = found
        .iter()
        .filter(|d| d.code.as_str() == "session-state-cycle")
        .map(|d| d.location.path.as_str())
        .collect();
    assert_eq!(
        paths,
        ["/session_states/2/parent", "/session_states/3/parent"]
    );
    assert!(report(&base()).is_empty());
    // A state that only leads into a cycle is not on it.
    let lead_in = with(|p| {
        p["session_states"][2]["parent"] = json!("child");
        p["session_states"][5]["parent"] = json!("mode");
    });
    let on_cycle = report(&lead_in)
        .iter()
        .filter(|d| d.code.as_str() == "session-state-cycle")
        .count();
    assert_eq!(on_cycle, 2);
}

#[test]
fn session_value_mismatch_covers_values_changes_and_comparisons() {
    let cases: Vec<(Value, &str)> = vec![
        (
            with(|p| p["session_states"][1]["value"] = json!("many")),
            "/session_states/1/value",
        ),
        (
            with(|p| p["session_states"][4]["value"] = json!("bronze")),
            "/session_states/4/value",
        ),
        (
            with(|p| p["session_states"][5]["value"] = json!("a")),
            "/session_states/5/value",
        ),
        (
            with(|p| p["states"][0]["on_enter"][0] = json!({"session_state": "mode", "add": 1})),
            "/states/0/on_enter/0/add",
        ),
        (
            with(|p| {
                p["states"][0]["transitions"][0]["effects"][0] =
                    json!({"session_state": "vip", "value": "x"})
            }),
            "/states/0/transitions/0/effects/0/value",
        ),
        (
            transition_condition(
                "session_state_value",
                json!({"session_state": "tier", "operator": "gt", "value": 1}),
            ),
            "/states/0/transitions/0/condition_config/operator",
        ),
        (
            transition_condition(
                "session_state_value",
                json!({"session_state": "tags", "operator": "in", "values": ["a"]}),
            ),
            "/states/0/transitions/0/condition_config/operator",
        ),
        (
            transition_condition(
                "session_state_value",
                json!({"session_state": "tier", "operator": "contains", "value": "gold"}),
            ),
            "/states/0/transitions/0/condition_config/operator",
        ),
        (
            transition_condition(
                "session_state_value",
                json!({"session_state": "tier", "operator": "in", "values": ["gold", "bronze"]}),
            ),
            "/states/0/transitions/0/condition_config/values/1",
        ),
        (
            transition_condition(
                "session_state_value",
                json!({"session_state": "tags", "value": "a"}),
            ),
            "/states/0/transitions/0/condition_config/value",
        ),
        (
            transition_condition(
                "session_state_value",
                json!({"session_state": "vip", "value": "a"}),
            ),
            "/states/0/transitions/0/condition_config/session_state",
        ),
    ];
    for (broken, path) in cases {
        let found = report(&broken);
        let hits: Vec<&Diagnostic> = found
            .iter()
            .filter(|d| d.code.as_str() == "session-value-mismatch")
            .collect();
        assert_eq!(hits.len(), 1, "{path}: {found:#?}");
        assert_eq!(hits[0].location.path, path, "{:?}", hits[0]);
    }
    // The fitting twins.
    for fixed in [
        transition_condition(
            "session_state_value",
            json!({"session_state": "tags", "operator": "contains", "value": "b"}),
        ),
        transition_condition(
            "session_state_value",
            json!({"session_state": "tags", "value": ["a", "b"]}),
        ),
        transition_condition(
            "session_state_value",
            json!({"session_state": "tier", "operator": "in", "values": ["GOLD", "silver"]}),
        ),
        transition_condition(
            "session_state_value",
            json!({"session_state": "tries", "operator": "lt", "value": "3"}),
        ),
    ] {
        assert_eq!(report(&fixed), vec![]);
    }
}

#[test]
fn template_syntax_gives_the_line_and_column_inside_the_field() {
    let broken =
        with(|p| p["states"][0]["instructions"] = json!("Ask.\n{{if session.state.vip}}x"));
    let fixed = with(|p| {
        p["states"][0]["instructions"] = json!("Ask.\n{{if session.state.vip}}x{{endif}}")
    });
    let d = case(
        &broken,
        &fixed,
        "template-syntax",
        Severity::Error,
        "/states/0/instructions",
    );
    assert!(d.message.contains("line 2, column 1"), "{}", d.message);
    for (field, text) in [
        ("/instructions", "{{ user.name }}"),
        ("/session_states/0/prompt", "{{else}}"),
    ] {
        let broken = with(|p| *p.pointer_mut(field).unwrap() = json!(text));
        let codes: Vec<&str> = report(&broken).iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["template-syntax"], "{field}");
    }
    let task = with(|p| p["states"][0]["tasks"][0]["instruction"] = json!("{{endif}}"));
    assert_eq!(
        report(&task)[0].location.path,
        "/states/0/tasks/0/instruction"
    );
}

#[test]
fn a_template_naming_an_unknown_key_is_unknown_deliverable_key() {
    let broken = with(|p| p["states"][0]["instructions"] = json!("Ask {{deliverable.nam}}."));
    case(
        &broken,
        &base(),
        "unknown-deliverable-key",
        Severity::Error,
        "/states/0/instructions",
    );
}

#[test]
fn session_state_never_active_when_relied_on_and_nothing_switches_it_on() {
    // `vip` is a prompt state; take away the effect that switches it on.
    let broken = with(|p| {
        p["states"][0]["transitions"][0]["effects"][0] = json!({"session_state": "tries", "add": 1})
    });
    let fixed = with(|p| {
        p["states"][0]["transitions"][0]["effects"][0] =
            json!({"session_state": "tries", "add": 1});
        p["session_states"][0]["agent_can_change"] = json!(true);
    });
    case(
        &broken,
        &fixed,
        "session-state-never-active",
        Severity::Warning,
        "/session_states/0",
    );
    // A parent is switched on with its child: `mode` relied on by isActive, `child` switched on.
    let parent =
        with(|p| p["instructions"] = json!("{{if isActive session.state.mode}}m{{endif}}"));
    assert_eq!(report(&parent), vec![]);
    // Not relied on: a plain boolean nothing switches on is fine.
    let plain = with(|p| p["session_states"][2]["id"] = json!("mode"));
    assert_eq!(report(&plain), vec![]);
}

#[test]
fn shape_problems_of_session_states_and_changes_are_schema() {
    let cases: Vec<(Value, &str)> = vec![
        (
            with(|p| p["session_states"][0]["prompt"] = Value::Null),
            "/session_states/0",
        ),
        (
            with(|p| p["session_states"][0]["value"] = json!("x")),
            "/session_states/0/value",
        ),
        (
            with(|p| p["session_states"][1]["prompt"] = json!("x")),
            "/session_states/1/prompt",
        ),
        (
            with(|p| p["session_states"][4]["enum_values"] = json!([])),
            "/session_states/4/enum_values",
        ),
        (
            with(|p| p["session_states"][1]["enum_values"] = json!(["a"])),
            "/session_states/1/enum_values",
        ),
        (
            with(|p| p["session_states"][1]["id"] = json!("1st")),
            "/session_states/1/id",
        ),
        (
            with(|p| p["states"][0]["on_enter"][0] = json!({"session_state": "tries"})),
            "/states/0/on_enter/0",
        ),
        (
            with(|p| {
                p["states"][0]["on_enter"][0] =
                    json!({"session_state": "tries", "value": 1, "add": 1})
            }),
            "/states/0/on_enter/0/add",
        ),
        (
            with(|p| p["session_states"][1]["colour"] = json!("red")),
            "/session_states/1/colour",
        ),
        (
            with(|p| p["tools"][0]["available"] = json!([])),
            "/tools/0/available",
        ),
    ];
    for (broken, path) in cases {
        let mut broken = broken;
        if let Some(o) = broken["session_states"][0].as_object_mut() {
            if o.get("prompt") == Some(&Value::Null) {
                o.remove("prompt");
            }
        }
        let found = report(&broken);
        assert_eq!(
            found.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(),
            ["schema"],
            "{path}: {found:#?}"
        );
        assert_eq!(found[0].location.path, path);
    }
}

#[test]
fn a_draft_with_shape_problems_reports_them_from_validate_too() {
    let mut plan = plan_core::parse::parse_draft(&base().to_string()).unwrap();
    plan.session_states[1].prompt = Some("x".into());
    let codes: Vec<&str> = validate(&plan)
        .diagnostics
        .iter()
        .map(|d| d.code.as_str())
        .collect();
    assert_eq!(codes, ["schema"]);
}

#[test]
fn the_session_states_sample_plan_is_clean() {
    let text = include_str!("../../plans/account-care.json");
    let (plan, report) = check_text(text);
    assert!(plan.is_some());
    assert_eq!(report.diagnostics, vec![]);
}
