//! Where a new card goes ([`Wanted`]): where the author pointed (a double-click, a drop), the
//! middle of the view, or beside the selected card; moved to the nearest place where it covers no
//! other card. A place the app chooses also keeps room for an arrow and its label between the
//! new card and its neighbours ([`ROOM_ACROSS`], [`ROOM_DOWN`], auto-layout's spacing): a card
//! squeezed in [`GAP`] beside another leaves an arrow between them too short for its label, which
//! the cards then cut. A card added beside another also keeps the way from that card clear of
//! other cards, so the arrow the author draws next runs in the open. Pure, so it is tested
//! without a browser.

use super::{CARD_H, CARD_W};
use crate::layout::{COLUMN_SPACING, ROW_SPACING};
use crate::plan::Position;

/// The space kept free around a card, in canvas units.
pub const GAP: f64 = 24.0;

/// The room kept, where there is room, between a new card and a card beside it (left or right):
/// auto-layout's, wider than the widest arrow label (190 units, wrapped past that).
pub const ROOM_ACROSS: f64 = COLUMN_SPACING - CARD_W;

/// The room kept, where there is room, between a new card and a card above or below it:
/// auto-layout's, for a label's lines beside an arrow running down between them.
pub const ROOM_DOWN: f64 = ROW_SPACING - CARD_H;

/// How far a new card goes right of the card it is added beside, as auto-layout's next column
/// does, to the canvas's grid.
pub const BESIDE: f64 = CARD_W + 204.0;

// A card added beside another keeps the room any card the app places keeps.
const _: () = assert!(BESIDE - CARD_W >= ROOM_ACROSS);

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

/// Where a new card is asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Wanted {
    /// At a place the author pointed to (its top-left corner): kept there when nothing is in the
    /// way, else moved only clear of other cards.
    Pointed(Position),
    /// At a place the app chose (the middle of the view): room kept around it, where there is.
    Chosen(Position),
    /// Beside the card with this box: right of it, room kept, and the way from it clear.
    Beside(Area),
}

/// Whether a card at `a` and the box `b` overlap or come closer than [`GAP`].
fn crowds(a: Position, b: &Area) -> bool {
    closer(a, b, GAP, GAP)
}

/// Whether a card at `a` and the box `b` come closer than [`ROOM_ACROSS`] side by side or
/// [`ROOM_DOWN`] one above the other: too close for an arrow's label between them.
fn cramps(a: Position, b: &Area) -> bool {
    closer(a, b, ROOM_ACROSS, ROOM_DOWN)
}

/// Whether a card at `a` (its top-left corner) and the box `b` come closer than `across` apart
/// left to right or `down` apart top to bottom (or overlap).
fn closer(a: Position, b: &Area, across: f64, down: f64) -> bool {
    a.x < b.x + b.w + across
        && b.x < a.x + CARD_W + across
        && a.y < b.y + b.h + down
        && b.y < a.y + CARD_H + down
}

/// The place nearest to where a new card is `wanted` (its top-left corner) where it crowds none
/// of `taken` (the cards and other boxes on the canvas), inside `on_screen` when one is given and
/// a place within reach lies there. Nearest first; among equally near places, right and then down
/// before left and up, so a card added beside another goes on along the flow. In order of
/// preference, each first on screen and then anywhere within reach: with room for arrows' labels
/// around it (and, beside a card, the way from that card clear), then only free. A pointed place
/// needs only to be free.
pub fn free_place(taken: &[Area], wanted: Wanted, on_screen: Option<Area>) -> Position {
    let (asked, from, roomy_wanted) = match wanted {
        Wanted::Pointed(at) => (at, None, false),
        Wanted::Chosen(at) => (at, None, true),
        Wanted::Beside(card) => (beside(card), Some(card), true),
    };
    let start = on_screen.map_or(asked, |a| a.pull_in(asked));
    let reach = f64::from(REACH) * STEP + CARD_W + ROOM_ACROSS;
    let near: Vec<&Area> = taken
        .iter()
        .filter(|b| (b.x - start.x).abs() <= reach + b.w && (b.y - start.y).abs() <= reach + b.h)
        .collect();
    let free = |at: Position| !near.iter().any(|b| crowds(at, b));
    let roomy = |at: Position| {
        !near.iter().any(|b| cramps(at, b)) && from.is_none_or(|f| way_is_clear(&f, at, &near))
    };
    let inside = |p: Position| on_screen.is_none_or(|a| a.holds(p));
    let order = search_order();
    // A pointed place wants free only: the tiers with room accept nothing then.
    let roomy_on_screen = |p: Position| roomy_wanted && inside(p) && roomy(p);
    let roomy_anywhere = |p: Position| roomy_wanted && roomy(p);
    nearest(&order, start, roomy_on_screen)
        .or_else(|| nearest(&order, start, |p| inside(p) && free(p)))
        .or_else(|| nearest(&order, start, roomy_anywhere))
        .or_else(|| nearest(&order, start, free))
        .unwrap_or(start)
}

