//! `plan simulate`: simulated callers against a plan of the workspace (simulate.md), live or
//! replayed from an earlier run's recording.
//!
//! Text output: a line per conversation (persona/k, status, turns, how it ended, the failed
//! checks and the verdicts with their agreement), a line per persona, then `N passed, N failed`
//! (`, N unsure` and `, N caller failed` when any). JSON: simulate.md's document. Exit 0 when
//! every conversation passed (a caller that failed its own part is counted apart and fails
//! nothing); 1 when any failed, was unsure, diverged or errored; 2 for usage and reading problems.

use std::fmt::Write as _;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use plan_api::agent::settings;
use plan_api::messages::{PlanSide, RoleKeys, RunReport, RunSettings, SimulateArgs};
use plan_api::simulate::roles::{role_settings, SAMPLED_TEMPERATURE};
use plan_api::simulate::{run, Progress};
use plan_api::Context;
use plan_core::simulate::conversation::Status;
use plan_core::simulate::judge::Verdict;
use plan_core::Revision;

use crate::lifecycle::Failure;
use crate::Format;

/// The flags of `plan simulate`.
#[derive(Args)]
pub struct Flags {
    /// The plan of the workspace.
    #[arg(long, value_name = "ID")]
    plan: String,
    /// This version of the plan.
    #[arg(long, value_name = "N", conflicts_with_all = ["live", "draft"])]
    version: Option<u32>,
    /// The live version.
    #[arg(long, conflicts_with = "draft")]
    live: bool,
    /// The draft.
    #[arg(long)]
    draft: bool,
    /// A persona to run (repeat for several); all of the plan's personas when none is given.
    #[arg(long = "persona", value_name = "ID")]
    personas: Vec<String>,
    /// Conversations per persona.
    #[arg(long, value_name = "N", default_value_t = 5)]
    conversations: u32,
    /// The run's seed; a new one when not given (written in the run).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// The caller-model's OpenAI-compatible base URL (else PLAN_BUILDER_CALLER_BASE_URL).
    #[arg(long, value_name = "URL")]
    caller_base_url: Option<String>,
    /// The caller-model's name (else PLAN_BUILDER_CALLER_MODEL).
    #[arg(long, value_name = "M")]
    caller_model: Option<String>,
    /// Who plays the plan's side: the simulator, or the language-model agent (--base-url,
    /// --model, or PLAN_BUILDER_LLM_*, else the app's saved settings).
    #[arg(long, value_enum, default_value = "simulator")]
    agent: Side,
    /// The agent's base URL (with --agent llm).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// The agent's model (with --agent llm).
    #[arg(long, value_name = "M")]
    model: Option<String>,
    /// The judge's base URL (else PLAN_BUILDER_JUDGE_BASE_URL, else the caller's).
    #[arg(long, value_name = "URL")]
    judge_base_url: Option<String>,
    /// The judge's model (else PLAN_BUILDER_JUDGE_MODEL, else the caller's).
    #[arg(long, value_name = "M")]
    judge_model: Option<String>,
    /// Votes per judge question (odd).
    #[arg(long, value_name = "K", default_value_t = 3)]
    votes: u32,
    /// The share of votes that must agree for a verdict not to be unsure (1: all of them).
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    min_agreement: f64,
    /// The judge's sampling temperature.
    #[arg(long, value_name = "T", default_value_t = SAMPLED_TEMPERATURE)]
    judge_temperature: f64,
    /// Conversations side by side.
    #[arg(long, value_name = "P", default_value_t = 1)]
    parallel: u32,
    /// Replay this run from its recording: nothing is sent.
    #[arg(long, value_name = "RUN")]
    replay: Option<String>,
    /// With --replay: send the requests that differ from the recording live, into a new run.
    #[arg(long, requires = "replay")]
    record_missing: bool,
    /// Compare two past runs of the plan instead of running (the earlier first); nothing is sent.
    #[arg(long, num_args = 2, value_names = ["RUN", "RUN"], conflicts_with_all = ["replay", "personas"])]
    compare: Vec<String>,
}

/// `--agent`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Side {
    Simulator,
    Llm,
}

fn usage(message: String) -> Failure {
    Failure {
        code: 2,
        message,
        ..Failure::default()
    }
}

/// The run's settings and keys from the flags and the environment.
fn settings_of(f: &Flags) -> Result<(RunSettings, RoleKeys), Failure> {
    let var = |v: &str| std::env::var(v).ok();
    let caller = role_settings(
        "CALLER",
        f.caller_base_url.as_deref(),
        f.caller_model.as_deref(),
        var,
    )?;
    let live = f.replay.is_none() || f.record_missing;
    let (caller, caller_key) = match caller {
        Some(c) => c,
        None if !live => (Default::default(), None),
        None => {
            return Err(usage(
                "a simulation needs a model to play the caller: give --caller-base-url URL --caller-model M, or set PLAN_BUILDER_CALLER_BASE_URL and PLAN_BUILDER_CALLER_MODEL".into(),
            ))
        }
    };
    let judge = role_settings(
        "JUDGE",
        f.judge_base_url.as_deref(),
        f.judge_model.as_deref(),
        var,
    )?;
    let (judge, judge_key) = judge.unwrap_or_else(|| (caller.clone(), caller_key.clone()));
    let (agent, agent_key) = match f.agent {
        Side::Simulator => (PlanSide::Simulator, None),
        Side::Llm => {
            let saved = settings::user_config_file();
            let (s, key) = settings::for_command_line(
                saved.as_deref(),
                f.base_url.as_deref(),
                f.model.as_deref(),
                var,
            )?;
            (PlanSide::Llm { settings: s }, key)
        }
    };
    Ok((
        RunSettings {
            conversations: f.conversations,
            caller,
            agent,
            judge,
            votes: f.votes,
            min_agreement: f.min_agreement,
            judge_temperature: f.judge_temperature,
            parallel: f.parallel,
        },
        RoleKeys {
            caller: caller_key,
            agent: agent_key,
            judge: judge_key,
        },
    ))
}

