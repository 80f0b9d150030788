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
//! Pure, so it is tested without a browser; what had elements before is the view's last answer.

use std::collections::HashSet;

use super::geometry::Rect;

/// Which items are to have elements.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Wanted {
    /// Those in this area.
    Within(Rect),
    /// Those that had them before and still exist.
    AsBefore,
    /// None.
    Nothing,
}

/// The items to have elements, in their order, given those that had them (`before`, the last
/// answer); `key_area` says an item's identity key and the area it covers.
pub fn shown<T: Clone>(
    items: &[T],
    key_area: impl Fn(&T) -> (u64, Rect),
    before: Option<&Vec<T>>,
    wanted: Wanted,
) -> Vec<T> {
    // Only a zoom under the overview looks back; other frames build no set.
    let had: HashSet<u64> = match (wanted, before) {
        (Wanted::AsBefore, Some(before)) => before.iter().map(|t| key_area(t).0).collect(),
        _ => HashSet::new(),
    };
    choose(items.iter().map(&key_area), &had, wanted)
        .into_iter()
        .map(|i| items[i].clone())
        .collect()
}

/// The indexes of the items (identity key, area covered) to have elements, in their order, given
/// the keys of those that had them (`mounted`).
pub fn choose(
    items: impl Iterator<Item = (u64, Rect)>,
    mounted: &HashSet<u64>,
    wanted: Wanted,
) -> Vec<usize> {
    items
        .enumerate()
        .filter(|(_, (key, area))| match wanted {
            Wanted::Within(needed) => area.intersects(&needed),
            Wanted::AsBefore => mounted.contains(key),
            Wanted::Nothing => false,
        })
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of 50 × 100 cards, one every 100 units from x = 0, card `i` keyed `i`.
    fn row(n: usize) -> Vec<(u64, Rect)> {
        (0..n)
            .map(|i| (i as u64, Rect::new(i as f64 * 100.0, 0.0, 50.0, 100.0)))
            .collect()
    }

    fn items(row: &[(u64, Rect)]) -> impl Iterator<Item = (u64, Rect)> + '_ {
        row.iter().copied()
    }

    /// A key no card of a row has.
    const GONE: u64 = u64::MAX;

    #[test]
    fn the_cards_in_the_needed_area_have_elements() {
        let row = row(40);
        let was: HashSet<u64> = [30].into();
        let needed = Rect::new(260.0, 0.0, 500.0, 100.0);
        assert_eq!(
            choose(items(&row), &was, Wanted::Within(needed)),
            [3, 4, 5, 6, 7]
        );
    }

    #[test]
    fn during_a_zoom_under_the_overview_the_elements_stay_as_they_were() {
        let row = row(5);
        let was: HashSet<u64> = [1, 3, GONE].into();
        assert_eq!(choose(items(&row), &was, Wanted::AsBefore), [1, 3]);
    }

    #[test]
    fn a_crowded_view_at_rest_has_no_elements() {
        let row = row(5);
        let was: HashSet<u64> = [1, 3].into();
        assert!(choose(items(&row), &was, Wanted::Nothing).is_empty());
    }

    #[test]
    fn the_items_shown_during_a_zoom_are_those_of_the_last_answer_still_in_the_plan() {
        let row = row(5);
        let before = vec![row[1], (GONE, row[2].1), row[3]];
        fn key_area(item: &(u64, Rect)) -> (u64, Rect) {
            *item
        }
        let shown = shown(&row, key_area, Some(&before), Wanted::AsBefore);
        assert_eq!(shown, [row[1], row[3]]);
        assert!(super::shown(&row, key_area, None, Wanted::AsBefore).is_empty());
    }
}
