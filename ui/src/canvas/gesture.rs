//! The canvas's pointer and wheel gestures as a pure state machine.
//!
//! Inputs come in as plain data (screen points, buttons, what the pointer is over) and come out
//! as the next gesture, the viewport, and [`Effect`]s for the editor: a selection, or one edit at
//! pointer-up (a move, a connection, a re-target). Every gesture is tested without a browser.

use plan_core::edit::Limit;

use super::geometry::{Rect, Viewport};

/// Zoom factor per wheel "line" with Ctrl held, and per toolbar click.
pub const ZOOM_STEP: f64 = 1.2;
/// How far (screen pixels) a press must travel before it is a drag rather than a click.
pub const DRAG_SLOP: f64 = 3.0;

/// What is under the pointer.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Background,
    Card(String),
    /// A card's connection handle.
    Handle(String),
    Arrow {
        from: String,
        index: usize,
    },
    /// The draggable end of a selected arrow.
    ArrowEnd {
        from: String,
        index: usize,
    },
    /// A session state's chip in the lanes below the flow: edges to evaluations start there.
    Chip(String),
    /// An evaluation's card in the lanes.
    Evaluation(String),
    /// An edge from a chip to an evaluation.
    Limit(Limit),
    /// The draggable end of a selected edge.
    LimitEnd(Limit),
    /// A control drawn over the canvas (the minimap, the zoom buttons): not a canvas gesture.
    Outside,
}

/// What the pointer is doing.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Gesture {
    #[default]
    Idle,
    /// Dragging the background: the view follows the pointer.
    Panning { start: (f64, f64), last: (f64, f64) },
    /// Pressed on a card; a click unless it moves.
    Pressing {
        card: String,
        at: (f64, f64),
        additive: bool,
    },
    /// Dragging cards; `from` and `at` are screen points.
    Moving {
        ids: Vec<String>,
        from: (f64, f64),
        at: (f64, f64),
    },
    /// Drawing a selection box (Shift+drag on the background).
    Boxing { from: (f64, f64), at: (f64, f64) },
    /// Dragging a new arrow out of a card's handle (pressed at `start`).
    Connecting {
        from: String,
        start: (f64, f64),
        at: (f64, f64),
    },
    /// Dragging the end of an arrow to another card.
    Retargeting {
        from: String,
        index: usize,
        at: (f64, f64),
    },
    /// Dragging a new edge out of session state `from`'s chip (pressed at `start`).
    Limiting {
        from: String,
        start: (f64, f64),
        at: (f64, f64),
    },
    /// Dragging the end of an edge to another evaluation.
    MovingLimit { limit: Limit, at: (f64, f64) },
}

impl Gesture {
    /// The world offset of cards being dragged, for drawing them where the pointer has them.
    pub fn moving(&self, zoom: f64) -> Option<(&[String], f64, f64)> {
        match self {
            Gesture::Moving { ids, from, at } => Some((
                ids.as_slice(),
                (at.0 - from.0) / zoom,
                (at.1 - from.1) / zoom,
            )),
            _ => None,
        }
    }

    /// Whether releasing the button now ends a click on the empty background (pressed there and
    /// not dragged). A double-click adds a state only when both its clicks were such clicks: the
    /// browser also counts a connecting drag followed by a press on a handle as a double-click.
    pub fn is_background_click(&self) -> bool {
        matches!(self, Gesture::Panning { start, last } if !far(*start, *last))
    }
}

/// One input event, in canvas screen coordinates.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    Down {
        at: (f64, f64),
        button: i16,
        target: Target,
        shift: bool,
    },
    Move {
        at: (f64, f64),
    },
    /// The button went up over `target`.
    Up {
        target: Target,
    },
    /// A wheel or touchpad scroll, in pixels. With Ctrl (or a pinch, which browsers report as
    /// Ctrl+wheel) it zooms around the pointer; otherwise it pans.
    Wheel {
        at: (f64, f64),
        dx: f64,
        dy: f64,
        ctrl: bool,
    },
}

