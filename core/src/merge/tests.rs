//! The merge's rules, each as a base and two edits of it: a clean case and its conflicting twin
//! for every kind of element; then properties over the samples edited at random.

use serde_json::{json, Value};

use super::*;
use crate::parse_plan;

/// A small plan: Intake with a task and two arrows, Billing, Done; a tool, a session state, an
/// interruption, a rule, an evaluation.
fn base() -> Value {
    json!({"id": "support", "title": "Support",
      "start_state_id": "intake",
      "tools": [{"name": "lookup", "response_codes": ["ok", "missing"]}],
      "session_states": [{"id": "upset", "title": "Upset", "type": "boolean"}],
      "interruptions": [{"id": "cancel", "title": "Cancel", "kind": "abandon", "phrases": ["cancel"], "target_state_id": "done"}],
      "evaluations": [{"id": "polite", "question": "Was the agent polite?"}],
      "states": [
        {"id": "intake", "title": "Intake", "type": "loose", "instructions": "Ask what they need.",
         "tasks": [{"id": "ask", "description": "Ask the issue",
           "deliverables": [{"key": "issue", "type": "enum", "description": "The issue", "enum_values": ["billing", "other"]}]}],
         "transitions": [
           {"target_state_id": "billing", "priority": 1, "condition_type": "deliverable_value", "condition_config": {"key": "issue", "value": "billing"}},
           {"target_state_id": "done", "priority": 2}]},
        {"id": "billing", "title": "Billing", "type": "loose", "instructions": "Help with the bill.",
         "transitions": [{"target_state_id": "done", "priority": 1}]},
        {"id": "done", "title": "Done"}],
      "layout": {"intake": {"x": 0.0, "y": 0.0}, "billing": {"x": 300.0, "y": 0.0}, "done": {"x": 600.0, "y": 0.0}}})
}

fn plan(v: &Value) -> Plan {
    parse_plan(&v.to_string()).unwrap_or_else(|e| panic!("{e:?}"))
}

/// `base()` edited by `edit`.
fn edited(edit: impl FnOnce(&mut Value)) -> Value {
    let mut v = base();
    edit(&mut v);
    v
}

/// The merge of two edits of `base()`.
fn merged(ours: &Value, theirs: &Value) -> (Value, Vec<Conflict>) {
    let m = merge(Some(&plan(&base())), &plan(ours), &plan(theirs));
    (serde_json::to_value(&m.plan).unwrap(), m.conflicts)
}

fn paths(conflicts: &[Conflict]) -> Vec<&str> {
    conflicts.iter().map(|c| c.path.as_str()).collect()
}

#[test]
fn different_states_edited_on_each_side_merge_cleanly() {
    let ours = edited(|v| v["states"][1]["title"] = json!("Billing and refunds"));
    let theirs = edited(|v| v["states"][0]["instructions"] = json!("Greet, then ask."));
    let (m, conflicts) = merged(&ours, &theirs);
    assert!(conflicts.is_empty(), "{conflicts:?}");
    assert_eq!(m["states"][1]["title"], "Billing and refunds");
    assert_eq!(m["states"][0]["instructions"], "Greet, then ask.");
}

#[test]
fn different_fields_of_one_state_merge_and_the_same_field_is_a_conflict_keeping_ours() {
    let ours = edited(|v| v["states"][1]["title"] = json!("Bills"));
    let theirs = edited(|v| v["states"][1]["instructions"] = json!("Refund if asked."));
    let (m, conflicts) = merged(&ours, &theirs);
    assert!(conflicts.is_empty());
    assert_eq!(
        (&m["states"][1]["title"], &m["states"][1]["instructions"]),
        (&json!("Bills"), &json!("Refund if asked."))
    );

    let theirs = edited(|v| v["states"][1]["title"] = json!("Payments"));
    let (m, conflicts) = merged(&ours, &theirs);
    assert_eq!(m["states"][1]["title"], "Bills", "ours kept");
    assert_eq!(
        conflicts,
        [Conflict {
            path: "/states/billing/title".into(),
            base: Some(json!("Billing")),
            ours: Some(json!("Bills")),
            theirs: Some(json!("Payments")),
        }]
    );
    assert_eq!(state_of(&conflicts[0].path).as_deref(), Some("billing"));
}

