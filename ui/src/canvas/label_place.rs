//! Where arrow labels sit so that none lies over another or over a card: each label is pinned to
//! a point of its arrow, the middle first; when that box would meet a label already placed or a
//! card, the next point along the arrow is tried (a little towards either end, then further),
//! and then the same points with the label extending to one side of its point instead of
//! centred on it. Arrows fanning out of one card (a state with four routes) have their middles
//! close together; further along, where the arrows have spread, their labels fit side by side.
//!
//! Label sizes are estimated from their text at the canvas's text scale (the view measures
//! nothing: reading layout would cost a frame), with a margin. Pure, so tested without a browser.

use super::geometry::{LabelSide, Rect};

/// Where along its curve a label may sit, in the order tried (0 is the arrow's start, 1 its end).
pub const ALONG: [f64; 7] = [0.5, 0.38, 0.62, 0.28, 0.72, 0.2, 0.8];

/// A label's font size at 100 %, in canvas units (`.edge-tag` in style.css).
const FONT: f64 = 12.0;
/// Its line height, in fonts.
const LINE: f64 = 1.3;
/// The widest a label is, in canvas units (`max-width` in style.css: not scaled).
const MAX_WIDTH: f64 = 190.0;
/// The average width of a character of the canvas's sans-serif face, in fonts, with a margin.
const CHAR: f64 = 0.6;
/// The label's horizontal padding, in canvas units.
const PADDING: f64 = 8.0;
/// How much worse a label over a card is than over another label, where one must be.
const CARD_WEIGHT: f64 = 4.0;
/// Room kept between two labels, and between a label and a card, in canvas units.
const GAP: f64 = 3.0;

/// The size of a label of `chars` characters at text scale `scale`, in canvas units: as wide as
/// its text up to the widest a label is, then wrapped over as many lines as it takes.
pub fn estimated_size(chars: usize, scale: f64) -> (f64, f64) {
    let font = FONT * scale;
    let text = chars as f64 * CHAR * font;
    let room = MAX_WIDTH - PADDING;
    let lines = (text / room).ceil().max(1.0);
    let width = (text.min(room) + PADDING).min(MAX_WIDTH);
    (width, lines * LINE * font)
}

/// The box of a label of `size` pinned at `at`, extending as `side` says (style.css's
/// `.edge-tag` and `.side-*`).
pub fn label_box(at: (f64, f64), side: LabelSide, size: (f64, f64)) -> Rect {
    let (w, h) = size;
    let (x, y) = match side {
        LabelSide::Centred => (at.0 - w / 2.0, at.1 - h / 2.0),
        LabelSide::Left => (at.0 - w - 2.0, at.1 - h / 2.0),
        LabelSide::Right => (at.0 + 2.0, at.1 - h / 2.0),
        LabelSide::Above => (at.0 - w / 2.0, at.1 - h - 2.0),
        LabelSide::Below => (at.0 - w / 2.0, at.1 + 2.0),
    };
    Rect::new(x, y, w, h)
}

/// One label to place: the points of its arrow it may be pinned to (the middle first), which
/// way it extends, and its size.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub points: Vec<(f64, f64)>,
    pub side: LabelSide,
    pub size: (f64, f64),
}

impl Label {
    /// The places tried, in order: each point with the label's own side, then each point with
    /// the label extending each other way.
    fn candidates(&self) -> impl Iterator<Item = ((f64, f64), LabelSide)> + '_ {
        let own = self.points.iter().map(|&p| (p, self.side));
        let others = SIDES
            .iter()
            .filter(|&&side| side != self.side)
            .flat_map(|&side| self.points.iter().map(move |&p| (p, side)));
        own.chain(others)
    }
}

/// Every way a label can extend from its point, in the order tried after its own.
const SIDES: [LabelSide; 5] = [
    LabelSide::Right,
    LabelSide::Left,
    LabelSide::Above,
    LabelSide::Below,
    LabelSide::Centred,
];

/// Where a label is pinned, which way it extends from there, and whether it meets a card there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    pub at: (f64, f64),
    pub side: LabelSide,
    /// No place along its arrow is clear of the cards (two cards pushed close together by the
    /// author): the label is drawn above them, whole, rather than cut by them.
    pub over_card: bool,
}

impl Placed {
    /// A label at its arrow's middle, clear of everything.
    pub fn middle(at: (f64, f64), side: LabelSide) -> Placed {
        Placed {
            at,
            side,
            over_card: false,
        }
    }
}

/// The point each of `labels` is pinned to, in their order: for each, the first of its points
/// whose box meets neither a label placed before it nor one of `cards`; where every point meets
/// something, the one that meets least. Earlier labels keep their places, so a label moves only
/// for one that comes before it (the caller orders them the same way every time).
pub fn place(labels: &[Label], cards: &[Rect]) -> Vec<Placed> {
    let mut placed: Vec<Rect> = Vec::with_capacity(labels.len());
    let mut out = Vec::with_capacity(labels.len());
    for label in labels {
        // The best place so far, its box and how much it meets.
        let mut best: Option<(Placed, Rect, f64)> = None;
        for (point, side) in label.candidates() {
            let bx = label_box(point, side, label.size);
            let room = bx.inflate(GAP);
            // A label over a card hides the card's own words: worse than over another label.
            let overlap: f64 = placed
                .iter()
                .map(|other| overlap_area(&room, other))
                .chain(cards.iter().map(|c| CARD_WEIGHT * overlap_area(&room, c)))
                .sum();
            if best.as_ref().is_none_or(|b| overlap < b.2) {
                let at = Placed {
                    at: point,
                    side,
                    over_card: overlap > 0.0 && cards.iter().any(|c| bx.intersects(c)),
                };
                best = Some((at, bx, overlap));
            }
            if overlap == 0.0 {
                break;
            }
        }
        match best {
            Some((at, bx, _)) => {
                placed.push(bx);
                out.push(at);
            }
            None => out.push(Placed::middle((0.0, 0.0), label.side)),
        }
    }
    out
}

