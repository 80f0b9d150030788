//! The only place the UI talks to the desktop shell: Tauri's `invoke` and `listen`, wrapped in
//! typed functions over the message types of `plan_api::messages` (the shell's own, compiled into
//! both).
//!
//! Values cross as JSON (`serde_json` on both sides), so numbers and maps arrive exactly as the
//! shell wrote them. The plan itself, megabytes in a large plan, crosses as raw JSON bytes both
//! ways (`load_plan`'s answer, `save_draft`'s body) rather than being parsed into JavaScript objects
//! and printed back. Every failure comes back as an [`ApiError`] with a code.

use std::time::Duration;

use plan_api::messages::*;
use plan_api::{reading, ApiError, ErrorCode};
use plan_core::runtime::script::Script;
use plan_core::runtime::{Start, ToolResults};
use plan_core::Revision;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = ["window", "__TAURI__", "core"], js_name = invoke)]
    async fn tauri_invoke(cmd: &str, args: JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["window", "__TAURI__", "core"], js_name = invoke)]
    async fn tauri_invoke_with(
        cmd: &str,
        args: JsValue,
        options: JsValue,
    ) -> Result<JsValue, JsValue>;

    /// `invoke`, sent the moment it is called (an `async` import is sent when first polled).
    #[wasm_bindgen(catch, js_namespace = ["window", "__TAURI__", "core"], js_name = invoke)]
    fn tauri_invoke_now(cmd: &str, args: JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["window", "__TAURI__", "event"], js_name = listen)]
    async fn tauri_listen(event: &str, handler: &js_sys::Function) -> Result<JsValue, JsValue>;
}

/// The first screen in one round trip: the plan list and the plan to open (`remembered` when it
/// opens). Raw bytes, like `load_plan`'s answer. Asked for when called: the window asks before
/// it makes its parts, and the answer travels meanwhile.
pub fn start(remembered: Option<String>) -> StartAsked {
    StartAsked(
        arguments(&StartArgs { remembered })
            .and_then(|args| tauri_invoke_now(START, args).map_err(error_from_js)),
    )
}

/// The first screen's request, sent; its answer can be waited for more than once.
#[derive(Clone)]
pub struct StartAsked(Result<js_sys::Promise, ApiError>);

impl StartAsked {
    /// Once the answer is in, or the request failed.
    pub async fn settled(&self) {
        if let Ok(promise) = &self.0 {
            let _ = wasm_bindgen_futures::JsFuture::from(promise.clone()).await;
        }
    }

    /// The answer, read.
    pub async fn answer(&self) -> Result<Started, ApiError> {
        let promise = self.0.clone()?;
        answered(
            START,
            wasm_bindgen_futures::JsFuture::from(promise).await,
            reading::started,
        )
    }
}

/// Every plan the app can open.
pub async fn list_plans() -> Result<Vec<PlanSummary>, ApiError> {
    call(LIST_PLANS, &serde_json::json!({})).await
}

/// One plan, fresh from disk. The shell answers with the JSON as bytes (see its `load_plan`).
pub async fn load_plan(id: &str) -> Result<LoadedPlan, ApiError> {
    call_read(
        LOAD_PLAN,
        &PlanArgs { id: id.to_string() },
        reading::loaded_plan,
    )
    .await
}

/// Writes the draft of plan `id` (the editor's autosave): the plan's JSON goes as raw bytes. The
/// answer says how the saved draft relates to the newest version.
/// Writes `json`, a plan's JSON, as the draft of `id`, by the save `token`; with a `base`, `json`
/// is the changes since the draft the save `base` wrote.
pub async fn save_draft(
    id: &str,
    json: &[u8],
    token: u64,
    base: Option<u64>,
) -> Result<DraftStatus, ApiError> {
    let body = crate::timeline::timed("save: copy", || js_sys::Uint8Array::from(json));
    let headers = js_sys::Object::new();
    let options = js_sys::Object::new();
    let set = |on: &js_sys::Object, key: &str, value: &JsValue| {
        js_sys::Reflect::set(on, &JsValue::from_str(key), value).map(drop)
    };
    set(&headers, PLAN_ID_HEADER, &JsValue::from_str(id))
        .and_then(|()| {
            set(
                &headers,
                SAVE_TOKEN_HEADER,
                &JsValue::from_str(&token.to_string()),
            )
        })
        .and_then(|()| match base {
            Some(b) => set(
                &headers,
                SAVE_BASE_HEADER,
                &JsValue::from_str(&b.to_string()),
            ),
            None => Ok(()),
        })
        .and_then(|()| set(&options, "headers", &headers))
        .map_err(|_| internal("the save request could not be made".into()))?;
    match tauri_invoke_with(SAVE_DRAFT, body.into(), options.into()).await {
        Ok(answer) => from_js(answer, any_json).map_err(|e| internal(format!("{SAVE_DRAFT}: {e}"))),
        Err(error) => Err(error_from_js(error)),
    }
}

