//! Session states at run time, rule by rule (`docs/session-states.md`): each test runs a small plan
//! with the simulator's commands and checks the values, the flags, the events and the prompt.

use plan_core::parse_plan;
use plan_core::runtime::script::{run, Script};
use plan_core::runtime::*;
use plan_core::Plan;
use serde_json::{json, Value};

mod support;
use support::rejected;

// Effects, rules and the prompt, in a file of their own.
#[path = "session_states/effects.rs"]
mod effects;

static NO_TOOLS: ToolResults = ToolResults::new();

fn plan(v: Value) -> Plan {
    parse_plan(&v.to_string()).unwrap_or_else(|e| panic!("test plan parses: {e:?}"))
}

fn file_ref(p: &Plan) -> PlanRef {
    PlanRef {
        id: p.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    }
}

fn begin(p: &Plan) -> (Session, Vec<Event>) {
    start(p, file_ref(p)).expect("starts")
}

/// One user turn with the simulator's reading of `message`.
fn say(p: &Plan, s: &Session, message: &str) -> (Session, Vec<Event>) {
    let actions = Simulator.actions(p, s, message, &NO_TOOLS);
    step(p, s, message, &actions).unwrap_or_else(|e| panic!("turn runs: {e}"))
}

fn active(s: &Session, id: &str) -> bool {
    s.session_states[id].active
}

fn value(s: &Session, id: &str) -> Value {
    s.session_states[id].value.clone()
}

/// `(id, value?, active?, by)` of each session-state event, in order.
fn changes(events: &[Event]) -> Vec<(String, Option<Value>, Option<bool>, &'static str)> {
    events
        .iter()
        .filter_map(|e| match &e.what {
            What::SessionStateChanged {
                session_state,
                value,
                active,
                by,
            } => Some((session_state.clone(), value.clone(), *active, by.as_str())),
            _ => None,
        })
        .collect()
}

/// A one-state plan (plus an end) whose session states are `states`, all changeable by the agent.
fn with_states(states: Value) -> Plan {
    let mut states = states;
    for s in states.as_array_mut().unwrap() {
        s["agent_can_change"] = json!(true);
    }
    plan(json!({"id": "p", "title": "P",
        "states": [
            {"id": "a", "title": "A", "instructions": "Talk.",
             "transitions": [{"target_state_id": "z", "condition_type": "turn_count_exceeded",
                              "condition_config": {"turns": 99, "scope": "total"}}]},
            {"id": "z", "title": "Z"}],
        "session_states": states}))
}

/// A parent with two exclusive children and an independent one.
fn family() -> Plan {
    with_states(json!([
        {"id": "mode"},
        {"id": "billing", "parent": "mode", "activation": "exclusive"},
        {"id": "technical", "parent": "mode", "activation": "exclusive"},
        {"id": "notes", "parent": "mode"},
        {"id": "deep", "parent": "billing"}
    ]))
}

#[test]
fn the_value_and_the_flag_are_independent() {
    let p = with_states(json!([{"id": "attempts", "type": "number", "value": 2}]));
    let (s, _) = begin(&p);
    assert_eq!(
        (value(&s, "attempts"), active(&s, "attempts")),
        (json!(2), false)
    );
    let (s, _) = say(&p, &s, "/activate attempts");
    assert_eq!(
        (value(&s, "attempts"), active(&s, "attempts")),
        (json!(2), true)
    );
    let (s, _) = say(&p, &s, "/state attempts 5");
    assert_eq!(
        (value(&s, "attempts"), active(&s, "attempts")),
        (json!(5), true)
    );
    let (s, _) = say(&p, &s, "/deactivate attempts");
    assert_eq!(
        (value(&s, "attempts"), active(&s, "attempts")),
        (json!(5), false)
    );
}

