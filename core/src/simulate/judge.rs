//! The judge (simulate.md, "Checks"): a question about a conversation, asked `votes` times, each
//! vote one request with its own seed whose answer must be `{"verdict": "yes" | "no", "reason"}`;
//! the verdict is the majority, shown with its agreement (`2/3`), and `unsure` when the agreement
//! is below the author's minimum. An answer that does not parse is an `invalid` vote, never guessed.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::RequestSettings;

/// One vote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Vote {
    /// The judge said yes.
    Yes,
    /// The judge said no.
    No,
    /// The answer was not a verdict.
    Invalid,
}

/// A question's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The majority said yes, as surely as the author asked.
    Yes,
    /// The majority said no, as surely as the author asked.
    No,
    /// The votes did not agree enough, or none was valid.
    Unsure,
    /// An evaluation limited to session states none of which was ever active: no request sent.
    NotAsked,
}

impl Verdict {
    /// The word in files and on screen.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Yes => "yes",
            Verdict::No => "no",
            Verdict::Unsure => "unsure",
            Verdict::NotAsked => "not_asked",
        }
    }
}

/// One vote with the judge's reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Voted {
    /// The vote.
    pub vote: Vote,
    /// The judge's reason (for an invalid vote, what it answered instead).
    pub reason: String,
}

/// How the judge's request asks for the verdict's shape. Servers differ: OpenAI's and vLLM's take a
/// `json_schema`; llama-cpp-python's takes only `json_object` with a `schema` beside it; some take
/// neither. A run begins with the first and steps down once when the judge's server refuses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JudgeFormat {
    /// `{"type": "json_schema", "json_schema": {"name", "strict", "schema"}}`.
    #[default]
    JsonSchema,
    /// `{"type": "json_object", "schema": …}`.
    JsonObject,
    /// No `response_format`: the prompt alone asks for the object.
    Plain,
}

impl JudgeFormat {
    /// The format to try when the server refuses this one.
    pub fn next(self) -> Option<JudgeFormat> {
        match self {
            JudgeFormat::JsonSchema => Some(JudgeFormat::JsonObject),
            JudgeFormat::JsonObject => Some(JudgeFormat::Plain),
            JudgeFormat::Plain => None,
        }
    }
}

/// The JSON Schema of a vote.
fn vote_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": ["yes", "no"]},
            "reason": {"type": "string"}
        },
        "required": ["verdict", "reason"],
        "additionalProperties": false
    })
}

/// What the judge is told: how to answer.
pub const JUDGE_PROMPT: &str = "You judge a conversation between a caller and an assistant. \
Answer the question about it with yes or no, as a JSON object {\"verdict\": \"yes\" or \"no\", \
\"reason\": \"one sentence\"} and nothing else.";

/// The request of one vote: the question, the transcript (`excerpt`: only some turns are shown),
/// the answer's shape as `response_format`.
pub fn request(
    question: &str,
    transcript: &str,
    excerpt: bool,
    settings: &RequestSettings,
    seed: u64,
    format: JudgeFormat,
) -> Value {
    let shown = if excerpt {
        "Excerpts of the conversation (only the turns the question is about; other turns are left out):"
    } else {
        "The conversation:"
    };
    let user = format!("{shown}\n\n{transcript}\n\nQuestion: {question}");
    let mut body = json!({
        "model": settings.model,
        "messages": [
            {"role": "system", "content": JUDGE_PROMPT},
            {"role": "user", "content": user},
        ],
        "temperature": settings.temperature,
        "seed": seed,
        "stream": false,
    });
    let shape = match format {
        JudgeFormat::JsonSchema => Some(json!({
            "type": "json_schema",
            "json_schema": {"name": "verdict", "strict": true, "schema": vote_schema()}
        })),
        JudgeFormat::JsonObject => Some(json!({"type": "json_object", "schema": vote_schema()})),
        JudgeFormat::Plain => None,
    };
    if let (Some(shape), Some(obj)) = (shape, body.as_object_mut()) {
        obj.insert("response_format".into(), shape);
    }
    body
}

