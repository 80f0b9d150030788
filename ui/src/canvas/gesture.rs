//! The canvas's pointer and wheel gestures as a pure state machine.
//!
//! Inputs come in as plain data (screen points, buttons, wheel deltas) and come out as the new
//! gesture state and viewport, so every gesture is tested without a browser. The read-only canvas
//! only pans and zooms; editing gestures (move, connect, box-select) join here and end in one
//! command at pointer-up.

use super::geometry::Viewport;

/// Zoom factor per wheel "line" with Ctrl held, and per toolbar click.
pub const ZOOM_STEP: f64 = 1.2;

/// What the pointer is doing.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Gesture {
    #[default]
    Idle,
    /// Dragging the background: the view follows the pointer.
    Panning { last: (f64, f64) },
}

/// One input event, in canvas screen coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Input {
    /// A button went down; `background` is true when it was not on a card.
    Down {
        at: (f64, f64),
        button: i16,
        background: bool,
    },
    Move {
        at: (f64, f64),
    },
    Up,
    /// A wheel or touchpad scroll, in pixels. With Ctrl (or a pinch, which browsers report as
    /// Ctrl+wheel) it zooms around the pointer; otherwise it pans.
    Wheel {
        at: (f64, f64),
        dx: f64,
        dy: f64,
        ctrl: bool,
    },
}

/// Advances the gesture by one input.
pub fn step(gesture: Gesture, viewport: Viewport, input: Input) -> (Gesture, Viewport) {
    match (gesture, input) {
        // Left or middle button on the background starts a pan.
        (
            Gesture::Idle,
            Input::Down {
                at,
                button: 0 | 1,
                background: true,
            },
        ) => (Gesture::Panning { last: at }, viewport),
        (Gesture::Panning { last }, Input::Move { at }) => (
            Gesture::Panning { last: at },
            viewport.panned(at.0 - last.0, at.1 - last.1),
        ),
        (Gesture::Panning { .. }, Input::Up) => (Gesture::Idle, viewport),
        (
            g,
            Input::Wheel {
                at, dy, ctrl: true, ..
            },
        ) => {
            // 100 px of wheel is one zoom step; touchpads send smaller deltas for smooth zoom.
            (g, viewport.zoomed_at(at, ZOOM_STEP.powf(-dy / 100.0)))
        }
        (g, Input::Wheel { dx, dy, .. }) => (g, viewport.panned(-dx, -dy)),
        (g, _) => (g, viewport),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(inputs: &[Input]) -> (Gesture, Viewport) {
        inputs
            .iter()
            .fold((Gesture::Idle, Viewport::default()), |(g, v), i| {
                step(g, v, *i)
            })
    }

    #[test]
    fn dragging_the_background_pans_by_the_pointer_distance() {
        let (g, v) = run(&[
            Input::Down {
                at: (100.0, 100.0),
                button: 0,
                background: true,
            },
            Input::Move { at: (130.0, 90.0) },
            Input::Move { at: (160.0, 80.0) },
            Input::Up,
        ]);
        assert_eq!(g, Gesture::Idle);
        assert_eq!((v.x, v.y, v.zoom), (60.0, -20.0, 1.0));
    }

    #[test]
    fn pressing_on_a_card_or_with_the_right_button_does_not_pan() {
        let (_, v) = run(&[
            Input::Down {
                at: (0.0, 0.0),
                button: 0,
                background: false,
            },
            Input::Move { at: (50.0, 50.0) },
            Input::Down {
                at: (0.0, 0.0),
                button: 2,
                background: true,
            },
            Input::Move { at: (90.0, 50.0) },
        ]);
        assert_eq!(v, Viewport::default());
    }

    #[test]
    fn ctrl_wheel_zooms_around_the_pointer_and_plain_wheel_scrolls() {
        let (_, v) = run(&[Input::Wheel {
            at: (200.0, 100.0),
            dx: 0.0,
            dy: -100.0,
            ctrl: true,
        }]);
        assert!((v.zoom - ZOOM_STEP).abs() < 1e-12);
        let world = v.to_world((200.0, 100.0));
        assert!((world.0 - 200.0).abs() < 1e-9 && (world.1 - 100.0).abs() < 1e-9);
        let (_, v) = run(&[Input::Wheel {
            at: (0.0, 0.0),
            dx: 10.0,
            dy: 30.0,
            ctrl: false,
        }]);
        assert_eq!((v.x, v.y), (-10.0, -30.0));
    }
}
