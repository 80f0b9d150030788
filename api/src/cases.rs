//! Test cases: a conversation made a test case (each turn's message with what held after it),
//! saved in the plan's `tests/`, one case run, and a plan's saved cases run as a suite with the
//! transitions they took. Split from `conversations`, which they build on.

use std::collections::BTreeMap;
use std::path::Path;

use plan_core::coverage::Coverage;
use plan_core::runtime::script::{self, Failure, Script};
use plan_core::runtime::{Agent, Preset, Simulator, ToolResults, What};
use plan_core::Revision;

use crate::error::ApiError;
use crate::messages::{CaseRun, ChatView, SavedCase, SuiteRun};
use crate::target::Target;
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// The test case a conversation makes: each turn's message with what held after it (the state,
/// the values recorded in that turn, how it ended), beginning as the conversation began. The
/// author trims it before [`save_case`].
pub fn case_of(view: &ChatView) -> Script {
    let mut turns = Vec::new();
    let user_turns = view.turns.iter().filter(|t| t.user.is_some()).count();
    // A conversation an interruption took part in expects what is parked after every turn.
    let interrupted = view.turns.iter().any(|t| {
        t.events
            .iter()
            .any(|e| matches!(e.what, What::Interrupted { .. }))
    });
    let state_after = |turn: u32| {
        view.turns
            .iter()
            .filter(|t| t.number <= turn)
            .filter_map(|t| t.transition.as_ref().map(|m| m.to.clone()))
            .next_back()
    };
    let start_state = view
        .session
        .path
        .first()
        .cloned()
        .unwrap_or_else(|| view.session.state_id.clone());
    for t in view.turns.iter().filter(|t| t.user.is_some()) {
        let recorded: BTreeMap<String, serde_json::Value> = view
            .session
            .deliverables
            .iter()
            .filter(|(_, r)| r.turn == t.number)
            .map(|(k, r)| (k.clone(), r.value.clone()))
            .collect();
        let last = turns.len() + 1 == user_turns;
        let ended = match (&view.session.ended, last) {
            (Some(e), true) => Some(serde_json::Value::String(e.kind.as_str().to_string())),
            _ => None,
        };
        let changed = changed_states(&t.events);
        turns.push(script::ScriptTurn {
            user: t.user.clone().unwrap_or_default(),
            tool_results: ToolResults::new(),
            expect: Some(script::Expect {
                state: Some(state_after(t.number).unwrap_or_else(|| start_state.clone())),
                deliverables: (!recorded.is_empty()).then_some(recorded),
                ended,
                session_states: (!changed.is_empty()).then_some(changed),
                // Where the plan can park a task, what is parked after each turn is part of
                // what the conversation did.
                parked: interrupted.then(|| t.parked.clone()),
            }),
        });
    }
    Script {
        description: String::new(),
        plan: None,
        start: view.start.clone(),
        tool_results: ToolResults::new(),
        turns,
    }
}

/// The session states a turn changed, each with its value and flag as the turn left them: what a
/// saved case expects of them.
fn changed_states(events: &[plan_core::runtime::Event]) -> BTreeMap<String, Preset> {
    let mut out: BTreeMap<String, Preset> = BTreeMap::new();
    for e in events {
        if let What::SessionStateChanged {
            session_state,
            value,
            active,
            ..
        } = &e.what
        {
            let entry = out.entry(session_state.clone()).or_default();
            if let Some(v) = value {
                entry.value = Some((!v.is_null()).then(|| v.clone()));
            }
            if let Some(a) = active {
                entry.active = Some(*a);
            }
        }
    }
    out
}

/// Saves `script` as test case `name` of plan `id` (`<plan>/tests/<name>.json`); a case of that
/// name is not written over.
pub fn save_case(ctx: &Context, id: &str, name: &str, script: &Script) -> Result<SavedCase> {
    let ws = ctx.workspace();
    let file = ws.save_test_case(id, name, script)?;
    let dir = ws.plan_dir(id)?;
    Ok(SavedCase {
        name: name.to_string(),
        file: file
            .strip_prefix(dir)
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
    })
}

/// Runs the test case in `file` against `target`, `agent` answering its turns.
pub fn run_case(target: &Target, file: &Path, agent: &dyn Agent) -> CaseRun {
    let name = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut run = CaseRun {
        name,
        file: file.to_path_buf(),
        passed: false,
        turns: 0,
        failures: Vec::new(),
        record: None,
    };
    let script = match read_script(file) {
        Ok(s) => s,
        Err(e) => {
            run.failures.push(Failure {
                turn: 0,
                message: e,
            });
            return run;
        }
    };
    match script::run(
        &target.plan,
        agent,
        target.plan_ref.clone(),
        None,
        &script,
        &mut |_| Ok(()),
    ) {
        Ok(done) => {
            run.turns = done.record.turns.len();
            run.failures = done.failures;
            run.record = Some(done.record);
        }
        Err(e) => run.failures.push(Failure {
            turn: 0,
            message: e.to_string(),
        }),
    }
    run.passed = run.failures.is_empty();
    run
}

/// Reads a script file; a file that is not a script says where.
pub fn read_script(path: &Path) -> std::result::Result<Script, String> {
    let text = plan_core::files::read_text(path).map_err(|e| format!("cannot read {e}"))?;
    let mut de = serde_json::Deserializer::from_str(&text);
    plan_core::runtime::script::object(&mut de)
        .and_then(|script| de.end().map(|()| script))
        .map_err(|e| {
            format!(
                "{}:{}:{}: not a script: {e}",
                path.display(),
                e.line(),
                e.column()
            )
        })
}

/// Runs every saved test case of plan `id` against `revision` (the draft by default: what is
/// about to be published), calling `progress(done, total)` as they finish. Passing cases keep no
/// record (only a failing one is opened).
pub fn run_suite(
    ctx: &Context,
    id: &str,
    revision: Option<Revision>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<SuiteRun> {
    let ws = ctx.workspace();
    let target = ctx.target(id, Some(revision.unwrap_or(Revision::Draft)))?;
    let files = ws.test_cases(id)?;
    let total = files.len();
    let mut cases = Vec::with_capacity(total);
    let mut records = Vec::with_capacity(total);
    for (i, file) in files.iter().enumerate() {
        let mut run = run_case(&target, file, &Simulator);
        if let Some(record) = run.record.take() {
            records.push(record.clone());
            if !run.passed {
                run.record = Some(record);
            }
        }
        cases.push(run);
        progress(i + 1, total);
    }
    let coverage = Coverage::of_conversations(&target.plan, &records);
    Ok(SuiteRun {
        cases,
        coverage_summary: coverage.summary(&target.plan),
        coverage,
    })
}
