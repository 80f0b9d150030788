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
#[cfg(any(test, feature = "oracles"))]
mod oracles;
mod reads;
mod replay;
mod search;
mod stalls;
mod stored;
pub mod story;

use serde::{Deserialize, Serialize};

pub use crate::coverage::{Coverage, TransitionId};
pub use compare::{changed_outcomes_only, compare, Changed, Comparison};
pub use findings::{Finding, FindingCode, Place};
pub use moves::{is_stand_in, moves, play, stand_in, Domains};
#[cfg(any(test, feature = "oracles"))]
pub use oracles::{explore_with_every_value, keys_agree};
pub use replay::{replay, Replayed};
pub use story::{headline, said, tell, Story, Suggestion, Told};

use crate::hash::content_hash;
use crate::plan::Plan;
use crate::runtime::script::{Script, ScriptTurn};
use crate::runtime::{PlanRef, PlanVersion, Start, ToolResults};
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

/// [`Bounds::max_turns`] of `plan explore` and of the window: 40 user turns.
pub const DEFAULT_MAX_TURNS: u32 = 40;

/// [`Bounds::max_configurations`] of `plan explore`.
pub const DEFAULT_MAX_CONFIGURATIONS: usize = 1_000_000;

/// The bounds of a search the window runs: the command line's turns but at most 250,000
/// configurations, a memory ceiling of 300 MB and 10 million moves, so that a search of a large
/// or hostile plan stays within the window's memory and ends in about a minute at most (the Stop
/// button ends it sooner).
pub const WINDOW_BOUNDS: Bounds = Bounds {
    max_turns: DEFAULT_MAX_TURNS,
    max_configurations: 250_000,
    max_memory: 300_000_000,
    max_moves: 10_000_000,
};

/// [`Bounds::max_memory`] of `plan explore`: 1 GB.
pub const DEFAULT_MAX_MEMORY: usize = 1_000_000_000;

/// [`Bounds::max_moves`] of `plan explore`: 50 million moves, a few minutes on two cores.
pub const DEFAULT_MAX_MOVES: usize = 50_000_000;

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_turns: DEFAULT_MAX_TURNS,
            max_configurations: DEFAULT_MAX_CONFIGURATIONS,
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

/// What a search found: each finding a [`Finding`], or what a reader makes of one (the window's,
/// with its conversation replayed: [`Explored::map_findings`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explored<F = Finding> {
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
    /// How many configurations enter each state and fire each transition.
    pub coverage: Coverage,
    /// What it found, errors first.
    pub findings: Vec<F>,
    /// What changed against an older plan, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<Comparison>,
    /// How the search went, for benchmarks (not part of explore.md's document).
    #[serde(skip, default)]
    pub cost: Cost,
}

impl<F> Explored<F> {
    /// The same search, each finding made into what a reader needs of it.
    pub fn map_findings<G>(self, each: impl FnMut(F) -> G) -> Explored<G> {
        Explored {
            complete: self.complete,
            stopped: self.stopped,
            configurations: self.configurations,
            conversations: self.conversations,
            turns_max: self.turns_max,
            coverage: self.coverage,
            findings: self.findings.into_iter().map(each).collect(),
            compare: self.compare,
            cost: self.cost,
        }
    }
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

pub(crate) fn plan_ref(plan: &Plan) -> PlanRef {
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
