//! Renaming a name the plan refers to in many places, as one command (one undo step): a session
//! state, a deliverable key, a tool, a response code of a tool, a task of a state. Every reference
//! is rewired: conditions at any depth (transitions and automatic rules), templates, changes,
//! `available_when`, `parent`, `allowed_tools`, as renaming a state id already does.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::EditError;
use crate::parse::is_key;
use crate::plan::{Plan, SessionChange};
use crate::template::{Name as TemplateName, Template};

/// What is renamed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Renamed {
    /// A session state.
    SessionState,
    /// A deliverable key, in every state that declares or reads it.
    DeliverableKey,
    /// A tool.
    Tool,
    /// A response code of tool `tool`.
    ResponseCode {
        /// The tool.
        tool: String,
    },
    /// A task of state `state`.
    Task {
        /// The state.
        state: String,
    },
}

/// Renames `from` to `to` everywhere in `p`; refused when `to` is not a valid name or is taken.
pub(super) fn rename(p: &mut Plan, what: &Renamed, from: &str, to: &str) -> Result<(), EditError> {
    if to.trim().is_empty() {
        return Err(EditError::EmptyId);
    }
    if from == to {
        return Ok(());
    }
    let taken = || EditError::NameTaken(to.to_string());
    let bad = || EditError::BadName(to.to_string());
    match what {
        Renamed::SessionState => {
            if !is_key(to) {
                return Err(bad());
            }
            if p.session_state(to).is_some() {
                return Err(taken());
            }
            for st in &mut p.session_states {
                if st.id == from {
                    st.id = to.to_string();
                }
                if st.parent.as_deref() == Some(from) {
                    st.parent = Some(to.to_string());
                }
            }
            let limits = p
                .evaluations
                .iter_mut()
                .flat_map(|e| &mut e.only_while_active);
            for id in p
                .tools
                .iter_mut()
                .flat_map(|t| &mut t.available_when)
                .chain(limits)
            {
                if id == from {
                    *id = to.to_string();
                }
            }
            for change in changes(p) {
                if change.session_state == from {
                    change.session_state = to.to_string();
                }
            }
        }
        Renamed::DeliverableKey => {
            if !is_key(to) {
                return Err(bad());
            }
            let declared = |k: &str| {
                p.states
                    .iter()
                    .flat_map(|s| s.deliverables())
                    .any(|d| d.key == k)
            };
            if declared(to) {
                return Err(taken());
            }
            for s in p.states_mut() {
                let goal = s.goal.iter_mut().flat_map(|g| g.deliverables.iter_mut());
                let tasks = s.tasks.iter_mut().flat_map(|t| t.deliverables.iter_mut());
                for d in tasks.chain(goal) {
                    if d.key == from {
                        d.key = to.to_string();
                    }
                }
            }
        }
        Renamed::Tool => {
            if p.tool(to).is_some() {
                return Err(taken());
            }
            for tool in &mut p.tools {
                if tool.name == from {
                    tool.name = to.to_string();
                }
            }
            for s in p.states_mut() {
                for t in &mut s.allowed_tools {
                    if t == from {
                        *t = to.to_string();
                    }
                }
            }
        }
        Renamed::ResponseCode { tool } => {
            let Some(declared) = p.tools.iter_mut().find(|t| &t.name == tool) else {
                return Err(EditError::UnknownName(tool.clone()));
            };
            if declared.response_codes.iter().any(|c| c == to) {
                return Err(taken());
            }
            for c in &mut declared.response_codes {
                if c == from {
                    *c = to.to_string();
                }
            }
        }
        Renamed::Task { state } => {
            let Some(s) = p.states_mut().find(|s| &s.id == state) else {
                return Err(EditError::UnknownState(state.clone()));
            };
            if s.tasks.iter().any(|t| t.id == to) {
                return Err(taken());
            }
            for t in &mut s.tasks {
                if t.id == from {
                    t.id = to.to_string();
                }
            }
            // No condition or template names a task: nothing else refers to it.
            return Ok(());
        }
    }
    // Conditions, at any depth, wherever they are.
    for s in p.states_mut() {
        for t in &mut s.transitions {
            let ty = t.condition_type_in(s.kind);
            rename_in_condition(ty.as_str(), &mut t.condition_config, what, from, to);
        }
    }
    for st in &mut p.session_states {
        for c in [&mut st.auto_activate, &mut st.auto_deactivate]
            .into_iter()
            .flatten()
        {
            rename_in_condition(
                c.condition_type.as_str(),
                &mut c.condition_config,
                what,
                from,
                to,
            );
        }
    }
    // Templates.
    let name = match what {
        Renamed::SessionState => Some(TemplateName::SessionState(from.to_string())),
        Renamed::DeliverableKey => Some(TemplateName::Deliverable(from.to_string())),
        _ => None,
    };
    if let Some(old) = name {
        let new = match &old {
            TemplateName::SessionState(_) => TemplateName::SessionState(to.to_string()),
            TemplateName::Deliverable(_) => TemplateName::Deliverable(to.to_string()),
        };
        for text in template_texts(p) {
            rename_in_template(text, &old, &new);
        }
    }
    Ok(())
}

