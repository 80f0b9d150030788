//! `explore-stalls-on-value` (explore.md, "Findings"): a value the caller gave leaves no transition
//! that can fire until they give a different value for the same key: the plan waits for the
//! caller to change their mind. Found on the search's graph: a configuration a caller's value led
//! to, in a state whose arrows read that key, from which no move that leaves the key as it is
//! ever fires an arrow of the state or ends the conversation, though a conversation can still end
//! from there (else it is a dead end, said as one).

use std::collections::{BTreeMap, VecDeque};

use super::findings::{title, Finding, FindingCode, Place};
use super::search::Search;
use crate::condition::Check;
use crate::plan::{Plan, State};
use crate::validate::Severity;
use serde_json::Value;

/// A recorded value (its JSON text) as the author reads it, coerced to its key's type first.
fn said(plan: &Plan, key: &str, json: &str) -> String {
    let value: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    let value = crate::runtime::declaration(plan, key)
        .and_then(|d| crate::coerce::coerce(&value, d))
        .unwrap_or(value);
    crate::coerce::in_words(&value)
}

/// The keys a state's arrows compare with values.
fn keys_read(state: &State) -> Vec<String> {
    let mut out = Vec::new();
    for t in &state.transitions {
        if let Ok(check) = Check::read(t.condition_type_in(state.kind), &t.condition_config) {
            let mut read = Vec::new();
            crate::validate::keys_read(&check, &mut read);
            out.extend(read.into_iter().map(str::to_string));
        }
    }
    out.dedup();
    out
}

/// For key `key`: whether each configuration can, without the caller giving `key` again, reach a
/// move that fires an arrow of its state (or falls through from a goal state) or ends the
/// conversation. A configuration not expanded
/// (past a bound) is taken to get away: nothing is claimed of what was not seen.
fn gets_away(search: &Search, key: &str) -> Vec<bool> {
    let nodes = &search.nodes;
    let mut away: Vec<bool> = nodes.iter().map(|n| !n.expanded).collect();
    let mut before: Vec<Vec<u32>> = vec![Vec::new(); nodes.len()];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for &(from, to, done) in &search.steps {
        let done = &search.effects[done as usize];
        if done.set.iter().any(|(k, _)| k == key) {
            continue;
        }
        let (f, t) = (from as usize, to as usize);
        let state = search.state_id(f);
        let fires = done.fired.iter().any(|(s, _)| s == state)
            || done.fell_through.iter().any(|s| s == state)
            || nodes[t].ended;
        if fires {
            away[f] = true;
        } else if nodes[t].state == nodes[f].state {
            before[t].push(from);
        }
    }
    queue.extend((0..nodes.len()).filter(|&i| away[i]));
    while let Some(j) = queue.pop_front() {
        for &i in &before[j] {
            if !away[i as usize] {
                away[i as usize] = true;
                queue.push_back(i as usize);
            }
        }
    }
    away
}

/// The stalls, one for each state, key and value, at its shortest conversation; `can_end`: the
/// configurations from which some conversation still ends.
pub(crate) fn stalls(search: &Search, can_end: &[bool]) -> Vec<(Finding, Option<usize>)> {
    let plan = search.plan;
    let nodes = &search.nodes;
    let reads: Vec<Vec<String>> = plan.states.iter().map(|s| keys_read(s)).collect();
    // (state, key, value) → the shallowest configuration the value led to there.
    let mut found: BTreeMap<(u32, &str, &str), usize> = BTreeMap::new();
    let mut away: BTreeMap<&str, Vec<bool>> = BTreeMap::new();
    for &(_, to, done) in &search.steps {
        let to = to as usize;
        let n = &nodes[to];
        if n.ended || !n.expanded || !can_end[to] {
            continue;
        }
        let Some(read) = reads.get(n.state as usize) else {
            continue;
        };
        for (key, value) in &search.effects[done as usize].set {
            if !read.contains(key) {
                continue;
            }
            let away = away
                .entry(key.as_str())
                .or_insert_with(|| gets_away(search, key));
            if away[to] {
                continue;
            }
            let at = found
                .entry((n.state, key.as_str(), value.as_str()))
                .or_insert(to);
            if nodes[to].depth < nodes[*at].depth {
                *at = to;
            }
        }
    }
    let mut out: Vec<(Finding, Option<usize>)> = found
        .into_iter()
        .map(|((_, key, value), to)| {
            let state = search.state_id(to);
            let value = said(plan, key, value);
            let finding = Finding {
                code: FindingCode::StallsOnValue,
                severity: Severity::Warning,
                message: format!(
                    "When the caller gives '{value}' for {key} in '{}', no arrow can be taken until they give another value: the conversation waits for them to change their mind. Add an arrow for '{value}', or one that leaves whatever the answer.",
                    title(plan, state)
                ),
                location: Place {
                    state_id: Some(state.to_string()),
                    ..Place::default()
                },
                script: Some(search.script_to(to)),
            };
            (finding, Some(to))
        })
        .collect();
    out.sort_by_key(|(_, to)| to.map(|t| nodes[t].depth));
    out
}
