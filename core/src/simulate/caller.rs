//! The caller-model's part (simulate.md, "One conversation"): what it is told (the persona's who,
//! facts and behaviour sentences, and that it is the caller), the conversation so far with the
//! roles swapped (the agent's lines are what it hears, its own are what it said), and how its
//! answer is read: a message, the end marker, or a failure of the caller that is not the plan's.

use serde_json::{json, Value};
use std::fmt::Write as _;

use super::persona::Persona;
use super::{RequestSettings, END_MARKER};
use crate::runtime::{Role, Session};

/// What the caller-model is told, before the conversation.
pub fn system_prompt(persona: &Persona) -> String {
    let mut out = String::from(
        "You are role-playing a person who phones a company's assistant. Stay in character.\n\n",
    );
    out.push_str("Who you are and what you want:\n");
    out.push_str(persona.who.trim());
    out.push('\n');
    if !persona.facts.is_empty() {
        out.push_str("\nWhat you know, to answer with when asked:\n");
        for (name, fact) in &persona.facts {
            let _ = writeln!(out, "- {name}: {}", fact.said());
        }
    }
    if !persona.behaviour.is_empty() {
        out.push_str("\nHow you behave:\n");
        for b in &persona.behaviour {
            let _ = writeln!(out, "- {}", b.sentence());
        }
    }
    let _ = write!(
        out,
        "\nYou are the caller; say only what the caller says, one message at a time, with no name \
         or label before it. Never write the assistant's part. When you are done or want to hang \
         up, answer only {END_MARKER}."
    );
    out
}

/// The request for the caller's next message: its prompt, then the conversation so far with the
/// roles swapped, so that the agent's last reply is what it answers.
pub fn request(
    persona: &Persona,
    session: &Session,
    settings: &RequestSettings,
    seed: u64,
) -> Value {
    let mut messages = vec![json!({"role": "system", "content": system_prompt(persona)})];
    for line in &session.transcript {
        let role = match line.role {
            Role::Agent => "user",
            Role::User => "assistant",
        };
        messages.push(json!({"role": role, "content": line.text}));
    }
    json!({
        "model": settings.model,
        "messages": messages,
        "temperature": settings.temperature,
        "seed": seed,
        "stream": false,
    })
}

/// What the caller's answer is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallerSaid {
    /// Its message to the plan, and whether it hangs up after it (a message ending in the marker).
    Message {
        /// What the caller says.
        text: String,
        /// Whether the end marker followed it.
        then_hangs_up: bool,
    },
    /// It hung up without a word.
    HangUp,
    /// Not a caller's answer: the reason, for a conversation that is `caller_failed`.
    Failed(String),
}

/// Reads the caller-model's answer text; `first`: whether it is the caller's first message.
pub fn read(answer: Option<&str>, first: bool) -> CallerSaid {
    let Some(text) = answer else {
        return CallerSaid::Failed("the caller's answer is not text".into());
    };
    let mut text = text.trim();
    // A label the model put before its line is not part of what the caller says.
    for label in ["Caller:", "User:", "Customer:"] {
        if let Some(rest) = text.strip_prefix(label) {
            text = rest.trim_start();
        }
    }
    for label in ["Assistant:", "Agent:"] {
        if text.starts_with(label) || text.contains(&format!("\n{label}")) {
            return CallerSaid::Failed(format!("the caller wrote the agent's part (\"{label}\")"));
        }
    }
    let (said, marked) = match text.find(END_MARKER) {
        Some(at) => (text[..at].trim(), true),
        None => (text, false),
    };
    match (said.is_empty(), marked) {
        (true, false) => CallerSaid::Failed("the caller said nothing".into()),
        (true, true) if first => {
            CallerSaid::Failed("the caller hung up before saying anything".into())
        }
        (true, true) => CallerSaid::HangUp,
        (false, then_hangs_up) => CallerSaid::Message {
            text: said.to_string(),
            then_hangs_up,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_a_message_the_marker_or_a_failure() {
        let said = |t: &str| CallerSaid::Message {
            text: t.into(),
            then_hangs_up: false,
        };
        assert_eq!(
            read(Some("  Caller: my order 42 "), true),
            said("my order 42")
        );
        assert_eq!(read(Some("[END]"), false), CallerSaid::HangUp);
        assert_eq!(
            read(Some("Thanks, bye. [END]"), false),
            CallerSaid::Message {
                text: "Thanks, bye.".into(),
                then_hangs_up: true
            }
        );
        assert!(matches!(read(Some("[END]"), true), CallerSaid::Failed(_)));
        assert!(matches!(read(Some("  "), false), CallerSaid::Failed(_)));
        assert!(matches!(read(None, false), CallerSaid::Failed(_)));
        assert!(matches!(
            read(Some("Hi\nAssistant: how can I help"), false),
            CallerSaid::Failed(_)
        ));
    }
}
