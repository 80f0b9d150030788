//! The transcript as the Chat tab lists it, decided without a browser: each line with who wrote
//! it, its turn's trace, the prompt the agent wrote it with, the model's calls and what the turn
//! cost.

use plan_api::messages::ChatView;
use plan_core::explore::said;
use plan_core::plan::Plan;
use plan_core::runtime::Role;

use super::{call_lines, cost_line, model_takes_part, no_functions_turn, writer_label, CallLine};
use plan_api::messages::AgentKind;

/// A line of the transcript with its turn's trace (an agent's), as the list keys it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TranscriptLine {
    /// The conversation it belongs to: a line of another conversation is another line.
    pub conversation: String,
    pub role: &'static str,
    pub turn: u32,
    pub text: String,
    /// A simulator command the caller's line is (`/set size large`), said in words ("the caller
    /// gives size: large"); the command stays under it.
    pub words: Option<String>,
    pub trace: Vec<String>,
    /// The prompt the agent wrote this reply with.
    pub prompt: String,
    /// Who wrote an agent's reply, when it is worth saying.
    pub by: Option<&'static str>,
    /// The model's calls and goal checks of the turn.
    pub calls: Vec<CallLine>,
    /// What the model's turn cost ("312 + 40 tokens, 1.8 s").
    pub cost: Option<String>,
    /// Under this reply the chat says that the model does not call functions.
    pub no_functions: bool,
}

/// Every line of `chat`'s transcript, `agent` answering its next turns; the caller's commands
/// said in words of `plan`.
pub fn transcript_lines(
    chat: &ChatView,
    agent: AgentKind,
    plan: Option<&Plan>,
) -> Vec<TranscriptLine> {
    let mixed = model_takes_part(&chat.turns, agent);
    let notice_at = no_functions_turn(&chat.turns);
    chat.session
        .transcript
        .iter()
        .map(|l| {
            let logged = (l.role == Role::Agent)
                .then(|| chat.turns.iter().find(|t| t.number == l.turn))
                .flatten();
            TranscriptLine {
                by: logged.and_then(|t| writer_label(t, mixed)),
                calls: logged.map(call_lines).unwrap_or_default(),
                cost: logged.and_then(cost_line),
                no_functions: logged.is_some() && notice_at == Some(l.turn),
                conversation: chat.name.clone(),
                role: match l.role {
                    Role::User => "user",
                    Role::Agent => "agent",
                },
                turn: l.turn,
                text: l.text.clone(),
                words: match (l.role, plan) {
                    (Role::User, Some(plan)) if is_command(&l.text) => {
                        Some(sentence_start(&said(plan, &l.text)))
                    }
                    _ => None,
                },
                trace: logged
                    .map(|t| t.events.iter().map(|e| e.text.clone()).collect())
                    .unwrap_or_default(),
                prompt: logged.map(|t| t.prompt.clone()).unwrap_or_default(),
            }
        })
        .collect()
}

/// Whether a caller's line is a simulator command (its last line starts with `/`).
fn is_command(text: &str) -> bool {
    text.lines()
        .last()
        .is_some_and(|l| l.trim_start().starts_with('/'))
}

/// "the caller gives…" as the first words of a line: "The caller gives…".
pub fn sentence_start(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