fn plan_args(id: &str) -> PlanArgs {
    PlanArgs { id: id.to_string() }
}

fn version_args(id: &str, version: u32) -> VersionArgs {
    VersionArgs {
        id: id.to_string(),
        version,
    }
}

pub async fn new_plan(request: &NewPlan) -> Result<Created, ApiError> {
    call(NEW_PLAN, request).await
}

pub async fn duplicate_plan(id: &str) -> Result<Created, ApiError> {
    call(DUPLICATE_PLAN, &plan_args(id)).await
}

pub async fn rename_plan(id: &str, title: &str) -> Result<(), ApiError> {
    let args = RenamePlan {
        id: id.to_string(),
        title: title.to_string(),
    };
    call(RENAME_PLAN, &args).await
}

pub async fn delete_plan(id: &str) -> Result<TrashEntry, ApiError> {
    call(DELETE_PLAN, &plan_args(id)).await
}

pub async fn list_trash() -> Result<Vec<TrashEntry>, ApiError> {
    call(LIST_TRASH, &serde_json::json!({})).await
}

pub async fn restore_plan(entry: &str) -> Result<Created, ApiError> {
    let args = RestorePlan {
        entry: entry.to_string(),
    };
    call(RESTORE_PLAN, &args).await
}

pub async fn list_samples() -> Result<Vec<Sample>, ApiError> {
    call(LIST_SAMPLES, &serde_json::json!({})).await
}

pub async fn publish_preview(id: &str) -> Result<PublishPreview, ApiError> {
    call(PUBLISH_PREVIEW, &plan_args(id)).await
}

pub async fn publish(id: &str, note: &str) -> Result<Published, ApiError> {
    let args = Publish {
        id: id.to_string(),
        note: note.to_string(),
    };
    call(PUBLISH, &args).await
}

/// The Share panel's state of the workspace.
pub async fn share_status() -> Result<share::ShareStatus, ApiError> {
    call(SHARE_STATUS, &serde_json::json!({})).await
}

/// A checkpoint saved with the author's words.
pub async fn share_checkpoint(
    message: String,
    author: Option<share::Author>,
) -> Result<share::Checkpoint, ApiError> {
    call(SHARE_CHECKPOINT, &share::CheckpointArgs { message, author }).await
}

/// Others' changes got.
pub async fn share_get() -> Result<share::Received, ApiError> {
    call(SHARE_GET, &serde_json::json!({})).await
}

/// Ours sent.
pub async fn share_send() -> Result<share::Sent, ApiError> {
    call(SHARE_SEND, &serde_json::json!({})).await
}

/// The conflicts a get left in plan `id`.
pub async fn plan_conflicts(id: &str) -> Result<Vec<plan_core::merge::Conflict>, ApiError> {
    call(PLAN_CONFLICTS, &plan_args(id)).await
}

/// One conflict of plan `id` chosen; the conflicts left.
pub async fn resolve_conflict(
    id: &str,
    path: &str,
    choice: share::Choice,
) -> Result<Vec<plan_core::merge::Conflict>, ApiError> {
    let args = share::ResolveArgs {
        id: id.to_string(),
        path: path.to_string(),
        choice,
    };
    call(RESOLVE_CONFLICT, &args).await
}

pub async fn list_versions(id: &str) -> Result<Vec<VersionInfo>, ApiError> {
    call(LIST_VERSIONS, &plan_args(id)).await
}

