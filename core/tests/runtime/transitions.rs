//! Transitions: when they are evaluated, which wins, the safety net, a goal's fall-through.

use super::*;

#[test]
fn a_newly_entered_state_is_evaluated_only_in_the_next_turn() {
    let p = plan(json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "transitions": [{"target_state_id": "b"}]},
        {"id": "b", "title": "B", "transitions": [{"target_state_id": "c"}]},
        {"id": "c", "title": "C"}]}));
    let s = begin(&p);
    assert_eq!(
        s.state_id, "a",
        "a state without tasks is not complete in its entry turn"
    );
    let (s, _) = turn(&p, &s, "hi", &[]);
    assert_eq!(s.state_id, "b", "one transition per turn");
    let (s, ev) = turn(&p, &s, "hi", &[]);
    assert_eq!(s.state_id, "c");
    assert_eq!(
        moved(&ev).map(|m| m.why.as_str()),
        Some("there are no tasks here")
    );
    assert_eq!(s.path, ["a", "b", "c"]);
}

#[test]
fn the_lowest_priority_wins_and_ties_go_to_the_earlier_transition() {
    let p = plan(json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "transitions": [
            {"target_state_id": "late", "priority": 5},
            {"target_state_id": "first", "priority": 2},
            {"target_state_id": "second", "priority": 2}]},
        {"id": "late", "title": "Late"}, {"id": "first", "title": "First"}, {"id": "second", "title": "Second"}]}));
    let (s, ev) = turn(&p, &begin(&p), "hi", &[]);
    assert_eq!(s.state_id, "first");
    let m = moved(&ev).expect("moved");
    assert_eq!((m.index, m.priority.map(|p| p.0)), (Some(1), Some(2.0)));
    assert!(texts(&ev).contains(&"moved to First because there are no tasks here (priority 2)"));
}

#[test]
fn a_goal_states_routes_wait_until_its_goal_is_done() {
    let p = goal_plan(json!([
        {"target_state_id": "low", "condition_type": "deliverable_value", "condition_config": {"key": "mood", "value": "low"}}
    ]));
    let (s, _) = turn(&p, &begin(&p), "I am low", &[set("mood", json!("low"))]);
    assert_eq!(s.state_id, "ask", "the goal is still open");
    let (s, _) = turn(
        &p,
        &s,
        "I need rest",
        &[
            set("need", json!("rest")),
            Action::CloseGoal {
                quote: "need rest".into(),
            },
        ],
    );
    assert_eq!(s.state_id, "low");
}

#[test]
fn turn_count_exceeded_counts_turns_without_progress_or_all_turns() {
    let counting = |scope: &str| {
        plan(
            json!({"id": "p", "title": "P", "settings": {"stuck_turns": 0}, "states": [
            {"id": "a", "title": "A", "tasks": [{"id": "t", "deliverables": [{"key": "k", "type": "number"}]}],
             "transitions": [{"target_state_id": "b", "condition_type": "turn_count_exceeded",
                              "condition_config": {"turns": 3, "scope": scope}}]},
            {"id": "b", "title": "B"}]}),
        )
    };
    // Progress every turn resets the counter without progress, not the total.
    let p = counting("total");
    let mut s = begin(&p);
    for i in 1..=3 {
        s = turn(&p, &s, "", &[set("k", json!(i))]).0;
    }
    assert_eq!(s.state_id, "b");
    let p = counting("without_progress");
    let mut s = begin(&p);
    for i in 1..=3 {
        s = turn(&p, &s, "", &[set("k", json!(i))]).0;
    }
    assert_eq!(s.state_id, "a");
    let (s, _) = turn(&p, &s, "", &[]);
    let (s, _) = turn(&p, &s, "", &[]);
    assert_eq!(s.state_id, "a");
    let (s, ev) = turn(&p, &s, "", &[]);
    assert_eq!(s.state_id, "b");
    assert_eq!(
        moved(&ev).map(|m| m.why.as_str()),
        Some("3 turns without progress (limit 3)")
    );
}

