//! Test conversations: a conversation started (from any state, with values already known), one
//! turn, one turn taken back, the last conversation of a plan found again. Which plan a chat runs
//! is [`crate::target`]'s, who answers [`crate::answerer`]'s, saved cases and the suite
//! `cases`'. The app's Chat tab and `plan chat` / `plan test` share all of it.
//!
//! A conversation of a workspace plan is saved after every turn: the session in
//! `<plan>/sessions/<name>.json` (what `plan chat --resume` reads), small, and beside it, in
//! `sessions/.log/<name>.jsonl`, its log, one record appended per turn: what was said, each
//! turn's events (the trace) and the session it started from, so that a turn can be taken back
//! (step back) after a restart (the store's `saved_chat`). The runtime is pure, so taking a turn
//! back is restoring the session it started from.

use std::path::Path;
use std::sync::Arc;

use plan_core::hash::run_hash;
use plan_core::runtime::script::{self, Failure, Opening, Script, TurnRecord};
use plan_core::runtime::{set_by_author, Chat, Preset, Session, Simulator, ToolResults, Turn};
use plan_core::store::{AuthorChange, ChatLog, StoreError, Workspace};

use crate::answerer::Answerer;
pub use crate::cases::{case_of, read_script, run_case, run_suite, save_case};
use crate::error::{ApiError, ErrorCode};
pub use crate::messages::{CaseRun, ChatView, SavedCase, StartChat, SuiteRun};
use crate::target::{refuse_ended, resume_target, revision_of, Target};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// The view of a conversation, from its session and log.
fn view_of(
    id: &str,
    name: &str,
    session: Session,
    log: ChatLog,
    stale: Option<String>,
) -> ChatView {
    let can_step_back = log.can_step_back();
    ChatView {
        id: id.to_string(),
        name: name.to_string(),
        revision: revision_of(session.plan.version),
        session,
        start: log.start,
        turns: log.turns,
        can_step_back,
        stale,
    }
}

/// A conversation with a plan of the workspace, saved after every turn.
pub struct Conversation {
    ws: Workspace,
    id: String,
    name: String,
    target: Arc<Target>,
    session: Session,
    log: ChatLog,
}

impl Conversation {
    /// A new conversation, its opening saved.
    pub fn start(ctx: &Context, request: &StartChat) -> Result<Conversation> {
        let ws = ctx.workspace().clone();
        let target = ctx.target(&request.id, request.revision)?;
        let name = ws.new_session_name(&request.id, &ctx.now())?;
        let (chat, turn) = Chat::open_from(
            &target.plan,
            &Simulator,
            target.plan_ref.clone(),
            &request.start,
        )
        .map_err(ApiError::from)?;
        let session = chat.session;
        let mut log = ChatLog::began(request.start.clone(), Some(run_hash(&target.plan)), turn);
        ws.save_opening(&request.id, &name, &mut log, &session)?;
        Ok(Conversation {
            ws,
            id: request.id.clone(),
            name,
            target,
            session,
            log,
        })
    }

    /// Saved conversation `name` of plan `id`, to go on with: refused when it has ended or its
    /// plan changed since it began.
    pub fn resume(ctx: &Context, id: &str, name: &str) -> Result<Conversation> {
        let ws = ctx.workspace().clone();
        let (mut session, log) = ws.read_conversation(id, name)?;
        let target = resume_target(ctx, id, &session, log.runs.as_deref())?;
        refuse_ended(id, name, &session)?;
        // Only the cards moved: the session runs the plan as it is now (saved with the next turn).
        session.plan.content_hash = target.plan_ref.content_hash.clone();
        Ok(Conversation {
            ws,
            id: id.to_string(),
            name: name.to_string(),
            target,
            session,
            log,
        })
    }

