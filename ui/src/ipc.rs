//! The only place the UI talks to the desktop shell: Tauri's `invoke` and `listen`, wrapped in
//! typed functions over the message types of `plan_core::ipc`.
//!
//! Values cross as JSON (`serde_json` on both sides), so numbers and maps arrive exactly as the
//! shell wrote them. The plan itself, megabytes in a large plan, crosses as raw JSON bytes both
//! ways (`load_plan`'s answer, `save_draft`'s body) rather than being parsed into JavaScript objects
//! and printed back. Every failure comes back as an [`IpcError`] with a code.

use plan_core::ipc::{
    ErrorCode, IpcError, LoadPlanArgs, LoadedPlan, PlanSummary, PlansChanged, StartArgs, Started,
    LIST_PLANS, LOAD_PLAN, PLANS_CHANGED, PLAN_ID_HEADER, SAVE_DRAFT, START,
};
use plan_core::Plan;
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

    #[wasm_bindgen(catch, js_namespace = ["window", "__TAURI__", "event"], js_name = listen)]
    async fn tauri_listen(event: &str, handler: &js_sys::Function) -> Result<JsValue, JsValue>;
}

/// The first screen in one round trip: the plan list and the plan to open (`remembered` when it
/// opens). Raw bytes, like `load_plan`'s answer.
pub async fn start(remembered: Option<String>) -> Result<Started, IpcError> {
    call(START, &StartArgs { remembered }).await
}

/// Every plan the app can open.
pub async fn list_plans() -> Result<Vec<PlanSummary>, IpcError> {
    call(LIST_PLANS, &serde_json::json!({})).await
}

/// One plan, fresh from disk. The shell answers with the JSON as bytes (see its `load_plan`).
pub async fn load_plan(id: &str) -> Result<LoadedPlan, IpcError> {
    call(LOAD_PLAN, &LoadPlanArgs { id: id.to_string() }).await
}

/// Writes the draft of plan `id` (the editor's autosave): the plan's JSON goes as raw bytes.
pub async fn save_draft(id: &str, plan: &Plan) -> Result<(), IpcError> {
    let bytes = serde_json::to_vec(plan).map_err(|e| internal(e.to_string()))?;
    let body = js_sys::Uint8Array::from(&bytes[..]);
    let headers = js_sys::Object::new();
    let options = js_sys::Object::new();
    let set = |on: &js_sys::Object, key: &str, value: &JsValue| {
        js_sys::Reflect::set(on, &JsValue::from_str(key), value).map(drop)
    };
    set(&headers, PLAN_ID_HEADER, &JsValue::from_str(id))
        .and_then(|()| set(&options, "headers", &headers))
        .map_err(|_| internal("the save request could not be made".into()))?;
    match tauri_invoke_with(SAVE_DRAFT, body.into(), options.into()).await {
        Ok(_) => Ok(()),
        Err(error) => Err(error_from_js(error)),
    }
}

/// Calls `handler` whenever plan files change on disk, for as long as the window lives.
pub fn on_plans_changed(handler: impl Fn(PlansChanged) + 'static) {
    let closure = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
        let payload = js_sys::Reflect::get(&event, &JsValue::from_str("payload"));
        if let Ok(changed) = payload
            .map_err(|_| ())
            .and_then(|p| from_js(p).map_err(|_| ()))
        {
            handler(changed);
        }
    });
    wasm_bindgen_futures::spawn_local(async move {
        if tauri_listen(PLANS_CHANGED, closure.as_ref().unchecked_ref())
            .await
            .is_ok()
        {
            // The listener lives as long as the window.
            closure.forget();
        }
    });
}

async fn call<T: DeserializeOwned>(cmd: &str, args: &impl Serialize) -> Result<T, IpcError> {
    let text = serde_json::to_string(args).map_err(|e| internal(e.to_string()))?;
    let args = js_sys::JSON::parse(&text).map_err(|_| internal("arguments are not JSON".into()))?;
    let answer = tauri_invoke(cmd, args).await;
    // The answer is in, not yet parsed (the open-time breakdown).
    crate::timeline::mark(&format!("{cmd}-answered"));
    match answer {
        Ok(value) => from_js(value).map_err(|e| internal(format!("{cmd}: unexpected answer: {e}"))),
        Err(error) => Err(error_from_js(error)),
    }
}

fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, String> {
    // A raw answer (`load_plan`'s): JSON bytes in an ArrayBuffer. A JSON array is a JSON answer.
    if value.is_instance_of::<js_sys::ArrayBuffer>() || value.is_instance_of::<js_sys::Uint8Array>()
    {
        let bytes = js_sys::Uint8Array::new(&value).to_vec();
        return serde_json::from_slice(&bytes).map_err(|e| e.to_string());
    }
    let text = js_sys::JSON::stringify(&value).map_err(|_| "not JSON".to_string())?;
    serde_json::from_str(&String::from(text)).map_err(|e| e.to_string())
}

fn error_from_js(error: JsValue) -> IpcError {
    // The shell's own errors arrive as `{code, message}`; Tauri's (a command refused by the
    // capabilities, say) as plain text; a page opened outside the app has no `__TAURI__` at all.
    if let Ok(e) = from_js::<IpcError>(error.clone()) {
        return e;
    }
    if let Some(text) = error.as_string() {
        return internal(text);
    }
    internal(
        "This window is not connected to Plan Builder. Open plans with the desktop app.".into(),
    )
}

fn internal(message: String) -> IpcError {
    IpcError {
        code: ErrorCode::Internal,
        message,
    }
}
