//! The simulator: the built-in, offline, deterministic agent, so that authors and tests get the
//! same conversation every time.
//!
//! It reads commands (`/set KEY VALUE`, `/complete TASK`, `/skip TASK`, `/close QUOTE`,
//! `/giveup QUOTE`, `/tool NAME [CODE]`, `/insight TEXT`, `/state ID VALUE`, `/activate ID`, `/interrupt ID`,
//! `/deactivate ID`, one per line) and plain text: `key: value`
//! lines, else the answer to the deliverable its last reply asked for (the *focus*). Its replies
//! ask for the next missing thing. The focus is not stored: it is recomputed from the session the
//! reply was written for, which is the session the next message arrives in.

use serde_json::{Number, Value};

use super::action::{self, deliverable_keys};
use super::chat::{Agent, AgentError, Answered, Input, ToolResults};
use super::interrupt;
use super::session::{speech, AgentKind, GoalStatus, Line, Role, Session};
use super::{Action, RunError};
use crate::condition::Check;
use crate::plan::{Deliverable, DeliverableType, Goal, Plan, State, StateType, Task};

mod reading;

pub use reading::read_value;
use reading::{is_give_up, key_values, says, whole_word};

/// The deterministic agent of `docs/runtime.md`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Simulator;

/// What the next reply asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ask<'p> {
    Deliverable(&'p Deliverable),
    /// A task without a deliverable still missing: it needs a `/complete`.
    Task(&'p Task),
    /// A goal with nothing missing that a route reads: the objective itself.
    Goal(&'p Goal),
    Nothing,
}

impl Agent for Simulator {
    fn kind(&self) -> AgentKind {
        AgentKind::Simulator
    }

    fn opening(&self, plan: &Plan, session: &Session) -> Result<String, AgentError> {
        Ok(self.reply_text(plan, session))
    }

    fn turn(&self, plan: &Plan, session: &Session, input: Input) -> Result<Answered, RunError> {
        let actions = self.actions(plan, session, input.message, input.tool_results);
        let (session, events) = super::step(plan, session, input.message, &actions)?;
        Ok(Answered {
            reply: self.reply_text(plan, &session),
            session,
            events,
            by: AgentKind::Simulator,
            calls: Vec::new(),
            goal_checks: Vec::new(),
            cost: None,
        })
    }
}

impl Simulator {
    /// The actions of a message (the simulator never fails). `/tool NAME` without a code calls the
    /// tool with `tool_results`' code for it, else its first declared code.
    pub fn actions(
        &self,
        plan: &Plan,
        session: &Session,
        message: &str,
        tool_results: &ToolResults,
    ) -> Vec<Action> {
        let mut actions: Vec<Action> = message
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with('/'))
            .map(command)
            .map(|a| match a {
                Action::CallTool {
                    tool,
                    response_code,
                } if response_code.is_empty() => {
                    let response_code = tool_results
                        .get(&tool)
                        .cloned()
                        .or_else(|| {
                            let declared = plan.tools.iter().find(|t| t.name == tool)?;
                            declared.response_codes.first().cloned()
                        })
                        .unwrap_or_default();
                    Action::CallTool {
                        tool,
                        response_code,
                    }
                }
                other => other,
            })
            .collect();
        let plain = speech(message);
        let Some(state) = session.state(plan) else {
            return actions;
        };
        if plain.is_empty() || session.ended.is_some() {
            return actions;
        }
        // An applicable interruption's phrase wins over reading the message as an answer, and
        // over a goal's give-up phrases, so a plan's "never mind" is the plan's.
        if let Some(x) = plan.interruptions.iter().find(|x| {
            interrupt::why_not(plan, state, session, x).is_none()
                && x.phrases.iter().any(|p| says(&plain, p))
        }) {
            actions.push(Action::Interrupt {
                interruption: x.id.clone(),
            });
            return actions;
        }
        let goal_open =
            state.kind == StateType::Goal && session.visit.goal == Some(GoalStatus::Open);
        if goal_open && is_give_up(&plain) {
            actions.push(Action::GiveUpGoal { quote: plain });
            return actions;
        }
        let pairs = key_values(state, &plain);
        if !pairs.is_empty() {
            actions.extend(pairs);
        } else if let Ask::Deliverable(d) = ask(plan, session) {
            if let Some(value) = read_value(d, &plain) {
                actions.push(Action::Record {
                    key: d.key.clone(),
                    value,
                    quote: Some(plain.clone()),
                });
            }
        }
        if goal_open && goal_can_close(plan, state, session, message, &actions) {
            actions.push(Action::CloseGoal { quote: plain });
        }
        actions
    }

    /// The reply for the state the session is now in.
    pub fn reply_text(&self, plan: &Plan, session: &Session) -> String {
        let Some(state) = session.state(plan) else {
            return String::new();
        };
        let mut parts: Vec<String> = Vec::new();
        // Back from a detour: first what the return point is for, then the task goes on. Its
        // instructions are said as they are: the contract has the reply say them first, and an
        // author writes them as words for the caller ("Good, that is noted. Now, back to…").
        if let Some(point) = session
            .returned_from
            .as_deref()
            .and_then(|id| plan.state(id))
        {
            let said = super::render(&point.instructions, session);
            if !said.trim().is_empty() {
                parts.push(said.trim().to_string());
            }
        }
        // The state's instructions once, when it is entered; then only what is missing.
        let just_entered = session.visit.total == 0;
        if just_entered {
            parts.extend(followed(&super::render(&state.instructions, session)));
        }
        let speech_from = parts.len();
        if let Some(ended) = &session.ended {
            parts.push(format!("(The conversation is over: {}.)", ended.describe()));
            return greeted(parts, speech_from, session).join("\n");
        }
        match ask(plan, session) {
            Ask::Deliverable(d) => parts.push(question(d)),
            Ask::Task(t) => parts.push(format!(
                "Next: {}. (Type /complete {} when it is done.)",
                sentence(
                    first_non_empty(&[&t.description, &t.instruction]).unwrap_or(&humanise(&t.id))
                ),
                t.id
            )),
            Ask::Goal(g) => parts.push(format!("Our goal: {}.", sentence(&g.objective))),
            Ask::Nothing if parts.is_empty() => {
                parts.push(match first_non_empty(&[&state.description]) {
                    Some(d) => format!("{}.", sentence_start(d)),
                    None => "Go on.".into(),
                });
                parts.extend(waiting_on(plan, state, session));
            }
            Ask::Nothing => {}
        }
        if let Some(hint) = tools_hint(plan, session) {
            parts.push(hint);
        }
        greeted(parts, speech_from, session).join("\n")
    }
}

/// A conversation opens with a greeting, the simulator's own words: "Hello!" before the first
/// thing it says (`parts` from `speech_from` on; before them, what it follows), on a line of its
/// own before a note in brackets.
fn greeted(mut parts: Vec<String>, speech_from: usize, session: &Session) -> Vec<String> {
    if session.turn != 0 {
        return parts;
    }
    match parts.get_mut(speech_from) {
        Some(first) if !first.starts_with('(') => *first = format!("Hello! {first}"),
        _ => parts.insert(speech_from, "Hello!".into()),
    }
    parts
}

/// A state's instructions as the simulator shows them: in brackets, named, so that they read as
/// what the agent follows and not as what it says to the caller ("Greet the caller warmly…" said
/// to the caller was the test chat's first message).
fn followed(instructions: &str) -> Option<String> {
    let instructions = instructions.trim();
    (!instructions.is_empty()).then(|| format!("(Instructions: {instructions})"))
}

/// Why nothing moves when the caller gave an answer none of the state's arrows handles (the
/// `unhandled-value` warning, met in a conversation): said in the test chat, so that "Go on."
/// is not all the author sees while the conversation waits.
fn waiting_on(plan: &Plan, state: &State, session: &Session) -> Option<String> {
    let answer = crate::validate::unhandled_answers(plan, state)
        .into_iter()
        .find(|a| {
            session
                .deliverables
                .get(&a.key)
                .is_some_and(|known| known.value == a.value)
        })?;
    Some(format!(
        "(The caller gave '{}' for {}: no arrow leaves '{}' for that answer, so the conversation \
         waits here for another one.)",
        crate::coerce::in_words(&answer.value),
        answer.key,
        state.title
    ))
}

/// The next missing thing in the session's current state: strict, its current task; loose, the
/// first pending task; goal, the first missing required goal deliverable, else the first unknown
/// key a route reads that this state declares.
pub fn ask<'p>(plan: &'p Plan, session: &Session) -> Ask<'p> {
    let Some(state) = session.state(plan) else {
        return Ask::Nothing;
    };
    if session.ended.is_some() {
        return Ask::Nothing;
    }
    let known = |d: &&Deliverable| session.deliverables.contains_key(&d.key);
    if state.kind == StateType::Goal {
        let Some(goal) = &state.goal else {
            return Ask::Nothing;
        };
        if session.visit.goal != Some(GoalStatus::Open) {
            return Ask::Nothing;
        }
        if let Some(d) = goal.deliverables.iter().find(|d| d.required && !known(d)) {
            return Ask::Deliverable(d);
        }
        for t in &state.transitions {
            let Ok(check) = Check::read(t.condition_type_in(state.kind), &t.condition_config)
            else {
                continue;
            };
            let mut keys = Vec::new();
            deliverable_keys(&check, &mut keys);
            for key in keys {
                if let Some(d) = goal.deliverables.iter().find(|d| d.key == key && !known(d)) {
                    return Ask::Deliverable(d);
                }
            }
        }
        return Ask::Goal(goal);
    }
    let Some(task) = session
        .visit
        .first_pending()
        .and_then(|i| state.tasks.get(i))
    else {
        return Ask::Nothing;
    };
    let missing = task
        .deliverables
        .iter()
        .find(|d| d.required && !known(d))
        .or_else(|| task.deliverables.iter().find(|d| !known(d)));
    match missing {
        Some(d) => Ask::Deliverable(d),
        None => Ask::Task(task),
    }
}