    /// The session's name in `<plan>/sessions/`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The plan it runs.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Where it is now.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// One user turn answered by the simulator, the plan's tools returning what `tool_results`
    /// says; saved. On error (an ended conversation, a save that failed) nothing changed.
    pub fn say(&mut self, message: &str, tool_results: &ToolResults) -> Result<&Turn> {
        self.say_by(message, tool_results, &Answerer::Simulator)
    }

    /// One user turn answered by `answerer`; saved. On error (an ended conversation, a model
    /// that failed, a save that failed) nothing changed: the session is as before the turn.
    pub fn say_by(
        &mut self,
        message: &str,
        tool_results: &ToolResults,
        answerer: &Answerer,
    ) -> Result<&Turn> {
        let (turn, session) = answerer.with_agent(|agent| {
            let mut chat = Chat::resume(&self.target.plan, agent, self.session.clone());
            let turn = chat.say_with(message, tool_results);
            (turn, chat.session)
        });
        let turn = turn.map_err(ApiError::from)?;
        self.ws.save_turn(
            &self.id,
            &self.name,
            &mut self.log,
            &self.session,
            turn,
            &session,
        )?;
        self.session = session;
        Ok(self.log.turns.last().expect("just logged"))
    }

    /// Takes the last turn back: the session it started from is restored and saved.
    pub fn step_back(&mut self) -> Result<()> {
        let back = self
            .ws
            .save_step_back(&self.id, &self.name, &mut self.log, &self.session)?;
        let Some(before) = back else {
            return Err(ApiError::new(
                ErrorCode::Refused,
                "there is no turn to take back",
            ));
        };
        self.session = before;
        Ok(())
    }

    /// The turns of `script` said in this conversation, each checked against its expectations
    /// and saved: what `plan chat --plan ID --script FILE` does. A turn after the conversation
    /// ended is not said: the run stops there with a failure.
    pub fn run_script(&mut self, script: &Script) -> Result<(Vec<TurnRecord>, Vec<Failure>)> {
        self.run_script_by(script, &Answerer::Simulator)
    }

    /// [`Conversation::run_script`] with `answerer` answering each turn (`--agent llm`).
    pub fn run_script_by(
        &mut self,
        script: &Script,
        answerer: &Answerer,
    ) -> Result<(Vec<TurnRecord>, Vec<Failure>)> {
        let mut records = Vec::new();
        let mut failures = Vec::new();
        for (i, t) in script.turns.iter().enumerate() {
            let n = i as u32 + 1;
            if let Some(ended) = &self.session.ended {
                failures.push(script::not_run(n, ended));
                break;
            }
            let logged = self.say_by(&t.user, &script.tools_of(t), answerer)?.clone();
            records.push(self.record_of(&logged));
            if let Some(expect) = &t.expect {
                failures.extend(script::check(&self.target.plan, &self.session, expect, n));
            }
        }
        Ok((records, failures))
    }

    /// The author sets a session state by hand during the chat (`by: author`): applied to the
    /// session now, its events added to the trace of the latest turn, saved. Refused with the
    /// reason (an unknown state, a value that does not fit, an ended conversation); then nothing
    /// changed.
    pub fn set_session_state(&mut self, state: &str, preset: &Preset) -> Result<()> {
        refuse_ended(&self.id, &self.name, &self.session)?;
        let mut session = self.session.clone();
        let mut events = Vec::new();
        set_by_author(&self.target.plan, &mut session, state, preset, &mut events)
            .map_err(|why| ApiError::new(ErrorCode::Refused, format!("{state}: {why}")))?;
        let prompt = plan_core::runtime::prompt(&self.target.plan, &session);
        self.ws.save_amended(
            &self.id,
            &self.name,
            &mut self.log,
            AuthorChange { events, prompt },
            &self.session,
            &session,
        )?;
        self.session = session;
        Ok(())
    }

    /// A logged turn as `plan chat` reports it, with the state and values after it (the
    /// conversation's now: call it right after the turn).
    pub fn record_of(&self, turn: &Turn) -> TurnRecord {
        TurnRecord::of(&self.session, turn.clone())
    }

