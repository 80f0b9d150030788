//! One simulated conversation (simulate.md, "One conversation"): the plan opens; turn by turn the
//! caller-model answers the agent's last reply and its answer is the user's message to the plan;
//! it ends when the plan ends, when the caller hangs up, or at the persona's `max_turns`. Then the
//! persona's checks, then the judge: the persona's questions and the plan's evaluations that apply,
//! each asked `votes` times. Pure: every model answer comes through the [`Exchange`].

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::caller::{self, CallerSaid};
use super::checks::{self, CheckResult};
use super::judge::{self, Verdict, Vote};
use super::persona::Persona;
use super::{answer_text, Divergence, Exchange, ExchangeError, ModelRole, Place, RequestSettings};
use crate::plan::Plan;
use crate::runtime::script::{Opening, TurnRecord};
use crate::runtime::{Agent, Chat, PlanRef, RunError, Session};

/// What one conversation is run with.
pub struct ConversationSpec<'a> {
    /// The plan.
    pub plan: &'a Plan,
    /// How sessions name the plan.
    pub plan_ref: PlanRef,
    /// Who calls.
    pub persona: &'a Persona,
    /// The conversation's number among the persona's, from 1.
    pub k: u32,
    /// The caller-model's settings.
    pub caller: &'a RequestSettings,
    /// The judge's settings.
    pub judge: &'a RequestSettings,
    /// How many times each question is asked.
    pub votes: u32,
    /// The share of votes that must agree for a verdict not to be `unsure`.
    pub min_agreement: f64,
    /// The run's seed.
    pub seed: u64,
}

/// How the recording names conversation `k` of `persona`: `persona/k`.
pub fn name_of(persona: &str, k: u32) -> String {
    format!("{persona}/{k}")
}

impl ConversationSpec<'_> {
    /// `<persona>/<k>`: the conversation's name in recordings.
    pub fn name(&self) -> String {
        name_of(&self.persona.id, self.k)
    }

    /// The seed the caller is sent: `seed + k`.
    pub fn caller_seed(&self) -> u64 {
        self.seed.wrapping_add(u64::from(self.k))
    }

    /// The seed of the judge's vote `v`: `seed + k*100 + v`.
    pub fn vote_seed(&self, v: u32) -> u64 {
        self.seed
            .wrapping_add(u64::from(self.k) * 100)
            .wrapping_add(u64::from(v))
    }
}

/// A conversation's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every check holds and every verdict is yes.
    Passed,
    /// A check fails or a verdict is no.
    Failed,
    /// No failure, but some verdict is unsure.
    Unsure,
    /// The caller-model failed its part; not the plan's failure.
    CallerFailed,
    /// A model request failed; the reason is kept.
    Error,
    /// A replay whose request differs from the recording (or is missing from it).
    Diverged,
    /// The run was stopped before it finished.
    Stopped,
}

impl Status {
    /// The word in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Unsure => "unsure",
            Status::CallerFailed => "caller_failed",
            Status::Error => "error",
            Status::Diverged => "diverged",
            Status::Stopped => "stopped",
        }
    }
}

/// How a conversation came to an end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The plan ended it: complete.
    Complete,
    /// The plan ended it: hang up.
    HangUp,
    /// The plan ended it: hand off.
    HandOff,
    /// The caller hung up.
    CallerHungUp,
    /// The caller's patience (`max_turns`) ran out.
    MaxTurns,
    /// It was cut short (an error, a divergence, a stop, a caller that failed).
    None,
}

impl Ending {
    /// The word in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::Complete => "complete",
            Ending::HangUp => "hang_up",
            Ending::HandOff => "hand_off",
            Ending::CallerHungUp => "caller_hung_up",
            Ending::MaxTurns => "max_turns",
            Ending::None => "none",
        }
    }
}

/// A judge question's verdict in one conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictRecord {
    /// The question's id (a persona's question, or a plan's evaluation).
    pub id: String,
    /// The question.
    pub question: String,
    /// The verdict.
    pub verdict: Verdict,
    /// Each vote.
    pub votes: Vec<Vote>,
    /// Each vote's reason, in the order of `votes`.
    #[serde(default)]
    pub reasons: Vec<String>,
    /// How many votes agreed with the verdict, of how many (`2/3`); empty when not asked.
    pub agreement: String,
    /// The turns the judge was shown.
    pub turns_shown: Vec<u32>,
}

/// How one conversation came out: what a run reports of it, and the head of its file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The persona's id.
    pub persona: String,
    /// Its number among the persona's, from 1.
    pub k: u32,
    /// How it came out.
    pub status: Status,
    /// Why it errored, failed the caller, diverged or stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How many user turns it had.
    pub turns: u32,
    /// How it ended.
    pub ended: Ending,
    /// The persona's checks.
    pub checks: Vec<CheckResult>,
    /// The judge's verdicts: the persona's questions, then the plan's evaluations.
    pub verdicts: Vec<VerdictRecord>,
    /// Where a replay left its recording.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diverged: Option<Divergence>,
}

