//! What an agent may ask for in one turn, and the acceptance rules of `docs/runtime.md`: each
//! [`Action`] is accepted (and applied) or rejected with a reason an author can act on.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::evaluate::{equal, show, Context};
use super::event::{ChangedBy, Event, What};
use super::session::{GoalStatus, Insight, Recorded, Session, TaskStatus};
use crate::coerce::coerce;
use crate::condition::Check;
use crate::plan::{Deliverable, DeliverableType, Plan, State, StateType};

/// One request of an agent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Set a deliverable; `value` is coerced to the key's type.
    Record {
        /// The deliverable key.
        key: String,
        /// Its value.
        value: Value,
        /// What the user said that gave it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        quote: Option<String>,
    },
    /// Mark a task done.
    Complete {
        /// The task's id.
        task_id: String,
    },
    /// Skip an optional task.
    Skip {
        /// The task's id.
        task_id: String,
    },
    /// Close the goal, quoting what the user said.
    CloseGoal {
        /// What the user said that achieved it.
        quote: String,
    },
    /// Give the goal up, quoting what the user said.
    GiveUpGoal {
        /// What the user said that gave it up.
        quote: String,
    },
    /// Call a tool, which answers with a response code.
    CallTool {
        /// The tool's name.
        tool: String,
        /// The code it answered.
        response_code: String,
    },
    /// Keep a note about the caller.
    Insight {
        /// The note.
        text: String,
    },
    /// Change a session state the plan lets the agent change: its value (`null` clears), a number
    /// to add, its flag.
    SetSessionState {
        /// The session state's id.
        session_state: String,
        #[serde(
            default,
            deserialize_with = "crate::session_state::present",
            skip_serializing_if = "Option::is_none"
        )]
        /// Its new value (`Some(None)`: cleared), when it changes.
        value: Option<Option<Value>>,
        /// A number to add to its value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        add: Option<serde_json::Number>,
        /// Its new flag.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        active: Option<bool>,
    },
    /// Set the open task aside as the interruption says (docs/interruptions.md); judged by the turn
    /// (see `runtime::interrupt`), not here.
    Interrupt {
        /// The interruption's id.
        interruption: String,
    },
    /// A request the agent could not turn into an action (an unknown command): always rejected.
    Unrecognised {
        /// What the agent asked for.
        text: String,
        /// Why it is not an action.
        reason: String,
    },
}

impl Action {
    /// The action as an author reads it: "record issue_type = billing".
    pub fn describe(&self) -> String {
        match self {
            Action::Record { key, value, .. } => format!("record {key} = {}", show(value)),
            Action::Complete { task_id } => format!("complete task '{task_id}'"),
            Action::Skip { task_id } => format!("skip task '{task_id}'"),
            Action::CloseGoal { quote } => format!("close the goal (\"{quote}\")"),
            Action::GiveUpGoal { quote } => format!("give up the goal (\"{quote}\")"),
            Action::CallTool {
                tool,
                response_code,
            } => format!("call {tool} → {response_code}"),
            Action::Insight { text } => format!("keep the insight \"{text}\""),
            Action::SetSessionState {
                session_state,
                value,
                add,
                active,
            } => {
                let change = crate::plan::SessionChange {
                    session_state: session_state.clone(),
                    value: value.clone(),
                    add: add.clone(),
                    active: *active,
                };
                let said = change.describe();
                if said.is_empty() {
                    format!("change {session_state}")
                } else {
                    said.replacen("sets", "set", 1)
                        .replacen("clears", "clear", 1)
                        .replacen("adds", "add", 1)
                        .replacen("switches", "switch", 1)
                }
            }
            Action::Interrupt { interruption } => format!("interrupt: {interruption}"),
            Action::Unrecognised { text, .. } => format!("\"{text}\""),
        }
    }
}

