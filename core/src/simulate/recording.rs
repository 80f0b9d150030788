//! A run's recording (simulate.md, "The recording"): every model request with its answer, in
//! order, one JSON line each, keyed by its place (conversation, turn, role, question, vote) and
//! the SHA-256 of its body as sent. A replay answers each request from the line of the same place
//! when the body's hash is the same, and otherwise says where the conversation left the recording
//! and what differs; it never sends anything.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{Divergence, Place};

/// One line of `recording.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordLine {
    /// Where the request stands: conversation, turn, role, question, vote.
    #[serde(flatten)]
    pub place: Place,
    /// The hex SHA-256 of the request body as sent.
    pub request_sha256: String,
    /// The request body, whole (headers are never kept).
    pub request: Value,
    /// The answer's body.
    pub response: Value,
    /// How long the answer took, in milliseconds.
    pub ms: u64,
    /// The tokens the server said the request used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Value>,
}

impl RecordLine {
    /// The line of `body` sent as `place`, answered with `response` in `ms`.
    pub fn new(place: &Place, body: &Value, response: Value, ms: u64) -> RecordLine {
        RecordLine {
            place: place.clone(),
            request_sha256: sha256_hex(body),
            request: body.clone(),
            usage: response.get("usage").cloned(),
            response,
            ms,
        }
    }
}

/// The hex SHA-256 of `body` as it is sent (its compact JSON text).
pub fn sha256_hex(body: &Value) -> String {
    let digest = Sha256::digest(body.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A recording read back, to answer a replay.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    lines: HashMap<Place, RecordLine>,
    /// The conversations the replayed run stopped before they finished.
    stopped: HashSet<String>,
}

impl Replay {
    /// The recording of `lines`; a place recorded twice keeps its first answer.
    pub fn new(lines: Vec<RecordLine>) -> Replay {
        let mut map = HashMap::with_capacity(lines.len());
        for line in lines {
            map.entry(line.place.clone()).or_insert(line);
        }
        Replay {
            lines: map,
            stopped: HashSet::new(),
        }
    }

    /// The same, knowing which conversations the run replayed was stopped in (by name,
    /// `persona/k`): where such a conversation's recording ends, the replay stops it again.
    pub fn with_stopped(mut self, conversations: impl IntoIterator<Item = String>) -> Replay {
        self.stopped.extend(conversations);
        self
    }

    /// Whether the run replayed was stopped before it asked anything at `place`: the end of a
    /// stopped conversation's recording, not a divergence.
    pub fn stopped_before(&self, place: &Place) -> bool {
        self.stopped.contains(&place.conversation) && !self.lines.contains_key(place)
    }

    /// The recorded line answering `body` at `place`, or where and how the request left the
    /// recording.
    pub fn answer(&self, place: &Place, body: &Value) -> Result<&RecordLine, Divergence> {
        let diverged = |what: String| Divergence {
            turn: place.turn,
            role: place.role,
            what,
        };
        let Some(line) = self.lines.get(place) else {
            return Err(diverged("the recording has no such request".into()));
        };
        if line.request_sha256 != sha256_hex(body) {
            return Err(diverged(what_differs(&line.request, body)));
        }
        Ok(line)
    }
}

/// What differs between a recorded request and a new one, in words: the system prompt, the
/// tools, the messages (with the first that differs), or the model's settings.
pub fn what_differs(recorded: &Value, now: &Value) -> String {
    let messages = |v: &Value| {
        v.get("messages")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let (old, new) = (messages(recorded), messages(now));
    let system = |m: &[Value]| {
        m.first()
            .filter(|m| m.get("role").and_then(Value::as_str) == Some("system"))
            .and_then(|m| m.get("content").cloned())
    };
    let mut parts = Vec::new();
    if system(&old) != system(&new) {
        parts.push("the system prompt".to_string());
    }
    if recorded.get("tools") != now.get("tools") {
        parts.push("the tools".to_string());
    }
    let skip = usize::from(system(&old).is_some());
    let (old_rest, new_rest) = (
        old.get(skip..).unwrap_or(&[]),
        new.get(skip..).unwrap_or(&[]),
    );
    if old_rest != new_rest {
        let first = old_rest
            .iter()
            .zip(new_rest)
            .position(|(a, b)| a != b)
            .unwrap_or(old_rest.len().min(new_rest.len()));
        parts.push(format!(
            "the messages (from message {} of {}; {} recorded)",
            first + 1 + skip,
            new.len(),
            old.len()
        ));
    }
    if parts.is_empty() {
        parts.push("the model's settings (model, temperature, seed or answer format)".into());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::ModelRole;
    use serde_json::json;

    fn place() -> Place {
        Place {
            conversation: "calm/1".into(),
            turn: 2,
            role: ModelRole::Agent,
            question: None,
            vote: None,
            nth: 0,
        }
    }

    #[test]
    fn a_replay_answers_the_same_request_and_names_what_differs() {
        let body = json!({"model": "m", "messages": [
            {"role": "system", "content": "You help."}, {"role": "user", "content": "hi"}]});
        let line = RecordLine::new(&place(), &body, json!({"choices": []}), 12);
        let replay = Replay::new(vec![line.clone()]);
        assert_eq!(replay.answer(&place(), &body), Ok(&line));
        let mut changed = body.clone();
        changed["messages"][0]["content"] = json!("You help fast.");
        let d = replay.answer(&place(), &changed).unwrap_err();
        assert_eq!(
            (d.turn, d.role, d.what.as_str()),
            (2, ModelRole::Agent, "the system prompt")
        );
        let mut other = place();
        other.turn = 3;
        assert_eq!(
            replay.answer(&other, &body).unwrap_err().what,
            "the recording has no such request"
        );
        changed = body.clone();
        changed["messages"][1]["content"] = json!("hello");
        assert!(replay
            .answer(&place(), &changed)
            .unwrap_err()
            .what
            .starts_with("the messages (from message 2"));
    }
}
