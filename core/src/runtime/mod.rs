//! The runtime: a plan run as a conversation, the pure state machine of `docs/runtime.md`.
//!
//! [`step`] takes a session, the user's message and the actions an agent asked for, and returns
//! the next session and the events that explain it, following the turn order of the spec
//! exactly. No IO, clock or randomness inside: the same inputs give the same bytes. Endings and
//! hand-offs are returned as data ([`Session::ended`]) for the caller to carry out.
//!
//! Who produces the actions and the replies is an [`Agent`]: the deterministic [`Simulator`] is
//! the default; [`chat`] drives a conversation with one, and [`script`] runs saved test cases.
//!
//! Decisions where the spec is silent: a goal state's tasks are ignored everywhere (no task list in
//! its visit, its task keys cannot be recorded there); an action naming an unknown command is
//! rejected with the reason; a condition whose config cannot be read (a plan with errors) is false.

mod action;
pub mod chat;
mod evaluate;
mod event;
pub mod interrupt;
mod prompt;
pub mod script;
mod session;
mod simulator;
mod switching;
mod tools;
mod turn;

pub use action::{deliverable_keys, reads_deliverables, Action};
pub use chat::{
    Agent, AgentError, Answered, Chat, GoalCheck, Input, ToolCallRecord, ToolResults, TurnCost,
    Usage,
};
pub use evaluate::{declaration, show};
pub use event::{ChangedBy, Event, Move, What};
pub use prompt::{prompt, render};
pub use session::*;
pub use simulator::Simulator;
pub use switching::{changed_value, is_active, set_by_author, Preset, SessionValue};
pub use tools::{tool_available, tools_available_now};
pub use turn::Turn;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::coerce::coerce;
use crate::condition::Check;
use crate::plan::{Plan, State, StateType};
use evaluate::Context;

/// The longest message a caller can say in one turn, in bytes (64 KiB): a message is kept in
/// the transcript, and may be kept as an insight and as the words a value came from, so its size
/// is what a conversation's files grow by.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// Why a turn could not be taken. The session is unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// The conversation has ended.
    #[error("the conversation has ended ({}, in state '{}' at turn {}): start a new one", .0.describe(), .0.state_id, .0.turn)]
    Ended(Ended),
    /// The plan names no start state.
    #[error("the plan has no start state")]
    NoStartState,
    /// The plan has no state of this id.
    #[error("the plan has no state '{0}'")]
    UnknownState(String),
    /// A value given from the start that no task or goal collects.
    #[error("no task or goal of the plan collects '{0}', so it cannot be known from the start")]
    NotDeclared(String),
    /// A session state the plan does not declare.
    #[error("the plan has no session state '{0}'")]
    UnknownSessionState(String),
    /// A session state given from the start in a way it cannot be.
    #[error("{id} cannot be set that way: {why}")]
    BadSessionPreset {
        /// The session state's id.
        id: String,
        /// Why not.
        why: String,
    },
    /// A value given from the start that cannot be.
    #[error("{key} cannot be {value} from the start: {why}")]
    BadPreset {
        /// The deliverable key.
        key: String,
        /// The value as given.
        value: String,
        /// Why not.
        why: String,
    },
    /// A message longer than [`MAX_MESSAGE_BYTES`]: refused before anything is done or saved.
    #[error("this message is {0} bytes; a message is at most 65,536 bytes (64 KiB): shorten it or split it")]
    MessageTooLong(usize),
    /// The agent could not act or reply (a language model that did not answer); the session is
    /// as it was before the turn.
    #[error("{0}")]
    Agent(#[from] AgentError),
}

/// Where a conversation begins when it is not simply the plan's start: a state of the plan, and
/// values already known ("test from here"; a script's `start`). Each field optional.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// The state to begin in instead of the start state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Values known from the start, by key (coerced to each key's type).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub deliverables: BTreeMap<String, Value>,
    /// Session states set by the author before the first turn (`by: author`), by id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub session_states: BTreeMap<String, Preset>,
}

impl Start {
    /// Whether it begins as a new conversation does: at the start state, nothing known.
    pub fn is_plain(&self) -> bool {
        self.state.is_none() && self.deliverables.is_empty() && self.session_states.is_empty()
    }
}