/// Applies `action` to the session if the rules accept it, and says what happened in `events`.
/// Returns whether it made progress.
pub(super) fn apply(
    plan: &Plan,
    state: &State,
    s: &mut Session,
    action: &Action,
    events: &mut Vec<Event>,
) -> bool {
    let turn = s.turn;
    let mut follow: Vec<Event> = Vec::new();
    let outcome = match action {
        Action::Record { key, value, quote } => record(plan, state, s, key, value, quote),
        Action::Complete { task_id } => task_action(state, s, task_id, true).map(|()| {
            follow.push(task_done(turn, task_id, false));
            true
        }),
        Action::Skip { task_id } => task_action(state, s, task_id, false).map(|()| {
            follow.push(Event::new(
                turn,
                What::TaskSkipped {
                    task_id: task_id.clone(),
                },
                format!("skipped task '{task_id}'"),
            ));
            true
        }),
        Action::CloseGoal { quote } => close_goal(plan, state, s, quote).map(|()| {
            s.visit.goal = Some(GoalStatus::Closed);
            follow.push(Event::new(
                turn,
                What::GoalClosed {
                    quote: quote.clone(),
                },
                format!("the goal is closed: the user said \"{quote}\""),
            ));
            true
        }),
        Action::GiveUpGoal { quote } => goal_open_and_quoted(state, s, quote).map(|()| {
            s.visit.goal = Some(GoalStatus::GivenUp);
            follow.push(Event::new(
                turn,
                What::GoalGivenUp {
                    quote: quote.clone(),
                },
                format!("the goal was given up: the user said \"{quote}\""),
            ));
            true
        }),
        Action::CallTool {
            tool,
            response_code,
        } => call_tool(plan, state, s, tool, response_code),
        Action::Insight { text } => {
            if s.insights.len() < plan.settings.max_insights as usize {
                s.insights.push(Insight {
                    text: text.clone(),
                    state_id: state.id.clone(),
                    turn,
                });
                Ok(false)
            } else {
                Err(format!(
                    "{} insights are kept already, the most this plan allows",
                    plan.settings.max_insights
                ))
            }
        }
        Action::SetSessionState {
            session_state,
            value,
            add,
            active,
        } => set_session_state(
            plan,
            s,
            session_state,
            value,
            add.as_ref(),
            *active,
            &mut follow,
        ),
        // The turn judges an interruption itself (it needs the turn's other interruptions).
        Action::Interrupt { .. } => Err("an interruption is judged by the turn".into()),
        Action::Unrecognised { reason, .. } => Err(reason.clone()),
    };
    match outcome {
        Ok(progress) => {
            events.push(Event::new(
                turn,
                What::ActionAccepted {
                    action: action.clone(),
                },
                accepted_text(action),
            ));
            events.extend(follow);
            progress
        }
        Err(reason) => {
            events.push(Event::new(
                turn,
                What::ActionRejected {
                    action: action.clone(),
                    reason: reason.clone(),
                },
                rejected_text(action, &reason),
            ));
            false
        }
    }
}

pub(super) fn task_done(turn: u32, task_id: &str, auto: bool) -> Event {
    let text = if auto {
        format!("task '{task_id}' is done: everything it collects is known")
    } else {
        format!("task '{task_id}' is done")
    };
    Event::new(
        turn,
        What::TaskCompleted {
            task_id: task_id.to_string(),
            auto,
        },
        text,
    )
}

fn accepted_text(action: &Action) -> String {
    match action {
        Action::Record { key, value, .. } => format!("recorded {key} = {}", show(value)),
        Action::CallTool {
            tool,
            response_code,
        } => format!("called {tool}: it returned {response_code}"),
        Action::Insight { text } => format!("kept the insight \"{text}\""),
        other => format!("accepted: {}", other.describe()),
    }
}

fn rejected_text(action: &Action, reason: &str) -> String {
    match action {
        Action::Record { key, .. } => format!("did not record {key}: {reason}"),
        Action::Complete { task_id } => format!("did not complete task '{task_id}': {reason}"),
        Action::Skip { task_id } => format!("did not skip task '{task_id}': {reason}"),
        Action::CloseGoal { .. } => format!("did not close the goal: {reason}"),
        Action::GiveUpGoal { .. } => format!("did not give up the goal: {reason}"),
        Action::CallTool { tool, .. } => format!("did not call {tool}: {reason}"),
        Action::Insight { .. } => format!("did not keep the insight: {reason}"),
        Action::SetSessionState { session_state, .. } => {
            format!("did not change {session_state}: {reason}")
        }
        Action::Interrupt { interruption } => {
            format!("did not interrupt for '{interruption}': {reason}")
        }
        Action::Unrecognised { text, .. } => format!("did not understand \"{text}\": {reason}"),
    }
}

/// The events of an action the turn judged itself (an interruption).
pub(super) fn judged(turn: u32, action: &Action, outcome: Result<(), String>) -> Event {
    match outcome {
        Ok(()) => Event::new(
            turn,
            What::ActionAccepted {
                action: action.clone(),
            },
            accepted_text(action),
        ),
        Err(reason) => Event::new(
            turn,
            What::ActionRejected {
                action: action.clone(),
                reason: reason.clone(),
            },
            rejected_text(action, &reason),
        ),
    }
}

