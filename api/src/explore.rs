//! Exploring a plan (explore.md): every conversation it allows, up to bounds, for `plan explore`
//! and the window alike (a search of the draft in the background, what publishing changes for
//! callers). Which plan runs is [`crate::target`]'s (a plan with errors is refused with
//! its diagnostics, as a test conversation is); the search is `plan_core::explore`'s.

use std::path::Path;
use std::time::Instant;

pub use plan_core::explore::WINDOW_BOUNDS;
use plan_core::explore::{
    tell, Story,
    changed_outcomes_only, compare, explore_parallel, replay, Bounds, Explored, Finding,
    FindingCode,
};
use plan_core::runtime::Start;
use plan_core::Revision;

use crate::cases::case_of;
use crate::error::ApiError;
use crate::messages::{ChatView, ExploreView, FindingView, PublishOutcomes, PublishRules};
use crate::target::{target_file, Target};
use crate::Context;

type Result<T> = std::result::Result<T, ApiError>;

/// The threads a search uses: one per core of the machine (the answer is the same on any number).
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The threads a search of the window uses: one core fewer, left to the window itself. With every
/// core searching, panning the canvas meanwhile went from a p95 of 17 ms to 21–23 ms on two cores
/// (`tests/probe.rs`, `probe_explore_1000_states`).
fn window_threads() -> usize {
    threads().saturating_sub(1).max(1)
}

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
    let run = |plan| {
        explore_parallel(
            plan,
            &Start::default(),
            bounds,
            threads(),
            &|| false,
            &mut |_| {},
        )
    };
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

/// Plan `id`'s draft explored for the window: search `run`, `stop` asked between configurations,
/// `progress` told the configurations reached; each finding with the states and transitions its
/// conversation goes through and that conversation as a test case.
pub fn explore_draft(
    ctx: &Context,
    id: &str,
    run: u64,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(usize),
) -> Result<ExploreView> {
    let target = ctx.target(id, Some(Revision::Draft))?;
    let began = Instant::now();
    let explored = explore_parallel(
        &target.plan,
        &Start::default(),
        WINDOW_BOUNDS,
        window_threads(),
        stop,
        progress,
    );
    let millis = began.elapsed().as_millis() as u64;
    Ok(ExploreView {
        run,
        millis,
        explored: explored.map_findings(|f| finding_view(&target, f)),
    })
}

/// The rules plan `id`'s draft breaks that its newest version did not (every rule it breaks,
/// before a first version): they block publishing, as errors do. Each plan is explored alone,
/// which is quick; what changes for callers is [`publish_outcomes`]'s.
pub fn publish_rules(ctx: &Context, id: &str) -> Result<PublishRules> {
    let newest = ctx.workspace().newest_version(id)?;
    let draft = ctx.target(id, Some(Revision::Draft))?;
    let run = |plan| {
        explore_parallel(
            plan,
            &Start::default(),
            WINDOW_BOUNDS,
            window_threads(),
            &|| false,
            &mut |_| {},
        )
    };
    let now = run(&draft.plan);
    let before = match newest {
        Some(n) => run(&ctx.target(id, Some(Revision::Version(n)))?.plan).findings,
        None => Vec::new(),
    };
    let broken = |f: &&Finding| f.code == FindingCode::RuleBroken;
    let broken_before = |f: &Finding| {
        before
            .iter()
            .any(|b| b.code == f.code && b.location == f.location)
    };
    Ok(PublishRules {
        newest,
        rules_broken: now
            .findings
            .iter()
            .filter(broken)
            .filter(|f| !broken_before(f))
            .map(|f| finding_view(&draft, f.clone()))
            .collect(),
    })
}

/// What publishing plan `id`'s draft changes for callers against its newest version: the
/// outcomes that differ for the move sequences both allow (nothing before a first version).
pub fn publish_outcomes(ctx: &Context, id: &str) -> Result<PublishOutcomes> {
    let newest = ctx.workspace().newest_version(id)?;
    let Some(n) = newest else {
        return Ok(PublishOutcomes {
            newest,
            outcomes: Vec::new(),
        });
    };
    let draft = ctx.target(id, Some(Revision::Draft))?;
    let older = ctx.target(id, Some(Revision::Version(n)))?;
    Ok(PublishOutcomes {
        newest,
        outcomes: changed_outcomes_only(&draft.plan, &older.plan, WINDOW_BOUNDS),
    })
}

/// A finding as the window shows it: its conversation replayed for the states it enters, the
/// transitions it fires and the test case it makes.
fn finding_view(target: &Target, finding: Finding) -> FindingView {
    let replayed = finding
        .script
        .as_ref()
        .and_then(|s| replay(&target.plan, target.plan_ref.clone(), s));
    let Some(replayed) = replayed else {
        return FindingView {
            finding,
            path: Vec::new(),
            fired: Vec::new(),
            case: None,
            story: Story::default(),
        };
    };
    let story = tell(&target.plan, &finding, &replayed.turns);
    let view = ChatView {
        id: target.plan.id.clone(),
        name: String::new(),
        revision: Revision::Draft,
        session: replayed.session,
        start: Start::default(),
        turns: replayed.turns,
        can_step_back: false,
        stale: None,
    };
    FindingView {
        finding,
        path: replayed.path,
        fired: replayed.fired,
        case: Some(case_of(&view)),
        story,
    }
}
