//! Explore (explore.md): every conversation a plan allows, up to bounds, run through the same
//! simulator and `step` as `plan chat`, breadth-first over user turns, so that the first
//! conversation found to reach a configuration is a shortest one; then what only shows when the
//! plan runs, each finding with the shortest conversation that shows it as a script.
//!
//! Pure: no IO, no clock. The caller passes a `stop` question (asked between configurations,
//! for a Stop button) and a `progress` callback.

mod compare;
mod findings;
mod key;
mod moves;

use std::collections::HashMap;

use serde::Serialize;

pub use compare::{compare, Changed, Comparison};
pub use findings::{Finding, Place};
pub use moves::{moves, Domains};

use crate::hash::content_hash;
use crate::plan::Plan;
use crate::runtime::script::{Script, ScriptTurn};
use crate::runtime::{Chat, Event, PlanRef, PlanVersion, Session, Simulator, Start, ToolResults};

/// How far a search goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// User turns in one conversation.
    pub max_turns: u32,
    /// Configurations in all.
    pub max_configurations: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_turns: 40,
            max_configurations: 1_000_000,
        }
    }
}

/// Which bound stopped a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    /// A conversation reached the most turns allowed.
    MaxTurns,
    /// The search reached the most configurations allowed.
    MaxConfigurations,
    /// The caller asked it to stop.
    Asked,
}

/// One configuration reached: the session there, how it was first reached (the configuration
/// before and the message said), how many turns that took.
pub(crate) struct Node {
    pub session: Session,
    pub parent: Option<(usize, String)>,
    pub depth: u32,
    /// The configurations one move leads to (filled when it is expanded).
    pub next: Vec<usize>,
    pub expanded: bool,
}

/// What one move did: the states it entered, the transitions it fired (from, index), the
/// tools it called, and whether the safety net released something.
#[derive(Debug, Clone, Default)]
pub(crate) struct Effects {
    pub entered: Vec<String>,
    pub fired: Vec<(String, usize)>,
    pub called: Vec<String>,
    pub released: bool,
}

fn effects(events: &[Event]) -> Effects {
    use crate::runtime::{Action, What};
    let mut out = Effects::default();
    for e in events {
        match &e.what {
            What::Entered { state_id } => out.entered.push(state_id.clone()),
            What::Transition(m) => {
                if let Some(i) = m.index {
                    out.fired.push((m.from.clone(), i));
                }
            }
            What::ActionAccepted {
                action: Action::CallTool { tool, .. },
            } => out.called.push(tool.clone()),
            What::ReleasedStuck { .. } => out.released = true,
            _ => {}
        }
    }
    out
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explored {
    /// Whether every configuration within the bounds was expanded.
    pub complete: bool,
    /// What stopped it, if something did.
    pub stopped: Option<Stopped>,
    /// Configurations reached.
    pub configurations: usize,
    /// Conversations that ended, one per ended configuration.
    pub conversations: usize,
    /// The longest shortest conversation, in user turns.
    pub turns_max: u32,
    /// How many configurations enter each state (by id) and fire each transition
    /// (`"<from>/<index>"`).
    pub coverage: Coverage,
    /// What it found, errors first.
    pub findings: Vec<Finding>,
    /// What changed against an older plan, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<Comparison>,
}

/// How many configurations enter each state and fire each transition.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Coverage {
    /// By state id: the configurations that enter it.
    pub states: std::collections::BTreeMap<String, usize>,
    /// By `"<from>/<index>"`: the configurations a transition's firing leads to.
    pub transitions: std::collections::BTreeMap<String, usize>,
}

/// The search itself, kept for the findings to read.
pub(crate) struct Search<'p> {
    pub plan: &'p Plan,
    pub nodes: Vec<Node>,
    /// For each configuration, what the move that first reached it did.
    pub how: Vec<Effects>,
    /// Every move's effects, as (from, to, effects), for the coverage and the rules.
    pub steps: Vec<(usize, usize, Effects)>,
    pub complete: bool,
    pub stopped: Option<Stopped>,
}

/// Explores `plan` from its start (or from `start`) within `bounds`.
pub fn explore(
    plan: &Plan,
    start: &Start,
    bounds: Bounds,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(usize),
) -> Explored {
    let search = search(plan, start, bounds, stop, progress);
    findings::report(&search)
}

fn plan_ref(plan: &Plan) -> PlanRef {
    PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::File,
        content_hash: content_hash(plan),
    }
}

