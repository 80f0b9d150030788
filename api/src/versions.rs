//! Publishing and the versions of a plan: what a publish would do, the publish itself, the list,
//! one version to view, the live version, reopening a version as the draft, and comparing any
//! two documents of a plan.

use plan_core::diff::{describe, diff, overlay, PlanDiff};
use plan_core::store::StoreError;
use plan_core::validate::{report_of_problems, validate};
use plan_core::{Plan, Report, Revision, Severity};

use crate::error::ApiError;
use crate::sharing::conflicts;
use crate::messages::{
    Comparison, LiveVersion, LoadedVersion, PublishPreview, Published, Reopened, VersionInfo,
};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// What publishing plan `id`'s draft now would do: the version it would become, what it changes
/// against the newest version, and the errors that would refuse it.
pub fn preview(ctx: &Context, id: &str) -> Result<PublishPreview> {
    let ws = ctx.workspace();
    let draft = ws.read_draft(id)?;
    let newest = ws.newest_version(id)?;
    let base = match newest {
        Some(n) => ws.read_version(id, n)?.plan,
        // A first version: every state in it is new (the plan's own details are not news).
        None => Plan {
            schema_version: draft.schema_version,
            id: draft.id.clone(),
            title: draft.title.clone(),
            description: draft.description.clone(),
            instructions: draft.instructions.clone(),
            start_state_id: draft.start_state_id().map(str::to_string),
            states: Vec::new(),
            tools: draft.tools.clone(),
            session_states: draft.session_states.clone(),
            interruptions: draft.interruptions.clone(),
            rules: draft.rules.clone(),
            evaluations: draft.evaluations.clone(),
            settings: draft.settings.clone(),
            layout: Default::default(),
        },
    };
    let changes = diff(&base, &draft);
    let errors = validate(&draft)
        .diagnostics
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    Ok(PublishPreview {
        newest,
        next: newest.map_or(1, |n| n + 1),
        unchanged: newest.is_some() && changes.is_empty(),
        changes: describe(&changes, &base, &draft),
        errors,
        conflicts: conflicts::publish_refusal(ctx, id)?,
    })
}

/// Publishes plan `id`'s draft as its next version: refused when it has errors (with them), when a
/// merge's conflicts are left to choose, or when it is what the newest version already holds.
pub fn publish(ctx: &Context, id: &str, note: &str) -> Result<Published> {
    refuse_while_conflicts_left(ctx, id)?;
    let version = ctx.workspace().publish(id, note, &ctx.now())?;
    Ok(Published { version })
}

/// [`publish`] of a draft the caller holds and knows to be what `draft.json` holds now (the app's,
/// just saved by it), so that it is not read and parsed again: at 5,000 states that is half the
/// time of a publish (`cargo bench -p plan-cli --bench store`: 62 ms reading the draft, 28 ms
/// without).
pub fn publish_plan(ctx: &Context, id: &str, draft: &Plan, note: &str) -> Result<Published> {
    refuse_while_conflicts_left(ctx, id)?;
    let version = ctx.workspace().publish_plan(id, draft, note, &ctx.now())?;
    Ok(Published { version })
}

/// A draft with a merge's conflicts left is not published: ours stands in for each of them, which
/// the author has not chosen yet.
fn refuse_while_conflicts_left(ctx: &Context, id: &str) -> Result<()> {
    match conflicts::publish_refusal(ctx, id)? {
        Some(refusal) => Err(refusal),
        None => Ok(()),
    }
}

/// Every version of plan `id`, oldest first; a corrupted one is listed as such.
pub fn list(ctx: &Context, id: &str) -> Result<Vec<VersionInfo>> {
    Ok(ctx.workspace().versions(id)?)
}

/// Version `n` of plan `id`, verified, to view.
pub fn load(ctx: &Context, id: &str, n: u32) -> Result<LoadedVersion> {
    let v = ctx.workspace().read_version(id, n)?;
    Ok(LoadedVersion {
        version: v.version,
        published_at: v.published_at,
        note: v.note,
        plan: v.plan,
    })
}

/// The live version of plan `id`, if one is set.
pub fn live(ctx: &Context, id: &str) -> Result<Option<LiveVersion>> {
    Ok(ctx.workspace().live(id)?.map(|l| LiveVersion {
        version: l.version,
        set_at: l.set_at,
    }))
}

/// What is wrong with plan `id`'s files besides its draft, each naming the file: a `live.json`
/// that names no intact version, entries of `versions/` that are not versions (ignored).
pub fn problems(ctx: &Context, id: &str) -> Result<Vec<String>> {
    ctx.workspace().plan_dir(id)?;
    Ok(ctx.workspace().problems(id))
}

/// Makes version `n` (which must be intact) the live version of plan `id`.
pub fn set_live(ctx: &Context, id: &str, n: u32) -> Result<LiveVersion> {
    let now = ctx.now();
    ctx.workspace().set_live(id, n, &now)?;
    Ok(LiveVersion {
        version: n,
        set_at: now,
    })
}

/// Makes version `n` of plan `id` the draft; the replaced draft is kept in `history/`.
pub fn reopen(ctx: &Context, id: &str, n: u32) -> Result<Reopened> {
    let ws = ctx.workspace();
    let replaced = ws.reopen(id, n, &ctx.now())?;
    let dir = ws.plan_dir(id)?;
    Ok(Reopened {
        version: n,
        kept: replaced
            .kept
            .and_then(|p| Some(p.strip_prefix(&dir).ok()?.display().to_string())),
    })
}

/// What changed from `a` to `b` of plan `id` (`plan diff`).
pub fn changes(ctx: &Context, id: &str, a: Revision, b: Revision) -> Result<PlanDiff> {
    Ok(ctx.workspace().diff(id, a, b)?)
}

/// `a` and `b` of plan `id` compared for the canvas: `b` with what only `a` had put back, the
/// marks, and the changes in words.
pub fn compare(ctx: &Context, id: &str, a: Revision, b: Revision) -> Result<Comparison> {
    let ws = ctx.workspace();
    // Each is read and verified on a core of its own (a 5,000-state version takes ~33 ms).
    let (old, new) = std::thread::scope(|scope| {
        let old = scope.spawn(|| ws.export(id, a));
        let new = ws.export(id, b);
        (old.join(), new)
    });
    let old = old.map_err(|_| ApiError::internal("reading a version stopped unexpectedly"))??;
    let new = new?;
    let overlay = overlay(&old, new);
    // The overlay's plan is `b` with `a`'s ghosts: every title either has.
    let changes = describe(&overlay.diff, &old, &overlay.plan);
    Ok(Comparison {
        a,
        b,
        overlay,
        changes,
    })
}

/// The validation report of a document of plan `id` (`plan check --plan`), and how to name it.
/// A document that does not read as a plan is the check's finding (`invalid-json`, `schema`), as
/// for `plan check FILE`; one that cannot be read at all is the error.
pub fn check(ctx: &Context, id: &str, revision: Revision) -> Result<(String, Report)> {
    let name = match revision {
        Revision::Draft => format!("{id}/draft.json"),
        Revision::Version(n) => format!("{id}/versions/{n}.json"),
        Revision::Live => format!("{id} (live)"),
    };
    match ctx.workspace().export(id, revision) {
        Ok(plan) => Ok((name, validate(&plan))),
        Err(StoreError::Invalid { problems, .. }) => Ok((name, report_of_problems(problems))),
        Err(e) => Err(e.into()),
    }
}