#[test]
fn the_same_change_on_both_sides_is_no_conflict() {
    let both = edited(|v| v["states"][1]["title"] = json!("Bills"));
    let (m, conflicts) = merged(&both, &both);
    assert!(conflicts.is_empty());
    assert_eq!(m["states"][1]["title"], "Bills");
}

#[test]
fn states_added_on_both_sides_are_kept_in_place() {
    let ours = edited(|v| {
        v["states"].as_array_mut().unwrap().insert(
            1,
            json!({"id": "tech", "title": "Tech", "type": "loose", "instructions": "Fix it."}),
        )
    });
    let theirs = edited(|v| {
        v["states"].as_array_mut().unwrap().push(
            json!({"id": "sales", "title": "Sales", "type": "loose", "instructions": "Sell."}),
        )
    });
    let (m, conflicts) = merged(&ours, &theirs);
    assert!(conflicts.is_empty());
    let ids: Vec<&str> = m["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["intake", "tech", "billing", "done", "sales"]);
}

#[test]
fn a_deletion_on_one_side_applies_and_against_a_change_is_a_conflict() {
    let ours = edited(|v| {
        v["states"].as_array_mut().unwrap().remove(1);
        v["states"][0]["transitions"]
            .as_array_mut()
            .unwrap()
            .remove(0);
        v["layout"].as_object_mut().unwrap().remove("billing");
    });
    let (m, conflicts) = merged(&ours, &base());
    assert!(conflicts.is_empty());
    assert_eq!(m["states"].as_array().unwrap().len(), 2);

    let theirs = edited(|v| v["states"][1]["title"] = json!("Payments"));
    let (m, conflicts) = merged(&ours, &theirs);
    assert_eq!(paths(&conflicts), ["/states/billing"]);
    assert_eq!(conflicts[0].ours, None, "ours deleted it");
    assert_eq!(conflicts[0].theirs.as_ref().unwrap()["title"], "Payments");
    assert_eq!(
        m["states"].as_array().unwrap().len(),
        2,
        "ours kept: deleted"
    );
    // The other way round: ours changed it, theirs deleted it; ours keeps it.
    let (m, conflicts) = merged(&theirs, &ours);
    assert_eq!(paths(&conflicts), ["/states/billing"]);
    assert_eq!(m["states"][1]["title"], "Payments");
}

#[test]
fn transitions_merge_by_target_and_their_order_as_a_list_of_names() {
    // Ours changes the first arrow's priority, theirs the second's: both kept.
    let ours = edited(|v| v["states"][0]["transitions"][0]["priority"] = json!(5));
    let theirs = edited(|v| v["states"][0]["transitions"][1]["label"] = json!("anything else"));
    let (m, conflicts) = merged(&ours, &theirs);
    assert!(conflicts.is_empty());
    assert_eq!(m["states"][0]["transitions"][0]["priority"], 5.0);
    assert_eq!(m["states"][0]["transitions"][1]["label"], "anything else");

    // The same arrow's priority, differently: a conflict named by its target.
    let theirs = edited(|v| v["states"][0]["transitions"][0]["priority"] = json!(3));
    let (_, conflicts) = merged(&ours, &theirs);
    assert_eq!(
        paths(&conflicts),
        ["/states/intake/transitions/billing#0/priority"]
    );

    // Reordered on one side: that order; an arrow added on the other is kept too.
    let reordered = edited(|v| {
        v["states"][0]["transitions"]
            .as_array_mut()
            .unwrap()
            .reverse()
    });
    let added = edited(|v| {
        v["states"][0]["transitions"]
            .as_array_mut()
            .unwrap()
            .push(json!({"target_state_id": "billing", "priority": 9}))
    });
    let (m, conflicts) = merged(&reordered, &added);
    assert!(conflicts.is_empty(), "{conflicts:?}");
    let targets: Vec<&str> = m["states"][0]["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["target_state_id"].as_str().unwrap())
        .collect();
    assert_eq!(targets, ["done", "billing", "billing"]);
}

#[test]
fn both_reordering_a_list_differently_is_a_conflict_on_the_list() {
    let ours = edited(|v| v["states"].as_array_mut().unwrap().swap(0, 1));
    let theirs = edited(|v| v["states"].as_array_mut().unwrap().swap(1, 2));
    let (m, conflicts) = merged(&ours, &theirs);
    assert_eq!(paths(&conflicts), ["/states"]);
    assert_eq!(
        conflicts[0].ours,
        Some(json!(["billing", "intake", "done"]))
    );
    assert_eq!(m["states"][0]["id"], "billing", "ours kept");
}

#[test]
fn tasks_deliverables_tools_and_the_rest_merge_by_name() {
    let ours = edited(|v| {
        v["states"][0]["tasks"][0]["deliverables"][0]["description"] = json!("What it is about");
        v["tools"][0]["response_codes"] = json!(["ok", "missing", "locked"]);
        v["session_states"][0]["title"] = json!("Caller upset");
        v["evaluations"][0]["question"] = json!("Was the agent kind?");
    });
    let theirs = edited(|v| {
        v["states"][0]["tasks"][0]["deliverables"][0]["enum_values"] =
            json!(["billing", "other", "tech"]);
        v["tools"][0]["response_codes"] = json!(["ok"]);
        v["interruptions"][0]["phrases"] = json!(["cancel", "stop"]);
        v["evaluations"][0]["question"] = json!("Was the agent brief?");
    });
    let (m, conflicts) = merged(&ours, &theirs);
    assert_eq!(
        paths(&conflicts),
        ["/evaluations/polite/question"],
        "only the question changed on both sides"
    );
    let d = &m["states"][0]["tasks"][0]["deliverables"][0];
    assert_eq!(d["description"], "What it is about");
    assert_eq!(d["enum_values"], json!(["billing", "other", "tech"]));
    assert_eq!(
        m["tools"][0]["response_codes"],
        json!(["ok", "locked"]),
        "words are sets: theirs removed one, ours added one"
    );
    assert_eq!(m["session_states"][0]["title"], "Caller upset");
    assert_eq!(m["interruptions"][0]["phrases"], json!(["cancel", "stop"]));
}

#[test]
fn a_card_moved_on_both_sides_keeps_ours_without_a_conflict() {
    let ours = edited(|v| v["layout"]["billing"] = json!({"x": 320.0, "y": 40.0}));
    let theirs = edited(|v| v["layout"]["billing"] = json!({"x": 280.0, "y": -40.0}));
    let (m, conflicts) = merged(&ours, &theirs);
    assert!(conflicts.is_empty());
    assert_eq!(m["layout"]["billing"]["x"], 320.0);
    let (m, _) = merged(&base(), &theirs);
    assert_eq!(m["layout"]["billing"]["x"], 280.0, "moved on one side only");
}

#[test]
fn without_a_common_ancestor_what_differs_is_a_conflict() {
    let ours = edited(|v| v["title"] = json!("Ours"));
    let theirs = edited(|v| v["title"] = json!("Theirs"));
    let m = merge(None, &plan(&ours), &plan(&theirs));
    assert_eq!(paths(&m.conflicts), ["/title"]);
    assert_eq!(m.plan.title, "Ours");
}

#[test]
fn a_name_with_a_slash_is_escaped_in_the_path() {
    assert_eq!(key::escape("a/b~c"), "a~1b~0c");
    assert_eq!(state_of("/states/a~1b/title").as_deref(), Some("a/b"));
    assert_eq!(state_of("/title"), None);
}
