//! What the canvas draws at each moment: the scene with dragged cards where the pointer has them,
//! which cards and arrows have elements, whether the overview drawing stands in for the cards
//! (hundreds in view, or a zoom under way over many), and how large text is drawn.

use leptos::prelude::*;

use super::camera::Camera;
use super::geometry::Rect;
use super::gesture::Gesture;
use super::legible::{self, TextScale};
use super::mount::{self, Wanted};
use super::overview::DOM_CARD_LIMIT;
use super::scene::{Arrow, Card, Scene};
use super::shown::Shown;

/// While a zoom is under way with more than this many cards in view, the overview drawing stands
/// in for the cards (each zoom step repaints every card's text at a new scale: 60–140 ms a frame
/// with 44–80 cards at 1,000 states), and the cards come back when the zoom rests.
const ZOOMING_CARD_LIMIT: usize = 24;
/// How long after the last zoom step a zoom counts as resting.
const ZOOM_REST_MS: u64 = 200;
/// Extra world margin drawn around the visible area, so a quick pan shows no pop-in.
const OVERDRAW: f64 = 120.0;

/// What the canvas draws, derived from the scene, the gesture and the camera.
#[derive(Clone, Copy)]
pub struct Drawn {
    /// The scene as drawn (dragged cards moved).
    pub shown: Shown,
    /// Whether the overview drawing stands in for the cards' elements.
    pub overview: Memo<bool>,
    /// Titles only, far out or in a crowded view.
    pub titles_only: Memo<bool>,
    /// How large text is drawn at this zoom.
    pub text_scale: Memo<TextScale>,
    /// The cards that have elements.
    pub cards: Memo<Vec<Card>>,
    /// The arrows that have elements (paths in SVG, labels as HTML).
    pub arrows: Memo<Vec<Arrow>>,
    zooming: RwSignal<bool>,
    zoom_steps: StoredValue<u64>,
}

impl Drawn {
    /// What `scene` draws with `gesture` under way, seen through `camera`.
    pub fn new(scene: Memo<Scene>, gesture: RwSignal<Gesture>, camera: Camera) -> Drawn {
        let Camera { viewport, size, .. } = camera;
        // While cards are dragged they are drawn where the pointer has them, arrows included:
        // the scene with them moved, `None` the rest of the time (so panning never copies the
        // scene). Compared as always changed while dragging: a full comparison would cost as
        // much as the copy.
        let dragged: Memo<Option<Scene>> = Memo::new_with_compare(
            move |_| {
                let zoom = viewport.with_untracked(|v| v.zoom);
                gesture.with(|g| {
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
        // What has elements: the window, but for the first frame of the window's first plan,
        // which makes only what it shows (the margin is about half the elements at opening, all
        // made before that frame could be drawn); the margin follows on the next frame.
        let margin = RwSignal::new(0.0);
        let within = Memo::new(move |_| around(margin.get()));
        Effect::new(move |_| {
            if margin.get_untracked() == 0.0 && scene.with(|s| !s.cards.is_empty()) {
                request_animation_frame(move || {
                    request_animation_frame(move || margin.set(OVERDRAW));
                });
            }
        });
        let zooming = RwSignal::new(false);
        // Hundreds of cards in view (a large plan zoomed out), or a zoom under way over many
        // cards: one 2D canvas draws them all; during a zoom the elements wait, hidden and
        // unchanged (see `mount`).
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
        let titles_only =
            Memo::new(move |_| legible::overview_style(viewport.get().zoom, in_view.get()));
        let text_scale = Memo::new(move |_| TextScale::at(viewport.get().zoom));
        // Which cards and arrows have elements (see `mount`); each list's last answer is what
        // had them before.
        let wanted = move || match (overview.get(), zooming.get()) {
            (false, _) => Wanted::Within(within.get()),
            (true, true) => Wanted::AsBefore,
            (true, false) => Wanted::Nothing,
        };
        let cards = Memo::new(move |before: Option<&Vec<Card>>| {
            let wanted = wanted();
            crate::timeline::timed("canvas: cards shown", || {
                shown.with(|s| mount::shown(&s.cards, |c| (c.key, c.rect), before, wanted))
            })
        });
        let arrows = Memo::new(move |before: Option<&Vec<Arrow>>| {
            let wanted = wanted();
            crate::timeline::timed("canvas: arrows shown", || {
                shown.with(|s| mount::shown(&s.arrows, |a| (a.key, a.reach), before, wanted))
            })
        });
        Drawn {
            shown,
            overview,
            titles_only,
            text_scale,
            cards,
            arrows,
            zooming,
            zoom_steps: StoredValue::new(0),
        }
    }

    /// One ctrl+wheel step: a zoom is under way until the steps pause.
    pub fn zoom_step(self) {
        self.zoom_steps.update_value(|n| *n += 1);
        let mine = self.zoom_steps.get_value();
        if !self.zooming.get_untracked() {
            self.zooming.set(true);
        }
        set_timeout(
            move || {
                if self.zoom_steps.get_value() == mine {
                    self.zooming.set(false);
                }
            },
            std::time::Duration::from_millis(ZOOM_REST_MS),
        );
    }
}
