//! The minimap: the whole plan in a corner, with the part on screen outlined; a click centres the
//! view there. All cards are one SVG path, so it costs one element however large the plan.

use leptos::ev;
use leptos::prelude::*;

use super::geometry::{push_tenths, Rect, Viewport};
use super::scene::Scene;

const W: f64 = 180.0;
/// The tallest the minimap gets; a wide plan gets a flatter one.
const MAX_H: f64 = 120.0;
const MIN_H: f64 = 40.0;

/// The minimap's height on screen for a plan whose cards span `bounds`.
pub fn height(bounds: Rect) -> f64 {
    let b = bounds.inflate(120.0);
    (W * b.h / b.w).clamp(MIN_H, MAX_H)
}

/// How far the minimap reaches up from the canvas's foot: 16 px below it, 8 above.
pub fn reach(bounds: Rect) -> f64 {
    height(bounds) + 24.0
}

#[component]
pub fn Minimap(
    scene: Memo<Scene>,
    viewport: RwSignal<Viewport>,
    size: RwSignal<(f64, f64)>,
) -> impl IntoView {
    // World → minimap: the plan's bounds fitted into the box.
    let frame = Memo::new(move |_| {
        scene.with(|s| {
            let b = s.bounds?;
            let h = height(b);
            let b = b.inflate(120.0);
            let scale = (W / b.w).min(h / b.h);
            Some((b.x, b.y, scale))
        })
    });
    let cards = Memo::new(move |_| {
        let Some((x0, y0, k)) = frame.get() else {
            return String::new();
        };
        scene.with(|s| {
            // Written by hand, not with `format!` (float formatting was most of its cost).
            let mut d = String::with_capacity(s.cards.len() * 40);
            for c in &s.cards {
                let (w, h) = ((c.rect.w * k).max(1.5), (c.rect.h * k).max(1.0));
                d.push('M');
                push_tenths(&mut d, (c.rect.x - x0) * k);
                d.push(',');
                push_tenths(&mut d, (c.rect.y - y0) * k);
                d.push('h');
                push_tenths(&mut d, w);
                d.push('v');
                push_tenths(&mut d, h);
                d.push('h');
                push_tenths(&mut d, -w);
                d.push('z');
            }
            d
        })
    });
    let window = move || {
        let (x0, y0, k) = frame.get()?;
        let r = viewport.get().visible(size.get());
        Some(view! {
            <rect
                class="minimap-view"
                x=(r.x - x0) * k
                y=(r.y - y0) * k
                width=r.w * k
                height=r.h * k
            ></rect>
        })
    };
    let centre = move |e: ev::MouseEvent| {
        let Some((x0, y0, k)) = frame.get_untracked() else {
            return;
        };
        let (mx, my) = (e.offset_x() as f64, e.offset_y() as f64);
        let world = (mx / k + x0, my / k + y0);
        let (w, h) = size.get_untracked();
        viewport.update(|v| {
            v.x = w / 2.0 - world.0 * v.zoom;
            v.y = h / 2.0 - world.1 * v.zoom;
        });
    };
    view! {
        <svg
            class="minimap"
            data-testid="minimap"
            width=W
            height=move || scene.with(|s| s.bounds.map_or(MIN_H, height))
            on:pointerdown=|e: ev::PointerEvent| e.stop_propagation()
            on:dblclick=|e: ev::MouseEvent| e.stop_propagation()
            on:click=centre
        >
            <path class="minimap-cards" d=cards></path>
            {window}
        </svg>
    }
}
