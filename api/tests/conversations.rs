//! Test conversations through the API the app's Chat tab and `plan chat` share (issue 16): a
//! conversation begun from any state, its turns saved with their trace, a turn taken back, the
//! last conversation found again (and refused to go on once its plan changed), saved as a test
//! case, and the suite run with its coverage.

use plan_api::conversations::{self, Conversation, StartChat};
use plan_api::{Context, ErrorCode};
use plan_core::runtime::{Start, ToolResults};
use plan_core::Revision;
use serde_json::json;

fn workspace(name: &str) -> Context {
    let root =
        std::env::temp_dir().join(format!("api-conversations-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    Context::open(&root, || "2026-12-02T10:00:00Z".into()).expect("a workspace")
}

fn support(from: Start) -> StartChat {
    StartChat {
        id: "customer-support".into(),
        revision: Some(Revision::Draft),
        start: from,
    }
}

fn say(c: &mut Conversation, message: &str) {
    c.say(message, &ToolResults::new()).expect("a turn");
}

#[test]
fn every_turn_is_saved_with_its_trace_and_the_conversation_goes_on_after_a_restart() {
    let ctx = workspace("resume");
    let mut c = Conversation::start(&ctx, &support(Start::default())).expect("starts");
    let name = c.name().to_string();
    for m in ["Chloe", "Chloe Martin", "CM-1", "it is about billing"] {
        say(&mut c, m);
    }
    assert_eq!(c.session().state_id, "billing-support");
    // As the app finds it again when it opens.
    let view = conversations::latest(&ctx, "customer-support")
        .expect("reads")
        .expect("a conversation");
    assert_eq!(
        (view.name.as_str(), view.stale.as_deref()),
        (name.as_str(), None)
    );
    assert_eq!(view.session, *c.session());
    assert_eq!(view.turns.len(), 5, "the opening and four turns");
    let fired = view.turns[4].transition.as_ref().expect("moved");
    assert_eq!(fired.why, "issue_type = billing");
    // And goes on from there.
    let view = conversations::say(
        &ctx,
        "customer-support",
        &name,
        "I was charged twice",
        &ToolResults::new(),
    )
    .expect("a turn");
    assert_eq!(view.session.turn, 5);
}

#[test]
fn a_turn_taken_back_restores_the_session_it_started_from() {
    let ctx = workspace("step-back");
    let mut c = Conversation::start(&ctx, &support(Start::default())).expect("starts");
    let name = c.name().to_string();
    for m in ["Chloe", "Chloe Martin", "CM-1"] {
        say(&mut c, m);
    }
    let before = c.session().clone();
    say(&mut c, "it is about billing");
    assert_eq!(c.session().state_id, "billing-support");
    let back = conversations::step_back(&ctx, "customer-support", &name).expect("steps back");
    assert_eq!(back.session, before);
    assert_eq!(back.turns.len(), 4);
    // Another answer, from where it was.
    let other = conversations::say(
        &ctx,
        "customer-support",
        &name,
        "a technical problem",
        &ToolResults::new(),
    )
    .expect("a turn");
    assert_eq!(other.session.state_id, "technical-support");
    // Back to the opening, then nothing more to take back.
    for _ in 0..4 {
        conversations::step_back(&ctx, "customer-support", &name).expect("steps back");
    }
    let e = conversations::step_back(&ctx, "customer-support", &name).unwrap_err();
    assert_eq!(e.code, ErrorCode::Refused);
}

#[test]
fn a_conversation_whose_plan_changed_is_offered_a_restart_not_resumed() {
    let ctx = workspace("stale");
    let c = Conversation::start(&ctx, &support(Start::default())).expect("starts");
    let name = c.name().to_string();
    let ws = ctx.workspace();
    let mut draft = ws.read_draft("customer-support").unwrap();
    std::sync::Arc::make_mut(&mut draft.states[0]).title = "Hello".into();
    ws.save_draft("customer-support", &draft).unwrap();
    let view = conversations::latest(&ctx, "customer-support")
        .unwrap()
        .unwrap();
    assert!(
        view.stale
            .as_deref()
            .is_some_and(|s| s.contains("has changed since")),
        "{:?}",
        view.stale
    );
    let e =
        conversations::say(&ctx, "customer-support", &name, "hi", &ToolResults::new()).unwrap_err();
    assert_eq!(e.code, ErrorCode::Stale);
}

#[test]
fn a_conversation_goes_on_when_only_cards_moved_in_its_plan() {
    let ctx = workspace("moved");
    let mut c = Conversation::start(&ctx, &support(Start::default())).expect("starts");
    let name = c.name().to_string();
    say(&mut c, "Chloe");
    let ws = ctx.workspace();
    let mut draft = ws.read_draft("customer-support").unwrap();
    for p in draft.layout.values_mut() {
        p.x += 120.0;
    }
    ws.save_draft("customer-support", &draft).unwrap();
    let view = conversations::latest(&ctx, "customer-support")
        .unwrap()
        .unwrap();
    assert_eq!(view.stale, None);
    let view = conversations::say(
        &ctx,
        "customer-support",
        &name,
        "Chloe Martin",
        &ToolResults::new(),
    )
    .expect("goes on");
    assert_eq!(view.session.state_id, "customer-intake");
    let view = conversations::step_back(&ctx, "customer-support", &name).expect("steps back");
    assert_eq!(view.turns.len(), 2);
    // A change that runs differently still ends it.
    std::sync::Arc::make_mut(&mut draft.states[1]).transitions[0]
        .priority
        .0 = 20.0;
    ws.save_draft("customer-support", &draft).unwrap();
    let e = conversations::say(
        &ctx,
        "customer-support",
        &name,
        "Chloe Martin",
        &ToolResults::new(),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::Stale);
}

#[test]
fn test_from_here_begins_in_the_state_with_the_values_known() {
    let ctx = workspace("from-here");
    let from = Start {
        state: Some("technical-support".into()),
        deliverables: [("issue_type".to_string(), json!("technical"))].into(),
        ..Start::default()
    };
    let c = Conversation::start(&ctx, &support(from.clone())).expect("starts");
    assert_eq!(c.session().state_id, "technical-support");
    assert_eq!(c.session().deliverables["issue_type"].turn, 0);
    let view = c.view();
    assert_eq!(view.start, from, "kept, for a restart and a saved case");
    let e = Conversation::start(
        &ctx,
        &support(Start {
            state: Some("nowhere".into()),
            ..Start::default()
        }),
    )
    .err()
    .expect("refused");
    assert_eq!(e.code, ErrorCode::Refused);
}

#[test]
fn a_conversation_saved_as_a_test_case_passes_and_a_changed_plan_fails_it_at_its_turn() {
    let ctx = workspace("case");
    let mut c = Conversation::start(&ctx, &support(Start::default())).expect("starts");
    for m in ["Chloe", "Chloe Martin", "CM-1", "it is about billing"] {
        say(&mut c, m);
    }
    let case = conversations::case_of(&c.view());
    assert_eq!(case.turns.len(), 4);
    let last = case.turns[3].expect.as_ref().unwrap();
    assert_eq!(last.state.as_deref(), Some("billing-support"));
    assert_eq!(
        last.deliverables.as_ref().unwrap()["issue_type"],
        json!("billing")
    );
    let saved =
        conversations::save_case(&ctx, "customer-support", "invoice", &case).expect("saved");
    assert_eq!(saved.file, "tests/invoice.json");
    let again = conversations::save_case(&ctx, "customer-support", "invoice", &case).unwrap_err();
    assert_eq!(again.code, ErrorCode::Exists);

    let run =
        conversations::run_suite(&ctx, "customer-support", None, &mut |_, _| {}).expect("runs");
    assert!(
        run.cases.iter().all(|c| c.passed),
        "{:?}",
        run.cases.iter().map(|c| &c.failures).collect::<Vec<_>>()
    );
    assert_eq!(
        run.coverage_summary,
        format!("{} of 7 transitions tested", run.coverage.transitions.len())
    );

    // Billing's route swapped with technical's: the case fails at turn 4, where it went elsewhere.
    let ws = ctx.workspace();
    let mut draft = ws.read_draft("customer-support").unwrap();
    let intake = draft
        .states_mut()
        .find(|s| s.id == "customer-intake")
        .unwrap();
    let (a, b) = (
        intake.transitions[0].target_state_id.clone(),
        intake.transitions[1].target_state_id.clone(),
    );
    intake.transitions[0].target_state_id = b;
    intake.transitions[1].target_state_id = a;
    ws.save_draft("customer-support", &draft).unwrap();
    let mut seen = Vec::new();
    let run = conversations::run_suite(&ctx, "customer-support", None, &mut |done, total| {
        seen.push((done, total))
    })
    .expect("runs");
    let failed = run.cases.iter().find(|c| c.name == "invoice").unwrap();
    assert!(!failed.passed);
    assert_eq!(failed.failures[0].turn, 4, "{:?}", failed.failures);
    assert!(failed.failures[0]
        .message
        .contains("expected state 'billing-support'"));
    assert!(
        failed.record.is_some(),
        "a failing case keeps its conversation"
    );
    assert_eq!(seen.last(), Some(&(4, 4)));
}

#[test]
fn a_plan_is_read_again_only_when_its_file_changed() {
    let ctx = workspace("targets");
    let draft = Some(Revision::Draft);
    let first = ctx.target("customer-support", draft).expect("runs");
    let again = ctx.target("customer-support", draft).expect("runs");
    assert!(std::sync::Arc::ptr_eq(&first, &again), "kept between turns");
    let ws = ctx.workspace();
    let mut plan = ws.read_draft("customer-support").unwrap();
    std::sync::Arc::make_mut(&mut plan.states[0]).title = "Hello there".into();
    ws.save_draft("customer-support", &plan).unwrap();
    let changed = ctx.target("customer-support", draft).expect("runs");
    assert_eq!(changed.plan.states[0].title, "Hello there");
    assert_ne!(changed.plan_ref.content_hash, first.plan_ref.content_hash);
    // A draft with an error is refused every time, never served from before.
    plan.start_state_id = Some("nowhere".into());
    ws.save_draft("customer-support", &plan).unwrap();
    let e = ctx.target("customer-support", draft).unwrap_err();
    assert_eq!(e.code, ErrorCode::HasErrors);
}

/// Interruptions (issue 18): a conversation saved with a parked task is found again after a
/// restart exactly as it was, and its next turn brings the parked task back.
#[test]
fn a_conversation_with_a_parked_task_resumes_after_a_restart_exactly() {
    let ctx = workspace("parked");
    let request = StartChat {
        id: "vehicle-viewing".into(),
        revision: Some(Revision::Draft),
        start: Start::default(),
    };
    let mut c = Conversation::start(&ctx, &request).expect("starts");
    let name = c.name().to_string();
    say(&mut c, "8842");
    say(&mut c, "Is there parking?");
    let parked = c.session().parked.clone().expect("the booking is parked");
    assert_eq!(parked.state_id, "booking");
    let view = conversations::latest(&ctx, "vehicle-viewing")
        .expect("reads")
        .expect("a conversation");
    assert_eq!(view.session, *c.session(), "saved exactly");
    assert_eq!(view.turns[2].parked.as_deref(), Some("booking"));
    let view = conversations::say(
        &ctx,
        "vehicle-viewing",
        &name,
        "by car",
        &ToolResults::new(),
    )
    .expect("a turn");
    assert_eq!(view.session.state_id, "booking");
    assert!(view.session.parked.is_none());
    assert_eq!(view.session.visit.tasks, parked.visit.unwrap().tasks);
    // Saved as a test case, it expects what is parked after every turn, and passes.
    let script = conversations::case_of(&view);
    let expected: Vec<Option<Option<String>>> = script
        .turns
        .iter()
        .map(|t| t.expect.as_ref().and_then(|e| e.parked.clone()))
        .collect();
    assert_eq!(
        expected,
        [Some(None), Some(Some("booking".into())), Some(None)]
    );
}

/// A log that cannot be read is said, naming the file, wherever the conversation is read again (to
/// go on, to take a turn back, to be shown): its history is never dropped silently. A session
/// without a log (written before logs were kept) goes on with an empty history.
#[test]
fn a_corrupt_log_is_an_error_that_names_the_file_and_a_missing_one_an_empty_history() {
    let ctx = workspace("corrupt-log");
    let mut c = Conversation::start(&ctx, &support(Start::default())).expect("starts");
    let name = c.name().to_string();
    say(&mut c, "Chloe");
    let log = ctx
        .workspace()
        .session_log_path("customer-support", &name)
        .unwrap();
    let kept = std::fs::read(&log).unwrap();
    std::fs::write(&log, b"{\"turns\": [").unwrap();
    let e = Conversation::resume(&ctx, "customer-support", &name)
        .err()
        .expect("refused");
    assert_eq!(e.code, ErrorCode::InvalidJson);
    assert!(
        e.message.contains(&log.display().to_string()) && e.message.contains("line 1"),
        "{}",
        e.message
    );
    let e = conversations::step_back(&ctx, "customer-support", &name).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidJson);
    let e = conversations::latest(&ctx, "customer-support").unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidJson);
    // The file as it was: the conversation goes on.
    std::fs::write(&log, &kept).unwrap();
    let mut c = Conversation::resume(&ctx, "customer-support", &name).expect("resumes");
    say(&mut c, "Chloe Martin");
    // No log at all: an empty history, and the conversation goes on.
    std::fs::remove_file(&log).unwrap();
    let mut c = Conversation::resume(&ctx, "customer-support", &name).expect("resumes");
    say(&mut c, "CM-1");
    assert_eq!(c.view().turns.len(), 1, "the history kept from now on");
}