/// One simulated conversation, as its file keeps it: how it came out, then every turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    /// How it came out.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The opening, as `plan chat` reports it (none when the plan could not open).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<Opening>,
    /// Every user turn with the state, events and values after it, as `plan chat` reports them.
    pub transcript: Vec<TurnRecord>,
}

/// The conversation `spec` describes, the plan's side played by `agent`.
pub fn simulate<A: Agent + ?Sized>(
    spec: &ConversationSpec,
    agent: &A,
    exchange: &dyn Exchange,
) -> Conversation {
    let name = spec.name();
    let mut out = Conversation {
        outcome: Outcome {
            persona: spec.persona.id.clone(),
            k: spec.k,
            status: Status::Error,
            reason: None,
            turns: 0,
            ended: Ending::None,
            checks: Vec::new(),
            verdicts: Vec::new(),
            diverged: None,
        },
        opening: None,
        transcript: Vec::new(),
    };
    let (mut chat, opened) =
        match Chat::open_from(spec.plan, agent, spec.plan_ref.clone(), &spec.persona.start) {
            Ok(c) => c,
            Err(e) => return cut(out, agent_failure(exchange, &name, &e)),
        };
    out.opening = Some(Opening::of(&chat.session, opened));
    let mut hung_up = false;
    for turn in 1..=spec.persona.max_turns {
        let place = Place {
            conversation: name.clone(),
            turn,
            role: ModelRole::Caller,
            question: None,
            vote: None,
            nth: 0,
        };
        let body = caller::request(spec.persona, &chat.session, spec.caller, spec.caller_seed());
        let answered = match exchange.complete(&place, &body) {
            Ok(a) => a,
            Err(e) => return cut(out, e),
        };
        let said = caller::read(answer_text(&answered.body).as_deref(), turn == 1);
        let (text, then_hangs_up) = match said {
            CallerSaid::Message {
                text,
                then_hangs_up,
            } => (text, then_hangs_up),
            CallerSaid::HangUp => {
                hung_up = true;
                break;
            }
            CallerSaid::Failed(reason) => {
                out.outcome.status = Status::CallerFailed;
                out.outcome.reason = Some(reason);
                return out;
            }
        };
        match chat.say(&text) {
            Ok(t) => out.transcript.push(TurnRecord::of(&chat.session, t)),
            Err(e) => return cut(out, agent_failure(exchange, &name, &e)),
        }
        out.outcome.turns = turn;
        if chat.session.ended.is_some() {
            break;
        }
        if then_hangs_up {
            hung_up = true;
            break;
        }
    }
    let session = chat.session;
    out.outcome.ended = match &session.ended {
        Some(e) => match e.kind.as_str() {
            "complete" => Ending::Complete,
            "hang_up" => Ending::HangUp,
            _ => Ending::HandOff,
        },
        None if hung_up => Ending::CallerHungUp,
        None => Ending::MaxTurns,
    };
    out.outcome.checks = checks::check(spec.plan, &session, &spec.persona.expect);
    match judge_all(spec, &name, &session, &out, exchange) {
        Ok(verdicts) => out.outcome.verdicts = verdicts,
        Err(e) => return cut(out, e),
    }
    let failed = out.outcome.checks.iter().any(|c| !c.ok)
        || out
            .outcome
            .verdicts
            .iter()
            .any(|v| v.verdict == Verdict::No);
    let unsure = out
        .outcome
        .verdicts
        .iter()
        .any(|v| v.verdict == Verdict::Unsure);
    out.outcome.status = match (failed, unsure) {
        (true, _) => Status::Failed,
        (false, true) => Status::Unsure,
        (false, false) => Status::Passed,
    };
    out
}

/// Why the agent's side failed: the exchange's own account when it has one (a divergence, a
/// stop), else the runtime's error.
fn agent_failure(exchange: &dyn Exchange, name: &str, e: &RunError) -> ExchangeError {
    exchange
        .failure(name)
        .unwrap_or_else(|| ExchangeError::Failed(e.to_string()))
}

/// `out` cut short by `e`.
fn cut(mut out: Conversation, e: ExchangeError) -> Conversation {
    out.outcome.ended = Ending::None;
    out.outcome.checks.clear();
    out.outcome.verdicts.clear();
    match e {
        ExchangeError::Failed(reason) | ExchangeError::FormatRefused(reason) => {
            out.outcome.status = Status::Error;
            out.outcome.reason = Some(reason);
        }
        ExchangeError::Diverged(d) => {
            out.outcome.status = Status::Diverged;
            out.outcome.reason = Some(format!("turn {}, {}: {}", d.turn, d.role.as_str(), d.what));
            out.outcome.diverged = Some(d);
        }
        ExchangeError::Stopped => {
            out.outcome.status = Status::Stopped;
            out.outcome.reason = Some("the run was stopped".into());
        }
    }
    out
}

