//! The places of the arrow labels the canvas shows: [`label_place::place`] over the arrows and
//! cards in view, at the canvas's text scale. Worked out again only when what is in view, the
//! plan's text or the scale step changes (not on a pan frame that mounts nothing new), and only
//! while labels show: in the overview style there are none.

use std::collections::HashMap;

use leptos::prelude::*;

use super::arrow_items::Texts;
use super::label_place::{self, along, estimated_size, Label, Placed, ALONG};
use super::legible::TextScale;
use super::scene::{Arrow, Card};
use crate::editor::Editor;

/// Each shown arrow's label place and the way it extends, by the arrow's key; an arrow not in it
/// keeps its middle.
pub type LabelPlaces = Memo<HashMap<u64, Placed>>;

/// The places of the labels of `arrows`, clear of each other and of `cards`.
pub fn label_places(
    arrows: Memo<Vec<Arrow>>,
    cards: Memo<Vec<Card>>,
    text_scale: Memo<TextScale>,
    overview_style: Memo<bool>,
    editor: Editor,
    texts: Texts,
) -> LabelPlaces {
    Memo::new(move |_| {
        if overview_style.get() {
            return HashMap::new();
        }
        let scale = text_scale.get().label;
        crate::timeline::timed("canvas: label places", || {
            arrows.with(|arrows| {
                // In plan order, so that the same label keeps its place as others come and go.
                let mut order: Vec<&Arrow> = arrows.iter().collect();
                order.sort_by_key(|a| (a.state, a.index));
                let labels: Vec<Label> = order
                    .iter()
                    .map(|a| {
                        let text = texts.of(a, editor);
                        let chars = text.priority.map_or(0, |p| p.len() + 3)
                            + text.label.chars().count()
                            + text.changes.map_or(0, |c| c.chars().count());
                        let points = match a.path.curve {
                            Some(curve) => ALONG.iter().map(|&t| along(curve, t)).collect(),
                            None => vec![a.path.label_at],
                        };
                        Label {
                            points,
                            side: a.path.label_side,
                            size: estimated_size(chars, scale),
                        }
                    })
                    .collect();
                let rects: Vec<_> = cards.with(|c| c.iter().map(|c| c.rect).collect());
                let placed = label_place::place(&labels, &rects);
                order.iter().map(|a| a.key).zip(placed).collect()
            })
        })
    })
}
