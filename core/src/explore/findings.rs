//! What a search found (explore.md, "Findings" and "Rules"), each with the shortest conversation
//! that shows it, checked by replaying it before it is reported. "Never" findings come only from a
//! complete search: a search cut by a bound claims nothing it did not see.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use super::search::Search;
use super::{key, Domains, Explored, Stopped};
use crate::coverage::{Coverage, TransitionId};
use crate::plan::{Plan, Rule, RuleKind};
use crate::runtime::script::Script;
use crate::runtime::{Chat, Session, Simulator, ToolResults};
use crate::validate::{Code, Severity};

/// Where a finding is: a state, a transition of it, or a rule.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Place {
    /// The state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_id: Option<String>,
    /// The transition's index in the state's list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transition_index: Option<usize>,
    /// The rule's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// What a finding is (explore.md, "Findings"), serialized as the spec's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum FindingCode {
    /// A conversation can never finish.
    #[serde(rename = "explore-dead-end")]
    DeadEnd,
    /// A state validation finds reachable is entered by no conversation.
    #[serde(rename = "explore-state-never-entered")]
    StateNeverEntered,
    /// A transition fires in no conversation.
    #[serde(rename = "explore-transition-never-fires")]
    TransitionNeverFires,
    /// An ending no conversation reaches.
    #[serde(rename = "explore-ending-never-reached")]
    EndingNeverReached,
    /// Conversations leave a state only through the stuck safety net.
    #[serde(rename = "explore-only-safety-net")]
    OnlySafetyNet,
    /// A value the caller gave leaves no transition that can fire until they give another.
    #[serde(rename = "explore-stalls-on-value")]
    StallsOnValue,
    /// A conversation breaks one of the plan's rules.
    #[serde(rename = "explore-rule-broken")]
    RuleBroken,
    /// A bound stopped the search.
    #[serde(rename = "explore-incomplete")]
    Incomplete,
}

impl FindingCode {
    /// The spec's code, as JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingCode::DeadEnd => "explore-dead-end",
            FindingCode::StateNeverEntered => "explore-state-never-entered",
            FindingCode::TransitionNeverFires => "explore-transition-never-fires",
            FindingCode::EndingNeverReached => "explore-ending-never-reached",
            FindingCode::OnlySafetyNet => "explore-only-safety-net",
            FindingCode::StallsOnValue => "explore-stalls-on-value",
            FindingCode::RuleBroken => "explore-rule-broken",
            FindingCode::Incomplete => "explore-incomplete",
        }
    }
}

impl std::fmt::Display for FindingCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Its stable code.
    pub code: FindingCode,
    /// Error, warning or information.
    pub severity: Severity,
    /// What it is, in the author's words.
    pub message: String,
    /// Where it is.
    pub location: Place,
    /// The shortest conversation that shows it, its last turn where it shows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub script: Option<Script>,
}

impl Finding {
    /// The length of its conversation, in user turns.
    pub fn turns(&self) -> usize {
        self.script.as_ref().map_or(0, |s| s.turns.len())
    }
}

pub(crate) fn title(plan: &Plan, id: &str) -> String {
    plan.state(id)
        .map(|s| s.title.clone())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| id.to_string())
}

fn at_state(id: &str) -> Place {
    Place {
        state_id: Some(id.to_string()),
        ..Place::default()
    }
}

fn at_rule(rule: &Rule) -> Place {
    Place {
        rule: Some(rule.id.clone()),
        ..Place::default()
    }
}

/// Whether `condition` holds in `s`, as the runtime would read it there.
fn holds(plan: &Plan, s: &Session, condition: &crate::condition::Condition) -> bool {
    crate::runtime::interrupt::condition_holds(plan, s, condition)
}

/// What each rule reads of a configuration, one bit a rule: for `never_enters_unless` and
/// `tool_only_when` whether the condition holds there, for `visits_before` whether the path there
/// entered `then` before `first`, for `reaches` whether the path entered the state.
pub(crate) fn facts(plan: &Plan, s: &Session, words: usize) -> Vec<u64> {
    let mut out = vec![0u64; words];
    for (i, rule) in plan.rules.iter().enumerate() {
        let fact = match rule.kind {
            RuleKind::NeverEntersUnless | RuleKind::ToolOnlyWhen => {
                rule.condition.as_ref().is_some_and(|c| holds(plan, s, c))
            }
            RuleKind::VisitsBefore => match (&rule.first_state_id, &rule.then_state_id) {
                (Some(first), Some(then)) => s
                    .path
                    .iter()
                    .position(|id| id == then)
                    .is_some_and(|at| !s.path[..at].iter().any(|id| id == first)),
                _ => false,
            },
            RuleKind::Reaches => rule
                .state_id
                .as_ref()
                .is_some_and(|state| s.path.iter().any(|id| id == state)),
            RuleKind::CanAlwaysEnd => false,
        };
        if fact {
            out[i / 64] |= 1 << (i % 64);
        }
    }
    out
}

