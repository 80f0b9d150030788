//! The window's four regions, which F6 and Shift+F6 go round: the toolbar (the top bar, with
//! Publish), the plans (the left column), the canvas and the panel. Which region comes next is [`next`], pure and tested without a browser;
//! a folded column is passed over. Each region is marked `data-region` in the DOM, so the region
//! the focus is in is read from the focused element.

use wasm_bindgen::JsCast;

/// A region of the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    Toolbar,
    Plans,
    Canvas,
    Panel,
}

const ORDER: [Region; 4] = [
    Region::Toolbar,
    Region::Plans,
    Region::Canvas,
    Region::Panel,
];

impl Region {
    /// Its `data-region` value.
    pub fn name(self) -> &'static str {
        match self {
            Region::Toolbar => "toolbar",
            Region::Plans => "plans",
            Region::Canvas => "canvas",
            Region::Panel => "panel",
        }
    }

    fn of_name(name: &str) -> Option<Region> {
        ORDER.into_iter().find(|r| r.name() == name)
    }
}

/// The region F6 (`forward`) or Shift+F6 goes to from `current` (none: the focus is in none,
/// say on the page after a field went, so F6 goes to the canvas, where the work is); a region that is folded
/// (`open` false) is passed over, the canvas never is.
pub fn next(current: Option<Region>, forward: bool, open: impl Fn(Region) -> bool) -> Region {
    let Some(current) = current else {
        return Region::Canvas;
    };
    let at = ORDER.iter().position(|r| *r == current).unwrap_or(1);
    (1..=ORDER.len())
        .map(|step| {
            let i = if forward {
                (at + step) % ORDER.len()
            } else {
                (at + ORDER.len() * 2 - step) % ORDER.len()
            };
            ORDER[i]
        })
        .find(|r| *r == Region::Canvas || open(*r))
        .unwrap_or(Region::Canvas)
}

/// The region the focused element is in, if any.
pub fn focused() -> Option<Region> {
    let active = leptos::prelude::document().active_element()?;
    let region = active.closest("[data-region]").ok()??;
    Region::of_name(&region.get_attribute("data-region")?)
}

/// Focuses the first of `selectors` found inside `region` that can take the focus; true if one
/// did.
pub fn focus_first_in(region: Region, selectors: &[&str]) -> bool {
    let doc = leptos::prelude::document();
    let scope = format!("[data-region={}]", region.name());
    selectors.iter().any(|sel| {
        doc.query_selector(&format!("{scope} {sel}"))
            .ok()
            .flatten()
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
            .is_some_and(|el| {
                let _ = el.focus();
                doc.active_element().is_some_and(|a| a == *el)
            })
    })
}

/// Below this width in CSS pixels the window is narrow: the side column folds once a plan is
/// open and the top bar wraps (style.css's `max-width: 900px`). The window's minimum is 1,024
/// screen pixels, so only large text (GTK's text scaling, which zooms the page) makes it narrow.
pub const NARROW: f64 = 900.0;

/// Whether a window `width` CSS pixels wide is narrow.
pub fn narrow(width: f64) -> bool {
    width < NARROW
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_at_200_percent_text_is_narrow_and_at_the_smallest_size_is_not() {
        assert!(narrow(640.0), "1280 screen pixels at 200 % text");
        assert!(!narrow(1024.0), "the window's minimum at 100 %");
        assert!(
            !narrow(853.4 * 1.25),
            "1280 at 150 %: still room for both columns"
        );
    }

    #[test]
    fn f6_goes_round_toolbar_plans_canvas_panel_and_shift_f6_back() {
        let all = |_: Region| true;
        assert_eq!(next(Some(Region::Toolbar), true, all), Region::Plans);
        assert_eq!(next(Some(Region::Plans), true, all), Region::Canvas);
        assert_eq!(next(Some(Region::Canvas), true, all), Region::Panel);
        assert_eq!(next(Some(Region::Panel), true, all), Region::Toolbar);
        assert_eq!(next(Some(Region::Toolbar), false, all), Region::Panel);
        assert_eq!(next(Some(Region::Canvas), false, all), Region::Plans);
    }

    #[test]
    fn from_outside_every_region_f6_goes_to_the_canvas_the_first_card_within_three_presses() {
        assert_eq!(next(None, true, |_| true), Region::Canvas);
        assert_eq!(next(None, false, |_| true), Region::Canvas);
        // From anywhere, the canvas is at most three presses away.
        for start in ORDER {
            let mut at = start;
            let mut presses = 0;
            while at != Region::Canvas {
                at = next(Some(at), true, |_| true);
                presses += 1;
            }
            assert!(presses <= 3, "{start:?}: {presses}");
        }
    }

    #[test]
    fn a_folded_column_is_passed_over() {
        let panel_folded = |r: Region| r != Region::Panel;
        assert_eq!(
            next(Some(Region::Canvas), true, panel_folded),
            Region::Toolbar
        );
        let both_folded = |r: Region| matches!(r, Region::Canvas | Region::Toolbar);
        assert_eq!(
            next(Some(Region::Canvas), true, both_folded),
            Region::Toolbar
        );
        assert_eq!(
            next(Some(Region::Toolbar), true, both_folded),
            Region::Canvas
        );
    }
}
