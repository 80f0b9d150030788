//! The runtime, rule by rule (`docs/runtime.md`): each test runs a small plan turn by turn and
//! checks the state, the session and the events after each turn.

use plan_core::parse_plan;
use plan_core::runtime::*;
use plan_core::Plan;
use serde_json::{json, Value};

/// No tool results: a bare `/tool NAME` returns the tool's first declared code.
static NO_TOOLS: ToolResults = ToolResults::new();

fn plan(v: Value) -> Plan {
    parse_plan(&v.to_string()).unwrap_or_else(|e| panic!("test plan parses: {e:?}"))
}

fn begin(p: &Plan) -> Session {
    let r = PlanRef {
        id: p.id.clone(),
        version: PlanVersion::File,
        content_hash: plan_core::hash::content_hash(p),
    };
    start(p, r).expect("starts").0
}

/// A chat with the simulator on `p`, and its opening turn.
fn simulated(p: &Plan) -> (Chat<'_, Simulator>, plan_core::runtime::Turn) {
    let r = PlanRef {
        id: p.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    Chat::open(p, &Simulator, r).expect("opens")
}

fn turn(p: &Plan, s: &Session, message: &str, actions: &[Action]) -> (Session, Vec<Event>) {
    step(p, s, message, actions).unwrap_or_else(|e| panic!("turn runs: {e}"))
}

fn set(key: &str, value: Value) -> Action {
    Action::Record {
        key: key.into(),
        value,
        quote: None,
    }
}

fn texts(events: &[Event]) -> Vec<&str> {
    events.iter().map(|e| e.text.as_str()).collect()
}

fn rejected(events: &[Event]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| matches!(e.what, What::ActionRejected { .. }))
        .map(|e| e.text.as_str())
        .collect()
}

fn moved(events: &[Event]) -> Option<&Move> {
    events.iter().find_map(|e| match &e.what {
        What::Transition(m) => Some(m),
        _ => None,
    })
}

fn task(s: &Session, id: &str) -> TaskStatus {
    s.visit.task(id).expect("task in visit")
}

/// Two loose states: `a` (tasks `t1` collecting `x` (number), `t2` collecting `c` (enum)) and an
/// ending `b`.
fn two_states(kind: &str, transition: Value) -> Plan {
    plan(json!({"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "type": kind, "tasks": [
            {"id": "t1", "deliverables": [{"key": "x", "type": "number"}]},
            {"id": "t2", "required": false, "deliverables": [
                {"key": "c", "type": "enum", "enum_values": ["billing", "technical"]}]}
        ], "transitions": [transition]},
        {"id": "b", "title": "B"}
    ]}))
}

fn goal_plan(transitions: Value) -> Plan {
    plan(json!({"id": "g", "title": "G", "states": [
        {"id": "ask", "title": "Ask", "type": "goal",
         "goal": {"objective": "learn the plan", "deliverables": [
            {"key": "need", "type": "string"},
            {"key": "mood", "type": "enum", "enum_values": ["low", "high"], "required": false}]},
         "transitions": transitions},
        {"id": "next", "title": "Next"},
        {"id": "low", "title": "Low"}
    ]}))
}

// ---- actions and their acceptance rules ----

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

// ---- auto-completion and progress ----

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

// ---- transitions ----

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

// ---- endings ----

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

// ---- conditions ----

fn fires(condition_type: &str, config: Value, setup: &[Action]) -> Option<String> {
    let p = plan(
        json!({"id": "p", "title": "P", "settings": {"stuck_turns": 0},
        "tools": [{"name": "check", "response_codes": ["OK", "FAIL"]}],
        "states": [
        {"id": "a", "title": "A", "allowed_tools": ["check"], "tasks": [{"id": "t", "deliverables": [
            {"key": "n", "type": "number", "required": false},
            {"key": "c", "type": "enum", "enum_values": ["billing", "technical", "other"], "required": false},
            {"key": "flag", "type": "boolean", "required": false},
            {"key": "name", "required": false}]}],
         "transitions": [{"target_state_id": "b", "condition_type": condition_type, "condition_config": config}]},
        {"id": "b", "title": "B"}]}),
    );
    let (s, ev) = turn(&p, &begin(&p), "", setup);
    (s.state_id == "b").then(|| moved(&ev).map(|m| m.why.clone()).unwrap_or_default())
}

