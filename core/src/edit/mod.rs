//! Editing a plan: every change an author makes is a [`Command`], and [`apply`] turns a plan and a
//! command into the next plan. Pure: the editor keeps the plans before and after for undo
//! (snapshots), and a command that cannot apply says why and changes nothing.
//!
//! Commands speak the author's language (add a state, connect two states, rename, paste) and keep
//! the plan consistent as they go: renaming rewires every reference, deleting removes the arrows
//! into what was deleted, pasting gives the copies fresh ids and rewires the arrows among them.

mod arrows;
mod error;
mod ids;
mod limits;
pub mod place;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

mod rename;

pub use error::EditError;
pub use limits::Limit;
pub use rename::Renamed;

use crate::layout;
use crate::plan::{
    Ending, Evaluation, Goal, Interruption, Plan, Position, Rule, SessionState, Settings, State,
    StateType, Tool, Transition,
};
use arrows::{answer_arrow, code_arrow, connect, swap_check_order, take_theirs};
pub use ids::{id_following_title, id_from_title, is_placeholder_id, unique_id};

/// The kinds of state the palette offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NewState {
    /// A state that follows the plan strictly: its tasks in order.
    Strict,
    /// A state whose tasks the agent takes in any order.
    Loose,
    /// A state that pursues a goal.
    Goal,
    /// A state that ends the conversation as complete.
    EndComplete,
    /// A state that ends the conversation: the caller hung up.
    EndHangUp,
    /// A state that ends the conversation by handing off to a person.
    EndHandOff,
}

/// The plan-wide fields the inspector edits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanDetails {
    /// The plan's title.
    pub title: String,
    /// What the plan is for.
    pub description: String,
    /// The state conversations begin in.
    pub start_state_id: Option<String>,
    /// The tools the agent may call.
    pub tools: Vec<Tool>,
    /// The plan's settings.
    pub settings: Settings,
    /// The base instructions of every turn.
    #[serde(default)]
    pub instructions: String,
    /// The plan's session states.
    #[serde(default)]
    pub session_states: Vec<SessionState>,
    /// The plan's interruptions.
    #[serde(default)]
    pub interruptions: Vec<Interruption>,
    /// What the author wants guaranteed of every conversation.
    #[serde(default)]
    pub rules: Vec<Rule>,
    /// The judge questions asked of every simulated conversation.
    #[serde(default)]
    pub evaluations: Vec<Evaluation>,
}

impl PlanDetails {
    /// The plan's own fields as they are now, to change some and dispatch.
    pub fn of(p: &Plan) -> PlanDetails {
        PlanDetails {
            title: p.title.clone(),
            description: p.description.clone(),
            start_state_id: p.start_state_id.clone(),
            tools: p.tools.clone(),
            settings: p.settings.clone(),
            instructions: p.instructions.clone(),
            session_states: p.session_states.clone(),
            interruptions: p.interruptions.clone(),
            rules: p.rules.clone(),
            evaluations: p.evaluations.clone(),
        }
    }
}