/// The declaration of `key` that state `state` collects: any of its deliverables, only its goal's
/// in a goal state (whose tasks are ignored).
pub(super) fn recordable<'s>(state: &'s State, key: &str) -> Option<&'s Deliverable> {
    if state.kind == StateType::Goal {
        state
            .goal
            .iter()
            .flat_map(|g| g.deliverables.iter())
            .find(|d| d.key == key)
    } else {
        state.deliverables().find(|d| d.key == key)
    }
}

/// The current task of a strict state, by id: the first task not yet addressed.
fn current_task<'s>(state: &'s State, s: &Session) -> Option<&'s str> {
    let i = s.visit.first_pending()?;
    state.tasks.get(i).map(|t| t.id.as_str())
}

fn record(
    plan: &Plan,
    state: &State,
    s: &mut Session,
    key: &str,
    value: &Value,
    quote: &Option<String>,
) -> Result<bool, String> {
    let Some(d) = recordable(state, key) else {
        let elsewhere = plan
            .states
            .iter()
            .find(|st| st.deliverables().any(|d| d.key == key));
        return Err(match elsewhere {
            Some(other) => format!(
                "this state does not ask for it (it is collected in '{}')",
                other.title
            ),
            None => "no state of this plan asks for it".into(),
        });
    };
    if state.kind == StateType::Strict {
        let current = s.visit.first_pending().and_then(|i| state.tasks.get(i));
        match current {
            Some(task) if task.deliverables.iter().any(|d| d.key == key) => {}
            Some(task) => {
                return Err(format!(
                    "this is a strict state and the current task is '{}'",
                    task.id
                ))
            }
            None => return Err("this is a strict state and all its tasks are done".into()),
        }
    }
    let Some(coerced) = coerce(value, d) else {
        return Err(match d.kind {
            DeliverableType::Number => format!("\"{}\" is not a number", show(value)),
            DeliverableType::Boolean => format!("\"{}\" is not yes or no", show(value)),
            DeliverableType::Enum => format!(
                "\"{}\" is not one of {}",
                show(value),
                d.enum_values.as_deref().unwrap_or_default().join(", ")
            ),
            DeliverableType::String => format!("{} is not text", show(value)),
        });
    };
    if s.deliverables
        .get(key)
        .is_some_and(|r| equal(&r.value, &coerced))
    {
        return Ok(false);
    }
    s.deliverables.insert(
        key.to_string(),
        Recorded {
            value: coerced,
            state_id: state.id.clone(),
            turn: s.turn,
            quote: quote.clone(),
        },
    );
    Ok(true)
}

/// Completes (`complete`) or skips a task, if the rules allow it.
fn task_action(
    state: &State,
    s: &mut Session,
    task_id: &str,
    complete: bool,
) -> Result<(), String> {
    if state.kind == StateType::Goal {
        return Err("this is a goal state: its tasks are ignored".into());
    }
    let Some(i) = s.visit.tasks.iter().position(|t| t.id == task_id) else {
        return Err("there is no such task in this state".into());
    };
    if s.visit.tasks[i].status != TaskStatus::Pending {
        return Err("it is already done".into());
    }
    let task = &state.tasks[i];
    let strict = state.kind == StateType::Strict;
    if strict && current_task(state, s) != Some(task_id) {
        return Err(format!(
            "this is a strict state and the current task is '{}'",
            current_task(state, s).unwrap_or_default()
        ));
    }
    if complete {
        let missing: Vec<&str> = task
            .deliverables
            .iter()
            .filter(|d| d.required && !s.deliverables.contains_key(&d.key))
            .map(|d| d.key.as_str())
            .collect();
        if !missing.is_empty() {
            return Err(format!("{} still missing", missing.join(", ")));
        }
        s.visit.tasks[i].status = TaskStatus::Completed;
    } else {
        if strict && task.required {
            return Err("this is a strict state and the task is required".into());
        }
        s.visit.tasks[i].status = TaskStatus::Skipped;
    }
    Ok(())
}

fn goal_open_and_quoted(state: &State, s: &Session, quote: &str) -> Result<(), String> {
    if state.kind != StateType::Goal {
        return Err("this is not a goal state".into());
    }
    if s.visit.goal != Some(GoalStatus::Open) {
        return Err("the goal is already done".into());
    }
    let wanted = quote.trim().to_lowercase();
    if wanted.is_empty() {
        return Err("the quote is empty".into());
    }
    if !s
        .speech_this_visit()
        .any(|said| said.to_lowercase().contains(&wanted))
    {
        return Err(format!(
            "the user did not say \"{}\" in this state",
            quote.trim()
        ));
    }
    Ok(())
}

