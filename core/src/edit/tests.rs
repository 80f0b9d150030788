//! The edit commands' tests: each command on a small plan, and what undo gives back.

use super::*;
use crate::parse_plan;
use crate::validate;

fn support() -> Plan {
    parse_plan(include_str!("../../../plans/customer-support.json")).unwrap()
}

fn run(p: &Plan, c: Command) -> Applied {
    apply(p, &c).unwrap_or_else(|e| panic!("{c:?}: {e}"))
}

#[test]
fn adding_a_state_gives_it_a_fresh_id_and_the_position_asked_for() {
    let p = support();
    let at = Position { x: 10.0, y: 20.0 };
    let a = run(
        &p,
        Command::AddState {
            kind: NewState::Strict,
            at,
            from: None,
        },
    );
    let b = run(
        &a.plan,
        Command::AddState {
            kind: NewState::EndHangUp,
            at,
            from: None,
        },
    );
    assert_eq!(a.touched, ["new-state"]);
    assert_eq!(b.touched, ["new-state-2"]);
    let s = b.plan.state("new-state-2").unwrap();
    assert_eq!(s.ending, Some(Ending::HangUp {}));
    assert_eq!(b.plan.layout["new-state"], at);
}

#[test]
fn a_state_added_where_an_arrow_was_dropped_is_connected_from_its_source_in_one_step() {
    let p = support();
    let at = Position { x: 900.0, y: 40.0 };
    let before = p.state("farewell").unwrap().transitions.len();
    let a = run(
        &p,
        Command::AddState {
            kind: NewState::Loose,
            at,
            from: Some("farewell".into()),
        },
    );
    assert_eq!(a.touched, ["new-state"]);
    let farewell = a.plan.state("farewell").unwrap();
    assert_eq!(farewell.transitions.len(), before + 1);
    assert_eq!(farewell.transitions[before].target_state_id, "new-state");
    // An ending connected onwards is no longer an ending, as with Connect.
    assert_eq!(farewell.ending, None);
    assert_eq!(a.plan.layout["new-state"], at);
    // From a state that is not there: refused, nothing added.
    let refused = apply(
        &p,
        &Command::AddState {
            kind: NewState::Loose,
            at,
            from: Some("nowhere".into()),
        },
    );
    assert_eq!(
        refused.err(),
        Some(EditError::UnknownState("nowhere".into()))
    );
}

#[test]
fn renaming_a_state_rewires_every_reference() {
    let p = support();
    let a = run(
        &p,
        Command::RenameState {
            from: "customer-intake".into(),
            to: "intake".into(),
        },
    );
    assert!(a.plan.state("customer-intake").is_none());
    assert_eq!(a.plan.states[0].transitions[0].target_state_id, "intake");
    assert!(a.plan.layout.contains_key("intake"));
    assert!(!validate(&a.plan).has_errors());
    let start = run(
        &p,
        Command::RenameState {
            from: "greeting".into(),
            to: "hello".into(),
        },
    );
    assert_eq!(start.plan.start_state_id.as_deref(), Some("hello"));
    assert_eq!(
        apply(
            &p,
            &Command::RenameState {
                from: "greeting".into(),
                to: "farewell".into()
            }
        ),
        Err(EditError::IdTaken("farewell".into()))
    );
    assert_eq!(
        apply(
            &p,
            &Command::RenameState {
                from: "greeting".into(),
                to: "  ".into()
            }
        ),
        Err(EditError::EmptyId)
    );
}

#[test]
fn deleting_states_removes_the_arrows_into_them_and_says_how_many_first() {
    let p = support();
    let ids = vec!["farewell".to_string()];
    assert_eq!(delete_impact(&p, &ids), (1, 3));
    let a = run(&p, Command::DeleteStates { ids });
    assert_eq!(a.plan.states.len(), 5);
    assert!(a.plan.states.iter().all(|s| s
        .transitions
        .iter()
        .all(|t| t.target_state_id != "farewell")));
    assert!(!a.plan.layout.contains_key("farewell"));
    assert!(!validate(&a.plan).has_errors());
}

