//! The plans of a workspace: the list (the app's, newest change first), the editor's first screen,
//! new plans (blank, from a sample, from a file), duplicates, titles, and the trash.

use std::path::Path;

use plan_core::hash::content_hash;
use plan_core::parse::{is_slug, parse_plan};
use plan_core::store::{sample_ids, sample_plan, timestamp, Workspace};
use plan_core::Plan;
use serde_json::json;

use crate::error::{ApiError, ErrorCode};
use crate::messages::{
    Created, DraftStatus, LoadedPlan, NewPlan, OpenedPlan, PlanSource, PlanSummary, Sample,
    Started, TrashEntry,
};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// Every plan of the workspace with its counts and versions, or why its draft cannot be opened;
/// the most recently changed first (then by title).
pub fn plans(ctx: &Context) -> Result<Vec<PlanSummary>> {
    Ok(first_screen(ctx, None)?.plans)
}

/// The editor's first screen: the plan list and the plan to open, `remembered` when it opens,
/// else the first in the list that does. Each draft is read once.
pub fn start(ctx: &Context, remembered: Option<&str>) -> Result<Started> {
    first_screen(ctx, remembered)
}

fn first_screen(ctx: &Context, preferred: Option<&str>) -> Result<Started> {
    let ws = ctx.workspace();
    let mut plans = Vec::new();
    let mut drafts = Vec::new();
    for id in ws.plan_ids()? {
        let draft = ws.read_draft(&id).map_err(ApiError::from);
        plans.push(summary(ws, &id, draft.as_ref()));
        drafts.push((id, draft.ok()));
    }
    let order = |p: &PlanSummary| {
        (
            std::cmp::Reverse(p.changed_at.clone()),
            p.title.to_lowercase(),
            p.id.clone(),
        )
    };
    plans.sort_by_key(order);
    // The plan to open: the preferred one when it opens, else the first listed that does.
    let rank = |id: &str| {
        let listed = plans.iter().position(|p| p.id == id).unwrap_or(usize::MAX);
        (preferred != Some(id), listed)
    };
    let opened = drafts
        .into_iter()
        .filter_map(|(id, plan)| plan.map(|plan| (id, plan)))
        .min_by_key(|(id, _)| rank(id))
        .map(|(id, plan)| -> Result<OpenedPlan> {
            let source = ws.draft_path(&id)?.display().to_string();
            Ok(OpenedPlan {
                id,
                loaded: LoadedPlan { plan, source },
            })
        })
        .transpose()?;
    Ok(Started {
        plans,
        opened,
        unopened: None,
    })
}

/// One entry of the plan list, from its draft as read.
pub(crate) fn summary(
    ws: &Workspace,
    id: &str,
    draft: std::result::Result<&Plan, &ApiError>,
) -> PlanSummary {
    let newest = ws.newest_version(id).ok().flatten();
    let live_version = ws.live(id).ok().flatten().map(|l| l.version);
    let changed_at = ws.changed_at(id).map(timestamp);
    let problems = ws.problems(id);
    match draft {
        Ok(plan) => PlanSummary {
            id: id.to_string(),
            title: plan.title.clone(),
            states: plan.states.len(),
            transitions: plan.transition_count(),
            error: None,
            draft: status(ws, id, plan, newest),
            newest_version: newest,
            live_version,
            changed_at,
            problems,
        },
        Err(e) => PlanSummary {
            id: id.to_string(),
            title: id.to_string(),
            states: 0,
            transitions: 0,
            error: Some(e.clone()),
            draft: DraftStatus::Broken,
            newest_version: newest,
            live_version,
            changed_at,
            problems,
        },
    }
}

/// How `draft` relates to the newest version of plan `id` (`newest`).
pub(crate) fn status(ws: &Workspace, id: &str, draft: &Plan, newest: Option<u32>) -> DraftStatus {
    match newest {
        None => DraftStatus::Unpublished,
        Some(n) => match ws.recorded_hash(id, n) {
            Some(hash) if hash == content_hash(draft) => DraftStatus::Published,
            _ => DraftStatus::Changed,
        },
    }
}

/// The sample plans a new plan can start from.
pub fn samples() -> Result<Vec<Sample>> {
    sample_ids()
        .map(|id| {
            let plan = sample_plan(id)?;
            Ok(Sample {
                id: id.to_string(),
                title: plan.title,
                states: plan.states.len(),
            })
        })
        .collect()
}

/// A new plan: blank (one start state), a copy of a sample, or a file in either import format.
/// Its id is `request.id`, else made from the title (or the sample's or file's name).
pub fn create(ctx: &Context, request: NewPlan) -> Result<Created> {
    let ws = ctx.workspace();
    let title = request.title.filter(|t| !t.trim().is_empty());
    let id = match &request.id {
        Some(id) => {
            if ws.plan_dir(id)?.join("draft.json").exists() {
                return Err(ApiError::new(
                    ErrorCode::Exists,
                    format!("a plan \"{id}\" already exists"),
                ));
            }
            id.clone()
        }
        None => {
            let base = match (&title, &request.from) {
                (Some(t), _) => t.clone(),
                (None, PlanSource::Sample { id }) => id.clone(),
                (None, PlanSource::File { path }) => Path::new(path)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                (None, PlanSource::Blank) => "plan".to_string(),
            };
            free_id(ws, &slug_of(&base))?
        }
    };
    let mut plan = match &request.from {
        PlanSource::Blank => blank(&id, title.as_deref().unwrap_or(&id))?,
        PlanSource::Sample { id: sample } => sample_plan(sample)?,
        PlanSource::File { path } => ws.import(&id, Path::new(path), &ctx.now())?.plan,
    };
    let created_by_import = matches!(request.from, PlanSource::File { .. });
    if let Some(t) = &title {
        plan.title = t.clone();
    }
    if created_by_import {
        if title.is_some() {
            ws.save_draft(&id, &plan)?;
        }
    } else {
        ws.create(&id, plan.clone(), &ctx.now())?;
    }
    Ok(Created {
        id,
        title: plan.title,
        states: plan.states.len(),
    })
}

