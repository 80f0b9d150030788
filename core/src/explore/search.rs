//! The search itself: breadth-first over user turns, each configuration stored compactly (its
//! key's 128-bit hash, how it was first reached, its state, what each rule reads of it) and its
//! session kept only until it is expanded, so that memory grows with the configurations by tens
//! of bytes, not by sessions. What each move did is interned: most moves do one of a few things.

use std::collections::{HashMap, VecDeque};

use super::ceilings::{Batches, Held};
use super::findings::facts;
use super::key::key_hash;
use super::moves::{moves, play, Domains};
use super::stored::Stored;
use super::{plan_ref, script_back, Bounds, Stopped};
use crate::plan::Plan;
use crate::runtime::script::Script;
use crate::runtime::{Chat, Event, Session, Simulator, Start};

/// One configuration reached.
pub(crate) struct Node {
    /// The configuration before and the message said (an index into `Search::said`).
    pub parent: Option<(u32, u32)>,
    /// How many turns the shortest conversation to it takes.
    pub depth: u32,
    /// Its current state (an index into the plan's states; `u32::MAX` for one not in the plan).
    pub state: u32,
    /// The conversation ended there.
    pub ended: bool,
    /// Every move from it was tried and kept.
    pub expanded: bool,
    /// The hash of its key.
    pub key: u128,
}

/// What one move did: the states it entered, the transitions it fired (from, index), the goal
/// states it fell through from (runtime.md step 8), the tools it called, the values it recorded
/// (key, the value's JSON text), and whether the safety net released something.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct Effects {
    pub entered: Vec<String>,
    pub fired: Vec<(String, usize)>,
    pub fell_through: Vec<String>,
    pub called: Vec<String>,
    pub set: Vec<(String, String)>,
    pub released: bool,
}

pub(crate) fn effects(events: &[Event]) -> Effects {
    use crate::runtime::{Action, What};
    let mut out = Effects::default();
    for e in events {
        match &e.what {
            What::Entered { state_id } => out.entered.push(state_id.clone()),
            What::Transition(m) => match m.index {
                Some(i) => out.fired.push((m.from.clone(), i)),
                None => out.fell_through.push(m.from.clone()),
            },
            What::ActionAccepted {
                action: Action::CallTool { tool, .. },
            } => out.called.push(tool.clone()),
            What::ActionAccepted {
                action: Action::Record { key, value, .. },
            } => out.set.push((key.clone(), value.to_string())),
            What::ReleasedStuck { .. } => out.released = true,
            _ => {}
        }
    }
    out
}

/// A search's result, kept for the findings to read.
pub(crate) struct Search<'p> {
    pub plan: &'p Plan,
    /// The domains and reads the keys were made with.
    pub domains: Domains,
    pub nodes: Vec<Node>,
    /// The messages said, interned.
    pub said: Vec<String>,
    /// The distinct effects moves had, interned.
    pub effects: Vec<Effects>,
    /// What the opening did (an index into `effects`).
    pub opening: u32,
    /// Every move that changed something, as (from, to, effects), for the coverage, the rules and
    /// the dead ends. A move that led back to its own configuration doing nothing is left out.
    pub steps: Vec<(u32, u32, u32)>,
    /// What each rule reads of each configuration: `facts_per_node` words a configuration.
    pub facts: Vec<u64>,
    pub facts_per_node: usize,
    pub complete: bool,
    pub stopped: Option<Stopped>,
    /// The bounds it ran within.
    pub bounds: Bounds,
    /// Moves run.
    pub moves: usize,
    /// Moves run, each weighing what its session does ([`Stored::weight`]): what the work
    /// ceiling counts.
    pub work: usize,
    /// The most the search held at once, as the memory ceiling counts it.
    pub held: usize,
}

impl Search<'_> {
    /// What the search did and kept (an index entry counted as its key, value and a word of the
    /// table's own).
    pub fn cost(&self) -> super::Cost {
        use std::mem::size_of;
        let strings = |list: &[String]| list.iter().map(|m| m.len() + 24).sum::<usize>();
        let effects: usize = self.effects.iter().map(effects_size).sum();
        super::Cost {
            moves: self.moves,
            work: self.work,
            held_bytes: self.held,
            stored_bytes: self.nodes.len() * (size_of::<Node>() + 16 + 4 + 8)
                + self.steps.len() * 12
                + self.facts.len() * 8
                + strings(&self.said)
                + effects,
        }
    }

    /// Whether fact `rule` holds in configuration `node` (see [`facts`]).
    pub fn fact(&self, node: usize, rule: usize) -> bool {
        let word = self.facts[node * self.facts_per_node + rule / 64];
        word & (1 << (rule % 64)) != 0
    }

    /// The shortest conversation to configuration `to`, as a script.
    pub fn script_to(&self, to: usize) -> Script {
        script_back(to, |at| {
            self.nodes[at]
                .parent
                .map(|(p, m)| (p as usize, self.said[m as usize].as_str()))
        })
    }

    /// The id of configuration `node`'s state.
    pub fn state_id(&self, node: usize) -> &str {
        self.plan
            .states
            .get(self.nodes[node].state as usize)
            .map_or("", |s| s.id.as_str())
    }
}