#[test]
fn every_condition_type_is_evaluated() {
    let n = |x: i64| set("n", json!(x));
    assert_eq!(
        fires(
            "deliverable_exists",
            json!({"key": "name"}),
            &[set("name", json!("Ada"))]
        )
        .as_deref(),
        Some("name is known (Ada)")
    );
    assert_eq!(
        fires("deliverable_exists", json!({"key": "name"}), &[]),
        None
    );
    assert_eq!(
        fires(
            "deliverable_value",
            json!({"key": "c", "value": "Billing"}),
            &[set("c", json!("billing"))]
        )
        .as_deref(),
        Some("c = billing")
    );
    assert_eq!(
        fires(
            "deliverable_value",
            json!({"key": "flag", "value": "yes"}),
            &[set("flag", json!(true))]
        )
        .as_deref(),
        Some("flag = true")
    );
    assert_eq!(
        fires(
            "deliverable_value",
            json!({"key": "c", "value": "billing"}),
            &[set("c", json!("other"))]
        ),
        None
    );
    assert_eq!(
        fires(
            "deliverable_value_in",
            json!({"key": "c", "values": ["billing", "technical"]}),
            &[set("c", json!("technical"))]
        )
        .as_deref(),
        Some("c = technical, one of billing, technical")
    );
    assert_eq!(
        fires(
            "deliverable_value_in",
            json!({"key": "c", "values": ["billing"]}),
            &[set("c", json!("other"))]
        ),
        None
    );
    for (op, value, x, holds) in [
        ("gt", 5, 6, true),
        ("gt", 5, 5, false),
        ("gte", 5, 5, true),
        ("lt", 5, 4, true),
        ("lt", 5, 5, false),
        ("lte", 5, 5, true),
        ("eq", 5, 5, true),
        ("eq", 5, 6, false),
        ("neq", 5, 6, true),
        ("neq", 5, 5, false),
    ] {
        let got = fires(
            "deliverable_value_numeric",
            json!({"key": "n", "operator": op, "value": value}),
            &[n(x)],
        );
        assert_eq!(got.is_some(), holds, "{x} {op} {value}");
    }
    assert_eq!(
        fires(
            "deliverable_value_numeric",
            json!({"key": "n", "operator": "gte", "value": 8}),
            &[n(9)]
        )
        .as_deref(),
        Some("n = 9 ≥ 8")
    );
    let between = |inclusive: bool, x: i64| {
        fires(
            "deliverable_value_numeric",
            json!({"key": "n", "operator": "between", "min": 4, "max": 7, "inclusive": inclusive}),
            &[n(x)],
        )
    };
    assert_eq!(between(true, 4).as_deref(), Some("4 ≤ n = 4 ≤ 7"));
    assert!(between(false, 4).is_none());
    assert!(between(false, 5).is_some());
    assert!(between(true, 8).is_none());
    assert_eq!(
        fires(
            "tool_result",
            json!({"tool": "check", "response_code": "OK"}),
            &[Action::CallTool {
                tool: "check".into(),
                response_code: "OK".into()
            }]
        )
        .as_deref(),
        Some("check returned OK")
    );
    assert_eq!(
        fires(
            "tool_result",
            json!({"tool": "check", "response_code": "OK", "negated": true}),
            &[Action::CallTool {
                tool: "check".into(),
                response_code: "FAIL".into()
            }]
        )
        .as_deref(),
        Some("check returned FAIL, not OK")
    );
    assert_eq!(
        fires(
            "tool_result",
            json!({"tool": "check", "response_code": "OK", "negated": true}),
            &[]
        ),
        None,
        "no call yet: false either way"
    );
    assert_eq!(
        fires(
            "tool_result",
            json!({"tool": "check", "response_code": "OK"}),
            &[]
        ),
        None
    );
    assert_eq!(
        fires("goal_achieved", json!({}), &[set("name", json!("x"))]),
        None,
        "never true outside a goal state"
    );
    assert!(fires(
        "all_tasks_complete",
        json!({}),
        &[Action::Complete {
            task_id: "t".into()
        }]
    )
    .is_some());
    assert_eq!(
        fires(
            "turn_count_exceeded",
            json!({"turns": 1, "scope": "total"}),
            &[]
        )
        .as_deref(),
        Some("1 turn in this state (limit 1)")
    );
}

