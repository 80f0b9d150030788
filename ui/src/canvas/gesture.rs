//! The canvas's pointer and wheel gestures as a pure state machine.
//!
//! Inputs come in as plain data (screen points, buttons, what the pointer is over) and come out
//! as the next gesture, the viewport, and [`Effect`]s for the editor: a selection, or one edit at
//! pointer-up (a move, a connection, a re-target). Every gesture is tested without a browser.

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
mod tests {
    use super::*;

    fn run(inputs: Vec<Input>, selected: &[String]) -> (Gesture, Viewport, Vec<Effect>) {
        let mut effects = Vec::new();
        let (g, v) = inputs
            .into_iter()
            .fold((Gesture::Idle, Viewport::default()), |(g, v), i| {
                let (g, v, e) = step(g, v, i, selected);
                effects.extend(e);
                (g, v)
            });
        (g, v, effects)
    }

    fn down(at: (f64, f64), target: Target) -> Input {
        Input::Down {
            at,
            button: 0,
            target,
            shift: false,
        }
    }

    fn up(target: Target) -> Input {
        Input::Up { target }
    }

    fn card(id: &str) -> Target {
        Target::Card(id.into())
    }

    #[test]
    fn only_a_press_and_release_on_the_background_is_a_background_click() {
        let pressed = |inputs: Vec<Input>| run(inputs, &[]).0.is_background_click();
        assert!(pressed(vec![down((5.0, 5.0), Target::Background)]));
        assert!(!pressed(vec![
            down((5.0, 5.0), Target::Background),
            Input::Move { at: (40.0, 5.0) }
        ]));
        assert!(!pressed(vec![down((5.0, 5.0), Target::Handle("a".into()))]));
        assert!(!pressed(vec![down((5.0, 5.0), card("a"))]));
        assert!(!Gesture::Idle.is_background_click());
    }

    #[test]
    fn dragging_the_background_pans_by_the_pointer_distance() {
        let (g, v, e) = run(
            vec![
                down((100.0, 100.0), Target::Background),
                Input::Move { at: (130.0, 90.0) },
                Input::Move { at: (160.0, 80.0) },
                up(Target::Background),
            ],
            &[],
        );
        assert_eq!(g, Gesture::Idle);
        assert_eq!((v.x, v.y, v.zoom), (60.0, -20.0, 1.0));
        assert!(e.is_empty());
        let (_, _, e) = run(
            vec![down((1.0, 1.0), Target::Background), up(Target::Background)],
            &[],
        );
        assert_eq!(e, [Effect::ClearSelection], "a click on the background");
    }

    #[test]
    fn a_click_on_a_card_selects_it_and_shift_adds_it() {
        let (_, _, e) = run(vec![down((5.0, 5.0), card("a")), up(card("a"))], &[]);
        assert_eq!(
            e,
            [Effect::SelectStates {
                ids: vec!["a".into()],
                additive: false
            }]
        );
        let shift = Input::Down {
            at: (5.0, 5.0),
            button: 0,
            target: card("b"),
            shift: true,
        };
        let (_, _, e) = run(vec![shift, up(card("b"))], &[]);
        assert_eq!(
            e,
            [Effect::SelectStates {
                ids: vec!["b".into()],
                additive: true
            }]
        );
    }

    #[test]
    fn dragging_a_selected_card_moves_the_selection_by_one_move_at_pointer_up() {
        let selected = vec!["a".to_string(), "b".to_string()];
        let (g, _, e) = run(
            vec![
                down((10.0, 10.0), card("a")),
                Input::Move { at: (11.0, 11.0) },
                Input::Move { at: (60.0, 40.0) },
            ],
            &selected,
        );
        assert!(e.is_empty(), "nothing happens before pointer-up");
        assert_eq!(g.moving(1.0), Some((selected.as_slice(), 50.0, 30.0)));
        let (_, _, e) = step(g, Viewport::default(), up(card("a")), &selected);
        assert_eq!(
            e,
            [Effect::MoveBy {
                ids: selected.clone(),
                dx: 50.0,
                dy: 30.0
            }]
        );
    }

    #[test]
    fn dragging_an_unselected_card_selects_and_moves_it_alone_in_world_units() {
        let v = Viewport {
            zoom: 2.0,
            ..Viewport::default()
        };
        let (g, _, e) = step(Gesture::Idle, v, down((0.0, 0.0), card("c")), &["a".into()]);
        assert!(e.is_empty());
        let (g, _, e) = step(g, v, Input::Move { at: (40.0, 20.0) }, &["a".into()]);
        assert_eq!(
            e,
            [Effect::SelectStates {
                ids: vec!["c".into()],
                additive: false
            }]
        );
        let (_, _, e) = step(g, v, up(Target::Background), &["a".into()]);
        assert_eq!(
            e,
            [Effect::MoveBy {
                ids: vec!["c".into()],
                dx: 20.0,
                dy: 10.0
            }]
        );
    }

