//! `unhandled-value`: an answer no arrow handles. A state's transitions read a key with a finite
//! domain (an enum's values, a yes/no) and some value of it has no transition that can fire for it,
//! no fallback (an `all_tasks_complete` or unconditional transition of the state) and no
//! interruption whose condition can fire on it: a caller who gives that value is not moved on.
//!
//! "Can fire for a value" is decided on the condition alone, in three-valued logic: a check of the
//! key is true or false for the value, every other check may be either, and `all_of` / `any_of`
//! combine them as Kleene's logic does. Only a condition that is false whatever else holds leaves
//! the value unhandled, so the warning is never raised where some other answer could move on.
//!
//! `unhandled-response-code` is the same for a tool's answers: a state's transitions read some of
//! the codes a tool declares, and a call that returns another moves nothing on.

use serde_json::Value;

use super::{Code, Location, Validator};
use crate::coerce::{coerce, in_words};
use crate::condition::{Check, ConditionType};
use crate::plan::{Deliverable, DeliverableType, InterruptionKind, Plan, State, StateType};

/// What a condition can be once one key's value is known and nothing else is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Truth {
    No,
    Maybe,
    Yes,
}

/// Whether `check` can hold when `key` (declared as `d`) has the value `given`.
fn truth(check: &Check, key: &str, d: &Deliverable, given: &Value) -> Truth {
    let same = |v: &Value| coerce(v, d).as_ref() == Some(given);
    let yes_if = |holds: bool| if holds { Truth::Yes } else { Truth::No };
    match check {
        Check::DeliverableExists { key: k } if *k == key => Truth::Yes,
        Check::DeliverableValue { key: k, value } if *k == key => yes_if(same(value)),
        Check::DeliverableValueIn { key: k, values } if *k == key => {
            yes_if(values.iter().any(same))
        }
        Check::AllOf(children) => all_of(children, |c| truth(c, key, d, given)),
        Check::AnyOf(children) => any_of(children, |c| truth(c, key, d, given)),
        _ => Truth::Maybe,
    }
}

/// `all_of` in Kleene's logic: false if one child is, true if all are, else maybe.
fn all_of(children: &[Check], truth: impl Fn(&Check) -> Truth) -> Truth {
    children
        .iter()
        .fold(Truth::Yes, |acc, c| match (acc, truth(c)) {
            (Truth::No, _) | (_, Truth::No) => Truth::No,
            (Truth::Yes, Truth::Yes) => Truth::Yes,
            _ => Truth::Maybe,
        })
}

/// `any_of` in Kleene's logic: true if one child is, false if all are, else maybe.
fn any_of(children: &[Check], truth: impl Fn(&Check) -> Truth) -> Truth {
    children
        .iter()
        .fold(Truth::No, |acc, c| match (acc, truth(c)) {
            (Truth::Yes, _) | (_, Truth::Yes) => Truth::Yes,
            (Truth::No, Truth::No) => Truth::No,
            _ => Truth::Maybe,
        })
}

/// The keys `check` compares with values (`deliverable_value`, `deliverable_value_in`), each
/// once, in the order read: the keys whose answers an arrow can handle or not.
pub(crate) fn keys_read<'c>(check: &Check<'c>, into: &mut Vec<&'c str>) {
    match check {
        Check::DeliverableValue { key, .. } | Check::DeliverableValueIn { key, .. }
            if !into.contains(key) =>
        {
            into.push(key)
        }
        Check::AllOf(children) | Check::AnyOf(children) => {
            for c in children {
                keys_read(c, into);
            }
        }
        _ => {}
    }
}

/// Whether every value `check` compares `key` with can be one of its values: a condition with a
/// value that cannot is an error at that value, and the key's answers are not judged until fixed.
fn compares_fitting_values(check: &Check, key: &str, d: &Deliverable) -> bool {
    match check {
        Check::DeliverableValue { key: k, value } if *k == key => coerce(value, d).is_some(),
        Check::DeliverableValueIn { key: k, values } if *k == key => {
            values.iter().all(|v| coerce(v, d).is_some())
        }
        Check::AllOf(children) | Check::AnyOf(children) => {
            children.iter().all(|c| compares_fitting_values(c, key, d))
        }
        _ => true,
    }
}

/// Every value a key of this declaration can hold, when there are finitely many.
fn domain(d: &Deliverable) -> Option<Vec<Value>> {
    match d.kind {
        DeliverableType::Boolean => Some(vec![Value::Bool(true), Value::Bool(false)]),
        DeliverableType::Enum => Some(
            d.enum_values
                .iter()
                .flatten()
                .map(|v| Value::String(v.clone()))
                .collect(),
        ),
        DeliverableType::String | DeliverableType::Number => None,
    }
}