pub(crate) fn search<'p>(
    plan: &'p Plan,
    start: &Start,
    bounds: Bounds,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(usize),
) -> Search<'p> {
    let domains = Domains::of(plan);
    let mut s = Search {
        plan,
        nodes: Vec::new(),
        how: Vec::new(),
        steps: Vec::new(),
        complete: true,
        stopped: None,
    };
    let Ok((chat, opening)) = Chat::open_from(plan, &Simulator, plan_ref(plan), start) else {
        return s;
    };
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    index.insert(key::key(&chat.session, &domains), 0);
    s.nodes.push(Node {
        session: chat.session,
        parent: None,
        depth: 0,
        next: Vec::new(),
        expanded: false,
    });
    s.how.push(effects(&opening.events));
    let no_tools = ToolResults::new();
    let mut at = 0;
    while at < s.nodes.len() {
        if stop() {
            s.complete = false;
            s.stopped = Some(Stopped::Asked);
            break;
        }
        if s.nodes[at].session.ended.is_some() {
            s.nodes[at].expanded = true;
            at += 1;
            continue;
        }
        if s.nodes[at].depth >= bounds.max_turns {
            s.complete = false;
            s.stopped.get_or_insert(Stopped::MaxTurns);
            at += 1;
            continue;
        }
        let here = s.nodes[at].session.clone();
        // Expanded only when every move's configuration was kept: one dropped by the bound
        // could have led on, so this one must not look like a dead end.
        let mut whole = true;
        for message in moves(plan, &domains, &here) {
            let mut chat = Chat::resume(plan, &Simulator, here.clone());
            let Ok(turn) = chat.say_with(&message, &no_tools) else {
                continue;
            };
            let done = effects(&turn.events);
            // What was said is read by no later move (a quote comes from its own message), and
            // copying it into every configuration was most of the search's time and memory.
            chat.session.transcript.clear();
            chat.session.insights.clear();
            let k = key::key(&chat.session, &domains);
            let to = match index.get(&k) {
                Some(&to) => to,
                None => {
                    if s.nodes.len() >= bounds.max_configurations {
                        s.complete = false;
                        s.stopped = Some(Stopped::MaxConfigurations);
                        whole = false;
                        continue;
                    }
                    let to = s.nodes.len();
                    index.insert(k, to);
                    let depth = s.nodes[at].depth + 1;
                    s.nodes.push(Node {
                        session: chat.session,
                        parent: Some((at, message)),
                        depth,
                        next: Vec::new(),
                        expanded: false,
                    });
                    s.how.push(done.clone());
                    to
                }
            };
            if !s.nodes[at].next.contains(&to) {
                s.nodes[at].next.push(to);
            }
            s.steps.push((at, to, done));
        }
        s.nodes[at].expanded = whole;
        if at % 256 == 0 {
            progress(s.nodes.len());
        }
        at += 1;
    }
    progress(s.nodes.len());
    s
}

impl Search<'_> {
    /// The shortest conversation to configuration `to`, as a script.
    pub fn script_to(&self, to: usize) -> Script {
        script_back(to, |at| {
            self.nodes[at]
                .parent
                .as_ref()
                .map(|(p, m)| (*p, m.as_str()))
        })
    }
}

/// The script of the messages that lead to configuration `to`, read back through `parent` (the
/// configuration before and the message said), from the start.
pub(crate) fn script_back<'a>(
    to: usize,
    parent: impl Fn(usize) -> Option<(usize, &'a str)>,
) -> Script {
    let mut said = Vec::new();
    let mut at = to;
    while let Some((before, message)) = parent(at) {
        said.push(message.to_string());
        at = before;
    }
    said.reverse();
    Script {
        turns: said
            .into_iter()
            .map(|user| ScriptTurn {
                user,
                tool_results: ToolResults::new(),
                expect: None,
            })
            .collect(),
        ..Script::default()
    }
}

/// The keys of the configurations every move leads to from `s`, sorted.
fn successors(plan: &Plan, domains: &Domains, s: &Session) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = moves(plan, domains, s)
        .iter()
        .filter_map(|message| {
            let mut chat = Chat::resume(plan, &Simulator, s.clone());
            chat.say_with(message, &ToolResults::new()).ok()?;
            Some(key::key(&chat.session, domains))
        })
        .collect();
    out.sort();
    out
}

/// The test of the configuration key (explore.md: "two sessions with the same key have the same
/// successors' keys"): searches `plan` within `bounds`, and wherever a move arrives at a key
/// already reached by another session, compares the successors of both. Answers where they
/// differ, described; empty when the key captured everything a move reads.
pub fn keys_agree(plan: &Plan, bounds: Bounds) -> Vec<String> {
    let domains = Domains::of(plan);
    let Ok((chat, _)) = Chat::open_from(plan, &Simulator, plan_ref(plan), &Start::default()) else {
        return vec!["the plan does not open".into()];
    };
    let mut first: HashMap<Vec<u8>, Session> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([(chat.session, 0u32)]);
    let mut wrong = Vec::new();
    first.insert(key::key(&queue[0].0, &domains), queue[0].0.clone());
    while let Some((here, depth)) = queue.pop_front() {
        if here.ended.is_some() || depth >= bounds.max_turns {
            continue;
        }
        for message in moves(plan, &domains, &here) {
            let mut chat = Chat::resume(plan, &Simulator, here.clone());
            if chat.say_with(&message, &ToolResults::new()).is_err() {
                continue;
            }
            chat.session.transcript.clear();
            chat.session.insights.clear();
            let k = key::key(&chat.session, &domains);
            match first.get(&k) {
                Some(earlier)
                    if *earlier != chat.session
                        && successors(plan, &domains, earlier)
                            != successors(plan, &domains, &chat.session) =>
                {
                    wrong.push(format!(
                        "after {message:?} in {}: one key, other successors",
                        here.state_id
                    ));
                }
                Some(_) => {}
                None if first.len() < bounds.max_configurations => {
                    first.insert(k, chat.session.clone());
                    queue.push_back((chat.session, depth + 1));
                }
                None => {}
            }
        }
    }
    wrong
}