    #[test]
    fn a_click_on_a_handle_connects_nothing() {
        let (g, _, e) = run(
            vec![
                down((0.0, 0.0), Target::Handle("a".into())),
                Input::Move { at: (1.0, 1.0) },
                up(Target::Handle("a".into())),
            ],
            &[],
        );
        assert_eq!(g, Gesture::Idle);
        assert!(e.is_empty(), "{e:?}");
    }

    #[test]
    fn dragging_from_a_handle_to_a_card_connects_them_and_to_the_empty_canvas_offers_a_state() {
        let inputs = |to: Target| {
            vec![
                down((0.0, 0.0), Target::Handle("a".into())),
                Input::Move { at: (90.0, 0.0) },
                up(to),
            ]
        };
        let (_, _, e) = run(inputs(card("b")), &[]);
        assert_eq!(
            e,
            [Effect::Connect {
                from: "a".into(),
                to: "b".into()
            }]
        );
        let (_, _, e) = run(inputs(card("a")), &[]);
        assert_eq!(
            e,
            [Effect::Connect {
                from: "a".into(),
                to: "a".into()
            }],
            "a self-loop"
        );
        // Let go over the empty canvas: a new state is offered there.
        let (g, _, e) = run(inputs(Target::Background), &[]);
        assert_eq!(
            e,
            [Effect::DroppedArrow {
                from: "a".into(),
                at: (90.0, 0.0)
            }]
        );
        assert_eq!(g, Gesture::Idle);
        // Over the minimap or the zoom buttons: nothing.
        let (g, _, e) = run(inputs(Target::Outside), &[]);
        assert!(e.is_empty());
        assert_eq!(g, Gesture::Idle);
    }

    #[test]
    fn dragging_an_arrow_end_to_a_card_retargets_it() {
        let (_, _, e) = run(
            vec![
                down(
                    (0.0, 0.0),
                    Target::ArrowEnd {
                        from: "a".into(),
                        index: 1,
                    },
                ),
                Input::Move { at: (50.0, 50.0) },
                up(card("c")),
            ],
            &[],
        );
        assert_eq!(
            e,
            [Effect::Retarget {
                from: "a".into(),
                index: 1,
                to: "c".into()
            }]
        );
    }

    #[test]
    fn shift_dragging_the_background_selects_what_is_inside_the_box() {
        let shift = Input::Down {
            at: (100.0, 50.0),
            button: 0,
            target: Target::Background,
            shift: true,
        };
        let (_, v, e) = run(
            vec![
                shift,
                Input::Move { at: (10.0, 150.0) },
                up(Target::Background),
            ],
            &[],
        );
        assert_eq!(v, Viewport::default(), "no pan");
        assert_eq!(
            e,
            [Effect::SelectInside {
                area: Rect::new(10.0, 50.0, 90.0, 100.0),
                additive: true
            }]
        );
    }

    #[test]
    fn pressing_with_the_right_button_does_nothing() {
        let (g, v, e) = run(
            vec![
                Input::Down {
                    at: (0.0, 0.0),
                    button: 2,
                    target: Target::Background,
                    shift: false,
                },
                Input::Move { at: (90.0, 50.0) },
            ],
            &[],
        );
        assert_eq!((g, v), (Gesture::Idle, Viewport::default()));
        assert!(e.is_empty());
    }

    #[test]
    fn ctrl_wheel_zooms_around_the_pointer_and_plain_wheel_scrolls() {
        let (_, v, _) = run(
            vec![Input::Wheel {
                at: (200.0, 100.0),
                dx: 0.0,
                dy: -100.0,
                ctrl: true,
            }],
            &[],
        );
        assert!((v.zoom - ZOOM_STEP).abs() < 1e-12);
        let world = v.to_world((200.0, 100.0));
        assert!((world.0 - 200.0).abs() < 1e-9 && (world.1 - 100.0).abs() < 1e-9);
        let (_, v, _) = run(
            vec![Input::Wheel {
                at: (0.0, 0.0),
                dx: 10.0,
                dy: 30.0,
                ctrl: false,
            }],
            &[],
        );
        assert_eq!((v.x, v.y), (-10.0, -30.0));
    }
}