/// A blank plan: one start state that greets.
fn blank(id: &str, title: &str) -> Result<Plan> {
    let doc = json!({"id": id, "title": title, "states": [{"id": "start", "title": "Start",
        "instructions": "Greet the user and ask how you can help."}]});
    parse_plan(&doc.to_string())
        .map_err(|p| ApiError::internal(format!("the blank plan is not a plan: {p:?}")))
}

/// A copy of plan `id`'s draft as a new plan (`<id>-copy`, `-copy-2`…, titled "… (copy)"), without
/// its versions, tests or sessions.
pub fn duplicate(ctx: &Context, id: &str) -> Result<Created> {
    let ws = ctx.workspace();
    let mut plan = ws.read_draft(id)?;
    let copy = free_id(ws, &format!("{id}-copy"))?;
    plan.title = format!("{} (copy)", plan.title);
    ws.create(&copy, plan.clone(), &ctx.now())?;
    Ok(Created {
        id: copy,
        title: plan.title,
        states: plan.states.len(),
    })
}

/// Gives plan `id`'s draft the title `title`.
pub fn rename(ctx: &Context, id: &str, title: &str) -> Result<()> {
    let title = title.trim();
    if title.is_empty() {
        return Err(ApiError::new(
            ErrorCode::Refused,
            "a plan's title cannot be empty",
        ));
    }
    let ws = ctx.workspace();
    let mut plan = ws.read_draft(id)?;
    plan.title = title.to_string();
    Ok(ws.save_draft(id, &plan)?)
}

/// Moves plan `id` to the workspace's trash, with everything in its folder.
pub fn delete(ctx: &Context, id: &str) -> Result<TrashEntry> {
    let ws = ctx.workspace();
    let title = ws
        .read_draft(id)
        .map(|p| p.title)
        .unwrap_or_else(|_| id.to_string());
    let trashed = ws.delete(id, &ctx.now())?;
    Ok(TrashEntry {
        entry: trashed.entry,
        id: trashed.id,
        title,
        deleted_at: trashed.deleted_at,
    })
}

/// The plans in the trash, most recently deleted first.
pub fn trash(ctx: &Context) -> Result<Vec<TrashEntry>> {
    let ws = ctx.workspace();
    let trash = ws.root().join(".trash");
    Ok(ws
        .trashed()?
        .into_iter()
        .map(|t| {
            let title = plan_core::files::read_draft(&trash.join(&t.entry).join("draft.json"))
                .map(|p| p.title)
                .unwrap_or_else(|_| t.id.clone());
            TrashEntry {
                entry: t.entry,
                id: t.id,
                title,
                deleted_at: t.deleted_at,
            }
        })
        .collect())
}

/// Brings a plan back from the trash, under its old id when that is free, else `<id>-restored`
/// (`-restored-2`…).
pub fn restore(ctx: &Context, entry: &str) -> Result<Created> {
    let ws = ctx.workspace();
    let found = ws
        .trashed()?
        .into_iter()
        .find(|t| t.entry == entry)
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::NotFound,
                format!("there is no deleted plan \"{entry}\" in the trash"),
            )
        })?;
    let id = if ws.plan_dir(&found.id)?.exists() {
        free_id(ws, &format!("{}-restored", found.id))?
    } else {
        found.id.clone()
    };
    ws.restore(entry, &id)?;
    let plan = ws.read_draft(&id)?;
    Ok(Created {
        id,
        title: plan.title,
        states: plan.states.len(),
    })
}

/// `base` when no plan has it, else `base-2`, `base-3`…
pub(crate) fn free_id(ws: &Workspace, base: &str) -> Result<String> {
    let base = if is_slug(base) { base } else { "plan" };
    for n in 1.. {
        let id = match n {
            1 => base.to_string(),
            n => {
                let suffix = format!("-{n}");
                let keep = base.len().min(64 - suffix.len());
                format!("{}{suffix}", base[..keep].trim_end_matches(['-', '_']))
            }
        };
        if !ws.plan_dir(&id)?.exists() {
            return Ok(id);
        }
    }
    unreachable!("an unbounded search ends")
}

/// A plan id made from a title or a file name: lowercase ASCII letters and digits, other runs as
/// one `-` (`Refund desk (v2)` → `refund-desk-v2`), at most 64; `plan` when nothing is left.
pub fn slug_of(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let c = match c {
            'ä' | 'Ä' => Some("ae"),
            'ö' | 'Ö' => Some("oe"),
            'ü' | 'Ü' => Some("ue"),
            'ß' => Some("ss"),
            _ => None,
        }
        .map(str::to_string)
        .unwrap_or_else(|| c.to_ascii_lowercase().to_string());
        for c in c.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                out.push(c);
            } else if !out.ends_with('-') && !out.is_empty() {
                out.push('-');
            }
        }
    }
    let out: String = out.trim_matches('-').chars().take(64).collect();
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() || !is_slug(&out) {
        "plan".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::slug_of;

    #[test]
    fn titles_become_plan_ids() {
        assert_eq!(slug_of("Refund desk (v2)"), "refund-desk-v2");
        assert_eq!(
            slug_of("  Begrüßung & Identifikation "),
            "begruessung-identifikation"
        );
        assert_eq!(slug_of("004_04903f45bf253de8"), "004_04903f45bf253de8");
        assert_eq!(slug_of("!!!"), "plan");
        assert_eq!(slug_of(&"x".repeat(80)).len(), 64);
    }
}