#[test]
fn connecting_adds_a_default_transition_and_ends_an_ending() {
    let p = support();
    let a = run(
        &p,
        Command::Connect {
            from: "farewell".into(),
            to: "greeting".into(),
        },
    );
    let s = a.plan.state("farewell").unwrap();
    assert_eq!(s.transitions.len(), 1);
    assert_eq!(s.transitions[0].condition_type, None, "the mode's default");
    assert_eq!(s.ending, None);
    let looped = run(
        &p,
        Command::Connect {
            from: "greeting".into(),
            to: "greeting".into(),
        },
    );
    assert_eq!(
        looped.plan.states[0].transitions[1].target_state_id,
        "greeting"
    );
    let moved = run(
        &p,
        Command::Retarget {
            from: "greeting".into(),
            index: 0,
            to: "farewell".into(),
        },
    );
    assert_eq!(
        moved.plan.states[0].transitions[0].target_state_id,
        "farewell"
    );
    assert_eq!(
        apply(
            &p,
            &Command::Retarget {
                from: "greeting".into(),
                index: 5,
                to: "farewell".into()
            }
        ),
        Err(EditError::UnknownTransition {
            from: "greeting".into(),
            index: 5
        })
    );
}

#[test]
fn pasting_gives_fresh_ids_and_rewires_arrows_inside_the_copy() {
    let p = support();
    let copied: Vec<State> = p.states[..2].iter().map(|s| State::clone(s)).collect();
    let a = run(
        &p,
        Command::Paste {
            states: copied.clone(),
            layout: p.layout.clone(),
            offset: Position { x: 40.0, y: 40.0 },
        },
    );
    assert_eq!(a.touched, ["greeting-copy", "customer-intake-copy"]);
    let g = a.plan.state("greeting-copy").unwrap();
    assert_eq!(
        g.transitions[0].target_state_id, "customer-intake-copy",
        "inside the copy"
    );
    let i = a.plan.state("customer-intake-copy").unwrap();
    assert_eq!(
        i.transitions[0].target_state_id, "billing-support",
        "outside keeps its target"
    );
    assert_eq!(
        a.plan.layout["greeting-copy"].x,
        p.layout["greeting"].x + 40.0
    );
    let b = run(
        &a.plan,
        Command::Paste {
            states: copied,
            layout: p.layout.clone(),
            offset: Position::default(),
        },
    );
    assert_eq!(b.touched, ["greeting-copy-2", "customer-intake-copy-2"]);
}

#[test]
fn tidying_only_overlaps_keeps_every_card_that_does_not_overlap() {
    let mut p = support();
    let at = p.layout["greeting"];
    p.layout.insert(
        "farewell".into(),
        Position {
            x: at.x + 10.0,
            y: at.y + 10.0,
        },
    );
    let a = run(
        &p,
        Command::AutoLayout {
            only_overlaps: true,
        },
    );
    assert_eq!(a.plan.layout["greeting"], at);
    assert_eq!(
        a.plan.layout["billing-support"],
        p.layout["billing-support"]
    );
    assert_ne!(a.plan.layout["farewell"], p.layout["farewell"]);
    let all = run(
        &p,
        Command::AutoLayout {
            only_overlaps: false,
        },
    );
    assert_eq!(all.plan.layout["greeting"].x, 0.0, "start state leftmost");
}

#[test]
fn an_unknown_state_changes_nothing() {
    let p = support();
    assert_eq!(
        apply(
            &p,
            &Command::DeleteStates {
                ids: vec!["ghost".into()]
            }
        ),
        Err(EditError::UnknownState("ghost".into()))
    );
}

#[test]
fn a_new_arrow_takes_the_next_free_priority_of_its_state() {
    let p = support();
    let first = run(
        &p,
        Command::Connect {
            from: "farewell".into(),
            to: "greeting".into(),
        },
    );
    assert_eq!(
        first.plan.state("farewell").unwrap().transitions[0]
            .priority
            .0,
        1.0
    );
    let second = run(
        &first.plan,
        Command::Connect {
            from: "farewell".into(),
            to: "greeting".into(),
        },
    );
    assert_eq!(
        second.plan.state("farewell").unwrap().transitions[1]
            .priority
            .0,
        2.0
    );
}

/// How many of validation's findings about `p` have `code`.
fn found(p: &Plan, code: validate::Code) -> usize {
    validate(p)
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .count()
}

/// The fix of `unhandled-value`: an arrow for the answer, where the key's first arrow goes, after
/// the others; the warning is gone.
#[test]
fn an_arrow_for_an_unhandled_answer_handles_it() {
    let p = parse_plan(
        &serde_json::json!({"id": "pizza", "title": "Pizza", "states": [
            {"id": "confirm", "title": "Confirm", "type": "loose", "instructions": "Read it back.",
             "tasks": [{"id": "ok", "deliverables": [{"key": "confirmed", "type": "boolean"}]}],
             "transitions": [{"target_state_id": "done", "condition_type": "deliverable_value",
                              "condition_config": {"key": "confirmed", "value": true}, "priority": 3}]},
            {"id": "done", "title": "Done"}]})
        .to_string(),
    )
    .unwrap();
    let unhandled = |p: &Plan| found(p, validate::Code::UnhandledValue);
    assert_eq!(unhandled(&p), 1);
    let answers = validate::unhandled_answers(&p, p.state("confirm").unwrap());
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].value, serde_json::json!(false));
    let a = run(
        &p,
        Command::AnswerArrow {
            from: "confirm".into(),
            key: answers[0].key.clone(),
            value: answers[0].value.clone(),
        },
    );
    let t = &a.plan.state("confirm").unwrap().transitions[1];
    assert_eq!(t.target_state_id, "done");
    assert_eq!(t.priority.0, 4.0);
    assert_eq!(t.condition_config["value"], serde_json::json!(false));
    assert_eq!(unhandled(&a.plan), 0);
}

