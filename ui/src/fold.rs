//! The two buttons in the canvas's top corners that fold the side columns away and back (the
//! plans and palette on the left, the inspector panel on the right), as Ctrl+B and Ctrl+Shift+B
//! do: a small window, or a large plan, gets the whole width for the canvas.

use leptos::ev;
use leptos::prelude::*;

use crate::actions::Actions;
use crate::keymap::Action;

/// The fold buttons, placed over the canvas's top corners.
#[component]
pub fn FoldToggles() -> impl IntoView {
    let actions = expect_context::<Actions>();
    view! {
        {toggle(
            move || actions.side_open(),
            Action::ToggleSide,
            "fold-toggle side",
            "fold-side",
            ("«", "»"),
            ("Hide the plans and the palette (Ctrl+B)", "Show the plans and the palette (Ctrl+B)"),
        )}
        {toggle(
            move || actions.panel_open(),
            Action::TogglePanel,
            "fold-toggle panel-side",
            "fold-panel",
            ("»", "«"),
            ("Hide the inspector panel (Ctrl+Shift+B)", "Show the inspector panel (Ctrl+Shift+B)"),
        )}
    }
}

/// One fold button: `marks` and `titles` as (open, folded).
fn toggle(
    open: impl Fn() -> bool + Copy + Send + Sync + 'static,
    action: Action,
    class: &'static str,
    testid: &'static str,
    marks: (&'static str, &'static str),
    titles: (&'static str, &'static str),
) -> impl IntoView {
    let actions = expect_context::<Actions>();
    view! {
        <button
            class=class
            data-testid=testid
            aria-expanded=move || open().to_string()
            title=move || if open() { titles.0 } else { titles.1 }
            // Not a press on the canvas below (no pan, no deselect).
            on:pointerdown=|e: ev::PointerEvent| e.stop_propagation()
            on:dblclick=|e: ev::MouseEvent| e.stop_propagation()
            on:click=move |_| actions.perform(action)
        >
            {move || if open() { marks.0 } else { marks.1 }}
        </button>
    }
}
