//! Endings: each kind, ending states with tasks, a turn after the end.

use super::*;

#[test]
fn each_ending_kind_ends_the_session_with_its_data() {
    for (ending, kind) in [
        (json!(null), EndKind::Complete),
        (json!({"kind": "hang_up"}), EndKind::HangUp),
        (
            json!({"kind": "hand_off", "to": "billing team", "reason": "refund over limit"}),
            EndKind::HandOff,
        ),
    ] {
        let mut end = json!({"id": "end", "title": "End"});
        if !ending.is_null() {
            end["ending"] = ending.clone();
        }
        let p = plan(json!({"id": "p", "title": "P", "states": [
            {"id": "a", "title": "A", "transitions": [{"target_state_id": "end"}]}, end]}));
        let (s, ev) = turn(&p, &begin(&p), "hi", &[]);
        let e = s.ended.clone().expect("ended");
        assert_eq!((e.kind, e.state_id.as_str(), e.turn), (kind, "end", 1));
        if kind == EndKind::HandOff {
            assert_eq!(e.to.as_deref(), Some("billing team"));
            assert_eq!(e.reason.as_deref(), Some("refund over limit"));
            assert!(texts(&ev).contains(
                &"the conversation ended in End: handed off to billing team (refund over limit)"
            ));
        }
        assert!(matches!(step(&p, &s, "more", &[]), Err(RunError::Ended(_))));
    }
}

#[test]
fn an_ending_state_with_tasks_ends_once_they_are_addressed() {
    let p = plan(json!({"id": "p", "title": "P", "states": [
        {"id": "end", "title": "End", "tasks": [{"id": "bye"}]}]}));
    let s = begin(&p);
    assert!(s.ended.is_none());
    let (s, _) = turn(
        &p,
        &s,
        "",
        &[Action::Complete {
            task_id: "bye".into(),
        }],
    );
    assert_eq!(s.ended.map(|e| e.kind), Some(EndKind::Complete));
}

#[test]
fn an_ending_start_state_without_tasks_ends_at_once() {
    let p = plan(
        json!({"id": "p", "title": "P", "states": [{"id": "only", "title": "Only", "ending": {"kind": "hang_up"}}]}),
    );
    let s = begin(&p);
    assert_eq!(
        s.ended.as_ref().map(|e| (e.kind, e.turn)),
        Some((EndKind::HangUp, 0))
    );
}

#[test]
fn a_turn_after_the_end_is_an_error_and_changes_nothing() {
    let p = plan(json!({"id": "p", "title": "P", "states": [{"id": "only", "title": "Only"}]}));
    let s = begin(&p);
    let err = step(&p, &s, "hello?", &[]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the conversation has ended (completed, in state 'only' at turn 0): start a new one"
    );
}
