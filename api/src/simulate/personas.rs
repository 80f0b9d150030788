//! A plan's personas read from its `personas/` folder and checked against the plan they run with:
//! each problem names the file and the field's path, and a persona with an error does not run.

use plan_core::simulate::persona::{check_persona, read_persona, Persona};
use plan_core::{Plan, Severity};

use crate::error::{ApiError, ErrorCode};
use crate::messages::{PersonaProblem, SavePersonaArgs, SimulationOverview};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// A persona read, with the hash of its file's content.
pub struct ReadPersona {
    /// The persona.
    pub persona: Persona,
    /// The SHA-256 of its file.
    pub hash: String,
}

/// Every problem of plan `id`'s personas `ids` (all of them when empty) beside `plan`.
pub fn check_personas(
    ctx: &Context,
    id: &str,
    plan: &Plan,
    ids: &[String],
) -> Result<Vec<PersonaProblem>> {
    let (_, problems) = read_all(ctx, id, plan, ids)?;
    Ok(problems)
}

/// Personas `ids` of plan `id` (all of them when empty), read and checked against `plan`; refused
/// when one does not exist, when there are none, or when one has an error (every problem kept in
/// the error's words, file and path first).
pub fn personas_to_run(
    ctx: &Context,
    id: &str,
    plan: &Plan,
    ids: &[String],
) -> Result<Vec<ReadPersona>> {
    let (read, problems) = read_all(ctx, id, plan, ids)?;
    if !problems.is_empty() {
        let lines: Vec<String> = problems.iter().map(said).collect();
        return Err(ApiError {
            code: ErrorCode::Schema,
            message: format!(
                "{} problem(s) in the personas of {id}; a persona with an error does not run:\n{}",
                problems.len(),
                lines.join("\n")
            ),
            diagnostics: problems.into_iter().map(|p| p.diagnostic).collect(),
        });
    }
    if read.is_empty() {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("plan {id} has no personas: add one as personas/NAME.json beside the plan (plan schema --persona describes the file)"),
        ));
    }
    Ok(read)
}

/// Writes the persona of the Simulate tab's form, checked against the draft as a run checks it:
/// an error refuses it with every problem in the words `plan simulate` uses, and nothing is
/// written; an id another persona has is refused; a changed id renames the file.
pub fn save(ctx: &Context, args: &SavePersonaArgs) -> Result<SimulationOverview> {
    let ws = ctx.workspace();
    let (id, persona) = (args.id.as_str(), &args.persona);
    let draft = ws.read_draft(id)?;
    let path = ws.persona_path(id, &persona.id)?;
    let renamed = args.was.as_deref() != Some(persona.id.as_str());
    if renamed && path.exists() {
        return Err(ApiError::new(
            ErrorCode::Refused,
            format!(
                "a caller named '{}' exists already (personas/{}.json): give this one another name",
                persona.id, persona.id
            ),
        ));
    }
    let file = format!("personas/{}.json", persona.id);
    let problems: Vec<PersonaProblem> = check_persona(persona, &persona.id, &draft)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|diagnostic| PersonaProblem {
            file: file.clone(),
            diagnostic,
        })
        .collect();
    if !problems.is_empty() {
        let lines: Vec<String> = problems.iter().map(said).collect();
        return Err(ApiError {
            code: ErrorCode::Schema,
            message: format!(
                "{} problem(s) in {file}; nothing was saved:\n{}",
                problems.len(),
                lines.join("\n")
            ),
            diagnostics: problems.into_iter().map(|p| p.diagnostic).collect(),
        });
    }
    ws.save_persona(id, persona)?;
    if let (true, Some(old)) = (renamed, &args.was) {
        ws.remove_persona(id, old)?;
    }
    super::runs::overview(ctx, id)
}

/// One problem as a line: `personas/calm.json: /expect/visits/1: … (unknown-state)`.
pub fn said(p: &PersonaProblem) -> String {
    let d = &p.diagnostic;
    let at = if d.location.path.is_empty() {
        String::new()
    } else {
        format!("{}: ", d.location.path)
    };
    format!("{}: {at}{} ({})", p.file, d.message, d.code)
}

fn read_all(
    ctx: &Context,
    id: &str,
    plan: &Plan,
    ids: &[String],
) -> Result<(Vec<ReadPersona>, Vec<PersonaProblem>)> {
    let ws = ctx.workspace();
    let ids = if ids.is_empty() {
        ws.persona_ids(id)?
    } else {
        ids.to_vec()
    };
    let mut read = Vec::new();
    let mut problems = Vec::new();
    for persona_id in &ids {
        let (text, _) = ws.read_persona_text(id, persona_id)?;
        let file = format!("personas/{persona_id}.json");
        let (persona, findings) = read_persona(&text, persona_id, plan);
        problems.extend(findings.into_iter().map(|diagnostic| PersonaProblem {
            file: file.clone(),
            diagnostic,
        }));
        if let Some(persona) = persona {
            read.push(ReadPersona {
                persona,
                hash: plan_core::hash::hash_of(text.as_bytes()),
            });
        }
    }
    Ok((read, problems))
}
