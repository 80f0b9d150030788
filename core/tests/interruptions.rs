//! Interruptions at run time, rule by rule (`docs/interruptions.md`, "At run time"): each test runs
//! the vehicle-viewing sample or a small plan with the simulator and checks the session, the
//! events and the prompt.

use plan_core::parse_plan;
use plan_core::runtime::*;
use plan_core::Plan;
use serde_json::{json, Value};

static NO_TOOLS: ToolResults = ToolResults::new();

fn plan(v: Value) -> Plan {
    parse_plan(&v.to_string()).unwrap_or_else(|e| panic!("test plan parses: {e:?}"))
}

fn viewing() -> Plan {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../plans/vehicle-viewing.json"),
    )
    .expect("the sample is there");
    parse_plan(&text).expect("the sample parses")
}

fn begin(p: &Plan) -> Session {
    let r = PlanRef {
        id: p.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    start(p, r).expect("starts").0
}

fn say(p: &Plan, s: &Session, message: &str) -> (Session, Vec<Event>) {
    let actions = Simulator.actions(p, s, message, &NO_TOOLS);
    step(p, s, message, &actions).unwrap_or_else(|e| panic!("turn runs: {e}"))
}

fn talk(p: &Plan, messages: &[&str]) -> (Session, Vec<Event>) {
    let mut s = begin(p);
    let mut events = Vec::new();
    for m in messages {
        (s, events) = say(p, &s, m);
    }
    (s, events)
}

fn kinds(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            serde_json::to_value(&e.what).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

fn rejected(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.what {
            What::ActionRejected { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .collect()
}

fn interrupt(id: &str) -> Action {
    Action::Interrupt {
        interruption: id.into(),
    }
}

#[test]
fn a_yield_parks_the_visit_exactly_and_enters_the_target_instead_of_a_transition() {
    let p = viewing();
    let (before, _) = talk(&p, &["8842"]);
    let (s, events) = say(&p, &before, "Is there parking?");
    assert_eq!(s.state_id, "parking");
    let parked = s.parked.as_ref().expect("the booking is parked");
    assert_eq!(parked.state_id, "booking");
    assert_eq!(parked.interruption, "parking-question");
    assert_eq!(parked.since_turn, 2);
    assert_eq!(parked.ttl_turns, 3);
    // The visit as it was at the end of that turn's steps 2–5 (the turn counted in it).
    let mut visit = before.visit.clone();
    visit.total += 1;
    visit.without_progress += 1;
    assert_eq!(parked.visit.as_ref(), Some(&visit));
    assert_eq!(
        kinds(&events),
        ["action_accepted", "interrupted", "parked", "entered"]
    );
    assert!(!events.iter().any(|e| matches!(e.what, What::Transition(_))));
    assert!(
        !kinds(&events).contains(&"action_rejected".to_string()),
        "the phrase is not read as the date"
    );
    assert!(!s.deliverables.contains_key("date"));
}

#[test]
fn a_return_point_restores_the_parked_visit_without_an_entry_and_says_what_it_is_for() {
    let p = viewing();
    let (parked, _) = talk(&p, &["8842", "Is there parking?"]);
    let kept = parked.parked.clone().unwrap().visit.unwrap();
    let path = parked.path.clone();
    let (s, events) = say(&p, &parked, "by car");
    assert_eq!(s.state_id, "booking");
    assert!(s.parked.is_none());
    assert_eq!(s.visit.tasks, kept.tasks, "the task is where it was");
    assert_eq!(s.visit.since, kept.since);
    assert_eq!(s.visit.away, vec![[3, 3]], "turn 3 was said in the detour");
    // Into the return point is an entry; back to the booking is not.
    assert_eq!(s.path.len(), path.len() + 1);
    assert_eq!(s.path.last().map(String::as_str), Some("back-to-booking"));
    let k = kinds(&events);
    assert_eq!(k.last().map(String::as_str), Some("resumed"), "{k:?}");
    assert_eq!(s.returned_from.as_deref(), Some("back-to-booking"));
    let told = prompt(&p, &s);
    let back = told
        .find("back to your viewing")
        .expect("the return point's words");
    let task = told.find("Find out which vehicle").expect("the booking's");
    assert!(back < task, "the return point first: {told}");
    let reply = Simulator.reply_text(&p, &s);
    assert!(
        reply.starts_with("Good, that is noted.") && reply.contains("day and time"),
        "{reply}"
    );
    // The next turn is an ordinary one again.
    let (next, _) = say(&p, &s, "Tuesday 2pm");
    assert!(next.returned_from.is_none());
    assert_eq!(next.state_id, "confirm");
}

#[test]
fn what_was_said_in_the_detour_is_not_said_in_the_resumed_visit() {
    let mut s = begin(&viewing());
    s.transcript.clear();
    s.visit.since = 1;
    s.visit.away = vec![[3, 4]];
    for (turn, text) in [
        (2, "in the task"),
        (3, "away"),
        (4, "away too"),
        (5, "back"),
    ] {
        s.transcript.push(Line {
            role: Role::User,
            text: text.into(),
            turn,
            by: None,
        });
    }
    let said: Vec<String> = s.speech_this_visit().collect();
    assert_eq!(said, ["in the task", "back"]);
}

#[test]
fn abandon_drops_the_open_task_and_a_parked_one() {
    let p = viewing();
    let (s, events) = talk(&p, &["8842", "Is there parking?", "never mind"]);
    assert_eq!(s.state_id, "dropped");
    assert!(s.parked.is_none());
    let dropped: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.what {
            What::Dropped { state_id } => Some(state_id.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(dropped, ["parking", "booking"]);
    assert_eq!(s.ended.as_ref().map(|e| e.kind.as_str()), Some("complete"));
}

#[test]
fn a_state_that_cannot_be_interrupted_takes_only_a_preempt() {
    let p = viewing();
    let (at_confirm, _) = talk(&p, &["8842", "Tuesday 2pm"]);
    assert_eq!(at_confirm.state_id, "confirm");
    let (s, events) = step(&p, &at_confirm, "never mind", &[interrupt("never-mind")]).unwrap();
    assert_eq!(s.state_id, "confirm");
    assert_eq!(rejected(&events), ["'Confirmation' cannot be interrupted"]);
    let (s, _) = say(&p, &at_confirm, "I want a person please");
    assert_eq!(s.state_id, "person");
    assert_eq!(
        s.ended.as_ref().and_then(|e| e.reason.as_deref()),
        Some("asked_for_person")
    );
}

#[test]
fn no_second_detour_opens_while_a_task_is_parked() {
    let p = plan(json!({"id": "p", "title": "P", "start_state_id": "a",
        "states": [
          {"id": "a", "title": "A", "tasks": [{"id": "t", "deliverables": [{"key": "k"}]}], "transitions": [{"target_state_id": "z"}]},
          {"id": "q1", "title": "Q1", "tasks": [{"id": "t", "deliverables": [{"key": "j"}]}], "transitions": [{"target_state_id": "r"}]},
          {"id": "q2", "title": "Q2", "transitions": [{"target_state_id": "r"}]},
          {"id": "r", "title": "R", "ending": {"kind": "resume"}},
          {"id": "z", "title": "Z"}],
        "interruptions": [
          {"id": "one", "target_state_id": "q1"},
          {"id": "two", "target_state_id": "q2"}]}));
    let s = begin(&p);
    let (s, _) = step(&p, &s, "", &[interrupt("one")]).unwrap();
    assert_eq!(s.state_id, "q1");
    let (s2, events) = step(&p, &s, "", &[interrupt("two")]).unwrap();
    assert_eq!(s2.state_id, "q1");
    assert_eq!(
        rejected(&events),
        ["a task is already parked: finish the detour first"]
    );
    // At most one accepted per turn, and an unknown one is refused by name.
    let s = begin(&p);
    let (_, events) = step(
        &p,
        &s,
        "",
        &[interrupt("one"), interrupt("two"), interrupt("three")],
    )
    .unwrap();
    assert_eq!(
        rejected(&events),
        [
            "another interruption was accepted this turn already",
            "the plan has no interruption 'three'"
        ]
    );
}

#[test]
fn only_in_and_the_target_itself_limit_where_one_applies() {
    let p = viewing();
    let (at_confirm, _) = talk(&p, &["8842", "Tuesday 2pm"]);
    let (_, events) = step(&p, &at_confirm, "", &[interrupt("parking-question")]).unwrap();
    assert_eq!(
        rejected(&events),
        ["'Parking question' cannot fire in 'Confirmation'"]
    );
    let (at_parking, _) = talk(&p, &["8842", "parking?"]);
    let x = &p.interruptions[2];
    let here = p.state("person").unwrap();
    let mut s = at_parking.clone();
    s.state_id = "person".into();
    assert_eq!(
        interrupt::why_not(&p, here, &s, x).as_deref(),
        Some("the conversation is in 'A person takes over' already")
    );
}

/// A plan with a condition-fired interruption: `wants_human = true` takes over.
fn conditioned() -> Plan {
    plan(json!({"id": "p", "title": "P", "start_state_id": "a",
        "states": [
          {"id": "a", "title": "A", "type": "loose",
           "tasks": [{"id": "t", "deliverables": [{"key": "k"}, {"key": "wants_human", "type": "boolean", "required": false}]}],
           "transitions": [{"target_state_id": "z", "condition_type": "deliverable_value", "condition_config": {"key": "k", "value": "done"}}]},
          {"id": "h", "title": "Human", "type": "loose", "tasks": [{"id": "u", "deliverables": [{"key": "u"}]}],
           "transitions": [{"target_state_id": "a"}]},
          {"id": "z", "title": "Z"}],
        "interruptions": [
          {"id": "human", "kind": "abandon", "target_state_id": "h", "priority": 2,
           "condition": {"condition_type": "deliverable_value", "condition_config": {"key": "wants_human", "value": true}}},
          {"id": "other", "kind": "abandon", "target_state_id": "z", "priority": 2,
           "condition": {"condition_type": "deliverable_exists", "condition_config": {"key": "nothing_here"}}}]}))
}

#[test]
fn a_condition_that_stays_true_fires_once_and_again_only_after_being_false() {
    let p = conditioned();
    let s = begin(&p);
    let (s, _) = say(&p, &s, "/set wants_human yes");
    assert_eq!(s.state_id, "h");
    assert_eq!(s.spent_conditions, ["human"]);
    // Back in A with the condition still true: it does not fire again.
    let (s, _) = say(&p, &s, "/set u x");
    let (s, events) = say(&p, &s, "hello");
    assert_eq!(s.state_id, "a", "{:?}", kinds(&events));
    assert_eq!(s.spent_conditions, ["human"]);
    // False at step 6 once, then true again: it fires again.
    let (s, _) = say(&p, &s, "/set wants_human no");
    assert!(s.spent_conditions.is_empty());
    let (s, _) = say(&p, &s, "/set wants_human yes");
    assert_eq!(s.state_id, "h");
}

#[test]
fn the_winner_is_the_lowest_priority_then_the_earlier_one_and_it_beats_transitions() {
    let p = viewing();
    // "a person" and "parking" in one message: the simulator sends the first by array order;
    // an agent asking for both gets one accepted; the priorities decide among fired ones.
    let (at, _) = talk(&p, &["8842"]);
    let (s, _) = step(
        &p,
        &at,
        "",
        &[
            Action::Record {
                key: "date".into(),
                value: json!("Mon"),
                quote: None,
            },
            interrupt("parking-question"),
        ],
    )
    .unwrap();
    assert_eq!(
        s.state_id, "parking",
        "the interruption wins over the booking's transition"
    );
    let mut q = conditioned();
    q.interruptions[1].condition = q.interruptions[0].condition.clone();
    let s = begin(&q);
    let (s, _) = say(&q, &s, "/set wants_human yes");
    assert_eq!(s.state_id, "h", "a tie goes to the earlier one");
    q.interruptions[1].priority = plan_core::plan::Priority(1.0);
    let s = begin(&q);
    let (s, _) = say(&q, &s, "/set wants_human yes");
    assert_eq!(s.state_id, "z", "a lower priority wins");
}

#[test]
fn a_parked_task_is_forgotten_after_ttl_turns_and_is_entered_afresh_at_the_return_point() {
    let p = viewing();
    // Parked in turn 2 with ttl 3: it can be resumed up to turn 5, and is forgotten at its end.
    let (s, events) = talk(&p, &["8842", "parking?", "hmm", "well"]);
    assert!(
        s.parked.as_ref().unwrap().visit.is_some(),
        "{:?}",
        kinds(&events)
    );
    assert_eq!(s.parked.as_ref().unwrap().kept_until(), Some(5));
    let (s, events) = say(&p, &s, "let me think");
    let forgotten = s.parked.as_ref().expect("the slot stays taken");
    assert!(forgotten.visit.is_none());
    assert_eq!(
        kinds(&events).last().map(String::as_str),
        Some("parked_forgotten")
    );
    let path = s.path.len();
    let (s, events) = say(&p, &s, "bike");
    assert_eq!(s.state_id, "booking");
    assert!(s.parked.is_none());
    assert!(events.iter().any(|e| matches!(
        &e.what,
        What::Resumed { state_id, fresh: true } if state_id == "booking"
    )));
    assert_eq!(
        s.path.len(),
        path + 2,
        "the return point and the booking entered afresh"
    );
    assert_eq!(s.visit.since, s.turn);
}

#[test]
fn a_return_point_with_nothing_parked_ends_the_conversation() {
    let p = plan(json!({"id": "p", "title": "P", "start_state_id": "r",
        "states": [{"id": "r", "title": "R", "ending": {"kind": "resume"}}]}));
    let r = PlanRef {
        id: "p".into(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    let (s, _) = start(&p, r).unwrap();
    assert_eq!(s.ended.as_ref().map(|e| e.kind.as_str()), Some("complete"));
    assert!(s.parked.is_none());
}

#[test]
fn a_session_that_ends_otherwise_keeps_its_parked_task() {
    let p = plan(json!({"id": "p", "title": "P", "start_state_id": "a",
        "states": [
          {"id": "a", "title": "A", "tasks": [{"id": "t", "deliverables": [{"key": "k"}]}], "transitions": [{"target_state_id": "r"}]},
          {"id": "q", "title": "Q", "transitions": [{"target_state_id": "z"}]},
          {"id": "r", "title": "R", "ending": {"kind": "resume"}},
          {"id": "z", "title": "Z", "ending": {"kind": "hang_up"}}],
        "interruptions": [{"id": "q", "target_state_id": "q", "phrases": ["question"]}]}));
    let (s, _) = talk(&p, &["a question", "ok"]);
    assert_eq!(s.ended.as_ref().map(|e| e.kind.as_str()), Some("hang_up"));
    assert_eq!(s.parked.as_ref().map(|x| x.state_id.as_str()), Some("a"));
}

#[test]
fn ask_again_forgets_the_tasks_values_on_every_entry_and_visit_counts_read_the_path() {
    let p = viewing();
    let (s, events) = talk(&p, &["8842", "Tuesday 2pm", "no"]);
    assert_eq!(s.state_id, "reschedule");
    assert!(events.iter().any(|e| matches!(
        &e.what,
        What::Forgotten { keys } if keys == &["date".to_string()]
    )));
    assert!(!s.deliverables.contains_key("date"));
    assert!(
        s.deliverables.contains_key("vehicle_id"),
        "only ask_again tasks forget"
    );
    let (s, _) = talk(
        &p,
        &["8842", "Tue", "no", "Wed", "no", "Thu", "no", "Fri", "no"],
    );
    assert_eq!(s.path.iter().filter(|id| *id == "reschedule").count(), 3);
    assert_eq!(
        s.ended.as_ref().and_then(|e| e.reason.as_deref()),
        Some("reschedule_cap")
    );
}

#[test]
fn a_phrase_wins_over_a_goals_give_up_and_commands_come_first() {
    let p = plan(json!({"id": "p", "title": "P", "start_state_id": "g",
        "states": [
          {"id": "g", "title": "G", "type": "goal", "goal": {"objective": "o", "deliverables": [{"key": "k"}]},
           "transitions": [{"target_state_id": "z"}]},
          {"id": "d", "title": "Dropped"},
          {"id": "z", "title": "Z"}],
        "interruptions": [{"id": "nm", "kind": "abandon", "target_state_id": "d", "phrases": ["Never Mind"]}]}));
    let s = begin(&p);
    let actions = Simulator.actions(&p, &s, "/set k 1\nnever mind", &NO_TOOLS);
    assert_eq!(
        actions,
        [
            Action::Record {
                key: "k".into(),
                value: json!("1"),
                quote: None
            },
            interrupt("nm")
        ]
    );
    // Whole words only.
    let actions = Simulator.actions(&p, &s, "nevermindful", &NO_TOOLS);
    assert!(!actions.contains(&interrupt("nm")));
    let (s, _) = say(&p, &s, "/interrupt nm");
    assert_eq!(s.state_id, "d");
}

#[test]
fn a_session_with_a_parked_task_saved_and_read_back_takes_the_same_next_turn() {
    let p = viewing();
    let (s, _) = talk(&p, &["8842", "parking?"]);
    let text = serde_json::to_string(&s).unwrap();
    let back: Session = serde_json::from_str(&text).unwrap();
    assert_eq!(back, s);
    assert_eq!(say(&p, &back, "by bike"), say(&p, &s, "by bike"));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["parked"]["state_id"], "booking");
}

#[test]
fn renaming_a_state_rewires_interruptions_and_visit_counts() {
    let p = viewing();
    let renamed = plan_core::edit::apply(
        &p,
        &plan_core::edit::Command::RenameState {
            from: "reschedule".into(),
            to: "new-time".into(),
        },
    )
    .expect("renames")
    .plan;
    assert_eq!(renamed.interruptions[0].only_in, ["booking", "new-time"]);
    let confirm = renamed.state("confirm").unwrap();
    assert_eq!(
        confirm.transitions[0].condition_config["conditions"][0]["condition_config"]["state_id"],
        "new-time"
    );
    let renamed = plan_core::edit::apply(
        &renamed,
        &plan_core::edit::Command::RenameState {
            from: "parking".into(),
            to: "where-to-park".into(),
        },
    )
    .unwrap()
    .plan;
    assert_eq!(renamed.interruptions[0].target_state_id, "where-to-park");
    assert!(plan_core::validate(&renamed).diagnostics.is_empty());
}
