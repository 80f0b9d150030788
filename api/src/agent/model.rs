//! One user turn answered by the language model (docs/agents.md, "One turn"): the first request; the
//! goal check before a `close_goal` or `give_up_goal`; the runtime's pure `step` with the actions;
//! the second request when the model called functions and wrote no text. The turn either
//! completes or fails as a whole: nothing is applied until every request has answered, so a
//! failure leaves the session exactly as it was.

use plan_core::plan::{Plan, StateType};
use plan_core::simulate::{Exchange, ModelRole, Place};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use plan_core::runtime::{
    step, Action, Agent, AgentError, AgentKind, Answered, Event, GoalStatus, Input, RunError,
    Session, Simulator, TurnCost, Usage, What,
};
use serde_json::Value;

use super::answer::{self, Answer};
use super::http::Http;
use super::request;
use super::{AgentSettings, ConnectionReport, GoalCheck, ToolCallRecord};
use crate::error::{ApiError, ErrorCode};

/// The language-model agent of one set of settings.
pub struct LanguageModel {
    settings: AgentSettings,
    http: Http,
    /// In a simulation, the exchange every request goes through instead of `http` (recorded, or
    /// answered from a recording), with the conversation it belongs to.
    exchanged: Option<Exchanged>,
}

/// A language model's requests sent through a simulation's exchange.
struct Exchanged {
    exchange: Arc<dyn Exchange + Send + Sync>,
    conversation: String,
    /// How many requests of each turn and role were sent: a goal check can be asked twice in a
    /// turn, each with its own place.
    sent: Mutex<HashMap<(u32, ModelRole), u32>>,
}

/// Why a turn fails when the model wrote nothing, even when asked once more.
pub const NO_WORDS: &str = "the model answered with no words, twice (once more asked for a reply \
     in words): try again, or answer this turn with the simulator";

/// A reply with nothing a caller could read.
fn blank(text: &str) -> bool {
    text.trim().is_empty()
}

fn failed(e: AgentError) -> ApiError {
    ApiError::new(ErrorCode::Agent, e.0)
}

impl LanguageModel {
    /// `key`: the key itself (read from the environment by the caller), never stored anywhere.
    pub fn new(settings: AgentSettings, key: Option<String>) -> LanguageModel {
        let http = Http::new(&settings, key);
        LanguageModel {
            settings,
            http,
            exchanged: None,
        }
    }

