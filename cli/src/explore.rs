//! `plan explore`: every conversation a plan allows, up to bounds, and what only shows when it
//! runs (explore.md), each finding with the length of the shortest conversation that shows it.
//!
//! Text output: one line per finding, then
//! `explored N configurations (complete|stopped at …): E errors, W warnings`. JSON: explore.md's
//! document. Exit 0 with no error found, 1 with one (or a plan with errors, whose diagnostics are
//! printed instead), 2 for a usage or reading problem.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use plan_api::explore::{explore_file, explore_plan, Older};
use plan_core::explore::{Bounds, Explored, Stopped};
use plan_core::validate::Severity;
use plan_core::Revision;
use serde_json::json;

use crate::chat::refusal;
use crate::check;
use crate::lifecycle::{workspace, Failure};
use crate::Format;

/// The options of `plan explore`.
pub struct Options {
    pub file: Option<PathBuf>,
    pub plan: Option<String>,
    pub revision: Option<Revision>,
    pub workspace: Option<PathBuf>,
    pub bounds: Bounds,
    /// `--compare FILE`.
    pub compare_file: Option<PathBuf>,
    /// `--compare-version N`.
    pub compare_version: Option<u32>,
    /// `--compare-live`.
    pub compare_live: bool,
}

/// Runs `plan explore`; answers the exit code.
pub fn run(o: Options, format: Format) -> Result<u8, Failure> {
    let explored = match (&o.file, &o.plan) {
        (Some(file), _) => {
            let name = file.display().to_string();
            explore_file(file, o.compare_file.as_deref(), o.bounds)
                .map_err(|e| check::with_plan_id_hint(refusal(&name, e), "explore", file))?
        }
        (None, Some(id)) => {
            let ctx = workspace(o.workspace.as_deref())?;
            let older = match (&o.compare_file, o.compare_version, o.compare_live) {
                (Some(file), _, _) => Some(Older::File(file)),
                (None, Some(n), _) => Some(Older::Version(n)),
                (None, None, true) => Some(Older::Live),
                _ => None,
            };
            explore_plan(&ctx, id, o.revision, older, o.bounds).map_err(|e| refusal(id, e))?
        }
        (None, None) => {
            return Err(Failure {
                code: 2,
                message: "name a plan file or --plan ID".into(),
                ..Failure::default()
            })
        }
    };
    let errors = count(&explored, Severity::Error);
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&document(&explored)).unwrap_or_default()
            );
        }
        Format::Text => {
            let _ = write!(out, "{}", render(&explored));
        }
    }
    Ok(if errors > 0 { 1 } else { 0 })
}

fn count(e: &Explored, severity: Severity) -> usize {
    e.findings.iter().filter(|f| f.severity == severity).count()
}

/// explore.md's JSON document.
pub fn document(e: &Explored) -> serde_json::Value {
    json!({
        "complete": e.complete,
        "configurations": e.configurations,
        "conversations": e.conversations,
        "turns_max": e.turns_max,
        "coverage": e.coverage,
        "findings": e.findings,
        "compare": e.compare,
    })
}

/// The text report: a line per finding, then the summary.
pub fn render(e: &Explored) -> String {
    let mut s = String::new();
    for f in &e.findings {
        let severity = severity_of(f);
        let mut place = Vec::new();
        if let Some(state) = &f.location.state_id {
            place.push(format!("state '{state}'"));
        }
        if let Some(i) = f.location.transition_index {
            place.push(format!("transition {}", i + 1));
        }
        if let Some(rule) = &f.location.rule {
            place.push(format!("rule '{rule}'"));
        }
        let place = if place.is_empty() {
            String::new()
        } else {
            format!(" {}:", place.join(" · "))
        };
        let shortest = match f.turns() {
            0 if f.script.is_none() => String::new(),
            1 => " (shortest conversation: 1 turn)".to_string(),
            n => format!(" (shortest conversation: {n} turns)"),
        };
        let _ = writeln!(s, "{severity}[{}]{place} {}{shortest}", f.code, f.message);
    }
    let how = if e.complete {
        "complete".to_string()
    } else {
        match e.stopped {
            Some(Stopped::MaxConfigurations) => "stopped at the most configurations".into(),
            Some(Stopped::MaxMemory) => "stopped at the memory ceiling".into(),
            Some(Stopped::MaxMoves) => "stopped at the work ceiling".into(),
            Some(Stopped::Asked) => "stopped".into(),
            _ => "stopped at the most turns".into(),
        }
    };
    if let Some(c) = &e.compare {
        s.push_str("what changes for callers (against the older plan):\n");
        for o in &c.outcomes {
            let turns = o.script.turns.len();
            let _ = writeln!(
                s,
                "  {} conversation{}: {} before, now {} (shortest: {turns} turn{})",
                o.count,
                if o.count == 1 { "" } else { "s" },
                o.from,
                o.to,
                if turns == 1 { "" } else { "s" }
            );
        }
        if c.outcomes.is_empty() {
            s.push_str("  no conversation ends differently\n");
        }
        if !c.states_lost.is_empty() {
            let _ = writeln!(s, "  no longer entered: {}", c.states_lost.join(", "));
        }
        if !c.states_gained.is_empty() {
            let _ = writeln!(s, "  now entered: {}", c.states_gained.join(", "));
        }
        for f in &c.findings_new {
            let _ = writeln!(s, "  new: {}[{}] {}", severity_of(f), f.code, f.message);
        }
        for f in &c.findings_gone {
            let _ = writeln!(s, "  gone: {}[{}] {}", severity_of(f), f.code, f.message);
        }
    }
    let many = |n: usize, one: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {one}s")
        }
    };
    let _ = writeln!(
        s,
        "explored {} configurations ({how}): {}, {}",
        e.configurations,
        many(count(e, Severity::Error), "error"),
        many(count(e, Severity::Warning), "warning")
    );
    s
}

fn severity_of(f: &plan_core::explore::Finding) -> &'static str {
    match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}
