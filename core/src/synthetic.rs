//! Synthetic plans of any size, for benchmarks and load tests: deterministic (same size, same
//! plan), plan-like (three tasks with a deliverable each, three transitions per state, composite
//! conditions, loops back), and clean: they validate with no errors.

use std::collections::BTreeMap;

use serde_json::json;

use crate::edit::Command;
use crate::plan::{Plan, Position};

/// A plan of `states` states laid out on a grid; each state has 3 tasks and up to 3 transitions
/// (forward, a composite or numeric branch, and every fifth state a loop back), and the last state ends.
pub fn plan(states: usize) -> Plan {
    let states = states.max(1);
    let mut list = Vec::with_capacity(states);
    let mut layout = BTreeMap::new();
    for i in 0..states {
        let id = format!("s{i}");
        let tasks: Vec<_> = (0..3)
            .map(|t| {
                let deliverable = match t {
                    0 => json!({"key": format!("topic_{i}"), "type": "enum",
                                "enum_values": ["billing", "technical", "general"],
                                "description": "What the request is about"}),
                    1 => json!({"key": format!("score_{i}"), "type": "number",
                                "description": "A rating from 0 to 10"}),
                    _ => json!({"key": format!("note_{i}"), "type": "string", "required": false}),
                };
                json!({"id": format!("t{t}"), "description": format!("Task {t} of state {i}"),
                       "instruction": "Ask for it politely", "deliverables": [deliverable]})
            })
            .collect();
        let mut transitions = Vec::new();
        if i + 1 < states {
            transitions.push(json!({"target_state_id": format!("s{}", i + 1),
                "condition_type": "all_tasks_complete", "priority": 10}));
        }
        if i + 2 < states {
            let condition = if i % 2 == 0 {
                json!({"condition_type": "any_of", "condition_config": {"conditions": [
                    {"condition_type": "deliverable_value",
                     "condition_config": {"key": format!("topic_{i}"), "value": "billing"}},
                    {"condition_type": "all_of", "condition_config": {"conditions": [
                        {"condition_type": "deliverable_exists", "condition_config": {"key": format!("note_{i}")}},
                        {"condition_type": "deliverable_value_numeric",
                         "condition_config": {"key": format!("score_{i}"), "operator": "between", "min": 4, "max": 7}}
                    ]}}
                ]}})
            } else {
                json!({"condition_type": "deliverable_value_numeric",
                       "condition_config": {"key": format!("score_{i}"), "operator": "gte", "value": 8}})
            };
            let mut t = json!({"target_state_id": format!("s{}", i + 2), "priority": 1});
            t["condition_type"] = condition["condition_type"].clone();
            t["condition_config"] = condition["condition_config"].clone();
            transitions.push(t);
        }
        if i >= 5 && i % 5 == 0 && i + 1 < states {
            transitions.push(json!({"target_state_id": format!("s{}", i - 5),
                "condition_type": "turn_count_exceeded",
                "condition_config": {"turns": 3, "scope": "without_progress"}, "priority": 5}));
        }
        list.push(json!({"id": id, "title": format!("State {i}"),
            "type": if i % 3 == 0 { "strict" } else { "loose" },
            "instructions": "Help the customer.", "tasks": tasks, "transitions": transitions}));
        layout.insert(
            id,
            Position {
                x: (i % 40) as f64 * 440.0,
                y: (i / 40) as f64 * 170.0,
            },
        );
    }
    let doc = json!({"id": format!("synthetic-{states}"), "title": format!("Synthetic plan of {states} states"),
        "states": list});
    let mut plan: Plan = serde_json::from_value(doc).expect("the synthetic plan is well formed");
    plan.layout = layout;
    plan
}