#[test]
fn composites_are_evaluated_to_any_depth() {
    let tree = json!({"operator": "and", "conditions": [
        {"condition_type": "any_of", "condition_config": {"conditions": [
            {"condition_type": "deliverable_value_numeric", "condition_config": {"key": "n", "operator": "gte", "value": 8}},
            {"condition_type": "all_of", "condition_config": {"conditions": [
                {"condition_type": "deliverable_value", "condition_config": {"key": "c", "value": "billing"}},
                {"condition_type": "deliverable_exists", "condition_config": {"key": "name"}}]}}]}},
        {"condition_type": "compound", "condition_config": {"operator": "or", "conditions": [
            {"condition_type": "deliverable_value", "condition_config": {"key": "flag", "value": true}}]}}]});
    let base = [set("flag", json!(true))];
    assert_eq!(
        fires(
            "compound",
            tree.clone(),
            &[base[0].clone(), set("n", json!(9))]
        )
        .as_deref(),
        Some("n = 9 ≥ 8 and flag = true")
    );
    assert_eq!(
        fires(
            "compound",
            tree.clone(),
            &[
                base[0].clone(),
                set("c", json!("billing")),
                set("name", json!("Ada"))
            ]
        )
        .as_deref(),
        Some("c = billing and name is known (Ada) and flag = true")
    );
    assert_eq!(
        fires(
            "compound",
            tree.clone(),
            &[base[0].clone(), set("c", json!("billing"))]
        ),
        None,
        "the inner all_of is not complete"
    );
    assert_eq!(
        fires("compound", tree, &[set("n", json!(9))]),
        None,
        "the and needs flag"
    );
}

// ---- the simulator ----

fn sim_plan() -> Plan {
    plan(
        json!({"id": "p", "title": "P", "tools": [{"name": "classify", "response_codes": ["Ratenzahlung gewünscht"]}],
        "states": [
        {"id": "a", "title": "A", "instructions": "Be kind.", "allowed_tools": ["classify"], "tasks": [{"id": "t", "deliverables": [
            {"key": "issue", "type": "enum", "enum_values": ["billing", "technical_support"], "description": "What the issue is about"},
            {"key": "ref", "type": "number"},
            {"key": "ok", "type": "boolean"},
            {"key": "note_text"}]}],
         "transitions": [{"target_state_id": "b", "condition_type": "deliverable_exists", "condition_config": {"key": "never"}}]},
        {"id": "b", "title": "B", "tasks": [{"id": "never", "deliverables": [{"key": "never"}]}]}]}),
    )
}

