//! What an edit changes for callers (explore.md, "Comparing two plans"): the two plans explored
//! side by side with the union of their moves, so that every move sequence both allow runs in
//! both; the conversations whose outcome differs (how and where they ended, or that they did not),
//! grouped by the older plan's outcome and the newer one's, with how many configurations show
//! each and the shortest conversation; and, from each plan's own exploration, the states newly
//! never entered or newly entered and the findings that are new or gone.

use std::collections::{BTreeMap, HashMap, VecDeque};

use serde::Serialize;

use super::{key, moves, plan_ref, script_back, Bounds, Domains, Explored, Finding};
use crate::plan::Plan;
use crate::runtime::script::Script;
use crate::runtime::{Chat, EndKind, Session, Simulator, Start};

/// What changed between an older plan and a newer one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct Comparison {
    /// Outcomes that changed: the older plan's, the newer one's, how many configurations, the
    /// shortest conversation.
    pub outcomes: Vec<Changed>,
    /// States some conversation enters in the older plan and none in the newer one.
    pub states_lost: Vec<String>,
    /// States some conversation enters in the newer plan and none in the older one.
    pub states_gained: Vec<String>,
    /// Findings of the newer plan the older one did not have.
    pub findings_new: Vec<Finding>,
    /// Findings of the older plan the newer one no longer has.
    pub findings_gone: Vec<Finding>,
}

/// One change of outcome.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Changed {
    /// The older plan's outcome ("ended in Billing", "handed off in Security", "not ended").
    pub from: String,
    /// The newer plan's.
    pub to: String,
    /// How many configurations of the joint search show it.
    pub count: usize,
    /// The shortest conversation that shows it.
    pub script: Script,
}

/// How a conversation stands, in the author's words.
fn outcome(plan: &Plan, s: &Session) -> String {
    let title = |id: &str| {
        plan.state(id)
            .map(|st| st.title.clone())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| id.to_string())
    };
    match &s.ended {
        Some(e) => {
            let how = match e.kind {
                EndKind::Complete => "ended",
                EndKind::HangUp => "hung up",
                EndKind::HandOff => "handed off",
            };
            format!("{how} in {}", title(&e.state_id))
        }
        None => "not ended".into(),
    }
}

/// Compares `new` with `old`, each already explored (`new_explored`, `old_explored`), within
/// `bounds`.
pub fn compare(
    new: &Plan,
    new_explored: &Explored,
    old: &Plan,
    old_explored: &Explored,
    bounds: Bounds,
) -> Comparison {
    let mut c = Comparison {
        outcomes: changed_outcomes(new, old, bounds),
        ..Comparison::default()
    };
    let entered = |e: &Explored| -> Vec<String> { e.coverage.states.keys().cloned().collect() };
    let (now, before) = (entered(new_explored), entered(old_explored));
    c.states_lost = before
        .iter()
        .filter(|s| !now.contains(s))
        .cloned()
        .collect();
    c.states_gained = now
        .iter()
        .filter(|s| !before.contains(s))
        .cloned()
        .collect();
    let same = |a: &Finding, b: &Finding| a.code == b.code && a.location == b.location;
    c.findings_new = new_explored
        .findings
        .iter()
        .filter(|f| !old_explored.findings.iter().any(|o| same(f, o)))
        .cloned()
        .collect();
    c.findings_gone = old_explored
        .findings
        .iter()
        .filter(|f| !new_explored.findings.iter().any(|o| same(f, o)))
        .cloned()
        .collect();
    c
}

/// The outcomes that differ between `new` and `old` for the move sequences both allow within
/// `bounds` (the joint search alone, without exploring either plan).
pub fn changed_outcomes_only(new: &Plan, old: &Plan, bounds: Bounds) -> Vec<Changed> {
    changed_outcomes(new, old, bounds)
}

/// The joint search: a configuration is the pair of both plans' configurations; a move is said
/// to both; a pair where either conversation ended, or that the bound stops, is an outcome.
fn changed_outcomes(new: &Plan, old: &Plan, bounds: Bounds) -> Vec<Changed> {
    let (dn, dold) = (Domains::of(new), Domains::of(old));
    let open = |plan: &Plan| {
        Chat::open_from(plan, &Simulator, plan_ref(plan), &Start::default())
            .ok()
            .map(|(chat, _)| chat.session)
    };
    let (Some(n0), Some(o0)) = (open(new), open(old)) else {
        return Vec::new();
    };
    // Each pair of configurations: how it was first reached (the pair before and the message,
    // interned), its depth; the sessions only of the pairs still to expand, in the queue.
    let mut pairs: Vec<(Option<(u32, u32)>, u32)> = vec![(None, 0)];
    let mut said: Vec<String> = Vec::new();
    let mut said_index: HashMap<String, u32> = HashMap::new();
    let mut seen: HashMap<(u128, u128), u32> = HashMap::new();
    seen.insert((key::key_hash(&o0, &dold), key::key_hash(&n0, &dn)), 0);
    let mut groups: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    let mut queue = VecDeque::from([(0usize, o0, n0)]);
    let say = |plan: &Plan, d: &Domains, s: &Session, m: &str| {
        moves::play(plan, s, m).ok().map(|(mut s, _)| {
            d.reads.slim(&mut s);
            s
        })
    };
    while let Some((at, po, pn)) = queue.pop_front() {
        let depth = pairs[at].1;
        let settled = po.ended.is_some() || pn.ended.is_some() || depth >= bounds.max_turns;
        if settled {
            let (from, to) = (outcome(old, &po), outcome(new, &pn));
            if from != to {
                let g = groups.entry((from, to)).or_insert((0, at));
                g.0 += 1;
            }
            continue;
        }
        let mut all = moves(old, &dold, &po);
        for m in moves(new, &dn, &pn) {
            if !all.contains(&m) {
                all.push(m);
            }
        }
        for m in all {
            let (Some(o), Some(n)) = (say(old, &dold, &po, &m), say(new, &dn, &pn, &m)) else {
                continue;
            };
            let k = (key::key_hash(&o, &dold), key::key_hash(&n, &dn));
            if seen.contains_key(&k) || pairs.len() >= bounds.max_configurations {
                continue;
            }
            let to = pairs.len();
            seen.insert(k, to as u32);
            let said_at = match said_index.get(&m) {
                Some(&i) => i,
                None => {
                    said.push(m.clone());
                    said_index.insert(m, said.len() as u32 - 1);
                    said.len() as u32 - 1
                }
            };
            pairs.push((Some((at as u32, said_at)), depth + 1));
            queue.push_back((to, o, n));
        }
    }
    let script_to = |to: usize| {
        script_back(to, |at| {
            pairs[at]
                .0
                .map(|(p, m)| (p as usize, said[m as usize].as_str()))
        })
    };
    let mut out: Vec<Changed> = groups
        .into_iter()
        .map(|((from, to), (count, first))| Changed {
            from,
            to,
            count,
            script: script_to(first),
        })
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then(a.from.cmp(&b.from)));
    out
}