/// One turn record everywhere: the log keeps the turns `plan chat` prints (`agent` for the reply),
/// one JSON line each after the line that says how the conversation began; and a conversation
/// saved in the earlier format (a whole session, a log of `reply`s rewritten whole, `"user": null`
/// at the opening) still reads, turn for turn, and is written in the new one at its next turn.
#[test]
fn a_log_keeps_the_turns_plan_chat_prints_and_an_older_log_still_reads() {
    let ctx = workspace("log-shape");
    let mut c = Conversation::start(&ctx, &support(Start::default())).expect("starts");
    let name = c.name().to_string();
    say(&mut c, "Chloe");
    let logged = c.view().turns[1].clone();
    let record = c.record_of(&logged);
    let ws = ctx.workspace();
    let path = ws.session_log_path("customer-support", &name).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "began, the opening, turn 1: {text}");
    assert!(lines[0].get("began").is_some());
    let turn = &lines[2]["turn"]["turn"];
    let printed = serde_json::to_value(&record).unwrap();
    for field in [
        "turn",
        "user",
        "agent",
        "events",
        "transition",
        "prompt",
        "parked",
    ] {
        assert_eq!(turn[field], printed[field], "{field}");
    }
    assert!(printed.get("state").is_some() && turn.get("state").is_none());

    // The same conversation as the earlier format kept it.
    let session_file = path
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join(format!("{name}.json"));
    let mut turns: Vec<serde_json::Value> = c
        .view()
        .turns
        .iter()
        .map(|t| serde_json::to_value(t).unwrap())
        .collect();
    for turn in &mut turns {
        let reply = turn.as_object_mut().unwrap().remove("agent").unwrap();
        turn["reply"] = reply;
    }
    turns[0]["user"] = serde_json::Value::Null;
    let older = serde_json::json!({
        "start": {},
        "turns": turns,
        "before": [],
        "runs": null,
    });
    std::fs::remove_file(&path).unwrap();
    let old_log = path.with_extension("json");
    std::fs::write(&old_log, serde_json::to_vec(&older).unwrap()).unwrap();
    std::fs::write(&session_file, serde_json::to_vec(c.session()).unwrap()).unwrap();
    let mut again = Conversation::resume(&ctx, "customer-support", &name).expect("resumes");
    assert_eq!(again.view().turns, c.view().turns);
    assert_eq!(again.session(), c.session());
    say(&mut again, "Chloe Martin");
    assert!(!old_log.exists(), "the earlier log is replaced");
    let (session, log) = ws.read_conversation("customer-support", &name).unwrap();
    assert_eq!(&session, again.session());
    assert_eq!(log.turns.len(), 3);
    assert!(log.can_step_back(), "the turn said since is taken back");
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&session_file).unwrap()).unwrap();
    assert_eq!(saved["logged"]["transcript"], session.transcript.len());
}

