//! The condition builder's changes as typed operations (`condition::change`): every change the
//! builder offers for every condition type leaves a condition the validator finds nothing wrong
//! with, and each keeps what still fits and drops what no longer does.

use plan_core::condition::change::{apply, settings_for, ConditionChange as C, NumberField};
use plan_core::condition::{Combine, ConditionType, NumericOperator, SessionOperator, TurnScope};
use plan_core::{validate, Code, Plan};
use serde_json::{json, Map, Value};

/// A plan with a text, a number, a boolean and an enum key, a tool with codes, a list, a number and
/// a plain session state.
fn plan() -> Plan {
    plan_core::parse_plan(
        r#"{"id": "p", "title": "P",
        "tools": [{"name": "lookup", "response_codes": ["FOUND", "MISSING"]}, {"name": "pay", "response_codes": ["PAID"]}],
        "session_states": [{"id": "vip", "agent_can_change": true}, {"id": "tries", "type": "number"},
                           {"id": "tags", "type": "string", "list": true}],
        "states": [
          {"id": "a", "title": "A", "allowed_tools": ["lookup", "pay"], "tasks": [{"id": "t", "deliverables": [
            {"key": "name"}, {"key": "age", "type": "number"}, {"key": "ok", "type": "boolean"},
            {"key": "topic", "type": "enum", "enum_values": ["billing", "other"]}]}],
           "transitions": [{"target_state_id": "b"}]},
          {"id": "b", "title": "B"}]}"#,
    )
    .unwrap()
}

/// What the validator says of `ty`/`cfg` as the first transition's condition, of the codes a
/// condition's settings can earn.
fn condition_problems(p: &Plan, ty: ConditionType, cfg: &Map<String, Value>) -> Vec<Code> {
    let mut p = p.clone();
    let t = &mut std::sync::Arc::make_mut(&mut p.states[0]).transitions[0];
    t.condition_type = Some(ty);
    t.condition_config = cfg.clone();
    validate(&p)
        .codes()
        .into_iter()
        .filter(|c| {
            [
                Code::InvalidConditionConfig,
                Code::ConditionTypeMismatch,
                Code::UnknownDeliverableKey,
                Code::EnumValueNotAllowed,
                Code::UnknownTool,
                Code::UnknownResponseCode,
                Code::ToolNotAllowed,
                Code::UnknownSessionState,
                Code::SessionValueMismatch,
            ]
            .contains(c)
        })
        .collect()
}

/// The changes the builder offers for a condition of type `ty`.
fn offered(ty: ConditionType) -> Vec<C> {
    use ConditionType as T;
    let num = |field, typed: &str| C::Number {
        field,
        typed: typed.into(),
    };
    let mut changes: Vec<C> = ConditionType::ALL.iter().map(|t| C::Type(*t)).collect();
    changes.extend(match ty {
        T::AllTasksComplete | T::GoalAchieved => vec![],
        T::DeliverableExists => vec![C::Key("age".into()), C::Key("topic".into())],
        T::DeliverableValue => vec![
            C::Key("topic".into()),
            C::Value("other".into()),
            C::Key("age".into()),
            C::Value("42".into()),
            C::Key("ok".into()),
            C::Value("false".into()),
            C::Key("name".into()),
            C::Value("Ann".into()),
        ],
        T::DeliverableValueIn => vec![
            C::Key("topic".into()),
            C::Choice {
                value: "other".into(),
                on: true,
            },
            C::Choice {
                value: "billing".into(),
                on: false,
            },
            C::Key("name".into()),
            C::Choices("Ann, Bo".into()),
        ],
        T::DeliverableValueNumeric => vec![
            C::Key("age".into()),
            C::Operator(NumericOperator::Lt),
            num(NumberField::Value, "18"),
            C::Operator(NumericOperator::Between),
            num(NumberField::Min, "3"),
            num(NumberField::Max, "7.5"),
            num(NumberField::Max, "not a number"),
            C::Operator(NumericOperator::Gte),
        ],
        T::TurnCountExceeded => vec![
            num(NumberField::Turns, "5"),
            C::Scope(TurnScope::Total),
            C::Scope(TurnScope::WithoutProgress),
        ],
        T::VisitCountExceeded => vec![
            num(NumberField::Visits, "4"),
            C::VisitedState(Some("b".into())),
            C::VisitedState(None),
        ],
        T::ToolResult => vec![
            C::Tool("pay".into()),
            C::Tool("lookup".into()),
            C::ResponseCode("MISSING".into()),
            C::Negated(true),
        ],
        T::SessionStateActive => vec![C::SessionState("tags".into()), C::Negated(true)],
        T::SessionStateValue => vec![
            C::SessionState("tries".into()),
            C::SessionValue("3".into()),
            C::SessionOperator(SessionOperator::Gt),
            C::SessionOperator(SessionOperator::In),
            C::SessionValue("1, 2".into()),
            C::SessionOperator(SessionOperator::Eq),
            C::SessionState("tags".into()),
            C::SessionOperator(SessionOperator::Contains),
            C::SessionValue("gold".into()),
        ],
        T::AllOf | T::AnyOf => vec![C::AddChild, C::AddChild, C::RemoveChild(0)],
        T::Compound => vec![C::Combine(Combine::Or), C::AddChild, C::RemoveChild(1)],
    });
    changes
}

