//! What the Simulate tab shows of a plan: its personas (each with what is wrong with it beside the
//! draft) and its runs, newest first; and a past run read back from its files as the report it
//! made; two runs compared.

use std::path::Path;

use plan_core::simulate::conversation::{Conversation, Outcome};
use plan_core::simulate::persona::read_persona;
use plan_core::simulate::recording::RecordLine;

use super::{read_json, read_recording, report_of};
use crate::error::{ApiError, ErrorCode};
use crate::messages::{
    CompareRunsArgs, ComparedRun, ConversationView, PersonaProblem, PersonaRow, RunComparison,
    RunFile, RunReport, RunRow, SimulationOverview,
};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// Plan `id`'s personas and runs.
pub fn overview(ctx: &Context, id: &str) -> Result<SimulationOverview> {
    let ws = ctx.workspace();
    let draft = ws.read_draft(id)?;
    let mut personas = Vec::new();
    for persona_id in ws.persona_ids(id)? {
        let (text, _) = ws.read_persona_text(id, &persona_id)?;
        let (persona, findings) = read_persona(&text, &persona_id, &draft);
        let file = format!("personas/{persona_id}.json");
        let problems = findings
            .into_iter()
            .map(|diagnostic| super::personas::said(&PersonaProblem {
                file: file.clone(),
                diagnostic,
            }))
            .collect();
        personas.push(match persona {
            Some(p) => PersonaRow {
                id: persona_id,
                name: p.name().to_string(),
                who: p.who.clone(),
                behaviour: p.behaviour.iter().map(|b| b.sentence().to_string()).collect(),
                questions: p.judge.iter().map(|q| q.question.clone()).collect(),
                problems,
                persona: Some(p),
            },
            None => PersonaRow {
                name: persona_id.clone(),
                id: persona_id,
                who: String::new(),
                behaviour: Vec::new(),
                questions: Vec::new(),
                problems,
                persona: None,
            },
        });
    }
    let mut runs = Vec::new();
    for run in ws.run_ids(id)?.into_iter().rev() {
        let dir = ws.run_dir(id, &run)?;
        // A run whose file cannot be read is left out of the list, not the whole tab.
        if let Ok(file) = read_json::<RunFile>(&dir.join("run.json")) {
            runs.push(RunRow {
                run,
                started: file.started,
                plan: file.plan,
                summary: file.summary,
                replay_of: file.replay_of,
                stopped: file.stopped,
                caller: (file.settings.caller.base_url, file.settings.caller.model),
                cost: file.cost,
            });
        }
    }
    let caller = crate::agent::settings::user_config_file()
        .and_then(|path| crate::agent::settings::load(&path).ok().flatten());
    Ok(SimulationOverview {
        personas,
        runs,
        caller,
    })
}

/// Run `run` of plan `id`, read back as the report it made.
pub fn report(ctx: &Context, id: &str, run: &str) -> Result<RunReport> {
    let dir = ctx.workspace().run_dir(id, run)?;
    let file: RunFile = read_json(&dir.join("run.json"))?;
    let lines: Vec<RecordLine> = read_recording(&dir.join("recording.jsonl"))?;
    let mut conversations: Vec<Conversation> = Vec::new();
    for persona in &file.personas {
        for k in 1..=file.settings.conversations {
            let path = dir
                .join("conversations")
                .join(format!("{}-{k}.json", persona.id));
            if Path::new(&path).is_file() {
                conversations.push(read_json(&path)?);
            }
        }
    }
    Ok(report_of(&file, &conversations, &lines))
}

/// Runs `args.run` and `args.other` of plan `args.id` compared, the earlier (by id, which sorts
/// by time) first.
pub fn compare(ctx: &Context, args: &CompareRunsArgs) -> Result<RunComparison> {
    if args.run == args.other {
        return Err(ApiError::new(
            ErrorCode::Refused,
            format!("run {} is the same run: pick two runs to compare", args.run),
        ));
    }
    let (first, second) = if args.run < args.other {
        (&args.run, &args.other)
    } else {
        (&args.other, &args.run)
    };
    let before = report(ctx, &args.id, first)?;
    let after = report(ctx, &args.id, second)?;
    let outcomes = |r: &RunReport| -> Vec<Outcome> {
        r.conversations.iter().map(|c| c.outcome.clone()).collect()
    };
    Ok(RunComparison {
        comparison: plan_core::simulate::compare::compare(&outcomes(&before), &outcomes(&after)),
        before: ComparedRun {
            run: before.run,
            plan: before.plan,
        },
        after: ComparedRun {
            run: after.run,
            plan: after.plan,
        },
    })
}

/// Conversation `k` of persona `persona` in run `run` of plan `id`, with its test case (beginning
/// as the persona's file says now, else as a new conversation does).
pub fn conversation(
    ctx: &Context,
    id: &str,
    run: &str,
    persona: &str,
    k: u32,
) -> Result<ConversationView> {
    let ws = ctx.workspace();
    let dir = ws.run_dir(id, run)?;
    if !plan_core::simulate::persona::is_persona_id(persona) {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("run {run} has no conversation {persona}/{k}"),
        ));
    }
    let path = dir.join("conversations").join(format!("{persona}-{k}.json"));
    if !path.is_file() {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("run {run} has no conversation {persona}/{k}"),
        ));
    }
    let conversation: Conversation = read_json(&path)?;
    let start = ws
        .read_persona_text(id, persona)
        .ok()
        .and_then(|(text, _)| {
            serde_json::from_str::<plan_core::simulate::Persona>(&text).ok()
        })
        .map(|p| p.start)
        .unwrap_or_default();
    let case = plan_core::simulate::case::case_of(&conversation, &start);
    Ok(ConversationView { conversation, case })
}
