//! The search itself: breadth-first over user turns, each configuration stored compactly (its
//! key's 128-bit hash, how it was first reached, its state, what each rule reads of it) and its
//! session kept only until it is expanded, so that memory grows with the configurations by tens
//! of bytes, not by sessions. What each move did is interned: most moves do one of a few things.

use std::collections::{HashMap, VecDeque};

use super::findings::facts;
use super::key::key_hash;
use super::moves::{moves, Domains};
use super::{plan_ref, script_back, Bounds, Stopped};
use crate::plan::Plan;
use crate::runtime::script::Script;
use crate::runtime::{Chat, Event, Session, Simulator, Start, ToolResults};

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

/// What one move did: the states it entered, the transitions it fired (from, index), the
/// tools it called, and whether the safety net released something.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(crate) struct Effects {
    pub entered: Vec<String>,
    pub fired: Vec<(String, usize)>,
    pub called: Vec<String>,
    pub released: bool,
}

pub(crate) fn effects(events: &[Event]) -> Effects {
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

/// A search's result, kept for the findings to read.
pub(crate) struct Search<'p> {
    pub plan: &'p Plan,
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
}

impl Search<'_> {
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

pub(crate) fn search<'p>(
    plan: &'p Plan,
    start: &Start,
    bounds: Bounds,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(usize),
) -> Search<'p> {
    let domains = Domains::of(plan);
    let states: HashMap<&str, u32> = plan
        .states
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id.as_str(), i as u32))
        .collect();
    let state_of = |s: &Session| states.get(s.state_id.as_str()).copied().unwrap_or(u32::MAX);
    let facts_per_node = plan.rules.len().div_ceil(64);
    let mut s = Search {
        plan,
        nodes: Vec::new(),
        said: Vec::new(),
        effects: Vec::new(),
        opening: 0,
        steps: Vec::new(),
        facts: Vec::new(),
        facts_per_node,
        complete: true,
        stopped: None,
    };
    let Ok((chat, opening)) = Chat::open_from(plan, &Simulator, plan_ref(plan), start) else {
        return s;
    };
    let mut said_index: HashMap<String, u32> = HashMap::new();
    let mut effects_index: HashMap<Effects, u32> = HashMap::new();
    s.opening = intern(effects(&opening.events), &mut s.effects, &mut effects_index);
    let mut index: HashMap<u128, u32> = HashMap::new();
    let first = key_hash(&chat.session, &domains);
    index.insert(first, 0);
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
    let mut pending: VecDeque<Session> = VecDeque::from([chat.session]);
    let no_tools = ToolResults::new();
    let mut at = 0;
    while let Some(here) = pending.pop_front() {
        if stop() {
            s.complete = false;
            s.stopped = Some(Stopped::Asked);
            break;
        }
        if here.ended.is_some() {
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
        // Expanded only when every move's configuration was kept: one dropped by the bound
        // could have led on, so this one must not look like a dead end.
        let mut whole = true;
        let mut taken: Vec<(u32, u32)> = Vec::new();
        for message in moves(plan, &domains, &here) {
            let mut chat = Chat::resume(plan, &Simulator, here.clone());
            let Ok(turn) = chat.say_with(&message, &no_tools) else {
                continue;
            };
            let done = intern(effects(&turn.events), &mut s.effects, &mut effects_index);
            // What was said is read by no later move (a quote comes from its own message), and
            // copying it into every configuration was most of the search's time and memory.
            chat.session.transcript.clear();
            chat.session.insights.clear();
            let k = key_hash(&chat.session, &domains);
            let to = match index.get(&k) {
                Some(&to) => to,
                None => {
                    if s.nodes.len() >= bounds.max_configurations {
                        s.complete = false;
                        s.stopped = Some(Stopped::MaxConfigurations);
                        whole = false;
                        continue;
                    }
                    let to = s.nodes.len() as u32;
                    index.insert(k, to);
                    let m = intern(message, &mut s.said, &mut said_index);
                    s.facts.extend(facts(plan, &chat.session, facts_per_node));
                    s.nodes.push(Node {
                        parent: Some((at as u32, m)),
                        depth: s.nodes[at].depth + 1,
                        state: state_of(&chat.session),
                        ended: chat.session.ended.is_some(),
                        expanded: false,
                        key: k,
                    });
                    pending.push_back(chat.session);
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
        if at % 256 == 0 {
            progress(s.nodes.len());
        }
        at += 1;
    }
    progress(s.nodes.len());
    s
}
