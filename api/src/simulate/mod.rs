//! Simulations (simulate.md): a run of simulated callers against a plan, live or replayed from an
//! earlier run's recording, kept in the plan's `runs/`.
//!
//! - [`personas`]: the plan's personas, read and checked;
//! - [`exchange`]: every model request of a run, sent and recorded, or answered from a recording;
//! - [`roles`]: the caller's and the judge's endpoints from flags and the environment;
//! - [`runs`]: the Simulate tab's personas and past runs, a run read back;
//! - [`run`] (here): the conversations side by side, then the files of the run.

pub mod exchange;
pub mod personas;
pub mod roles;
pub mod runs;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use plan_core::runtime::{PlanVersion, Simulator};
use plan_core::simulate::conversation::{
    name_of, simulate, Conversation, ConversationSpec, Status,
};
use plan_core::simulate::heat::heat;
use plan_core::simulate::judge::JudgeFormat;
use plan_core::simulate::recording::{RecordLine, Replay};
use plan_core::simulate::{Exchange, ModelRole, RequestSettings};
use plan_core::Revision;

use crate::agent::http::Http;
use crate::agent::model::LanguageModel;
use crate::agent::Usage;
use crate::error::{ApiError, ErrorCode};
use crate::messages::{
    ConversationSummary, PersonaTally, PlanSide, RoleKeys, RunCost, RunFile, RunPersona, RunPlan,
    RunReport, RunSettings, SimulateArgs,
};
use crate::Context;
use exchange::{RunExchange, Servers};
use personas::{personas_to_run, ReadPersona};

type Result<T> = std::result::Result<T, ApiError>;

/// How far a run has come: sent after each conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Conversations finished.
    pub done: u32,
    /// Conversations in all.
    pub of: u32,
    /// User turns so far.
    pub turns: u32,
    /// The models' time so far, in milliseconds (a replay's: as recorded).
    pub model_ms: u64,
}

/// The most conversations per persona a run takes.
pub const MAX_CONVERSATIONS: u32 = 1000;

/// Runs `args` (or replays the run it names), calling `progress` after each conversation; `stop`
/// set ends it early, keeping what finished. The run is kept in `runs/<run id>/`.
pub fn run(
    ctx: &Context,
    args: &SimulateArgs,
    keys: &RoleKeys,
    progress: &(dyn Fn(Progress) + Sync),
    stop: Arc<AtomicBool>,
) -> Result<RunReport> {
    let ws = ctx.workspace();
    let id = args.plan.as_str();
    // A replay runs the run it replays again: its plan's document, its personas, its settings.
    let (revision, settings, seed, persona_ids, replay, replay_of, judge_format) = match &args.replay {
        Some(old) => {
            let dir = ws.run_dir(id, old)?;
            let file: RunFile = read_json(&dir.join("run.json"))?;
            let lines = read_recording(&dir.join("recording.jsonl"))?;
            let stopped = if file.stopped {
                stopped_conversations(&dir)
            } else {
                Vec::new()
            };
            let revision = match file.plan.version {
                Some(n) => Revision::Version(n),
                None => Revision::Draft,
            };
            let ids = file.personas.iter().map(|p| p.id.clone()).collect();
            (
                Some(revision),
                file.settings,
                file.seed,
                ids,
                Some(Replay::new(lines).with_stopped(stopped)),
                Some(old.clone()),
                file.judge_format,
            )
        }
        None => (
            args.revision,
            args.settings.clone().ok_or_else(|| {
                ApiError::new(
                    ErrorCode::Refused,
                    "a run needs its settings: the caller's model server and model",
                )
            })?,
            args.seed.unwrap_or_else(new_seed),
            args.personas.clone(),
            None,
            None,
            JudgeFormat::default(),
        ),
    };
    check_settings(&settings)?;
    let target = ctx.target(id, revision)?;
    let personas = personas_to_run(ctx, id, &target.plan, &persona_ids)?;
    let started = ctx.now();
    let (run_id, dir) = ws.new_run(id, &started)?;
    let live = replay.is_none() || args.record_missing;
    let servers = live.then(|| servers(&settings, keys));
    let exchange = Arc::new(RunExchange::new(servers, replay, judge_format, stop.clone()));
    let jobs: Vec<(usize, u32)> = (0..personas.len())
        .flat_map(|p| (1..=settings.conversations).map(move |k| (p, k)))
        .collect();
    let conversations = run_jobs(&target, &personas, &jobs, &settings, seed, &exchange, progress);
    // A replay of a stopped run stops where the run did, and says so as the run did.
    let stopped = stop.load(Ordering::Relaxed)
        || conversations
            .iter()
            .any(|c| c.outcome.status == Status::Stopped);
    let judge_format = exchange.current_judge_format();
    let lines = Arc::try_unwrap(exchange)
        .map(RunExchange::into_lines)
        .unwrap_or_default();
    let plan = RunPlan {
        id: id.to_string(),
        version: match target.plan_ref.version {
            PlanVersion::Number(n) => Some(n),
            _ => None,
        },
        draft: !matches!(target.plan_ref.version, PlanVersion::Number(_)),
        hash: target.plan_ref.content_hash.clone(),
    };
    for c in &conversations {
        let path = dir
            .join("conversations")
            .join(format!("{}-{}.json", c.outcome.persona, c.outcome.k));
        write(&path, &pretty(c))?;
    }
    let mut recording = Vec::new();
    for line in &lines {
        recording.extend(serde_json::to_vec(line).unwrap_or_default());
        recording.push(b'\n');
    }
    write(&dir.join("recording.jsonl"), &recording)?;
    let file = RunFile {
        run: run_id.clone(),
        plan,
        personas: personas
            .iter()
            .map(|p| RunPersona {
                id: p.persona.id.clone(),
                hash: p.hash.clone(),
            })
            .collect(),
        settings,
        seed,
        started,
        finished: ctx.now(),
        replay_of,
        stopped,
        judge_format,
        summary: tally(&personas, &conversations),
        cost: cost_of(&lines),
    };
    write(&dir.join("run.json"), &pretty(&file))?;
    Ok(report_of(&file, &conversations, &lines))
}