/// One version, to view (raw bytes, like `load_plan`'s answer).
pub async fn load_version(id: &str, version: u32) -> Result<LoadedVersion, ApiError> {
    call_read(
        LOAD_VERSION,
        &version_args(id, version),
        reading::loaded_version,
    )
    .await
}

pub async fn set_live(id: &str, version: u32) -> Result<LiveVersion, ApiError> {
    call(SET_LIVE, &version_args(id, version)).await
}

pub async fn reopen_version(id: &str, version: u32) -> Result<Reopened, ApiError> {
    call(REOPEN_VERSION, &version_args(id, version)).await
}

/// `a` and `b` of plan `id` compared (raw bytes).
pub async fn compare(id: &str, a: Revision, b: Revision) -> Result<Comparison, ApiError> {
    let args = CompareArgs {
        id: id.to_string(),
        a,
        b,
    };
    call_read(COMPARE, &args, reading::comparison).await
}

/// A file the author picks in the shell's native dialog, imported into `into`'s draft or as a
/// new plan; none when the author cancelled.
pub async fn import_file(into: Option<&str>) -> Result<Option<Imported>, ApiError> {
    let args = ImportArgs {
        into: into.map(str::to_string),
    };
    call(IMPORT_FILE, &args).await
}

/// A document of plan `id` written where the author picks in the shell's native dialog; none
/// when the author cancelled.
pub async fn export_file(id: &str, revision: Revision) -> Result<Option<Exported>, ApiError> {
    let args = ExportArgs {
        id: id.to_string(),
        revision,
    };
    call(EXPORT_FILE, &args).await
}

/// Resolves after `time`, letting the page run meanwhile (the window's `setTimeout`).
pub async fn pause(time: Duration) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                &resolve,
                time.as_millis() as i32,
            );
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Calls `handler` whenever plan files change on disk, for as long as the window lives.
pub fn on_plans_changed(handler: impl Fn(PlansChanged) + 'static) {
    listen(PLANS_CHANGED, handler);
}

/// Calls `handler` with each progress report of a suite run, for as long as the window lives.
pub fn on_suite_progress(handler: impl Fn(SuiteProgress) + 'static) {
    listen(SUITE_PROGRESS, handler);
}

pub async fn chat_start(
    id: &str,
    revision: Option<Revision>,
    start: &Start,
) -> Result<ChatView, ApiError> {
    let request = StartChat {
        id: id.to_string(),
        revision,
        start: start.clone(),
    };
    call(CHAT_START, &serde_json::json!({ "request": request })).await
}

pub async fn chat_say(
    id: &str,
    name: &str,
    message: &str,
    tool_results: &ToolResults,
    agent: AgentChoice,
) -> Result<ChatView, ApiError> {
    let request = ChatSay {
        id: id.to_string(),
        name: name.to_string(),
        message: message.to_string(),
        tool_results: tool_results.clone(),
        agent,
    };
    // As the shell's command takes it: the API's request, whole.
    call(CHAT_SAY, &serde_json::json!({ "request": request })).await
}

/// Whether the first start's welcome is due.
pub async fn welcome() -> Result<bool, ApiError> {
    call(WELCOME, &serde_json::json!({})).await
}

/// The welcome dismissed for good.
pub async fn dismiss_welcome() -> Result<(), ApiError> {
    call(DISMISS_WELCOME, &serde_json::json!({})).await
}

/// The language-model agent's saved settings (none before the first save).
pub async fn agent_settings() -> Result<Option<AgentSettings>, ApiError> {
    call(AGENT_SETTINGS, &serde_json::json!({})).await
}

/// The settings checked and kept by the shell, as kept.
pub async fn save_agent_settings(settings: &AgentSettings) -> Result<AgentSettings, ApiError> {
    call(
        SAVE_AGENT_SETTINGS,
        &serde_json::json!({ "settings": settings }),
    )
    .await
}

/// "Test connection" with the form's settings (not kept).
pub async fn test_connection(settings: &AgentSettings) -> Result<ConnectionReport, ApiError> {
    call(
        TEST_CONNECTION,
        &serde_json::json!({ "settings": settings }),
    )
    .await
}

