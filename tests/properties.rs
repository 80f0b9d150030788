//! Properties over generated plans: reading and validating never panic, whatever the plan says;
//! a plan read, written and read again is the same plan; and removing a state that others point
//! at always leaves an `unknown-target-state`.

use plan_core::plan::Plan;
use plan_core::validate::check_text;
use plan_core::{parse_plan, validate, Code};
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{json, Value};

const IDS: [&str; 5] = ["s0", "s1", "s2", "s3", "s4"];
const KEYS: [&str; 5] = ["a", "b", "n", "flag", "kind"];
const TOOLS: [&str; 3] = ["lookup", "classify", "ghost_tool"];
const CODES: [&str; 3] = ["OK", "NOT_FOUND", "Ratenzahlung gewünscht"];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::from),
        (-20i64..20).prop_map(Value::from),
        (-10.0f64..10.0).prop_map(Value::from),
        "[a-zA-Z ]{0,6}".prop_map(Value::from),
        select(vec!["x", "y", "X", "yes", "7"]).prop_map(Value::from),
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    prop_oneof![Just(Value::Null), scalar()].prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A `(condition_type, condition_config)` pair: mostly sensible, sometimes broken, nested.
fn condition() -> impl Strategy<Value = (String, Value)> {
    let key = || select(KEYS.to_vec());
    let leaf = prop_oneof![
        Just(("all_tasks_complete".to_string(), json!({}))),
        Just(("goal_achieved".to_string(), json!({}))),
        key().prop_map(|k| ("deliverable_exists".into(), json!({"key": k}))),
        (key(), scalar())
            .prop_map(|(k, v)| ("deliverable_value".into(), json!({"key": k, "value": v}))),
        (key(), prop::collection::vec(scalar(), 0..3)).prop_map(|(k, v)| (
            "deliverable_value_in".into(),
            json!({"key": k, "values": v})
        )),
        (
            key(),
            select(vec!["gt", "gte", "lt", "lte", "eq", "neq", "about"]),
            -5i64..15
        )
            .prop_map(|(k, op, v)| (
                "deliverable_value_numeric".into(),
                json!({"key": k, "operator": op, "value": v})
            )),
        (key(), -5i64..15, -5i64..15, any::<bool>()).prop_map(|(k, min, max, inc)| (
            "deliverable_value_numeric".into(),
            json!({"key": k, "operator": "between", "min": min, "max": max, "inclusive": inc})
        )),
        (
            0i64..5,
            select(vec!["without_progress", "total", "forever"])
        )
            .prop_map(|(t, s)| (
                "turn_count_exceeded".into(),
                json!({"turns": t, "scope": s})
            )),
        (
            select(TOOLS.to_vec()),
            select(CODES.to_vec()),
            any::<bool>()
        )
            .prop_map(|(t, c, n)| (
                "tool_result".into(),
                json!({"tool": t, "response_code": c, "negated": n})
            )),
        (
            select(vec!["deliverable_value", "tool_result", "all_of"]),
            any_json()
        )
            .prop_map(|(t, c)| (t.to_string(), c)),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        (
            select(vec!["all_of", "any_of", "compound"]),
            select(vec!["and", "or", "xor"]),
            prop::collection::vec(inner, 0..3),
        )
            .prop_map(|(kind, op, children)| {
                let conditions: Vec<Value> = children
                    .into_iter()
                    .map(|(t, c)| json!({"condition_type": t, "condition_config": c}))
                    .collect();
                let mut config = json!({"conditions": conditions});
                if kind == "compound" {
                    config["operator"] = json!(op);
                }
                (kind.to_string(), config)
            })
    })
}

fn deliverable() -> impl Strategy<Value = Value> {
    (
        select(KEYS.to_vec()),
        select(vec!["string", "number", "boolean", "enum"]),
        any::<bool>(),
    )
        .prop_map(|(key, kind, required)| {
            let mut d = json!({"key": key, "type": kind, "required": required});
            if kind == "enum" {
                d["enum_values"] = json!(["x", "y"]);
            }
            d
        })
}

