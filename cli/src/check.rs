//! `plan check FILE…`: validate files and print the diagnostics, like a compiler.
//!
//! Text output, per diagnostic:
//!
//! ```text
//! error[unknown-target-state] states/1/transitions/0/target_state_id: Transition 1 of 'Intake' goes to …
//!   --> support.json · state 'customer-intake' · transition 1
//! ```
//!
//! then one summary line per file. JSON output is one document for all files:
//! `{"diagnostics": [{"file", "code", "severity", "message", "location"}]}`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use plan_core::files::read_bytes;
use plan_core::validate::{check_bytes, Diagnostic, Severity};
use serde_json::json;

use crate::lifecycle::Failure;
use crate::Format;

/// Said after "cannot read FILE" when FILE does not exist but reads as a plan's id (`support`):
/// a new author's first try is often `plan check support`, meaning the workspace's plan.
pub fn plan_id_hint(command: &str, path: &Path) -> String {
    let name = path.to_string_lossy();
    if path.exists() || !plan_core::parse::is_slug(&name) || name.ends_with(".json") {
        return String::new();
    }
    format!(" (a plan of the workspace is named with --plan: plan {command} --plan {name})")
}

/// `failure` (of reading `file` as a plan for `command`) with [`plan_id_hint`] when it is one of
/// reading (exit 2).
pub fn with_plan_id_hint(mut failure: Failure, command: &str, file: &Path) -> Failure {
    if failure.code == 2 {
        failure.message.push_str(&plan_id_hint(command, file));
    }
    failure
}

/// Checks `files`; returns the exit code: 2 if a file could not be read, else 1 if any has errors.
pub fn run(files: &[PathBuf], format: Format) -> u8 {
    let mut out = std::io::stdout().lock();
    let mut code = 0;
    let mut all = Vec::new();
    for path in files {
        let name = path.display().to_string();
        let text = match read_bytes(path) {
            Ok(text) => text,
            Err(e) => {
                to_stderr_line!("plan: cannot check {e}{}", plan_id_hint("check", path));
                code = 2;
                continue;
            }
        };
        // Bytes that are not UTF-8 are an `invalid-json` finding with its place, like bad JSON.
        let (plan, report) = check_bytes(&text);
        // Freeing a large plan takes longer than the check itself, and the process ends soon:
        // leave it to the operating system.
        std::mem::forget(plan);
        std::mem::forget(text);
        if report.has_errors() && code == 0 {
            code = 1;
        }
        if format == Format::Text {
            let _ = write!(out, "{}", render(&name, &report.diagnostics));
        }
        all.extend(report.diagnostics.into_iter().map(|d| (name.clone(), d)));
    }
    if format == Format::Json {
        let doc = document(all.iter().map(|(file, d)| (file.as_str(), d)));
        let _ = writeln!(out, "{doc}");
    }
    code
}

/// The JSON document of diagnostics, each with the file it is of, pretty-printed:
/// `{"diagnostics": [{"file", "code", "severity", "message", "location"}]}`.
pub fn document<'d>(diagnostics: impl Iterator<Item = (&'d str, &'d Diagnostic)>) -> String {
    let diagnostics: Vec<_> = diagnostics
        .map(|(file, d)| {
            json!({
                "file": file,
                "code": d.code,
                "severity": d.severity,
                "message": d.message,
                "location": d.location,
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({ "diagnostics": diagnostics })).unwrap_or_default()
}

/// The text report of one file.
pub fn render(file: &str, diagnostics: &[Diagnostic]) -> String {
    let mut s = String::new();
    for d in diagnostics {
        let path = d.location.path.trim_start_matches('/');
        let place = if path.is_empty() {
            String::new()
        } else {
            format!(" {path}")
        };
        let _ = writeln!(
            s,
            "{}[{}]{place}: {}",
            d.severity.as_str(),
            d.code,
            d.message
        );
        let mut arrow = format!("  --> {file}");
        if let Some(state) = &d.location.state_id {
            let _ = write!(arrow, " · state '{state}'");
        }
        if let Some(task) = &d.location.task_id {
            let _ = write!(arrow, " · task '{task}'");
        }
        if let Some(t) = d.location.transition_index {
            let _ = write!(arrow, " · transition {}", t + 1);
        }
        s.push_str(&arrow);
        s.push_str("\n\n");
    }
    let count = |sev: Severity, word: &str| {
        let n = diagnostics.iter().filter(|d| d.severity == sev).count();
        match n {
            0 => None,
            1 => Some(format!("1 {word}")),
            n => Some(format!("{n} {word}s")),
        }
    };
    let parts: Vec<String> = [
        count(Severity::Error, "error"),
        count(Severity::Warning, "warning"),
        count(Severity::Info, "note"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        let _ = writeln!(s, "{file}: ok, no problems");
    } else {
        let _ = writeln!(s, "{file}: {}", parts.join(", "));
    }
    s
}
