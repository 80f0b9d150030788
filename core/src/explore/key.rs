//! A configuration's key (explore.md, "Configurations and bounds"): what of a session any future
//! move can read, and nothing else, so that two sessions every future move treats alike are one.
//! A visit's counters are capped at the largest threshold that reads them in its state, visit
//! counts likewise, a parked task's age at its `ttl_turns`; a value is kept only while something
//! ahead can compare it, and only as known while something ahead asks only that ([`Reads`]); what
//! was said, the turn's number, where and when a value was recorded and the agent's notes are left
//! out.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::moves::Domains;
use super::reads::{Caps, Keep, Reads};
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

fn visit_key<'a>(v: &'a crate::runtime::Visit, caps: Caps) -> VisitKey<'a> {
    VisitKey {
        tasks: &v.tasks,
        goal: format!("{:?}", v.goal),
        total: v.total.min(caps.total),
        without_progress: v.without_progress.min(caps.without_progress),
        tools: &v.tools,
    }
}

/// What a key writes for a value kept only as known (one meaning per key in a configuration:
/// whether a key keeps its value depends only on the state and the parked one, both in the key).
static KNOWN: Value = Value::Null;

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
    let reads: &Reads = &domains.reads;
    let parked_state = s.parked.as_ref().map(|p| p.state_id.as_str());
    let mut visits: BTreeMap<&str, u32> = BTreeMap::new();
    for id in &s.path {
        let cap = reads.visit_cap(id);
        if cap > 0 {
            let n = visits.entry(id.as_str()).or_default();
            *n = (*n + 1).min(cap);
        }
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
            p.visit
                .as_ref()
                .map(|v| visit_key(v, reads.caps(&p.state_id))),
        )
    });
    let k = Key {
        state: &s.state_id,
        visit: visit_key(&s.visit, reads.caps(&s.state_id)),
        values: s
            .deliverables
            .iter()
            .filter_map(|(k, r)| match reads.keep(&s.state_id, parked_state, k) {
                Keep::Value => Some((k.as_str(), &r.value)),
                Keep::Known => Some((k.as_str(), &KNOWN)),
                Keep::Nothing => None,
            })
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
