//! `plan test ID | DIR | FILE…`: runs saved test cases and ends with `N passed, N failed`.
//!
//! Which plan a test case runs: a plan id runs its `tests/` folder against its draft (or
//! `--version N` / `--live`); a test file inside a plan's folder (`<plan>/tests/x.json`) runs
//! against that plan; a test file elsewhere names its plan document in `"plan"`, relative to
//! itself. A folder runs the test files it holds (a plan folder: its `tests/`). Each plan is read
//! and checked once, however many tests run on it; a plan with errors fails its tests.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use plan_api::answerer::Answerer;
use plan_api::conversations::{read_script, run_case as run_one};
use plan_api::target::{target_file, target_plan, Target};
use plan_api::{ApiError, Context, ErrorCode};
use plan_core::coverage::Coverage;
use plan_core::runtime::script::ChatRecord;
use plan_core::store::Workspace;
use plan_core::Revision;
use serde_json::json;

use crate::lifecycle::Failure;
use crate::{check, Format};

/// One test case to run, and the plan it runs on.
struct Case {
    label: String,
    file: PathBuf,
    plan: PlanKey,
}

/// Where a test's plan comes from.
#[derive(Clone, PartialEq, Eq, Hash)]
enum PlanKey {
    /// Plan `id` of the workspace at this root.
    Workspace(PathBuf, String),
    /// A plan document.
    File(PathBuf),
    /// The test named its plan neither way: why.
    Unknown(String),
}

/// The outcome of one test case.
struct Outcome {
    label: String,
    file: PathBuf,
    turns: usize,
    failures: Vec<String>,
    /// The plan it ran on, and the conversation it had, for coverage.
    plan: PlanKey,
    record: Option<ChatRecord>,
}

pub fn run(
    ws: impl Fn() -> Result<Context, Failure>,
    targets: &[String],
    revision: Option<Revision>,
    coverage: bool,
    agent: &Answerer,
    format: Format,
) -> Result<u8, Failure> {
    let mut cases = Vec::new();
    for t in targets {
        collect(&ws, t, &mut cases)?;
    }
    if cases.is_empty() {
        to_stderr_line!("plan: no test cases found in {}", targets.join(", "));
    }
    let mut plans: HashMap<PlanKey, Result<Target, String>> = HashMap::new();
    let mut outcomes = Vec::with_capacity(cases.len());
    for case in cases {
        let target = plans
            .entry(case.plan.clone())
            .or_insert_with(|| load(&case.plan, revision));
        outcomes.push(run_case(&case, target, agent));
    }
    let failed = outcomes.iter().filter(|o| !o.failures.is_empty()).count();
    let passed = outcomes.len() - failed;
    let covered = if coverage {
        covered(&plans, &outcomes)
    } else {
        Vec::new()
    };
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => {
            let results: Vec<_> = outcomes
                .iter()
                .map(|o| {
                    json!({"name": o.label, "file": o.file, "passed": o.failures.is_empty(),
                        "turns": o.turns, "failures": o.failures})
                })
                .collect();
            let mut doc = json!({"results": results, "passed": passed, "failed": failed});
            if coverage {
                doc["coverage"] = covered
                    .iter()
                    .map(|(target, c)| {
                        let taken: Vec<_> = c
                            .taken(&target.plan)
                            .into_iter()
                            .map(|(from, i, to)| json!({"from": from, "to": to, "index": i}))
                            .collect();
                        let untaken: Vec<_> = c
                            .untaken(&target.plan)
                            .into_iter()
                            .map(|(from, i, to)| json!({"from": from, "to": to, "index": i}))
                            .collect();
                        json!({"plan": target.name, "taken": taken, "untaken": untaken,
                            "tested": taken.len(), "total": target.plan.transition_count(),
                            "summary": c.summary(&target.plan)})
                    })
                    .collect();
            }
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            );
        }
        Format::Text => {
            let mut text = String::new();
            for o in &outcomes {
                let verdict = if o.failures.is_empty() {
                    "PASS"
                } else {
                    "FAIL"
                };
                let unit = if o.turns == 1 { "turn" } else { "turns" };
                let _ = writeln!(text, "{verdict} {} ({} {unit})", o.label, o.turns);
                for f in &o.failures {
                    let _ = writeln!(text, "     {f}");
                }
            }
            let _ = writeln!(text, "{passed} passed, {failed} failed");
            for (target, c) in &covered {
                text.push_str(&coverage_text(target, c));
            }
            let _ = write!(out, "{text}");
        }
    }
    Ok(u8::from(failed > 0))
}

