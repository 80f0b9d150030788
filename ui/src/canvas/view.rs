//! The canvas's thin view: DOM cards and SVG arrows drawn from a [`Scene`] as [`Drawn`] says,
//! with the pointer's events handed to [`Pointer`]. No decisions are made here.

use leptos::html;
use leptos::prelude::*;

use super::arrow_items::{arrow_view, label_view, Texts};
use super::camera::Camera;
use super::context_menu::ContextMenu;
use super::drawn::Drawn;
use super::gesture::Gesture;
use super::items::{card_view, detour_arrow_view, detour_view};
use super::label_places::label_places;
use super::lane_items::{chip_view, edge_end_view, edge_view, evaluation_view, header_view};
use super::marks::Marks;
use super::minimap::Minimap;
use super::overlays::{arrowheads, CoverageLegend, RubberBox, RubberLine, ZoomControls};
use super::overview::Overview;
use super::pointer::Pointer;
use super::scene::{Arrow, Card, Scene};
use super::sizing::watch_size;
use super::text_selection;
use crate::editor::Editor;

/// Below this zoom the dot grid is not drawn.
const GRID_MIN_ZOOM: f64 = 0.6;

/// The canvas of the open plan, looking where the [`Camera`] says (its `refit` asks for a fit).
#[component]
pub fn Canvas(scene: Memo<Scene>, marks: Memo<Marks>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let camera = expect_context::<Camera>();
    let Camera { viewport, size, .. } = camera;
    let root = NodeRef::<html::Div>::new();
    let gesture = RwSignal::new(Gesture::Idle);
    let fit = watch_size(root, scene, camera);
    let drawn = Drawn::new(scene, gesture, camera);
    let menu = expect_context::<crate::actions::Actions>().menu;
    let pointer = Pointer {
        root,
        gesture,
        viewport,
        scene,
        drawn,
        menu,
        editor,
        background_clicks: StoredValue::new([false, false]),
    };
    text_selection::refuse_during_gestures();
    super::card_focus::keep(editor, drawn.cards);

    let texts = Texts::new();
    let card = move |c: Card| card_view(c, editor, marks);
    let arrow = move |a: Arrow| arrow_view(a, editor, marks, texts);
    let (overview, text_scale, arrows) = (drawn.overview, drawn.text_scale, drawn.arrows);
    let places = label_places(
        arrows,
        drawn.cards,
        text_scale,
        drawn.titles_only,
        editor,
        texts,
    );
    let label = move |a: Arrow| label_view(a, editor, marks, texts, places);
    let shown = drawn.shown;
    let interruptions = move || shown.with(|s| s.interruptions.clone());
    // The lanes below the flow stay put while cards are dragged: read from the plan's scene.
    let lanes = Memo::new(move |_| scene.with(|s| s.lanes.clone()));
    let edges = move || lanes.with(|l| l.edges.clone());
    let chips = move || lanes.with(|l| l.chips.clone());
    let evaluations = move || lanes.with(|l| l.evaluations.clone());
    let headers = move || lanes.with(|l| l.headers.clone());
    view! {
        <div
            class="canvas"
            class:overview=drawn.titles_only
            class:small-print-hidden=move || text_scale.get().hides_small_print
            class:drawn=overview
            class:dragging=move || gesture.with(|g| g.moving(1.0).is_some())
            data-testid="canvas"
            node_ref=root
            style=move || grid(viewport.get())
            on:pointerdown=move |e| pointer.down(e)
            on:pointermove=move |e| pointer.moved(e)
            on:pointerup=move |e| pointer.up(e)
            on:pointercancel=move |e| pointer.up(e)
            on:contextmenu=move |e| pointer.context_menu(e)
            // Focusing a card from the keyboard (Tab) scrolls it into view; the canvas moves by
            // its camera only, so any scroll is undone at once.
            on:scroll=move |_| {
                if let Some(el) = root.get_untracked() {
                    el.set_scroll_top(0);
                    el.set_scroll_left(0);
                }
            }
            on:wheel=move |e| pointer.wheel(e)
            on:dblclick=move |e| pointer.double_click(e)
        >
            <svg class="arrows" aria-hidden="true">
                {arrowheads()}
                <g transform=move || {
                    let v = viewport.get();
                    format!("translate({} {}) scale({})", v.x, v.y, v.zoom)
                }>
                    <For each=move || arrows.get() key=|a| a.key children=arrow />
                    <For each=interruptions key=|d| d.key children=detour_arrow_view />
                    <For
                        each=edges
                        key=|e| e.key
                        children=move |e| edge_view(e, editor)
                    />
                </g>
            </svg>
            {move || {
                overview
                    .get()
                    .then(|| {
                        view! { <Overview shown=shown marks=marks viewport=viewport size=size /> }
                    })
            }}
            <div
                class="cards"
                style:transform=move || {
                    let v = viewport.get();
                    format!("translate({}px, {}px) scale({})", v.x, v.y, v.zoom)
                }
                style:--title-scale=move || text_scale.get().title.to_string()
                style:--label-scale=move || text_scale.get().label.to_string()
                style:--mark-scale=move || text_scale.get().mark.to_string()
            >
                <For each=move || arrows.get() key=|a| a.key children=label />
                <For each=move || drawn.cards.get() key=|c| c.key children=card />
                <For each=interruptions key=|d| d.key children=detour_view />
                <For each=headers key=|h| h.name children=header_view />
                <For each=chips key=|c| c.key children=chip_view />
                <For each=evaluations key=|e| e.key children=evaluation_view />
                <For
                    each=edges
                    key=|e| e.key
                    children=move |e| edge_end_view(e, editor)
                />
            </div>
            <RubberLine gesture=gesture scene=scene />
            <RubberBox gesture=gesture />
            <Minimap scene=scene viewport=viewport size=size />
            <ContextMenu menu=menu size=size />
            <ZoomControls fit=fit />
            <CoverageLegend />
        </div>
    }
}

/// The dot grid's style: it moves and scales with the canvas, so panning feels like moving paper.
/// Drawn only close up, where it helps placing cards: zoomed out its dots would be a dense pattern
/// that costs a full repaint every frame of a pan and shows nothing useful.
fn grid(v: super::geometry::Viewport) -> String {
    if v.zoom < GRID_MIN_ZOOM {
        return "background-image: none".to_string();
    }
    let step = 24.0 * v.zoom;
    format!(
        "background-size: {step}px {step}px; background-position: {}px {}px",
        v.x.rem_euclid(step),
        v.y.rem_euclid(step)
    )
}
