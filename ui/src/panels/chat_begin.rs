//! What a new test conversation runs and where it begins: the document (the draft, a version),
//! the state ("test from here"), the session states and values known from the start, and the
//! Restart button. Each event is one `BeginChange` (decided in `test_chat::beginning`).

use leptos::ev;
use leptos::prelude::*;
use plan_core::runtime::show;

use crate::editor::Editor;
use crate::lifecycle::Lifecycle;
use crate::plan_names::PlanNames;
use crate::test_chat::{preset_rows, summary, BeginChange, TestChat};
use plan_core::Revision;

/// What a new conversation runs and where it begins: the document, the state, the values known.
#[component]
pub fn Begin() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let test_chat = expect_context::<TestChat>();
    let started = move || test_chat.chat().with(Option::is_some);
    // While a conversation runs the beginning folds to one line, so the transcript has the room;
    // it opens again for a new one (the author's toggle is kept until then).
    let summary = move || {
        let run = test_chat.run().get();
        test_chat.from().with(|start| {
            editor.plan.with(|p| {
                let title_of = |id: &str| {
                    p.as_ref()
                        .and_then(|p| p.state(id))
                        .map(|s| s.title.clone())
                };
                summary(run, start, title_of)
            })
        })
    };
    view! {
        <details class="chat-begin" prop:open=move || !started()>
            <summary data-testid="chat-begin-summary">{summary}</summary>
            <div class="chat-begin-row">
                <RunPicker />
                <StatePicker />
            </div>
            <SessionPresets />
            <KnownValues />
        </details>
        // Outside the fold: a new conversation or a restart is always one click away.
        <div class="chat-begin-buttons">
            <button
                class="primary"
                data-testid="chat-start"
                disabled=move || test_chat.busy().get()
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
                                disabled=move || test_chat.busy().get()
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

/// The document a new conversation runs: the draft, the live version, or a version.
#[component]
fn RunPicker() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let lifecycle = expect_context::<Lifecycle>();
    let versions = move || {
        lifecycle.newest_version().map(|newest| {
            (1..=newest)
                .rev()
                .map(|n| view! { <option value=n.to_string()>{format!("version {n}")}</option> })
                .collect_view()
        })
    };
    view! {
        <label class="field">
            <span class="field-label">"Run"</span>
            <select
                data-testid="chat-run"
                prop:value=move || test_chat.run().get().word()
                on:change=move |e| {
                    test_chat
                        .change_beginning(
                            BeginChange::Run(
                                Revision::from_word(&event_target_value(&e))
                                    .unwrap_or(Revision::Draft),
                            ),
                        )
                }
            >
                <option value="draft">"the draft"</option>
                <option value="live">"the live version"</option>
                {versions}
            </select>
        </label>
    }
}

/// The state a new conversation begins in ("test from here").
#[component]
fn StatePicker() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let names = expect_context::<Memo<PlanNames>>();
    let states = move || {
        names.with(|n| {
            n.states()
                .iter()
                .map(|s| view! { <option value=s.id.clone()>{s.title.clone()}</option> })
                .collect_view()
        })
    };
    view! {
        <label class="field">
            <span class="field-label">"Begin in"</span>
            <select
                data-testid="chat-begin-state"
                prop:value=move || test_chat.from().with(|f| f.state.clone().unwrap_or_default())
                on:change=move |e| {
                    let v = event_target_value(&e);
                    test_chat.change_beginning(BeginChange::State((!v.is_empty()).then_some(v)));
                }
            >
                <option value="">"the start state"</option>
                {states}
            </select>
        </label>
    }
}

/// Each session state on, off or as the plan says at the start, and its value.
#[component]
fn SessionPresets() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let test_chat = expect_context::<TestChat>();
    let rows = move || {
        editor.plan.with(|p| {
            p.as_ref()
                .map(|p| test_chat.from().with(|start| preset_rows(p, start)))
                .unwrap_or_default()
        })
    };
    let row = move |row: crate::test_chat::PresetRow| {
        let (a_id, v_id) = (row.id.clone(), row.id.clone());
        let value_name = format!("{}: its value at the start", row.title);
        let value = (!row.prompt).then(|| {
            view! {
                <input
                    type="text"
                    aria-label=value_name
                    placeholder="value as the plan says"
                    data-testid="chat-ss-preset-value"
                    prop:value=row.value
                    on:change=move |e| {
                        test_chat
                            .change_beginning(BeginChange::SessionValue {
                                id: v_id.clone(),
                                typed: event_target_value(&e),
                            })
                    }
                />
            }
        });
        view! {
            <li data-testid="chat-ss-preset" data-id=row.id.clone()>
                <span class="chat-ss-title">{row.title.clone()}</span>
                <select
                    data-testid="chat-ss-preset-active"
                    aria-label=format!("{}: on or off at the start", row.title)
                    prop:value=row.active
                    on:change=move |e| {
                        let active = match event_target_value(&e).as_str() {
                            "on" => Some(true),
                            "off" => Some(false),
                            _ => None,
                        };
                        test_chat
                            .change_beginning(BeginChange::SessionActive {
                                id: a_id.clone(),
                                active,
                            })
                    }
                >
                    <option value="">"as the plan says"</option>
                    <option value="on">"on"</option>
                    <option value="off">"off"</option>
                </select>
                {value}
            </li>
        }
    };
    move || {
        let rows = rows();
        (!rows.is_empty()).then(|| {
            view! {
                <div class="chat-session-presets">
                    <span class="field-label">
                        "Session states at the start (set by the author)"
                    </span>
                    <ul>{rows.into_iter().map(row).collect_view()}</ul>
                </div>
            }
        })
    }
}

/// The values known from the start: each removable, and a key with a value added.
#[component]
fn KnownValues() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let names = expect_context::<Memo<PlanNames>>();
    let known = move || {
        test_chat.from().with(|f| {
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
            keys.into_iter()
                .map(|k| view! { <option value=k></option> })
                .collect_view()
        })
    };
    let add_known = move || {
        let (k, v) = (key.get_untracked(), value.get_untracked());
        if !k.trim().is_empty() {
            test_chat.change_beginning(BeginChange::Know { key: k, value: v });
            value.set(String::new());
        }
    };
    let known_row = move |(k, v): (String, String)| {
        let gone = k.clone();
        view! {
            <li data-testid="chat-preset" data-key=k.clone()>
                <code>{format!("{k} = {v}")}</code>
                <button
                    class="remove"
                    title="Forget this value"
                    on:click=move |_| test_chat.change_beginning(BeginChange::Forget(gone.clone()))
                >
                    "✕"
                </button>
            </li>
        }
    };
    view! {
        <div class="chat-known">
            <span class="field-label">"Known from the start"</span>
            <ul>{move || known().into_iter().map(known_row).collect_view()}</ul>
            <div class="chat-known-add">
                <input
                    type="text"
                    list="chat-keys"
                    placeholder="key"
                    data-testid="chat-preset-key"
                    prop:value=move || key.get()
                    on:input=move |e| key.set(event_target_value(&e))
                />
                <datalist id="chat-keys">{keys}</datalist>
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
    }
}