fn state() -> impl Strategy<Value = Value> {
    let task = (
        select(vec!["t0", "t1", "t2"]),
        any::<bool>(),
        prop::collection::vec(deliverable(), 0..3),
    )
        .prop_map(|(id, required, deliverables)| {
            json!({"id": id, "required": required, "deliverables": deliverables})
        });
    let transition = (
        select([IDS.to_vec(), vec!["ghost"]].concat()),
        condition(),
        prop::option::of(0i64..4),
        any::<bool>(),
    )
        .prop_map(|(target, (kind, config), priority, implicit)| {
            let mut t = json!({"target_state_id": target});
            if !(implicit && kind == "all_tasks_complete") {
                t["condition_type"] = json!(kind);
                t["condition_config"] = config;
            }
            if let Some(p) = priority {
                t["priority"] = json!(p);
            }
            t
        });
    (
        select(IDS.to_vec()),
        select(vec!["strict", "loose", "goal"]),
        prop::collection::vec(task, 0..3),
        prop::option::of(("[a-z ]{0,8}", prop::collection::vec(deliverable(), 0..2))),
        prop::collection::vec(transition, 0..4),
        prop::collection::vec(select(TOOLS.to_vec()), 0..2),
        prop::option::of(select(vec!["complete", "hang_up", "hand_off"])),
        "[a-z ]{0,6}",
    )
        .prop_map(
            |(id, kind, tasks, goal, transitions, tools, ending, instructions)| {
                let mut s = json!({"id": id, "title": format!("State {id}"), "type": kind,
                    "tasks": tasks, "transitions": transitions, "allowed_tools": tools,
                    "instructions": instructions});
                if let Some((objective, deliverables)) = goal {
                    s["goal"] = json!({"objective": objective, "deliverables": deliverables});
                }
                if let Some(kind) = ending {
                    s["ending"] = if kind == "hand_off" {
                        json!({"kind": kind, "to": "a person", "reason": "asked"})
                    } else {
                        json!({"kind": kind})
                    };
                }
                s
            },
        )
}

fn plan_json() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(state(), 0..6),
        prop::option::of(select([IDS.to_vec(), vec!["nowhere"]].concat())),
        0u32..8,
    )
        .prop_map(|(states, start, stuck)| {
            let mut p = json!({"id": "generated", "title": "Generated", "states": states,
                "settings": {"stuck_turns": stuck},
                "tools": [{"name": "lookup", "response_codes": ["OK", "NOT_FOUND"]},
                          {"name": "classify", "response_codes": ["Ratenzahlung gewünscht"]}]});
            if let Some(start) = start {
                p["start_state_id"] = json!(start);
            }
            p
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn validate_never_panics_and_every_finding_has_a_message_and_a_path(doc in plan_json()) {
        let (plan, report) = check_text(&doc.to_string());
        for d in &report.diagnostics {
            prop_assert!(!d.message.is_empty());
            prop_assert!(d.location.path.is_empty() || d.location.path.starts_with('/'));
            prop_assert_eq!(d.severity, d.code.severity());
        }
        if plan.is_some() {
            // Every path of a finding resolves in the document (or names a missing field's object).
            for d in &report.diagnostics {
                let p = &d.location.path;
                prop_assert!(doc.pointer(p).is_some(), "{} points nowhere in {}", p, doc);
            }
        }
    }

    #[test]
    fn reading_what_was_written_gives_the_same_plan(doc in plan_json()) {
        if let Ok(plan) = parse_plan(&doc.to_string()) {
            let written = serde_json::to_string(&plan).unwrap();
            let again: Plan = parse_plan(&written).unwrap();
            prop_assert_eq!(&again, &plan);
            prop_assert_eq!(serde_json::to_string(&again).unwrap(), written);
        }
    }

    #[test]
    fn removing_a_state_others_point_at_leaves_an_unknown_target(doc in plan_json(), pick in 0usize..6) {
        let Ok(plan) = parse_plan(&doc.to_string()) else { return Ok(()) };
        let targeted: Vec<usize> = (0..plan.states.len())
            .filter(|&i| {
                let id = &plan.states[i].id;
                plan.states.iter().filter(|s| &s.id == id).count() == 1
                    && plan.states.iter().enumerate().any(|(j, s)| {
                        j != i && s.transitions.iter().any(|t| &t.target_state_id == id)
                    })
            })
            .collect();
        if targeted.is_empty() {
            return Ok(());
        }
        let mut cut = plan.clone();
        cut.states.remove(targeted[pick % targeted.len()]);
        prop_assert!(validate(&cut).codes().contains(&Code::UnknownTargetState));
    }

    #[test]
    fn any_text_is_answered_with_diagnostics_never_a_panic(text in "[\\[\\]{}\":,a-z0-9 ]{0,40}") {
        let (_, report) = check_text(&text);
        prop_assert!(!report.diagnostics.is_empty());
    }
}

#[path = "properties/store.rs"]
mod store;

#[path = "properties/conversations.rs"]
mod conversations;

#[path = "properties/session_states.rs"]
mod session_states;