pub async fn chat_set_state(
    id: &str,
    name: &str,
    state: &str,
    preset: &plan_core::runtime::Preset,
) -> Result<ChatView, ApiError> {
    let args = ChatSetState {
        id: id.to_string(),
        name: name.to_string(),
        state: state.to_string(),
        preset: preset.clone(),
    };
    call(CHAT_SET_STATE, &args).await
}

fn chat_ref(id: &str, name: &str) -> ChatRef {
    ChatRef {
        id: id.to_string(),
        name: name.to_string(),
    }
}

pub async fn chat_step_back(id: &str, name: &str) -> Result<ChatView, ApiError> {
    call(CHAT_STEP_BACK, &chat_ref(id, name)).await
}

pub async fn chat_latest(id: &str) -> Result<Option<ChatView>, ApiError> {
    call(CHAT_LATEST, &plan_args(id)).await
}

pub async fn chat_case(id: &str, name: &str) -> Result<Script, ApiError> {
    call(CHAT_CASE, &chat_ref(id, name)).await
}

pub async fn save_case(id: &str, name: &str, script: &Script) -> Result<SavedCase, ApiError> {
    let args = SaveCase {
        id: id.to_string(),
        name: name.to_string(),
        script: script.clone(),
    };
    call(SAVE_CASE, &args).await
}

pub async fn run_suite(id: &str, revision: Option<Revision>) -> Result<SuiteRun, ApiError> {
    let args = RunSuite {
        id: id.to_string(),
        revision,
    };
    call(RUN_SUITE, &args).await
}

/// The open plan's draft explored by the shell in the background (a search running ends).
pub async fn explore(id: &str) -> Result<ExploreView, ApiError> {
    call(EXPLORE, &plan_args(id)).await
}

/// Stops the running search; it answers what it reached.
pub async fn explore_stop() -> Result<(), ApiError> {
    call(EXPLORE_STOP, &serde_json::json!({})).await
}

/// The rules publishing the draft would newly break.
pub async fn publish_rules(id: &str) -> Result<PublishRules, ApiError> {
    call(PUBLISH_RULES, &plan_args(id)).await
}

/// What publishing the draft changes for callers.
pub async fn publish_outcomes(id: &str) -> Result<PublishOutcomes, ApiError> {
    call(PUBLISH_OUTCOMES, &plan_args(id)).await
}

/// Plan `id`'s personas and runs, for the Simulate tab.
pub async fn simulation_overview(id: &str) -> Result<SimulationOverview, ApiError> {
    call(SIMULATION_OVERVIEW, &plan_args(id)).await
}

/// A simulation run (or replayed) by the shell in the background.
pub async fn simulate(args: &SimulateArgs) -> Result<RunReport, ApiError> {
    call(SIMULATE, &serde_json::json!({ "args": args })).await
}

/// Stops the running simulation; it keeps what finished.
pub async fn simulate_stop() -> Result<(), ApiError> {
    call(SIMULATE_STOP, &serde_json::json!({})).await
}

/// A persona written from the Simulate tab's form, checked against the draft first.
pub async fn save_persona(args: &SavePersonaArgs) -> Result<SimulationOverview, ApiError> {
    call(SAVE_PERSONA, &serde_json::json!({ "args": args })).await
}

/// A past run of plan `id`, read back.
pub async fn run_report(id: &str, run: &str) -> Result<RunReport, ApiError> {
    let args = RunArgs {
        id: id.to_string(),
        run: run.to_string(),
    };
    call(RUN_REPORT, &args).await
}

/// Conversation `k` of `persona` in run `run` of plan `id`, with its test case.
pub async fn run_conversation(
    id: &str,
    run: &str,
    persona: &str,
    k: u32,
) -> Result<ConversationView, ApiError> {
    let args = ConversationArgs {
        id: id.to_string(),
        run: run.to_string(),
        persona: persona.to_string(),
        k,
    };
    call(RUN_CONVERSATION, &args).await
}

/// Runs `run` and `other` of plan `id` compared, the earlier first.
pub async fn compare_runs(id: &str, run: &str, other: &str) -> Result<RunComparison, ApiError> {
    let args = CompareRunsArgs {
        id: id.to_string(),
        run: run.to_string(),
        other: other.to_string(),
    };
    call(COMPARE_RUNS, &serde_json::json!({ "args": args })).await
}