/// The report of the run `file` describes, from its conversations and recording.
pub(crate) fn report_of(
    file: &RunFile,
    conversations: &[Conversation],
    lines: &[RecordLine],
) -> RunReport {
    RunReport {
        run: file.run.clone(),
        plan: file.plan.clone(),
        seed: file.seed,
        heat: heat(conversations),
        conversations: conversations.iter().map(|c| summary(c, lines)).collect(),
        personas: file.summary.clone(),
        replay_of: file.replay_of.clone(),
        stopped: file.stopped,
        cost: cost_of(lines),
    }
}

/// The requests of `lines` by role, with the tokens their servers counted and the models' time.
pub fn cost_of(lines: &[RecordLine]) -> RunCost {
    let mut cost = RunCost::default();
    for line in lines {
        let role = match line.place.role {
            ModelRole::Caller => &mut cost.caller,
            ModelRole::Judge => &mut cost.judge,
            ModelRole::Agent | ModelRole::AgentFollowup | ModelRole::GoalCheck => &mut cost.agent,
        };
        let tokens = |name: &str| {
            line.usage
                .as_ref()
                .and_then(|u| u.get(name))
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0)
        };
        role.requests += 1;
        role.prompt_tokens += tokens("prompt_tokens");
        role.completion_tokens += tokens("completion_tokens");
        role.ms += line.ms;
    }
    cost
}

/// The conversations of `jobs`, up to `parallel` side by side, in the order of `jobs`.
fn run_jobs(
    target: &crate::target::Target,
    personas: &[ReadPersona],
    jobs: &[(usize, u32)],
    settings: &RunSettings,
    seed: u64,
    exchange: &Arc<RunExchange>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<Conversation> {
    let caller = RequestSettings {
        model: settings.caller.model.clone(),
        temperature: settings.caller.temperature,
    };
    let judge = RequestSettings {
        model: settings.judge.model.clone(),
        temperature: settings.judge_temperature,
    };
    let next = AtomicUsize::new(0);
    let done = Mutex::new((0u32, 0u32));
    let results: Mutex<Vec<Option<Conversation>>> = Mutex::new(vec![None; jobs.len()]);
    let workers = (settings.parallel.max(1) as usize).min(jobs.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(p, k)) = jobs.get(i) else { break };
                let spec = ConversationSpec {
                    plan: &target.plan,
                    plan_ref: target.plan_ref.clone(),
                    persona: &personas[p].persona,
                    k,
                    caller: &caller,
                    judge: &judge,
                    votes: settings.votes,
                    min_agreement: settings.min_agreement,
                    seed,
                };
                let shared: Arc<dyn Exchange + Send + Sync> = exchange.clone();
                let conversation = match &settings.agent {
                    PlanSide::Simulator => simulate(&spec, &Simulator, shared.as_ref()),
                    PlanSide::Llm { settings: agent } => {
                        let mut agent = agent.clone();
                        agent.seed = Some(spec.caller_seed());
                        let model = LanguageModel::through(agent, shared.clone(), spec.name());
                        simulate(&spec, &model, shared.as_ref())
                    }
                };
                let turns = conversation.outcome.turns;
                if let Some(slot) = results.lock().unwrap_or_else(|e| e.into_inner()).get_mut(i) {
                    *slot = Some(conversation);
                }
                let report = {
                    let mut d = done.lock().unwrap_or_else(|e| e.into_inner());
                    d.0 += 1;
                    d.1 += turns;
                    Progress {
                        done: d.0,
                        of: jobs.len() as u32,
                        turns: d.1,
                        model_ms: exchange.model_ms(),
                    }
                };
                progress(report);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

/// The servers of the three roles, each with its key.
fn servers(settings: &RunSettings, keys: &RoleKeys) -> Servers {
    Servers {
        caller: Http::new(&settings.caller, keys.caller.clone()),
        agent: match &settings.agent {
            PlanSide::Simulator => None,
            PlanSide::Llm { settings } => Some(Http::new(settings, keys.agent.clone())),
        },
        judge: Http::new(&settings.judge, keys.judge.clone()),
    }
}

/// Settings a run cannot go with, refused before anything is written.
fn check_settings(s: &RunSettings) -> Result<()> {
    let refuse = |m: String| Err(ApiError::new(ErrorCode::Refused, m));
    if s.conversations == 0 || s.conversations > MAX_CONVERSATIONS {
        return refuse(format!(
            "conversations per persona must be from 1 to {MAX_CONVERSATIONS}, not {}",
            s.conversations
        ));
    }
    if s.votes == 0 || s.votes.is_multiple_of(2) || s.votes > 99 {
        return refuse(format!(
            "votes must be odd, from 1 to 99, so that a majority exists, not {}",
            s.votes
        ));
    }
    if !(0.0..=1.0).contains(&s.min_agreement) {
        return refuse(format!(
            "the minimum agreement is a share from 0 to 1, not {}",
            s.min_agreement
        ));
    }
    if !(0.0..=2.0).contains(&s.judge_temperature) {
        return refuse(format!(
            "the judge's temperature must be from 0 to 2, not {}",
            s.judge_temperature
        ));
    }
    if s.parallel == 0 || s.parallel > 64 {
        return refuse(format!(
            "conversations side by side must be from 1 to 64, not {}",
            s.parallel
        ));
    }
    Ok(())
}

/// A seed for a run that was given none: from the clock, which the core never reads.
fn new_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 % 1_000_000_000)
        .unwrap_or(1)
}