/// An answer no arrow of its state handles: the key and the value (as the key's type holds it).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The deliverable key.
    pub key: String,
    /// The value a caller can give that moves nothing on.
    pub value: Value,
}

/// The answers of `state` that no transition, fallback or interruption handles, in the order
/// `unhandled-value` reports them (key by key as the transitions read them, each key's values in
/// its domain's order). `declared`: a key's first declaration in the plan.
fn unhandled<'p>(
    plan: &'p Plan,
    state: &'p State,
    declared: &dyn Fn(&str) -> Option<&'p Deliverable>,
) -> Vec<(Answer, &'p Deliverable)> {
    let mut out = Vec::new();
    let Some(checks) = arrow_checks(state) else {
        return out;
    };
    let mut keys = Vec::new();
    for c in &checks {
        keys_read(c, &mut keys);
    }
    for key in keys {
        let Some(d) = declared(key) else {
            continue;
        };
        let Some(values) = domain(d) else {
            continue;
        };
        if !checks.iter().all(|c| compares_fitting_values(c, key, d)) {
            continue;
        }
        for value in values {
            let can_hold = |c: &Check| truth(c, key, d, &value) != Truth::No;
            let moves_on = checks.iter().any(can_hold)
                || interruption_can(plan, state, |check| {
                    let mut read = Vec::new();
                    keys_read(check, &mut read);
                    read.contains(&key) && can_hold(check)
                });
            if !moves_on {
                let key = key.to_string();
                out.push((Answer { key, value }, d));
            }
        }
    }
    out
}

/// A code of a tool that no arrow of its state handles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolAnswer {
    /// The tool's name.
    pub tool: String,
    /// The response code a call can return that moves nothing on.
    pub code: String,
}

/// Whether `check` can hold when the latest call of `tool` returned `code`.
fn code_truth(check: &Check, tool: &str, code: &str) -> Truth {
    match check {
        Check::ToolResult {
            tool: t,
            response_code,
            negated,
        } if *t == tool => {
            if (*response_code == code) != *negated {
                Truth::Yes
            } else {
                Truth::No
            }
        }
        Check::AllOf(children) => all_of(children, |c| code_truth(c, tool, code)),
        Check::AnyOf(children) => any_of(children, |c| code_truth(c, tool, code)),
        _ => Truth::Maybe,
    }
}

/// The index of `state`'s first transition whose condition `reads` (an answer's key, a tool).
pub(crate) fn first_arrow_reading(state: &State, reads: impl Fn(&Check) -> bool) -> Option<usize> {
    state.transitions.iter().position(|t| {
        Check::read(t.condition_type_in(state.kind), &t.condition_config).is_ok_and(|c| reads(&c))
    })
}

/// Whether `check` reads a code of `tool`.
pub(crate) fn reads_tool(check: &Check, tool: &str) -> bool {
    let mut read = Vec::new();
    tools_read(check, &mut read);
    read.contains(&tool)
}

/// The tools whose codes `check` reads, each once, in the order read.
fn tools_read<'c>(check: &Check<'c>, into: &mut Vec<&'c str>) {
    match check {
        Check::ToolResult { tool, .. } if !into.contains(tool) => into.push(tool),
        Check::AllOf(children) | Check::AnyOf(children) => {
            for c in children {
                tools_read(c, into);
            }
        }
        _ => {}
    }
}

/// The state's transitions' conditions, read; none when one of them moves the conversation on
/// whatever was answered (a fallback), when one does not read (reported where it is), or when the
/// state's transitions are not what moves it on (an ending, a goal state).
fn arrow_checks(state: &State) -> Option<Vec<Check<'_>>> {
    // A goal state whose goal is done falls through to the next state (runtime.md step 8).
    if state.transitions.is_empty() || state.kind == StateType::Goal {
        return None;
    }
    let mut checks = Vec::with_capacity(state.transitions.len());
    for t in &state.transitions {
        let kind = t.condition_type_in(state.kind);
        if kind == ConditionType::AllTasksComplete {
            return None;
        }
        match Check::read(kind, &t.condition_config) {
            Ok(Check::AllOf(children)) if children.is_empty() => return None,
            Ok(check) => checks.push(check),
            Err(_) => return None,
        }
    }
    Some(checks)
}