#[test]
fn an_id_follows_its_title_without_churning() {
    let p = support();
    let added = run(
        &p,
        Command::AddState {
            kind: NewState::Strict,
            at: Position { x: 0.0, y: 0.0 },
            from: None,
        },
    );
    let p = added.plan;
    // The first title, then a corrected one: the id follows each.
    assert_eq!(
        id_following_title(&p, "new-state", "Ordr").as_deref(),
        Some("ordr")
    );
    assert_eq!(
        id_following_title(&p, "ordr", "Order placed").as_deref(),
        Some("order-placed")
    );
    // A title another state's id already reads as: the next free one.
    assert_eq!(
        id_following_title(&p, "new-state", "Greeting").as_deref(),
        Some("greeting-2")
    );
    // Already reading as the title (spaces, case, a number beside a namesake): unchanged.
    assert_eq!(id_following_title(&p, "greeting", " greeting "), None);
    assert_eq!(id_following_title(&p, "greeting-2", "Greeting"), None);
    assert_eq!(id_following_title(&p, "new-state", "   "), None);
}

/// The fix of `unhandled-response-code`: an arrow for the code, where the tool's first arrow goes,
/// after the others; the warning is gone.
#[test]
fn an_arrow_for_an_unhandled_tool_code_handles_it() {
    let p = parse_plan(
        &serde_json::json!({"id": "pay", "title": "Pay", "tools": [
            {"name": "check_payment", "response_codes": ["DONE", "DECLINED"]}], "states": [
            {"id": "pay", "title": "Payment", "type": "loose", "instructions": "Take the payment.",
             "allowed_tools": ["check_payment"],
             "transitions": [{"target_state_id": "done", "condition_type": "tool_result",
                              "condition_config": {"tool": "check_payment", "response_code": "DONE"}}]},
            {"id": "done", "title": "Done"}]})
        .to_string(),
    )
    .unwrap();
    let unhandled = |p: &Plan| found(p, validate::Code::UnhandledResponseCode);
    assert_eq!(unhandled(&p), 1);
    let codes = validate::unhandled_codes(&p, p.state("pay").unwrap());
    assert_eq!(
        (codes[0].tool.as_str(), codes[0].code.as_str()),
        ("check_payment", "DECLINED")
    );
    let a = run(
        &p,
        Command::CodeArrow {
            from: "pay".into(),
            tool: codes[0].tool.clone(),
            code: codes[0].code.clone(),
        },
    );
    let t = &a.plan.state("pay").unwrap().transitions[1];
    assert_eq!(t.target_state_id, "done");
    assert_eq!(t.priority.0, 2.0);
    assert_eq!(
        t.condition_config["response_code"],
        serde_json::json!("DECLINED")
    );
    assert_eq!(unhandled(&a.plan), 0);
}

