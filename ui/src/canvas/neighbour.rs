//! Where the keyboard goes from a card. Ctrl+arrow: the nearest card whose middle lies that way
//! (within the quarter of the plane centred on the arrow's direction), nearer along the direction
//! counting for more than off to the side, as a reader's eye goes. `]` and `[`: the card's arrows
//! in the order the runtime checks them. After a delete: the nearest card left, so the focus is
//! never lost. Pure, tested without a browser.

use super::geometry::Rect;

fn middle(r: Rect) -> (f64, f64) {
    (r.x + r.w / 2.0, r.y + r.h / 2.0)
}

/// The card of `cards` to go to from `from` in direction (`dx`, `dy`) (one of them ±1, the other
/// 0); none when no card lies that way.
pub fn nearest<'a>(
    from: Rect,
    cards: impl IntoIterator<Item = (&'a str, Rect)>,
    dx: i8,
    dy: i8,
) -> Option<&'a str> {
    let (fx, fy) = middle(from);
    let (dx, dy) = (f64::from(dx), f64::from(dy));
    cards
        .into_iter()
        .filter_map(|(id, rect)| {
            let (cx, cy) = middle(rect);
            let (ox, oy) = (cx - fx, cy - fy);
            let along = ox * dx + oy * dy;
            let aside = (ox * dy - oy * dx).abs();
            (along > 0.0 && aside <= along).then_some((id, along + 2.0 * aside))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(id, _)| id)
}

/// The card the focus goes to once the card at `gone` was deleted: the nearest of `cards` (those
/// left); none when no card is left.
pub fn after_delete<'a>(
    gone: Rect,
    cards: impl IntoIterator<Item = (&'a str, Rect)>,
) -> Option<&'a str> {
    let (gx, gy) = middle(gone);
    cards
        .into_iter()
        .map(|(id, rect)| {
            let (cx, cy) = middle(rect);
            (id, (cx - gx).powi(2) + (cy - gy).powi(2))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(id, _)| id)
}

/// The arrow `]` (`forward`) or `[` selects among a card's arrows, `checked` being their indices
/// in the order the runtime checks them: from the card (`current` none) the first (or the last);
/// from one of its arrows the next (or the previous), round to the other end. None without arrows.
pub fn cycled_arrow(checked: &[usize], current: Option<usize>, forward: bool) -> Option<usize> {
    let n = checked.len();
    if n == 0 {
        return None;
    }
    let place = current.and_then(|c| checked.iter().position(|&i| i == c));
    let next = match (place, forward) {
        (None, true) => 0,
        (None, false) => n - 1,
        (Some(p), true) => (p + 1) % n,
        (Some(p), false) => (p + n - 1) % n,
    };
    Some(checked[next])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(x: f64, y: f64) -> Rect {
        Rect::new(x, y, 200.0, 80.0)
    }

    /// Three columns as Auto-layout places them, the middle one with two cards.
    fn plan() -> Vec<(&'static str, Rect)> {
        vec![
            ("greeting", card(0.0, 100.0)),
            ("billing", card(440.0, 0.0)),
            ("technical", card(440.0, 200.0)),
            ("farewell", card(880.0, 100.0)),
        ]
    }

    #[test]
    fn an_arrow_goes_to_the_nearest_card_that_way() {
        let cards = plan();
        let from = |id: &str| cards.iter().find(|c| c.0 == id).unwrap().1;
        let go = |id: &str, dx, dy| nearest(from(id), cards.iter().copied(), dx, dy);
        assert_eq!(go("billing", 0, 1), Some("technical"));
        assert_eq!(go("technical", 0, -1), Some("billing"));
        assert_eq!(go("billing", 1, 0), Some("farewell"));
        assert_eq!(go("farewell", -1, 0), Some("billing"));
        // From the first column, right reaches either card of the second: the one nearer in line.
        assert!(matches!(
            go("greeting", 1, 0),
            Some("billing" | "technical")
        ));
    }

    #[test]
    fn nothing_that_way_is_nowhere_to_go() {
        let cards = plan();
        assert_eq!(nearest(cards[0].1, cards.iter().copied(), -1, 0), None);
        assert_eq!(nearest(cards[3].1, cards.iter().copied(), 1, 0), None);
        // Farther up than across: not "right" of the greeting.
        let tall = [("a", card(0.0, 0.0)), ("b", card(100.0, 600.0))];
        assert_eq!(nearest(tall[0].1, tall.iter().copied(), 1, 0), None);
        assert_eq!(nearest(tall[0].1, tall.iter().copied(), 0, 1), Some("b"));
    }

    #[test]
    fn after_a_delete_the_focus_goes_to_the_nearest_card_left() {
        let cards = [("far", card(900.0, 0.0)), ("near", card(0.0, 160.0))];
        assert_eq!(after_delete(card(0.0, 0.0), cards), Some("near"));
        assert_eq!(after_delete(card(0.0, 0.0), []), None);
    }

    #[test]
    fn brackets_go_round_a_cards_arrows_in_the_order_they_are_checked() {
        // Index 2 is checked first, then 0, then 1.
        let checked = [2, 0, 1];
        assert_eq!(cycled_arrow(&checked, None, true), Some(2));
        assert_eq!(cycled_arrow(&checked, None, false), Some(1));
        assert_eq!(cycled_arrow(&checked, Some(2), true), Some(0));
        assert_eq!(cycled_arrow(&checked, Some(1), true), Some(2), "round");
        assert_eq!(
            cycled_arrow(&checked, Some(2), false),
            Some(1),
            "round back"
        );
        assert_eq!(cycled_arrow(&[], None, true), None);
    }
}
