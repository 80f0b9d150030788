//! A simulated conversation kept as a test case (simulate.md, "In the app"): the caller's messages
//! as a script, each with the state the conversation was in after it, and how it ended; it begins
//! as the persona's conversation began.

use crate::runtime::script::{Expect, Script, ScriptTurn};
use crate::runtime::{Start, ToolResults};

use super::conversation::Conversation;

/// The test case of `conversation`, which began as `start` says.
pub fn case_of(conversation: &Conversation, start: &Start) -> Script {
    let last = conversation.transcript.len();
    let turns = conversation
        .transcript
        .iter()
        .enumerate()
        .map(|(i, record)| {
            let ended = record
                .turn
                .events
                .iter()
                .find_map(|e| match &e.what {
                    crate::runtime::What::Ended { ending } => {
                        Some(ending.kind.as_str().to_string())
                    }
                    _ => None,
                })
                .filter(|_| i + 1 == last);
            ScriptTurn {
                user: record.turn.user.clone().unwrap_or_default(),
                tool_results: ToolResults::new(),
                expect: Some(Expect {
                    state: Some(record.state.clone()),
                    ended: ended.map(serde_json::Value::String),
                    ..Expect::default()
                }),
            }
        })
        .collect();
    Script {
        description: format!(
            "Simulated caller {} (conversation {}), kept as a test case",
            conversation.outcome.persona, conversation.outcome.k
        ),
        plan: None,
        start: start.clone(),
        tool_results: ToolResults::new(),
        turns,
    }
}
