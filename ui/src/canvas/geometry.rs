//! Pure canvas geometry: rectangles, the viewport (pan and zoom), and the paths of arrows.
//!
//! World coordinates are canvas units, the ones stored in a plan's `layout`; screen coordinates are
//! CSS pixels inside the canvas element. `screen = world * zoom + offset`.

/// Size of a state card, in canvas units.
pub const CARD_W: f64 = 240.0;
pub const CARD_H: f64 = 104.0;
/// Zoom limits: from a whole-plan overview to reading small print.
pub const MIN_ZOOM: f64 = 0.01;
pub const MAX_ZOOM: f64 = 2.5;

/// Cards snap to this grid (canvas units) when moved or added.
pub const GRID: f64 = 12.0;

/// `v` on the grid.
pub fn snap(v: f64) -> f64 {
    (v / GRID).round() * GRID
}

/// An axis-aligned rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn center(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    pub fn right(&self) -> f64 {
        self.x + self.w
    }

    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }

    /// Whether the two rectangles overlap (touching counts).
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x <= other.right()
            && other.x <= self.right()
            && self.y <= other.bottom()
            && other.y <= self.bottom()
    }

    /// The smallest rectangle holding both.
    /// Whether `other` lies wholly inside this rectangle.
    pub fn contains(&self, other: &Rect) -> bool {
        other.x >= self.x
            && other.y >= self.y
            && other.right() <= self.right()
            && other.bottom() <= self.bottom()
    }

    pub fn union(&self, other: &Rect) -> Rect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        Rect::new(
            x,
            y,
            self.right().max(other.right()) - x,
            self.bottom().max(other.bottom()) - y,
        )
    }

    /// The rectangle grown by `m` on every side.
    pub fn inflate(&self, m: f64) -> Rect {
        Rect::new(self.x - m, self.y - m, self.w + 2.0 * m, self.h + 2.0 * m)
    }

    /// Where the line from the centre towards `p` leaves the rectangle.
    pub fn boundary_toward(&self, p: (f64, f64)) -> (f64, f64) {
        let (cx, cy) = self.center();
        let (dx, dy) = (p.0 - cx, p.1 - cy);
        if dx == 0.0 && dy == 0.0 {
            return (cx, cy);
        }
        let sx = if dx != 0.0 {
            (self.w / 2.0) / dx.abs()
        } else {
            f64::INFINITY
        };
        let sy = if dy != 0.0 {
            (self.h / 2.0) / dy.abs()
        } else {
            f64::INFINITY
        };
        let s = sx.min(sy);
        (cx + dx * s, cy + dy * s)
    }
}

/// The bounding box of a set of rectangles, or `None` for none.
pub fn bounds(rects: impl IntoIterator<Item = Rect>) -> Option<Rect> {
    rects.into_iter().reduce(|a, b| a.union(&b))
}

/// What part of the world the canvas shows, and how large.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    /// Screen position of the world origin.
    pub x: f64,
    pub y: f64,
    pub zoom: f64,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport {
            x: 0.0,
            y: 0.0,
            zoom: 1.0,
        }
    }
}

impl Viewport {
    pub fn to_world(self, p: (f64, f64)) -> (f64, f64) {
        ((p.0 - self.x) / self.zoom, (p.1 - self.y) / self.zoom)
    }

    pub fn to_screen(self, p: (f64, f64)) -> (f64, f64) {
        (p.0 * self.zoom + self.x, p.1 * self.zoom + self.y)
    }

    /// Moved by a screen distance.
    pub fn panned(&self, dx: f64, dy: f64) -> Viewport {
        Viewport {
            x: self.x + dx,
            y: self.y + dy,
            zoom: self.zoom,
        }
    }

    /// Zoomed by `factor` around the screen point `at`, which stays where it is.
    pub fn zoomed_at(&self, at: (f64, f64), factor: f64) -> Viewport {
        let zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        let world = self.to_world(at);
        Viewport {
            x: at.0 - world.0 * zoom,
            y: at.1 - world.1 * zoom,
            zoom,
        }
    }

