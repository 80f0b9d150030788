//! The window: top bar, plan list and palette, the canvas, the inspector panel and the status
//! bar, and the keyboard shortcuts that reach across them.
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
use plan_core::{validate, Diagnostic, Severity};
use wasm_bindgen::JsCast;

use crate::canvas::geometry::{Viewport, CARD_H, CARD_W};
use crate::canvas::gesture::ZOOM_STEP;
use crate::canvas::scene::{Marks, Scene};
use crate::canvas::view::{snap, Canvas, GRID};
use crate::editor::{Change, Editor, SaveState, Selection, Theirs};
use crate::find::Find;
use crate::inspector::{Panel, Tab};
use crate::ipc;

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
        mark_opened();
        if refit {
            set_fit.update(|n| *n += 1);
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
        focus_field(field_of(&d.location.path));
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
    // A palette item is clicked (a state in the middle of the view) or dragged onto the canvas
    // (a state where it is dropped).
    // Only a press that moved (with the button held) and ends over the canvas is a drop: a plain
    // click is the button's own, and a press whose release never arrived must not turn a later
    // click on the canvas into a stray state.
    let palette_drag = StoredValue::new(None::<PaletteDrag>);
    let press = window_event_listener(ev::pointerdown, move |e: ev::PointerEvent| {
        let on_palette = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest(".palette-item").ok().flatten())
            .is_some();
        if !on_palette {
            palette_drag.set_value(None);
        }
    });
    let track = window_event_listener(ev::pointermove, move |e: ev::PointerEvent| {
        palette_drag.update_value(|d| {
            if let Some(d) = d {
                let far = (e.client_x() - d.start.0).abs() + (e.client_y() - d.start.1).abs() > 4;
                d.moved |= e.buttons() & 1 == 1 && far;
            }
        });
    });
    let drop = window_event_listener(ev::pointerup, move |e: ev::PointerEvent| {
        let Some(drag) = palette_drag.get_value() else {
            return;
        };
        palette_drag.set_value(None);
        if drag.moved {
            if let Some(at) = canvas_point(e.client_x(), e.client_y()) {
                add_state(drag.kind, Some(at));
            }
        }
    });
    on_cleanup(move || {
        press.remove();
        track.remove();
        drop.remove();
    });
    let palette_item = move |kind: NewState,
                             testid: &'static str,
                             label: &'static str,
                             hint: &'static str| {
        view! {
            <button class=format!("palette-item {testid}") data-testid=testid title=hint
                on:pointerdown=move |e: ev::PointerEvent| palette_drag.set_value(Some(PaletteDrag {
                    kind,
                    start: (e.client_x(), e.client_y()),
                    moved: false,
                }))
                on:click=move |_| {
                    palette_drag.set_value(None);
                    add_state(kind, None);
                }>{label}</button>
        }
    };

    let listed = move || -> Vec<PlanSummary> {
        plans
            .get()
            .into_iter()
            .map(|p| as_edited(editor, p))
            .collect()
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
            <aside class="sidebar">
                <h2>"Plans"</h2>
                {move || list_error.get().map(|e| view! { <p class="error" data-testid="list-error">{e.message}</p> })}
                <ul class="plan-list">
                    <For
                        each=listed
                        key=|p| format!("{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{:?}", p.id, p.title, p.states, p.transitions, p.error)
                        children=move |p: PlanSummary| {
                            let id = p.id.clone();
                            let id_for_click = p.id.clone();
                            let active = move || editor.id.get().as_deref() == Some(id.as_str());
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
                <h2>"Add a state"</h2>
                <div class="palette">
                    {palette_item(NewState::Strict, "palette-strict", "Strict", "One task at a time, in order")}
                    {palette_item(NewState::Loose, "palette-loose", "Loose", "Tasks in any order")}
                    {palette_item(NewState::Goal, "palette-goal", "Goal", "An objective instead of tasks")}
                    {palette_item(NewState::EndComplete, "palette-ending", "End", "Ends the conversation")}
                    {palette_item(NewState::EndHangUp, "palette-hang-up", "Hang up", "Ends the call")}
                    {palette_item(NewState::EndHandOff, "palette-hand-off", "Hand off", "Passes the conversation to a person")}
                </div>
                <p class="hint sidebar-hint">"Or double-click the canvas. Drag from a card's right edge to connect."</p>
            </aside>
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

/// Plans this large are validated a moment after the last change instead of on every keystroke,
/// so typing never waits for the validator.
const VALIDATE_AT_ONCE_BELOW: usize = 400;
const VALIDATE_AFTER: std::time::Duration = std::time::Duration::from_millis(150);
const VALIDATE_AFTER_AT_MOST: std::time::Duration = std::time::Duration::from_millis(700);

/// The validator's report on the open plan, kept up to date.
fn validation(editor: Editor) -> Memo<plan_core::Report> {
    let report = RwSignal::new(plan_core::Report::default());
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let size = editor
            .plan
            .with(|p| p.as_ref().map_or(0, |p| p.states.len()));
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        let run = move || {
            if generation.get_value() == mine {
                report.set(
                    editor
                        .plan
                        .with_untracked(|p| p.as_ref().map(validate).unwrap_or_default()),
                );
            }
        };
        if size < VALIDATE_AT_ONCE_BELOW {
            run();
        } else {
            // The larger the plan, the longer validating it holds up the page: wait for a real
            // pause in typing (a keystroke every 150–250 ms would otherwise validate in between).
            let pause = VALIDATE_AFTER + std::time::Duration::from_millis(size as u64 / 10);
            set_timeout(run, pause.min(VALIDATE_AFTER_AT_MOST));
        }
    });
    Memo::new(move |_| report.get())
}