/// The lanes' edges (seed 001): drawing one limits the evaluation to the session state, moving
/// its end limits the other evaluation instead, deleting it asks the evaluation of every
/// conversation again; each refuses what would change nothing, the plan untouched.
#[test]
fn an_edge_from_a_session_state_limits_an_evaluation_and_moves_and_goes() {
    let p = parse_plan(include_str!("../../../plans/account-care.json")).unwrap();
    let limits = |p: &Plan| -> Vec<(String, Vec<String>)> {
        p.evaluations
            .iter()
            .map(|e| (e.id.clone(), e.only_while_active.clone()))
            .collect()
    };
    let edge = |state: &str, evaluation: &str| Limit {
        session_state: state.into(),
        evaluation: evaluation.into(),
    };
    let drawn = apply(&p, &Command::LimitEvaluation(edge("upsell", "polite")))
        .unwrap()
        .plan;
    assert_eq!(
        limits(&drawn),
        [
            ("polite".into(), vec!["upsell".into()]),
            ("no-refund-promise".into(), vec!["billing_mode".into()]),
        ]
    );
    let moved = apply(
        &drawn,
        &Command::MoveLimit {
            limit: edge("upsell", "polite"),
            to: "no-refund-promise".into(),
        },
    )
    .unwrap()
    .plan;
    assert_eq!(
        limits(&moved),
        [
            ("polite".into(), vec![]),
            (
                "no-refund-promise".into(),
                vec!["billing_mode".into(), "upsell".into()]
            ),
        ]
    );
    let gone = apply(
        &moved,
        &Command::UnlimitEvaluation(edge("billing_mode", "no-refund-promise")),
    )
    .unwrap()
    .plan;
    assert_eq!(
        limits(&gone),
        [
            ("polite".into(), vec![]),
            ("no-refund-promise".into(), vec!["upsell".into()]),
        ]
    );
    // The round trip leaves a document that validates as the sample did.
    assert!(!validate(&gone).has_errors());

    let refused = [
        (
            Command::LimitEvaluation(edge("billing_mode", "no-refund-promise")),
            EditError::AlreadyLimited(edge("billing_mode", "no-refund-promise")),
        ),
        (
            Command::LimitEvaluation(edge("ghost", "polite")),
            EditError::UnknownSessionState("ghost".into()),
        ),
        (
            Command::LimitEvaluation(edge("upsell", "ghost")),
            EditError::UnknownEvaluation("ghost".into()),
        ),
        (
            Command::UnlimitEvaluation(edge("upsell", "polite")),
            EditError::UnknownLimit(edge("upsell", "polite")),
        ),
        (
            Command::MoveLimit {
                limit: edge("billing_mode", "no-refund-promise"),
                to: "ghost".into(),
            },
            EditError::UnknownEvaluation("ghost".into()),
        ),
    ];
    for (command, error) in refused {
        assert_eq!(apply(&p, &command), Err(error), "{command:?}");
    }
}

/// Reordering arrows by key: an arrow moved one place earlier in the order the runtime checks
/// them takes its neighbour's place and priority; the others keep theirs; the first cannot go
/// earlier.
#[test]
fn an_arrow_swapped_in_check_order_takes_its_neighbours_place_and_priority() {
    let p = parse_plan(
        &serde_json::json!({"id": "order", "title": "Order", "states": [
            {"id": "a", "title": "A", "type": "loose", "instructions": "Ask.", "transitions": [
                {"target_state_id": "b", "priority": 2},
                {"target_state_id": "c", "priority": 1},
                {"target_state_id": "d", "priority": 2}
            ]},
            {"id": "b", "title": "B", "type": "loose", "instructions": "B."},
            {"id": "c", "title": "C", "type": "loose", "instructions": "C."},
            {"id": "d", "title": "D", "type": "loose", "instructions": "D."}
        ]})
        .to_string(),
    )
    .unwrap();
    let a = p.state("a").unwrap();
    assert_eq!(a.checked_in_order(), vec![1, 0, 2], "C, then B, then D");
    assert_eq!(a.check_neighbour(1, true), None, "C is checked first");
    assert_eq!(a.check_neighbour(2, false), None, "D is checked last");
    let with = a.check_neighbour(2, true).unwrap();
    assert_eq!(with, 0, "D comes just after B");
    let swapped = run(
        &p,
        Command::SwapCheckOrder {
            from: "a".into(),
            index: 2,
            with,
        },
    );
    let a = swapped.plan.state("a").unwrap();
    let targets = |order: Vec<usize>| -> Vec<String> {
        order
            .into_iter()
            .map(|i| a.transitions[i].target_state_id.clone())
            .collect()
    };
    assert_eq!(targets(a.checked_in_order()), ["c", "d", "b"]);
    assert_eq!(a.transitions[0].target_state_id, "d", "D is where B was");
    assert_eq!(a.transitions[1].priority.0, 1.0, "C is untouched");
    let across = run(
        &swapped.plan,
        Command::SwapCheckOrder {
            from: "a".into(),
            index: 0,
            with: 1,
        },
    );
    let a = across.plan.state("a").unwrap();
    assert_eq!(
        (
            a.transitions[0].target_state_id.as_str(),
            a.transitions[0].priority.0
        ),
        ("c", 2.0),
        "across priorities, the priorities are exchanged too"
    );
    assert_eq!(
        a.checked_in_order()
            .into_iter()
            .map(|i| a.transitions[i].target_state_id.as_str())
            .collect::<Vec<_>>(),
        ["d", "c", "b"]
    );
    assert!(matches!(
        apply(
            &p,
            &Command::SwapCheckOrder {
                from: "a".into(),
                index: 0,
                with: 7
            }
        ),
        Err(EditError::UnknownTransition { index: 7, .. })
    ));
}
