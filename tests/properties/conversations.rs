//! The runtime's promises (issue 5): replaying the same inputs gives byte-identical sessions;
//! a session saved and reloaded continues identically; no message and no plan, however
//! broken, makes a turn panic.

use std::path::Path;

use plan_core::runtime::{Chat, PlanRef, PlanVersion, Session, Simulator};
use plan_core::{parse_plan, Plan};
use proptest::prelude::*;
use proptest::sample::select;

const SAMPLES: [&str; 5] = [
    "customer-support",
    "medical-intake",
    "daily-routine",
    "collections",
    "vehicle-viewing",
];

fn sample(id: &str) -> Plan {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../plans/{id}.json"));
    parse_plan(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Messages an author might type: answers, commands (good and bad), and any text at all.
pub fn message() -> impl Strategy<Value = String> {
    prop_oneof![
        select(vec![
            "yes",
            "no",
            "billing",
            "technical",
            "general",
            "severe",
            "mild",
            "moderate",
            "42",
            "AC-778",
            "-3.5 degrees",
            "skip",
            "never mind",
            "low",
            "high",
            "Tuesday morning",
            "/complete goodbye",
            "/complete advise",
            "/skip medications",
            "/tool verify_customer CUSTOMER_VERIFIED",
            "/tool classify Sofortzahlung",
            "/tool classify Ratenzahlung gewünscht",
            "/tool agree_installment_plan DECLINED",
            "/set risk_score 9",
            "/set issue_type Billing",
            "/close I",
            "/giveup skip",
            "/insight calm",
            "/bogus",
            "/set",
            "/tool",
            "issue_type: technical\ndevice: fax",
            "8842",
            "Is there parking?",
            "by car",
            "I want a person",
            "/interrupt parking-question",
            "/interrupt never-mind",
            "/interrupt nothing",
        ])
        .prop_map(String::from),
        "\\PC{0,40}",
        "[a-z /:\n0-9-]{0,30}",
    ]
}

fn open(plan: &Plan) -> Chat<'_, Simulator> {
    let r = PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::Draft,
        content_hash: plan_core::hash::content_hash(plan),
    };
    static SIM: Simulator = Simulator;
    Chat::open(plan, &SIM, r).unwrap().0
}

fn run(plan: &Plan, messages: &[String]) -> String {
    let mut chat = open(plan);
    for m in messages {
        if chat.say(m).is_err() {
            break;
        }
    }
    serde_json::to_string(&chat.session).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn replaying_the_same_inputs_gives_byte_identical_sessions(
        which in 0usize..5, messages in prop::collection::vec(message(), 0..14)
    ) {
        let plan = sample(SAMPLES[which]);
        prop_assert_eq!(run(&plan, &messages), run(&plan, &messages));
    }

    #[test]
    fn a_saved_and_reloaded_session_continues_identically(
        which in 0usize..5,
        messages in prop::collection::vec(message(), 1..14),
        cut in 0usize..14,
    ) {
        let plan = sample(SAMPLES[which]);
        let cut = cut % messages.len();
        let mut chat = open(&plan);
        for m in &messages[..cut] {
            let _ = chat.say(m);
        }
        let saved = serde_json::to_string(&chat.session).unwrap();
        let reloaded: Session = serde_json::from_str(&saved).unwrap();
        prop_assert_eq!(&reloaded, &chat.session);
        let mut resumed = Chat::resume(&plan, &Simulator, reloaded);
        for m in &messages[cut..] {
            let a = chat.say(m).map(|t| t.events);
            let b = resumed.say(m).map(|t| t.events);
            prop_assert_eq!(a, b);
        }
        prop_assert_eq!(
            serde_json::to_string(&chat.session).unwrap(),
            serde_json::to_string(&resumed.session).unwrap()
        );
    }

    /// Interruptions (issue 18): after any turn, at most one task is parked (the session has
    /// one slot), it is never the state the conversation is in, and its visit is kept until
    /// its time is up.
    #[test]
    fn a_parked_task_is_one_and_keeps_its_visit_until_its_time(
        messages in prop::collection::vec(message(), 1..20)
    ) {
        let plan = sample("vehicle-viewing");
        let mut chat = open(&plan);
        for m in &messages {
            if chat.say(m).is_err() {
                break;
            }
            if let Some(p) = &chat.session.parked {
                prop_assert_ne!(&p.state_id, &chat.session.state_id);
                let away = chat.session.turn - p.since_turn;
                prop_assert!(
                    p.visit.is_some() || (p.ttl_turns > 0 && away >= p.ttl_turns),
                    "lost the parked visit after {away} turns of {}", p.ttl_turns
                );
            }
        }
    }

    #[test]
    fn no_message_makes_a_turn_panic_whatever_the_plan(
        doc in super::plan_json(), messages in prop::collection::vec(message(), 0..10)
    ) {
        let Ok(plan) = parse_plan(&doc.to_string()) else { return Ok(()) };
        let r = PlanRef { id: "generated".into(), version: PlanVersion::File, content_hash: String::new() };
        let Ok((mut chat, _)) = Chat::open(&plan, &Simulator, r) else { return Ok(()) };
        for m in &messages {
            if chat.say(m).is_err() {
                prop_assert!(chat.session.ended.is_some() || plan.state(&chat.session.state_id).is_none()
                    || !plan.states.iter().all(|s| s.transitions.iter().all(|t| plan.state(&t.target_state_id).is_some())));
                break;
            }
        }
    }
}
