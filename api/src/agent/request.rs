//! A turn's requests to an OpenAI-compatible Chat Completions endpoint, as docs/agents.md lists them:
//! the system message (the turn's prompt, then what to do now), the transcript, and one function
//! per kind of action the runtime would accept now, their parameters' enums listing the allowed
//! values; the second request with each call's result; the goal check. Pure: the same plan and
//! session make the same bytes, which is what the tests compare.

use plan_core::plan::{Deliverable, Plan, State, StateType, Task};
use plan_core::runtime::{
    interrupt, prompt, tools_available_now, GoalStatus, Role, Session, TaskStatus,
};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

use super::answer::Call;
use super::AgentSettings;

/// The functions of docs/agents.md, in the order they are offered.
pub const FUNCTIONS: [&str; 9] = [
    "record_deliverable",
    "complete_task",
    "skip_task",
    "close_goal",
    "give_up_goal",
    "call_tool",
    "set_session_state",
    "interrupt",
    "note_insight",
];

/// The body of a request: the model, the settings' sampling, the messages, the tools if any.
fn body(settings: &AgentSettings, messages: Vec<Value>, tools: Vec<Value>) -> Value {
    let mut b = Map::new();
    b.insert("model".into(), json!(settings.model));
    b.insert("messages".into(), Value::Array(messages));
    b.insert("temperature".into(), json!(settings.temperature));
    if let Some(seed) = settings.seed {
        b.insert("seed".into(), json!(seed));
    }
    if !tools.is_empty() {
        b.insert("tools".into(), Value::Array(tools));
        b.insert("tool_choice".into(), json!("auto"));
    }
    b.insert("stream".into(), json!(false));
    Value::Object(b)
}

/// The first request of a user turn: what the model needs to choose its actions and reply.
pub fn first(settings: &AgentSettings, plan: &Plan, session: &Session, message: &str) -> Value {
    body(
        settings,
        messages(plan, session, message),
        functions(plan, session),
    )
}

/// The second request, when the model called functions and wrote no text: the first request's
/// messages (taken from it, not made again), the model's calls, and each call's result as a tool
/// message.
pub fn second(
    settings: &AgentSettings,
    first: &Value,
    calls: &[Call],
    results: &[String],
) -> Value {
    let mut m = first["messages"].as_array().cloned().unwrap_or_default();
    let tool_calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            json!({
                "id": c.id_or(i),
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments},
            })
        })
        .collect();
    // Empty text, not `null`: OpenAI takes either, but servers that validate strictly
    // (llama-cpp-python's) refuse `null` with HTTP 500.
    m.push(json!({"role": "assistant", "content": "", "tool_calls": tool_calls}));
    for (i, (c, result)) in calls.iter().zip(results).enumerate() {
        m.push(json!({"role": "tool", "tool_call_id": c.id_or(i), "content": result}));
    }
    // No tools this time: the reply is what is asked for.
    body(settings, m, Vec::new())
}

/// The follow-up request after a first answer with neither words nor calls: the same messages,
/// no tools, so what comes back is words.
pub fn again(settings: &AgentSettings, first: &Value) -> Value {
    let m = first["messages"].as_array().cloned().unwrap_or_default();
    body(settings, m, Vec::new())
}

/// "Test connection"'s check of function calling: one small request that offers one function and
/// asks for it in words, as a turn does (`tool_choice` "auto": a function named there is forced by
/// some servers' grammars, which would prove nothing about the model).
pub fn function_check(settings: &AgentSettings) -> Value {
    let mut b = body(
        settings,
        vec![
            json!({"role": "system", "content": "You are testing a connection. Call the function ping with the word \"ok\"."}),
            json!({"role": "user", "content": "Call ping with the word ok."}),
        ],
        vec![json!({"type": "function", "function": {
            "name": "ping",
            "description": "Answers that the connection works.",
            "parameters": {"type": "object", "properties": {"word": {"type": "string", "enum": ["ok"]}},
                           "required": ["word"], "additionalProperties": false}}})],
    );
    b["max_tokens"] = json!(64);
    b
}

