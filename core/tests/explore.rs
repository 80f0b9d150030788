//! The explorer (explore.md) against small plans made to show each finding, beside fixed twins
//! that do not, with the length of the shortest conversation asserted; each finding's script,
//! said again to the plan, ends where the finding is; rules of each kind broken and kept; bounds;
//! and the configuration key: two sessions with one key have the same successors' keys.

use plan_core::explore::{
    explore, explore_parallel, explore_with_every_value, keys_agree, Bounds, Explored, Finding,
};
use plan_core::plan::Plan;
use plan_core::runtime::{Chat, Simulator, Start, ToolResults};
use serde_json::{json, Value};

fn plan_of(v: &Value) -> Plan {
    let plan = plan_core::parse::parse_plan(&v.to_string()).expect("a plan");
    let report = plan_core::validate::validate(&plan);
    assert!(!report.has_errors(), "{:?}", report.diagnostics);
    plan
}

fn run(v: &Value) -> Explored {
    explore(
        &plan_of(v),
        &Start::default(),
        Bounds::default(),
        &|| false,
        &mut |_| {},
    )
}

fn found<'e>(e: &'e Explored, code: &str) -> Vec<&'e Finding> {
    e.findings
        .iter()
        .filter(|f| f.code.as_str() == code)
        .collect()
}

/// The one finding of `code` in `broken`, none in `fixed`; its conversation `turns` long.
fn twin(broken: &Value, fixed: &Value, code: &str, turns: Option<usize>) -> Finding {
    let e = run(broken);
    let hits = found(&e, code);
    assert_eq!(hits.len(), 1, "one {code} expected in {:#?}", e.findings);
    let f = hits[0].clone();
    if let Some(turns) = turns {
        assert_eq!(f.turns(), turns, "{f:?}");
        replays_to(&plan_of(broken), &f);
    }
    let after = run(fixed);
    assert!(
        found(&after, code).is_empty(),
        "the fix left {code}: {:#?}",
        after.findings
    );
    assert!(after.complete);
    f
}

/// The finding's script, said to the plan by the simulator, is in the finding's state at its
/// last turn.
fn replays_to(plan: &Plan, f: &Finding) {
    let script = f.script.as_ref().expect("a conversation");
    let plan_ref = plan_core::runtime::PlanRef {
        id: plan.id.clone(),
        version: plan_core::runtime::PlanVersion::File,
        content_hash: plan_core::hash::content_hash(plan),
    };
    let (mut chat, _) = Chat::open_from(plan, &Simulator, plan_ref, &script.start).unwrap();
    for t in &script.turns {
        chat.say_with(&t.user, &ToolResults::new()).unwrap();
    }
    if let Some(state) = &f.location.state_id {
        assert_eq!(&chat.session.state_id, state, "{f:?}");
    }
}

/// Asks yes or no, then routes: "yes" to a wrap-up that ends, "no" to a state that only a "yes"
/// leaves, which can no longer be given there. (The safety net is off: released, the question
/// would leave a second dead end in "Ask", further away.)
fn stuck() -> Value {
    serde_json::from_str(include_str!("fixtures/stuck.json")).expect("the fixture is JSON")
}

#[test]
fn a_state_no_answer_leads_on_from_is_a_dead_end_one_turn_away() {
    let broken = stuck();
    let mut fixed = stuck();
    fixed["states"][1]["transitions"][0] = json!({"target_state_id": "wrap", "condition_type": "turn_count_exceeded", "condition_config": {"turns": 2}});
    let f = twin(&broken, &fixed, "explore-dead-end", Some(1));
    assert_eq!(f.location.state_id.as_deref(), Some("wait"));
    assert_eq!(f.script.unwrap().turns[0].user, "/set ok no");
}