/// Whether the goal could close after `actions`: every required goal deliverable known, or a
/// route that reads deliverables would fire.
fn goal_can_close(
    plan: &Plan,
    state: &State,
    session: &Session,
    message: &str,
    actions: &[Action],
) -> bool {
    let mut preview = session.clone();
    preview.turn += 1;
    preview.transcript.push(Line {
        role: Role::User,
        text: message.to_string(),
        turn: preview.turn,
        by: None,
    });
    let mut scratch = Vec::new();
    for a in actions {
        action::apply(plan, state, &mut preview, a, &mut scratch);
    }
    if preview.visit.goal != Some(GoalStatus::Open) {
        return false;
    }
    let required_known = state
        .goal
        .iter()
        .flat_map(|g| g.deliverables.iter())
        .filter(|d| d.required)
        .all(|d| preview.deliverables.contains_key(&d.key));
    required_known || action::route_would_fire(plan, state, &preview)
}

/// One command line as an action; an unknown or incomplete command is an [`Action::Unrecognised`].
fn command(line: &str) -> Action {
    let body = &line[1..];
    let (name, rest) = match body.split_once(char::is_whitespace) {
        Some((n, r)) => (n, r.trim()),
        None => (body, ""),
    };
    let unrecognised = |reason: String| Action::Unrecognised {
        text: line.to_string(),
        reason,
    };
    let needs = |what: &str| unrecognised(format!("/{name} needs {what}"));
    let two = || {
        rest.split_once(char::is_whitespace)
            .map(|(a, b)| (a.to_string(), b.trim().to_string()))
    };
    match name {
        "set" => match two() {
            Some((key, value)) => Action::Record {
                key,
                value: Value::String(value),
                quote: None,
            },
            None => needs("a key and a value: /set KEY VALUE"),
        },
        "complete" | "skip" if rest.is_empty() => needs("a task id"),
        "complete" => Action::Complete {
            task_id: rest.to_string(),
        },
        "skip" => Action::Skip {
            task_id: rest.to_string(),
        },
        "close" | "giveup" if rest.is_empty() => needs("a quote of what the user said"),
        "close" => Action::CloseGoal {
            quote: rest.to_string(),
        },
        "giveup" => Action::GiveUpGoal {
            quote: rest.to_string(),
        },
        "tool" => match two() {
            Some((tool, response_code)) => Action::CallTool {
                tool,
                response_code,
            },
            // The code it returns comes from the test's tool results (see `actions`).
            None if !rest.is_empty() => Action::CallTool {
                tool: rest.to_string(),
                response_code: String::new(),
            },
            None => needs("a tool: /tool NAME, or /tool NAME CODE"),
        },
        "state" => match two() {
            Some((session_state, value)) => Action::SetSessionState {
                session_state,
                value: Some(Some(Value::String(value))),
                add: None,
                active: None,
            },
            None => needs("a session state and a value: /state ID VALUE"),
        },
        "activate" | "deactivate" if rest.is_empty() => needs("a session state: /activate ID"),
        "activate" | "deactivate" => Action::SetSessionState {
            session_state: rest.to_string(),
            value: None,
            add: None,
            active: Some(name == "activate"),
        },
        "interrupt" if rest.is_empty() => needs("an interruption: /interrupt ID"),
        "interrupt" => Action::Interrupt {
            interruption: rest.to_string(),
        },
        "insight" if rest.is_empty() => needs("a text"),
        "insight" => Action::Insight {
            text: rest.to_string(),
        },
        _ => unrecognised(
            "unknown command (use /set, /complete, /skip, /close, /giveup, /tool, /insight, /state, /activate, /deactivate or /interrupt)"
                .into(),
        ),
    }
}

