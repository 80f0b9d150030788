//! The gesture machine's tests: input sequences and the effects they make, without a browser.

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

fn edge(state: &str, evaluation: &str) -> Limit {
    Limit {
        session_state: state.into(),
        evaluation: evaluation.into(),
    }
}

/// The lanes' edges (seed 001): dragged out of a chip onto an evaluation, clicked to select, their
/// end dragged onto another evaluation; a drop anywhere else, or a click on a chip, draws nothing.
#[test]
fn an_edge_is_drawn_from_a_chip_onto_an_evaluation_and_its_end_moved() {
    let chip = || Target::Chip("billing_mode".into());
    let evaluation = |id: &str| Target::Evaluation(id.into());
    let drawn = |at: (f64, f64), target: Target| {
        run(
            vec![down((10.0, 10.0), chip()), Input::Move { at }, up(target)],
            &[],
        )
    };
    let (g, _, e) = drawn((200.0, 300.0), evaluation("polite"));
    assert_eq!(g, Gesture::Idle);
    assert_eq!(e, vec![Effect::Limit(edge("billing_mode", "polite"))]);
    assert!(drawn((200.0, 300.0), Target::Background).2.is_empty());
    assert!(drawn((200.0, 300.0), card("a")).2.is_empty());
    assert!(
        drawn((11.0, 11.0), evaluation("polite")).2.is_empty(),
        "a click is not an edge"
    );

    let (_, _, e) = run(
        vec![down(
            (5.0, 5.0),
            Target::Limit(edge("billing_mode", "polite")),
        )],
        &[],
    );
    assert_eq!(e, vec![Effect::SelectLimit(edge("billing_mode", "polite"))]);

    let moved = |target: Target| {
        run(
            vec![
                down((5.0, 5.0), Target::LimitEnd(edge("billing_mode", "polite"))),
                Input::Move { at: (300.0, 5.0) },
                up(target),
            ],
            &[],
        )
        .2
    };
    assert_eq!(
        moved(evaluation("no-refund-promise")),
        vec![Effect::MoveLimit {
            limit: edge("billing_mode", "polite"),
            to: "no-refund-promise".into()
        }]
    );
    assert!(moved(evaluation("polite")).is_empty(), "back where it was");
    assert!(moved(Target::Background).is_empty());

    // An evaluation's card pans like the background; a click there clears the selection.
    let (_, v, e) = run(
        vec![
            down((100.0, 100.0), evaluation("polite")),
            Input::Move { at: (130.0, 100.0) },
            up(evaluation("polite")),
        ],
        &[],
    );
    assert_eq!((v.x, e), (30.0, vec![]));
}