/// Confirm asks yes or no and moves on only on "yes": a caller who says "no" waits there until
/// they change their mind (a loose state: they can; in a strict one the answer, once given, is
/// the task done, and the same plan is a dead end). `on_no`: what the fixed twin adds.
fn confirm(on_no: Option<Value>) -> Value {
    let mut transitions = vec![
        json!({"target_state_id": "done", "condition_type": "deliverable_value",
        "condition_config": {"key": "confirmed", "value": true}}),
    ];
    transitions.extend(on_no);
    json!({"id": "confirm", "title": "Confirm",
    "states": [
      {"id": "ask", "title": "Confirm", "type": "loose", "instructions": "Read the order back.",
       "tasks": [{"id": "confirm", "deliverables": [{"key": "confirmed", "type": "boolean"}]}],
       "transitions": transitions},
      {"id": "back", "title": "Start again", "type": "loose", "instructions": "Start again.",
       "transitions": [{"target_state_id": "done"}]},
      {"id": "done", "title": "Done"}]})
}

#[test]
fn an_answer_that_leaves_no_arrow_until_the_caller_changes_their_mind_is_a_stall() {
    let no = json!({"target_state_id": "back", "condition_type": "deliverable_value",
        "condition_config": {"key": "confirmed", "value": false}});
    let f = twin(
        &confirm(None),
        &confirm(Some(no)),
        "explore-stalls-on-value",
        Some(1),
    );
    assert_eq!(f.location.state_id.as_deref(), Some("ask"));
    assert_eq!(f.severity, plan_core::validate::Severity::Warning);
    assert!(f.message.contains("'no' for confirmed"), "{}", f.message);
    assert_eq!(f.script.unwrap().turns[0].user, "/set confirmed false");
    // A fallback (all tasks done) moves the caller on whatever they answer.
    let fallback = json!({"target_state_id": "back", "priority": 9});
    assert!(found(&run(&confirm(Some(fallback))), "explore-stalls-on-value").is_empty());
    // A dead end is said as one, not as a stall: "wait" can no longer be left.
    assert!(found(&run(&stuck()), "explore-stalls-on-value").is_empty());
}

/// A number that routes to "special" only when both above 100 and below 50: never.
fn never() -> Value {
    json!({"id": "never", "title": "Never",
    "states": [
      {"id": "ask", "title": "Ask", "type": "strict",
       "tasks": [{"id": "amount", "deliverables": [{"key": "n", "type": "number"}]}],
       "transitions": [
         {"target_state_id": "special", "condition_type": "all_of", "condition_config": {"conditions": [
            {"condition_type": "deliverable_value_numeric", "condition_config": {"key": "n", "operator": "gt", "value": 100}},
            {"condition_type": "deliverable_value_numeric", "condition_config": {"key": "n", "operator": "lt", "value": 50}}]}},
         {"target_state_id": "wrap"}]},
      {"id": "special", "title": "Special", "type": "loose", "instructions": "Special care.",
       "transitions": [{"target_state_id": "wrap"}]},
      {"id": "wrap", "title": "Wrap-up"}]})
}

fn never_fixed() -> Value {
    let mut v = never();
    v["states"][0]["transitions"][0]["condition_config"]["conditions"][1]["condition_config"] =
        json!({"key": "n", "operator": "lt", "value": 500});
    v
}

#[test]
fn a_state_whose_only_way_in_never_comes_true_is_never_entered() {
    let f = twin(
        &never(),
        &never_fixed(),
        "explore-state-never-entered",
        None,
    );
    assert_eq!(f.location.state_id.as_deref(), Some("special"));
}

#[test]
fn a_transition_whose_condition_never_comes_true_never_fires() {
    let f = twin(
        &never(),
        &never_fixed(),
        "explore-transition-never-fires",
        None,
    );
    assert_eq!(
        (f.location.state_id.as_deref(), f.location.transition_index),
        (Some("ask"), Some(0))
    );
}

#[test]
fn an_ending_that_no_conversation_reaches_is_said_as_an_ending() {
    let mut broken = never();
    broken["states"][1] = json!({"id": "special", "title": "Special", "ending": {"kind": "hand_off", "to": "desk", "reason": "special"}});
    let mut fixed = never_fixed();
    fixed["states"][1] = broken["states"][1].clone();
    let f = twin(&broken, &fixed, "explore-ending-never-reached", None);
    assert_eq!(f.location.state_id.as_deref(), Some("special"));
    assert!(found(&run(&broken), "explore-state-never-entered").is_empty());
}