/// "Please tell me the customer's first name (billing, technical or general)."; a description
/// that is a question already is asked as it is: "Shall I place the order (yes or no)?".
fn question(d: &Deliverable) -> String {
    let described = first_non_empty(&[&d.description]);
    let what = match described {
        Some(desc) => sentence(desc),
        None => format!("the {}", humanise(&d.key)),
    };
    let choices = match d.kind {
        DeliverableType::Enum => {
            let values = d.enum_values.as_deref().unwrap_or_default();
            match values {
                [] => String::new(),
                [one] => format!(" ({one})"),
                [init @ .., last] => format!(" ({} or {last})", init.join(", ")),
            }
        }
        DeliverableType::Boolean => " (yes or no)".into(),
        DeliverableType::Number => " (a number)".into(),
        DeliverableType::String => String::new(),
    };
    // Choices the description already lists are said once: "small, medium or large?", not
    // "small, medium or large (small, medium or large)?".
    let listed = described.is_some_and(|desc| {
        let lower = desc.to_lowercase();
        match d.kind {
            DeliverableType::Enum => d.enum_values.as_deref().is_some_and(|vs| {
                vs.iter()
                    .all(|v| whole_word(&lower, &v.to_lowercase()).is_some())
            }),
            DeliverableType::Boolean => lower.contains("yes or no"),
            _ => false,
        }
    });
    let choices = if listed { String::new() } else { choices };
    match described.map(str::trim_end) {
        Some(asked) if asked.ends_with('?') => {
            format!("{}{choices}?", asked.trim_end_matches('?').trim_end())
        }
        _ => format!("Please tell me {what}{choices}."),
    }
}