#[test]
fn every_change_the_builder_offers_leaves_a_valid_condition_for_every_type() {
    let p = plan();
    for start in ConditionType::ALL {
        // Each change from the type's own start, and the type's changes in a row.
        let own: Vec<C> = offered(start)
            .into_iter()
            .filter(|c| !matches!(c, C::Type(_)))
            .collect();
        let (mut ty, mut cfg) = (start, settings_for(start, None, &p));
        for change in &own {
            apply(&p, &mut ty, &mut cfg, change);
            assert_eq!(ty, start, "{change:?} changed the type");
            assert_eq!(
                condition_problems(&p, ty, &cfg),
                vec![],
                "{start:?} after {change:?}: {cfg:?}"
            );
        }
        for change in offered(start).iter().filter(|c| matches!(c, C::Type(_))) {
            let (mut ty, mut cfg) = (start, cfg.clone());
            apply(&p, &mut ty, &mut cfg, change);
            assert_eq!(
                condition_problems(&p, ty, &cfg),
                vec![],
                "{start:?} then {change:?}: {cfg:?}"
            );
        }
    }
}

#[test]
fn each_change_keeps_what_fits_and_drops_what_does_not() {
    let p = plan();
    let run = |ty: ConditionType, changes: &[C]| {
        let (mut t, mut cfg) = (ty, settings_for(ty, None, &p));
        for c in changes {
            apply(&p, &mut t, &mut cfg, c);
        }
        (t, Value::Object(cfg))
    };
    // `between` takes `min` and `max` for `value`, and gives them back.
    let (_, between) = run(
        ConditionType::DeliverableValueNumeric,
        &[C::Operator(NumericOperator::Between)],
    );
    assert!(between.get("value").is_none() && between["min"] == 0 && between["max"] == 10);
    let (_, back) = run(
        ConditionType::DeliverableValueNumeric,
        &[
            C::Operator(NumericOperator::Between),
            C::Operator(NumericOperator::Lt),
        ],
    );
    assert!(back.get("min").is_none() && back.get("max").is_none() && back["value"] == 0);
    // A key of another type starts its value over; a number typed whole stays whole.
    let (_, value) = run(
        ConditionType::DeliverableValue,
        &[
            C::Key("topic".into()),
            C::Key("age".into()),
            C::Value("42".into()),
        ],
    );
    assert_eq!(value, json!({"key": "age", "value": 42}));
    // Another type keeps the key where it fits.
    let (ty, kept) = run(
        ConditionType::DeliverableExists,
        &[
            C::Key("topic".into()),
            C::Type(ConditionType::DeliverableValueIn),
        ],
    );
    assert_eq!(ty, ConditionType::DeliverableValueIn);
    assert_eq!(kept, json!({"key": "topic", "values": ["billing"]}));
    // A tool brings its first code; counts stay whole and text that is no number changes nothing.
    let (_, tool) = run(ConditionType::ToolResult, &[C::Tool("pay".into())]);
    assert_eq!(tool["response_code"], "PAID");
    let (_, turns) = run(
        ConditionType::TurnCountExceeded,
        &[C::Number {
            field: NumberField::Turns,
            typed: "2.5".into(),
        }],
    );
    assert_eq!(turns["turns"], 3, "not a count: unchanged");
    // A session state comparison: `in` takes a list of the state's type, `eq` one value back.
    let (_, listed) = run(
        ConditionType::SessionStateValue,
        &[
            C::SessionState("tries".into()),
            C::SessionOperator(SessionOperator::In),
            C::SessionValue("1, 2".into()),
        ],
    );
    assert_eq!(listed["values"], json!([1, 2]));
    let (_, single) = run(
        ConditionType::SessionStateValue,
        &[
            C::SessionState("tries".into()),
            C::SessionOperator(SessionOperator::In),
            C::SessionValue("5, 6".into()),
            C::SessionOperator(SessionOperator::Eq),
        ],
    );
    assert_eq!(single["value"], 5);
    assert!(single.get("values").is_none());
    // Children added and removed by place.
    let (_, children) = run(
        ConditionType::AnyOf,
        &[C::AddChild, C::RemoveChild(0), C::RemoveChild(9)],
    );
    assert_eq!(children["conditions"].as_array().unwrap().len(), 1);
}

/// A new condition of a transition starts on its own state's first key (of the type it needs), not
/// on another state's that happens to come first in the plan.
#[test]
fn a_new_condition_starts_on_its_own_states_first_key() {
    let p = plan_core::parse_plan(
        r#"{"id": "pizza", "title": "Pizza", "states": [
          {"id": "greet", "title": "Greet", "tasks": [{"id": "name", "deliverables": [{"key": "name"}]}],
           "transitions": [{"target_state_id": "size"}]},
          {"id": "size", "title": "Size", "tasks": [{"id": "size", "deliverables": [
            {"key": "size", "type": "enum", "enum_values": ["small", "large"]},
            {"key": "slices", "type": "number"}]}],
           "transitions": [{"target_state_id": "done"}]},
          {"id": "done", "title": "Done"}]}"#,
    )
    .unwrap();
    let start = |to: ConditionType, near: Option<&str>| {
        let (mut ty, mut cfg) = (ConditionType::AllTasksComplete, Map::new());
        plan_core::condition::change::apply_in(&p, near, &mut ty, &mut cfg, &C::Type(to));
        cfg
    };
    let value = start(ConditionType::DeliverableValue, Some("size"));
    assert_eq!(value["key"], "size");
    assert_eq!(value["value"], "small");
    assert_eq!(
        start(ConditionType::DeliverableValueNumeric, Some("size"))["key"],
        "slices"
    );
    // Without a state (a rule's condition), the plan's first key.
    assert_eq!(start(ConditionType::DeliverableValue, None)["key"], "name");
}
