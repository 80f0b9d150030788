//! `plan simulate --plan ID --compare RUN RUN`: two runs of a plan compared (simulate.md,
//! "Runs"), the earlier first, whichever order they are given in. Text: a line per persona (the
//! conversations that passed, before → after), per judge question (its verdicts), per ending and
//! the mean turns. JSON: the app's comparison (`RunComparison`). Exit 0; 2 when a run does not
//! exist or is given twice.

use std::fmt::Write as _;
use std::io::Write;

use plan_api::messages::{CompareRunsArgs, ComparedRun, RunComparison};
use plan_api::simulate::runs;
use plan_api::Context;
use plan_core::simulate::compare::{PassRate, VerdictCounts};

use crate::lifecycle::Failure;
use crate::Format;

/// Compares runs `run` and `other` of plan `plan`; answers the exit code.
pub fn run_command(
    ctx: &Context,
    plan: &str,
    run: &str,
    other: &str,
    format: Format,
) -> Result<u8, Failure> {
    let args = CompareRunsArgs {
        id: plan.to_string(),
        run: run.to_string(),
        other: other.to_string(),
    };
    let c = runs::compare(ctx, &args)?;
    let text = match format {
        Format::Json => serde_json::to_string_pretty(&c).unwrap_or_default() + "\n",
        Format::Text => render(&c),
    };
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(0)
}

/// The text output.
pub fn render(c: &RunComparison) -> String {
    let side = |r: &ComparedRun| match r.plan.version {
        Some(n) => format!("{} (version {n})", r.run),
        None => format!("{} (draft)", r.run),
    };
    let mut out = format!(
        "runs {} → {} of {}\n",
        side(&c.before),
        side(&c.after),
        c.before.plan.id
    );
    let rate = |r: Option<PassRate>| match r {
        None => "not run".to_string(),
        Some(r) if r.apart > 0 => format!("{}/{} passed ({} apart)", r.passed, r.of, r.apart),
        Some(r) => format!("{}/{} passed", r.passed, r.of),
    };
    for p in &c.comparison.personas {
        let _ = writeln!(
            out,
            "persona {}: {} → {}",
            p.id,
            rate(p.before),
            rate(p.after)
        );
    }
    let verdicts = |v: Option<VerdictCounts>| match v {
        None => "not asked".to_string(),
        Some(v) => format!(
            "{} yes, {} no, {} unsure, {} not asked",
            v.yes, v.no, v.unsure, v.not_asked
        ),
    };
    for q in &c.comparison.questions {
        let _ = writeln!(
            out,
            "judge {}: {} → {}",
            q.id,
            verdicts(q.before),
            verdicts(q.after)
        );
    }
    for e in &c.comparison.endings {
        let _ = writeln!(
            out,
            "ended {}: {} → {}",
            e.id,
            e.before.unwrap_or(0),
            e.after.unwrap_or(0)
        );
    }
    let turns = |t: Option<f64>| t.map_or("-".to_string(), |t| format!("{t:.1}"));
    let _ = writeln!(
        out,
        "turns on average: {} → {}",
        turns(c.comparison.turns.0),
        turns(c.comparison.turns.1)
    );
    out
}