/// A conversation as the report shows it: its models' time and tokens from the recording.
fn summary(c: &Conversation, lines: &[RecordLine]) -> ConversationSummary {
    let name = format!("{}/{}", c.outcome.persona, c.outcome.k);
    let mine = lines.iter().filter(|l| l.place.conversation == name);
    let mut ms = 0;
    let mut usage: Option<Usage> = None;
    for line in mine {
        ms += line.ms;
        if let Some(u) = line
            .usage
            .as_ref()
            .and_then(|u| serde_json::from_value::<Usage>(u.clone()).ok())
        {
            *usage.get_or_insert_with(Usage::default) += u;
        }
    }
    ConversationSummary {
        outcome: c.outcome.clone(),
        ms,
        usage,
    }
}

/// Each persona's conversations, counted: errors and divergences count as failed.
fn tally(personas: &[ReadPersona], conversations: &[Conversation]) -> Vec<PersonaTally> {
    personas
        .iter()
        .map(|p| {
            let mut t = PersonaTally {
                id: p.persona.id.clone(),
                ..PersonaTally::default()
            };
            let mine = conversations
                .iter()
                .filter(|c| c.outcome.persona == p.persona.id);
            for c in mine {
                match c.outcome.status {
                    Status::Passed => t.passed += 1,
                    Status::Failed | Status::Error | Status::Diverged => t.failed += 1,
                    Status::Unsure => t.unsure += 1,
                    Status::CallerFailed => t.caller_failed += 1,
                    Status::Stopped => {}
                }
            }
            t
        })
        .collect()
}

fn pretty(value: &impl serde::Serialize) -> Vec<u8> {
    let mut out = serde_json::to_vec_pretty(value).unwrap_or_default();
    out.push(b'\n');
    out
}

fn write(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    plan_core::store::atomic::write(path, bytes, false).map_err(|e| {
        ApiError::new(
            ErrorCode::Io,
            format!("cannot write {}: {e}", path.display()),
        )
    })
}

/// The conversations a stopped run did not finish, by name (`persona/k`), from its files.
fn stopped_conversations(dir: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir.join("conversations")) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| read_json::<Conversation>(&e.path()).ok())
        .filter(|c| c.outcome.status == Status::Stopped)
        .map(|c| name_of(&c.outcome.persona, c.outcome.k))
        .collect()
}

pub(crate) fn read_json<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        ApiError::new(ErrorCode::Io, format!("cannot read {}: {e}", path.display()))
    })?;
    serde_json::from_str(&text).map_err(|e| {
        ApiError::new(ErrorCode::Schema, format!("{}: {e}", path.display()))
    })
}

pub(crate) fn read_recording(path: &std::path::Path) -> Result<Vec<RecordLine>> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        ApiError::new(ErrorCode::Io, format!("cannot read {}: {e}", path.display()))
    })?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| {
                ApiError::new(
                    ErrorCode::InvalidJson,
                    format!("{}: line {}: {e}", path.display(), i + 1),
                )
            })
        })
        .collect()
}
