//! The Chat tab's test conversations: started (from any state, with values known), a turn, a turn
//! taken back, the newest one found again, a test case made and saved, the suite run (its progress
//! sent as events while it runs); the language-model agent's settings and "Test connection".

use plan_api::agent::settings;
use plan_api::conversations::{self, Conversation};
use plan_api::messages::{
    AgentSettings, ChatSay, ChatView, ConnectionReport, SavedCase, StartChat, SuiteProgress,
    SuiteRun, SUITE_PROGRESS,
};
use plan_api::{ApiError, Context};
use plan_core::runtime::script::Script;
use plan_core::runtime::Preset;
use plan_core::Revision;
use tauri::{AppHandle, Emitter, State};

use super::{blocking, on};

#[tauri::command(rename_all = "snake_case")]
pub async fn chat_start(ctx: State<'_, Context>, request: StartChat) -> Result<ChatView, ApiError> {
    on(&ctx, move |ctx| conversations::start(ctx, &request)).await
}

/// One turn, answered by the agent the page chose: the simulator, or the language model of the
/// settings kept in the user's config folder (the request runs here, on the blocking pool: the
/// window stays responsive while a model thinks).
#[tauri::command(rename_all = "snake_case")]
pub async fn chat_say(ctx: State<'_, Context>, request: ChatSay) -> Result<ChatView, ApiError> {
    on(&ctx, move |ctx| {
        conversations::say_as(ctx, &request, settings::user_config_file().as_deref())
    })
    .await
}

/// The language-model agent's saved settings; none before they are first saved.
#[tauri::command(rename_all = "snake_case")]
pub async fn agent_settings() -> Result<Option<AgentSettings>, ApiError> {
    blocking(|| match settings::user_config_file() {
        Some(file) => settings::load(&file),
        None => Ok(None),
    })
    .await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn save_agent_settings(settings: AgentSettings) -> Result<AgentSettings, ApiError> {
    blocking(move || {
        let file = settings::user_config_file().ok_or_else(|| {
            ApiError::new(
                plan_api::ErrorCode::Io,
                "there is no config folder: set HOME or XDG_CONFIG_HOME",
            )
        })?;
        settings::save(&file, &settings)
    })
    .await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn test_connection(settings: AgentSettings) -> Result<ConnectionReport, ApiError> {
    blocking(move || plan_api::agent::model::test_connection(&settings)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn chat_set_state(
    ctx: State<'_, Context>,
    id: String,
    name: String,
    state: String,
    preset: Preset,
) -> Result<ChatView, ApiError> {
    on(&ctx, move |ctx| {
        conversations::set_session_state(ctx, &id, &name, &state, &preset)
    })
    .await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn chat_step_back(
    ctx: State<'_, Context>,
    id: String,
    name: String,
) -> Result<ChatView, ApiError> {
    on(&ctx, move |ctx| conversations::step_back(ctx, &id, &name)).await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn chat_latest(
    ctx: State<'_, Context>,
    id: String,
) -> Result<Option<ChatView>, ApiError> {
    on(&ctx, move |ctx| conversations::latest(ctx, &id)).await
}

/// The test case conversation `name` makes, for the author to trim.
#[tauri::command(rename_all = "snake_case")]
pub async fn chat_case(
    ctx: State<'_, Context>,
    id: String,
    name: String,
) -> Result<Script, ApiError> {
    on(&ctx, move |ctx| {
        let view = Conversation::resume(ctx, &id, &name)
            .map(|c| c.view())
            .or_else(|_| {
                // An ended (or stale) conversation still makes a case.
                conversations::latest(ctx, &id)?
                    .filter(|v| v.name == name)
                    .ok_or_else(|| {
                        ApiError::new(
                            plan_api::ErrorCode::NotFound,
                            format!("plan \"{id}\" has no saved session \"{name}\""),
                        )
                    })
            })?;
        Ok(conversations::case_of(&view))
    })
    .await
}

#[tauri::command(rename_all = "snake_case")]
pub async fn save_case(
    ctx: State<'_, Context>,
    id: String,
    name: String,
    script: Script,
) -> Result<SavedCase, ApiError> {
    on(&ctx, move |ctx| {
        conversations::save_case(ctx, &id, &name, &script)
    })
    .await
}

/// Runs the plan's saved cases, telling the page how far it got about every tenth of a second.
#[tauri::command(rename_all = "snake_case")]
pub async fn run_suite(
    app: AppHandle,
    ctx: State<'_, Context>,
    id: String,
    revision: Option<Revision>,
) -> Result<SuiteRun, ApiError> {
    on(&ctx, move |ctx| {
        let mut said = std::time::Instant::now();
        let mut progress = |done: usize, total: usize| {
            if done == total || said.elapsed() >= std::time::Duration::from_millis(100) {
                said = std::time::Instant::now();
                let _ = app.emit(SUITE_PROGRESS, SuiteProgress { done, total });
            }
        };
        conversations::run_suite(ctx, &id, revision, &mut progress)
    })
    .await
}