/// A turn writes its log, then its session (a step back the other way round): whatever stops the
/// second write (a kill, a full disk), the log is the one ahead, and reading the conversation
/// drops what it holds past the session. The last turn is in both files or in neither, and the
/// conversation goes on from the session as if that turn had never been said.
#[test]
fn a_turn_cut_off_between_its_two_files_is_in_both_or_in_neither() {
    let ctx = workspace("cut-off");
    let mut c = Conversation::start(&ctx, &support(Start::default())).expect("starts");
    let name = c.name().to_string();
    for m in ["Chloe", "Chloe Martin", "CM-1"] {
        say(&mut c, m);
    }
    let ws = ctx.workspace();
    let session_file = ws
        .draft_path("customer-support")
        .unwrap()
        .with_file_name("sessions")
        .join(format!("{name}.json"));
    let after_three = std::fs::read(&session_file).unwrap();
    say(&mut c, "it is about billing");
    // The turn's log was written; its session was not.
    std::fs::write(&session_file, &after_three).unwrap();
    let view = conversations::latest(&ctx, "customer-support")
        .unwrap()
        .expect("a conversation");
    assert_eq!(view.session.turn, 3);
    assert_eq!(
        view.turns.last().map(|t| t.number),
        Some(3),
        "the log agrees with the session"
    );
    assert!(view.can_step_back);
    let mut again = Conversation::resume(&ctx, "customer-support", &name).expect("resumes");
    say(&mut again, "it is about billing");
    assert_eq!(again.session().turn, 4);
    assert_eq!(again.session().state_id, "billing-support");
    let view = conversations::latest(&ctx, "customer-support")
        .unwrap()
        .expect("a conversation");
    let numbers: Vec<u32> = view.turns.iter().map(|t| t.number).collect();
    assert_eq!(numbers, [0, 1, 2, 3, 4], "turn 4 once, as said again");
}
