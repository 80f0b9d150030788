//! Who answers a test conversation's turns (agents.md): the simulator, or a language model behind
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

use serde::{Deserialize, Serialize};

pub use plan_core::runtime::{AgentKind, GoalCheck, ToolCallRecord};

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

/// How the language-model agent reaches its model (agents.md, "Settings"). Never holds the key:
/// `api_key_env` names the environment variable that does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentSettings {
    /// `http://localhost:11434/v1`: requests go to `{base_url}/chat/completions` and nowhere else.
    pub base_url: String,
    pub model: String,
    /// The name of the environment variable holding the key; none for local servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    #[serde(default)]
    pub temperature: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
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
}

/// Which agent answers a turn, and, when the simulator answers it after the model failed, why
/// (recorded as an `agent_fallback` event).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AgentChoice {
    #[serde(default)]
    pub agent: AgentKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
}
