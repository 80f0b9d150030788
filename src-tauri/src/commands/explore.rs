//! The Explore tab's search of the open plan's draft, run on the blocking pool while the window
//! stays responsive (its progress sent as events about every tenth of a second), stopped by the
//! Stop button or by the next search; and the Publish dialog's "what changes for callers".

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use plan_api::explore;
use plan_api::messages::{
    ExploreProgress, ExploreView, PublishOutcomes, PublishRules, EXPLORE_PROGRESS,
};
use plan_api::{ApiError, Context};
use tauri::{AppHandle, Emitter, State};

use super::on;

/// The number of the newest search: a search goes on while it is the newest, so that Stop (which
/// counts one up) and a new search both end the one running.
#[derive(Default)]
pub struct Searches(AtomicU64);

#[tauri::command(rename_all = "snake_case")]
pub async fn explore(
    app: AppHandle,
    ctx: State<'_, Context>,
    searches: State<'_, Arc<Searches>>,
    id: String,
) -> Result<ExploreView, ApiError> {
    let searches = Arc::clone(searches.inner());
    let run = searches.0.fetch_add(1, Ordering::SeqCst) + 1;
    on(&ctx, move |ctx| {
        let mut said = Instant::now();
        let mut progress = |configurations: usize| {
            if said.elapsed() >= Duration::from_millis(100) {
                said = Instant::now();
                let _ = app.emit(
                    EXPLORE_PROGRESS,
                    ExploreProgress {
                        run,
                        configurations,
                    },
                );
            }
        };
        let stop = || searches.0.load(Ordering::Relaxed) != run;
        explore::explore_draft(ctx, &id, run, &stop, &mut progress)
    })
    .await
}

/// Stops the running search, if any: it answers what it reached, marked as stopped.
#[tauri::command(rename_all = "snake_case")]
pub async fn explore_stop(searches: State<'_, Arc<Searches>>) -> Result<(), ApiError> {
    searches.0.fetch_add(1, Ordering::SeqCst);
    Ok(())
}

#[tauri::command(rename_all = "snake_case")]
pub async fn publish_rules(ctx: State<'_, Context>, id: String) -> Result<PublishRules, ApiError> {
    on(&ctx, move |ctx| explore::publish_rules(ctx, &id)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn publish_outcomes(
    ctx: State<'_, Context>,
    id: String,
) -> Result<PublishOutcomes, ApiError> {
    on(&ctx, move |ctx| explore::publish_outcomes(ctx, &id)).await
}
