//! The runtime, rule by rule (`docs/runtime.md`): each test runs a small plan turn by turn and
//! checks the state, the session and the events after each turn.

use plan_core::parse_plan;
use plan_core::runtime::*;
use plan_core::Plan;
use serde_json::{json, Value};

#[path = "../support/mod.rs"]
mod support;
use support::rejected;

/// No tool results: a bare `/tool NAME` returns the tool's first declared code.
static NO_TOOLS: ToolResults = ToolResults::new();

fn plan(v: Value) -> Plan {
    parse_plan(&v.to_string()).unwrap_or_else(|e| panic!("test plan parses: {e:?}"))
}

fn begin(p: &Plan) -> Session {
    let r = PlanRef {
        id: p.id.clone(),
        version: PlanVersion::File,
        content_hash: plan_core::hash::content_hash(p),
    };
    start(p, r).expect("starts").0
}

/// A chat with the simulator on `p`, and its opening turn.
fn simulated(p: &Plan) -> (Chat<'_, Simulator>, plan_core::runtime::Turn) {
    let r = PlanRef {
        id: p.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    Chat::open(p, &Simulator, r).expect("opens")
}

fn turn(p: &Plan, s: &Session, message: &str, actions: &[Action]) -> (Session, Vec<Event>) {
    step(p, s, message, actions).unwrap_or_else(|e| panic!("turn runs: {e}"))
}

fn set(key: &str, value: Value) -> Action {
    Action::Record {
        key: key.into(),
        value,
        quote: None,
    }
}

fn texts(events: &[Event]) -> Vec<&str> {
    events.iter().map(|e| e.text.as_str()).collect()
}

fn moved(events: &[Event]) -> Option<&Move> {
    events.iter().find_map(|e| match &e.what {
        What::Transition(m) => Some(m),
        _ => None,
    })
}

fn task(s: &Session, id: &str) -> TaskStatus {
    s.visit.task(id).expect("task in visit")
}

/// Two loose states: `a` (tasks `t1` collecting `x` (number), `t2` collecting `c` (enum)) and an
/// ending `b`.
fn two_states(kind: &str, transition: Value) -> Plan {
    plan(json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "type": kind, "tasks": [
            {"id": "t1", "deliverables": [{"key": "x", "type": "number"}]},
            {"id": "t2", "required": false, "deliverables": [
                {"key": "c", "type": "enum", "enum_values": ["billing", "technical"]}]}
        ], "transitions": [transition]},
        {"id": "b", "title": "B"}
    ]}))
}

fn goal_plan(transitions: Value) -> Plan {
    plan(json!({"id": "g", "title": "G", "states": [
        {"id": "ask", "title": "Ask", "type": "goal",
         "goal": {"objective": "learn the plan", "deliverables": [
            {"key": "need", "type": "string"},
            {"key": "mood", "type": "enum", "enum_values": ["low", "high"], "required": false}]},
         "transitions": transitions},
        {"id": "next", "title": "Next"},
        {"id": "low", "title": "Low"}
    ]}))
}

mod actions;
mod conditions;
mod endings;
mod progress;
mod simulator;
mod starts;
mod transitions;
