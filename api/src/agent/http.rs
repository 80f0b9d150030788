//! The one HTTP client of the language-model agent: blocking (a turn runs on a worker thread of
//! the shell, or in the CLI, never on the window's thread), no redirects and no proxy from the
//! environment, so requests go to the configured `base_url` and nowhere else. Every failure is
//! said in words with what to do; the key is sent in a header and never appears in one.

use std::time::Duration;

use plan_core::runtime::AgentError;
use serde_json::Value;

use super::AgentSettings;

/// A client for one `base_url`.
pub struct Http {
    base_url: String,
    key: Option<String>,
    timeout_s: u64,
    agent: ureq::Agent,
}

impl Http {
    /// A client for the server `settings` names, sending `key` as a bearer token when given.
    pub fn new(settings: &AgentSettings, key: Option<String>) -> Http {
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(settings.timeout_s.max(1)))
            .redirects(0)
            .build();
        Http {
            base_url: settings.base_url.trim_end_matches('/').to_string(),
            key,
            timeout_s: settings.timeout_s,
            agent,
        }
    }

    /// The server's base URL, as set.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    fn authorised(&self, request: ureq::Request) -> ureq::Request {
        match &self.key {
            Some(k) => request.set("Authorization", &format!("Bearer {k}")),
            None => request,
        }
    }

    /// `POST {base_url}/chat/completions` with `body`: the answer's text.
    pub fn complete(&self, body: &Value) -> Result<String, AgentError> {
        let url = format!("{}/chat/completions", self.base_url);
        let request = self
            .authorised(self.agent.post(&url))
            .set("Content-Type", "application/json");
        let answer = request.send_string(&body.to_string());
        self.text_of(answer)
    }

    /// `GET {base_url}/models`: the answer's text.
    pub fn models(&self) -> Result<String, AgentError> {
        let url = format!("{}/models", self.base_url);
        let answer = self.authorised(self.agent.get(&url)).call();
        self.text_of(answer)
    }

    fn text_of(&self, answer: Result<ureq::Response, ureq::Error>) -> Result<String, AgentError> {
        match answer {
            Ok(response) => response.into_string().map_err(|e| self.transport(&e)),
            Err(ureq::Error::Status(code, response)) => {
                let body = response.into_string().unwrap_or_default();
                Err(AgentError(self.status(code, &body)))
            }
            Err(ureq::Error::Transport(t)) => Err(self.transport_error(&t)),
        }
    }

    /// "is Ollama running?" for Ollama's port, else a hint for a local or a remote server.
    fn reach_hint(&self) -> &'static str {
        let local = ["//localhost", "//127.", "//[::1]", "//0.0.0.0"]
            .iter()
            .any(|h| self.base_url.contains(h));
        if local && self.base_url.contains(":11434") {
            "is Ollama running? (start it with `ollama serve`)"
        } else if local {
            "is the model server running on this machine, on that port?"
        } else {
            "check the address and this machine's connection"
        }
    }

    fn timed_out(&self) -> AgentError {
        AgentError(format!(
            "{} did not answer within {} s: the model may still be loading or be slow on this machine; retry, or raise the timeout in the agent's settings",
            self.base_url, self.timeout_s
        ))
    }

    fn transport(&self, e: &std::io::Error) -> AgentError {
        if matches!(
            e.kind(),
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
        ) {
            return self.timed_out();
        }
        AgentError(format!(
            "{} stopped answering half-way ({e}): retry",
            self.base_url
        ))
    }

    fn transport_error(&self, t: &ureq::Transport) -> AgentError {
        let text = t.to_string();
        if text.contains("timed out") || text.contains("Timeout") {
            return self.timed_out();
        }
        match t.kind() {
            ureq::ErrorKind::Dns | ureq::ErrorKind::ConnectionFailed => AgentError(format!(
                "could not reach {}: {}",
                self.base_url,
                self.reach_hint()
            )),
            ureq::ErrorKind::InvalidUrl | ureq::ErrorKind::UnknownScheme => AgentError(format!(
                "{} is not an address the agent can use: check the base URL in the agent's settings",
                self.base_url
            )),
            _ => AgentError(format!(
                "the request to {} failed ({}): retry, or check the agent's settings",
                self.base_url,
                t.kind()
            )),
        }
    }

    fn status(&self, code: u16, body: &str) -> String {
        let said = serde_json::from_str::<Value>(body)
            .ok()
            .and_then(|v| {
                v.pointer("/error/message")
                    .or_else(|| v.get("error"))
                    .or_else(|| v.get("message"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
            })
            .unwrap_or_else(|| body.chars().take(160).collect::<String>());
        let what = match code {
            401 | 403 => "check the key variable in the agent's settings",
            404 => "check the base URL (it usually ends in /v1) and the model's name",
            429 => "the server is busy or over a limit: wait a moment and retry",
            500..=599 => "the server failed: retry, or look at the server's own log",
            _ => "check the agent's settings",
        };
        let said = said.trim();
        if said.is_empty() {
            format!("{} answered HTTP {code}: {what}", self.base_url)
        } else {
            format!("{} answered HTTP {code} ({said}): {what}", self.base_url)
        }
    }
}
