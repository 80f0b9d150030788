//! The lanes below the flow (simulate.md, "Evaluations in the plan"; seed 001): the plan's
//! session states as chips in one lane, its evaluations as cards in the next, and an edge from a
//! chip to each evaluation it limits (the evaluation is asked only while that state is on).
//! Drawn when the plan has evaluations. Pure, like the rest of the scene.

use plan_core::edit::Limit;
use plan_core::plan::Plan;

use super::geometry::{bounds, Rect, CARD_W};
use super::key::key_of;

/// A session state's chip: where edges to evaluations start. Two lines of its title fit at the
/// largest scale titles grow to when zoomed out (see `legible`).
pub const CHIP_W: f64 = 170.0;
const CHIP_H: f64 = 64.0;
const CHIP_GAP: f64 = 16.0;
/// An evaluation's card.
const EVALUATION_H: f64 = 96.0;
const EVALUATION_GAP: f64 = 40.0;
/// From the flow's foot to the chips (the chips' lane name between), and from the chips to the
/// evaluations (room for the edges to bend).
const FLOW_GAP: f64 = 150.0;
const LANE_GAP: f64 = 140.0;
/// A lane's name: above the chips, below the evaluations, so that no edge crosses one; within the
/// flow's width, so that the lanes never make the plan open smaller.
const HEADER_H: f64 = 52.0;
const HEADER_GAP: f64 = 10.0;

/// A session state, as a chip in its lane.
#[derive(Debug, Clone, PartialEq)]
pub struct Chip {
    pub key: u64,
    pub id: String,
    /// Its title, else its id.
    pub title: String,
    pub rect: Rect,
}

/// An evaluation, as a card in its lane.
#[derive(Debug, Clone, PartialEq)]
pub struct EvaluationCard {
    pub key: u64,
    pub id: String,
    /// Its title, else its id.
    pub title: String,
    pub question: String,
    /// "Asked of every conversation" or "Only while Billing mode is on".
    pub scope: String,
    pub rect: Rect,
}

/// An edge from a chip to an evaluation card.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitEdge {
    pub key: u64,
    pub limit: Limit,
    /// The SVG path, from the chip's foot to the card's top.
    pub d: String,
    /// Where it meets the card: its draggable end when selected.
    pub end: (f64, f64),
    /// "Billing mode → No refund promised early: asked only while Billing mode is on".
    pub title: String,
}

/// A lane's name, left of its row.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneHeader {
    pub name: &'static str,
    pub hint: &'static str,
    pub rect: Rect,
}

/// Everything the lanes draw.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lanes {
    pub chips: Vec<Chip>,
    pub evaluations: Vec<EvaluationCard>,
    pub edges: Vec<LimitEdge>,
    pub headers: Vec<LaneHeader>,
}

impl Lanes {
    /// The area the lanes cover, for fitting the view.
    pub fn bounds(&self) -> Option<Rect> {
        bounds(
            self.chips
                .iter()
                .map(|c| c.rect)
                .chain(self.evaluations.iter().map(|e| e.rect))
                .chain(self.headers.iter().map(|h| h.rect)),
        )
    }

    /// The chip of session state `id`.
    pub fn chip(&self, id: &str) -> Option<&Chip> {
        self.chips.iter().find(|c| c.id == id)
    }

    /// Whether the edge `limit` is drawn.
    pub fn has(&self, limit: &Limit) -> bool {
        self.edges.iter().any(|e| e.limit == *limit)
    }
}