/// One change to a plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Command {
    /// A new state of `kind` with its card's top-left corner at `at`; with `from`, connected from
    /// that state as [`Command::Connect`] would (an arrow dropped on the empty canvas): one step.
    AddState {
        /// The kind of state.
        kind: NewState,
        /// Where its card goes.
        at: Position,
        /// The state whose new transition enters it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// Cards moved to new positions.
    MoveStates {
        /// Each moved state's new position.
        moves: BTreeMap<String, Position>,
    },
    /// States removed, with the transitions into them.
    DeleteStates {
        /// The states removed.
        ids: Vec<String>,
    },
    /// A state's id changed, and every reference to it.
    RenameState {
        /// The id it had.
        from: String,
        /// The id it has now.
        to: String,
    },
    /// Everything else about a state (title, mode, texts, tasks, goal, transitions, tools,
    /// ending) replaced by the inspector's edited copy; its id stays `id`.
    ReplaceState {
        /// The state's id.
        id: String,
        /// The state as edited.
        state: Box<State>,
    },
    /// A new transition from `from` to `to`, with the mode's default condition.
    Connect {
        /// The state it leaves.
        from: String,
        /// The state it enters.
        to: String,
    },
    /// A new transition from `from` for the caller's answer `key` = `value` (the fix of
    /// `unhandled-value`): it goes where the state's first transition that reads `key` goes (the
    /// author then picks where), after the state's other transitions.
    AnswerArrow {
        /// The state it leaves.
        from: String,
        /// The key answered.
        key: String,
        /// The answer.
        value: serde_json::Value,
    },
    /// A new transition from `from` for `tool` answering `code` (the fix of
    /// `unhandled-response-code`): it goes where the state's first transition that reads the
    /// tool goes, after the state's other transitions.
    CodeArrow {
        /// The state it leaves.
        from: String,
        /// The tool's name.
        tool: String,
        /// The response code.
        code: String,
    },
    /// Transition `index` of `from` now goes to `to`.
    Retarget {
        /// The state it leaves.
        from: String,
        /// Its index among the state's transitions.
        index: usize,
        /// The state it enters now.
        to: String,
    },
    /// Transitions `index` and `with` of `from` exchange their places in the order the runtime
    /// checks them: their places in the list and their priorities (so that no other transition's
    /// place changes). The one at `index` is at `with` afterwards.
    SwapCheckOrder {
        /// The state they leave.
        from: String,
        /// One transition's index.
        index: usize,
        /// The other's.
        with: usize,
    },
    /// Transition `index` of `from` removed.
    DeleteTransition {
        /// The state it leaves.
        from: String,
        /// Its index among the state's transitions.
        index: usize,
    },
    /// The plan's title, description, start state, tools and settings.
    SetPlanDetails(PlanDetails),
    /// Copies of `states` (from a clipboard) added with fresh ids, placed at their `layout`
    /// positions moved by `offset`.
    Paste {
        /// The states copied.
        states: Vec<State>,
        /// Where their cards were.
        layout: BTreeMap<String, Position>,
        /// How far the copies are moved from there.
        offset: Position,
    },
    /// Positions from the layered layout: for every state, or, with `only_overlaps`, only for
    /// cards that overlap another (the rest stay where the author put them).
    AutoLayout {
        /// Whether only overlapping cards move.
        only_overlaps: bool,
    },
    /// A state moved to `to` in plan order (which goal states fall through by).
    ReorderState {
        /// The state.
        id: String,
        /// Its new index in plan order.
        to: usize,
    },
    /// A session state, deliverable key, tool, response code or task renamed, every reference to
    /// it rewired.
    Rename {
        /// What kind of name it is.
        what: Renamed,
        /// The name it had.
        from: String,
        /// The name it has now.
        to: String,
    },
    /// An edge drawn from a session state to an evaluation: the evaluation is asked only while
    /// that state is on (added to its `only_while_active`).
    LimitEvaluation(Limit),
    /// That edge deleted (removed from the evaluation's `only_while_active`).
    UnlimitEvaluation(Limit),
    /// A conflict left by a merge chosen as theirs: their value put at its path (an element
    /// added, replaced or removed, a field set, a list put in their order).
    TakeTheirs(Box<crate::merge::Conflict>),
    /// That edge's end moved to evaluation `to`.
    MoveLimit {
        /// The edge as it is.
        limit: Limit,
        /// The evaluation it enters now.
        to: String,
    },
}

/// The plan after a command, and the states it is about (the new, renamed or pasted ones), which
/// the editor selects.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The plan after the command.
    pub plan: Plan,
    /// The states it is about, which the editor selects.
    pub touched: Vec<String>,
}

/// Card size in canvas units, for overlap checks (the canvas draws cards this size).
pub const CARD_W: f64 = 240.0;
/// Card height in canvas units.
pub const CARD_H: f64 = 104.0;

