//! Auto-completion and progress: tasks that complete by themselves, what counts as progress.

use super::*;

#[test]
fn a_task_completes_by_itself_once_its_required_values_are_known() {
    let p = two_states(
        "loose",
        json!({"target_state_id": "b", "condition_type": "deliverable_exists", "condition_config": {"key": "nothing"}}),
    );
    let (s, ev) = turn(&p, &begin(&p), "", &[set("x", json!(3))]);
    assert_eq!(task(&s, "t1"), TaskStatus::Completed);
    assert!(texts(&ev).contains(&"task 't1' is done: everything it collects is known"));
}

#[test]
fn a_task_whose_values_are_all_optional_completes_once_all_are_known() {
    let p = plan(
        json!({"id": "p", "title": "P", "settings": {"stuck_turns": 0}, "states": [
        {"id": "a", "title": "A", "tasks": [{"id": "t", "deliverables": [
            {"key": "u", "required": false}, {"key": "v", "required": false}]}],
         "transitions": [{"target_state_id": "b", "condition_type": "deliverable_exists", "condition_config": {"key": "never"}}]},
        {"id": "b", "title": "B"}]}),
    );
    let (s, _) = turn(&p, &begin(&p), "", &[set("u", json!("1"))]);
    assert_eq!(task(&s, "t"), TaskStatus::Pending);
    let (s, _) = turn(&p, &s, "", &[set("v", json!("2"))]);
    assert_eq!(task(&s, "t"), TaskStatus::Completed);
}

#[test]
fn values_collected_in_an_earlier_state_complete_tasks_on_entry() {
    let p = plan(json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "tasks": [{"id": "ask", "deliverables": [{"key": "name"}]}],
         "transitions": [{"target_state_id": "b"}]},
        {"id": "b", "title": "B", "tasks": [{"id": "again", "deliverables": [{"key": "name"}]}, {"id": "other"}],
         "transitions": [{"target_state_id": "c"}]},
        {"id": "c", "title": "C"}]}));
    let (s, ev) = turn(&p, &begin(&p), "", &[set("name", json!("Ada"))]);
    assert_eq!(s.state_id, "b");
    assert_eq!(task(&s, "again"), TaskStatus::Completed, "{:?}", texts(&ev));
    assert_eq!(task(&s, "other"), TaskStatus::Pending);
}

#[test]
fn a_strict_state_completes_tasks_in_order_only() {
    let p = plan(json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "type": "strict", "tasks": [
            {"id": "one", "deliverables": [{"key": "k1"}]},
            {"id": "two", "deliverables": [{"key": "k2"}]},
            {"id": "three", "deliverables": [{"key": "k3"}]}],
         "transitions": [{"target_state_id": "b", "condition_type": "deliverable_exists", "condition_config": {"key": "never"}}]},
        {"id": "b", "title": "B", "tasks": [{"id": "x", "deliverables": [{"key": "k3"}]}], "transitions": [{"target_state_id": "a"}]}
    ], "start_state_id": "b"}));
    // k3 is known from state b before a is entered, but 'three' waits for 'one' and 'two'.
    let (s, _) = turn(&p, &begin(&p), "", &[set("k3", json!("v3"))]);
    assert_eq!(s.state_id, "a");
    assert_eq!(task(&s, "three"), TaskStatus::Pending);
    let (s, _) = turn(&p, &s, "", &[set("k1", json!("v1"))]);
    assert_eq!(task(&s, "one"), TaskStatus::Completed);
    let (s, ev) = turn(&p, &s, "", &[set("k2", json!("v2"))]);
    assert_eq!(task(&s, "two"), TaskStatus::Completed);
    assert_eq!(
        task(&s, "three"),
        TaskStatus::Completed,
        "checked at once: {:?}",
        texts(&ev)
    );
}

#[test]
fn recording_the_same_value_again_is_not_progress() {
    let p = plan(
        json!({"id": "p", "title": "P", "settings": {"stuck_turns": 0}, "states": [
        {"id": "a", "title": "A", "tasks": [{"id": "t", "deliverables": [{"key": "k"}, {"key": "j"}]}],
         "transitions": [{"target_state_id": "b"}]},
        {"id": "b", "title": "B"}]}),
    );
    let (s, _) = turn(&p, &begin(&p), "", &[set("k", json!("same"))]);
    assert_eq!(s.visit.without_progress, 0);
    let (s, _) = turn(&p, &s, "", &[set("k", json!("same"))]);
    assert_eq!((s.visit.without_progress, s.visit.total), (1, 2));
    assert_eq!(s.deliverables["k"].turn, 1, "the first record is kept");
    let (s, _) = turn(&p, &s, "", &[set("k", json!("changed"))]);
    assert_eq!(s.visit.without_progress, 0);
}
