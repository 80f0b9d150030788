//! The exchange of a run (simulate.md, "The recording"): every model request of the run goes
//! through here, by its place. Live, it is sent to the role's server and kept with its answer; in
//! a replay it is answered from the recording when its body is the same, and otherwise the
//! conversation diverges and nothing is sent (unless `--record-missing` asked for it). The keys
//! stay inside the HTTP clients: nothing of them reaches a recorded line.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use plan_core::simulate::judge::JudgeFormat;
use plan_core::simulate::recording::{RecordLine, Replay};
use plan_core::simulate::{Exchange, ExchangeError, Exchanged, ModelRole, Place};
use serde_json::Value;

use crate::agent::http::Http;

/// The servers of a live run, one per role (the agent's only when the plan's side is a model).
pub struct Servers {
    /// The caller-model's.
    pub caller: Http,
    /// The agent's.
    pub agent: Option<Http>,
    /// The judge's.
    pub judge: Http,
}

/// A run's exchange: live, a replay, or a replay that records what it misses.
pub struct RunExchange {
    servers: Option<Servers>,
    replay: Option<Replay>,
    stop: Arc<AtomicBool>,
    lines: Mutex<Vec<RecordLine>>,
    failures: Mutex<HashMap<String, ExchangeError>>,
    judge_format: Mutex<JudgeFormat>,
    /// The models' time of the answers kept so far, for the progress line.
    model_ms: AtomicU64,
}

impl RunExchange {
    /// An exchange that sends to `servers` (none: a pure replay) and answers from `replay` first
    /// (none: a live run), asking the judge in `judge_format` (a replay: the format its run
    /// ended with); `stop` set stops every request after it.
    pub fn new(
        servers: Option<Servers>,
        replay: Option<Replay>,
        judge_format: JudgeFormat,
        stop: Arc<AtomicBool>,
    ) -> Self {
        RunExchange {
            servers,
            replay,
            stop,
            lines: Mutex::new(Vec::new()),
            failures: Mutex::new(HashMap::new()),
            judge_format: Mutex::new(judge_format),
            model_ms: AtomicU64::new(0),
        }
    }

    /// The format the judge is asked in now: what the run keeps for its replay.
    pub fn current_judge_format(&self) -> JudgeFormat {
        *self.judge_format.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The lines of the new recording, in the order their answers came.
    pub fn into_lines(self) -> Vec<RecordLine> {
        self.lines.into_inner().unwrap_or_else(|p| p.into_inner())
    }

    fn failed(&self, place: &Place, e: ExchangeError) -> ExchangeError {
        self.failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(place.conversation.clone(), e.clone());
        e
    }

    /// The models' time of the answers so far (a replay's: as recorded), in milliseconds.
    pub fn model_ms(&self) -> u64 {
        self.model_ms.load(Ordering::Relaxed)
    }

    fn keep(&self, line: RecordLine) -> Value {
        self.model_ms.fetch_add(line.ms, Ordering::Relaxed);
        let body = line.response.clone();
        self.lines
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(line);
        body
    }

    fn send(&self, servers: &Servers, place: &Place, body: &Value) -> Result<Value, ExchangeError> {
        let server = match place.role {
            ModelRole::Caller => &servers.caller,
            ModelRole::Judge => &servers.judge,
            ModelRole::Agent | ModelRole::AgentFollowup | ModelRole::GoalCheck => servers
                .agent
                .as_ref()
                .ok_or_else(|| ExchangeError::Failed("the plan's side is the simulator".into()))?,
        };
        let started = Instant::now();
        let text = server.complete(body).map_err(|e| {
            // A server that does not take the verdict's shape says so naming the field.
            if place.role == ModelRole::Judge && e.0.contains("response_format") {
                ExchangeError::FormatRefused(e.0)
            } else {
                ExchangeError::Failed(e.0)
            }
        })?;
        let ms = started.elapsed().as_millis() as u64;
        let response: Value = serde_json::from_str(&text).map_err(|_| {
            ExchangeError::Failed(format!(
                "{} answered with something that is not JSON",
                server.base_url()
            ))
        })?;
        Ok(self.keep(RecordLine::new(place, body, response, ms)))
    }
}

impl Exchange for RunExchange {
    fn complete(&self, place: &Place, body: &Value) -> Result<Exchanged, ExchangeError> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(self.failed(place, ExchangeError::Stopped));
        }
        let answered = match (&self.replay, &self.servers) {
            (Some(replay), servers) => match (replay.answer(place, body), servers) {
                (Ok(line), _) => Ok(self.keep(line.clone())),
                (Err(_), Some(servers)) => self.send(servers, place, body),
                (Err(_), None) if replay.stopped_before(place) => Err(ExchangeError::Stopped),
                (Err(d), None) => Err(ExchangeError::Diverged(d)),
            },
            (None, Some(servers)) => self.send(servers, place, body),
            (None, None) => Err(ExchangeError::Failed("no server and no recording".into())),
        };
        match answered {
            Ok(body) => Ok(Exchanged { body }),
            // Not a failure of the conversation: the request is made again in the next format.
            Err(e @ ExchangeError::FormatRefused(_)) => Err(e),
            Err(e) => Err(self.failed(place, e)),
        }
    }

    fn judge_format(&self) -> JudgeFormat {
        self.current_judge_format()
    }

    fn judge_format_refused(&self, refused: JudgeFormat, next: JudgeFormat) {
        let mut format = self.judge_format.lock().unwrap_or_else(|p| p.into_inner());
        if *format == refused {
            *format = next;
        }
    }

    fn failure(&self, conversation: &str) -> Option<ExchangeError> {
        self.failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(conversation)
            .cloned()
    }
}