#[component]
fn Help(close: Callback<()>) -> impl IntoView {
    let rows = [
        ("Double-click the canvas", "Add a state"),
        (
            "Drag a card's right edge to a card",
            "Connect (onto itself: a loop)",
        ),
        (
            "Drag an arrow's end (when selected)",
            "Send it to another state",
        ),
        (
            "Click · Shift+click · Shift+drag",
            "Select · add to selection · select in a box",
        ),
        (
            "Drag cards · arrow keys (Shift: ×4)",
            "Move (snaps to the grid)",
        ),
        ("Delete", "Delete the selection"),
        ("Ctrl+C · Ctrl+V · Ctrl+D", "Copy · paste · duplicate"),
        ("Ctrl+A", "Select every state"),
        ("Ctrl+Z · Ctrl+Shift+Z or Ctrl+Y", "Undo · redo"),
        ("Ctrl+F", "Find a state"),
        ("Drag the background · scroll", "Pan"),
        ("Ctrl+scroll · Ctrl+= · Ctrl+-", "Zoom"),
        ("Ctrl+0", "Fit the whole plan"),
        ("?", "This help"),
        ("Escape", "Close · clear the selection"),
    ];
    view! {
        <div class="overlay" data-testid="help-overlay" on:click=move |_| close.run(())>
            <div class="help" on:click=|e: ev::MouseEvent| e.stop_propagation()>
                <h3>"Keyboard and mouse"</h3>
                <table>
                    {rows.into_iter().map(|(k, what)| view! { <tr><td class="keys">{k}</td><td>{what}</td></tr> }).collect_view()}
                </table>
                <button on:click=move |_| close.run(())>"Close"</button>
            </div>
        </div>
    }
}

/// A named moment on the page's performance timeline, for the open-time benchmark's breakdown.
/// Only until the first plan is drawn: the browser keeps every mark, and scenes are rebuilt on
/// every edit.
pub(crate) fn mark(name: &str) {
    if OPENED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

static OPENED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A plan list entry; for the open plan, with the title and counts of the editor's plan, which
/// are newer than the list's (the app's own saves do not refresh the list).
fn as_edited(editor: Editor, mut p: PlanSummary) -> PlanSummary {
    if p.error.is_none() && editor.id.with(|id| id.as_deref() == Some(p.id.as_str())) {
        editor.plan.with(|plan| {
            if let Some(plan) = plan {
                p.title = plan.title.clone();
                p.states = plan.states.len();
                p.transitions = plan.transition_count();
            }
        });
    }
    p
}

/// Records on the canvas (`data-opened-ms`) when a newly opened plan was first drawn: the
/// page's clock at the second frame after the plan arrived, when its cards are on screen. The
/// open-time benchmark reads it.
fn mark_opened() {
    request_animation_frame(|| {
        request_animation_frame(|| {
            let Some(w) = web_sys::window() else { return };
            let now = w.performance().map_or(0.0, |p| p.now());
            if let Some(canvas) = w
                .document()
                .and_then(|d| d.query_selector("[data-testid=canvas]").ok().flatten())
            {
                let _ = canvas.set_attribute("data-opened-ms", &format!("{now:.0}"));
                OPENED.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        })
    });
}

/// The inspector field a diagnostic's path points at.
fn field_of(path: &str) -> &'static str {
    let last = path.rsplit('/').next().unwrap_or_default();
    if path.contains("/condition_config") || path.ends_with("condition_type") {
        return "condition-type";
    }
    match last {
        "target_state_id" => "target",
        "priority" => "priority",
        "title" => "title",
        "id" if !path.contains("/tasks/") => "id",
        "objective" | "goal" => "objective",
        "instructions" => "instructions",
        "ending" => "ending",
        "enum_values" => "enum-values",
        "key" => "deliverable-key",
        _ => "title",
    }
}

/// Focuses the inspector field `name` once it is drawn.
fn focus_field(name: &'static str) {
    set_timeout(
        move || {
            let el = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| {
                    d.query_selector(&format!("[data-testid=field-{name}]"))
                        .ok()
                        .flatten()
                })
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(el) = el {
                let _ = el.focus();
            }
        },
        std::time::Duration::from_millis(30),
    );
}

fn in_text_field(e: &ev::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// Where a screen point falls on the canvas, if it does.
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

/// A press on a palette item that may become a drag onto the canvas.
#[derive(Clone, Copy)]
struct PaletteDrag {
    kind: NewState,
    start: (i32, i32),
    moved: bool,
}

fn canvas_point(x: i32, y: i32) -> Option<(f64, f64)> {
    let doc = web_sys::window()?.document()?;
    let canvas = doc.query_selector("[data-testid=canvas]").ok()??;
    let r = canvas.get_bounding_client_rect();
    let (x, y) = (x as f64, y as f64);
    (x >= r.left() && x <= r.right() && y >= r.top() && y <= r.bottom())
        .then(|| (x - r.left(), y - r.top()))
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
