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
use crate::runtime::{Chat, EndKind, Session, Simulator, Start, ToolResults};

/// What changed between an older plan and a newer one.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    struct Pair {
        old: Session,
        new: Session,
        parent: Option<(usize, String)>,
        depth: u32,
    }
    let mut pairs = vec![Pair {
        old: o0,
        new: n0,
        parent: None,
        depth: 0,
    }];
    let mut seen: HashMap<(Vec<u8>, Vec<u8>), usize> = HashMap::new();
    seen.insert(
        (key::key(&pairs[0].old, &dold), key::key(&pairs[0].new, &dn)),
        0,
    );
    let mut groups: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    let mut queue = VecDeque::from([0usize]);
    let say = |plan: &Plan, s: &Session, m: &str| {
        let mut chat = Chat::resume(plan, &Simulator, s.clone());
        chat.say_with(m, &ToolResults::new()).ok()?;
        chat.session.transcript.clear();
        chat.session.insights.clear();
        Some(chat.session)
    };
    while let Some(at) = queue.pop_front() {
        let p = &pairs[at];
        let settled = p.old.ended.is_some() || p.new.ended.is_some() || p.depth >= bounds.max_turns;
        if settled {
            let (from, to) = (outcome(old, &p.old), outcome(new, &p.new));
            if from != to {
                let g = groups.entry((from, to)).or_insert((0, at));
                g.0 += 1;
            }
            continue;
        }
        let mut all = moves(old, &dold, &p.old);
        for m in moves(new, &dn, &p.new) {
            if !all.contains(&m) {
                all.push(m);
            }
        }
        let (po, pn, depth) = (p.old.clone(), p.new.clone(), p.depth);
        for m in all {
            let (Some(o), Some(n)) = (say(old, &po, &m), say(new, &pn, &m)) else {
                continue;
            };
            let k = (key::key(&o, &dold), key::key(&n, &dn));
            if seen.contains_key(&k) || pairs.len() >= bounds.max_configurations {
                continue;
            }
            seen.insert(k, pairs.len());
            queue.push_back(pairs.len());
            pairs.push(Pair {
                old: o,
                new: n,
                parent: Some((at, m)),
                depth: depth + 1,
            });
        }
    }
    let script_to = |to: usize| {
        script_back(to, |at| {
            pairs[at].parent.as_ref().map(|(p, m)| (*p, m.as_str()))
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