/// Whether the straight way from the middle of `from` to the middle of a card at `to` meets no
/// box of `near` but `from` itself.
fn way_is_clear(from: &Area, to: Position, near: &[&Area]) -> bool {
    let a = (from.x + from.w / 2.0, from.y + from.h / 2.0);
    let b = (to.x + CARD_W / 2.0, to.y + CARD_H / 2.0);
    near.iter()
        .filter(|n| **n != from)
        .all(|n| !segment_meets(a, b, n))
}

/// Whether the segment from `a` to `b` meets the box `r` (the slab method).
fn segment_meets(a: (f64, f64), b: (f64, f64), r: &Area) -> bool {
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, d, lo, hi) in [
        (a.0, b.0 - a.0, r.x, r.x + r.w),
        (a.1, b.1 - a.1, r.y, r.y + r.h),
    ] {
        if d.abs() < 1e-9 {
            if p < lo || p > hi {
                return false;
            }
            continue;
        }
        let (u, v) = ((lo - p) / d, (hi - p) / d);
        t0 = t0.max(u.min(v));
        t1 = t1.min(u.max(v));
        if t0 > t1 {
            return false;
        }
    }
    true
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
    nearest(&search_order(), wanted, fits).unwrap_or(wanted)
}

/// The steps from a wanted place the search tries, up to [`REACH`] steps each way: by distance,
/// right and down first among equals.
fn search_order() -> Vec<(i32, i32)> {
    let mut offsets: Vec<(i32, i32)> = (-REACH..=REACH)
        .flat_map(|i| (-REACH..=REACH).map(move |j| (i, j)))
        .filter(|&(i, j)| i != 0 || j != 0)
        .collect();
    offsets.sort_by_key(|&(i, j)| (i * i + j * j, -i, -j));
    offsets
}

/// The first place from `start` outwards, in steps of [`STEP`] in the `order` of
/// [`search_order`], that `ok` accepts: `start` itself first.
fn nearest(
    order: &[(i32, i32)],
    start: Position,
    ok: impl Fn(Position) -> bool,
) -> Option<Position> {
    if ok(start) {
        return Some(start);
    }
    order
        .iter()
        .map(|&(i, j)| Position {
            x: start.x + f64::from(i) * STEP,
            y: start.y + f64::from(j) * STEP,
        })
        .find(|&p| ok(p))
}

