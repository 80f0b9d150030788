//! The explorer's test oracles, built only for tests (the `oracles` feature): a search whose key
//! forgets nothing, and a check that two sessions with one key have the same successors.

use std::collections::HashMap;

use super::search::{self, search};
use super::{findings, key, moves, plan_ref, Bounds, Domains, Explored};
use crate::plan::Plan;
use crate::runtime::{Chat, Session, Simulator, Start, ToolResults};

/// [`explore`] with a key that keeps every value and counts every counter up to the largest
/// threshold anywhere, in every state: what the search did before keys forgot what nothing ahead
/// reads. Slower, and the reference the tests hold the explorer to: both must find the same.
/// A test oracle: built only for tests (the `oracles` feature).
pub fn explore_with_every_value(plan: &Plan, bounds: Bounds) -> Explored {
    let search = search(
        plan,
        Domains::with_every_value(plan),
        &Start::default(),
        bounds,
        1,
        &|| false,
        &mut |_| {},
    );
    findings::report(&search)
}

/// Where every move leads from `s`: the configuration's key and what the move did (the states it
/// entered, the arrows it fired, the tools it called, the safety net), which the findings read;
/// sorted.
fn successors(plan: &Plan, domains: &Domains, s: &Session) -> Vec<(Vec<u8>, String)> {
    let mut out: Vec<(Vec<u8>, String)> = moves(plan, domains, s)
        .iter()
        .filter_map(|message| {
            let mut chat = Chat::resume(plan, &Simulator, s.clone());
            let turn = chat.say_with(message, &ToolResults::new()).ok()?;
            let did = format!("{:?}", search::effects(&turn.events));
            Some((key::key(&chat.session, domains), did))
        })
        .collect();
    out.sort();
    out
}

/// The test of the configuration key (explore.md: "two sessions with the same key have the same
/// successors' keys"): searches `plan` within `bounds`, and wherever a move arrives at a key
/// already reached by another session, compares the successors of both, and what each move does
/// in both. Answers where they differ, described; empty when they agree. One step only: a key
/// that forgets what a later turn reads is caught by `explore_with_every_value`. A test oracle.
pub fn keys_agree(plan: &Plan, bounds: Bounds) -> Vec<String> {
    let domains = Domains::of(plan);
    let Ok((chat, _)) = Chat::open_from(plan, &Simulator, plan_ref(plan), &Start::default()) else {
        return vec!["the plan does not open".into()];
    };
    let mut first: HashMap<Vec<u8>, Session> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([(chat.session, 0u32)]);
    let mut wrong = Vec::new();
    first.insert(key::key(&queue[0].0, &domains), queue[0].0.clone());
    while let Some((here, depth)) = queue.pop_front() {
        if here.ended.is_some() || depth >= bounds.max_turns {
            continue;
        }
        for message in moves(plan, &domains, &here) {
            let mut chat = Chat::resume(plan, &Simulator, here.clone());
            if chat.say_with(&message, &ToolResults::new()).is_err() {
                continue;
            }
            chat.session.transcript.clear();
            chat.session.insights.clear();
            let k = key::key(&chat.session, &domains);
            match first.get(&k) {
                Some(earlier) if *earlier != chat.session => {
                    let (a, b) = (
                        successors(plan, &domains, earlier),
                        successors(plan, &domains, &chat.session),
                    );
                    if a != b {
                        let differ = a.iter().zip(&b).find(|(x, y)| x != y);
                        wrong.push(format!(
                            "after {message:?} in {}: one key, other successors: {differ:?}",
                            here.state_id
                        ));
                    }
                }
                Some(_) => {}
                None if first.len() < bounds.max_configurations => {
                    first.insert(k, chat.session.clone());
                    queue.push_back((chat.session, depth + 1));
                }
                None => {}
            }
        }
    }
    wrong
}
