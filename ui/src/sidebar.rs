//! The left column: the workspace's plans (the open one marked, an unreadable one saying why) and
//! the palette that adds a state, by a click (in the middle of the view) or a drag onto the canvas.

use leptos::ev;
use leptos::prelude::*;
use plan_core::edit::NewState;
use plan_core::ipc::{ErrorCode, IpcError, PlanSummary};
use wasm_bindgen::JsCast;

use crate::app::plural;
use crate::editor::Editor;

/// `on_open` opens a plan by id; `on_add` adds a state of a kind, at a canvas point or (`None`) in
/// the middle of the view.
#[component]
pub fn Sidebar(
    editor: Editor,
    plans: RwSignal<Vec<PlanSummary>>,
    list_error: RwSignal<Option<IpcError>>,
    on_open: Callback<String>,
    on_add: Callback<(NewState, Option<(f64, f64)>)>,
) -> impl IntoView {
    let add_state = move |kind: NewState, at: Option<(f64, f64)>| on_add.run((kind, at));
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
                                        on:click=move |_| on_open.run(id_for_click.clone())
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
    }
}

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

/// A press on a palette item that may become a drag onto the canvas.
#[derive(Clone, Copy)]
struct PaletteDrag {
    kind: NewState,
    start: (i32, i32),
    moved: bool,
}

/// Where a screen point falls on the canvas (canvas pixels), if it does.
fn canvas_point(x: i32, y: i32) -> Option<(f64, f64)> {
    let doc = web_sys::window()?.document()?;
    let canvas = doc.query_selector("[data-testid=canvas]").ok()??;
    let r = canvas.get_bounding_client_rect();
    let (x, y) = (x as f64, y as f64);
    (x >= r.left() && x <= r.right() && y >= r.top() && y <= r.bottom())
        .then(|| (x - r.left(), y - r.top()))
}

fn problem_summary(e: &IpcError) -> String {
    match e.code {
        ErrorCode::InvalidJson => "Not valid JSON".into(),
        ErrorCode::Schema => "Not a valid plan".into(),
        ErrorCode::TooLarge => "File too large".into(),
        _ => "Cannot be read".into(),
    }
}
