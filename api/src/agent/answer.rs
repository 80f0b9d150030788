//! A Chat Completions answer read tolerantly (servers differ in optional fields, an empty
//! `finish_reason`, tool calls without ids, arguments as a string or as an object, content as a
//! string or as parts, tool calls the server left in the text as llama.cpp's and Hermes-style
//! templates write them: `<tool_call>{"name": …, "arguments": …}</tool_call>`), and the model's
//! function calls made into the runtime's actions. What cannot be read at all is an
//! [`AgentError`] in words: the turn is then not applied.

use plan_core::plan::Plan;
use plan_core::runtime::{Action, AgentError, ToolResults, Usage};
use serde_json::{Map, Value};

use super::request::FUNCTIONS;

/// What the model answered: its text (the reply; may be empty) and its function calls in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Answer {
    /// The text of the reply.
    pub text: String,
    /// The functions it called.
    pub calls: Vec<Call>,
    /// The tokens the server counted, when it says (`usage`).
    pub usage: Option<Usage>,
    /// The calls were read from the text: the server did not parse them itself.
    pub calls_in_text: bool,
}

/// One function call of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// Some servers leave it out.
    pub id: Option<String>,
    /// The function's name.
    pub name: String,
    /// As the model wrote them: JSON text.
    pub arguments: String,
}

impl Call {
    /// Its id, or one made from its place when the server gave none (the second request needs
    /// one to pair each result with its call).
    pub fn id_or(&self, index: usize) -> String {
        self.id
            .clone()
            .filter(|id| !id.is_empty())
            .unwrap_or_else(|| format!("call_{index}"))
    }
}

fn not_an_answer(why: &str) -> AgentError {
    AgentError(format!("the server answered, but not with a Chat Completions answer ({why}): check that the base URL is the server's OpenAI-compatible one (it usually ends in /v1)"))
}

/// The text of a message's `content`: a string, or a list of parts with `text`.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str).or(p.as_str()))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// Arguments as text, whether the server sent a JSON string or the object itself.
fn arguments_text(arguments: Option<&Value>) -> String {
    match arguments {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

/// The first choice of an answer's body.
pub fn read(body: &str) -> Result<Answer, AgentError> {
    let v: Value = serde_json::from_str(body).map_err(|_| not_an_answer("it is not JSON"))?;
    if let Some(error) = v.get("error") {
        let message = error
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| error.to_string());
        return Err(AgentError(format!(
            "the server reported an error: {message}"
        )));
    }
    let message = v
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .and_then(|c| c.get("message"))
        .ok_or_else(|| not_an_answer("it has no choices[0].message"))?;
    let mut calls: Vec<Call> = Vec::new();
    if let Some(list) = message
        .get("tool_calls")
        .filter(|l| l.as_array().is_some_and(|a| !a.is_empty()))
        .and_then(Value::as_array)
    {
        for c in list {
            let f = c
                .get("function")
                .ok_or_else(|| not_an_answer("a tool call has no function"))?;
            let name = f
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| not_an_answer("a tool call's function has no name"))?;
            calls.push(Call {
                id: c.get("id").and_then(Value::as_str).map(str::to_string),
                name: name.to_string(),
                arguments: arguments_text(f.get("arguments")),
            });
        }
    } else if let Some(f) = message.get("function_call").filter(|f| !f.is_null()) {
        // The older single-call form some servers still send.
        let name = f
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| not_an_answer("its function_call has no name"))?;
        calls.push(Call {
            id: None,
            name: name.to_string(),
            arguments: arguments_text(f.get("arguments")),
        });
    }
    let mut text = content_text(message.get("content"));
    let mut in_text = false;
    if calls.is_empty() {
        // A server that did not parse the model's calls leaves them in the text.
        let (rest, written) = calls_in_text(&text);
        text = rest;
        in_text = !written.is_empty();
        calls = written;
    }
    let usage = v.get("usage").and_then(|u| {
        let count = |k: &str| u.get(k).and_then(Value::as_u64);
        match (count("prompt_tokens"), count("completion_tokens")) {
            (None, None) => None,
            (p, c) => Some(Usage {
                prompt_tokens: p.unwrap_or(0),
                completion_tokens: c.unwrap_or(0),
            }),
        }
    });
    Ok(Answer {
        text: text.trim().to_string(),
        calls,
        usage,
        calls_in_text: in_text,
    })
}

