//! What a new test conversation runs and where it begins: the document (the draft, a version),
//! the state ("test from here"), the values known from the start, and the Restart button.

use leptos::ev;
use leptos::prelude::*;
use plan_core::runtime::show;
use plan_core::Revision;
use serde_json::Value;

use crate::editor::Editor;
use crate::lifecycle::Lifecycle;
use crate::plan_names::PlanNames;
use crate::test_chat::TestChat;

/// What a new conversation runs and where it begins: the document, the state, the values known.
#[component]
pub fn Begin() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let test_chat = expect_context::<TestChat>();
    let lifecycle = expect_context::<Lifecycle>();
    let run = test_chat.run;
    let from = test_chat.from;
    let run_value = move || match run.get() {
        Revision::Draft => "draft".to_string(),
        Revision::Live => "live".to_string(),
        Revision::Version(n) => n.to_string(),
    };
    let names = expect_context::<Memo<PlanNames>>();
    let states = move || {
        names.with(|n| {
            n.states()
                .iter()
                .map(|s| (s.id.clone(), s.title.clone()))
                .collect::<Vec<_>>()
        })
    };
    let known = move || {
        from.with(|f| {
            f.deliverables
                .iter()
                .map(|(k, v)| (k.clone(), show(v)))
                .collect::<Vec<_>>()
        })
    };
    let key = RwSignal::new(String::new());
    let value = RwSignal::new(String::new());
    let keys = move || {
        names.with(|n| {
            let mut keys: Vec<String> = n.keys(None).map(|k| k.key.clone()).collect();
            keys.sort_unstable();
            keys
        })
    };
    let add_known = move || {
        let (k, v) = (key.get_untracked(), value.get_untracked());
        if !k.trim().is_empty() {
            from.update(|f| {
                f.deliverables
                    .insert(k.trim().to_string(), Value::String(v.trim().to_string()));
            });
            value.set(String::new());
        }
    };
    // Each session state with its preset: (id, "on"/"off"/"", value typed, a prompt state).
    let preset_rows = move || {
        editor.plan.with(|p| {
            from.with(|f| {
                p.as_ref()
                    .map(|p| {
                        p.session_states
                            .iter()
                            .map(|st| {
                                let preset = f.session_states.get(&st.id);
                                let active = match preset.and_then(|x| x.active) {
                                    Some(true) => "on",
                                    Some(false) => "off",
                                    None => "",
                                };
                                let value = preset
                                    .and_then(|x| x.value.clone())
                                    .flatten()
                                    .map(|v| show(&v))
                                    .unwrap_or_default();
                                let prompt = st.kind == plan_core::plan::SessionType::Prompt;
                                (st.id.clone(), active.to_string(), value, prompt)
                            })
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default()
            })
        })
    };
    let started = move || test_chat.chat.with(Option::is_some);
    // While a conversation runs the beginning folds to one line, so the transcript has the room;
    // it opens again for a new one (the author's toggle is kept until then).
    let summary = move || {
        let state = from.with(|f| f.state.clone());
        let at = match state {
            Some(id) => editor
                .plan
                .with(|p| {
                    p.as_ref()
                        .and_then(|p| p.state(&id))
                        .map(|s| s.title.clone())
                })
                .unwrap_or(id),
            None => "the start state".to_string(),
        };
        let what = match run.get() {
            Revision::Draft => "the draft".to_string(),
            Revision::Live => "the live version".to_string(),
            Revision::Version(n) => format!("version {n}"),
        };
        let known = from.with(|f| f.deliverables.len());
        let known = match known {
            0 => String::new(),
            1 => ", 1 value known".to_string(),
            n => format!(", {n} values known"),
        };
        format!("Testing {what} from {at}{known}")
    };
    view! {
        <details class="chat-begin" prop:open=move || !started()>
            <summary data-testid="chat-begin-summary">{summary}</summary>
            <div class="chat-begin-row">
                <label class="field">
                    <span class="field-label">"Run"</span>
                    <select
                        data-testid="chat-run"
                        prop:value=run_value
                        on:change=move |e| {
                            run.set(
                                match event_target_value(&e).as_str() {
                                    "live" => Revision::Live,
                                    "draft" => Revision::Draft,
                                    n => n.parse().map(Revision::Version).unwrap_or(Revision::Draft),
                                },
                            );
                        }
                    >
                        <option value="draft">"the draft"</option>
                        <option value="live">"the live version"</option>
                        {move || {
                            lifecycle
                                .newest_version()
                                .map(|newest| {
                                    (1..=newest)
                                        .rev()
                                        .map(|n| {
                                            view! {
                                                <option value=n
                                                    .to_string()>{format!("version {n}")}</option>
                                            }
                                        })
                                        .collect_view()
                                })
                        }}
                    </select>
                </label>
                <label class="field">
                    <span class="field-label">"Begin in"</span>
                    <select
                        data-testid="chat-begin-state"
                        prop:value=move || from.with(|f| f.state.clone().unwrap_or_default())
                        on:change=move |e| {
                            let v = event_target_value(&e);
                            from.update(|f| f.state = (!v.is_empty()).then_some(v));
                        }
                    >
                        <option value="">"the start state"</option>
                        {move || {
                            states()
                                .into_iter()
                                .map(|(id, title)| {
                                    view! { <option value=id.clone()>{title}</option> }
                                })
                                .collect_view()
                        }}
                    </select>
                </label>
            </div>
            {move || {
                (!preset_rows().is_empty())
                    .then(|| {
                        view! {
                            <div class="chat-session-presets">
                                <span class="field-label">
                                    "Session states at the start (set by the author)"
                                </span>
                                <ul>
                                    {preset_rows()
                                        .into_iter()
                                        .map(|(id, active, value, prompt)| {
                                            let (a_id, v_id) = (id.clone(), id.clone());
                                            view! {
                                                <li data-testid="chat-ss-preset" data-id=id.clone()>
                                                    <code>{id.clone()}</code>
                                                    <select
                                                        data-testid="chat-ss-preset-active"
                                                        prop:value=active
                                                        on:change=move |e| {
                                                            let v = event_target_value(&e);
                                                            from.update(|f| {
                                                                let p = f.session_states.entry(a_id.clone()).or_default();
                                                                p.active = match v.as_str() {
                                                                    "on" => Some(true),
                                                                    "off" => Some(false),
                                                                    _ => None,
                                                                };
                                                                if p.active.is_none() && p.value.is_none() {
                                                                    f.session_states.remove(&a_id);
                                                                }
                                                            });
                                                        }
                                                    >
                                                        <option value="">"as the plan says"</option>
                                                        <option value="on">"on"</option>
                                                        <option value="off">"off"</option>
                                                    </select>
                                                    {(!prompt)
                                                        .then(|| {
                                                            view! {
                                                                <input
                                                                    type="text"
                                                                    placeholder="value as the plan says"
                                                                    data-testid="chat-ss-preset-value"
                                                                    prop:value=value
                                                                    on:change=move |e| {
                                                                        let v = event_target_value(&e);
                                                                        from.update(|f| {
                                                                            let p = f.session_states.entry(v_id.clone()).or_default();
                                                                            p.value = (!v.trim().is_empty())
                                                                                .then(|| Some(Value::String(v.trim().to_string())));
                                                                            if p.active.is_none() && p.value.is_none() {
                                                                                f.session_states.remove(&v_id);
                                                                            }
                                                                        });
                                                                    }
                                                                />
                                                            }
                                                        })}
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ul>
                            </div>
                        }
                    })
            }}
            <div class="chat-known">
                <span class="field-label">"Known from the start"</span>
                <ul>
                    {move || {
                        known()
                            .into_iter()
                            .map(|(k, v)| {
                                let gone = k.clone();
                                view! {
                                    <li data-testid="chat-preset" data-key=k.clone()>
                                        <code>{format!("{k} = {v}")}</code>
                                        <button
                                            class="remove"
                                            title="Forget this value"
                                            on:click=move |_| {
                                                from.update(|f| {
                                                    f.deliverables.remove(&gone);
                                                })
                                            }
                                        >
                                            "✕"
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
                <div class="chat-known-add">
                    <input
                        type="text"
                        list="chat-keys"
                        placeholder="key"
                        data-testid="chat-preset-key"
                        prop:value=move || key.get()
                        on:input=move |e| key.set(event_target_value(&e))
                    />
                    <datalist id="chat-keys">
                        {move || {
                            keys()
                                .into_iter()
                                .map(|k| view! { <option value=k></option> })
                                .collect_view()
                        }}
                    </datalist>
                    <input
                        type="text"
                        placeholder="value"
                        data-testid="chat-preset-value"
                        prop:value=move || value.get()
                        on:input=move |e| value.set(event_target_value(&e))
                        on:keydown=move |e: ev::KeyboardEvent| {
                            if e.key() == "Enter" {
                                add_known()
                            }
                        }
                    />
                    <button class="add" data-testid="chat-preset-add" on:click=move |_| add_known()>
                        "+ Add"
                    </button>
                </div>
            </div>
        </details>
        // Outside the fold: a new conversation or a restart is always one click away.
        <div class="chat-begin-buttons">
            <button
                class="primary"
                data-testid="chat-start"
                disabled=move || test_chat.busy.get()
                on:click=move |_| test_chat.start()
            >
                {move || if started() { "New conversation" } else { "Start the conversation" }}
            </button>
            {move || {
                started()
                    .then(|| {
                        view! {
                            <button
                                data-testid="chat-restart"
                                title="The same beginning, a new conversation"
                                disabled=move || test_chat.busy.get()
                                on:click=move |_| test_chat.restart()
                            >
                                "Restart"
                            </button>
                        }
                    })
            }}
        </div>
    }
}
