//! A configuration's key (explore.md, "Configurations and bounds"): what of a session any future
//! move can read, and nothing else, so that two sessions every future move treats alike are one.
//! Counters are capped just above the largest threshold that reads them, visit counts likewise, a
//! parked task's age at its `ttl_turns`; what was said, the turn's number, where and when a value
//! was recorded and the agent's notes are left out.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::moves::Domains;
use crate::runtime::{Ended, Session, SessionValue, TaskProgress};

#[derive(Serialize)]
struct VisitKey<'a> {
    tasks: &'a [TaskProgress],
    goal: String,
    total: u32,
    without_progress: u32,
    tools: &'a BTreeMap<String, String>,
}

#[derive(Serialize)]
struct Key<'a> {
    state: &'a str,
    visit: VisitKey<'a>,
    values: BTreeMap<&'a str, &'a Value>,
    session_states: &'a BTreeMap<String, SessionValue>,
    parked: Option<(&'a str, &'a str, u32, Option<VisitKey<'a>>)>,
    spent: &'a [String],
    returned_from: &'a Option<String>,
    visits: BTreeMap<&'a str, u32>,
    ended: Option<(String, &'a Option<String>, &'a str)>,
}

fn visit_key<'a>(v: &'a crate::runtime::Visit, cap: u32) -> VisitKey<'a> {
    VisitKey {
        tasks: &v.tasks,
        goal: format!("{:?}", v.goal),
        total: v.total.min(cap),
        without_progress: v.without_progress.min(cap),
        tools: &v.tools,
    }
}

fn ended_key(e: &Ended) -> (String, &Option<String>, &str) {
    (format!("{:?}", e.kind), &e.to, e.state_id.as_str())
}

/// The key of the configuration `s` is in.
pub fn key(s: &Session, domains: &Domains) -> Vec<u8> {
    let mut out = Vec::new();
    write_key(s, domains, &mut out);
    out
}

/// The 128-bit hash of [`key`]: two SipHash-1-3 hashers with fixed keys (no randomness: a
/// search is repeatable) over the key's bytes, each written once (serde's many small writes
/// straight into a hasher cost a quarter of a search). The search stores this, not the key: two
/// keys sharing it among a billion configurations has a chance under 10^-20.
pub fn key_hash(s: &Session, domains: &Domains) -> u128 {
    use std::hash::Hasher;
    let mut bytes = Vec::with_capacity(512);
    write_key(s, domains, &mut bytes);
    let mut first = std::hash::DefaultHasher::new();
    first.write(&bytes);
    let mut second = std::hash::DefaultHasher::new();
    second.write_u64(0x9e37_79b9_7f4a_7c15);
    second.write(&bytes);
    (u128::from(first.finish()) << 64) | u128::from(second.finish())
}

fn write_key(s: &Session, domains: &Domains, out: &mut impl std::io::Write) {
    let cap = domains.turn_cap;
    let mut visits: BTreeMap<&str, u32> = BTreeMap::new();
    for id in &s.path {
        let n = visits.entry(id.as_str()).or_default();
        *n = (*n + 1).min(domains.visit_cap);
    }
    let parked = s.parked.as_ref().map(|p| {
        let age = s.turn.saturating_sub(p.since_turn);
        let age = if p.ttl_turns > 0 {
            age.min(p.ttl_turns + 1)
        } else {
            0
        };
        (
            p.state_id.as_str(),
            p.interruption.as_str(),
            age,
            p.visit.as_ref().map(|v| visit_key(v, cap)),
        )
    });
    let k = Key {
        state: &s.state_id,
        visit: visit_key(&s.visit, cap),
        values: s
            .deliverables
            .iter()
            .map(|(k, r)| (k.as_str(), &r.value))
            .collect(),
        session_states: &s.session_states,
        parked,
        spent: &s.spent_conditions,
        returned_from: &s.returned_from,
        visits,
        ended: s.ended.as_ref().map(ended_key),
    };
    // The key has only string map keys and finite numbers: it cannot fail to serialise.
    let _ = serde_json::to_writer(out, &k);
}