/// Billing after an identity check that may be skipped: "no" skips it.
fn billing(rule: Value) -> Value {
    json!({"id": "billing", "title": "Billing",
    "states": [
      {"id": "start", "title": "Start", "type": "strict",
       "tasks": [{"id": "route", "deliverables": [{"key": "check", "type": "boolean"}]}],
       "transitions": [
         {"target_state_id": "identify", "condition_type": "deliverable_value", "condition_config": {"key": "check", "value": true}},
         {"target_state_id": "bill", "condition_type": "deliverable_value", "condition_config": {"key": "check", "value": false}}]},
      {"id": "identify", "title": "Identify", "type": "strict",
       "tasks": [{"id": "who", "deliverables": [{"key": "verified", "type": "boolean"}]}],
       "transitions": [{"target_state_id": "bill"}]},
      {"id": "bill", "title": "Bill", "type": "loose", "allowed_tools": ["refund"],
       "tasks": [{"id": "refund", "deliverables": [{"key": "amount", "type": "number"}]}],
       "transitions": [{"target_state_id": "done", "condition_type": "tool_result",
                        "condition_config": {"tool": "refund", "response_code": "OK"}},
                       {"target_state_id": "done", "condition_type": "all_tasks_complete"}]},
      {"id": "done", "title": "Done"},
      {"id": "orphan", "title": "Orphan", "type": "loose", "instructions": "Never used.",
       "transitions": [{"target_state_id": "done"}]}],
    "tools": [{"name": "refund", "response_codes": ["OK"]}],
    "start_state_id": "start",
    "rules": [rule]})
}

fn rule_broken(rule: Value, kept: Value, turns: Option<usize>) -> Finding {
    let f = twin(&billing(rule), &billing(kept), "explore-rule-broken", turns);
    assert!(f.location.rule.is_some());
    f
}

#[test]
fn a_state_entered_while_its_rules_condition_is_false_breaks_the_rule() {
    let condition =
        json!({"condition_type": "deliverable_exists", "condition_config": {"key": "verified"}});
    let f = rule_broken(
        json!({"id": "verified-billing", "title": "Billing only when verified", "kind": "never_enters_unless", "state_id": "bill", "condition": condition}),
        json!({"id": "verified-billing", "kind": "never_enters_unless", "state_id": "identify", "condition": {"condition_type": "deliverable_exists", "condition_config": {"key": "check"}}}),
        Some(1),
    );
    assert!(
        f.message.contains("Billing only when verified"),
        "{}",
        f.message
    );
}

#[test]
fn a_tool_called_while_its_rules_condition_is_false_breaks_the_rule() {
    rule_broken(
        json!({"id": "refund-amount", "kind": "tool_only_when", "tool": "refund", "condition": {"condition_type": "deliverable_exists", "condition_config": {"key": "amount"}}}),
        json!({"id": "refund-amount", "kind": "tool_only_when", "tool": "refund", "condition": {"condition_type": "deliverable_exists", "condition_config": {"key": "check"}}}),
        Some(2),
    );
}

#[test]
fn a_state_entered_before_the_one_that_must_come_first_breaks_the_rule() {
    rule_broken(
        json!({"id": "identify-first", "kind": "visits_before", "first_state_id": "identify", "then_state_id": "bill"}),
        json!({"id": "identify-first", "kind": "visits_before", "first_state_id": "start", "then_state_id": "bill"}),
        Some(1),
    );
}

#[test]
fn a_state_no_conversation_enters_breaks_a_reaches_rule() {
    rule_broken(
        json!({"id": "orphan-reached", "kind": "reaches", "state_id": "orphan"}),
        json!({"id": "orphan-reached", "kind": "reaches", "state_id": "identify"}),
        None,
    );
}

#[test]
fn a_dead_end_breaks_a_can_always_end_rule() {
    let mut broken = stuck();
    broken["rules"] = json!([{"id": "ends", "kind": "can_always_end"}]);
    let mut fixed = broken.clone();
    fixed["states"][1]["transitions"][0] = json!({"target_state_id": "wrap", "condition_type": "turn_count_exceeded", "condition_config": {"turns": 2}});
    let f = twin(&broken, &fixed, "explore-rule-broken", Some(1));
    assert_eq!(f.location.rule.as_deref(), Some("ends"));
}

