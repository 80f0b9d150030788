//! Who answers a test conversation's turns (docs/agents.md): the simulator, or a language model behind
//! any OpenAI-compatible Chat Completions endpoint. The types here cross to the page (its settings
//! form, the model's tool calls folded under a reply, the goal check's verdict); the turn itself,
//! which does IO, is the `store` feature's:
//!
//! - [`settings`]: where the settings live and how they are checked;
//! - [`request`]: a turn's request as the spec lists it (system message, transcript, the functions
//!   the runtime would accept now), pure;
//! - [`answer`]: a server's answer read tolerantly, and tool calls made into actions, pure;
//! - [`http`]: the one client, which only ever talks to the configured `base_url`;
//! - [`model`]: one turn with the model (first request, goal check, step, second request), which
//!   fails as a whole or not at all.

use crate::messages::thousands;
use serde::{Deserialize, Serialize};

pub use plan_core::runtime::{AgentKind, GoalCheck, ToolCallRecord, Usage};

#[cfg(feature = "store")]
pub mod answer;
#[cfg(feature = "store")]
pub mod http;
#[cfg(feature = "store")]
pub mod model;
#[cfg(feature = "store")]
pub mod request;
#[cfg(feature = "store")]
pub mod settings;

/// How the language-model agent reaches its model (docs/agents.md, "Settings"). Never holds the key:
/// `api_key_env` names the environment variable that does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentSettings {
    /// `http://localhost:11434/v1`: requests go to `{base_url}/chat/completions` and nowhere else.
    pub base_url: String,
    /// The model's name, as the server knows it.
    pub model: String,
    /// The name of the environment variable holding the key; none for local servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    /// Sampling temperature (0: the most deterministic).
    #[serde(default)]
    pub temperature: f64,
    /// A seed, for servers that honour it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// How long a request may take, in seconds.
    #[serde(default = "default_timeout")]
    pub timeout_s: u64,
}

fn default_timeout() -> u64 {
    60
}

impl Default for AgentSettings {
    /// Ollama on this machine: the most common local server.
    fn default() -> Self {
        AgentSettings {
            base_url: "http://localhost:11434/v1".into(),
            model: String::new(),
            api_key_env: None,
            temperature: 0.0,
            seed: None,
            timeout_s: default_timeout(),
        }
    }
}

/// What "Test connection" found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectionReport {
    /// The server's models when it lists them at `/models` (empty when it does not).
    pub models: Vec<String>,
    /// "http://localhost:11434/v1 answers; 3 models", in words.
    pub message: String,
    /// Whether the model called the function it was asked to call (none: not asked, the model
    /// being unknown to the server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub functions: Option<bool>,
}

/// What to do about a model that does not call functions.
pub const FUNCTIONS_ADVICE: &str =
    "start llama.cpp's server with --jinja, or pick a model with tool support";

/// What the chat says, once, when the model answers without calling functions while the plan
/// waits for one.
pub fn no_functions_notice() -> String {
    format!("This model answered without calling any function, so the plan cannot move: {FUNCTIONS_ADVICE}.")
}

/// A model turn as [`uncalled_notice_at`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelTurnCalls {
    /// It called at least one function.
    pub called: bool,
    /// It was offered functions, called none, and the plan did not move.
    pub uncalled: bool,
}

/// Where the chat says, once, that the model does not call functions: at the second of two model
/// turns in a row that were offered functions, called none and moved nothing, in a conversation in
/// which the model has not called one yet. One such turn is not enough: a model may greet first.
/// `turns` has `None` for the turns the model did not answer (the opening, the simulator's).
pub fn uncalled_notice_at(
    turns: impl IntoIterator<Item = Option<ModelTurnCalls>>,
) -> Option<usize> {
    let mut in_a_row = 0;
    for (i, turn) in turns.into_iter().enumerate() {
        let Some(t) = turn else { continue };
        if t.called {
            return None;
        }
        in_a_row = if t.uncalled { in_a_row + 1 } else { 0 };
        if in_a_row == 2 {
            return Some(i);
        }
    }
    None
}