    /// Shows all of `content` centred in a canvas of `size` with `margins` kept clear, never
    /// magnified past 100 % (a small plan should not look blown up).
    pub fn fitting(content: Rect, size: (f64, f64), margins: Margins) -> Viewport {
        let avail_w = (size.0 - margins.left - margins.right).max(1.0);
        let avail_h = (size.1 - margins.top - margins.bottom).max(1.0);
        let zoom = (avail_w / content.w.max(1.0))
            .min(avail_h / content.h.max(1.0))
            .clamp(MIN_ZOOM, 1.0);
        let (cx, cy) = content.center();
        Viewport {
            x: margins.left + avail_w / 2.0 - cx * zoom,
            y: margins.top + avail_h / 2.0 - cy * zoom,
            zoom,
        }
    }

    /// The same view in a canvas resized from `before` to `after`: the point that was in the
    /// middle stays in the middle, so a panel that opens, folds or widens never moves the plan
    /// out from under the author's eyes.
    pub fn resized(&self, before: (f64, f64), after: (f64, f64)) -> Viewport {
        Viewport {
            x: self.x + (after.0 - before.0) / 2.0,
            y: self.y + (after.1 - before.1) / 2.0,
            zoom: self.zoom,
        }
    }

    /// The world rectangle visible in a canvas of `size`.
    pub fn visible(&self, size: (f64, f64)) -> Rect {
        let (x, y) = self.to_world((0.0, 0.0));
        Rect::new(x, y, size.0 / self.zoom, size.1 / self.zoom)
    }
}

/// Screen pixels kept clear on each side of a fitted plan (for the minimap and the zoom buttons).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Margins {
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub left: f64,
}

impl Margins {
    /// The same margin on every side.
    pub fn even(pad: f64) -> Margins {
        Margins {
            top: pad,
            right: pad,
            bottom: pad,
            left: pad,
        }
    }
}

/// Which way an arrow's label extends from the point it is pinned to: centred on it, or, for an
/// arrow bent away from a twin (a two-way pair, parallel arrows), away from the straight line
/// between the cards, so that the twins' labels sit side by side instead of over each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LabelSide {
    #[default]
    Centred,
    Left,
    Right,
    Above,
    Below,
}

impl LabelSide {
    /// The side of the label box's pin for a curve bent by `bend` along `normal`.
    fn of(normal: (f64, f64), bend: f64) -> LabelSide {
        if bend == 0.0 {
            return LabelSide::Centred;
        }
        let (x, y) = (normal.0 * bend.signum(), normal.1 * bend.signum());
        match (x.abs() >= y.abs(), x > 0.0, y > 0.0) {
            (true, true, _) => LabelSide::Right,
            (true, false, _) => LabelSide::Left,
            (false, _, true) => LabelSide::Below,
            (false, _, false) => LabelSide::Above,
        }
    }

    /// The class the view gives the label (`side-left`, …); none when centred.
    pub fn class(self) -> &'static str {
        match self {
            LabelSide::Centred => "",
            LabelSide::Left => "side-left",
            LabelSide::Right => "side-right",
            LabelSide::Above => "side-above",
            LabelSide::Below => "side-below",
        }
    }
}

/// An arrow's drawing: an SVG path and where its label sits.
#[derive(Debug, Clone, PartialEq)]
pub struct ArrowPath {
    pub d: String,
    pub label_at: (f64, f64),
    /// Which way the label extends from `label_at`.
    pub label_side: LabelSide,
    /// Where the arrow's head is (its end, which can be dragged to re-target it).
    pub end: (f64, f64),
    /// The quadratic curve drawn (start, control point, end), along which the label may move
    /// to keep clear of others (`label_place`); none for a loop or a stub, whose label stays.
    pub curve: Option<[(f64, f64); 3]>,
}