/// The separate goal check before `close_goal` (`closing`) or `give_up_goal`: do the participant's
/// quoted words show the success description met (or the subject declined)?
pub fn goal_check(settings: &AgentSettings, state: &State, closing: bool, quote: &str) -> Value {
    let goal = state.goal.as_ref();
    let objective = goal.map(|g| g.objective.as_str()).unwrap_or_default();
    let success = goal
        .map(|g| g.success_description.as_str())
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(objective);
    let question = if closing {
        format!("Do these words show this met: {success}?")
    } else {
        "Do these words show that the participant declined, and does not want to go on with the objective?".to_string()
    };
    let user = format!(
        "Objective: {objective}\nSuccess looks like: {success}\nThe participant said: \"{quote}\"\n\n{question}"
    );
    body(
        settings,
        vec![
            json!({"role": "system", "content": "You check one thing in a conversation, strictly, from the participant's words alone. Answer with a JSON object only: {\"met\": true or false, \"reason\": \"one short sentence\"}."}),
            json!({"role": "user", "content": user}),
        ],
        Vec::new(),
    )
}

/// The system message, then the transcript as user/assistant messages, the new message last.
pub fn messages(plan: &Plan, session: &Session, message: &str) -> Vec<Value> {
    let mut m = vec![json!({"role": "system", "content": system_message(plan, session)})];
    for line in &session.transcript {
        let role = match line.role {
            Role::User => "user",
            Role::Agent => "assistant",
        };
        m.push(json!({"role": role, "content": line.text}));
    }
    m.push(json!({"role": "user", "content": message}));
    m
}

/// The turn's prompt (docs/session-states.md), then what to do now, made from the visit.
pub fn system_message(plan: &Plan, session: &Session) -> String {
    let mut s = prompt(plan, session);
    let Some(state) = session.state(plan) else {
        return s;
    };
    if !s.is_empty() {
        s.push_str("\n\n");
    }
    let _ = write!(s, "## What to do now\nYou are in \"{}\".", state.title);
    if !state.description.trim().is_empty() {
        let _ = write!(s, " {}", state.description.trim());
    }
    s.push('\n');
    match state.kind {
        StateType::Strict => match current_task(state, session) {
            Some(task) => {
                s.push_str("Do one thing at a time, in order. The current task:\n");
                task_line(&mut s, task, session);
            }
            None => s.push_str("Every task here is done.\n"),
        },
        StateType::Loose => {
            let pending: Vec<&Task> = pending_tasks(state, session).collect();
            if pending.is_empty() {
                s.push_str("Every task here is done.\n");
            } else {
                s.push_str("The tasks still open, in any order:\n");
                for t in pending {
                    task_line(&mut s, t, session);
                }
            }
        }
        // Seed 000's goal mode: the objective and what is missing, never a task list.
        StateType::Goal => {
            if let Some(goal) = &state.goal {
                let _ = writeln!(s, "Objective: {}", goal.objective.trim());
                if !goal.success_description.trim().is_empty() {
                    let _ = writeln!(s, "Success looks like: {}", goal.success_description.trim());
                }
                let missing: Vec<String> = missing(&goal.deliverables, session)
                    .map(deliverable_text)
                    .collect();
                if !missing.is_empty() {
                    let _ = writeln!(s, "Still missing: {}", missing.join("; "));
                }
                if session.visit.goal == Some(GoalStatus::Open) {
                    s.push_str("When the participant's own words show the objective met, call close_goal quoting them; if they decline, call give_up_goal quoting them.\n");
                }
            }
        }
    }
    let tools: Vec<String> = available_tools(plan, session)
        .map(|name| {
            let tool = plan.tools.iter().find(|t| t.name == name);
            let about = tool.map(|t| t.description.trim()).unwrap_or_default();
            let codes = tool
                .map(|t| t.response_codes.join(", "))
                .unwrap_or_default();
            let mut line = format!("- {name}");
            if !about.is_empty() {
                let _ = write!(line, ": {about}");
            }
            if !codes.is_empty() {
                let _ = write!(line, " (returns one of {codes})");
            }
            line
        })
        .collect();
    if !tools.is_empty() {
        let _ = writeln!(
            s,
            "Tools you may call now (call_tool):\n{}",
            tools.join("\n")
        );
    }
    let interruptions: Vec<String> = applicable_interruptions(plan, state, session)
        .map(|x| {
            let when = if x.description.trim().is_empty() {
                x.name()
            } else {
                x.description.trim()
            };
            format!("- {}: {when}", x.id)
        })
        .collect();
    if !interruptions.is_empty() {
        let _ = writeln!(
            s,
            "If the participant wants one of these instead, call interrupt with its id:\n{}",
            interruptions.join("\n")
        );
    }
    s.push_str("Record what the participant tells you with the functions, then reply to them in plain words.");
    s
}

