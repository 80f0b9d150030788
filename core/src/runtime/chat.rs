//! A conversation between a user and an [`Agent`] over a plan: the agent turns each message into
//! actions, [`super::step`] applies them, and the agent replies for the state the session is then
//! in. The simulator is one agent; a language-model agent sits behind the same trait (docs/agents.md),
//! so an agent is fallible: one that cannot act or reply fails the turn, and the session stays
//! exactly as it was before it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    reply_by, start_from, AgentKind, Event, Move, PlanRef, RunError, Session, Start, Turn, What,
};
use crate::plan::Plan;

/// What a tool returns in a test chat when an agent calls it without naming a code: tool name →
/// response code (the test chat's tool switches; a script's `tool_results`).
pub type ToolResults = BTreeMap<String, String>;

/// Why an agent could not act or reply, in words for the author ("could not reach
/// http://localhost:11434/v1: is Ollama running?").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AgentError(pub String);

/// What an agent reads in a user turn besides the plan and the session.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// What the user said.
    pub message: &'a str,
    /// The codes the plan's tools return in this turn.
    pub tool_results: &'a ToolResults,
}

/// Whoever plays the agent's part: reads the user, has the runtime apply the actions it asks for
/// (the pure [`step`](super::step)), writes the reply.
pub trait Agent {
    /// Who it is, as the transcript records it.
    fn kind(&self) -> AgentKind;
    /// The reply that opens a new session, in the state it began in.
    fn opening(&self, plan: &Plan, session: &Session) -> Result<String, AgentError>;
    /// One user turn from `session`: the session after it (its reply not yet in the transcript),
    /// the trace, the reply. On error nothing is applied.
    fn turn(&self, plan: &Plan, session: &Session, input: Input) -> Result<Answered, RunError>;
}

/// What an agent made of one user turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    /// The session after the turn (its reply not yet in the transcript).
    pub session: Session,
    /// What happened, in order.
    pub events: Vec<Event>,
    /// The agent's reply.
    pub reply: String,
    /// Who wrote the reply (an agent that falls back to the simulator says so).
    pub by: AgentKind,
    /// The functions a language model called, with their results (none for the simulator).
    pub calls: Vec<ToolCallRecord>,
    /// The goal checks a language model made before a close or a give-up.
    pub goal_checks: Vec<GoalCheck>,
    /// What a language model's turn cost (none for the simulator).
    pub cost: Option<TurnCost>,
}

/// What a language model's turn cost, and whether it moved anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TurnCost {
    /// Tokens, summed over the turn's requests, when the server says them (`usage`).
    pub usage: Option<Usage>,
    /// The whole turn: every request, the goal checks, the step.
    pub ms: u64,
    /// Functions were offered, the model called none, and the plan did not move: what a server or
    /// model that cannot call functions does every turn.
    pub uncalled: bool,
}

/// Tokens a model's answers counted (the Chat Completions `usage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens the requests sent.
    pub prompt_tokens: u64,
    /// Tokens the model wrote.
    pub completion_tokens: u64,
}

impl Usage {
    /// Both together.
    pub fn total(&self) -> u64 {
        self.prompt_tokens + self.completion_tokens
    }
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
    }
}

/// One function a language model called, and what became of it (docs/agents.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCallRecord {
    /// `record_deliverable`, `call_tool`, …
    pub function: String,
    /// Its arguments as the model wrote them (parsed).
    pub arguments: serde_json::Value,
    /// Whether the runtime applied it.
    pub accepted: bool,
    /// "accepted", or why it was rejected, as the model was told.
    pub result: String,
}

/// The separate goal check's verdict before a `close_goal` or `give_up_goal` (docs/agents.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoalCheck {
    /// `close_goal` or `give_up_goal`.
    pub function: String,
    /// Whether the check found the goal met.
    pub met: bool,
    /// The check's reason, in its words.
    pub reason: String,
}

/// A conversation in progress.
pub struct Chat<'a, A: Agent + ?Sized> {
    /// The plan it runs.
    pub plan: &'a Plan,
    /// Who plays the agent's part.
    pub agent: &'a A,
    /// Where the conversation is.
    pub session: Session,
}

impl<'a, A: Agent + ?Sized> Chat<'a, A> {
    /// A new conversation: the start state entered and the agent's opening reply.
    pub fn open(plan: &'a Plan, agent: &'a A, plan_ref: PlanRef) -> Result<(Self, Turn), RunError> {
        Chat::open_from(plan, agent, plan_ref, &Start::default())
    }

    /// A new conversation that begins as `from` says (a state, values already known).
    pub fn open_from(
        plan: &'a Plan,
        agent: &'a A,
        plan_ref: PlanRef,
        from: &Start,
    ) -> Result<(Self, Turn), RunError> {
        let (mut session, events) = start_from(plan, plan_ref, from)?;
        let prompt = super::prompt(plan, &session);
        let text = agent.opening(plan, &session)?;
        reply_by(&mut session, text.clone(), agent.kind());
        let parked = session.parked_state_id();
        let chat = Chat {
            plan,
            agent,
            session,
        };
        Ok((
            chat,
            Turn {
                number: 0,
                reply: text,
                events,
                prompt,
                parked,
                by: agent.kind(),
                ..Turn::default()
            },
        ))
    }

    /// A conversation resumed from a saved session (the caller checks it runs the same plan).
    pub fn resume(plan: &'a Plan, agent: &'a A, session: Session) -> Self {
        Chat {
            plan,
            agent,
            session,
        }
    }

    /// One user turn, tools returning their first declared code. On error the session is
    /// unchanged.
    pub fn say(&mut self, message: &str) -> Result<Turn, RunError> {
        self.say_with(message, &ToolResults::new())
    }

    /// One user turn, the plan's tools returning what `tool_results` says. On error (an ended
    /// conversation, an agent that failed) the session is unchanged.
    pub fn say_with(
        &mut self,
        message: &str,
        tool_results: &ToolResults,
    ) -> Result<Turn, RunError> {
        if let Some(ended) = &self.session.ended {
            return Err(RunError::Ended(ended.clone()));
        }
        if message.len() > super::MAX_MESSAGE_BYTES {
            return Err(RunError::MessageTooLong(message.len()));
        }
        let input = Input {
            message,
            tool_results,
        };
        let t = self.agent.turn(self.plan, &self.session, input)?;
        let mut next = t.session;
        let prompt = super::prompt(self.plan, &next);
        let by = t.by;
        reply_by(&mut next, t.reply.clone(), by);
        let turn = Turn {
            number: next.turn,
            user: Some(message.to_string()),
            reply: t.reply,
            transition: transition_of(&t.events),
            events: t.events,
            prompt,
            parked: next.parked_state_id(),
            by,
            calls: t.calls,
            goal_checks: t.goal_checks,
            ..Turn::default()
        }
        .with_cost(t.cost);
        self.session = next;
        Ok(turn)
    }
}

/// The transition among a turn's events.
pub fn transition_of(events: &[Event]) -> Option<Move> {
    events.iter().find_map(|e| match &e.what {
        What::Transition(m) => Some(m.clone()),
        _ => None,
    })
}
