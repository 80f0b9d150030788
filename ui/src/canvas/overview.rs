//! The overview drawing: when hundreds of cards are on screen at once (a large plan zoomed out),
//! or while a zoom is under way over many cards, the canvas draws them into one 2D `<canvas>`
//! instead of one DOM element each, so panning and zooming stay smooth at thousands of states. Cards become tinted boxes (titles while they are
//! still readable), arrows straight lines; clicking and dragging cards still works through the
//! same gestures, by hit-testing the scene.

use leptos::html;
use leptos::prelude::*;
use plan_core::diff::Change;
use plan_core::plan::StateType;
use plan_core::Severity;
use wasm_bindgen::JsCast;

use super::geometry::{Rect, Viewport};
use super::marks::Marks;
use super::scene::Scene;
use super::shown::Shown;
use crate::editor::Editor;

/// Above this many cards in view, the canvas draws the overview instead of DOM cards. Measured
/// (`bash scripts/bench-app.sh`, zoom's slowest frames): a frame with 200–250 DOM cards in view
/// took 60–160 ms here, the overview drawing of the same view ~16–20 ms; at 120 the switch
/// comes at about 27 % zoom, where the overview still draws titles.
pub const DOM_CARD_LIMIT: usize = 120;

/// The card under a world point, if any (the last drawn wins, as on screen).
pub fn card_at(scene: &Scene, at: (f64, f64)) -> Option<String> {
    scene
        .cards
        .iter()
        .rev()
        .find(|c| {
            at.0 >= c.rect.x
                && at.0 <= c.rect.right()
                && at.1 >= c.rect.y
                && at.1 <= c.rect.bottom()
        })
        .map(|c| c.id.clone())
}

/// A compared card's fill: the canvas's colours for added, changed and removed (see style.css).
fn diff_fill(change: Option<Change>) -> &'static str {
    match change {
        None => "#e4e7ec",
        Some(Change::Added) => "#a9dcc2",
        Some(Change::Changed) => "#fcd9a4",
        Some(Change::Removed) => "#f4c1bd",
    }
}

/// A card's words in the overview: its title after its mode's letter, or, while comparing, after
/// what happened to it.
fn overview_title(title: &str, mode: StateType, change: Option<&Change>) -> String {
    match change {
        Some(change) => format!("{}: {title}", super::items::diff_word(*change)),
        None => format!("{} · {title}", mode_letter(mode)),
    }
}

fn mode_letter(mode: StateType) -> &'static str {
    match mode {
        StateType::Strict => "S",
        StateType::Loose => "L",
        StateType::Goal => "G",
    }
}

fn fill_of(kind: StateType) -> &'static str {
    match kind {
        StateType::Strict => "#f6c9a6",
        StateType::Loose => "#a9dcc2",
        StateType::Goal => "#cbb8f2",
    }
}

#[component]
pub fn Overview(
    shown: Shown,
    marks: Memo<Marks>,
    viewport: RwSignal<Viewport>,
    size: RwSignal<(f64, f64)>,
) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let canvas = NodeRef::<html::Canvas>::new();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        crate::timeline::mark("overview-start");
        let v = viewport.get();
        let (w, h) = size.get();
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        let (pw, ph) = ((w * ratio) as u32, (h * ratio) as u32);
        if el.width() != pw || el.height() != ph {
            el.set_width(pw);
            el.set_height(ph);
        }
        let Some(g) = el
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let selected = editor.selection.with(|s| s.states.clone());
        let marks = marks.read();
        let window: Rect = v.visible((w, h));
        shown.with(|s| {
            let _ = g.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
            g.clear_rect(0.0, 0.0, w, h);
            let _ = g.translate(v.x, v.y);
            let _ = g.scale(v.zoom, v.zoom);
            // Arrows: centre to centre, one stroke for all.
            g.begin_path();
            for a in &s.arrows {
                let Some((from, to)) = a.line.filter(|_| a.reach.intersects(&window)) else {
                    continue;
                };
                g.move_to(from.0, from.1);
                g.line_to(to.0, to.1);
            }
            g.set_stroke_style_str("#737e92");
            g.set_line_width(1.5 / v.zoom);
            g.stroke();
            // Cards, grouped by colour so each colour is set once: by mode, or while comparing
            // by what happened to them (unchanged ones pale).
            let in_view = || s.cards.iter().filter(|c| c.rect.intersects(&window));
            if marks.diff_states.is_empty() && marks.diff_arrows.is_empty() {
                for kind in [StateType::Strict, StateType::Loose, StateType::Goal] {
                    g.set_fill_style_str(fill_of(kind));
                    for c in in_view().filter(|c| c.mode == kind) {
                        g.fill_rect(c.rect.x, c.rect.y, c.rect.w, c.rect.h);
                    }
                }
            } else {
                for change in [
                    None,
                    Some(Change::Added),
                    Some(Change::Changed),
                    Some(Change::Removed),
                ] {
                    g.set_fill_style_str(diff_fill(change));
                    for c in in_view().filter(|c| marks.diff_states.get(&c.id).copied() == change) {
                        g.fill_rect(c.rect.x, c.rect.y, c.rect.w, c.rect.h);
                    }
                }
            }
            if !selected.is_empty() {
                g.set_stroke_style_str("#3b5bdb");
                g.set_line_width(4.0 / v.zoom);
                for c in s.cards.iter().filter(|c| selected.contains(&c.id)) {
                    g.stroke_rect(c.rect.x, c.rect.y, c.rect.w, c.rect.h);
                }
            }
            // Problems: a dot in the card's top right corner, as big as the DOM card's badge
            // is in the overview style and never under 4 px across on screen, so that a
            // problem shows even with the whole plan in view; coloured by the worst severity.
            let r = f64::max(20.0, 2.0 / v.zoom);
            for c in s.cards.iter().filter(|c| c.rect.intersects(&window)) {
                let Some(severity) = marks.states.get(&c.id) else {
                    continue;
                };
                g.set_fill_style_str(match severity {
                    Severity::Error => "#d92d20",
                    Severity::Warning => "#dc6803",
                    Severity::Info => "#737e92",
                });
                g.begin_path();
                let _ = g.arc(
                    c.rect.right() - r.min(c.rect.w / 2.0),
                    c.rect.y + r.min(c.rect.h / 2.0),
                    r,
                    0.0,
                    std::f64::consts::TAU,
                );
                g.fill();
            }
            // Titles while they are big enough to read.
            if 30.0 * v.zoom >= 8.0 {
                g.set_fill_style_str("#1d2330");
                g.set_font("600 30px sans-serif");
                for c in s.cards.iter().filter(|c| c.rect.intersects(&window)) {
                    // The mode, or what happened to a compared card, in a word too: never
                    // told by the fill's colour alone.
                    let title = overview_title(&c.title, c.mode, marks.diff_states.get(&c.id));
                    let _ = g.fill_text_with_max_width(
                        &title,
                        c.rect.x + 14.0,
                        c.rect.y + 58.0,
                        c.rect.w - 28.0,
                    );
                }
            }
        });
        crate::timeline::mark("overview-done");
    });
    view! { <canvas class="overview-layer" data-testid="overview" node_ref=canvas></canvas> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_far_out_says_its_mode_or_what_changed_in_words() {
        assert_eq!(
            overview_title("Greeting", StateType::Goal, None),
            "G · Greeting"
        );
        assert_eq!(
            overview_title("Greeting", StateType::Goal, Some(&Change::Removed)),
            "Removed: Greeting"
        );
    }
}