/// A curved arrow between two cards. `bend` moves the curve's middle sideways (in canvas units,
/// to the left of the direction of travel) so that parallel and two-way arrows do not overlap.
pub fn arrow_between(from: Rect, to: Rect, bend: f64) -> ArrowPath {
    let (fc, tc) = (from.center(), to.center());
    let (dx, dy) = (tc.0 - fc.0, tc.1 - fc.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let normal = (-dy / len, dx / len);
    let mid = ((fc.0 + tc.0) / 2.0, (fc.1 + tc.1) / 2.0);
    let control = (mid.0 + normal.0 * bend * 2.0, mid.1 + normal.1 * bend * 2.0);
    let start = from.boundary_toward(control);
    let end = to.boundary_toward(control);
    // The label sits on the curve's midpoint (t = 0.5 of the quadratic Bézier).
    let label_at = (
        0.25 * start.0 + 0.5 * control.0 + 0.25 * end.0,
        0.25 * start.1 + 0.5 * control.1 + 0.25 * end.1,
    );
    ArrowPath {
        d: path_data(&[('M', start), ('Q', control), (' ', end)]),
        label_at,
        label_side: LabelSide::of(normal, bend),
        end,
        curve: Some([start, control, end]),
    }
}

/// SVG path data from commands and their points, each coordinate to a tenth of a unit
/// ("M240.0,52.0 Q320.0,52.0 400.0,52.0"; a space command letter continues the last command).
/// Written by hand rather than with `format!("{:.1}")`: exact float formatting was the largest
/// part of building the arrows of a large plan's scene (at every open and every structural edit).
fn path_data(points: &[(char, (f64, f64))]) -> String {
    let mut d = String::with_capacity(points.len() * 16);
    for (i, (command, (x, y))) in points.iter().enumerate() {
        if i > 0 {
            d.push(' ');
        }
        if *command != ' ' {
            d.push(*command);
        }
        push_tenths(&mut d, *x);
        d.push(',');
        push_tenths(&mut d, *y);
    }
    d
}

/// Appends `v` rounded to one decimal place, as `{:.1}` writes it.
pub fn push_tenths(out: &mut String, v: f64) {
    use std::fmt::Write;
    let tenths = (v * 10.0).round();
    if !tenths.is_finite() || tenths.abs() >= 1e15 {
        let _ = write!(out, "{v:.1}");
        return;
    }
    let tenths = tenths as i64;
    if tenths < 0 {
        out.push('-');
    }
    let a = tenths.unsigned_abs();
    let _ = write!(out, "{}", a / 10);
    out.push('.');
    out.push(char::from(b'0' + (a % 10) as u8));
}

/// A loop from a card back to itself, above its top edge; `nth` stacks several loops outward.
pub fn self_loop(card: Rect, nth: usize) -> ArrowPath {
    let grow = 34.0 * nth as f64;
    let x1 = card.x + card.w * 0.62;
    let x2 = card.x + card.w * 0.86;
    let top = card.y - 46.0 - grow;
    let d = path_data(&[
        ('M', (x1, card.y)),
        ('C', (x1 - 10.0, top)),
        (' ', (x2 + 10.0, top)),
        (' ', (x2, card.y)),
    ]);
    ArrowPath {
        d,
        label_at: ((x1 + x2) / 2.0, top + 10.0),
        label_side: LabelSide::Centred,
        end: (x2, card.y),
        curve: None,
    }
}

/// An arrow to a state that does not exist: a short stub to the right of the card.
pub fn dangling(from: Rect, nth: usize) -> ArrowPath {
    let y = from.y + 18.0 + 16.0 * nth as f64;
    let (x1, x2) = (from.right(), from.right() + 90.0);
    ArrowPath {
        d: path_data(&[('M', (x1, y)), ('L', (x2, y))]),
        label_at: (x2 + 4.0, y),
        label_side: LabelSide::Centred,
        end: (x2, y),
        curve: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9
    }

    #[test]
    fn zooming_keeps_the_point_under_the_cursor_in_place() {
        let vp = Viewport {
            x: 30.0,
            y: -12.0,
            zoom: 0.8,
        };
        let cursor = (400.0, 250.0);
        let before = vp.to_world(cursor);
        let after = vp.zoomed_at(cursor, 1.25);
        assert!((after.zoom - 1.0).abs() < 1e-12);
        assert!(close(after.to_world(cursor), before));
    }

    #[test]
    fn zoom_stays_within_its_limits() {
        let vp = Viewport::default();
        assert_eq!(vp.zoomed_at((0.0, 0.0), 100.0).zoom, MAX_ZOOM);
        assert_eq!(vp.zoomed_at((0.0, 0.0), 0.0001).zoom, MIN_ZOOM);
    }

    #[test]
    fn fitting_shows_all_content_centred_and_never_magnifies() {
        let content = Rect::new(-100.0, 50.0, 2000.0, 600.0);
        let size = (1000.0, 700.0);
        let vp = Viewport::fitting(content, size, Margins::even(40.0));
        let seen = vp.visible(size);
        assert!(seen.x <= content.x && seen.right() >= content.right());
        assert!(seen.y <= content.y && seen.bottom() >= content.bottom());
        let c = vp.to_screen(content.center());
        assert!(close(c, (500.0, 350.0)));
        let small = Viewport::fitting(Rect::new(0.0, 0.0, 100.0, 50.0), size, Margins::even(40.0));
        assert_eq!(small.zoom, 1.0);
        // Margins of different sizes: the content sits in the middle of what they leave.
        let clear = Margins {
            bottom: 140.0,
            ..Margins::even(20.0)
        };
        let low = Viewport::fitting(content, size, clear);
        let seen = low.visible((size.0, size.1 - 140.0));
        assert!(seen.y <= content.y && seen.bottom() >= content.bottom());
        assert!(close(low.to_screen(content.center()), (500.0, 290.0)));
    }

    #[test]
    fn a_resized_canvas_keeps_its_middle() {
        let vp = Viewport {
            x: 30.0,
            y: -12.0,
            zoom: 0.4,
        };
        let (before, after) = ((700.0, 600.0), (1040.0, 580.0));
        let middle = vp.to_world((350.0, 300.0));
        let resized = vp.resized(before, after);
        assert!(close(resized.to_screen(middle), (520.0, 290.0)));
        assert_eq!(resized.zoom, vp.zoom);
    }

    #[test]
    fn an_arrow_starts_and_ends_on_the_card_borders() {
        let a = Rect::new(0.0, 0.0, CARD_W, CARD_H);
        let b = Rect::new(400.0, 0.0, CARD_W, CARD_H);
        let arrow = arrow_between(a, b, 0.0);
        assert_eq!(arrow.d, "M240.0,52.0 Q320.0,52.0 400.0,52.0");
        assert!(close(arrow.label_at, (320.0, 52.0)));
    }

    #[test]
    fn path_coordinates_are_written_to_a_tenth_as_format_would() {
        for v in [
            0.0, 52.0, 240.04, 240.06, -3.25, -0.04, 1234.5678, 99.95, 7.0e9,
        ] {
            let mut mine = String::new();
            push_tenths(&mut mine, v);
            let theirs = format!("{v:.1}");
            // Exact halves may round either way; the rest is the same text.
            let close = (mine.parse::<f64>().unwrap() - theirs.parse::<f64>().unwrap()).abs();
            assert!(
                mine == theirs || close < 0.11,
                "{v}: {mine} against {theirs}"
            );
        }
        let stub = dangling(Rect::new(0.0, 0.0, CARD_W, CARD_H), 0);
        assert_eq!(stub.d, "M240.0,18.0 L330.0,18.0");
        let looped = self_loop(Rect::new(0.0, 0.0, 100.0, 50.0), 0);
        assert_eq!(looped.d, "M62.0,0.0 C52.0,-46.0 96.0,-46.0 86.0,0.0");
    }

    #[test]
    fn opposite_arrows_with_the_same_bend_take_different_sides() {
        let a = Rect::new(0.0, 0.0, CARD_W, CARD_H);
        let b = Rect::new(400.0, 0.0, CARD_W, CARD_H);
        let there = arrow_between(a, b, 20.0);
        let back = arrow_between(b, a, 20.0);
        assert!(there.label_at.1 > 52.0 && back.label_at.1 < 52.0);
        // Their labels extend away from each other: below the lower curve, above the upper one.
        assert_eq!(there.label_side, LabelSide::Below);
        assert_eq!(back.label_side, LabelSide::Above);
        // One above the other (a loop back to an earlier step): side by side.
        let c = Rect::new(0.0, 300.0, CARD_W, CARD_H);
        let (down, up) = (arrow_between(a, c, 20.0), arrow_between(c, a, 20.0));
        assert_eq!(
            (down.label_side, up.label_side),
            (LabelSide::Left, LabelSide::Right)
        );
        assert_eq!(arrow_between(a, b, 0.0).label_side, LabelSide::Centred);
    }

    #[test]
    fn boundary_points_lie_on_the_rectangle() {
        let r = Rect::new(0.0, 0.0, 200.0, 100.0);
        assert!(close(r.boundary_toward((1000.0, 50.0)), (200.0, 50.0)));
        assert!(close(r.boundary_toward((100.0, -500.0)), (100.0, 0.0)));
        assert!(close(r.boundary_toward((100.0, 50.0)), (100.0, 50.0)));
    }
}
