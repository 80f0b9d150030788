//! The interruption codes of `docs/interruptions.md` against the validator: for each, a minimal
//! plan that triggers it (code, severity, path) and its fixed twin; the shape rules (`schema`); and
//! the graph's new edges (a state reached only by an interruption is reachable).

use plan_core::validate::Severity;
use serde_json::{json, Value};

mod twins;
use twins::{case, report};

/// The seed's booking of a viewing, clean: a side question about parking parks the booking and
/// comes back to it, "never mind" drops it, a request for a person takes over anywhere, and the
/// fourth reschedule hands off.
fn base() -> Value {
    json!({"id": "viewing", "title": "Viewing",
    "states": [
      {"id": "booking", "title": "Booking", "type": "strict",
       "tasks": [{"id": "vehicle", "deliverables": [{"key": "vehicle_id"}]},
                 {"id": "date", "deliverables": [{"key": "date"}]}],
       "transitions": [{"target_state_id": "confirm"}]},
      {"id": "confirm", "title": "Confirmation", "type": "strict", "interruptible": false,
       "tasks": [{"id": "ok", "deliverables": [{"key": "confirmed", "type": "boolean"}]}],
       "transitions": [
         {"target_state_id": "done", "condition_type": "deliverable_value",
          "condition_config": {"key": "confirmed", "value": true}},
         {"target_state_id": "person", "priority": 0, "condition_type": "visit_count_exceeded",
          "condition_config": {"state_id": "reschedule", "visits": 3}},
         {"target_state_id": "reschedule", "condition_type": "deliverable_value",
          "condition_config": {"key": "confirmed", "value": false}}]},
      {"id": "reschedule", "title": "Reschedule", "type": "loose",
       "tasks": [{"id": "new_date", "ask_again": true, "deliverables": [{"key": "date"}]}],
       "transitions": [{"target_state_id": "confirm"}]},
      {"id": "parking", "title": "Parking question", "type": "loose",
       "instructions": "Say where visitors park.",
       "transitions": [{"target_state_id": "back"}]},
      {"id": "back", "title": "Back to the booking", "ending": {"kind": "resume"}},
      {"id": "done", "title": "Booked"},
      {"id": "person", "title": "A person", "ending": {"kind": "hand_off", "to": "sales", "reason": "reschedule_cap"}}],
    "interruptions": [
      {"id": "parking-question", "title": "Parking question", "target_state_id": "parking",
       "phrases": ["parking"], "ttl_turns": 3, "only_in": ["booking", "reschedule"]},
      {"id": "never-mind", "kind": "abandon", "target_state_id": "done", "phrases": ["never mind"]},
      {"id": "human", "kind": "preempt", "target_state_id": "person", "priority": 0,
       "phrases": ["a person"],
       "condition": {"condition_type": "deliverable_value",
                     "condition_config": {"key": "confirmed", "value": false}}}
    ]})
}

fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut plan = base();
    f(&mut plan);
    plan
}

fn codes(plan: &Value) -> Vec<String> {
    report(plan)
        .iter()
        .map(|d| d.code.as_str().to_string())
        .collect()
}

#[test]
fn the_base_plan_is_clean_and_states_reached_only_by_interruptions_are_reachable() {
    // Parking, the return point and the person are reached only through interruptions.
    assert_eq!(report(&base()), vec![]);
}

#[test]
fn duplicate_interruption_points_at_the_second_id() {
    let broken = with(|p| p["interruptions"][1]["id"] = json!("parking-question"));
    let fixed = with(|p| p["interruptions"][1]["id"] = json!("cancel"));
    case(
        &broken,
        &fixed,
        "duplicate-interruption",
        Severity::Error,
        "/interruptions/1/id",
    );
}

#[test]
fn an_interruption_to_no_state_is_an_unknown_target() {
    let broken = with(|p| p["interruptions"][1]["target_state_id"] = json!("gone"));
    let fixed = base();
    case(
        &broken,
        &fixed,
        "unknown-target-state",
        Severity::Error,
        "/interruptions/1/target_state_id",
    );
}

#[test]
fn only_in_naming_no_state_is_an_unknown_state() {
    let broken = with(|p| p["interruptions"][0]["only_in"][1] = json!("reschedul"));
    case(
        &broken,
        &base(),
        "unknown-state",
        Severity::Error,
        "/interruptions/0/only_in/1",
    );
}