/// The bytes one interned effect takes.
pub(crate) fn effects_size(e: &Effects) -> usize {
    let strings = |list: &[String]| list.iter().map(|m| m.len() + 24).sum::<usize>();
    strings(&e.entered)
        + strings(&e.called)
        + strings(&e.fell_through)
        + e.set
            .iter()
            .map(|(k, v)| k.len() + v.len() + 48)
            .sum::<usize>()
        + e.fired.iter().map(|(f, _)| f.len() + 32).sum::<usize>()
        + std::mem::size_of::<Effects>()
}

/// Interns `value` in `list` through `index`.
fn intern<T: Clone + Eq + std::hash::Hash>(
    value: T,
    list: &mut Vec<T>,
    index: &mut HashMap<T, u32>,
) -> u32 {
    if let Some(&i) = index.get(&value) {
        return i;
    }
    let i = list.len() as u32;
    index.insert(value.clone(), i);
    list.push(value);
    i
}

/// Where one move from a configuration leads: what it did, its key's hash, and the session after
/// it when that configuration was not known when the batch began (most moves lead to a known one:
/// their sessions are dropped by the thread that made them, never sent).
pub(crate) struct Moved {
    /// The session (packed), and what each rule reads of it.
    pub session: Option<(Stored, Vec<u64>)>,
    pub effects: Effects,
    pub key: u128,
}

/// The configurations reached so far, by key hash: read by the threads while they expand a batch,
/// written only by the merge between two batches.
type Index = std::sync::RwLock<HashMap<u128, u32>>;

/// Whether `key` is known to `index`.
fn known(index: &Index, key: u128) -> bool {
    index.read().is_ok_and(|i| i.contains_key(&key))
}

/// Every move from `here`, in the order [`moves`] offers them, with where each leads (none for a
/// move the runtime refused). A pure function of the session: the threads of a search call it on
/// different configurations, and the merge that follows is the serial search's own.
fn expand(
    plan: &Plan,
    domains: &Domains,
    index: &Index,
    here: &Session,
) -> Vec<(String, Option<Moved>)> {
    moves(plan, domains, here)
        .into_iter()
        .map(|message| {
            let moved = play(plan, here, &message)
                .ok()
                .map(|(mut session, events)| {
                    domains.reads.slim(&mut session);
                    let key = key_hash(&session, domains);
                    Moved {
                        effects: effects(&events),
                        key,
                        session: (!known(index, key)).then(|| {
                            let facts = facts(plan, &session, plan.rules.len().div_ceil(64));
                            let state = domains.reads.state_index(&session.state_id);
                            (Stored::pack(session, state, &domains.reads), facts)
                        }),
                    }
                });
            (message, moved)
        })
        .collect()
}

/// What a batch's expansion answers: for each configuration, its moves, or none when it was not
/// to be expanded.
pub(crate) type Expanded = Vec<Option<Vec<(String, Option<Moved>)>>>;

/// `expand` over each session of `batch` that `todo` marks, in order.
fn expand_each(
    plan: &Plan,
    domains: &Domains,
    index: &Index,
    batch: Vec<Stored>,
    todo: &[bool],
) -> Expanded {
    batch
        .into_iter()
        .zip(todo)
        .map(|(s, todo)| {
            // A session that did not read back is left unexpanded (the search then says it is
            // incomplete); serde always reads back what it wrote.
            todo.then(|| s.unpack(&domains.reads))
                .flatten()
                .map(|s| expand(plan, domains, index, &s))
        })
        .collect()
}

/// Threads that live as long as the search (a thread started per batch cost more than it saved:
/// each began with a fresh heap), each expanding the part of a batch it is sent.
struct Workers {
    lines: Vec<(
        std::sync::mpsc::Sender<Job>,
        std::sync::mpsc::Receiver<Expanded>,
    )>,
}

/// A part of a batch for one thread: the sessions, and which of them to expand.
type Job = (Vec<Stored>, Vec<bool>);