fn close_goal(plan: &Plan, state: &State, s: &Session, quote: &str) -> Result<(), String> {
    goal_open_and_quoted(state, s, quote)?;
    let missing: Vec<&str> = state
        .goal
        .iter()
        .flat_map(|g| g.deliverables.iter())
        .filter(|d| d.required && !s.deliverables.contains_key(&d.key))
        .map(|d| d.key.as_str())
        .collect();
    if missing.is_empty() || route_would_fire(plan, state, s) {
        Ok(())
    } else {
        Err(format!("{} still missing", missing.join(", ")))
    }
}

/// Whether a transition of `state` that reads deliverables would fire if the goal were done.
pub(super) fn route_would_fire(plan: &Plan, state: &State, s: &Session) -> bool {
    let ctx = Context {
        plan,
        state,
        session: s,
        assume_goal_done: true,
    };
    state.transitions.iter().any(|t| {
        Check::read(t.condition_type_in(state.kind), &t.condition_config)
            .is_ok_and(|c| reads_deliverables(&c) && ctx.eval(&c).is_some())
    })
}

/// Whether a condition reads any deliverable.
pub fn reads_deliverables(check: &Check) -> bool {
    let mut keys = Vec::new();
    deliverable_keys(check, &mut keys);
    !keys.is_empty()
}

/// The deliverable keys a condition reads, in order.
pub fn deliverable_keys<'c>(check: &'c Check, out: &mut Vec<&'c str>) {
    match check {
        Check::DeliverableExists { key }
        | Check::DeliverableValue { key, .. }
        | Check::DeliverableValueIn { key, .. }
        | Check::DeliverableValueNumeric { key, .. } => out.push(key),
        Check::AllOf(children) | Check::AnyOf(children) => {
            for c in children {
                deliverable_keys(c, out);
            }
        }
        _ => {}
    }
}

fn call_tool(
    plan: &Plan,
    state: &State,
    s: &mut Session,
    tool: &str,
    code: &str,
) -> Result<bool, String> {
    if !state.allowed_tools.iter().any(|t| t == tool) {
        return Err(if state.allowed_tools.is_empty() {
            "no tools are allowed in this state".into()
        } else {
            format!(
                "only {} can be called in this state",
                state.allowed_tools.join(", ")
            )
        });
    }
    let Some(declared) = plan.tools.iter().find(|t| t.name == tool) else {
        return Err("the plan does not declare this tool".into());
    };
    if !super::tool_available(plan, s, tool) {
        return Err(format!(
            "{tool} is available only while {} is active",
            or_list(&declared.available_when)
        ));
    }
    if !declared.response_codes.is_empty() && !declared.response_codes.iter().any(|c| c == code) {
        return Err(format!(
            "it cannot return {code} (it returns {})",
            declared.response_codes.join(", ")
        ));
    }
    s.visit.tools.insert(tool.to_string(), code.to_string());
    Ok(true)
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `set_session_state`: accepted when the plan lets the agent change the state and the change
/// fits its type; then applied with its cascade. Progress when it changed anything.
fn set_session_state(
    plan: &Plan,
    s: &mut Session,
    id: &str,
    value: &Option<Option<Value>>,
    add: Option<&serde_json::Number>,
    active: Option<bool>,
    events: &mut Vec<Event>,
) -> Result<bool, String> {
    let Some(st) = plan.session_state(id) else {
        return Err("the plan has no such session state".into());
    };
    if !st.agent_can_change {
        return Err("the plan does not let the agent change it".into());
    }
    if value.is_some() && add.is_some() {
        return Err("give a value or a number to add, not both".into());
    }
    if value.is_none() && add.is_none() && active.is_none() {
        return Err("say what to change: a value, a number to add, or whether it is active".into());
    }
    let current = s
        .session_states
        .get(id)
        .map_or(Value::Null, |v| v.value.clone());
    let new_value = super::switching::changed_value(st, &current, value, add)?;
    let mut changed = false;
    if let Some(v) = new_value {
        changed |= super::switching::set_value(s, id, v, ChangedBy::Agent, events);
    }
    if let Some(on) = active {
        changed |= super::switching::switch(plan, s, id, on, ChangedBy::Agent, events);
    }
    Ok(changed)
}
