//! Exploring a plan (explore.md): every conversation it allows, up to bounds, for `plan explore`
//! and the window alike. Which plan runs is [`crate::target`]'s (a plan with errors is refused with
//! its diagnostics, as a test conversation is); the search is `plan_core::explore`'s.

use std::path::Path;

use plan_core::explore::{compare, explore, Bounds, Explored};
use plan_core::runtime::Start;
use plan_core::Revision;

use crate::error::ApiError;
use crate::target::{target_file, Target};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// The plan a search is compared with: another file, a version of the same workspace plan, or its
/// live version.
pub enum Older<'a> {
    /// A plan file.
    File(&'a Path),
    /// Version N of the explored workspace plan.
    Version(u32),
    /// The live version of the explored workspace plan.
    Live,
}

/// Explores `target` and, when `older` is given, what changes for callers against it
/// (explore.md, "Comparing two plans").
pub fn explore_against(target: &Target, older: Option<&Target>, bounds: Bounds) -> Explored {
    let run = |plan| explore(plan, &Start::default(), bounds, &|| false, &mut |_| {});
    let mut explored = run(&target.plan);
    if let Some(older) = older {
        let before = run(&older.plan);
        explored.compare = Some(compare(
            &target.plan,
            &explored,
            &older.plan,
            &before,
            bounds,
        ));
    }
    explored
}

/// The plan file at `path` explored as it is, compared with the plan file `older` when given (a
/// file has no versions).
pub fn explore_file(path: &Path, older: Option<&Path>, bounds: Bounds) -> Result<Explored> {
    let target = target_file(path)?;
    let older = older.map(target_file).transpose()?;
    Ok(explore_against(&target, older.as_ref(), bounds))
}

/// Plan `id` of the workspace explored (`revision`, or by default its live version, else its
/// draft), compared with `older` when given.
pub fn explore_plan(
    ctx: &Context,
    id: &str,
    revision: Option<Revision>,
    older: Option<Older>,
    bounds: Bounds,
) -> Result<Explored> {
    let target = ctx.target(id, revision)?;
    let older = match older {
        None => None,
        Some(Older::File(path)) => Some(std::sync::Arc::new(target_file(path)?)),
        Some(Older::Version(n)) => Some(ctx.target(id, Some(Revision::Version(n)))?),
        Some(Older::Live) => Some(ctx.target(id, Some(Revision::Live))?),
    };
    Ok(explore_against(&target, older.as_deref(), bounds))
}
