//! A configuration's key (explore.md, "Configurations and bounds"): what of a session any future
//! move can read, and nothing else, so that two sessions every future move treats alike are one.
//! A visit's counters are capped at the largest threshold that reads them in its state, visit
//! counts likewise, a parked task's age at its `ttl_turns`; a value is kept only while something
//! ahead can compare it, and only as known while something ahead asks only that ([`Reads`]); what
//! was said, the turn's number, where and when a value was recorded and the agent's notes are left
//! out.

use std::collections::BTreeMap;

use serde_json::Value;

use super::moves::Domains;
use super::reads::{Caps, Keep, Reads};
use crate::runtime::{EndKind, GoalStatus, Session, TaskStatus, Visit};

/// The key in bytes: each part written in a fixed order, every text with its length before it
/// (so no two keys write the same bytes), with no escaping or formatting (the key's JSON was a
/// fifth of a search).
pub(crate) struct Bytes(pub(crate) Vec<u8>);

impl Bytes {
    pub(crate) fn byte(&mut self, b: u8) {
        self.0.push(b);
    }
    pub(crate) fn count(&mut self, n: usize) {
        self.0
            .extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    }
    pub(crate) fn text(&mut self, t: &str) {
        self.count(t.len());
        self.0.extend_from_slice(t.as_bytes());
    }
    pub(crate) fn maybe_text(&mut self, t: Option<&str>) {
        match t {
            Some(t) => {
                self.byte(1);
                self.text(t);
            }
            None => self.byte(0),
        }
    }
    /// A value as the runtime holds it: numbers by their representation, as equality reads them.
    pub(crate) fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.byte(0),
            Value::Bool(b) => self.byte(1 + u8::from(*b)),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    self.byte(3);
                    self.0.extend_from_slice(&i.to_le_bytes());
                } else if let Some(u) = n.as_u64() {
                    self.byte(4);
                    self.0.extend_from_slice(&u.to_le_bytes());
                } else {
                    self.byte(5);
                    let f = n.as_f64().unwrap_or_default();
                    self.0.extend_from_slice(&f.to_bits().to_le_bytes());
                }
            }
            Value::String(t) => {
                self.byte(6);
                self.text(t);
            }
            Value::Array(list) => {
                self.byte(7);
                self.count(list.len());
                list.iter().for_each(|x| self.value(x));
            }
            Value::Object(map) => {
                self.byte(8);
                self.count(map.len());
                for (k, x) in map {
                    self.text(k);
                    self.value(x);
                }
            }
        }
    }
    fn visit(&mut self, v: &Visit, caps: Caps) {
        self.count(v.tasks.len());
        for t in &v.tasks {
            self.text(&t.id);
            self.byte(match t.status {
                TaskStatus::Pending => 0,
                TaskStatus::Completed => 1,
                TaskStatus::Skipped => 2,
            });
        }
        self.byte(match v.goal {
            None => 0,
            Some(GoalStatus::Open) => 1,
            Some(GoalStatus::Closed) => 2,
            Some(GoalStatus::GivenUp) => 3,
            Some(GoalStatus::Skipped) => 4,
        });
        self.count(v.total.min(caps.total) as usize);
        self.count(v.without_progress.min(caps.without_progress) as usize);
        self.count(v.tools.len());
        for (tool, code) in &v.tools {
            self.text(tool);
            self.text(code);
        }
    }
}

/// The key of the configuration `s` is in.
pub fn key(s: &Session, domains: &Domains) -> Vec<u8> {
    let mut out = Bytes(Vec::with_capacity(256));
    write_key(s, &domains.reads, &mut out);
    out.0
}

/// The 128-bit hash of [`key`]: two SipHash-1-3 hashers with fixed keys (no randomness: a
/// search is repeatable) over the key's bytes, each written once. The search stores this, not
/// the key: two keys sharing it among a billion configurations has a chance under 10^-20.
pub fn key_hash(s: &Session, domains: &Domains) -> u128 {
    use std::hash::Hasher;
    let bytes = key(s, domains);
    let mut first = std::hash::DefaultHasher::new();
    first.write(&bytes);
    let mut second = std::hash::DefaultHasher::new();
    second.write_u64(0x9e37_79b9_7f4a_7c15);
    second.write(&bytes);
    (u128::from(first.finish()) << 64) | u128::from(second.finish())
}

fn write_key(s: &Session, reads: &Reads, out: &mut Bytes) {
    let parked_state = s.parked.as_ref().map(|p| p.state_id.as_str());
    out.text(&s.state_id);
    out.visit(&s.visit, reads.caps(&s.state_id));
    // The values, in the order of their keys (a map's order): each kept, kept as known, or not.
    for (k, r) in &s.deliverables {
        match reads.keep(&s.state_id, parked_state, k) {
            Keep::Value => {
                out.byte(1);
                out.text(k);
                out.value(&r.value);
            }
            Keep::Known => {
                out.byte(2);
                out.text(k);
            }
            Keep::Nothing => {}
        }
    }
    out.byte(0);
    out.count(s.session_states.len());
    for (id, v) in &s.session_states {
        out.text(id);
        out.value(&v.value);
        out.byte(u8::from(v.active));
    }
    match &s.parked {
        Some(p) => {
            out.byte(1);
            out.text(&p.state_id);
            out.text(&p.interruption);
            let age = s.turn.saturating_sub(p.since_turn);
            let age = if p.ttl_turns > 0 {
                age.min(p.ttl_turns + 1)
            } else {
                0
            };
            out.count(age as usize);
            match &p.visit {
                Some(v) => {
                    out.byte(1);
                    out.visit(v, reads.caps(&p.state_id));
                }
                None => out.byte(0),
            }
        }
        None => out.byte(0),
    }
    out.count(s.spent_conditions.len());
    s.spent_conditions.iter().for_each(|c| out.text(c));
    out.maybe_text(s.returned_from.as_deref());
    // The visits of the states some condition or rule counts, each as far as it is counted.
    let mut visits: BTreeMap<&str, u32> = BTreeMap::new();
    for id in &s.path {
        let cap = reads.visit_cap(id);
        if cap > 0 {
            let n = visits.entry(id.as_str()).or_default();
            *n = (*n + 1).min(cap);
        }
    }
    out.count(visits.len());
    for (id, n) in visits {
        out.text(id);
        out.count(n as usize);
    }
    match &s.ended {
        Some(e) => {
            out.byte(
                1 + match e.kind {
                    EndKind::Complete => 0,
                    EndKind::HangUp => 1,
                    EndKind::HandOff => 2,
                },
            );
            out.maybe_text(e.to.as_deref());
            out.text(&e.state_id);
        }
        None => out.byte(0),
    }
}
