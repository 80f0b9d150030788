//! The window: top bar, the sidebar (plan list and palette), the canvas, the inspector panel and
//! the status bar, and the keyboard shortcuts that reach across them.
//!
//! Plans are read through `ipc`; the open plan lives in the [`Editor`] store and changes only
//! through its commands. When a plan file changes on disk, the list refreshes and the editor
//! decides what to do with the new draft (reload, or ask when there are unsaved edits).

use std::collections::BTreeMap;

use leptos::ev;
use leptos::prelude::*;
use leptos::task::spawn_local;
use plan_core::edit::{delete_impact, Command, NewState};
use plan_core::ipc::{ErrorCode, IpcError, LoadedPlan, OpenedPlan, PlanSummary, Started};
use plan_core::plan::{Position, State};
use plan_core::{Diagnostic, Severity};
use wasm_bindgen::JsCast;

use crate::canvas::geometry::{Viewport, CARD_H, CARD_W};
use crate::canvas::gesture::ZOOM_STEP;
use crate::canvas::scene::{Marks, Scene};
use crate::canvas::view::{fitted, snap, Canvas, GRID};
use crate::editor::{Change, Editor, SaveState, Selection, Theirs};
use crate::find::Find;
use crate::help::Help;
use crate::inspector::{focus_field_of, Panel, Tab};
use crate::ipc;
use crate::sidebar::Sidebar;
use crate::timeline::{mark, mark_opened};
use crate::validation::validation;

/// Copied states, for paste.
#[derive(Clone, Default)]
struct Clipboard {
    states: Vec<State>,
    layout: BTreeMap<String, Position>,
    pastes: u32,
}

