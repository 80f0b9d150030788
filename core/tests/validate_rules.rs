//! Rules (explore.md, "Rules") against the validator: a plan with one rule of each kind is clean
//! and reads back the same; each thing a rule can get wrong (a state, a tool or a key that does
//! not exist, a field its kind does not use or lacks, an id) is reported with the existing codes at
//! a path under `/rules/N`, beside its fixed twin.

use plan_core::validate::Severity;
use serde_json::{json, Value};

mod twins;
use twins::{case, report};

/// A refund line: identity first, then billing, where the refund tool is; one rule of each kind.
fn base() -> Value {
    json!({"id": "refunds", "title": "Refunds",
    "states": [
      {"id": "identify", "title": "Identify", "type": "strict",
       "tasks": [{"id": "who", "deliverables": [{"key": "verified", "type": "boolean"}]}],
       "transitions": [
         {"target_state_id": "billing", "condition_type": "deliverable_value",
          "condition_config": {"key": "verified", "value": true}},
         {"target_state_id": "goodbye", "condition_type": "deliverable_value",
          "condition_config": {"key": "verified", "value": false}}]},
      {"id": "billing", "title": "Billing", "type": "loose", "allowed_tools": ["issue_refund"],
       "tasks": [{"id": "refund", "deliverables": [{"key": "amount", "type": "number"}]}],
       "transitions": [{"target_state_id": "goodbye"}]},
      {"id": "goodbye", "title": "Goodbye"}],
    "tools": [{"name": "issue_refund", "response_codes": ["REFUNDED"]}],
    "rules": [
      {"id": "verified-before-billing", "title": "Billing only for verified callers",
       "kind": "never_enters_unless", "state_id": "billing",
       "condition": {"condition_type": "deliverable_value",
                     "condition_config": {"key": "verified", "value": true}}},
      {"id": "refund-with-amount", "title": "A refund only with its amount", "kind": "tool_only_when",
       "tool": "issue_refund",
       "condition": {"condition_type": "deliverable_exists", "condition_config": {"key": "amount"}}},
      {"id": "identify-first", "kind": "visits_before",
       "first_state_id": "identify", "then_state_id": "billing"},
      {"id": "billing-reached", "kind": "reaches", "state_id": "billing"},
      {"id": "always-ends", "title": "Every call can end", "kind": "can_always_end"}
    ]})
}

fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut plan = base();
    f(&mut plan);
    plan
}

#[test]
fn a_plan_with_a_rule_of_each_kind_is_clean_and_reads_back_the_same() {
    assert_eq!(report(&base()), vec![]);
    let plan = plan_core::parse::parse_plan(&base().to_string()).expect("reads");
    assert_eq!(plan.rules.len(), 5);
    let again: Value = serde_json::to_value(&plan).unwrap();
    assert_eq!(again["rules"], base()["rules"]);
}

#[test]
fn a_rule_naming_no_state_is_an_unknown_state() {
    let broken = with(|p| p["rules"][0]["state_id"] = json!("refund-desk"));
    case(
        &broken,
        &base(),
        "unknown-state",
        Severity::Error,
        "/rules/0/state_id",
    );
    let broken = with(|p| p["rules"][2]["then_state_id"] = json!("refund-desk"));
    case(
        &broken,
        &base(),
        "unknown-state",
        Severity::Error,
        "/rules/2/then_state_id",
    );
}

#[test]
fn a_rule_naming_no_tool_is_an_unknown_tool() {
    let broken = with(|p| p["rules"][1]["tool"] = json!("refund_everything"));
    case(
        &broken,
        &base(),
        "unknown-tool",
        Severity::Error,
        "/rules/1/tool",
    );
}

#[test]
fn a_rule_whose_condition_reads_no_key_says_so_at_its_condition() {
    let broken = with(|p| p["rules"][0]["condition"]["condition_config"]["key"] = json!("vip"));
    case(
        &broken,
        &base(),
        "unknown-deliverable-key",
        Severity::Error,
        "/rules/0/condition/condition_config/key",
    );
}

#[test]
fn a_rule_with_a_field_its_kind_does_not_use_or_without_one_it_needs_is_a_schema_finding() {
    let extra = with(|p| p["rules"][3]["tool"] = json!("issue_refund"));
    case(&extra, &base(), "schema", Severity::Error, "/rules/3/tool");
    let missing = with(|p| {
        p["rules"][2]
            .as_object_mut()
            .unwrap()
            .remove("first_state_id");
    });
    case(&missing, &base(), "schema", Severity::Error, "/rules/2");
}

#[test]
fn a_rule_id_that_is_not_a_slug_or_is_taken_is_a_schema_finding() {
    let bad = with(|p| p["rules"][4]["id"] = json!("Always Ends"));
    case(&bad, &base(), "schema", Severity::Error, "/rules/4/id");
    let taken = with(|p| p["rules"][4]["id"] = json!("identify-first"));
    case(&taken, &base(), "schema", Severity::Error, "/rules/4/id");
}

#[test]
fn a_rule_of_an_unknown_kind_is_a_schema_finding_at_its_kind() {
    let bad = with(|p| p["rules"][4]["kind"] = json!("always_polite"));
    let found = report(&bad);
    assert!(
        found
            .iter()
            .any(|d| d.code.as_str() == "schema" && d.location.path.starts_with("/rules/4")),
        "{found:?}"
    );
}

#[test]
fn renaming_a_state_rewires_the_rules_that_name_it() {
    use plan_core::edit::{apply, Command};
    let plan = plan_core::parse::parse_plan(&base().to_string()).unwrap();
    let renamed = apply(
        &plan,
        &Command::RenameState {
            from: "billing".into(),
            to: "refund-desk".into(),
        },
    )
    .unwrap()
    .plan;
    assert_eq!(renamed.rules[0].state_id.as_deref(), Some("refund-desk"));
    assert_eq!(
        renamed.rules[2].then_state_id.as_deref(),
        Some("refund-desk")
    );
    assert_eq!(renamed.rules[3].state_id.as_deref(), Some("refund-desk"));
    let report = plan_core::validate::validate(&renamed);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}
