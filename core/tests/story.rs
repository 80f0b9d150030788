//! A finding's conversation told as a call (`explore::story`): the caller's turns in words, the
//! same turn in a row said once with how many times, what the runtime did, why the finding
//! happened named from the runtime's own events, and what to do; the commands kept beside.

use plan_core::explore::{explore, replay, said, tell, Bounds, FindingCode};
use plan_core::plan::Plan;
use plan_core::runtime::{PlanRef, PlanVersion, Start};
use serde_json::json;

/// The newcomer's pizza order: Order asks the size and moves on only once the size is known; the
/// stuck safety net (6 turns) can skip the task, and then no arrow leaves Order.
fn pizza(way_out: bool) -> Plan {
    let mut transitions = vec![json!({"target_state_id": "confirm",
        "condition_type": "deliverable_exists", "condition_config": {"key": "size"}})];
    if way_out {
        transitions.push(json!({"target_state_id": "confirm", "priority": 9}));
    }
    let v = json!({"id": "pizza", "title": "Pizza order",
    "states": [
      {"id": "order", "title": "Order", "type": "strict", "instructions": "Take the order.",
       "tasks": [{"id": "take_order", "description": "Take the order. Ask for the size.",
         "deliverables": [{"key": "size", "type": "enum", "enum_values": ["small", "medium", "large"],
           "description": "The pizza's size"}]}],
       "transitions": transitions},
      {"id": "confirm", "title": "Confirm", "type": "loose", "instructions": "Read it back.",
       "transitions": [{"target_state_id": "done"}]},
      {"id": "done", "title": "Order placed"}]});
    plan_core::parse::parse_plan(&v.to_string()).expect("a plan")
}

fn explored(plan: &Plan) -> plan_core::explore::Explored {
    explore(
        plan,
        &Start::default(),
        Bounds::default(),
        &|| false,
        &mut |_| {},
    )
}

#[test]
fn a_dead_end_after_the_safety_net_is_told_as_the_call_it_was_with_why_and_what_to_do() {
    let plan = pizza(false);
    let e = explored(&plan);
    let dead = e
        .findings
        .iter()
        .find(|f| f.code == FindingCode::DeadEnd)
        .expect("a dead end in Order");
    let script = dead.script.as_ref().expect("its conversation");
    let plan_ref = PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::File,
        content_hash: plan_core::hash::content_hash(&plan),
    };
    let replayed = replay(&plan, plan_ref, script).expect("it replays");
    let story = tell(&plan, dead, &replayed.turns);

    // The opening, then six turns of nothing new said once.
    assert_eq!(story.turns[0].said, "the call starts");
    assert_eq!(
        story.turns[0].then,
        vec!["the conversation moves to ‘Order’"]
    );
    let tries: Vec<_> = story
        .turns
        .iter()
        .filter(|t| t.said == "the agent marks ‘Take the order’ done")
        .collect();
    let times: usize = tries.iter().map(|t| t.times).sum();
    assert_eq!(times, 6, "{story:#?}");
    assert!(tries.len() <= 2, "repeats said once: {story:#?}");
    assert_eq!(tries[0].command, "/complete take_order");
    assert_eq!(
        tries[0].then,
        vec!["the agent cannot mark ‘Take the order’ done: size still missing"]
    );
    let last = story.turns.last().expect("a last turn");
    assert!(
        last.then
            .iter()
            .any(|t| t
                == "after 6 turns without progress, the stuck safety net skips ‘Take the order’"),
        "{story:#?}"
    );

    // Why, from the runtime's events; what to do, at Order.
    assert_eq!(
        story.why,
        "After 6 turns without progress, the stuck safety net skipped ‘Take the order’; no arrow leaves ‘Order’ when that happens."
    );
    assert!(!story.suggestions.is_empty());
    assert!(story
        .suggestions
        .iter()
        .all(|s| s.place.state_id.as_deref() == Some("order")));
    // No command, id or code in the words.
    let words = serde_json::to_string(&(
        &story.why,
        &story
            .turns
            .iter()
            .map(|t| (&t.said, &t.then))
            .collect::<Vec<_>>(),
    ))
    .unwrap();
    for leak in ["/complete", "take_order", "explore-", "'take"] {
        assert!(!words.contains(leak), "{leak} in {words}");
    }

    // The fixed twin: an arrow for whatever happens leaves Order, and there is no dead end.
    assert!(explored(&pizza(true))
        .findings
        .iter()
        .all(|f| f.code != FindingCode::DeadEnd));
}

#[test]
fn each_command_the_explorer_plays_is_said_in_words() {
    let plan = pizza(false);
    let cases = [
        (
            "/set size large",
            "the caller gives the pizza's size: large",
        ),
        (
            "/complete take_order",
            "the agent marks ‘Take the order’ done",
        ),
        ("/skip take_order", "the agent skips ‘Take the order’"),
        ("/insight nothing new", "the caller says nothing new"),
        (
            "that is all\n/close that is all",
            "the caller says that is all",
        ),
        ("I give up\n/giveup I give up", "the caller gives up"),
        (
            "/tool check_payment DONE",
            "the check payment tool answers DONE",
        ),
        ("/set confirmed true", "the caller answers yes (confirmed)"),
        (
            "/set wants_pickup false",
            "the caller answers no (wants pickup)",
        ),
        ("a large one please", "the caller says “a large one please”"),
        // A text no arrow compares, as the explorer tries it: whatever the caller says.
        (
            "/set address other-than-address",
            "the caller gives address",
        ),
    ];
    for (command, words) in cases {
        assert_eq!(said(&plan, command), words, "{command}");
    }
}

#[test]
fn the_window_names_a_broken_rule_by_its_title_not_its_id() {
    use plan_core::explore::{headline, Finding, Place};
    let finding = Finding {
        code: FindingCode::RuleBroken,
        severity: plan_core::validate::Severity::Error,
        message: "The rule 'Pay only once known' (rule-1) is broken: the payment tool was called."
            .into(),
        location: Place {
            rule: Some("rule-1".into()),
            ..Place::default()
        },
        script: None,
    };
    assert_eq!(
        headline(&finding),
        "The rule 'Pay only once known' is broken: the payment tool was called."
    );
}
