//! The Simulate tab: a plan's personas and runs, a simulation run on the blocking pool while the
//! window stays responsive (a progress event after each conversation), stopped by Stop, and a past
//! run read back. The keys are read here from the variables the settings name, and never leave
//! the shell.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use plan_api::agent::settings::key;
use plan_api::messages::{
    CompareRunsArgs, ConversationView, PlanSide, RoleKeys, RunComparison, RunReport,
    SavePersonaArgs, SimulateArgs, SimulateProgress, SimulationOverview, SIMULATE_PROGRESS,
};
use plan_api::simulate::{self, runs, Progress};
use plan_api::{ApiError, Context};
use tauri::{AppHandle, Emitter, State};

use super::on;

/// The Stop of the simulation running, if any.
#[derive(Default)]
pub struct Simulations(Mutex<Option<Arc<AtomicBool>>>);

#[tauri::command(rename_all = "snake_case")]
pub async fn simulation_overview(
    ctx: State<'_, Context>,
    id: String,
) -> Result<SimulationOverview, ApiError> {
    on(&ctx, move |ctx| runs::overview(ctx, &id)).await
}

/// A persona written from the form: [`SavePersonaArgs`] under `args`.
#[tauri::command(rename_all = "snake_case")]
pub async fn save_persona(
    ctx: State<'_, Context>,
    args: SavePersonaArgs,
) -> Result<SimulationOverview, ApiError> {
    on(&ctx, move |ctx| simulate::personas::save(ctx, &args)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn run_report(
    ctx: State<'_, Context>,
    id: String,
    run: String,
) -> Result<RunReport, ApiError> {
    on(&ctx, move |ctx| runs::report(ctx, &id, &run)).await
}

/// Two runs compared: [`CompareRunsArgs`] under `args`.
#[tauri::command(rename_all = "snake_case")]
pub async fn compare_runs(
    ctx: State<'_, Context>,
    args: CompareRunsArgs,
) -> Result<RunComparison, ApiError> {
    on(&ctx, move |ctx| runs::compare(ctx, &args)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn run_conversation(
    ctx: State<'_, Context>,
    id: String,
    run: String,
    persona: String,
    k: u32,
) -> Result<ConversationView, ApiError> {
    on(&ctx, move |ctx| {
        runs::conversation(ctx, &id, &run, &persona, k)
    })
    .await
}

/// A simulation run, or replayed: [`SimulateArgs`] under `args` (the page sends `{"args": …}`).
#[tauri::command(rename_all = "snake_case")]
pub async fn simulate(
    app: AppHandle,
    ctx: State<'_, Context>,
    simulations: State<'_, Arc<Simulations>>,
    args: SimulateArgs,
) -> Result<RunReport, ApiError> {
    let env = |v: &str| std::env::var(v).ok();
    // A replay sends nothing, so it needs no key.
    let keys = match &args.settings {
        None => RoleKeys::default(),
        Some(settings) => RoleKeys {
            caller: key(&settings.caller, None, env)?,
            agent: match &settings.agent {
                PlanSide::Simulator => None,
                PlanSide::Llm { settings } => key(settings, None, env)?,
            },
            judge: key(&settings.judge, None, env)?,
        },
    };
    let stop = Arc::new(AtomicBool::new(false));
    if let Ok(mut running) = simulations.0.lock() {
        // A new run stops the one before.
        if let Some(before) = running.replace(stop.clone()) {
            before.store(true, Ordering::Relaxed);
        }
    }
    on(&ctx, move |ctx| {
        let progress = |p: Progress| {
            let _ = app.emit(
                SIMULATE_PROGRESS,
                SimulateProgress {
                    done: p.done,
                    of: p.of,
                    turns: p.turns,
                    model_ms: p.model_ms,
                },
            );
        };
        simulate::run(ctx, &args, &keys, &progress, stop)
    })
    .await
}

/// Stops the running simulation: it keeps what finished and says it was stopped.
#[tauri::command(rename_all = "snake_case")]
pub async fn simulate_stop(simulations: State<'_, Arc<Simulations>>) -> Result<(), ApiError> {
    if let Ok(running) = simulations.0.lock() {
        if let Some(stop) = running.as_ref() {
            stop.store(true, Ordering::Relaxed);
        }
    }
    Ok(())
}