fn task_line(s: &mut String, task: &Task, session: &Session) {
    let what = if task.instruction.trim().is_empty() {
        task.description.trim()
    } else {
        task.instruction.trim()
    };
    let _ = write!(s, "- {}: {what}", task.id);
    let missing: Vec<String> = missing(&task.deliverables, session)
        .map(deliverable_text)
        .collect();
    if !missing.is_empty() {
        let _ = write!(s, " (missing: {})", missing.join("; "));
    }
    s.push('\n');
}

fn deliverable_text(d: &Deliverable) -> String {
    let mut t = format!("{} ({}", d.key, d.kind.as_str());
    if let Some(values) = &d.enum_values {
        let _ = write!(t, ": {}", values.join(" | "));
    }
    t.push(')');
    if !d.description.trim().is_empty() {
        let _ = write!(t, " {}", d.description.trim());
    }
    t
}

fn missing<'d>(
    list: &'d [Deliverable],
    session: &'d Session,
) -> impl Iterator<Item = &'d Deliverable> + 'd {
    list.iter()
        .filter(|d| !session.deliverables.contains_key(&d.key))
}

/// The current task of a strict state: the first not yet addressed.
fn current_task<'s>(state: &'s State, session: &Session) -> Option<&'s Task> {
    state.tasks.get(session.visit.first_pending()?)
}

fn pending_tasks<'s>(state: &'s State, session: &'s Session) -> impl Iterator<Item = &'s Task> {
    state
        .tasks
        .iter()
        .filter(|t| session.visit.task(&t.id) == Some(TaskStatus::Pending))
}

/// The tools the agent has now (the runtime's one rule).
fn available_tools<'p>(plan: &'p Plan, session: &'p Session) -> impl Iterator<Item = &'p str> {
    tools_available_now(plan, session).map(|(name, _)| name)
}

fn applicable_interruptions<'p>(
    plan: &'p Plan,
    state: &'p State,
    session: &'p Session,
) -> impl Iterator<Item = &'p plan_core::plan::Interruption> {
    plan.interruptions
        .iter()
        .filter(|x| interrupt::why_not(plan, state, session, x).is_none())
}

/// One function of the `tools` list.
fn function(name: &str, description: &str, properties: Value, required: &[&str]) -> Value {
    json!({
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            },
        },
    })
}

fn one_of(values: Vec<&str>, description: &str) -> Value {
    json!({"type": "string", "enum": values, "description": description})
}

