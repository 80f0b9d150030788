//! The test chat's decisions, tested without a browser on conversations of the sample plans.

use super::*;
use plan_core::runtime::script::{ChatRecord, Failure, Opening, TurnRecord};
use plan_core::runtime::Turn;

fn turn(n: u32, state: &str) -> TurnRecord {
    TurnRecord {
        turn: Turn {
            number: n,
            ..Turn::default()
        },
        state: state.into(),
        deliverables: Default::default(),
        session_states: Default::default(),
    }
}

/// The support sample talked to billing through the pure chat, as the shell's log has it.
fn billing_chat() -> ChatView {
    use plan_core::runtime::{Chat, PlanRef, PlanVersion, Simulator};
    let plan = plan_core::parse::parse_plan(include_str!("../../../plans/customer-support.json"))
        .expect("the sample parses");
    let plan_ref = PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::Draft,
        content_hash: String::new(),
    };
    let (mut chat, opening) = Chat::open(&plan, &Simulator, plan_ref).expect("it opens");
    let mut turns = vec![opening];
    for message in ["Chloe", "Chloe Martin", "CM-1", "it is about billing"] {
        turns.push(chat.say(message).expect("a turn"));
    }
    ChatView {
        id: plan.id.clone(),
        name: "chat".into(),
        revision: Revision::Draft,
        session: chat.session,
        start: Start::default(),
        turns,
        can_step_back: true,
        stale: None,
    }
}

/// What the explorer plays (and an author may type) is a command; the transcript says it in
/// words and keeps the command; the caller's own words stay as they were.
#[test]
fn a_callers_command_is_said_in_words_beside_the_command() {
    let plan = plan_core::parse::parse_plan(include_str!("../../../plans/customer-support.json"))
        .expect("the sample parses");
    let mut chat = billing_chat();
    let turn = chat.session.transcript[1].turn;
    chat.session.transcript[1].text = "/set issue_type billing".into();
    let lines = transcript_lines(&chat, AgentKind::Simulator, Some(&plan));
    let line = lines
        .iter()
        .find(|l| l.role == "user" && l.turn == turn)
        .expect("the caller's line");
    let words = line.words.as_deref().expect("said in words");
    assert!(words.starts_with("The caller gives "), "{words}");
    assert!(words.ends_with(": billing"), "{words}");
    assert_eq!(line.text, "/set issue_type billing");
    assert!(lines
        .iter()
        .filter(|l| l.text == "Chloe")
        .all(|l| l.words.is_none()));
}

#[test]
fn the_transcript_folds_each_turns_trace_and_prompt_under_the_agents_reply() {
    let chat = billing_chat();
    let lines = transcript_lines(&chat, AgentKind::Simulator, None);
    assert_eq!(lines.len(), chat.session.transcript.len());
    let said: Vec<&str> = lines
        .iter()
        .filter(|l| l.role == "user")
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(
        said,
        ["Chloe", "Chloe Martin", "CM-1", "it is about billing"]
    );
    for l in &lines {
        let agent = l.role == "agent";
        assert_eq!(!l.trace.is_empty(), agent, "{l:?}");
        assert_eq!(
            l.by, None,
            "only the simulator answered: nothing to tell apart"
        );
    }
}

#[test]
fn the_session_state_panel_says_value_flag_and_who_changed_it_this_turn() {
    use plan_core::runtime::{Chat, PlanRef, PlanVersion, Simulator};
    let plan = plan_core::parse::parse_plan(include_str!("../../../plans/account-care.json"))
        .expect("the sample parses");
    let plan_ref = PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::Draft,
        content_hash: String::new(),
    };
    let (mut chat, _) = Chat::open(&plan, &Simulator, plan_ref).expect("it opens");
    for m in ["Ada", "billing"] {
        chat.say(m).expect("a turn");
    }
    let t = chat.say("/tool verify_identity VERIFIED").expect("a turn");
    let rows = session_rows(&plan, &chat.session, &t.events);
    let row = |id: &str| rows.iter().find(|r| r.id == id).cloned().unwrap();
    assert_eq!(rows.len(), plan.session_states.len());
    assert!(row("identity_verified").active);
    assert_eq!(row("identity_verified").value, "true");
    assert_eq!(
        row("identity_verified").changed_by.as_deref(),
        Some("changed by the transition")
    );
    assert_eq!(
        row("servicing").changed_by.as_deref(),
        Some("changed with its parent or an exclusive peer")
    );
    assert!(row("courtesy").active && row("courtesy").changed_by.is_none());
    assert!(row("billing_mode").prompt);
}

#[test]
fn the_canvas_lights_the_current_state_the_path_and_the_last_move_with_its_why() {
    let chat = billing_chat();
    let m = marks(Some(&chat), None, None);
    assert_eq!(m.current.as_deref(), Some("billing-support"));
    assert!(m.visited.contains("greeting") && m.visited.contains("customer-intake"));
    assert!(!m.visited.contains("technical-support"));
    let (from, index, why) = m.fired.expect("the last turn moved");
    assert_eq!((from.as_str(), index), ("customer-intake", 0));
    assert_eq!(
        why,
        "moved to Billing support because issue_type = billing (priority 1)"
    );
    assert!(m.covered.is_none(), "no suite has run");
}

#[test]
fn a_failing_case_is_lit_where_it_was_at_the_turn_it_failed() {
    let case = CaseRun {
        name: "c".into(),
        file: Default::default(),
        passed: false,
        turns: 3,
        failures: vec![Failure {
            turn: 2,
            message: "expected state 'billing'".into(),
        }],
        record: Some(ChatRecord {
            opening: Opening {
                agent: String::new(),
                state: "greeting".into(),
                events: Vec::new(),
                deliverables: Default::default(),
                session_states: Default::default(),
                prompt: String::new(),
                parked: None,
            },
            turns: vec![turn(1, "intake"), turn(2, "technical"), turn(3, "farewell")],
            ended: None,
        }),
    };
    let m = marks(None, Some(&case), None);
    assert_eq!(m.current.as_deref(), Some("technical"));
    assert_eq!(label(Revision::Version(2)), "Testing version 2");
}

#[test]
fn the_parked_task_says_where_since_when_and_until_when() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../plans/vehicle-viewing.json"),
    )
    .unwrap();
    let plan = plan_core::parse_plan(&text).unwrap();
    let r = plan_core::runtime::PlanRef {
        id: plan.id.clone(),
        version: plan_core::runtime::PlanVersion::File,
        content_hash: String::new(),
    };
    let mut chat = plan_core::runtime::Chat::open(&plan, &plan_core::runtime::Simulator, r)
        .unwrap()
        .0;
    assert_eq!(parked_text(&plan, &chat.session), None);
    chat.say("8842").unwrap();
    chat.say("Is there parking?").unwrap();
    let (id, said) = parked_text(&plan, &chat.session).unwrap();
    assert_eq!(id, "booking");
    assert_eq!(
        said,
        "Booking a viewing, parked at turn 2 for Parking question; forgotten after turn 5 unless the detour ends"
    );
    let m = marks(None, None, None);
    assert_eq!(m.parked, None);
}
