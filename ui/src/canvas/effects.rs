//! What the gesture machine's [`Effect`]s mean for the editor, decided without a browser: the
//! selection that follows, the one edit to dispatch, or the menu to open. The canvas's view only
//! carries the answer out.

use std::collections::BTreeMap;

use plan_core::edit::Command;
use plan_core::plan::Position;

use super::geometry::snap;
use super::gesture::Effect;
use super::menu::{Menu, Place};
use super::scene::Scene;
use crate::editor::Selection;

/// What an effect does.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The selection becomes this.
    Select(Selection),
    /// One edit, one undo step.
    Edit(Command),
    /// An edit that adds an arrow out of `from`, which is selected once the edit is made.
    Connect { command: Command, from: String },
    /// The context menu opens.
    Menu(Menu),
}

/// What `effect` does, given the `selection` before it and the `scene` drawn.
pub fn outcome(effect: Effect, selection: &Selection, scene: &Scene) -> Outcome {
    match effect {
        Effect::SelectStates { ids, additive } => {
            let mut states = if additive {
                selection.states.clone()
            } else {
                Vec::new()
            };
            for id in ids {
                match states.iter().position(|x| *x == id).filter(|_| additive) {
                    // Clicked again with the modifier: out of the selection.
                    Some(i) => {
                        states.remove(i);
                    }
                    None => states.push(id),
                }
            }
            Outcome::Select(Selection {
                states,
                transition: None,
                limit: None,
            })
        }
        Effect::SelectTransition { from, index } => Outcome::Select(Selection {
            states: Vec::new(),
            transition: Some((from, index)),
            limit: None,
        }),
        Effect::ClearSelection => Outcome::Select(Selection::default()),
        Effect::SelectInside { area, additive } => {
            let mut states = if additive {
                selection.states.clone()
            } else {
                Vec::new()
            };
            for card in scene.cards.iter().filter(|c| c.rect.intersects(&area)) {
                if !states.contains(&card.id) {
                    states.push(card.id.clone());
                }
            }
            Outcome::Select(Selection {
                states,
                transition: None,
                limit: None,
            })
        }
        Effect::MoveBy { ids, dx, dy } => {
            let moves: BTreeMap<String, Position> = scene
                .cards
                .iter()
                .filter(|c| ids.contains(&c.id))
                .map(|c| {
                    let at = Position {
                        x: snap(c.rect.x + dx),
                        y: snap(c.rect.y + dy),
                    };
                    (c.id.clone(), at)
                })
                .collect();
            Outcome::Edit(Command::MoveStates { moves })
        }
        Effect::Connect { from, to } => Outcome::Connect {
            command: Command::Connect {
                from: from.clone(),
                to,
            },
            from,
        },
        Effect::DroppedArrow { from, at } => Outcome::Menu(Menu {
            at,
            on: Place::DroppedArrow { from },
        }),
        Effect::Retarget { from, index, to } => {
            Outcome::Edit(Command::Retarget { from, index, to })
        }
        // An edge drawn where one is already selects it rather than asking for a refused edit.
        Effect::Limit(limit) if scene.lanes.has(&limit) => Outcome::Select(Selection {
            states: Vec::new(),
            transition: None,
            limit: Some(limit),
        }),
        Effect::Limit(limit) => Outcome::Edit(Command::LimitEvaluation(limit)),
        Effect::SelectLimit(limit) => Outcome::Select(Selection {
            states: Vec::new(),
            transition: None,
            limit: Some(limit),
        }),
        Effect::MoveLimit { limit, to } => Outcome::Edit(Command::MoveLimit { limit, to }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canvas::geometry::Rect;
    use plan_core::parse_plan;

    fn scene() -> Scene {
        Scene::build(
            &parse_plan(
                r#"{"id": "p", "title": "P", "states": [
                    {"id": "a", "title": "A", "transitions": [{"target_state_id": "b"}]},
                    {"id": "b", "title": "B", "transitions": [{"target_state_id": "c"}]},
                    {"id": "c", "title": "C", "ending": {"kind": "complete"}}
                ], "layout": {"a": {"x": 0, "y": 0}, "b": {"x": 400, "y": 0}, "c": {"x": 800, "y": 0}}}"#,
            )
            .unwrap(),
        )
    }

    fn selected(states: &[&str]) -> Selection {
        Selection {
            states: states.iter().map(|s| s.to_string()).collect(),
            transition: None,
            limit: None,
        }
    }

    fn select(ids: &[&str], additive: bool) -> Effect {
        Effect::SelectStates {
            ids: ids.iter().map(|s| s.to_string()).collect(),
            additive,
        }
    }

    #[test]
    fn a_click_selects_one_card_and_a_modified_click_toggles_it() {
        let s = scene();
        let before = Selection {
            states: vec!["a".into()],
            transition: Some(("a".into(), 0)),
            limit: None,
        };
        assert_eq!(
            outcome(select(&["b"], false), &before, &s),
            Outcome::Select(selected(&["b"]))
        );
        assert_eq!(
            outcome(select(&["b"], true), &before, &s),
            Outcome::Select(selected(&["a", "b"]))
        );
        assert_eq!(
            outcome(select(&["a"], true), &selected(&["a", "b"]), &s),
            Outcome::Select(selected(&["b"]))
        );
    }

    #[test]
    fn a_lasso_selects_the_cards_it_touches_added_to_the_selection_with_the_modifier() {
        let s = scene();
        let area = Rect {
            x: -10.0,
            y: -10.0,
            w: 450.0,
            h: 50.0,
        };
        assert_eq!(
            outcome(
                Effect::SelectInside {
                    area,
                    additive: false
                },
                &selected(&["c"]),
                &s
            ),
            Outcome::Select(selected(&["a", "b"]))
        );
        assert_eq!(
            outcome(
                Effect::SelectInside {
                    area,
                    additive: true
                },
                &selected(&["c", "a"]),
                &s
            ),
            Outcome::Select(selected(&["c", "a", "b"]))
        );
    }

    #[test]
    fn a_drag_moves_the_dragged_cards_to_the_grid_in_one_edit() {
        let s = scene();
        let moved = outcome(
            Effect::MoveBy {
                ids: vec!["a".into(), "c".into()],
                dx: 13.0,
                dy: -7.0,
            },
            &Selection::default(),
            &s,
        );
        let Outcome::Edit(Command::MoveStates { moves }) = moved else {
            panic!("a move, got {moved:?}");
        };
        assert_eq!(moves.keys().collect::<Vec<_>>(), ["a", "c"]);
        assert_eq!(moves["a"].x, snap(13.0));
        assert_eq!(moves["c"].y, snap(-7.0));
    }

    #[test]
    fn an_arrow_drawn_is_one_connect_and_one_let_go_on_nothing_opens_the_menu_there() {
        let s = scene();
        let drawn = Effect::Connect {
            from: "a".into(),
            to: "c".into(),
        };
        assert!(matches!(
            outcome(drawn, &Selection::default(), &s),
            Outcome::Connect { from, command: Command::Connect { to, .. } } if from == "a" && to == "c"
        ));
        let dropped = Effect::DroppedArrow {
            from: "b".into(),
            at: (10.0, 20.0),
        };
        assert_eq!(
            outcome(dropped, &Selection::default(), &s),
            Outcome::Menu(Menu {
                at: (10.0, 20.0),
                on: Place::DroppedArrow { from: "b".into() }
            })
        );
    }

    /// An edge drawn is one edit; drawn again where it is, it is selected (no refused edit);
    /// its end moved is one edit.
    #[test]
    fn an_edge_drawn_is_one_edit_and_drawn_again_selects_it() {
        use plan_core::edit::Limit;
        let plan = parse_plan(include_str!("../../../plans/account-care.json")).unwrap();
        let s = Scene::build(&plan);
        let edge = |state: &str| Limit {
            session_state: state.into(),
            evaluation: "no-refund-promise".into(),
        };
        assert_eq!(
            outcome(Effect::Limit(edge("upsell")), &selected(&[]), &s),
            Outcome::Edit(Command::LimitEvaluation(edge("upsell")))
        );
        assert_eq!(
            outcome(Effect::Limit(edge("billing_mode")), &selected(&[]), &s),
            Outcome::Select(Selection {
                states: vec![],
                transition: None,
                limit: Some(edge("billing_mode")),
            })
        );
        assert_eq!(
            outcome(
                Effect::MoveLimit {
                    limit: edge("billing_mode"),
                    to: "polite".into()
                },
                &selected(&[]),
                &s
            ),
            Outcome::Edit(Command::MoveLimit {
                limit: edge("billing_mode"),
                to: "polite".into()
            })
        );
    }
}