impl Workers {
    fn start<'scope>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        plan: &'scope Plan,
        domains: &'scope Domains,
        index: &'scope Index,
        threads: usize,
    ) -> Workers {
        use std::sync::mpsc::channel;
        let lines = (0..threads)
            .map(|_| {
                let (to_worker, jobs) = channel::<Job>();
                let (done, from_worker) = channel::<Expanded>();
                scope.spawn(move || {
                    for (batch, todo) in jobs {
                        let expanded = expand_each(plan, domains, index, batch, &todo);
                        if done.send(expanded).is_err() {
                            break;
                        }
                    }
                });
                (to_worker, from_worker)
            })
            .collect();
        Workers { lines }
    }

    /// Expands `batch` split among the threads, answering in the batch's order.
    fn expand(&self, mut batch: Vec<Stored>, todo: Vec<bool>) -> Expanded {
        let total = batch.len();
        let size = total.div_ceil(self.lines.len()).max(1);
        let mut sent = 0;
        let mut at = 0;
        for (to_worker, _) in &self.lines {
            if at >= total {
                break;
            }
            let end = (at + size).min(total);
            let part: Vec<Stored> = batch.drain(..end - at).collect();
            if to_worker.send((part, todo[at..end].to_vec())).is_err() {
                break;
            }
            sent += 1;
            at = end;
        }
        self.lines[..sent]
            .iter()
            .flat_map(|(_, from_worker)| from_worker.recv().unwrap_or_default())
            .collect()
    }
}

/// Configurations expanded at a time on each thread: enough to keep the threads busy between
/// two merges, few enough that a batch's sessions stay small.
pub(crate) const PER_THREAD: usize = 128;

pub(crate) fn search<'p>(
    plan: &'p Plan,
    domains: Domains,
    start: &Start,
    bounds: Bounds,
    threads: usize,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(usize),
) -> Search<'p> {
    let index = Index::default();
    if threads <= 1 {
        let mut serial =
            |batch: Vec<Stored>, todo: Vec<bool>| expand_each(plan, &domains, &index, batch, &todo);
        let at = Place {
            plan,
            domains: &domains,
            index: &index,
        };
        let mut s = search_with(at, start, bounds, 1, stop, progress, &mut serial);
        s.domains = domains;
        return s;
    }
    let mut s = std::thread::scope(|scope| {
        let workers = Workers::start(scope, plan, &domains, &index, threads);
        let mut parallel = |batch: Vec<Stored>, todo: Vec<bool>| workers.expand(batch, todo);
        let at = Place {
            plan,
            domains: &domains,
            index: &index,
        };
        search_with(at, start, bounds, threads, stop, progress, &mut parallel)
        // The workers end when `workers` is dropped: their job lines close.
    });
    s.domains = domains;
    s
}

/// What a search reads and shares: the plan, its domains, the configurations known.
struct Place<'a, 'p> {
    plan: &'p Plan,
    domains: &'a Domains,
    index: &'a Index,
}

