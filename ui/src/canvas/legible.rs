//! Text that stays legible as the canvas zooms out, the way a map's labels do: below 100 % a
//! card's title and an arrow's label grow relative to the card, so that on screen they stay at
//! least [`TITLE_PX`] and [`LABEL_PX`] tall, down to the zoom at which labels give way to the
//! overview style (titles only). The scales move in steps, so that a zoom gesture restyles the
//! cards a few times, not on every frame.

/// A card title's size on the canvas at 100 %, in CSS pixels (see `style.css`).
const TITLE_BASE: f64 = 15.0;
/// An arrow label's size on the canvas at 100 %.
const LABEL_BASE: f64 = 12.0;
/// The smallest a card title is on screen while the cards show labels.
pub const TITLE_PX: f64 = 8.0;
/// The smallest an arrow label is on screen while it shows.
pub const LABEL_PX: f64 = 8.0;
/// A card's marks at 100 % (its mode badge, start and ending marks, problem badge), and the
/// small print's size: see `style.css`.
const MARK_BASE: f64 = 12.0;
/// The smallest a card's mark is on screen.
pub const MARK_PX: f64 = 8.0;
/// Below this zoom the small print (12 px: a card's tasks, its changes in a comparison, an
/// explored count) is left out: under 8 px on screen, and it does not grow.
pub const SMALL_PRINT_ZOOM: f64 = MARK_PX / MARK_BASE;
/// Scales move in steps of an eighth.
const STEP: f64 = 8.0;

/// Below this zoom cards are always in their overview style: titles only (at the largest scale),
/// no small print, no arrow labels.
pub const LABELS_ZOOM: f64 = 0.3;
/// Between [`LABELS_ZOOM`] and this zoom, labels show only when the view is not crowded: a few
/// dozen cards can be read whole, hundreds cannot, and painting the labels of many cards was a
/// third of a pan frame's cost (pan p95 at 1,000 states with 44 cards in view 49–51 → 32–34 ms
/// without them, `tests/probe.rs`).
pub const CROWDED_ZOOM: f64 = 0.5;
/// More cards than this in view is a crowded view.
pub const CROWDED_CARDS: usize = 32;

/// How much the canvas's text is magnified at a zoom, relative to its size at 100 %.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextScale {
    /// Card titles.
    pub title: f64,
    /// Arrow labels.
    pub label: f64,
    /// A card's marks, once the small print is left out (their words too: a mark is then its
    /// symbol, the words in its tooltip); 1 before.
    pub mark: f64,
    /// Whether the small print is left out (see [`SMALL_PRINT_ZOOM`]).
    pub hides_small_print: bool,
}

impl TextScale {
    /// The scale that keeps titles and labels legible at `zoom` (1 at 100 % and closer).
    pub fn at(zoom: f64) -> TextScale {
        // Never larger than at the labels' zoom: below it only titles show, at that size.
        let hides_small_print = zoom < SMALL_PRINT_ZOOM;
        let zoom = zoom.max(LABELS_ZOOM);
        TextScale {
            title: stepped(TITLE_PX / (TITLE_BASE * zoom)),
            label: stepped(LABEL_PX / (LABEL_BASE * zoom)),
            mark: if hides_small_print {
                stepped(MARK_PX / (MARK_BASE * zoom))
            } else {
                1.0
            },
            hides_small_print,
        }
    }
}

/// Whether cards are drawn in their overview style at `zoom` with `cards_in_view` of them on
/// screen: titles only, no small print, no arrow labels.
pub fn overview_style(zoom: f64, cards_in_view: usize) -> bool {
    zoom < LABELS_ZOOM || (zoom < CROWDED_ZOOM && cards_in_view > CROWDED_CARDS)
}

/// The zoom below which a plan of `cards` cards does not open fitted (see `camera`): where its
/// labels would not show.
pub fn readable_zoom(cards: usize) -> f64 {
    if cards > CROWDED_CARDS {
        CROWDED_ZOOM
    } else {
        LABELS_ZOOM
    }
}

/// `raw` rounded up to the next step, and never below 1.
fn stepped(raw: f64) -> f64 {
    ((raw * STEP).ceil() / STEP).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_keeps_its_size_at_and_above_the_zoom_where_it_is_legible() {
        for zoom in [0.67, 1.0, 2.5] {
            assert_eq!(
                TextScale::at(zoom),
                TextScale {
                    title: 1.0,
                    label: 1.0,
                    mark: 1.0,
                    hides_small_print: false,
                }
            );
        }
    }

    #[test]
    fn zoomed_out_titles_and_labels_stay_legible_on_screen() {
        let mut zoom = 1.0;
        while zoom >= LABELS_ZOOM {
            let s = TextScale::at(zoom);
            assert!(
                TITLE_BASE * s.title * zoom >= TITLE_PX - 1e-9,
                "title at {zoom}"
            );
            assert!(
                LABEL_BASE * s.label * zoom >= LABEL_PX - 1e-9,
                "label at {zoom}"
            );
            assert!(
                MARK_BASE * s.mark * zoom >= MARK_PX - 1e-9,
                "marks at {zoom}"
            );
            // Not blown up either: within one step of the smallest legible size.
            assert!(TITLE_BASE * (s.title - 1.0 / STEP) * zoom < TITLE_PX || s.title == 1.0);
            zoom -= 0.01;
        }
        assert!(TextScale::at(0.5).hides_small_print);
    }

    #[test]
    fn the_scale_moves_in_steps_and_stops_growing_at_the_labels_zoom() {
        let steps: std::collections::BTreeSet<u64> = (300..=1000)
            .map(|z| (TextScale::at(z as f64 / 1000.0).label * STEP) as u64)
            .collect();
        assert!(steps.len() <= 12, "{steps:?}");
        assert_eq!(TextScale::at(0.1), TextScale::at(LABELS_ZOOM));
    }

    #[test]
    fn labels_give_way_far_out_and_in_a_crowded_view() {
        assert!(!overview_style(0.4, 10));
        assert!(overview_style(0.4, CROWDED_CARDS + 1));
        assert!(!overview_style(0.6, 500));
        assert!(overview_style(0.25, 3));
        assert_eq!(readable_zoom(6), LABELS_ZOOM);
        assert_eq!(readable_zoom(1_000), CROWDED_ZOOM);
    }
}
