//! Where a new card goes: where the author asked (a click, the middle of the view, beside the
//! selected card), moved to the nearest place where it covers no other card and, when it fits,
//! lies wholly inside the part of the canvas on screen. Pure, so it is tested without a browser.

use super::{CARD_H, CARD_W};
use crate::plan::Position;

/// The space kept free around a card, in canvas units.
pub const GAP: f64 = 24.0;

/// How far a new card goes right of the card it is added beside (room for an arrow and its label).
pub const BESIDE: f64 = CARD_W + 96.0;

/// The step the search moves in: the canvas grid's, twice, so places stay on the grid.
const STEP: f64 = 24.0;

/// How many steps from the wanted place the search goes before it gives up on staying on screen.
const REACH: i32 = 60;

/// The most pasted cards [`free_offset`] moves clear of the others.
pub const GROUP_SEARCHED: usize = 50;

/// A rectangle of the canvas, in canvas units: its top-left corner and size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Area {
    /// Whether a card with its top-left corner at `at` lies wholly inside.
    fn holds(&self, at: Position) -> bool {
        at.x >= self.x
            && at.y >= self.y
            && at.x + CARD_W <= self.x + self.w
            && at.y + CARD_H <= self.y + self.h
    }

    /// `at` moved the least so that a card there lies inside, when a card fits at all.
    fn pull_in(&self, at: Position) -> Position {
        if self.w < CARD_W || self.h < CARD_H {
            return at;
        }
        Position {
            x: at.x.clamp(self.x, self.x + self.w - CARD_W),
            y: at.y.clamp(self.y, self.y + self.h - CARD_H),
        }
    }
}

/// Whether a card at `a` and one at `b` (top-left corners; `b` of size `size`) overlap or come
/// closer than [`GAP`].
fn crowds(a: Position, b: &Area) -> bool {
    a.x < b.x + b.w + GAP
        && b.x < a.x + CARD_W + GAP
        && a.y < b.y + b.h + GAP
        && b.y < a.y + CARD_H + GAP
}

/// The place nearest to `wanted` (a card's top-left corner) where a new card crowds none of
/// `taken` (the cards and other boxes on the canvas), inside `on_screen` when one is given and a
/// free place within reach lies there. Nearest first; among equally near places, right and then
/// down before left and up, so a card added beside another goes on along the flow.
pub fn free_place(taken: &[Area], wanted: Position, on_screen: Option<Area>) -> Position {
    let start = on_screen.map_or(wanted, |a| a.pull_in(wanted));
    let near: Vec<&Area> = taken
        .iter()
        .filter(|b| {
            let reach = f64::from(REACH) * STEP + CARD_W + GAP;
            (b.x - start.x).abs() <= reach + b.w && (b.y - start.y).abs() <= reach + b.h
        })
        .collect();
    let free = |at: Position| !near.iter().any(|b| crowds(at, b));
    let inside = |p: Position| on_screen.is_none_or(|a| a.holds(p));
    nearest(start, |p| inside(p) && free(p))
        .or_else(|| nearest(start, free))
        .unwrap_or(start)
}