    /// The opening as `plan chat` reports it: the turn-0 reply and events when this conversation
    /// began here, what the session says when it was resumed.
    pub fn opening(&self) -> Opening {
        match self.log.turns.first().filter(|t| t.number == 0) {
            Some(t) if self.session.turn == 0 => Opening {
                agent: t.reply.clone(),
                state: self.session.state_id.clone(),
                events: t.events.clone(),
                deliverables: self.session.deliverables.clone(),
                session_states: self.session.session_states.clone(),
                prompt: t.prompt.clone(),
                parked: self.session.parked.as_ref().map(|p| p.state_id.clone()),
            },
            _ => Opening::resumed(&self.target.plan, &self.session),
        }
    }

    /// What the app shows of it.
    pub fn view(&self) -> ChatView {
        view_of(
            &self.id,
            &self.name,
            self.session.clone(),
            self.log.clone(),
            None,
        )
    }
}

/// A new test conversation of a plan, as the app starts one.
pub fn start(ctx: &Context, request: &StartChat) -> Result<ChatView> {
    Ok(Conversation::start(ctx, request)?.view())
}

/// One turn of saved conversation `name` of plan `id`, answered by the simulator.
pub fn say(
    ctx: &Context,
    id: &str,
    name: &str,
    message: &str,
    tool_results: &ToolResults,
) -> Result<ChatView> {
    let mut c = Conversation::resume(ctx, id, name)?;
    c.say(message, tool_results)?;
    Ok(c.view())
}

/// One turn of saved conversation `name` of plan `id`, answered as `choice` says: the simulator,
/// the simulator after the model failed (an `agent_fallback` event), or the language model of the
/// settings kept in `settings_file` with its key from the environment.
pub fn say_as(
    ctx: &Context,
    request: &crate::messages::ChatSay,
    settings_file: Option<&Path>,
) -> Result<ChatView> {
    let answerer = Answerer::of(&request.agent, settings_file)?;
    let mut c = Conversation::resume(ctx, &request.id, &request.name)?;
    c.say_by(&request.message, &request.tool_results, &answerer)?;
    Ok(c.view())
}

/// Session state `state` of conversation `name` of plan `id` set by the author (`by: author`).
pub fn set_session_state(
    ctx: &Context,
    id: &str,
    name: &str,
    state: &str,
    preset: &Preset,
) -> Result<ChatView> {
    let mut c = Conversation::resume(ctx, id, name)?;
    c.set_session_state(state, preset)?;
    Ok(c.view())
}

/// Conversation `name` of plan `id` with its last turn taken back.
pub fn step_back(ctx: &Context, id: &str, name: &str) -> Result<ChatView> {
    let ws = ctx.workspace();
    let (mut session, log) = ws.read_conversation(id, name)?;
    let target = resume_target(ctx, id, &session, log.runs.as_deref())?;
    session.plan.content_hash = target.plan_ref.content_hash.clone();
    let mut c = Conversation {
        ws: ws.clone(),
        id: id.to_string(),
        name: name.to_string(),
        target,
        session,
        log,
    };
    c.step_back()?;
    Ok(c.view())
}

/// The newest conversation of plan `id`, where it was; `stale` says why it cannot go on when its
/// plan changed since it began. None when the plan has none.
pub fn latest(ctx: &Context, id: &str) -> Result<Option<ChatView>> {
    let ws = ctx.workspace();
    let Some(name) = ws.sessions(id)?.into_iter().next_back() else {
        return Ok(None);
    };
    let (session, log) = match ws.read_conversation(id, &name) {
        Ok(read) => read,
        // A session that cannot be read is no conversation to show; a log, the error says which.
        Err(StoreError::BadSession { .. } | StoreError::NoSession { .. }) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let stale = resume_target(ctx, id, &session, log.runs.as_deref())
        .err()
        .map(|e| e.message);
    Ok(Some(view_of(id, &name, session, log, stale)))
}
