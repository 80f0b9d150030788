//! Where the canvas looks: the viewport, the canvas's size, and the moves every part of the
//! window asks of it (fit the plan, open a plan readable, centre a state, zoom). The choices are
//! pure functions of a scene and a size, tested without a browser; [`Camera`] applies them.

use leptos::prelude::*;

use super::geometry::{Margins, Rect, Viewport};
use super::gesture::ZOOM_STEP;
use super::legible;
use super::minimap;
use super::scene::Scene;

/// Screen margin kept around a fitted plan.
const FIT_PADDING: f64 = 32.0;

/// The view that shows all of `scene` in a canvas of `size`, clear of the minimap and the zoom
/// buttons at the canvas's foot; none for a plan without states.
pub fn fitted(scene: &Scene, size: (f64, f64)) -> Option<Viewport> {
    scene.bounds.map(|bounds| {
        let margins = Margins {
            bottom: minimap::reach(bounds).max(FIT_PADDING),
            ..Margins::even(FIT_PADDING)
        };
        Viewport::fitting(bounds, size, margins)
    })
}

/// The view a plan opens in: fitted, but never below the zoom at which its arrow labels show (a
/// new author otherwise first sees a plan of unlabelled arrows, see [`legible`]); a plan too
/// large for that opens at that zoom, centred on its start state.
pub fn opening_view(scene: &Scene, size: (f64, f64)) -> Option<Viewport> {
    let fit = fitted(scene, size)?;
    let readable = legible::readable_zoom(scene.cards.len());
    if fit.zoom >= readable {
        return Some(fit);
    }
    let start = scene
        .cards
        .iter()
        .find(|c| c.is_start)
        .or_else(|| scene.cards.first())?;
    Some(centred_on(start.rect, size, readable))
}

/// The view after the canvas is resized from `before` to `after` (a panel opened, folded or
/// widened): the same middle, so the plan stays where the author was looking; but a plan that
/// was wholly in view and no longer would be is fitted again, never cut at both sides.
pub fn resized(view: Viewport, scene: &Scene, before: (f64, f64), after: (f64, f64)) -> Viewport {
    let kept = view.resized(before, after);
    let Some(bounds) = scene.bounds else {
        return kept;
    };
    let whole_before = view.visible(before).contains(&bounds);
    let whole_after = kept.visible(after).contains(&bounds);
    match fitted(scene, after) {
        Some(fit) if whole_before && !whole_after => fit,
        _ => kept,
    }
}

/// The view at `zoom` with `rect`'s centre in the middle of a canvas of `size`.
pub fn centred_on(rect: Rect, size: (f64, f64), zoom: f64) -> Viewport {
    let (cx, cy) = rect.center();
    Viewport {
        x: size.0 / 2.0 - cx * zoom,
        y: size.1 / 2.0 - cy * zoom,
        zoom,
    }
}

/// The view that frames `rects` (a conversation's path, say): at the zoom of `view`, centred on
/// them, when they all fit at that zoom; else zoomed out until they do.
pub fn framing(rects: &[Rect], view: Viewport, size: (f64, f64)) -> Option<Viewport> {
    let content = super::geometry::bounds(rects.iter().copied())?;
    let kept = centred_on(content, size, view.zoom);
    let inner = Rect::new(
        FIT_PADDING,
        FIT_PADDING,
        size.0 - 2.0 * FIT_PADDING,
        size.1 - 2.0 * FIT_PADDING,
    );
    let (x, y) = kept.to_screen((content.x, content.y));
    let on_screen = Rect::new(x, y, content.w * kept.zoom, content.h * kept.zoom);
    if inner.contains(&on_screen) {
        return Some(kept);
    }
    Some(Viewport::fitting(content, size, Margins::even(FIT_PADDING)))
}

/// The canvas's view, shared by the canvas and whatever moves it (shortcuts, Find, the problem
/// and change lists, opening a plan).
#[derive(Clone, Copy)]
pub struct Camera {
    pub viewport: RwSignal<Viewport>,
    /// The canvas's size in pixels, as last measured.
    pub size: RwSignal<(f64, f64)>,
    /// Asks the canvas to measure itself and fit the plan whenever it changes.
    pub refit: RwSignal<u64>,
}

impl Camera {
    pub fn new() -> Camera {
        Camera {
            viewport: RwSignal::new(Viewport::default()),
            size: RwSignal::new((1024.0, 640.0)),
            refit: RwSignal::new(0),
        }
    }

    /// Fit the whole plan (after measuring the canvas again).
    pub fn fit(&self) {
        self.refit.update(|n| *n += 1);
    }