fn overlap_area(a: &Rect, b: &Rect) -> f64 {
    let w = a.right().min(b.right()) - a.x.max(b.x);
    let h = a.bottom().min(b.bottom()) - a.y.max(b.y);
    if w > 0.0 && h > 0.0 {
        w * h
    } else {
        0.0
    }
}

/// The point at `t` of the quadratic curve from `start` through `control` to `end`.
pub fn along(curve: [(f64, f64); 3], t: f64) -> (f64, f64) {
    let [s, c, e] = curve;
    let (a, b, d) = ((1.0 - t) * (1.0 - t), 2.0 * (1.0 - t) * t, t * t);
    (a * s.0 + b * c.0 + d * e.0, a * s.1 + b * c.1 + d * e.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canvas::geometry::{arrow_between, CARD_H, CARD_W};

    fn card(x: f64, y: f64) -> Rect {
        Rect::new(x, y, CARD_W, CARD_H)
    }

    fn label_of(from: Rect, to: Rect, chars: usize, scale: f64) -> Label {
        bent_label_of(from, to, 0.0, chars, scale)
    }

    fn bent_label_of(from: Rect, to: Rect, bend: f64, chars: usize, scale: f64) -> Label {
        let path = arrow_between(from, to, bend);
        let curve = path.curve.expect("a curve");
        Label {
            points: ALONG.iter().map(|&t| along(curve, t)).collect(),
            side: path.label_side,
            size: estimated_size(chars, scale),
        }
    }

    #[test]
    fn a_label_alone_sits_in_the_middle_of_its_arrow() {
        let (a, b) = (card(0.0, 0.0), card(440.0, 0.0));
        let label = label_of(a, b, 20, 1.0);
        let middle = Placed::middle(label.points[0], label.side);
        assert_eq!(place(&[label], &[a, b]), vec![middle]);
    }

    #[test]
    fn a_long_label_wraps_at_the_widest_a_label_is() {
        let (w, h) = estimated_size(42, 1.0);
        assert!(w <= MAX_WIDTH && w > 150.0, "{w}");
        assert!((h - 2.0 * LINE * FONT).abs() < 1e-9, "two lines: {h}");
        let (w, h) = estimated_size(6, 1.0);
        assert!(w < 60.0 && (h - LINE * FONT).abs() < 1e-9);
    }

    /// The medical intake sample's fan, as laid out: one card, five routes to a column of four
    /// cards (two to the last, bent apart), labels of up to three lines, as it opens (38 %,
    /// labels at 1.75 times their size): the middles' boxes meet, the placed ones do not, and
    /// none lies over a card.
    #[test]
    fn the_labels_of_a_fan_of_arrows_spread_along_them_until_none_meets_another() {
        let source = card(440.0, 260.0);
        let targets: Vec<Rect> = [-40.0, 180.0, 380.0, 600.0]
            .iter()
            .map(|&y| card(980.0, y))
            .collect();
        let labels = vec![
            label_of(source, targets[0], 39, 1.75),
            label_of(source, targets[1], 21, 1.75),
            label_of(source, targets[2], 43, 1.75),
            bent_label_of(source, targets[3], -19.0, 33, 1.75),
            bent_label_of(source, targets[3], 19.0, 22, 1.75),
        ];
        let boxes_at = |places: &[Placed]| -> Vec<Rect> {
            places
                .iter()
                .zip(&labels)
                .map(|(p, l)| label_box(p.at, p.side, l.size))
                .collect()
        };
        let middles: Vec<Placed> = labels
            .iter()
            .map(|l| Placed::middle(l.points[0], l.side))
            .collect();
        let meets = |boxes: &[Rect]| {
            (0..boxes.len()).any(|i| (i + 1..boxes.len()).any(|j| boxes[i].intersects(&boxes[j])))
        };
        assert!(meets(&boxes_at(&middles)), "the test's fan is crowded");
        let mut cards = targets.clone();
        cards.push(source);
        let placed = place(&labels, &cards);
        let boxes = boxes_at(&placed);
        assert!(!meets(&boxes), "{placed:?}");
        for b in &boxes {
            assert!(cards.iter().all(|c| !b.intersects(c)), "{b:?} over a card");
        }
        assert!(placed.iter().all(|p| !p.over_card), "{placed:?}");
        assert_eq!(placed[0], middles[0], "the first keeps its middle");
    }

    #[test]
    fn labels_that_cannot_all_fit_take_the_places_where_they_meet_least() {
        let (a, b) = (card(0.0, 0.0), card(200.0, 0.0));
        let label = label_of(a, b, 40, 3.0);
        let placed = place(&[label.clone(), label.clone()], &[]);
        assert_eq!(placed[0].at, label.points[0]);
        assert_ne!(placed[1], placed[0], "the second moves as far as it can");
    }

    #[test]
    fn a_label_between_cards_pushed_together_is_drawn_over_them_and_one_with_room_is_not() {
        // Twins: 24 units between the cards (a drag put them there), then auto-layout's 200.
        let (a, b) = (card(0.0, 0.0), card(CARD_W + 24.0, 0.0));
        let label = label_of(a, b, 19, 1.0);
        let placed = place(std::slice::from_ref(&label), &[a, b]);
        assert!(placed[0].over_card, "{placed:?}");
        let (a, b) = (card(0.0, 0.0), card(CARD_W + 200.0, 0.0));
        let label = label_of(a, b, 19, 1.0);
        let placed = place(&[label], &[a, b]);
        assert!(!placed[0].over_card, "{placed:?}");
    }
}