/// Function calls written in a reply's text: each `<tool_call>…</tool_call>` (Hermes-style and
/// llama.cpp's templates) whose inside is a JSON object with a `name` and its `arguments` (or
/// `parameters`), or a whole reply that is one such object naming one of the functions. The text
/// without them, and the calls in order. Anything else stays text.
pub fn calls_in_text(text: &str) -> (String, Vec<Call>) {
    const OPEN: &str = "<tool_call>";
    const CLOSE: &str = "</tool_call>";
    let call_of = |json: &str| -> Option<Call> {
        let v: Value = serde_json::from_str(json.trim()).ok()?;
        let name = v.get("name")?.as_str()?.to_string();
        let args = v.get("arguments").or_else(|| v.get("parameters"));
        Some(Call {
            id: None,
            name,
            arguments: arguments_text(args),
        })
    };
    let mut calls = Vec::new();
    let mut rest = String::new();
    let mut left = text;
    while let Some(at) = left.find(OPEN) {
        let inside = &left[at + OPEN.len()..];
        // An unclosed tag runs to the end of the text (a reply cut by the token limit).
        let (json, after) = match inside.find(CLOSE) {
            Some(end) => (&inside[..end], &inside[end + CLOSE.len()..]),
            None => (inside, ""),
        };
        match call_of(json) {
            Some(call) => {
                rest.push_str(&left[..at]);
                calls.push(call);
            }
            None => rest.push_str(&left[..left.len() - after.len()]),
        }
        left = after;
    }
    rest.push_str(left);
    if calls.is_empty() {
        let whole = text.trim();
        if whole.starts_with('{') {
            if let Some(call) = call_of(whole).filter(|c| FUNCTIONS.contains(&c.name.as_str())) {
                return (String::new(), vec![call]);
            }
        }
    }
    (rest, calls)
}

/// A call's arguments as an object: an empty text is no arguments. Not JSON, or JSON that is not
/// an object, fails the turn.
pub fn arguments(call: &Call) -> Result<Map<String, Value>, AgentError> {
    let text = call.arguments.trim();
    if text.is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(m),
        _ => Err(AgentError(format!(
            "the model called {} with arguments that are not a JSON object ({}): try again, or use a model that supports tool calls",
            call.name,
            clip(text)
        ))),
    }
}