fn first_non_empty<'s>(texts: &[&'s String]) -> Option<&'s str> {
    texts.iter().map(|t| t.trim()).find(|t| !t.is_empty())
}

/// `account_number` → "account number".
fn humanise(key: &str) -> String {
    key.replace(['_', '-'], " ").to_lowercase()
}

/// A description used inside a sentence: first letter lowered (unless it starts an acronym),
/// final full stop dropped.
fn sentence(text: &str) -> String {
    let t = text.trim().trim_end_matches('.');
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => {
            a.to_lowercase().chain(t[a.len_utf8()..].chars()).collect()
        }
        _ => t.to_string(),
    }
}

fn sentence_start(text: &str) -> String {
    text.trim().trim_end_matches('.').to_string()
}

/// "(Tools here: verify_customer → CUSTOMER_VERIFIED or NOT_FOUND. Type /tool NAME CODE to call one.)"
/// The tools the agent has now: allowed here and not gated off by `available_when`.
fn tools_hint(plan: &Plan, session: &Session) -> Option<String> {
    let tools: Vec<String> = super::tools_available_now(plan, session)
        .map(|(name, tool)| {
            let codes = tool
                .map(|t| t.response_codes.as_slice())
                .unwrap_or_default();
            match codes {
                [] => name.to_string(),
                [one] => format!("{name} → {one}"),
                [init @ .., last] => format!("{name} → {} or {last}", init.join(", ")),
            }
        })
        .collect();
    (!tools.is_empty()).then(|| {
        format!(
            "(Tools here: {}. Type /tool NAME CODE to call one.)",
            tools.join("; ")
        )
    })
}