/// Applies `command` to `plan`.
pub fn apply(plan: &Plan, command: &Command) -> Result<Applied, EditError> {
    let mut p = plan.clone();
    let mut touched = Vec::new();
    match command {
        Command::AddState { kind, at, from } => {
            let source = from.as_deref().map(|f| index_of(&p, f)).transpose()?;
            let id = unique_id(&p, "new-state");
            p.states.push(Arc::new(new_state(&id, *kind)));
            p.layout.insert(id.clone(), *at);
            if let Some(i) = source {
                connect(Arc::make_mut(&mut p.states[i]), &id);
            }
            touched.push(id);
        }
        Command::MoveStates { moves } => {
            for (id, at) in moves {
                index_of(&p, id)?;
                p.layout.insert(id.clone(), *at);
            }
        }
        Command::DeleteStates { ids } => {
            let gone: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
            for id in &gone {
                index_of(&p, id)?;
            }
            p.states.retain(|s| !gone.contains(s.id.as_str()));
            // Only the states that lose a transition are made anew.
            for s in &mut p.states {
                if s.transitions
                    .iter()
                    .any(|t| gone.contains(t.target_state_id.as_str()))
                {
                    Arc::make_mut(s)
                        .transitions
                        .retain(|t| !gone.contains(t.target_state_id.as_str()));
                }
            }
            p.layout.retain(|id, _| !gone.contains(id.as_str()));
            if p.start_state_id
                .as_deref()
                .is_some_and(|s| gone.contains(s))
            {
                p.start_state_id = None;
            }
        }
        Command::RenameState { from, to } => {
            rename(&mut p, from, to)?;
            touched.push(to.clone());
        }
        Command::ReplaceState { id, state } => {
            let i = index_of(&p, id)?;
            let mut state = State::clone(state);
            state.id = id.clone();
            p.states[i] = Arc::new(state);
        }
        Command::Connect { from, to } => {
            index_of(&p, to)?;
            let i = index_of(&p, from)?;
            connect(Arc::make_mut(&mut p.states[i]), to);
        }
        Command::AnswerArrow { from, key, value } => {
            let i = index_of(&p, from)?;
            answer_arrow(Arc::make_mut(&mut p.states[i]), key, value);
        }
        Command::CodeArrow { from, tool, code } => {
            let i = index_of(&p, from)?;
            code_arrow(Arc::make_mut(&mut p.states[i]), tool, code);
        }
        Command::Retarget { from, index, to } => {
            index_of(&p, to)?;
            transition_mut(&mut p, from, *index)?.target_state_id = to.clone();
        }
        Command::SwapCheckOrder { from, index, with } => {
            transition_mut(&mut p, from, *with)?;
            transition_mut(&mut p, from, *index)?;
            let i = index_of(&p, from)?;
            swap_check_order(Arc::make_mut(&mut p.states[i]), *index, *with);
        }
        Command::DeleteTransition { from, index } => {
            transition_mut(&mut p, from, *index)?;
            let i = index_of(&p, from)?;
            Arc::make_mut(&mut p.states[i]).transitions.remove(*index);
        }
        Command::SetPlanDetails(d) => {
            p.title = d.title.clone();
            p.description = d.description.clone();
            p.start_state_id = d.start_state_id.clone();
            p.tools = d.tools.clone();
            p.settings = d.settings.clone();
            p.instructions = d.instructions.clone();
            p.session_states = d.session_states.clone();
            p.interruptions = d.interruptions.clone();
            p.rules = d.rules.clone();
            p.evaluations = d.evaluations.clone();
        }
        Command::Paste {
            states,
            layout,
            offset,
        } => touched = ids::paste(&mut p, states, layout, *offset),
        Command::AutoLayout { only_overlaps } => {
            p.layout = if *only_overlaps {
                untangle(&p)
            } else {
                layout::layered(&p)
            };
        }
        Command::ReorderState { id, to } => {
            let i = index_of(&p, id)?;
            let s = p.states.remove(i);
            let to = (*to).min(p.states.len());
            p.states.insert(to, s);
        }
        Command::Rename { what, from, to } => rename::rename(&mut p, what, from, to)?,
        Command::LimitEvaluation(limit) => limits::add(&mut p, limit)?,
        Command::UnlimitEvaluation(limit) => limits::remove(&mut p, limit)?,
        Command::MoveLimit { limit, to } => limits::move_to(&mut p, limit, to)?,
        Command::TakeTheirs(conflict) => {
            p = take_theirs(&p, conflict)?;
            touched.extend(crate::merge::state_of(&conflict.path));
        }
    }
    Ok(Applied { plan: p, touched })
}

/// What deleting `ids` takes with it: the states, and the transitions into them from states that
/// stay (shown to the author before deleting).
pub fn delete_impact(plan: &Plan, ids: &[String]) -> (usize, usize) {
    let gone: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let states = plan
        .states
        .iter()
        .filter(|s| gone.contains(s.id.as_str()))
        .count();
    let transitions = plan
        .states
        .iter()
        .filter(|s| !gone.contains(s.id.as_str()))
        .flat_map(|s| &s.transitions)
        .filter(|t| gone.contains(t.target_state_id.as_str()))
        .count();
    (states, transitions)
}

/// A new transition of `state` to `to`, with the mode's default condition. An ending only means
/// something without transitions: connecting continues the story.
fn index_of(p: &Plan, id: &str) -> Result<usize, EditError> {
    p.states
        .iter()
        .position(|s| s.id == id)
        .ok_or_else(|| EditError::UnknownState(id.to_string()))
}

fn transition_mut<'p>(
    p: &'p mut Plan,
    from: &str,
    index: usize,
) -> Result<&'p mut Transition, EditError> {
    let i = index_of(p, from)?;
    Arc::make_mut(&mut p.states[i])
        .transitions
        .get_mut(index)
        .ok_or_else(|| EditError::UnknownTransition {
            from: from.to_string(),
            index,
        })
}