/// [`plan`] with `count` session states (docs/session-states.md) and a template in every state's
/// instructions: a quarter prompt states nested in groups of exclusive peers, a quarter number
/// counters, the rest booleans with an automatic rule each (on when the previous one is, off when
/// a key is known), one initially active; transitions that switch them.
pub fn with_session_states(states: usize, count: usize) -> Plan {
    let mut p = plan(states);
    let count = count.max(1);
    let mut list = Vec::with_capacity(count);
    for k in 0..count {
        let id = format!("ss{k}");
        let st = match k % 4 {
            0 => json!({"id": id, "type": "boolean", "initially_active": k == 0}),
            1 => json!({"id": id, "type": "prompt", "parent": format!("ss{}", k - 1),
                        "activation": "exclusive",
                        "prompt": format!("Mode {k}.{{{{if isActive session.state.ss{}}}}} Counting {{{{session.state.ss{}}}}}.{{{{endif}}}}", k + 1, k + 1)}),
            2 => json!({"id": id, "type": "number", "value": 0, "agent_can_change": true}),
            _ => json!({"id": id, "type": "boolean",
                "auto_activate": {"condition_type": "session_state_active",
                                  "condition_config": {"session_state": format!("ss{}", k - 3)}},
                "auto_deactivate": {"condition_type": "deliverable_exists",
                                    "condition_config": {"key": format!("note_{}", k % states)}}}),
        };
        list.push(st);
    }
    p.session_states = serde_json::from_value(serde_json::Value::Array(list))
        .expect("the synthetic session states are well formed");
    p.instructions =
        "You are a helpful agent.{{if isActive session.state.ss0}} Session ss0 is on.{{endif}}"
            .into();
    for (i, state) in p.states_mut().enumerate() {
        let k = (i * 4) % count;
        state.instructions = format!(
            "Help the customer with {{{{deliverable.topic_{i}}}}}.{{{{if isActive session.state.ss{k}}}}} Mode ss{k} is on.{{{{else}}}} Ask first.{{{{endif}}}}"
        );
        if let Some(t) = state.transitions.first_mut() {
            let prompt = (i * 4 + 1) % count;
            let prompt = prompt - prompt % 4 + 1;
            if prompt < count {
                t.effects = serde_json::from_value(
                    json!([{"session_state": format!("ss{prompt}"), "active": true}]),
                )
                .expect("a change");
            }
        }
    }
    p
}

/// [`plan`] with `count` interruptions that may each fire in every state (a fan-in from all of
/// them): side questions that go to a return point, and every third one a "never mind" to the
/// last state; every fifth fires by a condition on the first state's note, the others by a phrase.
pub fn with_interruptions(states: usize, count: usize) -> Plan {
    let mut p = plan(states);
    let last = p.states.last().map(|s| s.id.clone()).unwrap_or_default();
    let back: crate::plan::State = serde_json::from_value(
        json!({"id": "back", "title": "Back to the task", "instructions": "Back to it.",
               "ending": {"kind": "resume"}}),
    )
    .expect("the return point is well formed");
    p.states.push(std::sync::Arc::new(back));
    p.layout
        .insert("back".into(), Position { x: 0.0, y: -400.0 });
    let list: Vec<_> = (0..count)
        .map(|k| {
            let mut x = if k % 3 == 2 {
                json!({"id": format!("x{k}"), "kind": "abandon", "target_state_id": last})
            } else {
                json!({"id": format!("x{k}"), "target_state_id": "back", "ttl_turns": 3})
            };
            if k % 5 == 4 {
                x["condition"] = json!({"condition_type": "deliverable_value",
                    "condition_config": {"key": "topic_0", "value": "general"}});
            } else {
                x["phrases"] = json!([format!("question {k}")]);
            }
            x["priority"] = json!(k % 4);
            x
        })
        .collect();
    p.interruptions = serde_json::from_value(serde_json::Value::Array(list))
        .expect("the synthetic interruptions are well formed");
    p
}

/// Edits that change the list of states of a synthetic plan of at least 41 states: two states
/// deleted, the first moved to place 40, `s5` renamed `five`.
pub fn list_edits() -> [Command; 3] {
    [
        Command::DeleteStates {
            ids: vec!["s10".into(), "s11".into()],
        },
        Command::ReorderState {
            id: "s0".into(),
            to: 40,
        },
        Command::RenameState {
            from: "s5".into(),
            to: "five".into(),
        },
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn synthetic_plans_are_clean_and_the_size_asked_for() {
        for n in [1, 2, 7, 60] {
            let p = super::plan(n);
            assert_eq!(p.states.len(), n);
            let report = crate::validate(&p);
            assert!(!report.has_errors(), "{n}: {:#?}", report.diagnostics);
            assert_eq!(super::plan(n), p, "deterministic");
        }
        let p = super::with_session_states(60, 40);
        let report = crate::validate(&p);
        assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    }
}