/// The search, its batches expanded by `expand_batch`, merged here in order.
fn search_with<'p>(
    at_place: Place<'_, 'p>,
    start: &Start,
    bounds: Bounds,
    threads: usize,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(usize),
    expand_batch: &mut dyn FnMut(Vec<Stored>, Vec<bool>) -> Expanded,
) -> Search<'p> {
    let Place {
        plan,
        domains,
        index: at_index,
    } = at_place;
    let state_of = |s: &Session| domains.reads.state_index(&s.state_id);
    let facts_per_node = plan.rules.len().div_ceil(64);
    let mut s = Search {
        plan,
        domains: Domains::default(),
        nodes: Vec::new(),
        said: Vec::new(),
        effects: Vec::new(),
        opening: 0,
        steps: Vec::new(),
        facts: Vec::new(),
        facts_per_node,
        complete: true,
        stopped: None,
        bounds,
        moves: 0,
        work: 0,
        held: 0,
    };
    let Ok((chat, opening)) = Chat::open_from(plan, &Simulator, plan_ref(plan), start) else {
        return s;
    };
    let mut said_index: HashMap<String, u32> = HashMap::new();
    let mut effects_index: HashMap<Effects, u32> = HashMap::new();
    s.opening = intern(effects(&opening.events), &mut s.effects, &mut effects_index);
    let first = key_hash(&chat.session, domains);
    let Ok(mut index) = at_index.write() else {
        return s;
    };
    index.insert(first, 0);
    drop(index);
    s.facts.extend(facts(plan, &chat.session, facts_per_node));
    s.nodes.push(Node {
        parent: None,
        depth: 0,
        state: state_of(&chat.session),
        ended: chat.session.ended.is_some(),
        expanded: false,
        key: first,
    });
    // The sessions of the configurations not yet expanded: those of `at..`, in order.
    let opening_state = state_of(&chat.session);
    let opening = Stored::pack(chat.session, opening_state, &domains.reads);
    let mut held = Held::default();
    held.pending += opening.size();
    let mut pending: VecDeque<Stored> = VecDeque::from([opening]);
    let mut batches = Batches::new(bounds, threads);
    let mut at = 0;
    'search: while !pending.is_empty() {
        if stop() {
            s.complete = false;
            s.stopped = Some(Stopped::Asked);
            break;
        }
        if s.work >= bounds.max_moves {
            s.complete = false;
            s.stopped = Some(Stopped::MaxMoves);
            break;
        }
        let n = pending.len().min(batches.next(s.work));
        let batch: Vec<Stored> = pending.drain(..n).collect();
        // What is held is counted as the merge goes, configuration by configuration, so that
        // where a ceiling stops the search does not depend on the batches (nor on the threads).
        let sizes: Vec<usize> = batch.iter().map(Stored::size).collect();
        let weights: Vec<usize> = batch.iter().map(Stored::weight).collect();
        let todo: Vec<bool> = (at..at + n)
            .map(|i| !s.nodes[i].ended && s.nodes[i].depth < bounds.max_turns)
            .collect();
        let expanded = expand_batch(batch, todo);
        batches.measure(&expanded, &weights);
        // The merge writes the index: no thread reads it until the next batch.
        let Ok(mut index) = at_index.write() else {
            break;
        };
        for ((result, weight), size) in expanded.into_iter().zip(&weights).zip(&sizes) {
            held.pending -= size;
            let work = result.as_ref().map_or(0, Vec::len) * weight;
            if s.work + work > bounds.max_moves {
                // This configuration's moves would pass the work ceiling: it and the rest stay
                // unexpanded (what they hold is not claimed).
                s.complete = false;
                s.stopped = Some(Stopped::MaxMoves);
                break 'search;
            }
            s.moves += result.as_ref().map_or(0, Vec::len);
            s.work += work;
            let Some(moved) = result else {
                if s.nodes[at].ended {
                    s.nodes[at].expanded = true;
                } else {
                    s.complete = false;
                    s.stopped.get_or_insert(Stopped::MaxTurns);
                }
                at += 1;
                continue;
            };
            // Expanded only when every move's configuration was kept: one dropped by the bound
            // could have led on, so this one must not look like a dead end.
            let mut whole = true;
            let mut taken: Vec<(u32, u32)> = Vec::new();
            for (message, moved) in moved {
                let Some(moved) = moved else {
                    continue;
                };
                let effects_before = s.effects.len();
                let done = intern(moved.effects, &mut s.effects, &mut effects_index);
                if s.effects.len() > effects_before {
                    held.interned += effects_size(&s.effects[done as usize]) * 2;
                }
                let to = match index.get(&moved.key) {
                    Some(&to) => to,
                    None => {
                        // Unknown when the batch began, so the thread kept its session.
                        let Some((stored, node_facts)) = moved.session else {
                            continue;
                        };
                        if s.nodes.len() >= bounds.max_configurations {
                            s.complete = false;
                            s.stopped = Some(Stopped::MaxConfigurations);
                            whole = false;
                            continue;
                        }
                        held.pending += stored.size();
                        let total = held.total(&s);
                        if total + batches.room() > bounds.max_memory {
                            // Stopped before the ceiling: this configuration and every one
                            // not yet expanded stay unexpanded (so none looks like a dead end).
                            s.complete = false;
                            s.stopped = Some(Stopped::MaxMemory);
                            s.nodes[at].expanded = false;
                            break 'search;
                        }
                        s.held = s.held.max(total);
                        let to = s.nodes.len() as u32;
                        index.insert(moved.key, to);
                        let said_before = s.said.len();
                        let m = intern(message, &mut s.said, &mut said_index);
                        if s.said.len() > said_before {
                            held.interned += s.said[m as usize].len() * 2 + 56;
                        }
                        s.facts.extend(node_facts);
                        s.nodes.push(Node {
                            parent: Some((at as u32, m)),
                            depth: s.nodes[at].depth + 1,
                            state: stored.state,
                            ended: stored.ended,
                            expanded: false,
                            key: moved.key,
                        });
                        pending.push_back(stored);
                        to
                    }
                };
                let nothing = s.effects[done as usize] == Effects::default();
                if (to as usize == at && nothing) || taken.contains(&(to, done)) {
                    continue;
                }
                taken.push((to, done));
                s.steps.push((at as u32, to, done));
            }
            s.nodes[at].expanded = whole;
            at += 1;
        }
        progress(s.nodes.len());
    }
    progress(s.nodes.len());
    s
}