#[test]
fn the_start_gives_every_state_its_value_inactive_then_switches_on_the_initially_active_one() {
    let p = with_states(json!([
        {"id": "b", "type": "string"},
        {"id": "a", "type": "enum", "enum_values": ["Gold", "Silver"], "value": "gold", "initially_active": true}
    ]));
    let (s, events) = begin(&p);
    assert_eq!(
        value(&s, "a"),
        json!("Gold"),
        "coerced as a recorded value is"
    );
    assert_eq!(value(&s, "b"), Value::Null);
    assert!(active(&s, "a") && !active(&s, "b"));
    assert_eq!(changes(&events), [("a".into(), None, Some(true), "start")]);
    // The session's JSON holds every declared state, ordered by id.
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(
        json["session_states"],
        json!({"a": {"value": "Gold", "active": true}, "b": {"value": null, "active": false}})
    );
    let back: Session = serde_json::from_value(json).unwrap();
    assert_eq!(back, s);
}

#[test]
fn switching_a_nested_state_on_switches_its_ancestors_on_from_the_top() {
    let p = family();
    let (s, _) = begin(&p);
    let (s, events) = say(&p, &s, "/activate deep");
    assert!(active(&s, "mode") && active(&s, "billing") && active(&s, "deep"));
    assert_eq!(
        changes(&events),
        [
            ("mode".into(), None, Some(true), "cascade"),
            ("billing".into(), None, Some(true), "cascade"),
            ("deep".into(), None, Some(true), "agent"),
        ]
    );
}

#[test]
fn switching_an_exclusive_state_on_switches_off_its_active_exclusive_peers() {
    let p = family();
    let (s, _) = begin(&p);
    let (s, _) = say(&p, &s, "/activate deep\n/activate notes");
    let (s, events) = say(&p, &s, "/activate technical");
    assert!(active(&s, "technical") && !active(&s, "billing") && !active(&s, "deep"));
    assert!(active(&s, "notes"), "an independent peer stays on");
    assert_eq!(
        changes(&events),
        [
            ("technical".into(), None, Some(true), "agent"),
            ("billing".into(), None, Some(false), "cascade"),
            ("deep".into(), None, Some(false), "cascade"),
        ]
    );
}

#[test]
fn switching_a_state_off_switches_off_all_its_descendants() {
    let p = family();
    let (s, _) = begin(&p);
    let (s, _) = say(&p, &s, "/activate deep\n/activate notes");
    let (s, events) = say(&p, &s, "/deactivate mode");
    for id in ["mode", "billing", "notes", "deep"] {
        assert!(!active(&s, id), "{id}");
    }
    assert_eq!(
        changes(&events)[0],
        ("mode".into(), None, Some(false), "agent")
    );
    assert!(changes(&events)[1..].iter().all(|c| c.3 == "cascade"));
}

#[test]
fn switching_a_state_to_what_it_already_is_does_nothing_and_yields_no_event() {
    let p = family();
    let (s, _) = begin(&p);
    let (s, events) = say(&p, &s, "/deactivate billing");
    assert!(changes(&events).is_empty());
    assert_eq!(s.visit.without_progress, 1, "no change is no progress");
    let (s, _) = say(&p, &s, "/activate billing");
    let (_, events) = say(&p, &s, "/activate billing");
    assert!(changes(&events).is_empty());
}

#[test]
fn an_ancestor_switched_on_by_the_cascade_applies_its_own_exclusivity() {
    let p = with_states(json!([
        {"id": "sales", "activation": "exclusive"},
        {"id": "support", "activation": "exclusive"},
        {"id": "refunds", "parent": "support"}
    ]));
    let (s, _) = begin(&p);
    let (s, _) = say(&p, &s, "/activate sales");
    let (s, _) = say(&p, &s, "/activate refunds");
    assert!(active(&s, "support") && active(&s, "refunds"));
    assert!(
        !active(&s, "sales"),
        "support's exclusivity switched sales off"
    );
}