#[component]
pub fn App() -> impl IntoView {
    let editor = Editor::new();
    let plans = RwSignal::new(Vec::<PlanSummary>::new());
    let list_error = RwSignal::new(None::<IpcError>);
    let load_error = RwSignal::new(None::<IpcError>);
    let source = RwSignal::new(String::new());
    let viewport = RwSignal::new(Viewport::default());
    let size = RwSignal::new((1024.0, 640.0));
    let (fit, set_fit) = signal(0u64);
    let tab = RwSignal::new(Tab::Inspect);
    let help = RwSignal::new(false);
    let finding = RwSignal::new(false);
    let clipboard = StoredValue::new(Clipboard::default());

    // Typing in the inspector changes one state: only its card and arrows are made again.
    let scene = Memo::new(move |before: Option<&Scene>| {
        let change = editor.take_change();
        editor.plan.with(|p| {
            let Some(p) = p else {
                return Scene::default();
            };
            if let (Some(before), Change::OneState(id)) = (before, &change) {
                if let Some(s) = before.with_state_redrawn(p, id) {
                    return s;
                }
            }
            mark("scene-start");
            let s = Scene::build(p);
            mark("scene-done");
            s
        })
    });
    let report = validation(editor);
    let marks = Memo::new(move |_| report.with(Marks::of));

    // Fits the view to the plan at once, with the canvas's size as last measured: the first
    // frame of a newly opened plan then draws it fitted, without first making elements for the
    // cards of the old view (and without asking the page for a fresh layout in between).
    let fit_now = move || {
        if let Some(fit) = scene.with_untracked(|s| fitted(s, size.get_untracked())) {
            viewport.set(fit);
        }
    };
    // Opens plan `id`; `refit` when it is a different plan than the one shown.
    // The plan being opened, until it is: a reload for it meanwhile (the watcher) waits for that
    // load instead of opening it a second time over the author's first edits, and a slower
    // answer for a plan the author has already left is dropped.
    let opening = StoredValue::new(None::<String>);
    // Shows a plan fresh from disk as the open plan.
    let show = move |id: String, loaded: LoadedPlan, refit: bool| {
        load_error.set(None);
        source.set(loaded.source);
        editor.open(id, loaded.plan);
        mark("editor-opened");
        mark_opened();
        if refit {
            fit_now();
        }
    };
    let open = move |id: String, refit: bool| {
        let same = editor.id.get_untracked().as_deref() == Some(id.as_str());
        if !same {
            if opening.get_value().as_deref() == Some(id.as_str()) && !refit {
                return;
            }
            // Unsaved edits held back by a change on disk would be left behind: settle it first.
            if editor.theirs.with_untracked(Option::is_some) {
                editor.notice.set(Some(
                    "This plan changed on disk: choose which version to keep before opening another."
                        .into(),
                ));
                return;
            }
            editor.flush();
            opening.set_value(Some(id.clone()));
        }
        spawn_local(async move {
            mark("load-plan-start");
            let result = ipc::load_plan(&id).await;
            mark("load-plan-done");
            if !same {
                if opening.get_value().as_deref() != Some(id.as_str()) {
                    return;
                }
                opening.set_value(None);
            }
            match result {
                Ok(loaded) if same && editor.plan.with_untracked(Option::is_some) => {
                    load_error.set(None);
                    source.set(loaded.source);
                    editor.on_disk_changed(loaded.plan);
                    if refit {
                        set_fit.update(|n| *n += 1);
                    }
                }
                Ok(loaded) => show(id, loaded, refit),
                // The open plan's file broke under it: the editor keeps the plan (never lose work).
                Err(e) if same && editor.plan.with_untracked(Option::is_some) => {
                    editor.on_disk_unreadable(e);
                }
                Err(e) => {
                    editor.id.set(Some(id));
                    editor.close();
                    load_error.set(Some(e));
                }
            }
        });
    };
    // Lists are asked for on every change on disk; answers can arrive out of order, and only the
    // newest request's answer is shown.
    let asked = StoredValue::new(0u64);
    // Until the first screen's answer is in, it opens the plan (not a list the watcher asked for).
    let starting = StoredValue::new(true);
    let refresh = move || {
        asked.update_value(|n| *n += 1);
        let mine = asked.get_value();
        spawn_local(async move {
            mark("list-plans-start");
            let listed = ipc::list_plans().await;
            mark("list-plans-done");
            if asked.get_value() != mine {
                return;
            }
            match listed {
                Ok(list) => {
                    list_error.set(None);
                    // After a reload (the web view crashed) the plan that was open comes back.
                    let opens = |id: &str| list.iter().any(|p| p.id == id && p.error.is_none());
                    let first = remembered_plan().filter(|id| opens(id)).or_else(|| {
                        list.iter()
                            .find(|p| p.error.is_none())
                            .map(|p| p.id.clone())
                    });
                    plans.set(list);
                    if editor.id.get_untracked().is_none() && !starting.get_value() {
                        if let Some(id) = first {
                            open(id, true);
                        }
                    }
                }
                Err(e) => list_error.set(Some(e)),
            }
        });
    };
    // The first screen: the list and the plan to open come in one answer, read by the shell while
    // the page draws its first frame (list then load took one more round trip, and read the
    // opened plan twice).
    spawn_local(async move {
        mark("start-start");
        let started = ipc::start(remembered_plan()).await;
        mark("start-done");
        starting.set_value(false);
        match started {
            Ok(Started {
                plans: list,
                opened,
            }) => {
                // A list the watcher asked for meanwhile is at least as new.
                if asked.get_value() == 0 {
                    list_error.set(None);
                    plans.set(list);
                }
                if let Some(OpenedPlan { id, loaded }) = opened {
                    if editor.id.get_untracked().is_none() && opening.get_value().is_none() {
                        show(id, loaded, true);
                    }
                }
            }
            // The list's own request says why, or opens the plan after all.
            Err(_) => return refresh(),
        }
        // A plan created while the answer was on its way was listed but not opened.
        if editor.id.get_untracked().is_none() && asked.get_value() > 0 {
            refresh();
        }
    });
    Effect::new(move |_| {
        if let Some(id) = editor.id.get() {
            remember_plan(&id);
        }
    });
    ipc::on_plans_changed(move |changed| {
        refresh();
        if let Some(id) = editor.id.get_untracked() {
            if changed.ids.is_empty() || changed.ids.contains(&id) {
                open(id, false);
            }
        }
    });

    let centre_on = move |id: &str| {
        let rect = scene.with_untracked(|s| s.cards.iter().find(|c| c.id == id).map(|c| c.rect));
        if let Some(r) = rect {
            let (w, h) = size.get_untracked();
            viewport.update(|v| {
                let (cx, cy) = r.center();
                v.x = w / 2.0 - cx * v.zoom;
                v.y = h / 2.0 - cy * v.zoom;
            });
        }
    };
    let on_problem = Callback::new(move |d: Diagnostic| {
        let Some(state) = d.location.state_id.clone() else {
            editor.selection.set(Selection::default());
            tab.set(Tab::Inspect);
            return;
        };
        centre_on(&state);
        editor.selection.set(match d.location.transition_index {
            Some(i) => Selection {
                states: Vec::new(),
                transition: Some((state, i)),
            },
            None => Selection::state(&state),
        });
        tab.set(Tab::Inspect);
        focus_field_of(&d.location.path);
    });

    let add_state = move |kind: NewState, at: Option<(f64, f64)>| {
        let (w, h) = size.get_untracked();
        let (x, y) = viewport
            .get_untracked()
            .to_world(at.unwrap_or((w / 2.0, h / 2.0)));
        editor.dispatch(Command::AddState {
            kind,
            at: Position {
                x: snap(x - CARD_W / 2.0),
                y: snap(y - CARD_H / 2.0),
            },
        });
    };
    let delete_selection = move || {
        let sel = editor.selection.get_untracked();
        if let Some((from, index)) = sel.transition {
            if editor.dispatch(Command::DeleteTransition { from, index }) {
                editor
                    .notice
                    .set(Some("Deleted 1 transition. Ctrl+Z brings it back.".into()));
            }
        } else if !sel.states.is_empty() {
            let (states, arrows) = editor.plan.with_untracked(|p| {
                p.as_ref()
                    .map(|p| delete_impact(p, &sel.states))
                    .unwrap_or_default()
            });
            if editor.dispatch(Command::DeleteStates { ids: sel.states }) {
                editor.notice.set(Some(format!(
                    "Deleted {} and {} with it. Ctrl+Z brings them back.",
                    plural(states, "state"),
                    plural(arrows, "transition")
                )));
            }
        }
        editor.selection.set(Selection::default());
    };
    let copy = move || {
        let ids = editor.selection.get_untracked().states;
        editor.plan.with_untracked(|p| {
            let Some(p) = p else { return };
            let positions = plan_core::layout::complete(p);
            let states: Vec<State> = p
                .states
                .iter()
                .filter(|s| ids.contains(&s.id))
                .cloned()
                .collect();
            let layout = states
                .iter()
                .filter_map(|s| positions.get(&s.id).map(|at| (s.id.clone(), *at)))
                .collect();
            if !states.is_empty() {
                clipboard.set_value(Clipboard {
                    states,
                    layout,
                    pastes: 0,
                });
            }
        });
    };
    let paste = move || {
        let mut c = clipboard.get_value();
        if c.states.is_empty() {
            return;
        }
        c.pastes += 1;
        let offset = 48.0 * c.pastes as f64;
        editor.dispatch(Command::Paste {
            states: c.states.clone(),
            layout: c.layout.clone(),
            offset: Position {
                x: offset,
                y: offset,
            },
        });
        clipboard.set_value(c);
    };
    let nudge = move |dx: f64, dy: f64| {
        let ids = editor.selection.get_untracked().states;
        if ids.is_empty() {
            return false;
        }
        let moves = scene.with_untracked(|s| {
            s.cards
                .iter()
                .filter(|c| ids.contains(&c.id))
                .map(|c| {
                    (
                        c.id.clone(),
                        Position {
                            x: c.rect.x + dx,
                            y: c.rect.y + dy,
                        },
                    )
                })
                .collect()
        });
        editor.dispatch(Command::MoveStates { moves });
        true
    };

    let keys = window_event_listener(ev::keydown, move |e: ev::KeyboardEvent| {
        let ctrl = e.ctrl_key() || e.meta_key();
        let typing = in_text_field(&e);
        let key = e.key();
        let handled = match (ctrl, key.as_str()) {
            (true, "z" | "Z") if e.shift_key() => {
                editor.redo();
                true
            }
            (true, "z" | "Z") => {
                editor.undo();
                true
            }
            (true, "y" | "Y") => {
                editor.redo();
                true
            }
            (true, "=" | "+") => {
                let (w, h) = size.get_untracked();
                viewport.update(|v| *v = v.zoomed_at((w / 2.0, h / 2.0), ZOOM_STEP));
                true
            }
            (true, "-") => {
                let (w, h) = size.get_untracked();
                viewport.update(|v| *v = v.zoomed_at((w / 2.0, h / 2.0), 1.0 / ZOOM_STEP));
                true
            }
            (true, "0") => {
                set_fit.update(|n| *n += 1);
                true
            }
            (true, "f" | "F") => {
                finding.set(true);
                true
            }
            (true, "c" | "C") if !typing => {
                copy();
                true
            }
            (true, "v" | "V") if !typing => {
                paste();
                true
            }
            (true, "d" | "D") if !typing => {
                copy();
                paste();
                true
            }
            (true, "a" | "A") if !typing => {
                let all = editor.plan.with_untracked(|p| {
                    p.as_ref()
                        .map(|p| p.states.iter().map(|s| s.id.clone()).collect())
                        .unwrap_or_default()
                });
                editor.selection.set(Selection {
                    states: all,
                    transition: None,
                });
                true
            }
            (false, "Delete" | "Backspace") if !typing => {
                delete_selection();
                true
            }
            (false, "Escape") => {
                if help.get_untracked() || finding.get_untracked() {
                    help.set(false);
                    finding.set(false);
                } else if !typing {
                    editor.selection.set(Selection::default());
                }
                true
            }
            (false, "?") if !typing => {
                help.update(|h| *h = !*h);
                true
            }
            (false, "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown") if !typing => {
                let step = if e.shift_key() { GRID * 4.0 } else { GRID };
                let (dx, dy) = match key.as_str() {
                    "ArrowLeft" => (-step, 0.0),
                    "ArrowRight" => (step, 0.0),
                    "ArrowUp" => (0.0, -step),
                    _ => (0.0, step),
                };
                nudge(dx, dy)
            }
            _ => false,
        };
        if handled {
            e.prevent_default();
        }
    });
    on_cleanup(move || keys.remove());

    let title = move || {
        editor.plan.with(|p| {
            p.as_ref()
                .map(|p| p.title.clone())
                .unwrap_or_else(|| "No plan open".into())
        })
    };
    let counts = move || {
        editor.plan.with(|p| {
            p.as_ref().map_or(String::new(), |p| {
                format!(
                    "{} · {}",
                    plural(p.states.len(), "state"),
                    plural(p.transition_count(), "transition")
                )
            })
        })
    };
    let problem_counts = move || {
        report.with(|r| {
            let (e, w) = (r.count(Severity::Error), r.count(Severity::Warning));
            match (e, w) {
                (0, 0) => "No problems".to_string(),
                _ => format!("{} · {}", plural(e, "error"), plural(w, "warning")),
            }
        })
    };
    let zoom = move || format!("{:.0} %", viewport.get().zoom * 100.0);
    let save_label = move || editor.save.with(SaveState::label);
    let save_class = move || match editor.save.get() {
        SaveState::Saved => "save saved",
        SaveState::Failed(_) | SaveState::Conflict => "save failed",
        _ => "save saving",
    };
    view! {
        <div class="app">
            <header class="topbar">
                <div class="brand">
                    <img src="icon.png" alt="" width="22" height="22" />
                    "Plan Builder"
                </div>
                <div class="plan-title" data-testid="plan-title">{title}</div>
                <div class="toolbar">
                    <button data-testid="undo" title="Undo (Ctrl+Z)" disabled=move || !editor.can_undo.get() on:click=move |_| editor.undo()>"↶ Undo"</button>
                    <button data-testid="redo" title="Redo (Ctrl+Shift+Z)" disabled=move || !editor.can_redo.get() on:click=move |_| editor.redo()>"↷ Redo"</button>
                    <button data-testid="auto-layout" title="Arrange the whole plan left to right" on:click=move |_| { editor.dispatch(Command::AutoLayout { only_overlaps: false }); set_fit.update(|n| *n += 1); }>"Auto-layout"</button>
                    <button data-testid="tidy" title="Move only cards that overlap" on:click=move |_| { editor.dispatch(Command::AutoLayout { only_overlaps: true }); }>"Tidy"</button>
                    <button data-testid="find" title="Find (Ctrl+F)" on:click=move |_| finding.set(true)>"Find"</button>
                    <button data-testid="help" title="Keyboard shortcuts (?)" on:click=move |_| help.update(|h| *h = !*h)>"?"</button>
                </div>
                <span class="mode" data-testid="mode">"Editing draft"</span>
            </header>
            <Sidebar editor=editor plans=plans list_error=list_error
                on_open=Callback::new(move |id: String| open(id, true))
                on_add=Callback::new(move |(kind, at): (NewState, Option<(f64, f64)>)| add_state(kind, at)) />
            <main class="workspace">
                <Canvas editor=editor scene=scene marks=marks viewport=viewport size=size fit=fit />
                {move || load_error.get().map(|e| view! {
                    <div class="load-error" data-testid="load-error" data-code=code_name(e.code)>
                        <h3>"This plan cannot be opened"</h3>
                        <p>{e.message.clone()}</p>
                        <p class="hint">"Fix the file and it opens again by itself."</p>
                    </div>
                })}
                {move || editor.theirs.get().map(|theirs| match theirs {
                    Theirs::Plan(_) => view! {
                        <div class="conflict" data-testid="conflict">
                            <strong>"This plan changed on disk while you were editing."</strong>
                            <span>" Nothing has been overwritten."</span>
                            <button data-testid="conflict-theirs" on:click=move |_| editor.resolve_conflict(true)>"Use the file's version"</button>
                            <button data-testid="conflict-mine" on:click=move |_| editor.resolve_conflict(false)>"Keep mine"</button>
                        </div>
                    }.into_any(),
                    Theirs::Unreadable(e) => {
                        let why = e.clone();
                        view! {
                            <div class="conflict" data-testid="conflict" data-code=code_name(e.code)>
                                <strong>"The file on disk can no longer be read; your plan is still here."</strong>
                                <span class="conflict-why">{e.message.clone()}</span>
                                <button data-testid="conflict-theirs" on:click=move |_| {
                                    editor.resolve_conflict(true);
                                    load_error.set(Some(why.clone()));
                                }>"Close it"</button>
                                <button data-testid="conflict-mine" on:click=move |_| editor.resolve_conflict(false)>"Write mine over it"</button>
                            </div>
                        }.into_any()
                    }
                })}
                {move || editor.notice.get().map(|n| view! {
                    <div class="notice" data-testid="notice">
                        <span>{n}</span>
                        <button title="Dismiss" on:click=move |_| editor.notice.set(None)>"✕"</button>
                    </div>
                })}
                {move || finding.get().then(|| view! { <Find editor=editor open=finding on_pick=Callback::new(move |id: String| { centre_on(&id); editor.selection.set(Selection::state(&id)); }) /> })}
                {move || help.get().then(|| view! { <Help close=Callback::new(move |()| help.set(false)) /> })}
            </main>
            <Panel editor=editor report=report tab=tab on_problem=on_problem />
            <footer class="statusbar">
                <button class="problem-count" data-testid="problem-count" on:click=move |_| tab.set(Tab::Problems)>{problem_counts}</button>
                <span class=save_class data-testid="save-status">{save_label}</span>
                <span data-testid="counts">{counts}</span>
                <span class="source" title=move || source.get()>{move || source.get()}</span>
                <span class="zoom" data-testid="zoom">{zoom}</span>
            </footer>
        </div>
    }
}

fn in_text_field(e: &ev::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// The page's session storage: it outlives a reload of the page, not the app.
fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

const OPEN_PLAN_KEY: &str = "plan-builder.open-plan";

fn remember_plan(id: &str) {
    if let Some(s) = session_storage() {
        let _ = s.set_item(OPEN_PLAN_KEY, id);
    }
}

fn remembered_plan() -> Option<String> {
    session_storage()?.get_item(OPEN_PLAN_KEY).ok()?
}

pub(crate) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn code_name(code: ErrorCode) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}