pub(crate) fn report(search: &Search) -> Explored {
    let plan = search.plan;
    let nodes = &search.nodes;
    let mut coverage = Coverage::default();
    let mut entered: BTreeMap<&str, BTreeSet<u32>> = BTreeMap::new();
    let mut fired: BTreeMap<(&str, usize), BTreeSet<u32>> = BTreeMap::new();
    let opening = (0u32, 0u32, search.opening);
    for &(_, to, done) in std::iter::once(&opening).chain(&search.steps) {
        let done = &search.effects[done as usize];
        for id in &done.entered {
            entered.entry(id.as_str()).or_default().insert(to);
        }
        for (from, i) in &done.fired {
            fired.entry((from.as_str(), *i)).or_default().insert(to);
        }
    }
    for (id, set) in &entered {
        coverage.entered(id, set.len());
    }
    for ((from, i), set) in &fired {
        coverage.fired(TransitionId::new(*from, *i), set.len());
    }
    // Each finding with the configuration its conversation leads to.
    let mut out: Vec<(Finding, Option<usize>)> = Vec::new();
    let show = |to: usize| Some(search.script_to(to));

    // Dead ends: configurations, not ended, from which no ending can be reached. A configuration
    // not expanded (past a bound) might still end: it is not counted as dead.
    let mut can_end = vec![false; nodes.len()];
    let mut before: Vec<Vec<u32>> = vec![Vec::new(); nodes.len()];
    for &(from, to, _) in &search.steps {
        if from != to {
            before[to as usize].push(from);
        }
    }
    let mut queue: VecDeque<usize> = VecDeque::new();
    for (i, n) in nodes.iter().enumerate() {
        if n.ended || !n.expanded {
            can_end[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(j) = queue.pop_front() {
        for &i in &before[j] {
            if !can_end[i as usize] {
                can_end[i as usize] = true;
                queue.push_back(i as usize);
            }
        }
    }
    drop(before);
    let dead = (0..nodes.len()).find(|&i| !can_end[i]);
    if let Some(d) = dead {
        let state = search.state_id(d);
        out.push((
            Finding {
                code: FindingCode::DeadEnd,
                severity: Severity::Error,
                message: format!(
                    "A conversation can get stuck in '{}': from there nothing the caller says leads to an ending.",
                    title(plan, state)
                ),
                location: at_state(state),
                script: show(d),
            },
            Some(d),
        ));
    }

    // Rules.
    for (i, rule) in plan.rules.iter().enumerate() {
        if let Some((to, why)) = broken(search, i, rule, dead) {
            out.push((
                Finding {
                    code: FindingCode::RuleBroken,
                    severity: Severity::Error,
                    message: format!("The rule '{}' ({}) is broken: {why}.", rule.name(), rule.id),
                    location: at_rule(rule),
                    script: to.and_then(show),
                },
                to,
            ));
        }
    }

    // Only through the safety net: every way out of the state that was seen was opened by it.
    let mut exits: BTreeMap<&str, (bool, Option<usize>)> = BTreeMap::new();
    for &(_, to, done) in &search.steps {
        let done = &search.effects[done as usize];
        let to = to as usize;
        for (from, _) in &done.fired {
            let e = exits.entry(from.as_str()).or_insert((true, None));
            e.0 &= done.released;
            if done.released && e.1.is_none_or(|at| nodes[to].depth < nodes[at].depth) {
                e.1 = Some(to);
            }
        }
    }
    for (state, (only, example)) in exits {
        if only {
            out.push((
                Finding {
                    code: FindingCode::OnlySafetyNet,
                    severity: Severity::Warning,
                    message: format!(
                        "Conversations leave '{}' only when the safety net releases what the caller was stuck on: no answer leads on from there.",
                        title(plan, state)
                    ),
                    location: at_state(state),
                    script: example.and_then(show),
                },
                example,
            ));
        }
    }

    out.extend(super::stalls::stalls(search, &can_end));

    if search.complete {
        let unreachable: BTreeSet<String> = crate::validate::validate(plan)
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::UnreachableState)
            .filter_map(|d| d.location.state_id.clone())
            .collect();
        for state in &plan.states {
            let id = state.id.as_str();
            if entered.contains_key(id) || unreachable.contains(id) {
                continue;
            }
            let (code, what) = if state.is_ending() {
                (FindingCode::EndingNeverReached, "No conversation ends in")
            } else {
                (FindingCode::StateNeverEntered, "No conversation enters")
            };
            out.push((
                Finding {
                    code,
                    severity: Severity::Warning,
                    message: format!(
                        "{what} '{}', though arrows lead there: what they wait for never comes true on the way.",
                        title(plan, id)
                    ),
                    location: at_state(id),
                    script: None,
                },
                None,
            ));
        }
        for state in &plan.states {
            if !entered.contains_key(state.id.as_str()) {
                continue;
            }
            for i in 0..state.transitions.len() {
                if !fired.contains_key(&(state.id.as_str(), i)) {
                    out.push((
                        Finding {
                            code: FindingCode::TransitionNeverFires,
                            severity: Severity::Warning,
                            message: format!(
                                "The arrow {} of '{}' to '{}' is never taken: an earlier arrow always goes first, or its condition never comes true there.",
                                i + 1,
                                title(plan, &state.id),
                                title(plan, &state.transitions[i].target_state_id)
                            ),
                            location: Place {
                                state_id: Some(state.id.clone()),
                                transition_index: Some(i),
                                rule: None,
                            },
                            script: None,
                        },
                        None,
                    ));
                }
            }
        }
    } else {
        let bounds = search.bounds;
        let why = match search.stopped {
            Some(Stopped::MaxConfigurations) => "the most configurations allowed".into(),
            Some(Stopped::MaxMemory) => format!(
                "its memory ceiling ({} MB: what it holds would pass it; a larger ceiling sees more)",
                bounds.max_memory / 1_000_000
            ),
            Some(Stopped::MaxMoves) => format!(
                "its work ceiling ({} moves; a move in a session of many tasks or values counts for more)",
                crate::explore::thousands(bounds.max_moves)
            ),
            Some(Stopped::Asked) => "a stop".into(),
            _ => "the most turns allowed".into(),
        };
        out.push((
            Finding {
                code: FindingCode::Incomplete,
                severity: Severity::Info,
                message: format!(
                    "The search stopped at {why} after {} configurations: what it did not see is not claimed.",
                    crate::explore::thousands(nodes.len())
                ),
                location: Place::default(),
                script: None,
            },
            None,
        ));
    }
    // Every conversation reported reproduces what it shows.
    let domains = &search.domains;
    let mut out: Vec<Finding> = out
        .into_iter()
        .filter(|(f, to)| match (&f.script, to) {
            (Some(script), Some(to)) => replays(plan, domains, script, nodes[*to].key),
            (Some(_), None) => false,
            (None, _) => true,
        })
        .map(|(f, _)| f)
        .collect();
    out.sort_by_key(|f| match f.severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    });
    Explored {
        complete: search.complete,
        stopped: search.stopped,
        configurations: nodes.len(),
        conversations: nodes.iter().filter(|n| n.ended).count(),
        turns_max: nodes.iter().map(|n| n.depth).max().unwrap_or(0),
        coverage,
        findings: out,
        compare: None,
        cost: search.cost(),
    }
}

/// The configuration where rule `rule` (the plan's `index`th) is broken first (a shortest
/// conversation), and why; for a rule broken by no single conversation (`reaches`), no
/// configuration.
fn broken(
    search: &Search,
    index: usize,
    rule: &Rule,
    dead: Option<usize>,
) -> Option<(Option<usize>, String)> {
    let plan = search.plan;
    let nodes = &search.nodes;
    let shallowest = |found: &mut Option<usize>, to: usize| {
        if found.is_none_or(|at| nodes[to].depth < nodes[at].depth) {
            *found = Some(to);
        }
    };
    let opening = (0u32, 0u32, search.opening);
    let moves = || std::iter::once(&opening).chain(&search.steps);
    match rule.kind {
        RuleKind::NeverEntersUnless => {
            let state = rule.state_id.as_deref()?;
            rule.condition.as_ref()?;
            let mut found = None;
            for &(_, to, done) in moves() {
                let done = &search.effects[done as usize];
                if done.entered.iter().any(|e| e == state) && !search.fact(to as usize, index) {
                    shallowest(&mut found, to as usize);
                }
            }
            found.map(|to| {
                (
                    Some(to),
                    format!(
                        "'{}' is entered while the condition is false",
                        title(plan, state)
                    ),
                )
            })
        }
        RuleKind::ToolOnlyWhen => {
            let tool = rule.tool.as_deref()?;
            rule.condition.as_ref()?;
            let mut found = None;
            for &(from, to, done) in &search.steps {
                let done = &search.effects[done as usize];
                if done.called.iter().any(|t| t == tool) && !search.fact(from as usize, index) {
                    shallowest(&mut found, to as usize);
                }
            }
            found.map(|to| {
                (
                    Some(to),
                    format!("the tool '{tool}' is called while the condition is false"),
                )
            })
        }
        RuleKind::VisitsBefore => {
            let (first, then) = (
                rule.first_state_id.as_deref()?,
                rule.then_state_id.as_deref()?,
            );
            let mut found = None;
            for i in 0..nodes.len() {
                if search.fact(i, index) {
                    shallowest(&mut found, i);
                }
            }
            found.map(|to| {
                (
                    Some(to),
                    format!(
                        "'{}' is entered before '{}' ever was",
                        title(plan, then),
                        title(plan, first)
                    ),
                )
            })
        }
        RuleKind::Reaches => {
            let state = rule.state_id.as_deref()?;
            let reached = (0..nodes.len()).any(|i| search.fact(i, index));
            (search.complete && !reached).then(|| {
                (
                    None,
                    format!("no conversation enters '{}'", title(plan, state)),
                )
            })
        }
        RuleKind::CanAlwaysEnd => dead.map(|d| {
            (
                Some(d),
                format!(
                    "a conversation gets stuck in '{}', from where it can never end",
                    title(plan, search.state_id(d))
                ),
            )
        }),
    }
}

/// Whether `script`, said to the plan from its start by the simulator, arrives at the
/// configuration whose key's hash is `target`.
fn replays(plan: &Plan, domains: &Domains, script: &Script, target: u128) -> bool {
    let Ok((mut chat, _)) = Chat::open_from(plan, &Simulator, super::plan_ref(plan), &script.start)
    else {
        return false;
    };
    for turn in &script.turns {
        if chat.say_with(&turn.user, &ToolResults::new()).is_err() {
            return false;
        }
    }
    key::key_hash(&chat.session, domains) == target
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::Start;

    /// A strict state whose one task is the way out, the safety net on after two idle turns.
    fn asking() -> Plan {
        serde_json::from_value(serde_json::json!({
            "id": "net", "title": "Net", "settings": {"stuck_turns": 2},
            "states": [
              {"id": "ask", "title": "Ask", "type": "strict",
               "tasks": [{"id": "name", "description": "Ask the name",
                          "deliverables": [{"key": "name", "type": "string", "description": "Name"}]}],
               "transitions": [{"target_state_id": "done", "condition_type": "all_tasks_complete"}]},
              {"id": "done", "title": "Done"}]
        }))
        .expect("the plan is well formed")
    }

    fn only_net(e: &Explored) -> Vec<&Finding> {
        e.findings
            .iter()
            .filter(|f| f.code == FindingCode::OnlySafetyNet)
            .collect()
    }

    /// With the simulator a caller can always finish a task or a goal by their own answers, so no
    /// valid plan shows this finding: the search is made to look as it would on a runtime where
    /// the caller cannot (every move out of 'Ask' one in which the net released the task). Its
    /// twin, the search as it is, leaves 'Ask' by an answer too.
    #[test]
    fn a_state_left_only_when_the_safety_net_releases_is_found_and_its_twin_is_not() {
        let plan = asking();
        let mut search = super::super::search::search(
            &plan,
            Domains::of(&plan),
            &Start::default(),
            super::super::Bounds::default(),
            1,
            &|| false,
            &mut |_| {},
        );
        assert!(only_net(&report(&search)).is_empty());
        let mut released = 0;
        for e in &mut search.effects {
            if e.fired.iter().any(|(from, _)| from == "ask") && !e.released {
                e.released = true;
                released += 1;
            }
        }
        assert!(released > 0, "no move left 'Ask'");
        let explored = report(&search);
        let found = only_net(&explored);
        assert_eq!(found.len(), 1, "{:#?}", explored.findings);
        assert_eq!(found[0].location.state_id.as_deref(), Some("ask"));
        // The shortest way out: the name given, in one turn.
        assert_eq!(found[0].turns(), 1);
    }
}
