//! What the canvas draws over the plan: the arrow (or the lanes' edge) being drawn or having its
//! end dragged, the selection box, the zoom buttons, and the arrowheads the arrows end in.

use leptos::ev;
use leptos::prelude::*;

use super::camera::Camera;
use super::gesture::{Gesture, ZOOM_STEP};
use super::scene::Scene;

/// The line from the card an arrow is drawn out of to the pointer.
#[component]
pub fn RubberLine(gesture: RwSignal<Gesture>, scene: Memo<Scene>) -> impl IntoView {
    let viewport = expect_context::<Camera>().viewport;
    let line = move || {
        let v = viewport.get();
        // From a card's right side, or from a session state's chip's foot (an edge of the lanes).
        let (from, chip, at) = gesture.with(|g| match g {
            Gesture::Connecting { from, at, .. } | Gesture::Retargeting { from, at, .. } => {
                Some((from.clone(), false, *at))
            }
            Gesture::Limiting { from, at, .. } => Some((from.clone(), true, *at)),
            Gesture::MovingLimit { limit, at } => Some((limit.session_state.clone(), true, *at)),
            _ => None,
        })?;
        let start = scene.with_untracked(|s| {
            if chip {
                let c = s.lanes.chip(&from)?;
                Some((c.rect.center().0, c.rect.bottom()))
            } else {
                let c = s.cards.iter().find(|c| c.id == from)?;
                Some((c.rect.right(), c.rect.y + c.rect.h / 2.0))
            }
        })?;
        let (sx, sy) = v.to_screen(start);
        Some(
            view! { <line class="rubber" x1=sx y1=sy x2=at.0 y2=at.1 marker-end="url(#arrowhead)"></line> },
        )
    };
    view! {
        <svg class="rubber-layer" aria-hidden="true">
            {line}
        </svg>
    }
}

/// The box a drag on the empty canvas selects cards with.
#[component]
pub fn RubberBox(gesture: RwSignal<Gesture>) -> impl IntoView {
    move || {
        gesture
            .with(|g| match g {
                Gesture::Boxing { from, at } => Some(format!(
                    "left: {}px; top: {}px; width: {}px; height: {}px",
                    from.0.min(at.0),
                    from.1.min(at.1),
                    (from.0 - at.0).abs(),
                    (from.1 - at.1).abs()
                )),
                _ => None,
            })
            .map(|style| view! { <div class="select-box" style=style></div> })
    }
}

/// Zoom out, zoom in (about the canvas's middle) and fit the whole plan.
#[component]
pub fn ZoomControls(fit: impl Fn() + Copy + Send + Sync + 'static) -> impl IntoView {
    let Camera { viewport, size, .. } = expect_context::<Camera>();
    let zoom_by = move |factor: f64| {
        let (w, h) = size.get_untracked();
        viewport.update(|v| *v = v.zoomed_at((w / 2.0, h / 2.0), factor));
    };
    view! {
        <div
            class="zoom-controls"
            on:pointerdown=|e: ev::PointerEvent| e.stop_propagation()
            on:dblclick=|e: ev::MouseEvent| e.stop_propagation()
        >
            <button
                title="Zoom out (Ctrl+-)"
                data-testid="zoom-out"
                on:click=move |_| zoom_by(1.0 / ZOOM_STEP)
            >
                "−"
            </button>
            <button
                title="Zoom in (Ctrl+=)"
                data-testid="zoom-in"
                on:click=move |_| zoom_by(ZOOM_STEP)
            >
                "+"
            </button>
            <button
                title="Fit the whole plan (Ctrl+0)"
                data-testid="fit-view"
                on:click=move |_| fit()
            >
                "Fit"
            </button>
        </div>
    }
}

/// What the coverage colours mean, shown while the canvas is coloured by coverage: a colour never
/// stands alone (the never-entered cards are dashed too, and each card counts in words).
#[component]
pub fn CoverageLegend() -> impl IntoView {
    let exploring = expect_context::<crate::explore::Exploring>();
    let simulating = expect_context::<crate::simulate::Simulating>();
    let navigation = expect_context::<crate::navigation::Navigation>();
    // The Simulate tab's heat map uses the same colours, counting simulated conversations.
    let heat = move || {
        navigation.showing(crate::navigation::Tab::Simulate)
            && simulating.heat.get()
            && simulating.report.with(Option::is_some)
    };
    let on = move || {
        heat()
            || exploring.coverage.get()
                && exploring.shown.get().is_none()
                && exploring.found.with(Option::is_some)
    };
    move || {
        on().then(|| {
            view! {
                <div
                    class="coverage-legend"
                    data-testid="coverage-legend"
                    role="note"
                    aria-label="What the coverage colours mean"
                    on:pointerdown=|e: ev::PointerEvent| e.stop_propagation()
                >
                    <span class="coverage-legend-title">
                        {move || {
                            if heat() {
                                "How many simulated conversations entered a state (its badge: entered, ended, stalled):"
                            } else {
                                "How many ways a conversation can go enter a state:"
                            }
                        }}
                    </span>
                    {[
                        ("never", "none (dashed)"),
                        ("few", "few"),
                        ("some", "some"),
                        ("many", "many"),
                    ]
                        .into_iter()
                        .map(|(level, words)| {
                            view! {
                                <span class="swatch" data-reach=level>
                                    {words}
                                </span>
                            }
                        })
                        .collect_view()}
                </div>
            }
        })
    }
}

/// The arrowheads: plain, of a broken arrow, of the selected arrow.
pub fn arrowheads() -> impl IntoView {
    view! {
        <defs>
            {arrowhead("arrowhead", "arrowhead")}
            {arrowhead("arrowhead-broken", "arrowhead broken")}
            {arrowhead("arrowhead-selected", "arrowhead selected")}
        </defs>
    }
}

/// An arrow's head, drawn where a line with `marker-end: url(#id)` ends.
fn arrowhead(id: &'static str, class: &'static str) -> impl IntoView {
    view! {
        <marker
            id=id
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="8"
            markerHeight="8"
            orient="auto-start-reverse"
        >
            <path d="M0,1 L10,5 L0,9 z" class=class></path>
        </marker>
    }
}
