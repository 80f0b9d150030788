//! Actions and their acceptance rules: what a state takes, what it rejects and why.

use super::*;

#[test]
fn a_recorded_value_is_coerced_to_the_keys_type() {
    let p = two_states(
        "loose",
        json!({"target_state_id": "b", "condition_type": "deliverable_exists", "condition_config": {"key": "nothing"}}),
    );
    let s = begin(&p);
    let (s, ev) = turn(
        &p,
        &s,
        "",
        &[set("x", json!("42")), set("c", json!("Billing"))],
    );
    assert_eq!(s.deliverables["x"].value, json!(42));
    assert_eq!(s.deliverables["c"].value, json!("billing"));
    assert_eq!(s.deliverables["c"].state_id, "a");
    assert_eq!(s.deliverables["c"].turn, 1);
    assert_eq!(texts(&ev)[0], "recorded x = 42");
}

#[test]
fn a_key_the_state_does_not_declare_is_rejected() {
    let p = two_states("loose", json!({"target_state_id": "b"}));
    let (s, ev) = turn(&p, &begin(&p), "", &[set("zzz", json!(1))]);
    assert!(s.deliverables.is_empty());
    assert_eq!(
        rejected(&ev),
        ["did not record zzz: no state of this plan asks for it"]
    );
}

#[test]
fn a_value_that_does_not_coerce_is_rejected() {
    let p = two_states("loose", json!({"target_state_id": "b"}));
    let (s, ev) = turn(
        &p,
        &begin(&p),
        "",
        &[set("x", json!("seven")), set("c", json!("refund"))],
    );
    assert!(s.deliverables.is_empty());
    assert_eq!(
        rejected(&ev),
        [
            "did not record x: \"seven\" is not a number",
            "did not record c: \"refund\" is not one of billing, technical"
        ]
    );
}

#[test]
fn a_strict_state_records_only_keys_of_the_current_task() {
    let p = two_states("strict", json!({"target_state_id": "b"}));
    let s = begin(&p);
    let (s, ev) = turn(&p, &s, "", &[set("c", json!("billing"))]);
    assert!(s.deliverables.is_empty());
    assert_eq!(
        rejected(&ev),
        ["did not record c: this is a strict state and the current task is 't1'"]
    );
    // 't1' completes at step 4, after the turn's actions: until then it is the current task.
    let (s, ev) = turn(
        &p,
        &s,
        "",
        &[set("x", json!(1)), set("c", json!("billing"))],
    );
    assert_eq!(rejected(&ev).len(), 1);
    let (s, _) = turn(&p, &s, "", &[set("c", json!("billing"))]);
    assert_eq!(s.deliverables.len(), 2, "after t1 completed, t2 is current");
}

#[test]
fn a_task_with_a_missing_required_deliverable_cannot_be_completed() {
    let p = two_states("loose", json!({"target_state_id": "b"}));
    let (s, ev) = turn(
        &p,
        &begin(&p),
        "",
        &[Action::Complete {
            task_id: "t1".into(),
        }],
    );
    assert_eq!(task(&s, "t1"), TaskStatus::Pending);
    assert_eq!(
        rejected(&ev),
        ["did not complete task 't1': x still missing"]
    );
}

#[test]
fn a_strict_state_completes_and_skips_only_its_current_task() {
    let p = plan(json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "type": "strict", "tasks": [
            {"id": "first"}, {"id": "second", "required": false}, {"id": "third"}],
         "transitions": [{"target_state_id": "b"}]},
        {"id": "b", "title": "B"}]}));
    let s = begin(&p);
    let (s, ev) = turn(
        &p,
        &s,
        "",
        &[Action::Complete {
            task_id: "second".into(),
        }],
    );
    assert_eq!(
        rejected(&ev),
        ["did not complete task 'second': this is a strict state and the current task is 'first'"]
    );
    let (s, ev) = turn(
        &p,
        &s,
        "",
        &[Action::Skip {
            task_id: "first".into(),
        }],
    );
    assert_eq!(
        rejected(&ev),
        ["did not skip task 'first': this is a strict state and the task is required"]
    );
    let (s, _) = turn(
        &p,
        &s,
        "",
        &[
            Action::Complete {
                task_id: "first".into(),
            },
            Action::Skip {
                task_id: "second".into(),
            },
        ],
    );
    assert_eq!(task(&s, "first"), TaskStatus::Completed);
    assert_eq!(task(&s, "second"), TaskStatus::Skipped);
    assert_eq!(task(&s, "third"), TaskStatus::Pending);
}

#[test]
fn a_loose_state_skips_any_pending_task() {
    let p = plan(json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "tasks": [{"id": "one"}, {"id": "two"}],
         "transitions": [{"target_state_id": "b"}]},
        {"id": "b", "title": "B"}]}));
    let (s, ev) = turn(
        &p,
        &begin(&p),
        "",
        &[Action::Skip {
            task_id: "two".into(),
        }],
    );
    assert!(rejected(&ev).is_empty());
    assert_eq!(task(&s, "two"), TaskStatus::Skipped);
    let (_, ev) = turn(
        &p,
        &s,
        "",
        &[Action::Skip {
            task_id: "two".into(),
        }],
    );
    assert_eq!(
        rejected(&ev),
        ["did not skip task 'two': it is already done"]
    );
}