/// Calls `handler` after each simulated conversation, for as long as the window lives.
pub fn on_simulate_progress(handler: impl Fn(SimulateProgress) + 'static) {
    listen(SIMULATE_PROGRESS, handler);
}

/// Calls `handler` with each progress report of a search, for as long as the window lives.
pub fn on_explore_progress(handler: impl Fn(ExploreProgress) + 'static) {
    listen(EXPLORE_PROGRESS, handler);
}

/// Calls `handler` with the payload of each event `name` the shell emits.
fn listen<T: DeserializeOwned + 'static>(name: &'static str, handler: impl Fn(T) + 'static) {
    let closure = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let payload = js_sys::Reflect::get(&event, &JsValue::from_str("payload"));
        if let Ok(changed) = payload
            .map_err(|_| ())
            .and_then(|p| from_js(p, any_json).map_err(|_| ()))
        {
            handler(changed);
        }
    });
    wasm_bindgen_futures::spawn_local(async move {
        if tauri_listen(name, closure.as_ref().unchecked_ref())
            .await
            .is_ok()
        {
            // The listener lives as long as the window.
            closure.forget();
        }
    });
}

async fn call<T: DeserializeOwned>(cmd: &str, args: &impl Serialize) -> Result<T, ApiError> {
    call_read(cmd, args, any_json).await
}

/// How an answer's JSON is read: by `plan_api::reading` for the answers that carry whole plans
/// (their code made at that crate's full speed), else as any JSON.
type Reader<T> = fn(&[u8]) -> serde_json::Result<T>;

async fn call_read<T>(cmd: &str, args: &impl Serialize, read: Reader<T>) -> Result<T, ApiError> {
    let answer = tauri_invoke(cmd, arguments(args)?).await;
    answered(cmd, answer, read)
}

/// A command's arguments as the JavaScript object `invoke` takes.
fn arguments(args: &impl Serialize) -> Result<JsValue, ApiError> {
    let text = serde_json::to_string(args).map_err(|e| internal(e.to_string()))?;
    js_sys::JSON::parse(&text).map_err(|_| internal("arguments are not JSON".into()))
}

/// Command `cmd`'s answer, read.
fn answered<T>(
    cmd: &str,
    answer: Result<JsValue, JsValue>,
    read: Reader<T>,
) -> Result<T, ApiError> {
    // The answer is in, not yet parsed (the open-time breakdown).
    crate::timeline::mark(&format!("{cmd}-answered"));
    match answer {
        Ok(value) => {
            from_js(value, read).map_err(|e| internal(format!("{cmd}: unexpected answer: {e}")))
        }
        Err(error) => Err(error_from_js(error)),
    }
}

fn from_js<T>(value: JsValue, read: Reader<T>) -> Result<T, String> {
    // A raw answer (`load_plan`'s): JSON bytes in an ArrayBuffer. A JSON array is a JSON answer.
    if value.is_instance_of::<js_sys::ArrayBuffer>() || value.is_instance_of::<js_sys::Uint8Array>()
    {
        let bytes = js_sys::Uint8Array::new(&value).to_vec();
        return read(&bytes).map_err(|e| e.to_string());
    }
    let text = js_sys::JSON::stringify(&value).map_err(|_| "not JSON".to_string())?;
    read(String::from(text).as_bytes()).map_err(|e| e.to_string())
}

/// Any answer's JSON.
fn any_json<T: DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    plan_core::deep_json::from_slice(bytes)
}

fn error_from_js(error: JsValue) -> ApiError {
    // The shell's own errors arrive as `{code, message}`; Tauri's (a command refused by the
    // capabilities, say) as plain text; a page opened outside the app has no `__TAURI__` at all.
    if let Ok(e) = from_js::<ApiError>(error.clone(), any_json) {
        return e;
    }
    if let Some(text) = error.as_string() {
        return internal(text);
    }
    internal(
        "This window is not connected to Plan Builder. Open plans with the desktop app.".into(),
    )
}

fn internal(message: String) -> ApiError {
    ApiError::new(ErrorCode::Internal, message)
}
