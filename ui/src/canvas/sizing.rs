//! The canvas's size, measured whenever the window or the panel beside the canvas changes it (the
//! view kept where it was), and the view fitted to the plan whenever the camera asks.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::camera::{self, fitted, Camera};
use super::scene::Scene;

/// Keeps `camera.size` the size of the element `root`, and fits the view to `scene` whenever
/// `camera.refit` changes. Returns the fit, for the Fit button.
pub fn watch_size(
    root: NodeRef<html::Div>,
    scene: Memo<Scene>,
    camera: Camera,
) -> impl Fn() + Copy + 'static {
    let Camera {
        viewport,
        size,
        refit,
    } = camera;
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
        refit.track();
        fit_view();
    });
    fit_view
}