fn clip(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// A call made into the action it asks for. An unknown function fails the turn; a known one with
/// a missing argument becomes an action the runtime rejects with the reason, which the model is
/// told.
pub fn action(
    plan: &Plan,
    call: &Call,
    args: &Map<String, Value>,
    tool_results: &ToolResults,
) -> Result<Action, AgentError> {
    if !FUNCTIONS.contains(&call.name.as_str()) {
        return Err(AgentError(format!(
            "the model called a function this test chat does not have: {} (the functions are {})",
            call.name,
            FUNCTIONS.join(", ")
        )));
    }
    let text = |k: &str| args.get(k).and_then(Value::as_str).map(str::to_string);
    let needs = |k: &str| Action::Unrecognised {
        text: format!("{}({})", call.name, clip(&call.arguments)),
        reason: format!("{} needs its argument `{k}`", call.name),
    };
    Ok(match call.name.as_str() {
        "record_deliverable" => match (text("key"), args.get("value")) {
            (Some(key), Some(value)) => Action::Record {
                key,
                value: value.clone(),
                quote: text("quote").filter(|q| !q.trim().is_empty()),
            },
            (None, _) => needs("key"),
            (_, None) => needs("value"),
        },
        "complete_task" => match text("task_id") {
            Some(task_id) => Action::Complete { task_id },
            None => needs("task_id"),
        },
        "skip_task" => match text("task_id") {
            Some(task_id) => Action::Skip { task_id },
            None => needs("task_id"),
        },
        "close_goal" => match text("quote") {
            Some(quote) => Action::CloseGoal { quote },
            None => needs("quote"),
        },
        "give_up_goal" => match text("quote") {
            Some(quote) => Action::GiveUpGoal { quote },
            None => needs("quote"),
        },
        "call_tool" => match text("tool") {
            // The plan's tools are not real here: the author's switch, else the first code.
            Some(tool) => Action::CallTool {
                response_code: tool_results
                    .get(&tool)
                    .cloned()
                    .or_else(|| {
                        let t = plan.tools.iter().find(|t| t.name == tool)?;
                        t.response_codes.first().cloned()
                    })
                    .unwrap_or_default(),
                tool,
            },
            None => needs("tool"),
        },
        "set_session_state" => match text("session_state") {
            Some(session_state) => Action::SetSessionState {
                session_state,
                value: args.get("value").map(|v| (!v.is_null()).then(|| v.clone())),
                add: args.get("add").and_then(Value::as_number).cloned(),
                active: args.get("active").and_then(Value::as_bool),
            },
            None => needs("session_state"),
        },
        "interrupt" => match text("interruption") {
            Some(interruption) => Action::Interrupt { interruption },
            None => needs("interruption"),
        },
        _ => match text("text") {
            Some(text) => Action::Insight { text },
            None => needs("text"),
        },
    })
}

/// The goal check's verdict: `{"met": …, "reason": …}`, in a code fence or not; else an answer
/// that begins with yes or no. Anything else is a "no" that says what came back, so a model that
/// cannot judge never closes a goal.
pub fn verdict(text: &str) -> (bool, String) {
    let t = text.trim();
    let inner = t
        .trim_start_matches("```json")
        .trim_start_matches("```")
        .trim_end_matches("```")
        .trim();
    let object = inner
        .find('{')
        .zip(inner.rfind('}'))
        .and_then(|(a, b)| serde_json::from_str::<Value>(&inner[a..=b]).ok());
    if let Some(v) = object {
        if let Some(met) = v.get("met").and_then(Value::as_bool) {
            let reason = v
                .get("reason")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .trim()
                .to_string();
            return (met, reason);
        }
    }
    let lower = t.to_lowercase();
    let reason = || clip(t);
    if lower.starts_with("yes") {
        (true, reason())
    } else if lower.starts_with("no") {
        (false, reason())
    } else {
        (
            false,
            format!("the goal check answered neither yes nor no: {}", reason()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_without_ids_finish_reason_or_content_still_reads() {
        let a = read(r#"{"choices":[{"message":{"role":"assistant","tool_calls":[{"function":{"name":"complete_task","arguments":{"task_id":"t"}}}]},"finish_reason":""}]}"#).unwrap();
        assert_eq!(a.text, "");
        assert_eq!(a.calls.len(), 1);
        assert_eq!(a.calls[0].id_or(0), "call_0");
        assert_eq!(a.calls[0].arguments, r#"{"task_id":"t"}"#);
        let parts = read(r#"{"choices":[{"message":{"content":[{"type":"text","text":"Hi "},{"type":"text","text":"there"}]}}]}"#).unwrap();
        assert_eq!(parts.text, "Hi there");
    }

    #[test]
    fn calls_written_in_the_text_are_read_as_calls_and_leave_the_rest_as_the_reply() {
        let a = read(r#"{"choices":[{"message":{"content":"Thanks!\n<tool_call>\n{\"name\": \"record_deliverable\", \"arguments\": {\"key\": \"issue_type\", \"value\": \"billing\"}}\n</tool_call>"}}],
            "usage":{"prompt_tokens":312,"completion_tokens":40,"total_tokens":352}}"#).unwrap();
        assert_eq!(a.text, "Thanks!");
        assert_eq!(a.calls.len(), 1);
        assert_eq!(a.calls[0].name, "record_deliverable");
        assert_eq!(
            a.calls[0].arguments,
            r#"{"key":"issue_type","value":"billing"}"#
        );
        assert_eq!(
            a.usage,
            Some(Usage {
                prompt_tokens: 312,
                completion_tokens: 40
            })
        );
        // Two calls, `parameters` for `arguments`, an unclosed last tag.
        let (rest, calls) = calls_in_text(
            "<tool_call>{\"name\":\"complete_task\",\"parameters\":{\"task_id\":\"t\"}}</tool_call> ok <tool_call>{\"name\":\"note_insight\",\"arguments\":\"{}\"}",
        );
        assert_eq!(rest.trim(), "ok");
        assert_eq!(
            calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            ["complete_task", "note_insight"]
        );
        // A reply that is one call object; and text that only looks like one stays text.
        let (rest, calls) =
            calls_in_text(r#"{"name": "skip_task", "arguments": {"task_id": "x"}}"#);
        assert!(rest.is_empty() && calls.len() == 1);
        let plain = r#"{"name": "Ann"} is what I have. <tool_call>not json</tool_call>"#;
        assert_eq!(calls_in_text(plain), (plain.to_string(), Vec::new()));
        // Calls the server parsed win: the text is then the reply as written.
        let parsed = read(r#"{"choices":[{"message":{"content":"<tool_call>{\"name\":\"x\"}</tool_call>","tool_calls":[{"function":{"name":"complete_task","arguments":"{}"}}]}}]}"#).unwrap();
        assert_eq!(parsed.calls.len(), 1);
        assert_eq!(parsed.calls[0].name, "complete_task");
    }

    #[test]
    fn what_is_not_a_chat_completions_answer_is_said() {
        assert!(read("<html>").unwrap_err().0.contains("not JSON"));
        assert!(read(r#"{"data":[]}"#).unwrap_err().0.contains("choices"));
        assert!(read(r#"{"error":{"message":"model not found"}}"#)
            .unwrap_err()
            .0
            .contains("model not found"));
    }

    #[test]
    fn the_goal_checks_verdict_reads_json_fenced_or_plain_words() {
        assert_eq!(
            verdict("```json\n{\"met\": false, \"reason\": \"no date given\"}\n```"),
            (false, "no date given".into())
        );
        assert!(verdict("Yes, they agreed.").0);
        assert!(!verdict("Maybe").0);
    }
}