fn chat_with(p: &Plan) -> Chat<'_, Simulator> {
    let r = PlanRef {
        id: "p".into(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    Chat::open(p, &Simulator, r).expect("opens").0
}

#[test]
fn the_simulator_reads_commands_with_the_rest_of_the_line_as_the_last_argument() {
    let p = sim_plan();
    let chat = chat_with(&p);
    let actions = Simulator.actions(
        &p,
        &chat.session,
        "/set ref 1\n  /tool classify Ratenzahlung gewünscht\n/insight calm and polite",
        &NO_TOOLS,
    );
    assert_eq!(
        actions,
        [
            Action::Record {
                key: "ref".into(),
                value: json!("1"),
                quote: None
            },
            Action::CallTool {
                tool: "classify".into(),
                response_code: "Ratenzahlung gewünscht".into()
            },
            Action::Insight {
                text: "calm and polite".into()
            },
        ]
    );
    let mut chat = chat;
    chat.say("/set ref 1").expect("turn");
    assert_eq!(chat.session.deliverables["ref"].value, json!(1));
}

#[test]
fn the_simulator_reads_plain_answers_by_the_type_of_the_focus() {
    let p = sim_plan();
    let mut chat = chat_with(&p);
    assert_eq!(
        chat.session.last_reply(),
        Some("Be kind.\nPlease tell me what the issue is about (billing or technical_support).\n(Tools here: classify → Ratenzahlung gewünscht. Type /tool NAME CODE to call one.)")
    );
    chat.say("it's a Technical Support thing, not billing")
        .expect("turn");
    assert_eq!(
        chat.session.deliverables["issue"].value,
        json!("technical_support"),
        "the first one named"
    );
    chat.say("my reference is AC-778").expect("turn");
    assert_eq!(chat.session.deliverables["ref"].value, json!(778));
    chat.say("yep, correct").expect("turn");
    assert_eq!(chat.session.deliverables["ok"].value, json!(true));
    chat.say("   free text here  ").expect("turn");
    assert_eq!(
        chat.session.deliverables["note_text"].value,
        json!("free text here")
    );
    assert_eq!(
        chat.session.deliverables["note_text"].quote.as_deref(),
        Some("free text here")
    );
}

#[test]
fn a_number_is_negative_only_with_a_minus_at_the_start_or_after_a_space() {
    let p = sim_plan();
    let mut chat = chat_with(&p);
    chat.say("billing").expect("turn");
    let answer = |text: &str| {
        let actions = Simulator.actions(&p, &chat.session, text, &NO_TOOLS);
        match actions.as_slice() {
            [Action::Record { value, .. }] => value.clone(),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(answer("-5 degrees"), json!(-5));
    assert_eq!(answer("it is -2.5 now"), json!(-2.5));
    assert_eq!(answer("AC-778"), json!(778));
    assert!(Simulator
        .actions(&p, &chat.session, "no digits", &NO_TOOLS)
        .is_empty());
}

#[test]
fn key_value_lines_win_over_the_focus() {
    let p = sim_plan();
    let mut chat = chat_with(&p);
    chat.say("ref: 12\nnote_text: call back later")
        .expect("turn");
    assert_eq!(chat.session.deliverables["ref"].value, json!(12));
    assert_eq!(
        chat.session.deliverables["note_text"].value,
        json!("call back later")
    );
    assert!(!chat.session.deliverables.contains_key("issue"));
}

#[test]
fn the_simulator_closes_a_goal_after_plain_text_but_not_after_commands_only() {
    let p = goal_plan(json!([{"target_state_id": "next"}]));
    let r = PlanRef {
        id: "g".into(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    let (mut chat, opening) = Chat::open(&p, &Simulator, r.clone()).expect("opens");
    assert_eq!(opening.reply, "Please tell me the need.");
    chat.say("/set need a plan").expect("turn");
    assert_eq!(
        chat.session.state_id, "ask",
        "commands only never close the goal"
    );
    assert_eq!(chat.session.last_reply(), Some("Our goal: learn the plan."));
    chat.say("that is all I need").expect("turn");
    assert_eq!(chat.session.state_id, "next");
    let (mut chat, _) = Chat::open(&p, &Simulator, r).expect("opens");
    chat.say("Never mind.").expect("turn");
    assert_eq!(
        chat.session.state_id, "next",
        "a give-up phrase gives the goal up"
    );
    assert!(
        !chat.session.deliverables.contains_key("need"),
        "and is not an answer"
    );
}

#[test]
fn a_goal_reply_asks_for_an_optional_key_a_route_reads() {
    let p = goal_plan(json!([
        {"target_state_id": "low", "condition_type": "deliverable_value", "condition_config": {"key": "mood", "value": "low"}}
    ]));
    let r = PlanRef {
        id: "g".into(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    let (mut chat, _) = Chat::open(&p, &Simulator, r).expect("opens");
    chat.say("/set need sleep").expect("turn");
    assert_eq!(
        chat.session.last_reply(),
        Some("Please tell me the mood (low or high).")
    );
    chat.say("quite low").expect("turn");
    assert_eq!(chat.session.state_id, "low");
}

#[test]
fn a_session_survives_json_and_continues_identically() {
    let p = sim_plan();
    let mut chat = chat_with(&p);
    chat.say("billing").expect("turn");
    let saved = serde_json::to_string(&chat.session).expect("serializes");
    let reloaded: Session = serde_json::from_str(&saved).expect("reads back");
    assert_eq!(reloaded, chat.session);
    let mut other = Chat::resume(&p, &Simulator, reloaded);
    chat.say("42").expect("turn");
    other.say("42").expect("turn");
    assert_eq!(
        serde_json::to_string(&chat.session).expect("json"),
        serde_json::to_string(&other.session).expect("json")
    );
}

// ---- starting from a state, tool results, coverage (issue 16) ----

fn routed() -> Plan {
    plan(json!({"id": "p", "title": "P",
        "tools": [{"name": "lookup", "response_codes": ["FOUND", "MISSING"]}],
        "states": [
        {"id": "intake", "title": "Intake", "tasks": [{"id": "classify", "deliverables": [
            {"key": "issue_type", "type": "enum", "enum_values": ["billing", "technical"]}]}],
         "transitions": [
            {"target_state_id": "billing", "condition_type": "deliverable_value", "condition_config": {"key": "issue_type", "value": "billing"}},
            {"target_state_id": "technical", "condition_type": "deliverable_value", "condition_config": {"key": "issue_type", "value": "technical"}, "priority": 2}]},
        {"id": "billing", "title": "Billing", "allowed_tools": ["lookup"],
         "transitions": [{"target_state_id": "done", "condition_type": "tool_result", "condition_config": {"tool": "lookup", "response_code": "MISSING"}}]},
        {"id": "technical", "title": "Technical", "tasks": [{"id": "fix", "deliverables": [{"key": "fixed", "type": "boolean"}]}],
         "transitions": [{"target_state_id": "done"}]},
        {"id": "done", "title": "Done"}]}))
}

fn file_ref(p: &Plan) -> PlanRef {
    PlanRef {
        id: p.id.clone(),
        version: PlanVersion::File,
        content_hash: plan_core::hash::content_hash(p),
    }
}

#[test]
fn a_conversation_can_begin_in_any_state_with_values_already_known() {
    let p = routed();
    let from = Start {
        state: Some("technical".into()),
        deliverables: [("issue_type".to_string(), json!("Technical"))].into(),
        ..Start::default()
    };
    let (s, events) = start_from(&p, file_ref(&p), &from).expect("starts");
    assert_eq!(s.state_id, "technical");
    assert_eq!(s.path, ["technical"]);
    // Recorded at turn 0 in that state, without a quote, coerced to the enum's canonical value.
    let known = &s.deliverables["issue_type"];
    assert_eq!(
        (
            known.value.clone(),
            known.state_id.as_str(),
            known.turn,
            known.quote.clone()
        ),
        (json!("technical"), "technical", 0, None)
    );
    assert_eq!(
        texts(&events),
        [
            "issue_type = technical known from the start",
            "entered Technical"
        ]
    );
    // A value that finishes a task of the state completes it when the state is entered.
    let from = Start {
        state: Some("technical".into()),
        deliverables: [("fixed".to_string(), json!("yes"))].into(),
        ..Start::default()
    };
    let (s, _) = start_from(&p, file_ref(&p), &from).expect("starts");
    assert_eq!(s.visit.tasks[0].status, TaskStatus::Completed);
}

#[test]
fn a_start_naming_no_state_or_an_undeclared_key_or_a_wrong_value_is_refused() {
    let p = routed();
    let nowhere = Start {
        state: Some("nowhere".into()),
        ..Start::default()
    };
    assert_eq!(
        start_from(&p, file_ref(&p), &nowhere).unwrap_err(),
        RunError::UnknownState("nowhere".into())
    );
    let undeclared = Start {
        deliverables: [("mood".to_string(), json!("fine"))].into(),
        ..Start::default()
    };
    assert_eq!(
        start_from(&p, file_ref(&p), &undeclared).unwrap_err(),
        RunError::NotDeclared("mood".into())
    );
    let wrong = Start {
        deliverables: [("issue_type".to_string(), json!("weather"))].into(),
        ..Start::default()
    };
    let e = start_from(&p, file_ref(&p), &wrong).unwrap_err();
    assert!(matches!(e, RunError::BadPreset { .. }), "{e}");
    assert!(e.to_string().contains("enum"), "{e}");
}

#[test]
fn a_tool_called_without_a_code_returns_the_tests_choice_else_its_first_code() {
    let p = routed();
    let (mut chat, _) = Chat::open_from(
        &p,
        &Simulator,
        file_ref(&p),
        &Start {
            state: Some("billing".into()),
            ..Start::default()
        },
    )
    .expect("opens");
    let call = |code: &str| Action::CallTool {
        tool: "lookup".into(),
        response_code: code.into(),
    };
    assert_eq!(
        Simulator.actions(&p, &chat.session, "/tool lookup", &NO_TOOLS),
        [call("FOUND")]
    );
    let chosen: ToolResults = [("lookup".to_string(), "MISSING".to_string())].into();
    assert_eq!(
        Simulator.actions(&p, &chat.session, "/tool lookup", &chosen),
        [call("MISSING")]
    );
    chat.say_with("/tool lookup", &chosen).expect("turn");
    assert_eq!(chat.session.state_id, "done");
}

#[test]
fn a_script_starts_where_its_start_says_and_its_tools_return_what_it_says() {
    let p = routed();
    let script: script::Script = serde_json::from_value(json!({
        "start": {"state": "billing", "deliverables": {"issue_type": "billing"}},
        "tool_results": {"lookup": "FOUND"},
        "turns": [
            {"user": "/tool lookup", "expect": {"state": "billing"}},
            {"user": "/tool lookup", "tool_results": {"lookup": "MISSING"}, "expect": {"state": "done", "ended": "complete"}}
        ]}))
    .expect("a script");
    let run =
        script::run(&p, &Simulator, file_ref(&p), None, &script, &mut |_| Ok(())).expect("runs");
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    let opening = &run.record.opening;
    assert_eq!(opening.state, "billing");
    assert_eq!(opening.deliverables["issue_type"].value, json!("billing"));
    assert_eq!(
        texts(&opening.events),
        [
            "issue_type = billing known from the start",
            "entered Billing"
        ]
    );
    // `--from` wins over the script's start state.
    let run = script::run_from(
        &p,
        &Simulator,
        file_ref(&p),
        None,
        &script,
        Some("intake"),
        &mut |_| Ok(()),
    )
    .expect("runs");
    assert_eq!(run.record.opening.state, "intake");
}

#[test]
fn coverage_counts_the_transitions_the_conversations_took() {
    let p = routed();
    let script: script::Script = serde_json::from_value(json!({"turns": [
        {"user": "/set issue_type technical"}, {"user": "/set fixed yes"}, {"user": "thanks"}]}))
    .expect("a script");
    let run =
        script::run(&p, &Simulator, file_ref(&p), None, &script, &mut |_| Ok(())).expect("runs");
    let coverage = plan_core::coverage::Coverage::of_conversations(&p, [&run.record]);
    assert_eq!(
        coverage.taken(&p),
        [("intake", 1, "technical"), ("technical", 0, "done")]
    );
    assert_eq!(coverage.summary(&p), "2 of 4 transitions tested");
    assert_eq!(
        coverage.states.keys().collect::<Vec<_>>(),
        ["done", "intake", "technical"]
    );
    assert_eq!(
        coverage.untaken(&p),
        [("intake", 0, "billing"), ("billing", 0, "done")]
    );
}

#[test]
fn the_simulator_asks_a_question_written_as_one_as_it_is() {
    let p = plan(json!({"id": "pizza", "title": "Pizza", "states": [
        {"id": "confirm", "title": "Confirm", "type": "strict", "tasks": [
            {"id": "ok", "deliverables": [
                {"key": "confirmed", "type": "boolean", "description": "Shall I place the order?"}]},
            {"id": "size", "deliverables": [
                {"key": "size", "type": "enum", "enum_values": ["small", "large"],
                 "description": "The size of the pizza"}]}],
         "transitions": [{"target_state_id": "done"}]},
        {"id": "done", "title": "Done"}
    ]}));
    let (mut chat, opening) = simulated(&p);
    assert_eq!(opening.reply, "Shall I place the order (yes or no)?");
    chat.say("yes").expect("turn");
    assert_eq!(
        chat.session.last_reply(),
        Some("Please tell me the size of the pizza (small or large).")
    );
}

/// Choices the description already lists are said once, not again in brackets.
#[test]
fn the_simulator_says_choices_the_question_lists_once() {
    let p = plan(json!({"id": "pizza", "title": "Pizza", "states": [
        {"id": "order", "title": "Order", "type": "strict", "tasks": [
            {"id": "size", "deliverables": [
                {"key": "size", "type": "enum", "enum_values": ["small", "medium", "large"],
                 "description": "Small, medium or large?"}]},
            {"id": "ok", "deliverables": [
                {"key": "confirmed", "type": "boolean",
                 "description": "Shall I place the order, yes or no?"}]}],
         "transitions": [{"target_state_id": "done"}]},
        {"id": "done", "title": "Done"}
    ]}));
    let (mut chat, opening) = simulated(&p);
    assert_eq!(opening.reply, "Small, medium or large?");
    chat.say("large").expect("turn");
    assert_eq!(
        chat.session.last_reply(),
        Some("Shall I place the order, yes or no?")
    );
}
