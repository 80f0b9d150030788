//! A Chat Completions answer read tolerantly (servers differ in optional fields, an empty
//! `finish_reason`, tool calls without ids, arguments as a string or as an object, content as a
//! string or as parts), and the model's function calls made into the runtime's actions. What
//! cannot be read at all is an [`AgentError`] in words: the turn is then not applied.

use plan_core::plan::Plan;
use plan_core::runtime::{Action, AgentError, ToolResults};
use serde_json::{Map, Value};

use super::request::FUNCTIONS;

/// What the model answered: its text (the reply; may be empty) and its function calls in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Answer {
    pub text: String,
    pub calls: Vec<Call>,
}

/// One function call of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// Some servers leave it out.
    pub id: Option<String>,
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
    if let Some(list) = message.get("tool_calls").and_then(Value::as_array) {
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
    Ok(Answer {
        text: content_text(message.get("content")).trim().to_string(),
        calls,
    })
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