/// A new session of `plan` that begins as `from` says: in its state (else the start state), with
/// its values recorded at turn 0 in that state without a quote; then that state is entered (step
/// 9), so tasks those values finish are completed at once.
pub fn start_from(
    plan: &Plan,
    plan_ref: PlanRef,
    from: &Start,
) -> Result<(Session, Vec<Event>), RunError> {
    let id = match &from.state {
        Some(id) => id.as_str(),
        None => plan.start_state_id().ok_or(RunError::NoStartState)?,
    };
    let state = plan
        .state(id)
        .ok_or_else(|| RunError::UnknownState(id.to_string()))?;
    let mut s = Session {
        schema: SESSION_SCHEMA,
        plan: plan_ref,
        turn: 0,
        state_id: String::new(),
        visit: Visit::of(state, 0),
        deliverables: Default::default(),
        session_states: Default::default(),
        insights: Vec::new(),
        transcript: Vec::new(),
        path: Vec::new(),
        ended: None,
        parked: None,
        spent_conditions: Vec::new(),
        returned_from: None,
    };
    let mut events = Vec::new();
    // Session states start before the start state is entered; the author's presets come next.
    switching::begin(plan, &mut s, &mut events);
    for (id, preset) in &from.session_states {
        if plan.session_state(id).is_none() {
            return Err(RunError::UnknownSessionState(id.clone()));
        }
        set_by_author(plan, &mut s, id, preset, &mut events).map_err(|why| {
            RunError::BadSessionPreset {
                id: id.clone(),
                why,
            }
        })?;
    }
    for (key, value) in &from.deliverables {
        let d = declaration(plan, key).ok_or_else(|| RunError::NotDeclared(key.clone()))?;
        let value = coerce(value, d).ok_or_else(|| RunError::BadPreset {
            key: key.clone(),
            value: show(value),
            why: format!("it is a {} key", d.kind.as_str()),
        })?;
        let text = format!("{key} = {} known from the start", show(&value));
        s.deliverables.insert(
            key.clone(),
            Recorded {
                value: value.clone(),
                state_id: state.id.clone(),
                turn: 0,
                quote: None,
            },
        );
        let action = Action::Record {
            key: key.clone(),
            value,
            quote: None,
        };
        events.push(Event::new(0, What::ActionAccepted { action }, text));
    }
    enter(plan, state, &mut s, &mut events);
    finish(plan, state, &mut s, &mut events);
    Ok((s, events))
}

/// A new session of `plan` at turn 0, in its start state (steps 9–10 of a turn: an ending start
/// state without tasks ends at once). The agent's opening reply is the caller's to add.
pub fn start(plan: &Plan, plan_ref: PlanRef) -> Result<(Session, Vec<Event>), RunError> {
    start_from(plan, plan_ref, &Start::default())
}

/// One user turn: the message, and the actions the agent asked for, in the spec's order.
pub fn step(
    plan: &Plan,
    session: &Session,
    message: &str,
    actions: &[Action],
) -> Result<(Session, Vec<Event>), RunError> {
    // 1. An ended session takes no more turns.
    if let Some(ended) = &session.ended {
        return Err(RunError::Ended(ended.clone()));
    }
    let state = current(plan, session)?;
    let mut s = session.clone();
    s.returned_from = None;
    let mut events = Vec::new();
    // 2. Count the turn; the message joins the transcript.
    s.turn += 1;
    s.visit.total += 1;
    s.transcript.push(Line {
        role: Role::User,
        text: message.to_string(),
        turn: s.turn,
        by: None,
    });
    // 3–4. The actions, then auto-completion.
    let mut progress = false;
    // The interruption the agent asked for and the turn accepted (at most one).
    let mut asked: Option<usize> = None;
    for a in actions {
        if let Action::Interrupt { interruption } = a {
            let outcome = interrupt::accept(plan, state, &s, interruption, asked.is_some());
            events.push(action::judged(
                s.turn,
                a,
                outcome.as_ref().map(drop).map_err(Clone::clone),
            ));
            asked = outcome.ok().or(asked);
            continue;
        }
        progress |= action::apply(plan, state, &mut s, a, &mut events);
    }
    progress |= auto_complete(state, &mut s, &mut events);
    // 4a. The auto rules (not progress).
    switching::auto_rules(plan, state, &mut s, &mut events);
    // 5. Progress.
    if progress {
        s.visit.without_progress = 0;
    } else {
        s.visit.without_progress += 1;
    }
    // 6, first: an interruption fires instead of the state's transitions.
    let interrupted = interrupt::choose(plan, state, &mut s, asked);
    let mut chosen = None;
    if interrupted.is_none() {
        chosen = transitions(plan, state, &mut s, &mut events);
    }
    // 9. Entering a state starts a fresh visit.
    let mut now = state;
    if let Some(x) = interrupted.map(|i| &plan.interruptions[i]) {
        let target = plan
            .state(&x.target_state_id)
            .ok_or_else(|| RunError::UnknownState(x.target_state_id.clone()))?;
        interrupt::fire(plan, state, &mut s, x, &mut events);
        enter(plan, target, &mut s, &mut events);
        now = target;
    }
    if let Some(m) = chosen {
        let target = plan
            .state(&m.to)
            .ok_or_else(|| RunError::UnknownState(m.to.clone()))?;
        let text = match m.priority {
            Some(p) => format!("moved to {} because {} (priority {p})", target.title, m.why),
            None => format!(
                "moved to {}, the next state in plan order: the goal is done and no route matched",
                target.title
            ),
        };
        let effects = m
            .index
            .and_then(|i| state.transitions.get(i))
            .map(|t| t.effects.as_slice())
            .unwrap_or_default();
        events.push(Event::new(s.turn, What::Transition(m), text));
        // 6. The fired transition's effects, before the next state is entered.
        for change in effects {
            switching::apply_change(plan, &mut s, change, ChangedBy::Effect, &mut events);
        }
        enter(plan, target, &mut s, &mut events);
        now = target;
    }
    // 10. An ending state whose work is done ends the conversation; a return point hands it back
    // to the parked task.
    if s.ended.is_none() {
        finish(plan, now, &mut s, &mut events);
    }
    // The end of the turn: a parked task away too long is forgotten.
    interrupt::forget(plan, &mut s, &mut events);
    Ok((s, events))
}

