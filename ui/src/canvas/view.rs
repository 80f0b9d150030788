//! The canvas's thin views: DOM cards and SVG arrows drawn from a [`Scene`], and the event wiring
//! that feeds pointer and wheel input to the gesture machine and carries its effects to the
//! editor. No decisions are made here.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use plan_core::edit::NewState;
use wasm_bindgen::JsCast;

use super::camera::{self, fitted, Camera};
use super::context_menu::{ContextMenu, Menu, Place};
use super::effects::{self, Outcome};
use super::geometry::Rect;
use super::gesture::{self, Gesture, Input, Target, ZOOM_STEP};
use super::items::{arrow_view, card_view, detour_arrow_view, detour_view, label_view, Texts};
use super::label_places::label_places;
use super::legible::{self, TextScale};
use super::marks::Marks;
use super::minimap::Minimap;
use super::mount::{self, Wanted};
use super::overview::{card_at, Overview, DOM_CARD_LIMIT};
use super::scene::{Arrow, Card, Scene};
pub use super::shown::Shown;
use super::text_selection;
use super::under_pointer::target_of;
use crate::actions::Actions;
use crate::editor::{Editor, Selection};

/// While a zoom is under way with more than this many cards in view, the overview drawing stands
/// in for the cards (each zoom step repaints every card's text at a new scale: 60–140 ms a frame
/// with 44–80 cards at 1,000 states), and the cards come back when the zoom rests.
const ZOOMING_CARD_LIMIT: usize = 24;
/// How long after the last zoom step a zoom counts as resting.
const ZOOM_REST_MS: u64 = 200;
/// Extra world margin drawn around the visible area, so a quick pan shows no pop-in.
const OVERDRAW: f64 = 120.0;
/// Below this zoom the dot grid is not drawn.
const GRID_MIN_ZOOM: f64 = 0.6;
/// The canvas of the open plan, looking where `camera` says (its `refit` asks for a fit).
#[component]
pub fn Canvas(scene: Memo<Scene>, marks: Memo<Marks>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let camera = expect_context::<Camera>();
    let Camera {
        viewport,
        size,
        refit: fit,
    } = camera;
    let root = NodeRef::<html::Div>::new();
    let gesture_state = RwSignal::new(Gesture::Idle);

    let measure = move || {
        if let Some(el) = root.get_untracked() {
            let r = el.get_bounding_client_rect();
            let after = (r.width(), r.height());
            let before = size.get_untracked();
            if after.0 > 0.0 && after.1 > 0.0 && after != before {
                let resized = scene.with_untracked(|s| {
                    camera::resized(viewport.get_untracked(), s, before, after)
                });
                viewport.set(resized);
                size.set(after);
            }
        }
    };
    let fit_view = move || {
        // The first measure is the page's first layout (the open-time breakdown).
        crate::timeline::mark("measure-start");
        measure();
        crate::timeline::mark("measured");
        if let Some(fit) = scene.with_untracked(|s| fitted(s, size.get_untracked())) {
            viewport.set(fit);
        }
    };
    let resize = window_event_listener(ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
    // The canvas also changes size with the window unchanged: the Chat tab widens the panel
    // beside it, and a camera that kept the old width would take a card half hidden behind the
    // panel for one in view. The canvas lives as long as the page, so its observer does too.
    Effect::new(move |_| {
        let Some(el) = root.get() else {
            return;
        };
        let on_resize = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(measure);
        if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            observer.observe(&el);
        }
        on_resize.forget();
    });
    Effect::new(move |_| {
        fit.track();
        fit_view();
    });

    // While cards are dragged they are drawn where the pointer has them, arrows included: the
    // scene with them moved, `None` the rest of the time (so panning never copies the scene).
    // Compared as always changed while dragging: a full comparison would cost as much as the copy.
    let dragged: Memo<Option<Scene>> = Memo::new_with_compare(
        move |_| {
            let zoom = viewport.with_untracked(|v| v.zoom);
            gesture_state.with(|g| {
                g.moving(zoom).map(|(ids, dx, dy)| {
                    crate::timeline::timed("canvas: dragged scene", || {
                        scene.with(|s| s.moved(ids, dx, dy))
                    })
                })
            })
        },
        |old, new| !matches!((old, new), (Some(None), Some(None))),
    );
    let shown = Shown { scene, dragged };

    // Only what is on screen has elements; the rest costs nothing. The part of the plan on
    // screen with `margin` screen pixels around it, kept so that a pan shows no empty space.
    let around = move |margin: f64| {
        let view = viewport.get();
        view.visible(size.get())
            .inflate(margin / view.zoom.max(0.2))
    };
    let window = Memo::new(move |_| around(OVERDRAW));
    // What has elements: the window, but for the first frame of the window's first plan, which
    // makes only what it shows (the margin is about half the elements at opening, all made
    // before that frame could be drawn); the margin follows on the next frame.
    let margin = RwSignal::new(0.0);
    let drawn = Memo::new(move |_| around(margin.get()));
    Effect::new(move |_| {
        if margin.get_untracked() == 0.0 && scene.with(|s| !s.cards.is_empty()) {
            request_animation_frame(move || {
                request_animation_frame(move || margin.set(OVERDRAW));
            });
        }
    });
    // Whether a zoom is under way: set by each ctrl+wheel step, cleared when they pause.
    let zooming = RwSignal::new(false);
    let zoom_steps = StoredValue::new(0u64);
    let zoom_step = move || {
        zoom_steps.update_value(|n| *n += 1);
        let mine = zoom_steps.get_value();
        if !zooming.get_untracked() {
            zooming.set(true);
        }
        set_timeout(
            move || {
                if zoom_steps.get_value() == mine {
                    zooming.set(false);
                }
            },
            std::time::Duration::from_millis(ZOOM_REST_MS),
        );
    };
    // Hundreds of cards in view (a large plan zoomed out), or a zoom under way over many cards:
    // one 2D canvas draws them all; during a zoom the elements wait, hidden and unchanged (see
    // `mount`).
    let in_view = Memo::new(move |_| {
        let w: Rect = window.get();
        crate::timeline::timed("canvas: cards in view", || {
            scene.with(|s| s.cards.iter().filter(|c| c.rect.intersects(&w)).count())
        })
    });
    let overview = Memo::new(move |_| {
        let in_view = in_view.get();
        in_view > DOM_CARD_LIMIT || (zooming.get() && in_view > ZOOMING_CARD_LIMIT)
    });
    // Titles only, far out or in a crowded view; text that grows as the view zooms out.
    let overview_style =
        Memo::new(move |_| legible::overview_style(viewport.get().zoom, in_view.get()));
    let text_scale = Memo::new(move |_| TextScale::at(viewport.get().zoom));
    let menu = RwSignal::new(None::<Menu>);
    let apply_effect = move |effect: gesture::Effect| {
        let before = editor.selection.get_untracked();
        let outcome = scene.with_untracked(|s| effects::outcome(effect, &before, s));
        match outcome {
            Outcome::Select(selection) => editor.selection.set(selection),
            Outcome::Edit(command) => {
                editor.dispatch(command);
            }
            Outcome::Connect { command, from } => {
                if editor.dispatch(command) {
                    let index = editor.plan.with_untracked(|p| {
                        p.as_ref()
                            .and_then(|p| p.state(&from))
                            .map_or(0, |s| s.transitions.len().saturating_sub(1))
                    });
                    editor.selection.set(Selection {
                        states: Vec::new(),
                        transition: Some((from, index)),
                    });
                }
            }
            Outcome::Menu(m) => menu.set(Some(m)),
        }
    };
    let feed = move |input: Input| {
        let selected = editor.selection.with_untracked(|s| s.states.clone());
        let (g, v, effects) = gesture::step(
            gesture_state.get_untracked(),
            viewport.get_untracked(),
            input,
            &selected,
        );
        if g != gesture_state.get_untracked() {
            gesture_state.set(g);
        }
        if v != viewport.get_untracked() {
            viewport.set(v);
        }
        for e in effects {
            apply_effect(e);
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
    // In the overview the elements are hidden: what is under the pointer comes from the scene.
    let resolve = move |target: Target, at: (f64, f64)| -> Target {
        if target == Target::Background && overview.get_untracked() {
            let world = viewport.get_untracked().to_world(at);
            if let Some(id) = shown.with_untracked(|s| card_at(s, world)) {
                return Target::Card(id);
            }
        }
        target
    };
    text_selection::refuse_during_gestures();
    let on_down = move |e: ev::PointerEvent| {
        menu.set(None);
        if e.button() == 2 {
            // The right button opens the context menu (`on_menu`), nothing else.
            return;
        }
        text_selection::gesture(true);
        let target = resolve(target_of(e.target()), local(e.client_x(), e.client_y()));
        if let Some(el) = root.get_untracked() {
            let _ = el.set_pointer_capture(e.pointer_id());
        }
        feed(Input::Down {
            at: local(e.client_x(), e.client_y()),
            button: e.button(),
            target,
            shift: e.shift_key(),
        });
    };
    let on_move = move |e: ev::PointerEvent| {
        if gesture_state.with_untracked(|g| *g != Gesture::Idle) {
            feed(Input::Move {
                at: local(e.client_x(), e.client_y()),
            });
        }
    };
    // With the pointer captured, events land on the canvas itself: ask what is under the pointer.
    let under = move |x: i32, y: i32| -> Target {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.element_from_point(x as f32, y as f32));
        resolve(target_of(el.map(Into::into)), local(x, y))
    };
    // The last two releases, newest first: whether each ended a click on the empty background.
    let background_clicks = StoredValue::new([false, false]);
    let on_menu = move |e: ev::MouseEvent| {
        e.prevent_default();
        let target = under(e.client_x(), e.client_y());
        let place = Place::of(target);
        // What the menu is about is selected, as a left click would (the inspector shows it).
        if let Some(on @ (Place::Card(_) | Place::Arrow { .. })) = &place {
            editor.selection.set(on.selection());
        }
        menu.set(place.map(|on| Menu {
            at: local(e.client_x(), e.client_y()),
            on,
        }));
    };
    let on_up = move |e: ev::PointerEvent| {
        text_selection::gesture(false);
        let clicked = gesture_state.with_untracked(Gesture::is_background_click);
        background_clicks.update_value(|c| *c = [clicked, c[0]]);
        feed(Input::Up {
            target: under(e.client_x(), e.client_y()),
        });
    };
    let on_wheel = move |e: ev::WheelEvent| {
        e.prevent_default();
        if e.ctrl_key() || e.meta_key() {
            zoom_step();
        }
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
    let on_dblclick = move |e: ev::MouseEvent| {
        let both_on_background = background_clicks.get_value() == [true, true];
        if !both_on_background || under(e.client_x(), e.client_y()) != Target::Background {
            return;
        }
        expect_context::<Actions>().add_state(
            NewState::Loose,
            Some(local(e.client_x(), e.client_y())),
            None,
        );
    };
    let zoom_by = move |factor: f64| {
        let (w, h) = size.get_untracked();
        viewport.update(|v| *v = v.zoomed_at((w / 2.0, h / 2.0), factor));
    };

    // Which cards and arrows have elements (see `mount`); each list's last answer is what had
    // them before.
    let wanted = move || match (overview.get(), zooming.get()) {
        (false, _) => Wanted::Within(drawn.get()),
        (true, true) => Wanted::AsBefore,
        (true, false) => Wanted::Nothing,
    };
    let visible_cards = Memo::new(move |before: Option<&Vec<Card>>| {
        let wanted = wanted();
        crate::timeline::timed("canvas: cards shown", || {
            shown.with(|s| mount::shown(&s.cards, |c| (c.key, c.rect), before, wanted))
        })
    });
    // One list for both layers (paths in SVG, labels as HTML).
    let arrows_now = Memo::new(move |before: Option<&Vec<Arrow>>| {
        let wanted = wanted();
        crate::timeline::timed("canvas: arrows shown", || {
            shown.with(|s| mount::shown(&s.arrows, |a| (a.key, a.reach), before, wanted))
        })
    });
    let transform = move || {
        let v = viewport.get();
        format!("translate({}px, {}px) scale({})", v.x, v.y, v.zoom)
    };
    let svg_transform = move || {
        let v = viewport.get();
        format!("translate({} {}) scale({})", v.x, v.y, v.zoom)
    };
    // The dot grid moves and scales with the canvas, so panning feels like moving paper.
    // Drawn only close up, where it helps placing cards: zoomed out its dots would be a dense
    // pattern that costs a full repaint every frame of a pan and shows nothing useful.
    let grid = move || {
        let v = viewport.get();
        if v.zoom < GRID_MIN_ZOOM {
            return "background-image: none".to_string();
        }
        let step = 24.0 * v.zoom;
        format!(
            "background-size: {step}px {step}px; background-position: {}px {}px",
            v.x.rem_euclid(step),
            v.y.rem_euclid(step)
        )
    };
    // The arrow being drawn out of a handle, or an arrow's end being dragged.
    let rubber_line = move || {
        let v = viewport.get();
        let (from, at) = gesture_state.with(|g| match g {
            Gesture::Connecting { from, at, .. } => (Some(from.clone()), Some(*at)),
            Gesture::Retargeting { from, at, .. } => (Some(from.clone()), Some(*at)),
            _ => (None, None),
        });
        let (from, at) = (from?, at?);
        let rect =
            scene.with_untracked(|s| s.cards.iter().find(|c| c.id == from).map(|c| c.rect))?;
        let (sx, sy) = v.to_screen((rect.right(), rect.y + rect.h / 2.0));
        Some(
            view! { <line class="rubber" x1=sx y1=sy x2=at.0 y2=at.1 marker-end="url(#arrowhead)"></line> },
        )
    };
    let rubber_box = move || {
        gesture_state
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
    };

    let texts = Texts::new();
    let card = move |c: Card| card_view(c, editor, marks);
    let arrow = move |a: Arrow| arrow_view(a, editor, marks, texts);
    let places = label_places(
        arrows_now,
        visible_cards,
        text_scale,
        overview_style,
        editor,
        texts,
    );
    let label = move |a: Arrow| label_view(a, editor, marks, texts, places);

    view! {
        <div
            class="canvas"
            class:overview=overview_style
            class:small-print-hidden=move || text_scale.get().hides_small_print
            class:drawn=overview
            class:dragging=move || gesture_state.with(|g| g.moving(1.0).is_some())
            data-testid="canvas"
            node_ref=root
            style=grid
            on:pointerdown=on_down
            on:pointermove=on_move
            on:pointerup=on_up
            on:pointercancel=on_up
            on:contextmenu=on_menu
            // Focusing a card from the keyboard (Tab) scrolls it into view; the canvas moves by
            // its camera only, so any scroll is undone at once.
            on:scroll=move |_| {
                if let Some(el) = root.get_untracked() {
                    el.set_scroll_top(0);
                    el.set_scroll_left(0);
                }
            }
            on:wheel=on_wheel
            on:dblclick=on_dblclick
        >
            <svg class="arrows" aria-hidden="true">
                <defs>
                    {arrowhead("arrowhead", "arrowhead")}
                    {arrowhead("arrowhead-broken", "arrowhead broken")}
                    {arrowhead("arrowhead-selected", "arrowhead selected")}
                </defs>
                <g transform=svg_transform>
                    <For each=move || arrows_now.get() key=|a| a.key children=arrow />
                    <For
                        each=move || shown.with(|s| s.interruptions.clone())
                        key=|d| d.key
                        children=detour_arrow_view
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
                style:transform=transform
                style:--title-scale=move || text_scale.get().title.to_string()
                style:--label-scale=move || text_scale.get().label.to_string()
            >
                <For each=move || arrows_now.get() key=|a| a.key children=label />
                <For each=move || visible_cards.get() key=|c| c.key children=card />
                <For
                    each=move || shown.with(|s| s.interruptions.clone())
                    key=|d| d.key
                    children=detour_view
                />
            </div>
            <svg class="rubber-layer" aria-hidden="true">
                {rubber_line}
            </svg>
            {rubber_box}
            <Minimap scene=scene viewport=viewport size=size />
            <ContextMenu menu=menu size=size />
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
                    on:click=move |_| fit_view()
                >
                    "Fit"
                </button>
            </div>
        </div>
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