/// One model turn's cost in words: "312 + 40 tokens, 1.8 s" (prompt + completion), or only the
/// time when the server did not count tokens.
pub fn turn_cost_text(usage: Option<Usage>, ms: u64) -> String {
    let time = seconds(ms);
    match usage {
        Some(u) => format!(
            "{} + {} tokens, {time}",
            u.prompt_tokens, u.completion_tokens
        ),
        None => time,
    }
}

/// What the model's turns of a conversation cost together, in words ("3 turns, 1,204 tokens
/// (1,100 in, 104 out), 5.2 s"); none when the model answered no turn.
pub fn conversation_cost_text(
    turns: impl IntoIterator<Item = (Option<Usage>, Option<u64>)>,
) -> Option<String> {
    let (mut count, mut ms, mut usage) = (0u32, 0u64, None::<Usage>);
    for (u, t) in turns {
        let Some(t) = t else { continue };
        count += 1;
        ms += t;
        if let Some(u) = u {
            *usage.get_or_insert_with(Usage::default) += u;
        }
    }
    if count == 0 {
        return None;
    }
    let turns = if count == 1 {
        "1 turn".to_string()
    } else {
        format!("{count} turns")
    };
    Some(match usage {
        Some(u) => format!(
            "{turns}, {} tokens ({} in, {} out), {}",
            thousands(u.total()),
            thousands(u.prompt_tokens),
            thousands(u.completion_tokens),
            seconds(ms)
        ),
        None => format!("{turns}, {}", seconds(ms)),
    })
}

fn seconds(ms: u64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_turns_cost_is_said_per_turn_and_summed_for_the_conversation() {
        let u = |p, c| {
            Some(Usage {
                prompt_tokens: p,
                completion_tokens: c,
            })
        };
        assert_eq!(turn_cost_text(u(312, 40), 1_840), "312 + 40 tokens, 1.8 s");
        assert_eq!(turn_cost_text(None, 260), "0.3 s");
        assert_eq!(
            conversation_cost_text([
                (None, None),
                (u(1_100, 60), Some(2_000)),
                (u(900, 44), Some(3_200))
            ])
            .as_deref(),
            Some("2 turns, 2,104 tokens (2,000 in, 104 out), 5.2 s")
        );
        assert_eq!(
            conversation_cost_text([(None, Some(1_000))]).as_deref(),
            Some("1 turn, 1.0 s")
        );
        assert_eq!(
            conversation_cost_text([(None, None)]),
            None,
            "the simulator costs nothing"
        );
    }

    #[test]
    fn the_no_function_notice_comes_once_after_two_uncalled_turns_of_a_model_that_never_called() {
        let model = |called, uncalled| Some(ModelTurnCalls { called, uncalled });
        assert_eq!(
            uncalled_notice_at([None, model(false, true), model(false, true)]),
            Some(2)
        );
        assert_eq!(
            uncalled_notice_at([None, model(false, true)]),
            None,
            "one may be a greeting"
        );
        assert_eq!(
            uncalled_notice_at([
                model(false, true),
                None,
                model(false, false),
                model(false, true)
            ]),
            None,
            "not in a row"
        );
        assert_eq!(
            uncalled_notice_at([model(true, false), model(false, true), model(false, true)]),
            None,
            "this model calls functions"
        );
        assert_eq!(
            uncalled_notice_at([
                model(false, true),
                None,
                model(false, true),
                model(false, true)
            ]),
            Some(2),
            "a simulator's turn between does not count"
        );
    }
}

/// Which agent answers a turn, and, when the simulator answers it after the model failed, why
/// (recorded as an `agent_fallback` event).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AgentChoice {
    /// Who answers.
    #[serde(default)]
    pub agent: AgentKind,
    /// Why the language model failed, when the simulator answers in its place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
}