/// One function per kind of action the runtime would accept now, with the allowed values as
/// enums; the functions that cannot be accepted now are left out.
pub fn functions(plan: &Plan, session: &Session) -> Vec<Value> {
    let mut f = Vec::new();
    let Some(state) = session.state(plan) else {
        return f;
    };
    if session.ended.is_some() {
        return f;
    }
    let strict = state.kind == StateType::Strict;
    let goal_open = state.kind == StateType::Goal && session.visit.goal == Some(GoalStatus::Open);
    // The keys recordable now: a goal's; in a strict state the current task's; else the tasks'.
    let keys: Vec<&str> = match state.kind {
        StateType::Goal => state
            .goal
            .iter()
            .flat_map(|g| g.deliverables.iter())
            .map(|d| d.key.as_str())
            .collect(),
        StateType::Strict => current_task(state, session)
            .into_iter()
            .flat_map(|t| t.deliverables.iter())
            .map(|d| d.key.as_str())
            .collect(),
        StateType::Loose => state.deliverables().map(|d| d.key.as_str()).collect(),
    };
    if !keys.is_empty() {
        f.push(function(
            "record_deliverable",
            "Record a value the participant gave, quoting their words.",
            json!({
                "key": one_of(keys, "which value"),
                "value": {"description": "the value: a number for a number, true or false for a yes/no, one of the listed values for a choice, else text"},
                "quote": {"type": "string", "description": "the participant's own words that gave it"},
            }),
            &["key", "value"],
        ));
    }
    // Tasks: a goal state's are ignored; strict: only the current one.
    let open: Vec<&Task> = match state.kind {
        StateType::Goal => Vec::new(),
        StateType::Strict => current_task(state, session).into_iter().collect(),
        StateType::Loose => pending_tasks(state, session).collect(),
    };
    let completable: Vec<&str> = open
        .iter()
        .filter(|t| {
            missing(&t.deliverables, session)
                .filter(|d| d.required)
                .count()
                == 0
        })
        .map(|t| t.id.as_str())
        .collect();
    if !completable.is_empty() {
        f.push(function(
            "complete_task",
            "Mark a task done.",
            json!({"task_id": one_of(completable, "the task")}),
            &["task_id"],
        ));
    }
    let skippable: Vec<&str> = open
        .iter()
        .filter(|t| !strict || !t.required)
        .map(|t| t.id.as_str())
        .collect();
    if !skippable.is_empty() {
        f.push(function(
            "skip_task",
            "Leave a task out, when the participant cannot or need not do it.",
            json!({"task_id": one_of(skippable, "the task")}),
            &["task_id"],
        ));
    }
    if goal_open {
        let quote =
            json!({"quote": {"type": "string", "description": "the participant's own words"}});
        f.push(function(
            "close_goal",
            "The participant's words show the objective met.",
            quote.clone(),
            &["quote"],
        ));
        f.push(function(
            "give_up_goal",
            "The participant declined the objective.",
            quote,
            &["quote"],
        ));
    }
    let tools: Vec<&str> = available_tools(plan, session).collect();
    if !tools.is_empty() {
        f.push(function(
            "call_tool",
            "Call one of the tools available now.",
            json!({"tool": one_of(tools, "the tool")}),
            &["tool"],
        ));
    }
    let changeable: Vec<&str> = plan
        .session_states
        .iter()
        .filter(|s| s.agent_can_change)
        .map(|s| s.id.as_str())
        .collect();
    if !changeable.is_empty() {
        f.push(function(
            "set_session_state",
            "Change a session state: its value (null clears it), a number to add, or whether it is on.",
            json!({
                "session_state": one_of(changeable, "which session state"),
                "value": {"description": "its new value"},
                "add": {"type": "number", "description": "a number to add to a number state"},
                "active": {"type": "boolean", "description": "switch it on or off"},
            }),
            &["session_state"],
        ));
    }
    let interruptions: Vec<&str> = applicable_interruptions(plan, state, session)
        .map(|x| x.id.as_str())
        .collect();
    if !interruptions.is_empty() {
        f.push(function(
            "interrupt",
            "The participant wants something else first (or instead): go there.",
            json!({"interruption": one_of(interruptions, "which interruption")}),
            &["interruption"],
        ));
    }
    if session.insights.len() < plan.settings.max_insights as usize {
        f.push(function(
            "note_insight",
            "Keep something worth knowing about the participant.",
            json!({"text": {"type": "string"}}),
            &["text"],
        ));
    }
    f
}
