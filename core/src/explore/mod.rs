//! Explore (explore.md): every conversation a plan allows, up to bounds, run through the same
//! simulator and `step` as `plan chat`, breadth-first over user turns, so that the first
//! conversation found to reach a configuration is a shortest one; then what only shows when the
//! plan runs, each finding with the shortest conversation that shows it as a script.
//!
//! Pure: no IO, no clock. The caller passes a `stop` question (asked between batches of
//! configurations, for a Stop button), a `progress` callback, and how many threads to use.

mod ceilings;
mod compare;
mod findings;
mod key;
mod moves;
mod reads;
mod search;
mod stored;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use compare::{changed_outcomes_only, compare, Changed, Comparison};
pub use findings::{Finding, Place};
pub use moves::{moves, play, Domains};

use crate::hash::content_hash;
use crate::plan::Plan;
use crate::runtime::script::{Script, ScriptTurn};
use crate::runtime::{Chat, PlanRef, PlanVersion, Session, Simulator, Start, ToolResults};
use search::search;

/// How far a search goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// User turns in one conversation.
    pub max_turns: u32,
    /// Configurations in all.
    pub max_configurations: usize,
    /// The memory ceiling, in bytes: what the search holds (its configurations, the sessions
    /// waiting to be expanded, what the findings will read of them) with room for the batch
    /// being expanded never passes it.
    pub max_memory: usize,
    /// The work ceiling: moves run (each a turn through the simulator and `step`).
    pub max_moves: usize,
}

/// [`Bounds::max_memory`] of `plan explore`: 1 GB.
pub const DEFAULT_MAX_MEMORY: usize = 1_000_000_000;

/// [`Bounds::max_moves`] of `plan explore`: 50 million moves, a few minutes on two cores.
pub const DEFAULT_MAX_MOVES: usize = 50_000_000;

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_turns: 40,
            max_configurations: 1_000_000,
            max_memory: DEFAULT_MAX_MEMORY,
            max_moves: DEFAULT_MAX_MOVES,
        }
    }
}

/// Which bound stopped a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    /// A conversation reached the most turns allowed.
    MaxTurns,
    /// The search reached the most configurations allowed.
    MaxConfigurations,
    /// What the search holds reached its memory ceiling.
    MaxMemory,
    /// The search ran the most moves allowed.
    MaxMoves,
    /// The caller asked it to stop.
    Asked,
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
    /// How the search went, for benchmarks (not part of explore.md's document).
    #[serde(skip)]
    pub cost: Cost,
}

/// What a search did and kept: the moves run (each a turn through the simulator and `step`),
/// and the bytes its stored configurations take (nodes, index, moves kept, rule facts, interned
/// messages and effects; sessions are kept only until expanded and are not counted).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cost {
    /// Moves run.
    pub moves: usize,
    /// Moves run, weighed as the work ceiling weighs them.
    pub work: usize,
    /// The most the search held at once, as the memory ceiling counts it (an upper bound of
    /// what its configurations, pending sessions and the report's needs take).
    pub held_bytes: usize,
    /// Bytes of the search's stored configurations.
    pub stored_bytes: usize,
}

/// How many configurations enter each state and fire each transition.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    /// By state id: the configurations that enter it.
    pub states: std::collections::BTreeMap<String, usize>,
    /// By `"<from>/<index>"`: the configurations a transition's firing leads to.
    pub transitions: std::collections::BTreeMap<String, usize>,
}

/// Explores `plan` from its start (or from `start`) within `bounds`, on the calling thread.
pub fn explore(
    plan: &Plan,
    start: &Start,
    bounds: Bounds,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(usize),
) -> Explored {
    explore_parallel(plan, start, bounds, 1, stop, progress)
}

/// [`explore`] with the moves of each batch of configurations run on `threads` threads (the
/// caller says how many: core asks nothing of the machine). The answer is the one thread's,
/// exactly: configurations are numbered, and findings chosen, by the same serial merge. A search
/// that is stopped may stop a batch later.
pub fn explore_parallel(
    plan: &Plan,
    start: &Start,
    bounds: Bounds,
    threads: usize,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(usize),
) -> Explored {
    let search = search(
        plan,
        Domains::of(plan),
        start,
        bounds,
        threads,
        stop,
        progress,
    );
    findings::report(&search)
}

/// [`explore`] with a key that keeps every value and counts every counter up to the largest
/// threshold anywhere, in every state: what the search did before keys forgot what nothing ahead
/// reads. Slower, and the reference the tests hold the explorer to: both must find the same.
pub fn explore_with_every_value(plan: &Plan, bounds: Bounds) -> Explored {
    let search = search(
        plan,
        Domains::with_every_value(plan),
        &Start::default(),
        bounds,
        1,
        &|| false,
        &mut |_| {},
    );
    findings::report(&search)
}

/// A count as the window and the command line write it: `78028` → "78,028".
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn plan_ref(plan: &Plan) -> PlanRef {
    PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::File,
        content_hash: content_hash(plan),
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

/// Where every move leads from `s`: the configuration's key and what the move did (the states it
/// entered, the arrows it fired, the tools it called, the safety net), which the findings read;
/// sorted.
fn successors(plan: &Plan, domains: &Domains, s: &Session) -> Vec<(Vec<u8>, String)> {
    let mut out: Vec<(Vec<u8>, String)> = moves(plan, domains, s)
        .iter()
        .filter_map(|message| {
            let mut chat = Chat::resume(plan, &Simulator, s.clone());
            let turn = chat.say_with(message, &ToolResults::new()).ok()?;
            let did = format!("{:?}", search::effects(&turn.events));
            Some((key::key(&chat.session, domains), did))
        })
        .collect();
    out.sort();
    out
}

/// The test of the configuration key (explore.md: "two sessions with the same key have the same
/// successors' keys"): searches `plan` within `bounds`, and wherever a move arrives at a key
/// already reached by another session, compares the successors of both, and what each move does
/// in both. Answers where they differ, described; empty when they agree. One step only: a key
/// that forgets what a later turn reads is caught by [`explore_with_every_value`].
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
                Some(earlier) if *earlier != chat.session => {
                    let (a, b) = (
                        successors(plan, &domains, earlier),
                        successors(plan, &domains, &chat.session),
                    );
                    if a != b {
                        let differ = a.iter().zip(&b).find(|(x, y)| x != y);
                        wrong.push(format!(
                            "after {message:?} in {}: one key, other successors: {differ:?}",
                            here.state_id
                        ));
                    }
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