/// Where a card added beside the card `from` is first wanted: to its right, level with it.
fn beside(from: Area) -> Position {
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

    fn roomy_from_all(taken: &[Area], at: Position) -> bool {
        !taken.iter().any(|b| cramps(at, b))
    }

    fn pointed(x: f64, y: f64) -> Wanted {
        Wanted::Pointed(Position { x, y })
    }

    #[test]
    fn a_free_place_is_kept_as_asked() {
        let taken = [card(0.0, 0.0)];
        let at = Position { x: 600.0, y: 0.0 };
        assert_eq!(free_place(&taken, Wanted::Pointed(at), None), at);
        assert_eq!(free_place(&taken, Wanted::Chosen(at), None), at);
        // Pointed 48 units right of a card: free, so kept, although an arrow's label would
        // not fit between them; the place the app chooses keeps that room.
        let near = Position {
            x: CARD_W + 48.0,
            y: 0.0,
        };
        assert_eq!(free_place(&taken, Wanted::Pointed(near), None), near);
        let chosen = free_place(&taken, Wanted::Chosen(near), None);
        assert!(roomy_from_all(&taken, chosen), "{chosen:?}");
    }

    #[test]
    fn a_card_asked_on_top_of_another_goes_to_the_nearest_free_place_beside_it() {
        let taken = [card(0.0, 0.0)];
        let at = free_place(&taken, pointed(12.0, 12.0), None);
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
        for wanted in [
            pointed(1200.0, 600.0),
            Wanted::Chosen(Position {
                x: 1200.0,
                y: 600.0,
            }),
        ] {
            let at = free_place(&taken, wanted, None);
            assert!(covers_none(&taken, at), "{at:?}");
        }
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
        let at = free_place(&[], pointed(950.0, 580.0), Some(screen));
        assert!(screen.holds(at), "{at:?}");
        // Asked for on a card near the edge: moved, and still on screen.
        let taken = [card(700.0, 400.0)];
        let at = free_place(&taken, pointed(740.0, 440.0), Some(screen));
        assert!(screen.holds(at) && covers_none(&taken, at), "{at:?}");
    }

    #[test]
    fn a_view_with_room_only_for_a_cramped_card_gets_the_cramped_card_on_screen() {
        // The view holds two cards side by side with 40 units between them and no more: the
        // card the app places still goes on screen, free of both, rather than off screen with
        // room.
        let screen = Area {
            x: 0.0,
            y: 0.0,
            w: CARD_W * 3.0 + 80.0,
            h: CARD_H,
        };
        let taken = [card(0.0, 0.0), card(CARD_W * 2.0 + 80.0, 0.0)];
        let middle = Wanted::Chosen(Position { x: 0.0, y: 0.0 });
        let at = free_place(&taken, middle, Some(screen));
        assert!(screen.holds(at) && covers_none(&taken, at), "{at:?}");
        assert!(!roomy_from_all(&taken, at), "{at:?}");
        // Without the view's limit, the card keeps its room.
        let at = free_place(&taken, middle, None);
        assert!(roomy_from_all(&taken, at), "{at:?}");
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
    fn a_card_added_beside_another_goes_right_of_it_as_auto_layout_spaces_columns() {
        let first = card(0.0, 0.0);
        let second = free_place(&[first], Wanted::Beside(first), None);
        assert_eq!(second, Position { x: BESIDE, y: 0.0 });
        // A third beside the first, where the second stands: the nearest free place, not on it.
        let taken = [first, card(second.x, second.y)];
        let third = free_place(&taken, Wanted::Beside(first), None);
        assert!(roomy_from_all(&taken[1..], third), "{third:?}");
    }

    #[test]
    fn a_card_added_where_the_place_beside_is_taken_keeps_room_and_a_clear_way() {
        // Order, Confirm beside it, Order placed beside Confirm; then a fourth card beside
        // Confirm, where Order placed stands. The nearest place merely free lies 24 units from a
        // card, where an arrow between the two is too short for its label; a place straight
        // above or below Order placed puts it in the way of the arrow from Confirm. The card
        // goes where there is room and the way from Confirm is clear.
        let order = card(0.0, 0.0);
        let confirm = card(BESIDE, 0.0);
        let placed = card(2.0 * BESIDE, 0.0);
        let taken = [order, confirm, placed];
        let at = free_place(&taken, Wanted::Beside(confirm), None);
        assert!(roomy_from_all(&[order, placed], at), "{at:?}");
        assert!(way_is_clear(&confirm, at, &[&order, &placed]), "{at:?}");
        // Still near: within a column and a row of where it was wanted.
        assert!((at.x - placed.x).abs() <= BESIDE, "{at:?}");
        assert!(
            (at.y - placed.y).abs() <= CARD_H + ROOM_DOWN + 2.0 * STEP,
            "{at:?}"
        );
    }

    #[test]
    fn a_way_meets_the_boxes_it_crosses_and_not_those_beside_it() {
        let b = card(100.0, 0.0);
        assert!(segment_meets((0.0, 50.0), (500.0, 50.0), &b));
        assert!(!segment_meets((0.0, 150.0), (500.0, 150.0), &b));
        assert!(segment_meets((0.0, -50.0), (500.0, 150.0), &b));
        assert!(!segment_meets((0.0, 50.0), (90.0, 50.0), &b));
        // Straight down, through and beside.
        assert!(segment_meets((200.0, -100.0), (200.0, 300.0), &b));
        assert!(!segment_meets((50.0, -100.0), (50.0, 300.0), &b));
    }
}