/// What the editor should do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Select these states (added to the selection with `additive`, which toggles a state).
    SelectStates {
        ids: Vec<String>,
        additive: bool,
    },
    SelectTransition {
        from: String,
        index: usize,
    },
    ClearSelection,
    /// Cards dragged by a world offset.
    MoveBy {
        ids: Vec<String>,
        dx: f64,
        dy: f64,
    },
    /// States inside a world rectangle.
    SelectInside {
        area: Rect,
        additive: bool,
    },
    Connect {
        from: String,
        to: String,
    },
    /// A new arrow out of `from` let go over the empty canvas at screen point `at`: the author
    /// is offered a new state there, connected (as peers do).
    DroppedArrow {
        from: String,
        at: (f64, f64),
    },
    Retarget {
        from: String,
        index: usize,
        to: String,
    },
    /// An edge from a session state to an evaluation, drawn.
    Limit(Limit),
    /// An edge selected.
    SelectLimit(Limit),
    /// An edge's end moved to evaluation `to`.
    MoveLimit {
        limit: Limit,
        to: String,
    },
}

fn far(a: (f64, f64), b: (f64, f64)) -> bool {
    (a.0 - b.0).abs() > DRAG_SLOP || (a.1 - b.1).abs() > DRAG_SLOP
}

/// Advances the gesture by one input. `selected` is the current selection of states.
pub fn step(
    gesture: Gesture,
    viewport: Viewport,
    input: Input,
    selected: &[String],
) -> (Gesture, Viewport, Vec<Effect>) {
    let none = Vec::new;
    match (gesture, input) {
        (
            Gesture::Idle,
            Input::Down {
                at,
                button,
                target,
                shift,
            },
        ) => match (button, target) {
            (0, Target::Background) if shift => {
                (Gesture::Boxing { from: at, at }, viewport, none())
            }
            (0 | 1, Target::Background) => (
                Gesture::Panning {
                    start: at,
                    last: at,
                },
                viewport,
                none(),
            ),
            (0, Target::Card(card)) => (
                Gesture::Pressing {
                    card,
                    at,
                    additive: shift,
                },
                viewport,
                none(),
            ),
            (0, Target::Handle(from)) => (
                Gesture::Connecting {
                    from,
                    start: at,
                    at,
                },
                viewport,
                none(),
            ),
            (0, Target::ArrowEnd { from, index }) => {
                (Gesture::Retargeting { from, index, at }, viewport, none())
            }
            (0, Target::Arrow { from, index }) => (
                Gesture::Idle,
                viewport,
                vec![Effect::SelectTransition { from, index }],
            ),
            // The lanes do not move: a chip is dragged out as an edge, an evaluation's card pans
            // like the background (a click on it shows the plan's evaluations).
            (0, Target::Chip(from)) => (
                Gesture::Limiting {
                    from,
                    start: at,
                    at,
                },
                viewport,
                none(),
            ),
            (0 | 1, Target::Evaluation(_)) => (
                Gesture::Panning {
                    start: at,
                    last: at,
                },
                viewport,
                none(),
            ),
            (0, Target::Limit(limit)) => {
                (Gesture::Idle, viewport, vec![Effect::SelectLimit(limit)])
            }
            (0, Target::LimitEnd(limit)) => (Gesture::MovingLimit { limit, at }, viewport, none()),
            _ => (Gesture::Idle, viewport, none()),
        },
        (Gesture::Panning { start, last }, Input::Move { at }) => (
            Gesture::Panning { start, last: at },
            viewport.panned(at.0 - last.0, at.1 - last.1),
            none(),
        ),
        (Gesture::Panning { start, last }, Input::Up { .. }) => {
            // A click on the background (no drag) clears the selection.
            let effects = if far(start, last) {
                none()
            } else {
                vec![Effect::ClearSelection]
            };
            (Gesture::Idle, viewport, effects)
        }
        (
            Gesture::Pressing {
                card,
                at: start,
                additive,
            },
            Input::Move { at },
        ) => {
            if !far(start, at) {
                return (
                    Gesture::Pressing {
                        card,
                        at: start,
                        additive,
                    },
                    viewport,
                    none(),
                );
            }
            // Dragging a selected card moves the whole selection; any other card moves alone
            // and becomes the selection.
            let (ids, effects) = if selected.contains(&card) {
                (selected.to_vec(), none())
            } else {
                (
                    vec![card.clone()],
                    vec![Effect::SelectStates {
                        ids: vec![card],
                        additive: false,
                    }],
                )
            };
            (
                Gesture::Moving {
                    ids,
                    from: start,
                    at,
                },
                viewport,
                effects,
            )
        }
        (Gesture::Pressing { card, additive, .. }, Input::Up { .. }) => (
            Gesture::Idle,
            viewport,
            vec![Effect::SelectStates {
                ids: vec![card],
                additive,
            }],
        ),
        (Gesture::Moving { ids, from, .. }, Input::Move { at }) => {
            (Gesture::Moving { ids, from, at }, viewport, none())
        }
        (Gesture::Moving { ids, from, at }, Input::Up { .. }) => {
            let dx = (at.0 - from.0) / viewport.zoom;
            let dy = (at.1 - from.1) / viewport.zoom;
            (
                Gesture::Idle,
                viewport,
                vec![Effect::MoveBy { ids, dx, dy }],
            )
        }
        (Gesture::Boxing { from, .. }, Input::Move { at }) => {
            (Gesture::Boxing { from, at }, viewport, none())
        }
        (Gesture::Boxing { from, at }, Input::Up { .. }) => {
            let a = viewport.to_world(from);
            let b = viewport.to_world(at);
            let area = Rect::new(
                a.0.min(b.0),
                a.1.min(b.1),
                (a.0 - b.0).abs(),
                (a.1 - b.1).abs(),
            );
            (
                Gesture::Idle,
                viewport,
                vec![Effect::SelectInside {
                    area,
                    additive: true,
                }],
            )
        }
        (Gesture::Connecting { from, start, .. }, Input::Move { at }) => {
            (Gesture::Connecting { from, start, at }, viewport, none())
        }
        // A click on a handle is not a loop: a loop is dragged out and back onto the card.
        (Gesture::Connecting { start, at, .. }, Input::Up { .. }) if !far(start, at) => {
            (Gesture::Idle, viewport, none())
        }
        (Gesture::Connecting { from, at, .. }, Input::Up { target }) => match target {
            Target::Card(to) | Target::Handle(to) => {
                (Gesture::Idle, viewport, vec![Effect::Connect { from, to }])
            }
            Target::Background => (
                Gesture::Idle,
                viewport,
                vec![Effect::DroppedArrow { from, at }],
            ),
            _ => (Gesture::Idle, viewport, none()),
        },
        (Gesture::Retargeting { from, index, .. }, Input::Move { at }) => {
            (Gesture::Retargeting { from, index, at }, viewport, none())
        }
        (Gesture::Retargeting { from, index, .. }, Input::Up { target }) => match target {
            Target::Card(to) | Target::Handle(to) => (
                Gesture::Idle,
                viewport,
                vec![Effect::Retarget { from, index, to }],
            ),
            _ => (Gesture::Idle, viewport, none()),
        },
        (Gesture::Limiting { from, start, .. }, Input::Move { at }) => {
            (Gesture::Limiting { from, start, at }, viewport, none())
        }
        (Gesture::Limiting { from, start, at }, Input::Up { target }) => match target {
            Target::Evaluation(evaluation) if far(start, at) => (
                Gesture::Idle,
                viewport,
                vec![Effect::Limit(Limit {
                    session_state: from,
                    evaluation,
                })],
            ),
            _ => (Gesture::Idle, viewport, none()),
        },
        (Gesture::MovingLimit { limit, .. }, Input::Move { at }) => {
            (Gesture::MovingLimit { limit, at }, viewport, none())
        }
        (Gesture::MovingLimit { limit, .. }, Input::Up { target }) => match target {
            Target::Evaluation(to) if to != limit.evaluation => (
                Gesture::Idle,
                viewport,
                vec![Effect::MoveLimit { limit, to }],
            ),
            _ => (Gesture::Idle, viewport, none()),
        },
        (
            g,
            Input::Wheel {
                at, dy, ctrl: true, ..
            },
        ) => {
            // 100 px of wheel is one zoom step; touchpads send smaller deltas for smooth zoom.
            (
                g,
                viewport.zoomed_at(at, ZOOM_STEP.powf(-dy / 100.0)),
                none(),
            )
        }
        (g, Input::Wheel { dx, dy, .. }) => (g, viewport.panned(-dx, -dy), none()),
        // An input the gesture does not expect (a second button, an Up without a Down) ends it.
        (_, Input::Up { .. }) => (Gesture::Idle, viewport, none()),
        (g, _) => (g, viewport, none()),
    }
}

#[cfg(test)]
mod tests;