/// Runs `plan simulate`; answers the exit code.
pub fn run_command(ctx: &Context, f: &Flags, format: Format) -> Result<u8, Failure> {
    if let [run, other] = f.compare.as_slice() {
        return crate::compare_runs::run_command(ctx, &f.plan, run, other, format);
    }
    let (settings, keys) = settings_of(f)?;
    let revision = match (f.version, f.live, f.draft) {
        (Some(n), _, _) => Some(Revision::Version(n)),
        (None, true, _) => Some(Revision::Live),
        (None, false, true) => Some(Revision::Draft),
        _ => None,
    };
    let args = SimulateArgs {
        plan: f.plan.clone(),
        revision,
        personas: f.personas.clone(),
        seed: f.seed,
        // A replay runs with the settings it recorded (the keys above are for --record-missing).
        settings: f.replay.is_none().then_some(settings),
        replay: f.replay.clone(),
        record_missing: f.record_missing,
    };
    let progress = |p: Progress| {
        if format == Format::Text {
            to_stderr_line!(
                "simulate: {}/{} conversations done, {} turns, {:.1} s of model time",
                p.done,
                p.of,
                p.turns,
                p.model_ms as f64 / 1000.0
            );
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = stop.clone();
    // The first Ctrl-C stops the run as the app's Stop does: no new request, what finished kept
    // in `runs/` with the rest `stopped`. A second one leaves at once.
    let _ = ctrlc::set_handler(move || {
        if interrupted.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
        eprintln!("simulate: stopping (what finished is kept; Ctrl-C again to leave at once)");
    });
    let report = run(ctx, &args, &keys, &progress, stop.clone())?;
    let mut out = std::io::stdout().lock();
    let text = match format {
        Format::Json => serde_json::to_string_pretty(&report).unwrap_or_default() + "\n",
        Format::Text => render(&report),
    };
    let _ = out.write_all(text.as_bytes());
    // Interrupted by its user: not a pass for a script that reads the exit code (130, as a shell
    // says of Ctrl-C), whatever the conversations that finished said.
    if stop.load(Ordering::Relaxed) {
        return Ok(130);
    }
    Ok(exit_code(&report))
}

/// 0 when nothing failed, was unsure, diverged or errored.
pub fn exit_code(report: &RunReport) -> u8 {
    let bad = report.conversations.iter().map(|s| &s.outcome).any(|c| {
        matches!(
            c.status,
            Status::Failed | Status::Unsure | Status::Diverged | Status::Error
        )
    });
    u8::from(bad)
}

/// The text output.
pub fn render(report: &RunReport) -> String {
    let mut out = String::new();
    let plan = match report.plan.version {
        Some(n) => format!("{} (version {n})", report.plan.id),
        None => format!("{} (draft)", report.plan.id),
    };
    let replayed = report
        .replay_of
        .as_ref()
        .map(|r| format!(", replaying run {r}"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "run {} of {plan}, seed {}{replayed}",
        report.run, report.seed
    );
    for c in report.conversations.iter().map(|s| &s.outcome) {
        let mut line = format!(
            "{}/{}  {}  {} turn{}  ended {}",
            c.persona,
            c.k,
            c.status.as_str(),
            c.turns,
            if c.turns == 1 { "" } else { "s" },
            c.ended.as_str()
        );
        if let Some(reason) = &c.reason {
            let _ = write!(line, "  ({reason})");
        }
        for check in c.checks.iter().filter(|c| !c.ok) {
            let _ = write!(line, "\n    check {}: {}", check.check, check.detail);
        }
        for v in &c.verdicts {
            if v.verdict == Verdict::NotAsked {
                let _ = write!(
                    line,
                    "\n    judge {}: not asked (its session states were never active)",
                    v.id
                );
            } else {
                let _ = write!(
                    line,
                    "\n    judge {}: {} ({})",
                    v.id,
                    v.verdict.as_str(),
                    v.agreement
                );
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    for p in &report.personas {
        let _ = writeln!(
            out,
            "persona {}: {} passed, {} failed, {} unsure, {} caller failed",
            p.id, p.passed, p.failed, p.unsure, p.caller_failed
        );
    }
    let count = |s: &[Status]| {
        report
            .conversations
            .iter()
            .filter(|c| s.contains(&c.outcome.status))
            .count()
    };
    let mut total = format!(
        "{} passed, {} failed",
        count(&[Status::Passed]),
        count(&[Status::Failed, Status::Error, Status::Diverged])
    );
    let unsure = count(&[Status::Unsure]);
    if unsure > 0 {
        let _ = write!(total, ", {unsure} unsure");
    }
    let caller_failed = count(&[Status::CallerFailed]);
    if caller_failed > 0 {
        let _ = write!(total, ", {caller_failed} caller failed");
    }
    let stopped = count(&[Status::Stopped]);
    if stopped > 0 {
        let _ = write!(total, ", {stopped} stopped");
    }
    out.push_str(&total);
    out.push('\n');
    out
}
