//! The window: top bar, the plan list, the canvas and the status bar, and the state they share.
//!
//! Plans are read through `ipc`; when a plan file changes on disk the list refreshes and the open
//! plan reloads in place (the view stays where it was). Everything here is read-only for now.

use leptos::ev;
use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_core::ipc::{ErrorCode, IpcError, LoadedPlan, PlanSummary};

use crate::canvas::geometry::Viewport;
use crate::canvas::gesture::ZOOM_STEP;
use crate::canvas::scene::Scene;
use crate::canvas::view::Canvas;
use crate::ipc;

#[component]
pub fn App() -> impl IntoView {
    let plans = RwSignal::new(Vec::<PlanSummary>::new());
    let list_error = RwSignal::new(None::<IpcError>);
    let selected = RwSignal::new(None::<String>);
    let loaded = RwSignal::new(None::<LoadedPlan>);
    let load_error = RwSignal::new(None::<IpcError>);
    let viewport = RwSignal::new(Viewport::default());
    let (fit, set_fit) = signal(0u64);

    let scene = Memo::new(move |_| {
        loaded.with(|l| {
            l.as_ref()
                .map(|l| Scene::build(&l.plan))
                .unwrap_or_default()
        })
    });

    // Opens plan `id`; `refit` when it is a different plan than the one shown.
    let open = move |id: String, refit: bool| {
        selected.set(Some(id.clone()));
        spawn_local(async move {
            let result = ipc::load_plan(&id).await;
            // A slower answer for a plan the author has already left is dropped.
            if selected.get_untracked().as_deref() != Some(id.as_str()) {
                return;
            }
            match result {
                Ok(plan) => {
                    loaded.set(Some(plan));
                    load_error.set(None);
                    if refit {
                        set_fit.update(|n| *n += 1);
                    }
                }
                Err(e) => {
                    loaded.set(None);
                    load_error.set(Some(e));
                }
            }
        });
    };
    let refresh = move || {
        spawn_local(async move {
            match ipc::list_plans().await {
                Ok(list) => {
                    list_error.set(None);
                    let first = list
                        .iter()
                        .find(|p| p.error.is_none())
                        .map(|p| p.id.clone());
                    plans.set(list);
                    if selected.get_untracked().is_none() {
                        if let Some(id) = first {
                            open(id, true);
                        }
                    }
                }
                Err(e) => list_error.set(Some(e)),
            }
        });
    };
    refresh();
    ipc::on_plans_changed(move |changed| {
        refresh();
        if let Some(id) = selected.get_untracked() {
            if changed.ids.is_empty() || changed.ids.contains(&id) {
                open(id, false);
            }
        }
    });

    let keys = window_event_listener(ev::keydown, move |e: ev::KeyboardEvent| {
        if !(e.ctrl_key() || e.meta_key()) {
            return;
        }
        let factor = match e.key().as_str() {
            "=" | "+" => ZOOM_STEP,
            "-" => 1.0 / ZOOM_STEP,
            "0" => {
                e.prevent_default();
                set_fit.update(|n| *n += 1);
                return;
            }
            _ => return,
        };
        e.prevent_default();
        let (w, h) = window_size();
        viewport.update(|v| *v = v.zoomed_at((w / 2.0, h / 2.0), factor));
    });
    on_cleanup(move || keys.remove());

    let title = move || {
        loaded.with(|l| {
            l.as_ref()
                .map(|l| l.plan.title.clone())
                .unwrap_or_else(|| "No plan open".into())
        })
    };
    let counts = move || {
        loaded.with(|l| {
            l.as_ref().map_or(String::new(), |l| {
                format!(
                    "{} · {}",
                    plural(l.plan.states.len(), "state"),
                    plural(l.plan.transition_count(), "transition")
                )
            })
        })
    };
    let source = move || loaded.with(|l| l.as_ref().map(|l| l.source.clone()).unwrap_or_default());
    let zoom = move || format!("{:.0} %", viewport.get().zoom * 100.0);

    view! {
        <div class="app">
            <header class="topbar">
                <div class="brand">
                    <img src="icon.png" alt="" width="22" height="22" />
                    "Plan Builder"
                </div>
                <div class="plan-title" data-testid="plan-title">{title}</div>
                <span class="mode" data-testid="mode" title="Editing arrives with the editor">"Viewing · read-only"</span>
            </header>
            <aside class="sidebar">
                <h2>"Plans"</h2>
                {move || list_error.get().map(|e| view! { <p class="error" data-testid="list-error">{e.message}</p> })}
                <ul class="plan-list">
                    <For
                        each=move || plans.get()
                        key=|p| format!("{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{:?}", p.id, p.title, p.states, p.transitions, p.error)
                        children=move |p: PlanSummary| {
                            let id = p.id.clone();
                            let id_for_click = p.id.clone();
                            let active = move || selected.get().as_deref() == Some(id.as_str());
                            let broken = p.error.clone();
                            view! {
                                <li>
                                    <button
                                        class="plan-item"
                                        class:active=active
                                        class:broken=broken.is_some()
                                        data-testid="plan"
                                        data-plan-id=p.id.clone()
                                        title=broken.as_ref().map(|e| e.message.clone()).unwrap_or_else(|| p.id.clone())
                                        on:click=move |_| open(id_for_click.clone(), true)
                                    >
                                        <span class="plan-name">{p.title.clone()}</span>
                                        <span class="plan-meta">
                                            {match &broken {
                                                Some(e) => problem_summary(e),
                                                None => format!("{} · {}", plural(p.states, "state"), plural(p.transitions, "transition")),
                                            }}
                                        </span>
                                    </button>
                                </li>
                            }
                        }
                    />
                </ul>
            </aside>
            <main class="workspace">
                <Canvas scene=scene viewport=viewport fit=fit />
                {move || load_error.get().map(|e| view! {
                    <div class="load-error" data-testid="load-error" data-code=code_name(e.code)>
                        <h3>"This plan cannot be opened"</h3>
                        <p>{e.message.clone()}</p>
                        <p class="hint">"Fix the file and it opens again by itself."</p>
                    </div>
                })}
            </main>
            <footer class="statusbar">
                <span data-testid="counts">{counts}</span>
                <span class="source" title=source>{source}</span>
                <span class="zoom" data-testid="zoom">{zoom}</span>
            </footer>
        </div>
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn problem_summary(e: &IpcError) -> String {
    match e.code {
        ErrorCode::InvalidJson => "Not valid JSON".into(),
        ErrorCode::Schema => "Not a valid plan".into(),
        ErrorCode::TooLarge => "File too large".into(),
        _ => "Cannot be read".into(),
    }
}

fn code_name(code: ErrorCode) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn window_size() -> (f64, f64) {
    let w = web_sys::window();
    let get = |v: Option<Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>>| {
        v.and_then(|r| r.ok())
            .and_then(|j| j.as_f64())
            .unwrap_or(800.0)
    };
    (
        get(w.as_ref().map(|w| w.inner_width())),
        get(w.as_ref().map(|w| w.inner_height())),
    )
}
