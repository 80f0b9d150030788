//! A conversation between a user and an [`Agent`] over a plan: the agent turns each message into
//! actions, [`super::step`] applies them, and the agent replies for the state the session is then
//! in. The simulator is one agent; a language-model agent sits behind the same trait (agents.md),
//! so an agent is fallible: one that cannot act or reply fails the turn, and the session stays
//! exactly as it was before it.

use std::collections::BTreeMap;

use super::{
    reply, start_from, step, Action, Event, Move, PlanRef, RunError, Session, Start, What,
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
    pub message: &'a str,
    /// The codes the plan's tools return in this turn.
    pub tool_results: &'a ToolResults,
}

/// Whoever plays the agent's part: reads the user, asks for actions, writes replies.
pub trait Agent {
    /// The actions the agent asks for in answer to the input, given the session before the turn.
    fn act(&self, plan: &Plan, session: &Session, input: Input) -> Result<Vec<Action>, AgentError>;
    /// The reply for the state the session is now in (after the turn).
    fn reply(&self, plan: &Plan, session: &Session) -> Result<String, AgentError>;
}

/// What one user turn (or the opening) produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub reply: String,
    pub events: Vec<Event>,
    /// The transition taken in this turn, if any.
    pub transition: Option<Move>,
    /// What the agent was told when it wrote the reply (session-states.md, "The prompt of a turn").
    pub prompt: String,
}

/// A conversation in progress.
pub struct Chat<'a, A: Agent + ?Sized> {
    pub plan: &'a Plan,
    pub agent: &'a A,
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
        let text = agent.reply(plan, &session)?;
        reply(&mut session, text.clone());
        let chat = Chat {
            plan,
            agent,
            session,
        };
        Ok((
            chat,
            Turn {
                reply: text,
                events,
                transition: None,
                prompt,
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
        let input = Input {
            message,
            tool_results,
        };
        let actions = self.agent.act(self.plan, &self.session, input)?;
        let (mut next, events) = step(self.plan, &self.session, message, &actions)?;
        let prompt = super::prompt(self.plan, &next);
        let text = self.agent.reply(self.plan, &next)?;
        reply(&mut next, text.clone());
        self.session = next;
        Ok(Turn {
            reply: text,
            transition: transition_of(&events),
            events,
            prompt,
        })
    }
}

/// The transition among a turn's events.
pub fn transition_of(events: &[Event]) -> Option<Move> {
    events.iter().find_map(|e| match &e.what {
        What::Transition(m) => Some(m.clone()),
        _ => None,
    })
}
