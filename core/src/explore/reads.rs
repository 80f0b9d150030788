//! What a configuration's future can still read (explore.md, "Configurations and bounds"), so that
//! the key keeps that and nothing else:
//! - a deliverable's **value** only while some condition, template or recording that compares it
//!   is still ahead: in a state reachable from the current one (or from the parked one), or
//!   anywhere (interruptions, rules, session states, the plan's own texts); its **presence** only
//!   while a `deliverable_exists` is still ahead; else nothing of it;
//! - each counter of a visit only up to the largest threshold that can read it in that state: its
//!   own transitions' `turn_count_exceeded`, the conditions read anywhere, and the stuck-state
//!   safety net for turns without progress;
//! - the visits to a state only as far as a `visit_count_exceeded` counts them, and only whether
//!   it was entered for a state a rule names (`visits_before`, `reaches`).
//!
//! Reachability is the plan's graph, over-approximated: transitions, a goal state's fall-through to
//! the next state in plan order, and every interruption's target from every state. Computed once
//! per search: strongly connected components (a cycle's states share one set), each component's
//! set the union of its own reads and those of the components it reaches, as bitsets over keys.

use std::collections::HashMap;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use serde_json::Value;

use crate::condition::{Check, Condition, TurnScope};
use crate::plan::{Plan, StateType};
use crate::runtime::Session;
use crate::template::{Name, Template};

/// What of a deliverable a configuration keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Its value: something ahead compares it.
    Value,
    /// Only that it is known.
    Known,
    /// Nothing: nothing ahead reads it.
    Nothing,
}

/// The largest counts a visit's counters need to tell apart in one state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Caps {
    /// Turns in the state (`turn_count_exceeded` with scope `total`; at least 1: the simulator
    /// says the state's instructions on its first turn only).
    pub total: u32,
    /// Turns without progress (scope `without_progress`, and the safety net's `stuck_turns`).
    pub without_progress: u32,
}

/// What each state's future reads; see the module's text.
#[derive(Debug, Clone, Default)]
pub struct Reads {
    state_at: HashMap<String, usize>,
    key_at: HashMap<String, usize>,
    /// The keys by number (`key_at`'s other way).
    keys: Vec<String>,
    /// Each state's task ids, in order (by plan order): a packed session's visit writes its
    /// tasks' statuses only, in this order.
    task_ids: Vec<Vec<String>>,
    /// The component of each state (by plan order), and each component's bitsets.
    component: Vec<usize>,
    values: Vec<Vec<u64>>,
    known: Vec<Vec<u64>>,
    caps: Vec<Caps>,
    /// How far each state's visits are counted (the states no condition or rule counts are not).
    visit_caps: HashMap<String, u32>,
    /// Keep every value, and every counter up to [`Reads::widest`] (the reference key).
    every_value: bool,
    widest: Caps,
}

/// The keys one part of the plan reads directly, and its counter thresholds.
#[derive(Default)]
struct Direct {
    values: Vec<String>,
    known: Vec<String>,
    caps: Caps,
    /// `visit_count_exceeded`: the state it counts (`None`: the state it is read in) and the count.
    visits: Vec<(Option<String>, u32)>,
}

