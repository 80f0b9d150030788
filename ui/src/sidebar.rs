//! The left column: the plan switcher ([`crate::switcher`]) and the palette that adds a state, by a
//! click (in the middle of the view) or a drag onto the canvas.

use leptos::ev;
use leptos::prelude::*;
use plan_core::edit::NewState;
use wasm_bindgen::JsCast;

use crate::actions::Actions;
use crate::editor::Editor;
use crate::switcher::Switcher;

#[component]
pub fn Sidebar() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let editor = expect_context::<Editor>();
    let add_state = move |kind: NewState, at: Option<(f64, f64)>| actions.add_state(kind, at, None);
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
    let palette_item =
        move |kind: NewState, testid: &'static str, label: &'static str, hint: &'static str| {
            view! {
                <button
                    class=format!("palette-item {testid}")
                    data-testid=testid
                    title=hint
                    disabled=move || !editor.can_change()
                    on:pointerdown=move |e: ev::PointerEvent| {
                        palette_drag
                            .set_value(
                                Some(PaletteDrag {
                                    kind,
                                    start: (e.client_x(), e.client_y()),
                                    moved: false,
                                }),
                            )
                    }
                    on:click=move |_| {
                        palette_drag.set_value(None);
                        add_state(kind, None);
                    }
                >
                    {label}
                </button>
            }
        };

    view! {
        <aside
            class="sidebar"
            class:folded=move || !actions.side_open()
            data-region="plans"
            aria-label="Plans and the palette"
        >
            <Switcher />
            <h2>"Add a state"</h2>
            <div class="palette">
                {palette_item(
                    NewState::Strict,
                    "palette-strict",
                    "Strict",
                    "One task at a time, in order",
                )} {palette_item(NewState::Loose, "palette-loose", "Loose", "Tasks in any order")}
                {palette_item(
                    NewState::Goal,
                    "palette-goal",
                    "Goal",
                    "An objective instead of tasks",
                )}
                {palette_item(
                    NewState::EndComplete,
                    "palette-ending",
                    "End",
                    "Ends the conversation",
                )}
                {palette_item(NewState::EndHangUp, "palette-hang-up", "Hang up", "Ends the call")}
                {palette_item(
                    NewState::EndHandOff,
                    "palette-hand-off",
                    "Hand off",
                    "Passes the conversation to a person",
                )}
            </div>
            <p class="hint sidebar-hint" data-testid="palette-hint">
                {move || palette_hint(editor.plan_open.get(), editor.can_change())}
            </p>
        </aside>
    }
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

/// What the palette's hint says: how to add and connect, or why nothing can be added now.
pub fn palette_hint(plan_open: bool, editable: bool) -> &'static str {
    match (plan_open, editable) {
        (false, _) => "No plan is open: pick one above, or make one with + New, to add states.",
        (true, false) => "A version cannot be changed: go back to the draft to add states.",
        (true, true) => "Or double-click the canvas. Drag from a card's right edge to connect.",
    }
}

#[cfg(test)]
mod tests {
    use super::palette_hint;

    #[test]
    fn the_palette_says_why_it_adds_nothing_without_a_draft() {
        assert!(palette_hint(false, false).starts_with("No plan is open"));
        assert!(palette_hint(true, false).contains("go back to the draft"));
        assert!(palette_hint(true, true).starts_with("Or double-click"));
    }
}
