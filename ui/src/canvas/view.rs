//! The canvas's thin views: DOM cards and SVG arrows drawn from a [`Scene`], and the event wiring
//! that feeds pointer and wheel input to the gesture machine. No decisions are made here.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::geometry::{Rect, Viewport};
use super::gesture::{self, Gesture, Input, ZOOM_STEP};
use super::scene::{Arrow, Card, Scene};

/// Below this zoom the canvas switches to its overview drawing: titles only, no labels.
const OVERVIEW_ZOOM: f64 = 0.45;
/// Screen margin kept around a fitted plan.
const FIT_PADDING: f64 = 48.0;
/// Extra world margin drawn around the visible area, so a quick pan shows no pop-in.
const OVERDRAW: f64 = 120.0;

/// The canvas of one plan. `fit` asks for a fit-to-view whenever it changes (a new plan opened).
#[component]
pub fn Canvas(
    scene: Memo<Scene>,
    viewport: RwSignal<Viewport>,
    fit: ReadSignal<u64>,
) -> impl IntoView {
    let root = NodeRef::<html::Div>::new();
    let size = RwSignal::new((1024.0, 640.0));
    let gesture_state = StoredValue::new(Gesture::Idle);

    let measure = move || {
        if let Some(el) = root.get_untracked() {
            let r = el.get_bounding_client_rect();
            if r.width() > 0.0 && r.height() > 0.0 {
                size.set((r.width(), r.height()));
            }
        }
    };
    let fit_view = move || {
        measure();
        if let Some(bounds) = scene.with_untracked(|s| s.bounds) {
            viewport.set(Viewport::fitting(bounds, size.get_untracked(), FIT_PADDING));
        }
    };
    let resize = window_event_listener(ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
    Effect::new(move |_| {
        fit.track();
        fit_view();
    });

    let feed = move |input: Input| {
        let (g, v) = gesture::step(gesture_state.get_value(), viewport.get_untracked(), input);
        gesture_state.set_value(g);
        if v != viewport.get_untracked() {
            viewport.set(v);
        }
    };
    let local = move |x: i32, y: i32| -> (f64, f64) {
        root.get_untracked()
            .map(|el| {
                let r = el.get_bounding_client_rect();
                (x as f64 - r.left(), y as f64 - r.top())
            })
            .unwrap_or((x as f64, y as f64))
    };
    let on_down = move |e: ev::PointerEvent| {
        let on_card = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("[data-testid=state]").ok().flatten())
            .is_some();
        if !on_card {
            if let Some(el) = root.get_untracked() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
        }
        feed(Input::Down {
            at: local(e.client_x(), e.client_y()),
            button: e.button(),
            background: !on_card,
        });
    };
    let on_move = move |e: ev::PointerEvent| {
        if gesture_state.get_value() != Gesture::Idle {
            feed(Input::Move {
                at: local(e.client_x(), e.client_y()),
            });
        }
    };
    let on_up = move |_: ev::PointerEvent| feed(Input::Up);
    let on_wheel = move |e: ev::WheelEvent| {
        e.prevent_default();
        // Lines and pages (older mice) are scaled to pixels.
        let scale = match e.delta_mode() {
            1 => 16.0,
            2 => 400.0,
            _ => 1.0,
        };
        feed(Input::Wheel {
            at: local(e.client_x(), e.client_y()),
            dx: e.delta_x() * scale,
            dy: e.delta_y() * scale,
            ctrl: e.ctrl_key() || e.meta_key(),
        });
    };
    let zoom_by = move |factor: f64| {
        let (w, h) = size.get_untracked();
        viewport.update(|v| *v = v.zoomed_at((w / 2.0, h / 2.0), factor));
    };

    // Only what is on screen is drawn; the rest costs nothing.
    let window = Memo::new(move |_| {
        viewport
            .get()
            .visible(size.get())
            .inflate(OVERDRAW / viewport.get().zoom.max(0.2))
    });
    let visible_cards = move || -> Vec<Card> {
        let w: Rect = window.get();
        scene.with(|s| {
            s.cards
                .iter()
                .filter(|c| c.rect.intersects(&w))
                .cloned()
                .collect()
        })
    };
    let visible_arrows = move || -> Vec<Arrow> {
        let w: Rect = window.get();
        scene.with(|s| {
            s.arrows
                .iter()
                .filter(|a| a.reach.intersects(&w))
                .cloned()
                .collect()
        })
    };
    let transform = move || {
        let v = viewport.get();
        format!("translate({}px, {}px) scale({})", v.x, v.y, v.zoom)
    };
    let svg_transform = move || {
        let v = viewport.get();
        format!("translate({} {}) scale({})", v.x, v.y, v.zoom)
    };
    // The dot grid moves and scales with the canvas, so panning feels like moving paper.
    let grid = move || {
        let v = viewport.get();
        let step = 24.0 * v.zoom;
        format!(
            "background-size: {step}px {step}px; background-position: {}px {}px",
            v.x.rem_euclid(step),
            v.y.rem_euclid(step)
        )
    };

    view! {
        <div
            class="canvas"
            class:overview=move || viewport.get().zoom < OVERVIEW_ZOOM
            data-testid="canvas"
            node_ref=root
            style=grid
            on:pointerdown=on_down
            on:pointermove=on_move
            on:pointerup=on_up
            on:pointercancel=on_up
            on:wheel=on_wheel
        >
            <svg class="arrows" aria-hidden="true">
                <defs>
                    <marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                        <path d="M0,1 L10,5 L0,9 z" class="arrowhead"></path>
                    </marker>
                    <marker id="arrowhead-broken" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
                        <path d="M0,1 L10,5 L0,9 z" class="arrowhead broken"></path>
                    </marker>
                </defs>
                <g transform=svg_transform>
                    <For each=visible_arrows key=|a| a.key.clone() children=arrow_view />
                </g>
            </svg>
            <div class="cards" style:transform=transform>
                <For each=visible_cards key=|c| c.key.clone() children=card_view />
            </div>
            <div class="zoom-controls" on:pointerdown=|e: ev::PointerEvent| e.stop_propagation()>
                <button title="Zoom out (Ctrl+-)" data-testid="zoom-out" on:click=move |_| zoom_by(1.0 / ZOOM_STEP)>"−"</button>
                <button title="Zoom in (Ctrl+=)" data-testid="zoom-in" on:click=move |_| zoom_by(ZOOM_STEP)>"+"</button>
                <button title="Fit the whole plan (Ctrl+0)" data-testid="fit-view" on:click=move |_| fit_view()>"Fit"</button>
            </div>
        </div>
    }
}

