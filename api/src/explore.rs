//! Exploring a plan (explore.md): every conversation it allows, up to bounds, for `plan explore`
//! and the window alike. Which plan runs is [`crate::target`]'s (a plan with errors is refused with
//! its diagnostics, as a test conversation is); the search is `plan_core::explore`'s.

use std::path::Path;

use plan_core::explore::{explore, Bounds, Explored};
use plan_core::runtime::Start;
use plan_core::Revision;

use crate::error::ApiError;
use crate::target::target_file;
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// Explores the plan file at `path`, as it is.
pub fn explore_file(path: &Path, bounds: Bounds) -> Result<Explored> {
    let target = target_file(path)?;
    Ok(explore(
        &target.plan,
        &Start::default(),
        bounds,
        &|| false,
        &mut |_| {},
    ))
}

/// Explores plan `id` of the workspace: `revision`, or by default its live version, else its
/// draft.
pub fn explore_plan(
    ctx: &Context,
    id: &str,
    revision: Option<Revision>,
    bounds: Bounds,
) -> Result<Explored> {
    let target = ctx.target(id, revision)?;
    Ok(explore(
        &target.plan,
        &Start::default(),
        bounds,
        &|| false,
        &mut |_| {},
    ))
}