/// The codes of `state`'s tools that no transition, fallback or interruption handles
/// (`unhandled-response-code`'s, in its order: tool by tool as the transitions read them, each
/// tool's codes in its declared order).
pub fn unhandled_codes(plan: &Plan, state: &State) -> Vec<ToolAnswer> {
    let mut out = Vec::new();
    let Some(checks) = arrow_checks(state) else {
        return out;
    };
    let mut tools = Vec::new();
    for c in &checks {
        tools_read(c, &mut tools);
    }
    for name in tools {
        let Some(tool) = plan.tools.iter().find(|t| t.name == name) else {
            continue;
        };
        for code in &tool.response_codes {
            let can_hold = |c: &Check| code_truth(c, name, code) != Truth::No;
            let moves_on = checks.iter().any(can_hold)
                || interruption_can(plan, state, |check| {
                    let mut read = Vec::new();
                    tools_read(check, &mut read);
                    read.contains(&name) && can_hold(check)
                });
            if !moves_on {
                out.push(ToolAnswer {
                    tool: name.to_string(),
                    code: code.clone(),
                });
            }
        }
    }
    out
}

/// The answers of `state` that nothing moves on from (`unhandled-value`'s, in its order).
pub fn unhandled_answers(plan: &Plan, state: &State) -> Vec<Answer> {
    let declared = |key: &str| crate::runtime::declaration(plan, key);
    unhandled(plan, state, &declared)
        .into_iter()
        .map(|(a, _)| a)
        .collect()
}

/// Whether an interruption that can fire in `state` has a condition for which `handles` holds
/// (it reads the answer and can hold for it).
fn interruption_can(plan: &Plan, state: &State, handles: impl Fn(&Check) -> bool) -> bool {
    plan.interruptions.iter().any(|x| {
        x.allowed_in(&state.id)
            && x.target_state_id != state.id
            && (state.interruptible || x.kind == InterruptionKind::Preempt)
            && x.condition
                .as_ref()
                .is_some_and(|c| c.read().is_ok_and(|check| handles(&check)))
    })
}

impl<'p> Validator<'p, '_> {
    /// The `unhandled-value` warnings of state `i`, one per value, after its transitions' own.
    pub(super) fn unhandled_values(&mut self, i: usize, state: &'p State) {
        let declared = |key: &str| self.declared.get(key).copied();
        let found = unhandled(self.plan, state, &declared);
        for (answer, _) in found {
            let value = in_words(&answer.value);
            let location = self.where_collected(i, state, &answer.key);
            self.push(
                Code::UnhandledValue,
                format!(
                    "When the caller gives '{value}' for {} in '{}', no arrow moves the conversation on: it waits for another answer. Add an arrow for '{value}', or one that leaves whatever the answer.",
                    answer.key, state.title
                ),
                location,
            );
        }
    }

    /// The `unhandled-response-code` warnings of state `i`, one per code, at the first of its
    /// transitions that reads the tool.
    pub(super) fn unhandled_codes(&mut self, i: usize, state: &'p State) {
        for answer in unhandled_codes(self.plan, state) {
            let k = first_arrow_reading(state, |c| reads_tool(c, &answer.tool)).unwrap_or(0);
            self.push(
                Code::UnhandledResponseCode,
                format!(
                    "When the {} tool answers {} in '{}', no arrow moves the conversation on. Add an arrow for {}, or one that leaves whatever the tool answers.",
                    answer.tool, answer.code, state.title, answer.code
                ),
                Location {
                    path: format!("/states/{i}/transitions/{k}"),
                    state_id: Some(state.id.clone()),
                    task_id: None,
                    transition_index: Some(k),
                },
            );
        }
    }

    /// The state, at the key where it collects it (a task's, else its goal's); a key collected
    /// elsewhere, at the state's first transition that reads it.
    fn where_collected(&self, i: usize, state: &State, key: &str) -> Location {
        let in_task = state.tasks.iter().enumerate().find_map(|(t, task)| {
            let k = task.deliverables.iter().position(|d| d.key == key)?;
            Some((
                format!("/states/{i}/tasks/{t}/deliverables/{k}"),
                Some(task.id.clone()),
            ))
        });
        let in_goal = || {
            let goal = state.goal.as_ref()?;
            let k = goal.deliverables.iter().position(|d| d.key == key)?;
            Some((format!("/states/{i}/goal/deliverables/{k}"), None))
        };
        let (path, task_id, transition_index) = match in_task.or_else(in_goal) {
            Some((path, task_id)) => (path, task_id, None),
            None => {
                let k = first_arrow_reading(state, |c| {
                    let mut read = Vec::new();
                    keys_read(c, &mut read);
                    read.contains(&key)
                })
                .unwrap_or(0);
                (format!("/states/{i}/transitions/{k}"), None, Some(k))
            }
        };
        Location {
            path,
            state_id: Some(state.id.clone()),
            task_id,
            transition_index,
        }
    }
}