#[test]
fn closing_a_goal_needs_a_quote_the_user_said_in_this_visit_and_the_required_values() {
    let p = goal_plan(json!([{"target_state_id": "next"}]));
    let s = begin(&p);
    // A command line is not speech.
    let (s, ev) = turn(
        &p,
        &s,
        "/close weekly budget",
        &[Action::CloseGoal {
            quote: "weekly budget".into(),
        }],
    );
    assert_eq!(
        rejected(&ev),
        ["did not close the goal: the user did not say \"weekly budget\" in this state"]
    );
    let (s, ev) = turn(
        &p,
        &s,
        "I want a Weekly Budget",
        &[Action::CloseGoal {
            quote: "weekly budget".into(),
        }],
    );
    assert_eq!(
        rejected(&ev),
        ["did not close the goal: need still missing"]
    );
    let (s, ev) = turn(
        &p,
        &s,
        "that's it",
        &[
            set("need", json!("a budget")),
            Action::CloseGoal {
                quote: "weekly budget".into(),
            },
        ],
    );
    assert!(rejected(&ev).is_empty(), "{ev:?}");
    assert_eq!(
        s.visit.goal, None,
        "moved on: a fresh visit of a state without goal"
    );
    assert_eq!(s.state_id, "next");
}

#[test]
fn a_goal_closes_without_its_required_values_when_a_route_that_reads_values_would_fire() {
    let p = goal_plan(json!([
        {"target_state_id": "low", "condition_type": "deliverable_value", "condition_config": {"key": "mood", "value": "low"}}
    ]));
    let s = begin(&p);
    let (s, ev) = turn(
        &p,
        &s,
        "I feel low",
        &[
            set("mood", json!("low")),
            Action::CloseGoal {
                quote: "low".into(),
            },
        ],
    );
    assert!(rejected(&ev).is_empty(), "{ev:?}");
    assert_eq!(s.state_id, "low");
    assert_eq!(moved(&ev).map(|m| m.why.as_str()), Some("mood = low"));
}

#[test]
fn giving_up_a_goal_needs_a_quote() {
    let p = goal_plan(json!([{"target_state_id": "next"}]));
    let s = begin(&p);
    let (s1, ev) = turn(
        &p,
        &s,
        "hmm",
        &[Action::GiveUpGoal {
            quote: "skip".into(),
        }],
    );
    assert_eq!(s1.visit.goal, Some(GoalStatus::Open));
    assert_eq!(rejected(&ev).len(), 1);
    let (s2, ev) = turn(
        &p,
        &s,
        "let's skip this",
        &[Action::GiveUpGoal {
            quote: "skip".into(),
        }],
    );
    assert!(texts(&ev).contains(&"the goal was given up: the user said \"skip\""));
    assert_eq!(s2.state_id, "next");
    assert_eq!(
        moved(&ev).map(|m| m.why.as_str()),
        Some("the goal was given up")
    );
}

#[test]
fn a_tool_can_be_called_only_where_allowed_and_only_with_a_declared_code() {
    let p = plan(json!({"id": "p", "title": "P",
        "tools": [{"name": "check", "response_codes": ["OK", "FAIL"]}, {"name": "log"}],
        "states": [
            {"id": "a", "title": "A", "allowed_tools": ["check", "log"], "transitions": [
                {"target_state_id": "b", "condition_type": "tool_result",
                 "condition_config": {"tool": "check", "response_code": "OK"}}]},
            {"id": "b", "title": "B"}]}));
    let s = begin(&p);
    let call = |tool: &str, code: &str| Action::CallTool {
        tool: tool.into(),
        response_code: code.into(),
    };
    let (s, ev) = turn(
        &p,
        &s,
        "",
        &[
            call("check", "MAYBE"),
            call("nope", "OK"),
            call("log", "anything at all"),
        ],
    );
    assert_eq!(
        rejected(&ev),
        [
            "did not call check: it cannot return MAYBE (it returns OK, FAIL)",
            "did not call nope: only check, log can be called in this state"
        ]
    );
    assert_eq!(
        s.visit.tools["log"], "anything at all",
        "no codes declared: any code"
    );
    let (s, ev) = turn(&p, &s, "", &[call("check", "OK")]);
    assert_eq!(s.state_id, "b");
    assert_eq!(
        moved(&ev).map(|m| m.why.as_str()),
        Some("check returned OK")
    );
}

#[test]
fn insights_are_capped_at_max_insights_and_make_no_progress() {
    let p = plan(
        json!({"id": "p", "title": "P", "settings": {"stuck_turns": 0, "max_insights": 2},
        "states": [{"id": "a", "title": "A", "tasks": [{"id": "t"}], "transitions": [{"target_state_id": "b"}]},
                   {"id": "b", "title": "B"}]}),
    );
    let note = |t: &str| Action::Insight { text: t.into() };
    let (s, ev) = turn(
        &p,
        &begin(&p),
        "",
        &[note("one"), note("two"), note("three")],
    );
    assert_eq!(s.insights.len(), 2);
    assert_eq!(
        rejected(&ev),
        ["did not keep the insight: 2 insights are kept already, the most this plan allows"]
    );
    assert_eq!(s.visit.without_progress, 1);
}

#[test]
fn an_unknown_command_is_a_rejected_action_with_a_reason() {
    let p = two_states("loose", json!({"target_state_id": "b"}));
    let actions = Simulator.actions(&p, &begin(&p), "/dance now", &NO_TOOLS);
    let (_, ev) = turn(&p, &begin(&p), "/dance now", &actions);
    assert_eq!(
        rejected(&ev),
        ["did not understand \"/dance now\": unknown command (use /set, /complete, /skip, /close, /giveup, /tool, /insight, /state, /activate, /deactivate or /interrupt)"]
    );
}