    /// Shows a newly opened plan as [`opening_view`] says, at once, with the size as last
    /// measured: its first frame then makes no elements for the cards of the old view.
    pub fn open_on(&self, scene: &Scene) {
        if let Some(v) = opening_view(scene, self.size.get_untracked()) {
            self.viewport.set(v);
        }
    }

    /// Keeps the zoom and brings `rect` to the middle.
    pub fn centre(&self, rect: Rect) {
        let size = self.size.get_untracked();
        self.viewport
            .update(|v| *v = centred_on(rect, size, v.zoom));
    }

    /// Frames `rects` as [`framing`] says.
    pub fn frame(&self, rects: &[Rect]) {
        let size = self.size.get_untracked();
        if let Some(v) = framing(rects, self.viewport.get_untracked(), size) {
            self.viewport.set(v);
        }
    }

    /// Zooms in (`steps` > 0) or out around the middle of the canvas.
    pub fn zoom(&self, steps: i32) {
        let (w, h) = self.size.get_untracked();
        let factor = ZOOM_STEP.powi(steps);
        self.viewport
            .update(|v| *v = v.zoomed_at((w / 2.0, h / 2.0), factor));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::parse_plan;

    #[test]
    fn a_path_that_fits_keeps_the_zoom_and_one_that_does_not_is_fitted() {
        let view = Viewport {
            x: 0.0,
            y: 0.0,
            zoom: 1.0,
        };
        let near = [
            Rect::new(0.0, 0.0, 100.0, 50.0),
            Rect::new(300.0, 0.0, 100.0, 50.0),
        ];
        let v = framing(&near, view, (800.0, 600.0)).unwrap();
        assert_eq!(v.zoom, 1.0);
        assert_eq!(
            v.to_screen((200.0, 25.0)),
            (400.0, 300.0),
            "centred on the path"
        );
        let far = [
            Rect::new(0.0, 0.0, 100.0, 50.0),
            Rect::new(3000.0, 0.0, 100.0, 50.0),
        ];
        let v = framing(&far, view, (800.0, 600.0)).unwrap();
        assert!(
            v.zoom < 0.25,
            "zoomed out to show the whole path: {}",
            v.zoom
        );
        assert!(framing(&[], view, (800.0, 600.0)).is_none());
    }

    fn scene(states: usize) -> Scene {
        let mut plan = plan_core::synthetic::plan(states);
        plan.layout.clear();
        Scene::build(&plan)
    }

    #[test]
    fn a_small_plan_opens_fitted() {
        let s = scene(4);
        let v = opening_view(&s, (1000.0, 700.0)).unwrap();
        assert_eq!(Some(v), fitted(&s, (1000.0, 700.0)));
        assert!(v.zoom >= legible::LABELS_ZOOM);
    }

    #[test]
    fn a_plan_too_large_to_fit_readably_opens_at_the_labels_zoom_on_its_start_state() {
        let s = scene(200);
        let size = (1000.0, 700.0);
        assert!(fitted(&s, size).unwrap().zoom < legible::CROWDED_ZOOM);
        let v = opening_view(&s, size).unwrap();
        assert_eq!(v.zoom, legible::CROWDED_ZOOM);
        let start = s.cards.iter().find(|c| c.is_start).unwrap();
        let (cx, cy) = start.rect.center();
        assert_eq!(v.to_screen((cx, cy)), (500.0, 350.0));
    }

    #[test]
    fn a_narrower_canvas_keeps_its_middle_but_never_cuts_a_whole_plan() {
        let s = scene(6);
        let wide = (1000.0, 700.0);
        let narrow = (900.0, 700.0);
        // Zoomed in on part of the plan: the middle stays the middle.
        let close = centred_on(s.cards[2].rect, wide, 1.0);
        let after = resized(close, &s, wide, narrow);
        assert_eq!(after, close.resized(wide, narrow));
        // The whole plan in view: still whole in the narrower canvas.
        let fit = fitted(&s, wide).unwrap();
        let after = resized(fit, &s, wide, narrow);
        assert!(after.visible(narrow).contains(&s.bounds.unwrap()));
        // A wider canvas only gains room around it.
        assert_eq!(resized(fit, &s, narrow, wide), fit.resized(narrow, wide));
    }

    #[test]
    fn a_plan_without_states_has_no_opening_view() {
        let plan = parse_plan(r#"{"id": "p", "title": "P", "states": []}"#).unwrap();
        assert_eq!(opening_view(&Scene::build(&plan), (800.0, 600.0)), None);
    }
}