/// A loose state collecting `n`, and auto rules over it.
fn auto_plan(states: Value) -> Plan {
    plan(json!({"id": "p", "title": "P",
        "states": [
            {"id": "a", "title": "A", "type": "loose",
             "tasks": [{"id": "t", "deliverables": [{"key": "n", "type": "number"}, {"key": "m", "type": "number", "required": false}]}],
             "transitions": [{"target_state_id": "z", "condition_type": "session_state_active",
                              "condition_config": {"session_state": "go"}}]},
            {"id": "z", "title": "Z", "instructions": "Bye."}],
        "session_states": states}))
}

#[test]
fn the_auto_rules_run_once_in_plan_order_each_seeing_the_changes_before_it() {
    let p = auto_plan(json!([
        {"id": "second", "auto_activate": {"condition_type": "session_state_active", "condition_config": {"session_state": "first"}}},
        {"id": "first", "auto_activate": {"condition_type": "deliverable_value_numeric", "condition_config": {"key": "m", "operator": "gt", "value": 5}}},
        {"id": "third", "auto_activate": {"condition_type": "session_state_active", "condition_config": {"session_state": "first"}}},
        {"id": "go"}
    ]));
    let (s, _) = begin(&p);
    let (s, events) = say(&p, &s, "m: 9");
    assert!(active(&s, "first") && active(&s, "third"));
    assert!(!active(&s, "second"), "it came before 'first' in the pass");
    assert!(changes(&events).iter().all(|c| c.3 == "auto"));
    let (s, _) = say(&p, &s, "hello");
    assert!(active(&s, "second"), "the next pass sees it");
}

#[test]
fn auto_deactivate_wins_over_auto_activate() {
    let p = auto_plan(json!([
        {"id": "x",
         "auto_activate": {"condition_type": "deliverable_exists", "condition_config": {"key": "m"}},
         "auto_deactivate": {"condition_type": "deliverable_value_numeric", "condition_config": {"key": "m", "operator": "gt", "value": 5}}},
        {"id": "go"}
    ]));
    let (s, _) = begin(&p);
    let (s, _) = say(&p, &s, "m: 3");
    assert!(active(&s, "x"));
    let (s, _) = say(&p, &s, "m: 9");
    assert!(!active(&s, "x"));
}

#[test]
fn the_auto_rules_run_after_auto_completion_and_transitions_see_their_result() {
    let p = auto_plan(json!([
        {"id": "go", "auto_activate": {"condition_type": "all_tasks_complete"}}
    ]));
    let (s, _) = begin(&p);
    let (s, events) = say(&p, &s, "n: 4");
    assert_eq!(
        s.state_id, "z",
        "the task completed, the rule switched go on, the transition fired"
    );
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match &e.what {
            What::TaskCompleted { .. } => "task",
            What::SessionStateChanged { .. } => "auto",
            What::Transition(_) => "move",
            _ => "",
        })
        .filter(|k| !k.is_empty())
        .collect();
    assert_eq!(kinds, ["task", "auto", "move"]);
}

#[test]
fn only_the_agents_changes_are_progress() {
    let p = auto_plan(json!([
        {"id": "flag", "agent_can_change": true},
        {"id": "auto", "auto_activate": {"condition_type": "turn_count_exceeded", "condition_config": {"turns": 1, "scope": "total"}}},
        {"id": "go"}
    ]));
    let (s, _) = begin(&p);
    let (s, events) = say(&p, &s, "hello");
    assert!(active(&s, "auto"), "{events:?}");
    assert_eq!(s.visit.without_progress, 1, "an auto rule is not progress");
    let (s, _) = say(&p, &s, "/activate flag");
    assert_eq!(s.visit.without_progress, 0, "the agent's change is");
}