/// Reads one vote from the judge's answer text: a JSON object with `verdict` yes or no (a code
/// fence around it is tolerated); anything else is `invalid`, with what was answered.
pub fn read_vote(text: Option<&str>) -> Voted {
    let invalid = |said: &str| Voted {
        vote: Vote::Invalid,
        reason: format!(
            "not a verdict: {}",
            said.chars().take(200).collect::<String>()
        ),
    };
    let Some(text) = text else {
        return invalid("(no text)");
    };
    let body = text
        .trim()
        .trim_start_matches("```json")
        .trim_start_matches("```")
        .trim_end_matches("```")
        .trim();
    let Ok(Value::Object(answer)) = serde_json::from_str::<Value>(body) else {
        return invalid(text.trim());
    };
    let reason = answer
        .get("reason")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let verdict = answer.get("verdict").and_then(Value::as_str).map(str::trim);
    match verdict.map(str::to_ascii_lowercase).as_deref() {
        Some("yes") => Voted {
            vote: Vote::Yes,
            reason,
        },
        Some("no") => Voted {
            vote: Vote::No,
            reason,
        },
        _ => invalid(text.trim()),
    }
}

/// The verdict of `votes` and its agreement as (agreeing, all): the majority of yes and no, unsure
/// on a tie, with no valid vote, or when agreeing/all is below `min_agreement`.
pub fn verdict(votes: &[Vote], min_agreement: f64) -> (Verdict, (usize, usize)) {
    let yes = votes.iter().filter(|v| **v == Vote::Yes).count();
    let no = votes.iter().filter(|v| **v == Vote::No).count();
    let all = votes.len();
    let (majority, agreeing) = match yes.cmp(&no) {
        std::cmp::Ordering::Greater => (Verdict::Yes, yes),
        std::cmp::Ordering::Less => (Verdict::No, no),
        std::cmp::Ordering::Equal => (Verdict::Unsure, yes),
    };
    if all == 0 || majority == Verdict::Unsure {
        return (Verdict::Unsure, (agreeing, all));
    }
    // Compared in whole numbers where they can be, so that 2/3 ≥ 0.6667 is not lost to rounding.
    let sure = agreeing as f64 + 1e-9 >= min_agreement * all as f64;
    (
        if sure { majority } else { Verdict::Unsure },
        (agreeing, all),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn votes_parse_or_are_invalid() {
        assert_eq!(
            read_vote(Some(r#"{"verdict":"yes","reason":"ok"}"#)).vote,
            Vote::Yes
        );
        assert_eq!(
            read_vote(Some(
                "```json\n{\"verdict\": \"No\", \"reason\": \"x\"}\n```"
            ))
            .vote,
            Vote::No
        );
        assert_eq!(read_vote(Some("Yes, it did.")).vote, Vote::Invalid);
        assert_eq!(
            read_vote(Some(r#"{"verdict":"maybe"}"#)).vote,
            Vote::Invalid
        );
        assert_eq!(read_vote(None).vote, Vote::Invalid);
    }

    #[test]
    fn the_verdict_is_the_majority_unless_agreement_is_too_low() {
        use Vote::*;
        assert_eq!(verdict(&[Yes, Yes, Yes], 1.0), (Verdict::Yes, (3, 3)));
        assert_eq!(verdict(&[Yes, No, Yes], 1.0), (Verdict::Unsure, (2, 3)));
        assert_eq!(verdict(&[Yes, No, Yes], 2.0 / 3.0), (Verdict::Yes, (2, 3)));
        assert_eq!(verdict(&[No, Invalid, No], 0.5), (Verdict::No, (2, 3)));
        assert_eq!(verdict(&[Yes, No], 0.5), (Verdict::Unsure, (1, 2)));
        assert_eq!(verdict(&[Invalid], 0.0), (Verdict::Unsure, (0, 1)));
    }
}
