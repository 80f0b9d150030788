//! Importing the flow export format, with the exact export printed in the seed document: four
//! states, tool conditions, the HANGUP ending.

use plan_core::flow_import::{convert, is_flow_export};
use plan_core::plan::{Ending, StateType};
use plan_core::{validate, Check, ConditionType};
use serde_json::Value;

fn export() -> Value {
    serde_json::from_str(include_str!("fixtures/flow-export.json")).unwrap()
}

#[test]
fn the_seed_export_becomes_a_plan_that_says_the_same_thing() {
    let doc = export();
    assert!(is_flow_export(&doc));
    let plan = convert(&doc, "collections").unwrap();
    assert_eq!(
        (plan.id.as_str(), plan.title.as_str()),
        ("collections", "collections")
    );
    assert_eq!(
        plan.start_state_id.as_deref(),
        Some("3b3aeb6f-3f07-4a7d-9e72-29ec1c728179")
    );
    let titles: Vec<&str> = plan.states.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "S1 Begrüßung & Identifikation",
            "S2 Saldo mitteilen & Absicht klären",
            "S3 Ratenplan aushandeln",
            "Verabschiedung"
        ]
    );
    let first = &plan.states[0];
    assert_eq!(first.kind, StateType::Loose);
    assert!(first.instructions.starts_with("Begrüße den Anrufer"));
    assert_eq!(first.allowed_tools, ["verify_customer"]);
    let t = &first.transitions[0];
    assert_eq!(t.target_state_id, "5ea95814-f003-4497-ab48-b7198ff6e4b1");
    assert_eq!((t.label.as_str(), t.priority.0), ("Ausgang 1", 1.0));
    assert_eq!(t.condition_type, Some(ConditionType::ToolResult));
    assert_eq!(
        Check::read(ConditionType::ToolResult, &t.condition_config).unwrap(),
        Check::ToolResult {
            tool: "verify_customer",
            response_code: "CUSTOMER_VERIFIED",
            negated: false
        }
    );
    assert_eq!(plan.states[3].ending, Some(Ending::HangUp {}));
    let classify = plan.tools.iter().find(|t| t.name == "classify").unwrap();
    assert_eq!(classify.response_codes, ["Ratenzahlung gewünscht"]);
    // get_balance is allowed but never named in a condition: declared, with no codes.
    let balance = plan.tools.iter().find(|t| t.name == "get_balance").unwrap();
    assert!(balance.response_codes.is_empty());
    // The imported plan is clean.
    let report = validate(&plan);
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
}

#[test]
fn several_conditions_become_all_of_and_forward_becomes_a_hand_off() {
    let doc: Value = serde_json::from_str(
        r#"{"flow": {"startStateId": "a", "statesOrder": ["a", "f"], "states": {
        "a": {"type": "REGULAR", "name": "A", "stateInstructions": "x", "allowedTools": ["t", "u"],
              "outputsOrder": ["o1", "o2"], "outputs": {
                "o1": {"name": "both", "transitionTo": "f", "conditions": [
                    {"tool": "t", "responseCode": "OK", "isNegated": false},
                    {"tool": "u", "responseCode": "NO", "isNegated": true}]},
                "o2": {"name": "other", "transitionTo": "a", "conditions": [
                    {"tool": "t", "responseCode": "LATER", "isNegated": false}]}}},
        "f": {"type": "FORWARD", "name": "To a person", "stateInstructions": "Bye", "phoneNumber": "+49 30 1"}
    }}}"#,
    )
    .unwrap();
    let plan = convert(&doc, "x").unwrap();
    let a = &plan.states[0];
    assert_eq!(a.transitions[0].condition_type, Some(ConditionType::AllOf));
    assert_eq!(a.transitions[1].priority.0, 2.0);
    assert_eq!(
        plan.states[1].ending,
        Some(Ending::HandOff {
            to: "+49 30 1".into(),
            reason: "To a person".into()
        })
    );
    let t = plan.tools.iter().find(|t| t.name == "t").unwrap();
    assert_eq!(t.response_codes, ["OK", "LATER"]);
}

#[test]
fn an_unknown_state_type_is_named_with_its_place() {
    let doc: Value = serde_json::from_str(
        r#"{"flow": {"statesOrder": ["a"], "states": {"a": {"type": "TELEPORT", "name": "A"}}}}"#,
    )
    .unwrap();
    let err = convert(&doc, "x").unwrap_err();
    assert_eq!(err[0].pointer, "/flow/states/a/type");
}

#[test]
fn an_output_into_a_state_the_flow_does_not_have_is_refused_with_its_place() {
    let mut doc = export();
    let first = doc["flow"]["statesOrder"][0].as_str().unwrap().to_string();
    let state = &mut doc["flow"]["states"][&first];
    let output = state["outputsOrder"][0].as_str().unwrap().to_string();
    state["outputs"][&output]["transitionTo"] = "nowhere".into();
    let err = convert(&doc, "x").unwrap_err();
    assert_eq!(
        err[0].pointer,
        format!("/flow/states/{first}/outputs/{output}/transitionTo")
    );
    assert!(err[0].message.contains("\"nowhere\""), "{}", err[0].message);
    // The fixed twin: the seed's own export converts.
    assert!(convert(&export(), "x").is_ok());
}

#[test]
fn a_flow_that_starts_in_a_state_it_does_not_have_is_refused() {
    let mut doc = export();
    doc["flow"]["startStateId"] = "nowhere".into();
    let err = convert(&doc, "x").unwrap_err();
    assert_eq!(err[0].pointer, "/flow/startStateId");
}
