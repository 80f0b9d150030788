//! The two buttons in the canvas's top corners that fold the side columns away and back (the
//! plans and palette on the left, the inspector panel on the right), as Ctrl+B and Ctrl+Shift+B
//! do: a small window, or a large plan, gets the whole width for the canvas.

use leptos::ev;
use leptos::prelude::*;

use crate::actions::Actions;

/// The fold buttons, placed over the canvas's top corners.
#[component]
pub fn FoldToggles() -> impl IntoView {
    let actions = expect_context::<Actions>();
    view! {
        {toggle(
            actions.side_open,
            "fold-toggle side",
            "fold-side",
            ("«", "»"),
            ("Hide the plans and the palette (Ctrl+B)", "Show the plans and the palette (Ctrl+B)"),
        )}
        {toggle(
            actions.panel_open,
            "fold-toggle panel-side",
            "fold-panel",
            ("»", "«"),
            ("Hide the inspector panel (Ctrl+Shift+B)", "Show the inspector panel (Ctrl+Shift+B)"),
        )}
    }
}

/// One fold button: `marks` and `titles` as (open, folded).
fn toggle(
    open: RwSignal<bool>,
    class: &'static str,
    testid: &'static str,
    marks: (&'static str, &'static str),
    titles: (&'static str, &'static str),
) -> impl IntoView {
    view! {
        <button
            class=class
            data-testid=testid
            aria-expanded=move || open.get().to_string()
            title=move || if open.get() { titles.0 } else { titles.1 }
            // Not a press on the canvas below (no pan, no deselect).
            on:pointerdown=|e: ev::PointerEvent| e.stop_propagation()
            on:dblclick=|e: ev::MouseEvent| e.stop_propagation()
            on:click=move |_| open.update(|o| *o = !*o)
        >
            {move || if open.get() { marks.0 } else { marks.1 }}
        </button>
    }
}