fn rename(p: &mut Plan, from: &str, to: &str) -> Result<(), EditError> {
    let to = to.trim();
    if to.is_empty() {
        return Err(EditError::EmptyId);
    }
    let i = index_of(p, from)?;
    if from == to {
        return Ok(());
    }
    if p.states.iter().any(|s| s.id == to) {
        return Err(EditError::IdTaken(to.to_string()));
    }
    Arc::make_mut(&mut p.states[i]).id = to.to_string();
    for s in p.states_mut() {
        for t in &mut s.transitions {
            if t.target_state_id == from {
                t.target_state_id = to.to_string();
            }
        }
    }
    if p.start_state_id.as_deref() == Some(from) {
        p.start_state_id = Some(to.to_string());
    }
    // Interruptions go to states and fire in states; visit counts name them.
    for x in &mut p.interruptions {
        if x.target_state_id == from {
            x.target_state_id = to.to_string();
        }
        for id in &mut x.only_in {
            if id == from {
                *id = to.to_string();
            }
        }
    }
    for s in p.states_mut() {
        for t in &mut s.transitions {
            let ty = t.condition_type_in(s.kind);
            rename_visited(ty.as_str(), &mut t.condition_config, from, to);
        }
    }
    let rules = p.session_states.iter_mut().flat_map(|st| {
        [st.auto_activate.as_mut(), st.auto_deactivate.as_mut()]
            .into_iter()
            .flatten()
    });
    // The plan's rules name states, and their conditions can count visits.
    for rule in &mut p.rules {
        for id in [
            &mut rule.state_id,
            &mut rule.first_state_id,
            &mut rule.then_state_id,
        ]
        .into_iter()
        .flatten()
        {
            if id == from {
                *id = to.to_string();
            }
        }
    }
    let conditions = rules
        .chain(
            p.interruptions
                .iter_mut()
                .filter_map(|x| x.condition.as_mut()),
        )
        .chain(p.rules.iter_mut().filter_map(|r| r.condition.as_mut()));
    for c in conditions {
        rename_visited(c.condition_type.as_str(), &mut c.condition_config, from, to);
    }
    if let Some(at) = p.layout.remove(from) {
        p.layout.insert(to.to_string(), at);
    }
    Ok(())
}

/// `visit_count_exceeded`'s `state_id` renamed from `from` to `to`, at any depth.
fn rename_visited(
    ty: &str,
    config: &mut serde_json::Map<String, serde_json::Value>,
    from: &str,
    to: &str,
) {
    if ty == "visit_count_exceeded" && config.get("state_id").and_then(|v| v.as_str()) == Some(from)
    {
        config.insert("state_id".into(), to.into());
    }
    let Some(serde_json::Value::Array(children)) = config.get_mut("conditions") else {
        return;
    };
    for child in children {
        let ty = child
            .get("condition_type")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string();
        if let Some(serde_json::Value::Object(cfg)) = child.get_mut("condition_config") {
            rename_visited(&ty, cfg, from, to);
        }
    }
}

/// A fresh state of `kind`.
pub fn new_state(id: &str, kind: NewState) -> State {
    let (mode, title, ending) = match kind {
        NewState::Strict => (StateType::Strict, "New strict state", None),
        NewState::Loose => (StateType::Loose, "New state", None),
        NewState::Goal => (StateType::Goal, "New goal", None),
        NewState::EndComplete => (StateType::Loose, "End", Some(Ending::Complete {})),
        NewState::EndHangUp => (StateType::Loose, "Hang up", Some(Ending::HangUp {})),
        NewState::EndHandOff => (
            StateType::Loose,
            "Hand off",
            Some(Ending::HandOff {
                to: String::new(),
                reason: String::new(),
            }),
        ),
    };
    State {
        id: id.to_string(),
        title: title.to_string(),
        kind: mode,
        description: String::new(),
        instructions: String::new(),
        tasks: Vec::new(),
        goal: (mode == StateType::Goal).then(|| Goal {
            objective: String::new(),
            success_description: String::new(),
            deliverables: Vec::new(),
        }),
        transitions: Vec::new(),
        allowed_tools: Vec::new(),
        ending,
        on_enter: Vec::new(),
        interruptible: true,
    }
}

/// Positions where no two cards overlap: cards keep their place unless they overlap one placed
/// before them (in plan order), which then moves down until it is free.
fn untangle(p: &Plan) -> BTreeMap<String, Position> {
    let mut placed: Vec<Position> = Vec::new();
    let mut out = BTreeMap::new();
    let all = layout::complete(p);
    for s in &p.states {
        let Some(mut at) = all.get(&s.id).copied() else {
            continue;
        };
        let overlaps = |a: &Position, b: &Position| {
            (a.x - b.x).abs() < CARD_W + 16.0 && (a.y - b.y).abs() < CARD_H + 16.0
        };
        while placed.iter().any(|q| overlaps(&at, q)) {
            at.y += CARD_H + 32.0;
        }
        placed.push(at);
        out.insert(s.id.clone(), at);
    }
    out
}

#[cfg(test)]
mod tests;