/// Every change of every transition and state entry.
fn changes(p: &mut Plan) -> impl Iterator<Item = &mut SessionChange> {
    p.states_mut().flat_map(|s| {
        s.on_enter
            .iter_mut()
            .chain(s.transitions.iter_mut().flat_map(|t| t.effects.iter_mut()))
    })
}

/// Every text that may hold a template.
fn template_texts(p: &mut Plan) -> Vec<&mut String> {
    let mut out: Vec<&mut String> = vec![&mut p.instructions];
    for st in &mut p.session_states {
        if let Some(prompt) = st.prompt.as_mut() {
            out.push(prompt);
        }
    }
    for s in p.states.iter_mut().map(std::sync::Arc::make_mut) {
        out.push(&mut s.instructions);
        for t in &mut s.tasks {
            out.push(&mut t.instruction);
        }
        if let Some(g) = s.goal.as_mut() {
            out.push(&mut g.objective);
            out.push(&mut g.success_description);
        }
    }
    out
}

/// Rewrites a template that uses `old`; a text that does not use it (or does not parse) is left
/// exactly as the author wrote it.
fn rename_in_template(text: &mut String, old: &TemplateName, new: &TemplateName) {
    if Template::is_plain(text) {
        return;
    }
    let Ok(t) = Template::parse(text) else {
        return;
    };
    if !t.uses().iter().any(|u| &u.name == old) {
        return;
    }
    *text = t.write_renamed(&|n| (n == old).then(|| new.clone()));
}

/// Renames inside one condition `{type, config}` and its children.
fn rename_in_condition(
    ty: &str,
    config: &mut Map<String, Value>,
    what: &Renamed,
    from: &str,
    to: &str,
) {
    let set = |config: &mut Map<String, Value>, field: &str| {
        if config.get(field).and_then(Value::as_str) == Some(from) {
            config.insert(field.to_string(), Value::String(to.to_string()));
        }
    };
    match (what, ty) {
        (Renamed::SessionState, "session_state_active" | "session_state_value") => {
            set(config, "session_state")
        }
        (
            Renamed::DeliverableKey,
            "deliverable_exists"
            | "deliverable_value"
            | "deliverable_value_in"
            | "deliverable_value_numeric",
        ) => set(config, "key"),
        (Renamed::Tool, "tool_result") => set(config, "tool"),
        (Renamed::ResponseCode { tool }, "tool_result")
            if config.get("tool").and_then(Value::as_str) == Some(tool) =>
        {
            set(config, "response_code")
        }
        _ => {}
    }
    if let Some(Value::Array(children)) = config.get_mut("conditions") {
        for child in children {
            let Some(obj) = child.as_object_mut() else {
                continue;
            };
            let child_ty = obj
                .get("condition_type")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if let Some(Value::Object(child_config)) = obj.get_mut("condition_config") {
                rename_in_condition(&child_ty, child_config, what, from, to);
            }
        }
    }
}