/// The offset nearest to `wanted` by which cards at `group` (top-left corners: pasted copies)
/// can be moved so that none of them crowds any of `taken`. A group of more than
/// [`GROUP_SEARCHED`] cards keeps `wanted`: the search grows with both counts, and a paste is a
/// click, not a wait.
pub fn free_offset(taken: &[Area], group: &[Position], wanted: Position) -> Position {
    if group.len() > GROUP_SEARCHED {
        return wanted;
    }
    // Only boxes within reach of the group can be in the way.
    let reach = f64::from(REACH) * STEP + CARD_W + GAP;
    let (x0, y0, x1, y1) = group.iter().fold(
        (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
        |(a, b, c, d), g| (a.min(g.x), b.min(g.y), c.max(g.x), d.max(g.y)),
    );
    let taken: Vec<&Area> = taken
        .iter()
        .filter(|b| {
            b.x + b.w >= x0 + wanted.x - reach
                && b.x <= x1 + wanted.x + reach
                && b.y + b.h >= y0 + wanted.y - reach
                && b.y <= y1 + wanted.y + reach
        })
        .collect();
    let fits = |d: Position| {
        group.iter().all(|g| {
            let at = Position {
                x: g.x + d.x,
                y: g.y + d.y,
            };
            !taken.iter().any(|b| crowds(at, b))
        })
    };
    nearest(wanted, fits).unwrap_or(wanted)
}

/// The first place from `start` outwards, in steps of [`STEP`] up to [`REACH`] steps, that `ok`
/// accepts: `start` itself first, then by distance, right and down first among equals.
fn nearest(start: Position, ok: impl Fn(Position) -> bool) -> Option<Position> {
    if ok(start) {
        return Some(start);
    }
    let mut offsets: Vec<(i32, i32)> = (-REACH..=REACH)
        .flat_map(|i| (-REACH..=REACH).map(move |j| (i, j)))
        .filter(|&(i, j)| i != 0 || j != 0)
        .collect();
    offsets.sort_by_key(|&(i, j)| (i * i + j * j, -i, -j));
    offsets
        .into_iter()
        .map(|(i, j)| Position {
            x: start.x + f64::from(i) * STEP,
            y: start.y + f64::from(j) * STEP,
        })
        .find(|&p| ok(p))
}

/// Where a card added beside the card at `from` is wanted: to its right, level with it.
pub fn beside(from: Position) -> Position {
    Position {
        x: from.x + BESIDE,
        y: from.y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(x: f64, y: f64) -> Area {
        Area {
            x,
            y,
            w: CARD_W,
            h: CARD_H,
        }
    }

    fn covers_none(taken: &[Area], at: Position) -> bool {
        !taken.iter().any(|b| crowds(at, b))
    }

    #[test]
    fn a_free_place_is_kept_as_asked() {
        let taken = [card(0.0, 0.0)];
        let at = Position { x: 600.0, y: 0.0 };
        assert_eq!(free_place(&taken, at, None), at);
    }

    #[test]
    fn a_card_asked_on_top_of_another_goes_to_the_nearest_free_place_beside_it() {
        let taken = [card(0.0, 0.0)];
        let at = free_place(&taken, Position { x: 12.0, y: 12.0 }, None);
        assert!(covers_none(&taken, at), "{at:?}");
        let moved = ((at.x - 12.0).powi(2) + (at.y - 12.0).powi(2)).sqrt();
        assert!(moved <= CARD_W + GAP + STEP, "moved {moved}");
    }

    #[test]
    fn a_crowded_canvas_still_gets_a_card_that_covers_nothing() {
        // A 10 × 10 block of cards with no room between them, asked for in its middle.
        let taken: Vec<Area> = (0..10)
            .flat_map(|i| (0..10).map(move |j| card(f64::from(i) * 264.0, f64::from(j) * 128.0)))
            .collect();
        let at = free_place(
            &taken,
            Position {
                x: 1200.0,
                y: 600.0,
            },
            None,
        );
        assert!(covers_none(&taken, at), "{at:?}");
    }

    #[test]
    fn a_card_stays_wholly_on_screen_when_there_is_room_there() {
        let screen = Area {
            x: 0.0,
            y: 0.0,
            w: 1000.0,
            h: 600.0,
        };
        // Asked for at the right edge: pulled in so that all of it shows.
        let at = free_place(&[], Position { x: 950.0, y: 580.0 }, Some(screen));
        assert!(screen.holds(at), "{at:?}");
        // Asked for on a card near the edge: moved, and still on screen.
        let taken = [card(700.0, 400.0)];
        let at = free_place(&taken, Position { x: 740.0, y: 440.0 }, Some(screen));
        assert!(screen.holds(at) && covers_none(&taken, at), "{at:?}");
    }

    #[test]
    fn pasted_copies_move_as_one_until_none_covers_a_card() {
        // Two cards copied, pasted 48 units down and right of where they were: they would
        // cover the originals, so the copies move on, together, to where they cover nothing.
        let taken = [card(0.0, 0.0), card(0.0, 200.0)];
        let group = [Position { x: 0.0, y: 0.0 }, Position { x: 0.0, y: 200.0 }];
        let d = free_offset(&taken, &group, Position { x: 48.0, y: 48.0 });
        for g in group {
            let at = Position {
                x: g.x + d.x,
                y: g.y + d.y,
            };
            assert!(covers_none(&taken, at), "{d:?}");
        }
        assert_eq!(
            free_offset(&[], &group, Position { x: 48.0, y: 48.0 }),
            Position { x: 48.0, y: 48.0 }
        );
    }

    #[test]
    fn a_card_added_beside_another_goes_right_of_it_and_on_along_a_row() {
        let first = Position { x: 0.0, y: 0.0 };
        let taken = [card(0.0, 0.0)];
        let second = free_place(&taken, beside(first), None);
        assert_eq!(second, beside(first));
        // A third beside the first, where the second stands: the nearest free place, not on it.
        let taken = [card(0.0, 0.0), card(second.x, second.y)];
        let third = free_place(&taken, beside(first), None);
        assert!(covers_none(&taken, third), "{third:?}");
    }
}