/// The simulator's reply joins the transcript (step 11).
pub fn reply(session: &mut Session, text: String) {
    reply_by(session, text, AgentKind::Simulator);
}

/// The reply of agent `by` joins the transcript (step 11), saying who wrote it.
pub fn reply_by(session: &mut Session, text: String, by: AgentKind) {
    session.transcript.push(Line {
        role: Role::Agent,
        text,
        turn: session.turn,
        by: Some(by),
    });
}

fn current<'p>(plan: &'p Plan, s: &Session) -> Result<&'p State, RunError> {
    plan.state(&s.state_id)
        .ok_or_else(|| RunError::UnknownState(s.state_id.clone()))
}

/// Step 9: a fresh visit, the state's `on_enter` changes, auto-completion, the auto rules once more.
fn enter(plan: &Plan, state: &State, s: &mut Session, events: &mut Vec<Event>) {
    s.state_id = state.id.clone();
    s.visit = Visit::of(state, s.turn);
    s.path.push(state.id.clone());
    events.push(Event::new(
        s.turn,
        What::Entered {
            state_id: state.id.clone(),
        },
        format!("entered {}", state.title),
    ));
    // `ask_again` tasks forget their values, to ask for them afresh.
    let keys: Vec<String> = state
        .tasks
        .iter()
        .filter(|t| t.ask_again)
        .flat_map(|t| t.deliverables.iter())
        .filter(|d| s.deliverables.remove(&d.key).is_some())
        .map(|d| d.key.clone())
        .collect();
    if !keys.is_empty() {
        let text = format!("forgot {} to ask again", keys.join(", "));
        events.push(Event::new(s.turn, What::Forgotten { keys }, text));
    }
    for change in &state.on_enter {
        switching::apply_change(plan, s, change, ChangedBy::Entry, events);
    }
    auto_complete(state, s, events);
    switching::auto_rules(plan, state, s, events);
}

/// Step 10: an ending state whose work is done ends the session, unless it is a return point with
/// a task parked, which comes back instead (restored, or entered afresh once forgotten).
fn finish(plan: &Plan, state: &State, s: &mut Session, events: &mut Vec<Event>) {
    let Some(ending) = state.effective_ending() else {
        return;
    };
    let done = match state.kind {
        StateType::Goal => s.visit.goal_done(),
        _ => s.visit.all_tasks_addressed(),
    };
    if !done {
        return;
    }
    if interrupt::is_return_point(state) {
        match interrupt::resume(plan, state, s, events) {
            interrupt::Back::Restored => return,
            interrupt::Back::Afresh(id) => {
                if let Some(task) = plan.state(&id) {
                    enter(plan, task, s, events);
                    return;
                }
            }
            interrupt::Back::End => {}
        }
    }
    let ended = Ended::from_ending(&ending, &state.id, s.turn);
    events.push(ended_event(state, &ended));
    s.ended = Some(ended);
}
/// Steps 6–8 when no interruption fired: at most one transition, the stuck-state safety net, a
/// goal state's fall-through (which may end the session).
fn transitions(
    plan: &Plan,
    state: &State,
    s: &mut Session,
    events: &mut Vec<Event>,
) -> Option<Move> {
    // 6. At most one transition.
    let mut chosen = choose(plan, state, s);
    // 7. The stuck-state safety net.
    let stuck = plan.settings.stuck_turns;
    if chosen.is_none()
        && stuck > 0
        && s.visit.without_progress >= stuck
        && release(state, s, events)
    {
        s.visit.without_progress = 0;
        chosen = choose(plan, state, s);
    }
    // 8. A goal state whose goal is done falls through to the next state in plan order.
    if chosen.is_none()
        && state.kind == StateType::Goal
        && !state.transitions.is_empty()
        && s.visit.goal_done()
    {
        let at = plan.states.iter().position(|st| st.id == state.id);
        match at.and_then(|i| plan.states.get(i + 1)) {
            Some(next) => {
                chosen = Some(Move {
                    from: state.id.clone(),
                    to: next.id.clone(),
                    index: None,
                    priority: None,
                    why: "the goal is done and no route matched: the next state in plan order"
                        .into(),
                })
            }
            None => {
                let ended =
                    Ended::from_ending(&crate::plan::Ending::Complete {}, &state.id, s.turn);
                events.push(ended_event(state, &ended));
                s.ended = Some(ended);
            }
        }
    }
    chosen
}