/// The test cases named by one argument.
fn collect(
    ws: &impl Fn() -> Result<Context, Failure>,
    target: &str,
    cases: &mut Vec<Case>,
) -> Result<(), Failure> {
    let path = Path::new(target);
    if path.is_file() {
        cases.push(case_of_file(path, path.display().to_string()));
        return Ok(());
    }
    if path.is_dir() {
        let tests = if path.join("draft.json").is_file() {
            path.join("tests")
        } else {
            path.to_path_buf()
        };
        for file in json_files(&tests) {
            cases.push(case_of_file(&file, file.display().to_string()));
        }
        return Ok(());
    }
    if plan_core::parse::is_slug(target) && !target.ends_with(".json") {
        let ctx = ws()?;
        let ws = ctx.workspace();
        for file in ws.test_cases(target)? {
            let stem = file.file_stem().unwrap_or_default().to_string_lossy();
            cases.push(Case {
                label: format!("{target}/{stem}"),
                plan: PlanKey::Workspace(ws.root().to_path_buf(), target.to_string()),
                file,
            });
        }
        return Ok(());
    }
    Err(Failure {
        code: 2,
        message: format!("{target}: no such file, folder or plan"),
        ..Failure::default()
    })
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension().is_some_and(|e| e == "json")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    files.sort();
    files
}

/// A test file and its plan: the plan folder holding it, else its `"plan"` field.
fn case_of_file(file: &Path, label: String) -> Case {
    let plan = match Workspace::holding(file) {
        Some((ws, id)) => PlanKey::Workspace(ws.root().to_path_buf(), id),
        None => match read_script(file) {
            Ok(s) => match s.plan {
                Some(rel) => {
                    let base = file.parent().unwrap_or(Path::new("."));
                    PlanKey::File(base.join(rel))
                }
                None => PlanKey::Unknown(
                    "cannot tell which plan this test runs: keep it in a plan's tests/ folder of a workspace, or name the plan file in \"plan\"".into(),
                ),
            },
            // Reported when the case runs.
            Err(_) => PlanKey::Unknown(String::new()),
        },
    };
    Case {
        label,
        file: file.to_path_buf(),
        plan,
    }
}

fn load(key: &PlanKey, revision: Option<Revision>) -> Result<Target, String> {
    // A plan with errors fails its cases; its diagnostics go to stderr, as `plan chat`'s do.
    let said = |name: &str, e: ApiError| {
        if e.code == ErrorCode::HasErrors {
            to_stderr!("{}", check::render(name, &e.diagnostics));
        }
        e.message
    };
    match key {
        PlanKey::Workspace(root, id) => {
            let ws = Workspace::at(root);
            target_plan(&ws, id, Some(revision.unwrap_or(Revision::Draft))).map_err(|e| said(id, e))
        }
        PlanKey::File(path) => target_file(path).map_err(|e| said(&path.display().to_string(), e)),
        PlanKey::Unknown(why) => Err(why.clone()),
    }
}

fn run_case(case: &Case, target: &Result<Target, String>, agent: &Answerer) -> Outcome {
    let mut outcome = Outcome {
        label: case.label.clone(),
        file: case.file.clone(),
        turns: 0,
        failures: Vec::new(),
        plan: case.plan.clone(),
        record: None,
    };
    let target = match target {
        Ok(t) => t,
        Err(e) => {
            // A file that is not a script says so first.
            if let Err(bad) = read_script(&case.file) {
                outcome.failures.push(bad);
            } else {
                outcome.failures.push(e.clone());
            }
            return outcome;
        }
    };
    let run = agent.with_agent(|agent| run_one(target, &case.file, agent));
    outcome.turns = run.turns;
    outcome.failures = run.failures.iter().map(ToString::to_string).collect();
    outcome.record = run.record;
    outcome
}

/// Each plan the cases ran on, with the transitions they took.
fn covered<'t>(
    plans: &'t HashMap<PlanKey, Result<Target, String>>,
    outcomes: &[Outcome],
) -> Vec<(&'t Target, Coverage)> {
    let mut out: Vec<(&Target, Coverage)> = Vec::new();
    let mut keys: Vec<&PlanKey> = Vec::new();
    for o in outcomes {
        if !keys.contains(&&o.plan) {
            keys.push(&o.plan);
        }
    }
    for key in keys {
        let Some(Ok(target)) = plans.get(key) else {
            continue;
        };
        let records = outcomes
            .iter()
            .filter(|o| o.plan == *key)
            .filter_map(|o| o.record.as_ref());
        out.push((target, Coverage::of_conversations(&target.plan, records)));
    }
    out
}

/// Which transitions of a plan the cases took and never took: `from → to #index`.
fn coverage_text(target: &Target, c: &Coverage) -> String {
    let mut s = format!("coverage of {}:\n", target.name);
    for (from, i, to) in c.taken(&target.plan) {
        let _ = writeln!(s, "  taken        {from} → {to} #{i}");
    }
    for (from, i, to) in c.untaken(&target.plan) {
        let _ = writeln!(s, "  never taken  {from} → {to} #{i}");
    }
    let _ = writeln!(s, "{}", c.summary(&target.plan));
    s
}