#[test]
fn the_safety_net_releases_the_current_task_after_stuck_turns() {
    let p = plan(
        json!({"id": "p", "title": "P", "settings": {"stuck_turns": 2}, "states": [
        {"id": "a", "title": "A", "type": "strict", "tasks": [{"id": "hard", "deliverables": [{"key": "k"}]}],
         "transitions": [{"target_state_id": "b"}]},
        {"id": "b", "title": "B"}]}),
    );
    let (s, ev) = turn(&p, &begin(&p), "", &[]);
    assert_eq!((s.state_id.as_str(), rejected(&ev).len()), ("a", 0));
    let (s, ev) = turn(&p, &s, "", &[]);
    assert!(texts(&ev).contains(&"released task 'hard' as skipped: 2 turns without progress"));
    assert_eq!(s.state_id, "b", "step 6 ran again after the release");
    assert!(s.ended.is_some());
}

#[test]
fn the_safety_net_releases_an_open_goal_and_is_off_at_zero() {
    let p = goal_plan(json!([{"target_state_id": "low"}]));
    let mut p2 = p.clone();
    p2.settings.stuck_turns = 0;
    let mut s = begin(&p);
    for _ in 0..6 {
        s = turn(&p, &s, "", &[]).0;
    }
    assert_eq!(s.state_id, "low", "released after the default 6 turns");
    let mut s = begin(&p2);
    for _ in 0..20 {
        s = turn(&p2, &s, "", &[]).0;
    }
    assert_eq!(s.state_id, "ask");
    assert_eq!(s.visit.goal, Some(GoalStatus::Open));
}

#[test]
fn the_safety_net_does_nothing_when_nothing_is_left_to_release() {
    let p = plan(
        json!({"id": "p", "title": "P", "settings": {"stuck_turns": 1}, "tools": [{"name": "t"}], "states": [
        {"id": "a", "title": "A", "allowed_tools": ["t"], "transitions": [
            {"target_state_id": "b", "condition_type": "tool_result", "condition_config": {"tool": "t", "response_code": "X"}}]},
        {"id": "b", "title": "B"}]}),
    );
    let (s, ev) = turn(&p, &begin(&p), "", &[]);
    assert_eq!(s.state_id, "a");
    assert!(!ev
        .iter()
        .any(|e| matches!(e.what, What::ReleasedStuck { .. })));
    assert_eq!(s.visit.without_progress, 1);
}

#[test]
fn a_done_goal_with_no_matching_route_falls_through_to_the_next_state_in_plan_order() {
    let p = goal_plan(json!([
        {"target_state_id": "low", "condition_type": "deliverable_value", "condition_config": {"key": "mood", "value": "low"}}
    ]));
    let (s, ev) = turn(
        &p,
        &begin(&p),
        "high, I need a nap",
        &[
            set("need", json!("a nap")),
            set("mood", json!("high")),
            Action::CloseGoal {
                quote: "need a nap".into(),
            },
        ],
    );
    assert_eq!(s.state_id, "next");
    let m = moved(&ev).expect("fell through");
    assert_eq!((m.index, m.priority), (None, None));
    assert!(texts(&ev).contains(
        &"moved to Next, the next state in plan order: the goal is done and no route matched"
    ));
}

#[test]
fn a_done_goal_in_the_last_state_with_no_matching_route_ends_complete() {
    let p = plan(json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "transitions": [{"target_state_id": "g"}]},
        {"id": "g", "title": "G", "type": "goal", "goal": {"objective": "o", "deliverables": [{"key": "v"}]},
         "transitions": [{"target_state_id": "a", "condition_type": "deliverable_value", "condition_config": {"key": "v", "value": "again"}}]}]}));
    let (s, _) = turn(&p, &begin(&p), "", &[]);
    assert_eq!(s.state_id, "g");
    let (s, _) = turn(
        &p,
        &s,
        "done now",
        &[
            set("v", json!("done")),
            Action::CloseGoal {
                quote: "done".into(),
            },
        ],
    );
    let ended = s.ended.expect("ended");
    assert_eq!(
        (ended.kind, ended.state_id.as_str(), ended.turn),
        (EndKind::Complete, "g", 2)
    );
}
