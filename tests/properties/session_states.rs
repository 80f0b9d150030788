//! Session states (docs/session-states.md): the cascade's rule holds after any switching, templates
//! render whatever their text, and a rename changes nothing but the renamed name.

use plan_core::edit::{apply, Command, Renamed};
use plan_core::plan::Plan;
use plan_core::runtime::{start, step, Action, PlanRef, PlanVersion, Session};
use plan_core::template::render_text;
use plan_core::{parse_plan, validate};
use proptest::prelude::*;
use serde_json::{json, Value};

/// A family of `n` session states: each nested under an earlier one or at the top, exclusive
/// or not.
fn family() -> impl Strategy<Value = Plan> {
    prop::collection::vec((any::<bool>(), 0usize..8, any::<bool>()), 1..8).prop_map(|specs| {
        let states: Vec<Value> = specs
            .iter()
            .enumerate()
            .map(|(i, (nested, parent, exclusive))| {
                let mut s = json!({"id": format!("s{i}"), "agent_can_change": true,
                    "activation": if *exclusive { "exclusive" } else { "independent" }});
                if *nested && i > 0 {
                    s["parent"] = json!(format!("s{}", parent % i));
                }
                s
            })
            .collect();
        parse_plan(
            &json!({"id": "p", "title": "P", "states": [{"id": "a", "title": "A", "instructions": "Talk.",
                "transitions": [{"target_state_id": "z", "condition_type": "turn_count_exceeded",
                                 "condition_config": {"turns": 999, "scope": "total"}}]},
                {"id": "z", "title": "Z"}],
                "session_states": states})
            .to_string(),
        )
        .expect("a family parses")
    })
}

fn begin(plan: &Plan) -> Session {
    let r = PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    start(plan, r).expect("starts").0
}

fn parent_rule_holds(plan: &Plan, s: &Session) -> bool {
    plan.session_states.iter().all(|st| {
        !s.session_states[&st.id].active
            || st
                .parent
                .as_ref()
                .is_none_or(|p| s.session_states[p].active)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_cascade_keeps_a_nested_state_active_only_while_its_parent_is(
        plan in family(),
        switches in prop::collection::vec((0usize..8, any::<bool>()), 1..20)
    ) {
        let mut s = begin(&plan);
        let n = plan.session_states.len();
        for (i, on) in switches {
            let action = Action::SetSessionState {
                session_state: format!("s{}", i % n),
                value: None,
                add: None,
                active: Some(on),
            };
            s = step(&plan, &s, "", &[action]).expect("a turn").0;
            prop_assert!(parent_rule_holds(&plan, &s), "{:?}", s.session_states);
            // Exclusive peers: at most one active under each parent.
            for p in plan.session_states.iter().map(|x| x.parent.clone()).chain([None]) {
                let on = plan.session_states.iter().filter(|x| x.parent == p
                    && x.activation == plan_core::plan::Activation::Exclusive
                    && s.session_states[&x.id].active).count();
                prop_assert!(on <= 1);
            }
        }
    }

    #[test]
    fn rendering_never_panics_on_any_template_text(
        text in "([a-z .{}\n\"]|\\{\\{|\\}\\}|if |else|endif|not |isActive |session\\.state\\.s0|deliverable\\.k){0,40}"
    ) {
        let plan = parse_plan(&json!({"id": "p", "title": "P", "instructions": text,
            "states": [{"id": "a", "title": "A", "instructions": text}],
            "session_states": [{"id": "s0", "type": "number", "value": 2}]}).to_string());
        if let Ok(plan) = plan {
            let s = begin(&plan);
            let _ = plan_core::runtime::prompt(&plan, &s);
            let _ = validate(&plan);
        }
        let _ = render_text(&text, &begin(&parse_plan(r#"{"id":"q","title":"Q","states":[{"id":"a","title":"A"}]}"#).unwrap()));
    }

    #[test]
    fn a_rename_leaves_validation_unchanged_apart_from_the_renamed_name(
        pick in 0usize..30, broken in any::<bool>()
    ) {
        let mut plan = parse_plan(include_str!("../../plans/account-care.json")).unwrap();
        if broken {
            // Some findings to keep: an unknown key in a template, a rule naming nothing.
            std::sync::Arc::make_mut(&mut plan.states[0]).instructions.push_str(" {{deliverable.ghost}} {{if}}");
            plan.tools[0].available_when.push("ghost".into());
        }
        let mut names: Vec<(Renamed, String)> = plan.session_states.iter().map(|s| (Renamed::SessionState, s.id.clone())).collect();
        let mut keys: Vec<String> = plan.states.iter().flat_map(|s| s.deliverables()).map(|d| d.key.clone()).collect();
        keys.dedup();
        names.extend(keys.into_iter().map(|k| (Renamed::DeliverableKey, k)));
        names.extend(plan.tools.iter().map(|t| (Renamed::Tool, t.name.clone())));
        names.extend(plan.tools.iter().flat_map(|t| t.response_codes.iter().map(|c| (Renamed::ResponseCode { tool: t.name.clone() }, c.clone()))));
        let (what, from) = names[pick % names.len()].clone();
        let to = format!("renamed_{from}");
        let before = validate(&plan);
        let after_plan = apply(&plan, &Command::Rename { what, from: from.clone(), to: to.clone() }).expect("renames").plan;
        let after = validate(&after_plan);
        let shape = |r: &plan_core::Report| r.diagnostics.iter().map(|d| (d.code, d.location.path.clone(), d.message.replace(&to, &from))).collect::<Vec<_>>();
        prop_assert_eq!(shape(&before), shape(&after));
        let text = serde_json::to_string(&after_plan).unwrap();
        let old_uses = [format!("\"{from}\""), format!(".{from}}}}}")];
        prop_assert!(old_uses.iter().all(|u| !text.contains(u.as_str())), "{} still named in {}", from, text);
    }
}