impl Direct {
    /// Reads every condition and template in `v`, a part of the plan as JSON.
    fn scan(&mut self, v: &Value) {
        match v {
            Value::Object(map) => {
                // A condition, or a transition (its condition's two fields beside others).
                if let Some(ty) = map.get("condition_type") {
                    let mut c = serde_json::Map::new();
                    c.insert("condition_type".into(), ty.clone());
                    if let Some(config) = map.get("condition_config") {
                        c.insert("condition_config".into(), config.clone());
                    }
                    if let Ok(c) = serde_json::from_value::<Condition>(Value::Object(c)) {
                        if let Ok(check) = c.read() {
                            self.check(&check);
                        }
                    }
                }
                for (name, child) in map {
                    // A deliverable collected is compared when it is given again (the same value
                    // is no progress).
                    if name == "deliverables" {
                        for d in child.as_array().into_iter().flatten() {
                            if let Some(key) = d.get("key").and_then(Value::as_str) {
                                self.values.push(key.to_string());
                            }
                        }
                    }
                    self.scan(child);
                }
            }
            Value::Array(list) => list.iter().for_each(|x| self.scan(x)),
            Value::String(text) if !Template::is_plain(text) => {
                if let Ok(t) = Template::parse(text) {
                    for u in t.uses() {
                        if let Name::Deliverable(key) = u.name {
                            self.values.push(key);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn check(&mut self, check: &Check) {
        match check {
            Check::DeliverableExists { key } => self.known.push(key.to_string()),
            Check::DeliverableValue { key, .. }
            | Check::DeliverableValueIn { key, .. }
            | Check::DeliverableValueNumeric { key, .. } => self.values.push(key.to_string()),
            Check::TurnCountExceeded { turns, scope } => {
                let n = u32::try_from(*turns).unwrap_or(u32::MAX);
                match scope {
                    TurnScope::Total => self.caps.total = self.caps.total.max(n),
                    TurnScope::WithoutProgress => {
                        self.caps.without_progress = self.caps.without_progress.max(n)
                    }
                }
            }
            Check::VisitCountExceeded { visits, state_id } => self.visits.push((
                state_id.map(str::to_string),
                u32::try_from(*visits).unwrap_or(u32::MAX),
            )),
            Check::AllOf(children) | Check::AnyOf(children) => {
                children.iter().for_each(|c| self.check(c))
            }
            _ => {}
        }
    }
}

impl Reads {
    /// The reads of `plan`'s states.
    pub fn of(plan: &Plan) -> Reads {
        let n = plan.states.len();
        let state_at: HashMap<String, usize> = plan
            .states
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect();
        // What is read anywhere: everything but the states (and the cards' places), written as
        // JSON without them: writing the states only to drop them was a fifth of the time. A plan
        // that cannot be written as JSON (it always can) would be read as nothing: then every
        // value is kept instead.
        let mut anywhere = Direct::default();
        let mut unread = false;
        let mut outside_states = plan.clone();
        outside_states.states = Vec::new();
        outside_states.layout = Default::default();
        match serde_json::to_value(&outside_states) {
            Ok(whole @ Value::Object(_)) => anywhere.scan(&whole),
            _ => unread = true,
        }
        anywhere.caps.without_progress = anywhere
            .caps
            .without_progress
            .max(plan.settings.stuck_turns);
        let direct: Vec<Direct> = plan
            .states
            .iter()
            .map(|s| {
                let mut d = Direct::default();
                match serde_json::to_value(s) {
                    Ok(v) => d.scan(&v),
                    Err(_) => unread = true,
                }
                d
            })
            .collect();
        let mut key_at: HashMap<String, usize> = HashMap::new();
        for k in direct
            .iter()
            .chain([&anywhere])
            .flat_map(|d| d.values.iter().chain(&d.known))
        {
            let next = key_at.len();
            key_at.entry(k.clone()).or_insert(next);
        }
        let words = key_at.len().div_ceil(64);
        let bits = |keys: &[String]| {
            let mut b = vec![0u64; words];
            for k in keys {
                let i = key_at[k];
                b[i / 64] |= 1 << (i % 64);
            }
            b
        };

        // The graph: one node per state and one for "anywhere", which every state reaches (an
        // interruption) and which reaches every interruption's target.
        let mut graph = DiGraph::<(), ()>::with_capacity(n + 1, n * 2);
        let nodes: Vec<NodeIndex> = (0..=n).map(|_| graph.add_node(())).collect();
        let anywhere_node = nodes[n];
        for (i, s) in plan.states.iter().enumerate() {
            for t in &s.transitions {
                if let Some(&j) = state_at.get(&t.target_state_id) {
                    graph.add_edge(nodes[i], nodes[j], ());
                }
            }
            if s.kind == StateType::Goal && i + 1 < n {
                graph.add_edge(nodes[i], nodes[i + 1], ());
            }
            if !plan.interruptions.is_empty() {
                graph.add_edge(nodes[i], anywhere_node, ());
            }
        }
        for x in &plan.interruptions {
            if let Some(&j) = state_at.get(&x.target_state_id) {
                graph.add_edge(anywhere_node, nodes[j], ());
            }
        }
        // Components in reverse topological order: each after every component it reaches.
        let components = tarjan_scc(&graph);
        let mut component = vec![0; n + 1];
        let (mut values, mut known) = (Vec::new(), Vec::new());
        for (c, members) in components.iter().enumerate() {
            let (mut v, mut k) = (vec![0u64; words], vec![0u64; words]);
            for &m in members {
                component[m.index()] = c;
                if let Some(d) = direct.get(m.index()) {
                    or(&mut v, &bits(&d.values));
                    or(&mut k, &bits(&d.known));
                }
            }
            for &m in members {
                for next in graph.neighbors(m) {
                    let nc = component[next.index()];
                    if nc != c {
                        let (nv, nk): (&Vec<u64>, &Vec<u64>) = (&values[nc], &known[nc]);
                        or(&mut v, nv);
                        or(&mut k, nk);
                    }
                }
            }
            values.push(v);
            known.push(k);
        }
        // What is read anywhere is read from every state.
        let (av, ak) = (bits(&anywhere.values), bits(&anywhere.known));
        for c in 0..components.len() {
            or(&mut values[c], &av);
            or(&mut known[c], &ak);
        }
        component.truncate(n);
        let caps: Vec<Caps> = direct
            .iter()
            .map(|d| Caps {
                total: d.caps.total.max(anywhere.caps.total).max(1),
                without_progress: d.caps.without_progress.max(anywhere.caps.without_progress),
            })
            .collect();
        // Visit counts: as far as a `visit_count_exceeded` counts them; whether a state was
        // entered at all where a rule asks it.
        let mut visit_caps: HashMap<String, u32> = HashMap::new();
        let mut count = |id: &str, n: u32| {
            let cap = visit_caps.entry(id.to_string()).or_default();
            *cap = (*cap).max(n);
        };
        for (s, d) in plan.states.iter().zip(&direct) {
            for (id, n) in &d.visits {
                count(id.as_deref().unwrap_or(&s.id), *n);
            }
        }
        for (id, n) in &anywhere.visits {
            match id {
                Some(id) => count(id, *n),
                None => plan.states.iter().for_each(|s| count(&s.id, *n)),
            }
        }
        for r in &plan.rules {
            for id in [&r.state_id, &r.first_state_id, &r.then_state_id]
                .into_iter()
                .flatten()
            {
                count(id, 1);
            }
        }
        let widest = Caps {
            total: caps.iter().map(|c: &Caps| c.total).max().unwrap_or(1),
            without_progress: caps.iter().map(|c| c.without_progress).max().unwrap_or(0),
        };
        Reads {
            state_at,
            keys: {
                let mut keys = vec![String::new(); key_at.len()];
                for (k, &i) in &key_at {
                    keys[i].clone_from(k);
                }
                keys
            },
            key_at,
            task_ids: plan
                .states
                .iter()
                .map(|s| s.tasks.iter().map(|t| t.id.clone()).collect())
                .collect(),
            component,
            values,
            known,
            caps,
            visit_caps,
            every_value: unread,
            widest,
        }
    }

    /// The reference: every value kept, in every state, and each counter up to one above the
    /// largest threshold anywhere.
    pub fn every_value(plan: &Plan) -> Reads {
        let mut r = Reads::of(plan);
        r.every_value = true;
        r.widest.total += 1;
        r.widest.without_progress += 1;
        r
    }

    /// The number of deliverable key `key` among those the plan reads or collects.
    pub fn key_number(&self, key: &str) -> Option<u32> {
        self.key_at.get(key).and_then(|&i| u32::try_from(i).ok())
    }

    /// The key numbered `n` ([`Reads::key_number`]).
    pub fn key_named(&self, n: u32) -> Option<&str> {
        self.keys.get(n as usize).map(String::as_str)
    }

    /// The task ids of the state at `state` in the plan's order (none for a state the plan
    /// lacks).
    pub fn task_ids(&self, state: u32) -> &[String] {
        self.task_ids.get(state as usize).map_or(&[], Vec::as_slice)
    }

    /// Where state `state_id` is in the plan's order (`u32::MAX` for a state the plan lacks).
    pub fn state_index(&self, state_id: &str) -> u32 {
        self.state_at
            .get(state_id)
            .map_or(u32::MAX, |&i| u32::try_from(i).unwrap_or(u32::MAX))
    }

    /// The counter caps of a visit to `state_id` (the loosest for a state the plan lacks).
    pub fn caps(&self, state_id: &str) -> Caps {
        if self.every_value {
            return self.widest;
        }
        match self.state_at.get(state_id) {
            Some(&i) => self.caps[i],
            None => Caps {
                total: u32::MAX,
                without_progress: u32::MAX,
            },
        }
    }

    /// How far the visits to `state_id` are counted (0: not at all).
    pub fn visit_cap(&self, state_id: &str) -> u32 {
        let cap = self.visit_caps.get(state_id).copied().unwrap_or(0);
        if self.every_value {
            return self.visit_caps.values().copied().max().unwrap_or(0).max(1) + 1;
        }
        cap
    }

    /// What a configuration in `state_id`, with `parked` waiting to come back, keeps of `key`.
    pub fn keep(&self, state_id: &str, parked: Option<&str>, key: &str) -> Keep {
        if self.every_value {
            return Keep::Value;
        }
        let Some(&k) = self.key_at.get(key) else {
            return Keep::Nothing;
        };
        let (word, bit) = (k / 64, 1u64 << (k % 64));
        let mut keep = Keep::Nothing;
        for id in [Some(state_id), parked].into_iter().flatten() {
            let Some(&i) = self.state_at.get(id) else {
                // A state the plan lacks: keep everything rather than guess.
                return Keep::Value;
            };
            let c = self.component[i];
            if self.values[c][word] & bit != 0 {
                return Keep::Value;
            }
            if self.known[c][word] & bit != 0 {
                keep = Keep::Known;
            }
        }
        keep
    }
}

impl Reads {
    /// Drops from `s` what nothing ahead reads: the values no longer read, where each value was
    /// recorded and in which words, the visits of states no condition or rule counts, the plan's
    /// name and hash. The key is
    /// the same, every move treats the session as before, and it costs less to keep and to copy
    /// (a search holds every session it has not expanded yet). Nothing for the reference key.
    pub fn slim(&self, s: &mut Session) {
        if self.every_value {
            return;
        }
        let state = std::mem::take(&mut s.state_id);
        let parked = s.parked.as_ref().map(|p| p.state_id.as_str());
        s.deliverables
            .retain(|k, _| self.keep(&state, parked, k) != Keep::Nothing);
        s.state_id = state;
        for r in s.deliverables.values_mut() {
            r.quote = None;
            r.state_id = String::new();
        }
        s.path
            .retain(|id| self.visit_caps.get(id).is_some_and(|&cap| cap > 0));
        // Which plan it runs: the search knows (a finding's conversation is said again from the
        // start, with the plan named).
        s.plan.id = String::new();
        s.plan.content_hash = String::new();
    }
}

fn or(into: &mut [u64], from: &[u64]) {
    for (a, b) in into.iter_mut().zip(from) {
        *a |= b;
    }
}
