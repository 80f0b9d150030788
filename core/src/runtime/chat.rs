//! A conversation between a user and an [`Agent`] over a plan: the agent turns each message into
//! actions, [`super::step`] applies them, and the agent replies for the state the session is then
//! in. The simulator is one agent; a language-model agent can come later behind the same trait.

use super::{reply, start, step, Action, Event, Move, PlanRef, RunError, Session, What};
use crate::plan::Plan;

/// Whoever plays the agent's part: reads the user, asks for actions, writes replies.
pub trait Agent {
    /// The actions the agent asks for in answer to `message`, given the session before the turn.
    fn act(&self, plan: &Plan, session: &Session, message: &str) -> Vec<Action>;
    /// The reply for the state the session is now in (after the turn).
    fn reply(&self, plan: &Plan, session: &Session) -> String;
}

/// What one user turn produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub reply: String,
    pub events: Vec<Event>,
    /// The transition taken in this turn, if any.
    pub transition: Option<Move>,
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
        let (mut session, events) = start(plan, plan_ref)?;
        let text = agent.reply(plan, &session);
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

    /// One user turn. On error the session is unchanged.
    pub fn say(&mut self, message: &str) -> Result<Turn, RunError> {
        if let Some(ended) = &self.session.ended {
            return Err(RunError::Ended(ended.clone()));
        }
        let actions = self.agent.act(self.plan, &self.session, message);
        let (mut next, events) = step(self.plan, &self.session, message, &actions)?;
        let text = self.agent.reply(self.plan, &next);
        reply(&mut next, text.clone());
        self.session = next;
        let transition = events.iter().find_map(|e| match &e.what {
            What::Transition(m) => Some(m.clone()),
            _ => None,
        });
        Ok(Turn {
            reply: text,
            events,
            transition,
        })
    }
}