/// The lanes of `plan` below `flow` (the cards' bounds); empty when the plan has no evaluations.
pub fn lanes(plan: &Plan, flow: Option<Rect>) -> Lanes {
    if plan.evaluations.is_empty() {
        return Lanes::default();
    }
    let flow = flow.unwrap_or(Rect::new(0.0, 0.0, CARD_W, 0.0));
    let (x0, chips_y) = (flow.x, flow.bottom() + FLOW_GAP);
    // Rows as wide as the flow, so that the lanes never make the plan open smaller.
    let row_of = |width: f64, gap: f64| ((flow.w + gap) / (width + gap)).floor().max(4.0) as usize;
    let per_row = row_of(CHIP_W, CHIP_GAP);
    // Every other row is set half a place on, like bricks: an edge leaving a chip of the first
    // row goes down through a gap of the rows below, never behind a chip.
    let place = |k: usize, per_row: usize, w: f64, h: f64, gap: f64, top: f64| {
        let (row, col) = (k / per_row, k % per_row);
        let brick = if row % 2 == 1 { (w + gap) / 2.0 } else { 0.0 };
        Rect::new(
            x0 + brick + col as f64 * (w + gap),
            top + row as f64 * (h + gap),
            w,
            h,
        )
    };
    let chips: Vec<Chip> = plan
        .session_states
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let title = if s.title.trim().is_empty() {
                s.id.clone()
            } else {
                s.title.clone()
            };
            let rect = place(k, per_row, CHIP_W, CHIP_H, CHIP_GAP, chips_y);
            Chip {
                key: key_of(("chip", &s.id, &title, rect.x.to_bits(), rect.y.to_bits())),
                id: s.id.clone(),
                title,
                rect,
            }
        })
        .collect();
    let chip_rows = plan.session_states.len().div_ceil(per_row).max(1);
    let evaluations_y = chips_y + chip_rows as f64 * (CHIP_H + CHIP_GAP) - CHIP_GAP + LANE_GAP;
    let title_of = |id: &str| {
        chips
            .iter()
            .find(|c| c.id == id)
            .map_or(id.to_string(), |c| c.title.clone())
    };
    let per_row = row_of(CARD_W, EVALUATION_GAP);
    let evaluations: Vec<EvaluationCard> = plan
        .evaluations
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let rect = place(
                k,
                per_row,
                CARD_W,
                EVALUATION_H,
                EVALUATION_GAP,
                evaluations_y,
            );
            let scope = if e.only_while_active.is_empty() {
                "Asked of every conversation".to_string()
            } else {
                let names: Vec<String> = e.only_while_active.iter().map(|s| title_of(s)).collect();
                format!("Only while {} is on", or_list(&names))
            };
            EvaluationCard {
                key: key_of((
                    "evaluation",
                    &e.id,
                    e.name(),
                    &e.question,
                    &scope,
                    rect.x.to_bits(),
                    rect.y.to_bits(),
                )),
                id: e.id.clone(),
                title: e.name().to_string(),
                question: e.question.clone(),
                scope,
                rect,
            }
        })
        .collect();
    let mut edges = Vec::new();
    for (e, card) in plan.evaluations.iter().zip(&evaluations) {
        for state in &e.only_while_active {
            // An unknown session state is a validation finding; it has no chip to start from.
            let Some(chip) = chips.iter().find(|c| c.id == *state) else {
                continue;
            };
            let start = (chip.rect.center().0, chip.rect.bottom());
            let end = (card.rect.center().0, card.rect.y);
            let d = curve(start, end);
            let title = format!(
                "{} → {}: asked only while {} is on",
                chip.title, card.title, chip.title
            );
            edges.push(LimitEdge {
                key: key_of(("limit", state, &e.id, &d, &title)),
                limit: Limit {
                    session_state: state.clone(),
                    evaluation: e.id.clone(),
                },
                d,
                end,
                title,
            });
        }
    }
    let header = |name, hint, top: f64| LaneHeader {
        name,
        hint,
        rect: Rect::new(x0, top, flow.w.max(2.0 * CARD_W), HEADER_H),
    };
    let foot = evaluations
        .iter()
        .map(|e| e.rect.bottom())
        .fold(evaluations_y, f64::max);
    let headers = vec![
        header(
            "Session states",
            "Drag one onto an evaluation to ask it only while that state is on.",
            chips_y - HEADER_GAP - HEADER_H,
        ),
        header(
            "Evaluations",
            "The judge asks each of every simulated conversation; an edge from a session state asks it only while that state is on.",
            foot + HEADER_GAP,
        ),
    ];
    Lanes {
        chips,
        evaluations,
        edges,
        headers,
    }
}

/// The two ends of edge `limit` by their names: the session state's title, the evaluation's.
fn ends<'a>(plan: &'a Plan, limit: &'a Limit) -> (&'a str, &'a str) {
    let state =
        plan.session_state(&limit.session_state)
            .map_or(limit.session_state.as_str(), |s| {
                if s.title.trim().is_empty() {
                    &s.id
                } else {
                    &s.title
                }
            });
    let evaluation = plan
        .evaluations
        .iter()
        .find(|e| e.id == limit.evaluation)
        .map_or(limit.evaluation.as_str(), |e| e.name());
    (state, evaluation)
}

/// What deleting edge `limit` of `plan` does, in the author's words.
pub fn unlimited_words(plan: &Plan, limit: &Limit) -> String {
    let (state, evaluation) = ends(plan, limit);
    format!("“{evaluation}” is no longer limited to {state}. Ctrl+Z brings the edge back.")
}

