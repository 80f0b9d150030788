//! The test chat's agent: the switch (Simulator · Language model), the language model's settings
//! form with "Test connection", and a turn the model failed with Retry and "Answer with the
//! simulator". The decisions are `test_chat::agent`'s; these views map events to them.

use leptos::prelude::*;
use plan_api::messages::AgentKind;

use crate::test_chat::{SettingsForm, TestChat};

/// Simulator · Language model, and the model's settings while it is chosen.
#[component]
pub fn AgentSwitch() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let agent = test_chat.agent();
    let option = move |kind: AgentKind, hint: &'static str| {
        view! {
            <button
                class="agent-choice"
                class:chosen=move || agent.get() == kind
                data-testid="chat-agent"
                data-agent=kind.as_str()
                title=hint
                aria-pressed=move || if agent.get() == kind { "true" } else { "false" }
                on:click=move |_| test_chat.choose_agent(kind)
            >
                {kind.label()}
            </button>
        }
    };
    view! {
        <div class="chat-agent" data-testid="chat-agent-switch">
            <span class="field-label">"Answered by"</span>
            {option(
                AgentKind::Simulator,
                "The built-in, offline simulator: the same answers every time",
            )}
            {option(
                AgentKind::LanguageModel,
                "A language model on any OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio or a hosted one)",
            )}
        </div>
        {move || (agent.get() == AgentKind::LanguageModel).then(|| view! { <Settings /> })}
    }
}

/// The language model's settings: base URL, model, the key's variable, temperature, seed, timeout.
#[component]
fn Settings() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let form = RwSignal::new(SettingsForm::default());
    // The kept settings fill the form when they arrive (and after a save).
    Effect::new(move |_| {
        let kept = test_chat.settings().get().unwrap_or_default();
        form.set(SettingsForm::of(&kept));
    });
    let set_up = move || test_chat.settings().with(Option::is_some);
    let field = move |label: &'static str,
                      id: &'static str,
                      hint: &'static str,
                      get: fn(&SettingsForm) -> String,
                      set: fn(&mut SettingsForm, String)| {
        view! {
            <label class="agent-field">
                <span class="field-label">{label}</span>
                <input
                    type="text"
                    data-testid=id
                    placeholder=hint
                    list=(id == "agent-model").then_some("agent-models")
                    prop:value=move || form.with(get)
                    on:input=move |e| {
                        let v = event_target_value(&e);
                        form.update(|f| set(f, v));
                    }
                />
            </label>
        }
    };
    view! {
        <details class="agent-settings" data-testid="agent-settings" open=move || !set_up()>
            <summary>
                {move || {
                    test_chat
                        .settings()
                        .with(|s| match s {
                            Some(s) => format!("Model: {} at {}", s.model, s.base_url),
                            None => "Set up the language model".to_string(),
                        })
                }}
            </summary>
            {field(
                "Base URL",
                "agent-base-url",
                "http://localhost:11434/v1",
                |f| f.base_url.clone(),
                |f, v| f.base_url = v,
            )}
            {field("Model", "agent-model", "llama3.1", |f| f.model.clone(), |f, v| f.model = v)}
            <datalist id="agent-models">
                {move || {
                    test_chat
                        .models()
                        .get()
                        .into_iter()
                        .map(|m| view! { <option value=m></option> })
                        .collect_view()
                }}
            </datalist>
            {field(
                "Key variable (none for a local server)",
                "agent-key-env",
                "OPENAI_API_KEY",
                |f| f.api_key_env.clone(),
                |f, v| f.api_key_env = v,
            )}
            <p class="hint">
                "The name of an environment variable that holds the key; the key itself is never written anywhere."
            </p>
            <div class="agent-numbers">
                {field(
                    "Temperature",
                    "agent-temperature",
                    "0",
                    |f| f.temperature.clone(),
                    |f, v| f.temperature = v,
                )}
                {field(
                    "Seed (optional)",
                    "agent-seed",
                    "none",
                    |f| f.seed.clone(),
                    |f, v| f.seed = v,
                )}
                {field(
                    "Timeout (s)",
                    "agent-timeout",
                    "60",
                    |f| f.timeout_s.clone(),
                    |f, v| f.timeout_s = v,
                )}
            </div>
            <div class="agent-buttons">
                <button
                    data-testid="agent-test"
                    on:click=move |_| test_chat.test_connection(form.get_untracked())
                >
                    "Test connection"
                </button>
                <button
                    class="primary"
                    data-testid="agent-save"
                    on:click=move |_| test_chat.save_settings(form.get_untracked())
                >
                    "Save"
                </button>
            </div>
            {move || {
                test_chat
                    .settings_note()
                    .get()
                    .map(|note| match note {
                        Ok(text) => {
                            view! {
                                <p class="hint" data-testid="agent-note" data-ok="true">
                                    {text}
                                </p>
                            }
                                .into_any()
                        }
                        Err(text) => {
                            view! {
                                <p class="error" data-testid="agent-note" data-ok="false">
                                    {text}
                                </p>
                            }
                                .into_any()
                        }
                    })
            }}
        </details>
    }
}

/// The turn the model failed: what failed and what to do, the message kept, Retry, and the
/// simulator answering it instead.
#[component]
pub fn FailedTurn() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    move || {
        test_chat.failed().get().map(|f| {
            view! {
                <div class="chat-failed" data-testid="chat-failed" role="alert">
                    <p>
                        <strong>"The language model did not answer: "</strong>
                        {f.reason}
                    </p>
                    <p class="hint">
                        {format!(
                            "Nothing changed; your message is kept: \u{201c}{}\u{201d}",
                            f.message,
                        )}
                    </p>
                    <div class="agent-buttons">
                        <button
                            class="primary"
                            data-testid="chat-retry"
                            disabled=move || test_chat.busy().get()
                            on:click=move |_| test_chat.retry()
                        >
                            "Retry"
                        </button>
                        <button
                            data-testid="chat-fallback"
                            disabled=move || test_chat.busy().get()
                            title="This one turn is answered by the simulator; the trace says so"
                            on:click=move |_| test_chat.answer_with_simulator()
                        >
                            "Answer with the simulator"
                        </button>
                    </div>
                </div>
            }
        })
    }
}