    /// The agent of conversation `conversation` of a simulation (simulate.md): every request goes
    /// through `exchange`, by its place, and nothing else is sent.
    pub fn through(
        settings: AgentSettings,
        exchange: Arc<dyn Exchange + Send + Sync>,
        conversation: String,
    ) -> LanguageModel {
        let http = Http::new(&settings, None);
        LanguageModel {
            settings,
            http,
            exchanged: Some(Exchanged {
                exchange,
                conversation,
                sent: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The settings it talks to its server with.
    pub fn settings(&self) -> &AgentSettings {
        &self.settings
    }

    fn ask(&self, body: &Value) -> Result<Answer, AgentError> {
        let text = self.http.complete(body)?;
        answer::read(&text)
    }

    /// One request of turn `turn` playing `role`: through the simulation's exchange when there
    /// is one, else straight to the server.
    fn ask_as(&self, turn: u32, role: ModelRole, body: &Value) -> Result<Answer, AgentError> {
        let Some(x) = &self.exchanged else {
            return self.ask(body);
        };
        let nth = {
            let mut sent = x.sent.lock().unwrap_or_else(|p| p.into_inner());
            let n = sent.entry((turn, role)).or_insert(0);
            *n += 1;
            *n - 1
        };
        let place = Place {
            conversation: x.conversation.clone(),
            turn,
            role,
            question: None,
            vote: None,
            nth,
        };
        let answered = x
            .exchange
            .complete(&place, body)
            .map_err(|e| AgentError(e.to_string()))?;
        answer::read(&answered.body.to_string())
    }

    /// [`LanguageModel::ask_as`], adding the answer's tokens to `usage`.
    fn ask_counted(
        &self,
        (turn, role): (u32, ModelRole),
        body: &Value,
        usage: &mut Option<Usage>,
    ) -> Result<Answer, AgentError> {
        let answer = self.ask_as(turn, role, body)?;
        if let Some(u) = answer.usage {
            *usage.get_or_insert_with(Usage::default) += u;
        }
        Ok(answer)
    }

    /// One user turn. On error nothing is applied: the caller's session is as it was.
    fn model_turn(
        &self,
        plan: &Plan,
        session: &Session,
        input: Input,
    ) -> Result<Answered, RunError> {
        let Input {
            message,
            tool_results,
        } = input;
        if let Some(ended) = &session.ended {
            return Err(RunError::Ended(ended.clone()));
        }
        let started = Instant::now();
        let mut usage = None;
        let asked = request::first(&self.settings, plan, session, message);
        let offered = asked.get("tools").is_some();
        let turn = session.turn + 1;
        let first = self.ask_counted((turn, ModelRole::Agent), &asked, &mut usage)?;
        // Every call read before anything is decided: one malformed call fails the whole turn.
        let mut actions: Vec<(Action, Value)> = Vec::with_capacity(first.calls.len());
        for call in &first.calls {
            let args = answer::arguments(call)?;
            let action = answer::action(plan, call, &args, tool_results)?;
            actions.push((action, Value::Object(args)));
        }
        // The goal check, before the runtime sees a close or a give-up.
        let mut checks = Vec::new();
        let mut vetoed: Vec<Option<String>> = vec![None; actions.len()];
        let state = session.state(plan);
        let goal_open = state.is_some_and(|s| {
            s.kind == StateType::Goal && session.visit.goal == Some(GoalStatus::Open)
        });
        for (i, (action, _)) in actions.iter().enumerate() {
            let (closing, quote) = match action {
                Action::CloseGoal { quote } => (true, quote),
                Action::GiveUpGoal { quote } => (false, quote),
                _ => continue,
            };
            let (Some(state), true) = (state, goal_open) else {
                continue;
            };
            let body = request::goal_check(&self.settings, state, closing, quote);
            let checked = self.ask_counted((turn, ModelRole::GoalCheck), &body, &mut usage)?;
            let (met, reason) = answer::verdict(&checked.text);
            let function = if closing {
                "close_goal"
            } else {
                "give_up_goal"
            };
            if !met {
                vetoed[i] = Some(if reason.is_empty() {
                    "the goal check said no".to_string()
                } else {
                    format!("the goal check said no: {reason}")
                });
            }
            checks.push(GoalCheck {
                function: function.into(),
                met,
                reason,
            });
        }
        let kept: Vec<Action> = actions
            .iter()
            .zip(&vetoed)
            .filter(|(_, v)| v.is_none())
            .map(|((a, _), _)| a.clone())
            .collect();
        let (next, mut events) = step(plan, session, message, &kept)?;
        // The vetoed actions are rejected where they stood among the turn's actions.
        let mut results: Vec<(bool, String)> = Vec::with_capacity(actions.len());
        let mut judged = events.iter().filter_map(|e| match &e.what {
            What::ActionAccepted { action } => Some((true, accepted_text(action))),
            What::ActionRejected { reason, .. } => Some((false, format!("rejected: {reason}"))),
            _ => None,
        });
        let mut inserted: Vec<(usize, Event)> = Vec::new();
        for (i, ((action, _), veto)) in actions.iter().zip(&vetoed).enumerate() {
            match veto {
                Some(reason) => {
                    results.push((false, format!("rejected: {reason}")));
                    inserted.push((
                        i,
                        Event::new(
                            next.turn,
                            What::ActionRejected {
                                action: action.clone(),
                                reason: reason.clone(),
                            },
                            format!("rejected {}: {reason}", action.describe()),
                        ),
                    ));
                }
                None => results.push(judged.next().unwrap_or((true, "accepted".into()))),
            }
        }
        for (i, event) in inserted {
            events.insert(i.min(events.len()), event);
        }
        let calls: Vec<ToolCallRecord> = first
            .calls
            .iter()
            .zip(&actions)
            .zip(&results)
            .map(|((call, (_, args)), (accepted, result))| ToolCallRecord {
                function: call.name.clone(),
                arguments: args.clone(),
                accepted: *accepted,
                result: result.clone(),
            })
            .collect();
        // An empty or blank reply is never shown as the agent's words: the follow-up request asks
        // once more (with the calls' results when there were calls), and a second blank answer
        // fails the turn like any other failure, so nothing is applied.
        let reply = if !blank(&first.text) {
            first.text
        } else {
            let body = if first.calls.is_empty() {
                request::again(&self.settings, &asked)
            } else {
                let texts: Vec<String> = results.iter().map(|(_, r)| r.clone()).collect();
                request::second(&self.settings, &asked, &first.calls, &texts)
            };
            let again = self
                .ask_counted((turn, ModelRole::AgentFollowup), &body, &mut usage)?
                .text;
            if blank(&again) {
                return Err(AgentError(NO_WORDS.into()).into());
            }
            again
        };
        let moved = events.iter().any(|e| matches!(e.what, What::Transition(_)));
        let cost = TurnCost {
            usage,
            ms: started.elapsed().as_millis() as u64,
            uncalled: offered && first.calls.is_empty() && !moved,
        };
        Ok(Answered {
            session: next,
            events,
            reply,
            by: AgentKind::LanguageModel,
            calls,
            goal_checks: checks,
            cost: Some(cost),
        })
    }

    /// "Test connection": the server's models from `/models` when it lists them, else one small
    /// completion with the configured model.
    pub fn test_connection(&self) -> Result<ConnectionReport, ApiError> {
        let base = self.http.base_url().to_string();
        if let Ok(text) = self.http.models() {
            if let Some(list) = serde_json::from_str::<Value>(&text)
                .ok()
                .and_then(|v| v.get("data").and_then(Value::as_array).cloned())
            {
                let models: Vec<String> = list
                    .iter()
                    .filter_map(|m| m.get("id").and_then(Value::as_str).map(str::to_string))
                    .collect();
                let has = models.iter().any(|m| m == &self.settings.model);
                if !has {
                    let message = format!(
                        "{base} answers, but it has no model \"{}\": choose one of its {} model(s)",
                        self.settings.model,
                        models.len()
                    );
                    return Ok(ConnectionReport {
                        models,
                        message,
                        functions: None,
                    });
                }
                let functions = self.calls_functions();
                let message = format!(
                    "{base} answers; it has {} model(s), {} among them; {}",
                    models.len(),
                    self.settings.model,
                    functions.said(&self.settings.model)
                );
                return Ok(ConnectionReport {
                    models,
                    message,
                    functions: Some(functions != Functions::None),
                });
            }
        }
        let body = serde_json::json!({
            "model": self.settings.model,
            "messages": [{"role": "user", "content": "Say OK."}],
            "max_tokens": 5,
            "stream": false,
        });
        self.ask(&body).map_err(failed)?;
        let functions = self.calls_functions();
        Ok(ConnectionReport {
            models: Vec::new(),
            message: format!(
                "{base} answers with {}; {}",
                self.settings.model,
                functions.said(&self.settings.model)
            ),
            functions: Some(functions != Functions::None),
        })
    }

    /// Whether the model calls a function it is asked to call, and how the call came back.
    fn calls_functions(&self) -> Functions {
        match self.ask(&request::function_check(&self.settings)) {
            Ok(a) if a.calls.iter().any(|c| c.name == "ping") && a.calls_in_text => {
                Functions::InText
            }
            Ok(a) if a.calls.iter().any(|c| c.name == "ping") => Functions::Parsed,
            _ => Functions::None,
        }
    }
}

/// How a model asked to call a function answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Functions {
    /// With a call the server parsed.
    Parsed,
    /// With a call written in its text, which the server left as text (read all the same).
    InText,
    /// Without a call.
    None,
}

impl Functions {
    /// What "Test connection" says of it.
    fn said(self, model: &str) -> String {
        match self {
            Functions::Parsed => "function calling works".to_string(),
            Functions::InText => format!(
                "{model} calls functions, but in its text, which the server did not read as calls (Plan Builder reads them; for calls the server checks, {})",
                super::FUNCTIONS_ADVICE
            ),
            Functions::None => format!(
                "but {model}, asked to call a function, answered without calling any: {}",
                super::FUNCTIONS_ADVICE
            ),
        }
    }
}

/// "Test connection" with the settings in the form, before they are kept: checked as a save
/// would check them, the key read from the variable they name.
pub fn test_connection(settings: &AgentSettings) -> Result<ConnectionReport, ApiError> {
    let settings = super::settings::tidy(settings.clone());
    super::settings::check(&settings)?;
    let key = super::settings::key(&settings, None, |v| std::env::var(v).ok())?;
    LanguageModel::new(settings, key).test_connection()
}

impl Agent for LanguageModel {
    fn kind(&self) -> AgentKind {
        AgentKind::LanguageModel
    }

    /// The simulator's: a conversation always begins, and nothing is sent to the model before
    /// the author says something (docs/decisions.md).
    fn opening(&self, plan: &Plan, session: &Session) -> Result<String, AgentError> {
        Ok(Simulator.reply_text(plan, session))
    }

    fn turn(&self, plan: &Plan, session: &Session, input: Input) -> Result<Answered, RunError> {
        self.model_turn(plan, session, input)
    }
}

/// What the model is told of an accepted action.
fn accepted_text(action: &Action) -> String {
    match action {
        Action::CallTool {
            tool,
            response_code,
        } if !response_code.is_empty() => format!("accepted: {tool} returned {response_code}"),
        _ => "accepted".into(),
    }
}

/// The language model, with the simulator answering any turn the model fails (`plan chat
/// --fallback simulator`): that turn records an `agent_fallback` event with the reason.
pub struct WithFallback<'a>(pub &'a LanguageModel);

impl Agent for WithFallback<'_> {
    fn kind(&self) -> AgentKind {
        AgentKind::LanguageModel
    }

    fn opening(&self, plan: &Plan, session: &Session) -> Result<String, AgentError> {
        self.0.opening(plan, session)
    }

    fn turn(&self, plan: &Plan, session: &Session, input: Input) -> Result<Answered, RunError> {
        match self.0.turn(plan, session, input) {
            Err(RunError::Agent(why)) => SimulatorForFailedModel(&why.0).turn(plan, session, input),
            other => other,
        }
    }
}

/// The simulator answering a turn the language model failed for this reason (the app's "Answer
/// with the simulator", `--fallback simulator`): its turn, an `agent_fallback` event first.
pub struct SimulatorForFailedModel<'a>(pub &'a str);

impl Agent for SimulatorForFailedModel<'_> {
    fn kind(&self) -> AgentKind {
        AgentKind::Simulator
    }

    fn opening(&self, plan: &Plan, session: &Session) -> Result<String, AgentError> {
        Simulator.opening(plan, session)
    }

    fn turn(&self, plan: &Plan, session: &Session, input: Input) -> Result<Answered, RunError> {
        let mut t = Simulator.turn(plan, session, input)?;
        t.events.insert(0, fallback_event(t.session.turn, self.0));
        Ok(t)
    }
}

/// The trace's note that the simulator answered a turn the model failed.
fn fallback_event(turn: u32, reason: &str) -> Event {
    Event::new(
        turn,
        What::AgentFallback {
            reason: reason.to_string(),
        },
        format!("the simulator answered this turn: the language model failed ({reason})"),
    )
}
