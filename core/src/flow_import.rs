//! Import of the flow export format (a `flow` object with `startStateId`, `statesOrder` and
//! `states` keyed by id, each with ordered `outputs` whose conditions name a tool and a response
//! code), converted into this project's plan format as `docs/store.md` says.
//!
//! REGULAR states become loose states with their instructions and allowed tools; each output
//! becomes a transition whose condition is the output's `tool_result` conditions (several: `all_of`;
//! none: `all_tasks_complete`), labelled with the output's name, with priority = its 1-based place
//! in `outputsOrder`. FORWARD becomes a `hand_off` ending to the state's phone number, HANGUP a
//! `hang_up` ending. Every tool named is declared with the response codes seen in conditions.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::parse::{plan_from_value, ParseProblem, ProblemKind};
use crate::plan::Plan;

/// Whether a JSON document is a flow export rather than a plan.
pub fn is_flow_export(doc: &Value) -> bool {
    doc.get("flow")
        .and_then(|f| f.get("states"))
        .is_some_and(Value::is_object)
}

fn problem(pointer: String, message: String) -> Vec<ParseProblem> {
    vec![ParseProblem {
        kind: ProblemKind::Schema,
        pointer,
        line_column: None,
        message,
    }]
}

fn text<'a>(obj: &'a Map<String, Value>, field: &str) -> &'a str {
    obj.get(field).and_then(Value::as_str).unwrap_or("")
}

/// Converts a flow export into a plan with id and title `id`.
pub fn convert(doc: &Value, id: &str) -> Result<Plan, Vec<ParseProblem>> {
    let flow = doc.get("flow").and_then(Value::as_object).ok_or_else(|| {
        problem(
            "/flow".into(),
            "a flow export needs a \"flow\" object".into(),
        )
    })?;
    let states = flow
        .get("states")
        .and_then(Value::as_object)
        .ok_or_else(|| problem("/flow/states".into(), "\"states\" must be an object".into()))?;
    // Plan order: statesOrder, then any state it forgot, in key order.
    let mut order: Vec<&str> = flow
        .get("statesOrder")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for key in states.keys() {
        if !order.contains(&key.as_str()) {
            order.push(key);
        }
    }

    let mut tools: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut out = Vec::new();
    for sid in order {
        let at = format!("/flow/states/{}", crate::condition::pointer_escape(sid));
        let Some(state) = states.get(sid).and_then(Value::as_object) else {
            return Err(problem(
                "/flow/statesOrder".into(),
                format!("statesOrder names \"{sid}\", which is not in states"),
            ));
        };
        let kind = text(state, "type");
        let mut s = json!({
            "id": sid,
            "title": if text(state, "name").is_empty() { sid } else { text(state, "name") },
            "type": "loose",
            "instructions": text(state, "stateInstructions"),
        });
        match kind {
            "REGULAR" => {
                let allowed: Vec<String> = state
                    .get("allowedTools")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(String::from)
                            .collect()
                    })
                    .unwrap_or_default();
                for tool in &allowed {
                    tools.entry(tool.clone()).or_default();
                }
                s["allowed_tools"] = json!(allowed);
                s["transitions"] = Value::Array(outputs(state, &at, states, &mut tools)?);
            }
            "FORWARD" => {
                let to = state
                    .iter()
                    .find(|(k, v)| k.to_lowercase().contains("phone") && v.is_string())
                    .and_then(|(_, v)| v.as_str())
                    .unwrap_or("");
                s["ending"] = json!({"kind": "hand_off", "to": to, "reason": text(state, "name")});
            }
            "HANGUP" => s["ending"] = json!({"kind": "hang_up"}),
            other => {
                return Err(problem(
                    format!("{at}/type"),
                    format!("unknown state type \"{other}\" (expected REGULAR, FORWARD or HANGUP)"),
                ))
            }
        }
        out.push(s);
    }
    let tools: Vec<Value> = tools
        .into_iter()
        .map(|(name, codes)| json!({"name": name, "response_codes": codes}))
        .collect();
    let mut plan = json!({"id": id, "title": id, "states": out, "tools": tools});
    if let Some(start) = flow.get("startStateId").and_then(Value::as_str) {
        if !states.contains_key(start) {
            return Err(problem(
                "/flow/startStateId".into(),
                format!("the flow starts at \"{start}\", which is not one of its states"),
            ));
        }
        plan["start_state_id"] = json!(start);
    }
    plan_from_value(&plan)
}

fn outputs(
    state: &Map<String, Value>,
    at: &str,
    states: &Map<String, Value>,
    tools: &mut BTreeMap<String, Vec<String>>,
) -> Result<Vec<Value>, Vec<ParseProblem>> {
    let outputs = state.get("outputs").and_then(Value::as_object);
    let order: Vec<&str> = state
        .get("outputsOrder")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    for (n, oid) in order.iter().enumerate() {
        let Some(output) = outputs.and_then(|o| o.get(*oid)).and_then(Value::as_object) else {
            return Err(problem(
                format!("{at}/outputsOrder/{n}"),
                format!("output \"{oid}\" is listed but not defined"),
            ));
        };
        let mut conditions = Vec::new();
        for c in output
            .get("conditions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let tool = c.get("tool").and_then(Value::as_str).unwrap_or("");
            let code = c.get("responseCode").and_then(Value::as_str).unwrap_or("");
            let negated = c.get("isNegated").and_then(Value::as_bool).unwrap_or(false);
            let codes = tools.entry(tool.to_string()).or_default();
            if !code.is_empty() && !codes.iter().any(|k| k == code) {
                codes.push(code.to_string());
            }
            conditions.push(json!({"tool": tool, "response_code": code, "negated": negated}));
        }
        // An output into nothing would be imported as a plan that cannot run: refused, so
        // that the author fixes the export (or the editor it came from) instead.
        let target = text(output, "transitionTo");
        if !states.contains_key(target) {
            return Err(problem(
                format!(
                    "{at}/outputs/{}/transitionTo",
                    crate::condition::pointer_escape(oid)
                ),
                format!(
                    "output \"{}\" goes to \"{target}\", which is not one of the flow's states",
                    text(output, "name")
                ),
            ));
        }
        let mut t = json!({
            "target_state_id": target,
            "priority": n + 1,
            "label": text(output, "name"),
        });
        match conditions.len() {
            0 => t["condition_type"] = json!("all_tasks_complete"),
            1 => {
                t["condition_type"] = json!("tool_result");
                t["condition_config"] = conditions.remove(0);
            }
            _ => {
                t["condition_type"] = json!("all_of");
                t["condition_config"] = json!({"conditions": conditions
                    .into_iter()
                    .map(|c| json!({"condition_type": "tool_result", "condition_config": c}))
                    .collect::<Vec<_>>()});
            }
        }
        out.push(t);
    }
    Ok(out)
}