/// The judge's verdicts: the persona's questions about the whole conversation, then each of the
/// plan's evaluations, about the turns it is limited to.
fn judge_all(
    spec: &ConversationSpec,
    name: &str,
    session: &Session,
    out: &Conversation,
    exchange: &dyn Exchange,
) -> Result<Vec<VerdictRecord>, ExchangeError> {
    let all: BTreeSet<u32> = (0..=out.outcome.turns).collect();
    let mut asked: Vec<(String, String, Option<BTreeSet<u32>>)> = spec
        .persona
        .judge
        .iter()
        .map(|q| (q.id.clone(), q.question.clone(), Some(all.clone())))
        .collect();
    for e in &spec.plan.evaluations {
        let shown = if e.is_limited() {
            let turns = active_turns(out, &e.only_while_active);
            (!turns.is_empty()).then_some(turns)
        } else {
            Some(all.clone())
        };
        asked.push((e.id.clone(), e.question.clone(), shown));
    }
    let mut verdicts = Vec::with_capacity(asked.len());
    for (id, question, shown) in asked {
        let Some(shown) = shown else {
            verdicts.push(VerdictRecord {
                id,
                question,
                verdict: Verdict::NotAsked,
                votes: Vec::new(),
                reasons: Vec::new(),
                agreement: String::new(),
                turns_shown: Vec::new(),
            });
            continue;
        };
        let excerpt = shown.len() < all.len();
        let text = transcript_text(out, &shown);
        let mut votes = Vec::new();
        let mut reasons = Vec::new();
        for v in 1..=spec.votes.max(1) {
            let place = Place {
                conversation: name.to_string(),
                turn: session.turn,
                role: ModelRole::Judge,
                question: Some(id.clone()),
                vote: Some(v),
                nth: 0,
            };
            let mut format = exchange.judge_format();
            let answered = loop {
                let body = judge::request(
                    &question,
                    &text,
                    excerpt,
                    spec.judge,
                    spec.vote_seed(v),
                    format,
                );
                match (exchange.complete(&place, &body), format.next()) {
                    (Err(ExchangeError::FormatRefused(_)), Some(next)) => {
                        exchange.judge_format_refused(format, next);
                        format = next;
                    }
                    (Err(ExchangeError::FormatRefused(why)), None) => {
                        return Err(ExchangeError::Failed(why))
                    }
                    (other, _) => break other?,
                }
            };
            let voted = judge::read_vote(answer_text(&answered.body).as_deref());
            votes.push(voted.vote);
            reasons.push(voted.reason);
        }
        let (verdict, (agreeing, of)) = judge::verdict(&votes, spec.min_agreement);
        verdicts.push(VerdictRecord {
            id,
            question,
            verdict,
            votes,
            reasons,
            agreement: format!("{agreeing}/{of}"),
            turns_shown: shown.into_iter().collect(),
        });
    }
    Ok(verdicts)
}

/// The turns during which one of `states` was active: active when the turn began (after the
/// turn before) or when it ended.
fn active_turns(out: &Conversation, states: &[String]) -> BTreeSet<u32> {
    let active = |values: &std::collections::BTreeMap<String, crate::runtime::SessionValue>| {
        states
            .iter()
            .any(|id| values.get(id).is_some_and(|v| v.active))
    };
    let mut turns = BTreeSet::new();
    let mut before = out
        .opening
        .as_ref()
        .is_some_and(|o| active(&o.session_states));
    if before {
        turns.insert(0);
    }
    for record in &out.transcript {
        let after = active(&record.session_states);
        if before || after {
            turns.insert(record.turn.number);
        }
        before = after;
    }
    turns
}

/// The conversation as the judge reads it: the turns of `shown`, each with its number.
fn transcript_text(out: &Conversation, shown: &BTreeSet<u32>) -> String {
    let mut text = String::new();
    if let Some(opening) = &out.opening {
        if shown.contains(&0) {
            let _ = writeln!(text, "[turn 0]\nAssistant: {}", opening.agent);
        }
    }
    for record in &out.transcript {
        let n = record.turn.number;
        if !shown.contains(&n) {
            continue;
        }
        let _ = writeln!(
            text,
            "[turn {n}]\nCaller: {}\nAssistant: {}",
            record.turn.user.as_deref().unwrap_or_default(),
            record.turn.reply
        );
    }
    text
}