/// What edge `limit` of `plan` means, in the author's words.
pub fn limited_words(plan: &Plan, limit: &Limit) -> String {
    let (state, evaluation) = ends(plan, limit);
    format!("“{evaluation}” is asked only while {state} is on.")
}

/// A vertical S-curve from `a` down to `b`.
fn curve(a: (f64, f64), b: (f64, f64)) -> String {
    let mid = (a.1 + b.1) / 2.0;
    format!(
        "M {:.1} {:.1} C {:.1} {:.1}, {:.1} {:.1}, {:.1} {:.1}",
        a.0, a.1, a.0, mid, b.0, mid, b.0, b.1
    )
}

/// "A", "A or B", "A, B or C".
fn or_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::edit::{apply, Command};
    use plan_core::parse_plan;

    fn account_care() -> Plan {
        parse_plan(include_str!("../../../plans/account-care.json")).unwrap()
    }

    #[test]
    fn a_plan_with_evaluations_draws_its_session_states_and_evaluations_below_the_flow() {
        let plan = account_care();
        let flow = Rect::new(0.0, -200.0, 1560.0, 924.0);
        let l = lanes(&plan, Some(flow));
        assert_eq!(l.chips.len(), plan.session_states.len());
        assert_eq!(l.evaluations.len(), 2);
        assert!(l.chips.iter().all(|c| c.rect.y > flow.bottom()));
        let chips_foot = l.chips.iter().map(|c| c.rect.bottom()).fold(0.0, f64::max);
        assert!(l.evaluations.iter().all(|e| e.rect.y > chips_foot + 100.0));
        // Nothing overlaps: chips, cards and the lanes' names.
        let rects: Vec<Rect> = l
            .chips
            .iter()
            .map(|c| c.rect)
            .chain(l.evaluations.iter().map(|e| e.rect))
            .chain(l.headers.iter().map(|h| h.rect))
            .collect();
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(!a.intersects(b), "{a:?} overlaps {b:?}");
            }
        }
        // Within the flow's width: the plan opens at the zoom its flow alone would.
        let b = l.bounds().unwrap();
        assert!(
            b.x >= flow.x && b.right() <= flow.right(),
            "{b:?} beside {flow:?}"
        );
        // An edge leaving a chip of the first row goes down between the chips of the second.
        let first_row = l.chips.iter().filter(|c| c.rect.y == l.chips[0].rect.y);
        for c in first_row {
            let x = c.rect.center().0;
            assert!(
                !l.chips
                    .iter()
                    .any(|o| o.rect.y > c.rect.y && o.rect.x <= x && x <= o.rect.right()),
                "{} would be crossed",
                c.id
            );
        }
        assert_eq!(l.evaluations[0].scope, "Asked of every conversation");
        assert_eq!(l.evaluations[1].scope, "Only while Billing mode is on");
        // The one edge: from the Billing mode chip's foot to the card's top.
        assert_eq!(l.edges.len(), 1);
        let edge = &l.edges[0];
        let chip = l.chip("billing_mode").unwrap();
        assert!(edge.d.starts_with(&format!(
            "M {:.1} {:.1}",
            chip.rect.center().0,
            chip.rect.bottom()
        )));
        assert_eq!(
            edge.end,
            (l.evaluations[1].rect.center().0, l.evaluations[1].rect.y)
        );
        assert!(l.has(&edge.limit));
    }

    #[test]
    fn a_plan_without_evaluations_has_no_lanes() {
        let mut plan = account_care();
        plan.evaluations.clear();
        assert_eq!(lanes(&plan, None), Lanes::default());
    }

    /// Drawing an edge changes the card it enters (its scope, its key) and adds an edge; the
    /// chips stay as they were, keys included.
    #[test]
    fn an_edge_drawn_redraws_only_what_it_touches() {
        let plan = account_care();
        let before = lanes(&plan, None);
        let limit = Limit {
            session_state: "upsell".into(),
            evaluation: "no-refund-promise".into(),
        };
        let after = apply(&plan, &Command::LimitEvaluation(limit.clone()))
            .unwrap()
            .plan;
        let after = lanes(&after, None);
        assert_eq!(before.chips, after.chips);
        assert_eq!(before.evaluations[0], after.evaluations[0]);
        assert_ne!(before.evaluations[1].key, after.evaluations[1].key);
        assert_eq!(
            after.evaluations[1].scope,
            "Only while Billing mode or Offer a bigger plan is on"
        );
        assert!(after.has(&limit) && !before.has(&limit));
    }
}
