//! A test conversation with a plan file (`plan chat FILE`): the same turns as a workspace
//! conversation (`conversations`), with nothing saved. The CLI chats through here or through
//! `conversations`, never through the runtime directly: one way to run a conversation.

use plan_core::runtime::script::{self, Opening, Run, Script, TurnRecord};
use plan_core::runtime::{Chat, Session, Start, ToolResults};

use crate::answerer::Answerer;
use crate::error::ApiError;
use crate::target::Target;

type Result<T> = std::result::Result<T, ApiError>;

/// A conversation with a plan read from a file, in memory.
pub struct FileConversation {
    target: Target,
    session: Session,
}

impl FileConversation {
    /// A new conversation that begins as `start` says, and its opening.
    pub fn open(target: Target, start: &Start, answerer: &Answerer) -> Result<(Self, Opening)> {
        let (session, opening) = answerer.with_agent(|agent| {
            Chat::open_from(&target.plan, agent, target.plan_ref.clone(), start).map(
                |(chat, turn)| {
                    let opening = Opening::of(&chat.session, turn);
                    (chat.session, opening)
                },
            )
        })?;
        Ok((FileConversation { target, session }, opening))
    }

    /// One turn, answered by `answerer`. On error nothing changed.
    pub fn say_by(
        &mut self,
        message: &str,
        tool_results: &ToolResults,
        answerer: &Answerer,
    ) -> Result<TurnRecord> {
        let session = self.session.clone();
        let (turn, session) = answerer.with_agent(|agent| {
            let mut chat = Chat::resume(&self.target.plan, agent, session);
            let turn = chat.say_with(message, tool_results);
            (turn, chat.session)
        });
        let turn = turn?;
        self.session = session;
        Ok(TurnRecord::of(&self.session, turn))
    }

    /// Where it is now.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The plan it runs.
    pub fn target(&self) -> &Target {
        &self.target
    }
}

/// `script` run in a new conversation with `target`'s plan, beginning in `from` when given (else as
/// the script's `start` says).
pub fn run_script(
    target: &Target,
    script: &Script,
    from: Option<&str>,
    answerer: &Answerer,
) -> Result<Run> {
    answerer
        .with_agent(|agent| {
            script::run_from(
                &target.plan,
                agent,
                target.plan_ref.clone(),
                None,
                script,
                from,
                &mut |_| Ok(()),
            )
        })
        .map_err(ApiError::from)
}