#[test]
fn a_visit_count_of_no_state_is_an_unknown_state() {
    let broken = with(|p| {
        p["states"][1]["transitions"][1]["condition_config"]["state_id"] = json!("nowhere")
    });
    case(
        &broken,
        &base(),
        "unknown-state",
        Severity::Error,
        "/states/1/transitions/1/condition_config/state_id",
    );
}

#[test]
fn a_visit_count_below_one_is_an_invalid_config() {
    let broken =
        with(|p| p["states"][1]["transitions"][1]["condition_config"]["visits"] = json!(0));
    case(
        &broken,
        &base(),
        "invalid-condition-config",
        Severity::Error,
        "/states/1/transitions/1/condition_config/visits",
    );
}

#[test]
fn an_interruptions_condition_is_checked_like_a_rule() {
    let broken =
        with(|p| p["interruptions"][2]["condition"]["condition_config"]["key"] = json!("confirmd"));
    case(
        &broken,
        &base(),
        "unknown-deliverable-key",
        Severity::Error,
        "/interruptions/2/condition/condition_config/key",
    );
}

#[test]
fn a_return_point_reached_without_a_detour_is_resume_outside_detour() {
    // Booked goes on to the return point: reached with nothing parked, it would just end.
    let broken = with(|p| {
        p["states"][5] = json!({"id": "done", "title": "Booked",
            "transitions": [{"target_state_id": "back"}]});
    });
    let fixed = base();
    case(
        &broken,
        &fixed,
        "resume-outside-detour",
        Severity::Warning,
        "/states/4/ending",
    );
    // A yield interruption's way there does not count.
    assert!(!codes(&fixed).contains(&"resume-outside-detour".to_string()));
}

#[test]
fn a_detour_that_cannot_come_back_is_detour_without_return() {
    let broken = with(|p| p["states"][3]["transitions"][0]["target_state_id"] = json!("done"));
    case(
        &broken,
        &base(),
        "detour-without-return",
        Severity::Warning,
        "/interruptions/0/target_state_id",
    );
}

#[test]
fn a_yield_only_in_a_state_that_cannot_be_interrupted_adds_no_way_in() {
    // Parking can then fire nowhere: the parking state and the return point are unreachable.
    let broken = with(|p| p["interruptions"][0]["only_in"] = json!(["confirm"]));
    let found = codes(&broken);
    assert_eq!(
        found.iter().filter(|c| *c == "unreachable-state").count(),
        2,
        "{found:?}"
    );
    // A preempt takes over there all the same.
    let preempt = with(|p| {
        p["interruptions"][0]["only_in"] = json!(["confirm"]);
        p["interruptions"][0]["kind"] = json!("preempt");
        p["interruptions"][0]["ttl_turns"] = json!(0);
    });
    assert!(!codes(&preempt).contains(&"unreachable-state".to_string()));
}

#[test]
fn shape_rules_of_interruptions_are_schema_errors() {
    for (what, plan, path) in [
        (
            "ttl on an abandon",
            with(|p| p["interruptions"][1]["ttl_turns"] = json!(2)),
            "/interruptions/1/ttl_turns",
        ),
        (
            "a negative ttl",
            with(|p| p["interruptions"][0]["ttl_turns"] = json!(-1)),
            "/interruptions/0/ttl_turns",
        ),
        (
            "an id that is not a slug",
            with(|p| p["interruptions"][0]["id"] = json!("Parking Question")),
            "/interruptions/0/id",
        ),
        (
            "to on a resume ending",
            with(|p| p["states"][4]["ending"] = json!({"kind": "resume", "to": "x"})),
            "/states/4/ending",
        ),
        (
            "an unknown field",
            with(|p| p["interruptions"][0]["ttl"] = json!(3)),
            "/interruptions/0",
        ),
    ] {
        let found = report(&plan);
        assert!(
            found
                .iter()
                .any(|d| d.code.as_str() == "schema" && d.location.path.starts_with(path)),
            "{what}: {found:#?}"
        );
    }
}

#[test]
fn interruptions_read_and_write_back_the_same() {
    let text = serde_json::to_string(&base()).unwrap();
    let plan = plan_core::parse_plan(&text).expect("parses");
    let again: Value = serde_json::to_value(&plan).unwrap();
    let plan2: plan_core::Plan = serde_json::from_value(again.clone()).unwrap();
    assert_eq!(plan, plan2);
    assert_eq!(again["interruptions"], base()["interruptions"]);
    assert_eq!(again["states"][1]["interruptible"], json!(false));
    assert_eq!(again["states"][2]["tasks"][0]["ask_again"], json!(true));
    assert_eq!(again["states"][4]["ending"], json!({"kind": "resume"}));
}
