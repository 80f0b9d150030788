//! The simulator: commands, plain answers, goal closing, its replies.

use super::*;

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
        Some("(Instructions: Be kind.)\nHello! Please tell me what the issue is about (billing or technical_support).\n(Tools here: classify → Ratenzahlung gewünscht. Type /tool NAME CODE to call one.)")
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
    assert_eq!(opening.reply, "Hello! Please tell me the need.");
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
    assert_eq!(opening.reply, "Hello! Shall I place the order (yes or no)?");
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
    assert_eq!(opening.reply, "Hello! Small, medium or large?");
    chat.say("large").expect("turn");
    assert_eq!(
        chat.session.last_reply(),
        Some("Shall I place the order, yes or no?")
    );
}

/// Confirm moves on only on "yes", or (the twin) on either answer.
fn confirming(arrows: Value) -> Plan {
    plan(json!({"id": "pizza", "title": "Pizza", "states": [
        {"id": "confirm", "title": "Confirm", "type": "loose", "instructions": "Read it back.",
         "tasks": [{"id": "confirm_order", "description": "Confirm the order.",
           "deliverables": [{"key": "confirmed", "type": "boolean",
             "description": "Whether the caller confirms"}]}],
         "transitions": arrows},
        {"id": "placed", "title": "Order placed"}]}))
}

#[test]
fn a_no_that_no_arrow_handles_is_said_in_the_reply_and_a_handled_one_is_not() {
    let on = |value: bool| {
        json!({"target_state_id": "placed", "condition_type": "deliverable_value",
               "condition_config": {"key": "confirmed", "value": value}})
    };
    let only_yes = confirming(json!([on(true)]));
    let (mut chat, _) = simulated(&only_yes);
    let reply = chat.say("no").expect("runs").reply;
    assert!(
        reply.contains("The caller gave 'no' for confirmed: no arrow leaves 'Confirm'"),
        "{reply}"
    );
    // Said again while the answer stands, gone once another moves on.
    assert!(chat.say("hmm").expect("runs").reply.contains("'no'"));
    let turn = chat.say("/set confirmed true").expect("runs");
    assert!(!turn.reply.contains("no arrow leaves"), "{}", turn.reply);
    // The twin: an arrow for "no" handles it; nothing waits.
    let both = confirming(json!([on(true), on(false)]));
    let (mut chat, _) = simulated(&both);
    let reply = chat.say("no").expect("runs").reply;
    assert!(!reply.contains("no arrow leaves"), "{reply}");
}

/// The first message greets; the state's instructions are shown as what the agent follows, in
/// brackets, and not said to the caller; a state entered later shows its own the same way.
#[test]
fn the_first_message_greets_and_instructions_are_shown_as_followed_not_said() {
    let on_yes = json!([{"target_state_id": "placed", "condition_type": "deliverable_value",
                         "condition_config": {"key": "confirmed", "value": true}}]);
    let p = confirming(on_yes);
    let (_, opening) = simulated(&p);
    assert_eq!(
        opening.reply,
        "(Instructions: Read it back.)\nHello! Please tell me whether the caller confirms (yes or no)."
    );
    // Later replies have no greeting.
    let (mut chat, _) = simulated(&p);
    let reply = chat.say("hmm").expect("runs").reply;
    assert!(!reply.contains("Hello"), "{reply}");
}