fn ended_event(state: &State, ended: &Ended) -> Event {
    Event::new(
        ended.turn,
        What::Ended {
            ending: ended.clone(),
        },
        format!(
            "the conversation ended in {}: {}",
            state.title,
            ended.describe()
        ),
    )
}

/// Step 4: pending tasks whose deliverables are all known complete (in order, in a strict state).
fn auto_complete(state: &State, s: &mut Session, events: &mut Vec<Event>) -> bool {
    if state.kind == StateType::Goal {
        return false;
    }
    let mut progress = false;
    for (i, task) in state.tasks.iter().enumerate() {
        if s.visit.tasks.get(i).map(|t| t.status) != Some(TaskStatus::Pending) {
            continue;
        }
        let known = |d: &&crate::plan::Deliverable| s.deliverables.contains_key(&d.key);
        let any_required = task.deliverables.iter().any(|d| d.required);
        let satisfied = !task.deliverables.is_empty()
            && if any_required {
                task.deliverables
                    .iter()
                    .filter(|d| d.required)
                    .all(|d| known(&d))
            } else {
                task.deliverables.iter().all(|d| known(&d))
            };
        if satisfied {
            s.visit.tasks[i].status = TaskStatus::Completed;
            events.push(action::task_done(s.turn, &task.id, true));
            progress = true;
        } else if state.kind == StateType::Strict {
            break;
        }
    }
    progress
}

/// Step 6: the winning transition, if any: lowest priority, then earliest.
fn choose(plan: &Plan, state: &State, s: &Session) -> Option<Move> {
    if state.kind == StateType::Goal && !s.visit.goal_done() {
        return None;
    }
    let ctx = Context {
        plan,
        state,
        session: s,
        assume_goal_done: false,
    };
    let mut best: Option<Move> = None;
    for (i, t) in state.transitions.iter().enumerate() {
        if best
            .as_ref()
            .and_then(|b| b.priority)
            .is_some_and(|p| p <= t.priority)
        {
            continue;
        }
        let Ok(check) = Check::read(t.condition_type_in(state.kind), &t.condition_config) else {
            continue;
        };
        if let Some(why) = ctx.eval(&check) {
            best = Some(Move {
                from: state.id.clone(),
                to: t.target_state_id.clone(),
                index: Some(i),
                priority: Some(t.priority),
                why,
            });
        }
    }
    best
}

/// Step 7: releases the current task or the open goal as skipped; false when there is nothing
/// to release.
fn release(state: &State, s: &mut Session, events: &mut Vec<Event>) -> bool {
    let turns = s.visit.without_progress;
    if state.kind == StateType::Goal {
        if s.visit.goal != Some(GoalStatus::Open) {
            return false;
        }
        s.visit.goal = Some(GoalStatus::Skipped);
        events.push(Event::new(
            s.turn,
            What::ReleasedStuck {
                task_id: None,
                turns_without_progress: turns,
            },
            format!("released the goal as skipped: {turns} turns without progress"),
        ));
        return true;
    }
    let Some(i) = s.visit.first_pending() else {
        return false;
    };
    s.visit.tasks[i].status = TaskStatus::Skipped;
    let id = s.visit.tasks[i].id.clone();
    events.push(Event::new(
        s.turn,
        What::ReleasedStuck {
            task_id: Some(id.clone()),
            turns_without_progress: turns,
        },
        format!("released task '{id}' as skipped: {turns} turns without progress"),
    ));
    true
}