#[test]
fn events_say_who_changed_a_state_and_the_author_can_set_one() {
    let p = family();
    let (mut s, _) = begin(&p);
    let mut events = Vec::new();
    let preset = Preset {
        value: Some(Some(json!(true))),
        active: Some(true),
    };
    set_by_author(&p, &mut s, "deep", &preset, &mut events).unwrap();
    assert_eq!(
        changes(&events),
        [
            ("deep".into(), Some(json!(true)), None, "author"),
            ("mode".into(), None, Some(true), "cascade"),
            ("billing".into(), None, Some(true), "cascade"),
            ("deep".into(), None, Some(true), "author"),
        ]
    );
    let refused = set_by_author(&p, &mut s, "ghost", &preset, &mut events);
    assert!(refused.is_err());
}

#[test]
fn a_script_presets_session_states_and_expects_them() {
    let p = family();
    let script: Script = serde_json::from_value(json!({
        "start": {"session_states": {"technical": {"active": true}}},
        "turns": [
            {"user": "/activate billing", "expect": {"session_states": {"billing": {"active": true}, "technical": {"active": false}}}},
            {"user": "hello", "expect": {"session_states": {"mode": {"active": false}}}}
        ]}))
    .unwrap();
    let r = run(&p, &Simulator, file_ref(&p), None, &script, &mut |_| Ok(())).unwrap();
    assert_eq!(r.failures.len(), 1, "{:?}", r.failures);
    assert_eq!(r.failures[0].turn, 2);
    assert_eq!(
        r.failures[0].message,
        "expected mode to be inactive, but it is active"
    );
    assert!(r.record.opening.session_states["technical"].active);
    assert!(r.record.turns[0].session_states["billing"].active);
    // An unknown state in a preset is refused before the conversation starts.
    let bad = Start {
        session_states: [("ghost".to_string(), Preset::default())].into(),
        ..Start::default()
    };
    assert_eq!(
        start_from(&p, file_ref(&p), &bad).unwrap_err(),
        RunError::UnknownSessionState("ghost".into())
    );
}

#[test]
fn the_sample_plan_walks_every_rule_it_uses_in_its_saved_cases() {
    let p = plan(serde_json::from_str(include_str!("../../plans/account-care.json")).unwrap());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../plans/tests/account-care");
    let mut records = Vec::new();
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let script: Script =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let r = run(&p, &Simulator, file_ref(&p), None, &script, &mut |_| Ok(())).unwrap();
        assert!(r.failures.is_empty(), "{path:?}: {:?}", r.failures);
        names.push(path);
        records.push(r.record);
    }
    let coverage = plan_core::coverage::Coverage::of_conversations(&p, &records);
    assert_eq!(
        coverage.taken(&p).len(),
        p.transition_count(),
        "{}",
        coverage.summary(&p)
    );
    let by: std::collections::BTreeSet<&str> = records
        .iter()
        .flat_map(|r| {
            r.opening
                .events
                .iter()
                .chain(r.turns.iter().flat_map(|t| t.turn.events.iter()))
        })
        .filter_map(|e| match &e.what {
            What::SessionStateChanged { by, .. } => Some(by.as_str()),
            _ => None,
        })
        .collect();
    for who in [
        "start", "effect", "entry", "agent", "auto", "cascade", "author",
    ] {
        assert!(by.contains(who), "no case changes a state by {who}: {by:?}");
    }
}

#[test]
fn a_comparison_names_changed_session_states_effects_and_entries() {
    use plan_core::diff::{describe, diff};
    let old = plan(serde_json::from_str(include_str!("../../plans/account-care.json")).unwrap());
    let mut new = old.clone();
    new.session_states[1].agent_can_change = true;
    std::sync::Arc::make_mut(&mut new.states[1]).transitions[0]
        .effects
        .clear();
    std::sync::Arc::make_mut(&mut new.states[4])
        .on_enter
        .clear();
    let said: Vec<String> = describe(&diff(&old, &new), &old, &new)
        .into_iter()
        .map(|c| c.text)
        .collect();
    let all = said.join(" | ");
    assert!(all.contains("session states"), "{all}");
    assert!(all.contains("effects on session states"), "{all}");
    assert!(all.contains("changes on entering"), "{all}");
}
