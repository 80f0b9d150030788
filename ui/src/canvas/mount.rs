//! Which cards and arrows have DOM elements: those in the view (and a small margin) while the
//! canvas shows elements; while the overview drawing stands in for them during a zoom, the same
//! ones as before, hidden and unchanged, so that a zoom that comes back makes no element twice and
//! the element under the pointer stays in the page while the wheel turns; none while the overview
//! shows a crowded view at rest (hidden elements still cost a pan frame some milliseconds).
//!
//! Why not more: making an element costs far more here than moving or repainting one (the probe's
//! zoom trace in `tests/probe.rs` put a frame that made 16 new cards at 95 ms, one that made 29 at
//! 146 ms, one that made 119 at 160–180 ms, against 16–25 ms for a frame that made none), but an
//! element off screen is not free either: making elements ahead of the view (a ring a quarter of
//! the view wide, four per frame) and keeping them behind it made a pan's p95 at 1,000 states
//! 78 ms instead of 30.
//!
//! Pure, so it is tested without a browser; the view keeps the set between frames.

use std::collections::HashSet;

use super::geometry::Rect;

/// Which items are to have elements.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Wanted {
    /// Those in this area.
    Within(Rect),
    /// Those that have them now and still exist.
    AsBefore,
    /// None.
    Nothing,
}

/// The indexes of the items (identity key, area covered) to have elements, in their order, given
/// those that have them now (`mounted`).
pub fn choose<'a>(
    items: impl Iterator<Item = (&'a str, Rect)>,
    mounted: &HashSet<String>,
    wanted: Wanted,
) -> Vec<usize> {
    items
        .enumerate()
        .filter(|(_, (key, area))| match wanted {
            Wanted::Within(needed) => area.intersects(&needed),
            Wanted::AsBefore => mounted.contains(*key),
            Wanted::Nothing => false,
        })
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of 50 × 100 cards, one every 100 units from x = 0.
    fn row(n: usize) -> Vec<(String, Rect)> {
        (0..n)
            .map(|i| {
                (
                    format!("c{i}"),
                    Rect::new(i as f64 * 100.0, 0.0, 50.0, 100.0),
                )
            })
            .collect()
    }

    fn items(row: &[(String, Rect)]) -> impl Iterator<Item = (&str, Rect)> {
        row.iter().map(|(k, r)| (k.as_str(), *r))
    }

    #[test]
    fn the_cards_in_the_needed_area_have_elements() {
        let row = row(40);
        let was: HashSet<String> = ["c30".to_string()].into();
        let needed = Rect::new(260.0, 0.0, 500.0, 100.0);
        assert_eq!(
            choose(items(&row), &was, Wanted::Within(needed)),
            [3, 4, 5, 6, 7]
        );
    }

    #[test]
    fn during_a_zoom_under_the_overview_the_elements_stay_as_they_were() {
        let row = row(5);
        let was: HashSet<String> = ["c1", "c3", "gone"].map(String::from).into();
        assert_eq!(choose(items(&row), &was, Wanted::AsBefore), [1, 3]);
    }

    #[test]
    fn a_crowded_view_at_rest_has_no_elements() {
        let row = row(5);
        let was: HashSet<String> = ["c1", "c3"].map(String::from).into();
        assert!(choose(items(&row), &was, Wanted::Nothing).is_empty());
    }
}