#[test]
fn a_search_cut_by_a_bound_says_so_and_claims_no_never() {
    let plan = plan_of(&never());
    let e = explore(
        &plan,
        &Start::default(),
        Bounds {
            max_turns: 40,
            max_configurations: 2,
            ..Bounds::default()
        },
        &|| false,
        &mut |_| {},
    );
    assert!(!e.complete);
    assert_eq!(found(&e, "explore-incomplete").len(), 1);
    assert!(found(&e, "explore-state-never-entered").is_empty());
    assert!(found(&e, "explore-transition-never-fires").is_empty());
    let stopped = explore(
        &plan,
        &Start::default(),
        Bounds::default(),
        &|| true,
        &mut |_| {},
    );
    assert!(!stopped.complete && found(&stopped, "explore-incomplete").len() == 1);
}

fn sample(id: &str) -> Plan {
    let text =
        std::fs::read_to_string(format!("{}/../plans/{id}.json", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    plan_core::parse::parse_plan(&text).unwrap()
}

const SAMPLES: [&str; 6] = [
    "customer-support",
    "daily-routine",
    "collections",
    "medical-intake",
    "vehicle-viewing",
    "account-care",
];

/// Every sample explores clean: no error, no warning (a search its bounds cut is said as
/// information).
#[test]
fn every_sample_plan_explores_clean() {
    for id in SAMPLES {
        let e = explore(
            &sample(id),
            &Start::default(),
            Bounds::default(),
            &|| false,
            &mut |_| {},
        );
        let bad: Vec<&Finding> = e
            .findings
            .iter()
            .filter(|f| f.code.as_str() != "explore-incomplete")
            .collect();
        assert!(bad.is_empty(), "{id}: {bad:#?}");
        eprintln!(
            "{id}: {} configurations, {} ended conversations, complete: {}",
            e.configurations, e.conversations, e.complete
        );
    }
}

/// Several threads give exactly the one thread's answer: the same configurations, coverage,
/// findings and shortest conversations, on every sample (the vehicle viewing cut by the turn
/// bound as well) and on plans with findings; and when the bound on configurations cuts the
/// search, the same cut.
#[test]
fn several_threads_find_exactly_what_one_thread_finds() {
    let mut plans: Vec<Plan> = SAMPLES.iter().map(|id| sample(id)).collect();
    plans.extend([stuck(), never()].iter().map(plan_of));
    for plan in &plans {
        let cut = Bounds {
            max_turns: 40,
            max_configurations: 3_000,
            ..Bounds::default()
        };
        for (bounds, threads) in [(Bounds::default(), vec![3]), (cut, vec![2, 8])] {
            let one = explore(plan, &Start::default(), bounds, &|| false, &mut |_| {});
            for threads in threads {
                let many = explore_parallel(
                    plan,
                    &Start::default(),
                    bounds,
                    threads,
                    &|| false,
                    &mut |_| {},
                );
                assert_eq!(one, many, "{} on {threads} threads", plan.id);
            }
        }
    }
}

/// What a search found that the keys must not change: each finding (code, place, length of its
/// conversation), every state entered and every arrow fired, and whether it was complete.
fn seen(
    e: &Explored,
) -> (
    Vec<String>,
    Vec<&String>,
    Vec<&plan_core::coverage::TransitionId>,
    bool,
) {
    let mut findings: Vec<String> = e
        .findings
        .iter()
        .map(|f| format!("{} {:?} in {} turns", f.code, f.location, f.turns()))
        .collect();
    findings.sort();
    (
        findings,
        e.coverage.states.keys().collect(),
        e.coverage.transitions.keys().collect(),
        e.complete,
    )
}

/// A key forgets values nothing ahead reads and counts each state's counters only as far as that
/// state reads them; the search must find exactly what it finds with every value kept and every
/// counter counted to the largest threshold anywhere: the same findings with conversations as
/// short, the same states entered and arrows fired. Over the samples and the finding plans, every
/// search complete, with far fewer configurations.
#[test]
fn forgetting_what_nothing_ahead_reads_finds_the_same() {
    let mut plans: Vec<Plan> = SAMPLES.iter().map(|id| sample(id)).collect();
    plans.extend(
        [
            stuck(),
            never(),
            never_fixed(),
            billing(json!({"id": "r", "kind": "can_always_end"})),
            billing(json!({"id": "r", "kind": "visits_before",
                "first_state_id": "identify", "then_state_id": "bill"})),
        ]
        .iter()
        .map(plan_of),
    );
    // Generated plans with what the samples lack: session states switched by rules and changes,
    // counters, templates that read them; interruptions from every state with return points.
    plans.extend([
        plan_core::synthetic::with_session_states(2, 4),
        plan_core::synthetic::with_interruptions(2, 3),
    ]);
    let (mut fewer, mut every) = (0, 0);
    for plan in &plans {
        let forgetting = explore(
            plan,
            &Start::default(),
            Bounds::default(),
            &|| false,
            &mut |_| {},
        );
        // The reference needs more turns for the same: the vehicle viewing's visits count to 4.
        let deeper = Bounds {
            max_turns: 100,
            ..Bounds::default()
        };
        let reference = explore_with_every_value(plan, deeper);
        assert_eq!(seen(&forgetting), seen(&reference), "{}", plan.id);
        println!(
            "{}: {} configurations against {}",
            plan.id, forgetting.configurations, reference.configurations
        );
        fewer += forgetting.configurations;
        every += reference.configurations;
    }
    assert!(fewer * 4 < every, "{fewer} configurations against {every}");
}

/// Two sessions with one configuration key have the same successors' keys, each move doing the
/// same in both: over the samples and generated plans (the first 2,000 configurations each) and
/// the plans above.
#[test]
fn sessions_with_one_key_have_the_same_successors() {
    let bounds = Bounds {
        max_turns: 40,
        max_configurations: 2_000,
        ..Bounds::default()
    };
    for id in SAMPLES {
        let wrong = keys_agree(&sample(id), bounds);
        assert!(wrong.is_empty(), "{id}: {wrong:#?}");
    }
    for v in [
        stuck(),
        never(),
        billing(json!({"id": "r", "kind": "can_always_end"})),
    ] {
        let wrong = keys_agree(&plan_of(&v), Bounds::default());
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
    // Generated plans with session states (rules, changes, counters, templates) and interruptions.
    for plan in [
        plan_core::synthetic::with_session_states(3, 4),
        plan_core::synthetic::with_interruptions(3, 3),
    ] {
        let wrong = keys_agree(&plan, bounds);
        assert!(wrong.is_empty(), "{}: {wrong:#?}", plan.id);
    }
}

/// An edit with a known change for callers: "no" now goes straight to the wrap-up instead of a
/// waiting state that never ends. The conversation that did not end before now ends there, the
/// waiting state is no longer entered, and the dead end is gone.
#[test]
fn comparing_an_edit_says_which_conversations_end_differently_and_what_is_gone() {
    let old = plan_of(&stuck());
    let mut edited = stuck();
    edited["states"][0]["transitions"][1]["target_state_id"] = json!("wrap");
    let new = plan_of(&edited);
    let run = |p: &Plan| {
        explore(
            p,
            &Start::default(),
            Bounds::default(),
            &|| false,
            &mut |_| {},
        )
    };
    let (before, after) = (run(&old), run(&new));
    let c = plan_core::explore::compare(&new, &after, &old, &before, Bounds::default());
    assert_eq!(c.outcomes.len(), 1, "{:#?}", c.outcomes);
    let o = &c.outcomes[0];
    assert_eq!(
        (o.from.as_str(), o.to.as_str()),
        ("not ended", "ended in Wrap-up")
    );
    assert_eq!(o.script.turns.len(), 1);
    assert_eq!(o.script.turns[0].user, "/set ok no");
    assert_eq!(c.states_lost, ["wait"]);
    assert!(c.states_gained.is_empty());
    assert!(c
        .findings_gone
        .iter()
        .any(|f| f.code.as_str() == "explore-dead-end"));
    assert!(c.findings_new.is_empty());
    // Against itself: nothing changes.
    let same = plan_core::explore::compare(&old, &before, &old, &before, Bounds::default());
    assert!(
        same.outcomes.is_empty() && same.findings_new.is_empty() && same.states_lost.is_empty()
    );
}