fn card_view(card: Card) -> impl IntoView {
    let mode = card.mode.label();
    let mode_class = format!("card mode-{}", mode.to_lowercase());
    let keys = match card.keys.len() {
        0 => String::new(),
        1..=3 => card.keys.join(", "),
        n => format!("{} +{}", card.keys[..2].join(", "), n - 2),
    };
    let meta = if keys.is_empty() {
        card.work.clone()
    } else {
        format!("{} · {keys}", card.work)
    };
    view! {
        <div
            class=mode_class
            class:start=card.is_start
            class:ending=card.ending.is_some()
            data-testid="state"
            data-state-id=card.id.clone()
            title=format!("{} ({})", card.title, card.id)
            style:left=format!("{}px", card.rect.x)
            style:top=format!("{}px", card.rect.y)
        >
            <div class="card-head">
                <span class="mode-badge">{mode}</span>
                {card.is_start.then(|| view! { <span class="start-flag" data-testid="start-marker">"▶ Start"</span> })}
                {card.ending.clone().map(|e| {
                    let tip = e.clone();
                    view! { <span class="card-ending" data-testid="ending-marker" title=tip>"■ " {e}</span> }
                })}
            </div>
            <div class="card-title">{card.title.clone()}</div>
            <div class="card-meta">{meta}</div>
        </div>
    }
}

fn arrow_view(arrow: Arrow) -> impl IntoView {
    let (x, y) = arrow.path.label_at;
    let marker = if arrow.dangling {
        "url(#arrowhead-broken)"
    } else {
        "url(#arrowhead)"
    };
    view! {
        <g
            class="transition"
            class:broken=arrow.dangling
            data-testid="transition"
            data-from=arrow.from.clone()
            data-index=arrow.index.to_string()
            data-to=arrow.to.clone()
        >
            <title>{arrow.title.clone()}</title>
            <path class="edge-hit" d=arrow.path.d.clone()></path>
            <path class="edge" d=arrow.path.d.clone() marker-end=marker></path>
            <text class="edge-label" x=format!("{x:.1}") y=format!("{y:.1}")>
                {arrow.priority.clone().map(|p| view! { <tspan class="priority">{format!("P{p}")}</tspan> })}
                <tspan class="condition" dx=if arrow.priority.is_some() { "6" } else { "0" }>{arrow.label.clone()}</tspan>
            </text>
        </g>
    }
}
