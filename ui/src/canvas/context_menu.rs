//! The canvas's context menu (right mouse button): on a card, on an arrow, on the background, each
//! with what an author does there. Which items a place offers is [`items`], a pure function tested
//! without a browser; the view shows them where the button was pressed and carries the chosen one
//! out through the same actions as the keyboard and the panels. The web view's own menu (Back,
//! Reload, Inspect Element) never shows on the canvas.

use leptos::prelude::*;
use plan_core::edit::NewState;

use super::gesture::Target;
use crate::actions::Actions;
use crate::editor::{Editor, Selection};
use crate::keymap::Action;
use crate::navigation::{Navigation, Tab};
use crate::test_chat::TestChat;

/// What the menu was opened on, and where (canvas pixels).
#[derive(Debug, Clone, PartialEq)]
pub struct Menu {
    /// Where the button was pressed, in the canvas's pixels.
    pub at: (f64, f64),
    /// What is there.
    pub on: Place,
}

/// What a menu is about.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    /// A state's card.
    Card(String),
    /// Transition `index` of state `from`.
    Arrow {
        /// The state it leaves.
        from: String,
        /// Its index among the state's transitions.
        index: usize,
    },
    /// The empty canvas.
    Background,
    /// The empty canvas where a new arrow out of `from` was let go: a state added there is
    /// connected from it.
    DroppedArrow {
        /// The state the arrow leaves.
        from: String,
    },
}

impl Place {
    /// The selection a click on it makes: the card, the arrow, or nothing.
    pub fn selection(&self) -> Selection {
        match self {
            Place::Card(id) => Selection::state(id),
            Place::Arrow { from, index } => Selection {
                states: Vec::new(),
                transition: Some((from.clone(), *index)),
                limit: None,
            },
            Place::Background => Selection::default(),
            Place::DroppedArrow { from } => Selection::state(from),
        }
    }

    /// The place under the pointer as the gesture machine names it; none for the controls drawn
    /// over the canvas.
    pub fn of(target: Target) -> Option<Place> {
        match target {
            Target::Card(id) | Target::Handle(id) => Some(Place::Card(id)),
            Target::Arrow { from, index } | Target::ArrowEnd { from, index } => {
                Some(Place::Arrow { from, index })
            }
            Target::Background => Some(Place::Background),
            _ => None,
        }
    }
}

/// One thing the menu offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// The state's title field, ready to type.
    Rename,
    /// A copy of the state beside it.
    Duplicate,
    /// The state or transition removed (Ctrl+Z brings it back).
    Delete,
    /// A test conversation that begins in this state.
    TestFromHere,
    /// The transition's condition in the inspector.
    EditCondition,
    /// A new state of this mode where the menu was opened.
    Add(NewState),
    /// The copied states, here.
    Paste,
    /// The whole plan in view.
    Fit,
}

impl Item {
    /// The words the menu shows.
    pub fn label(self) -> &'static str {
        match self {
            Item::Rename => "Rename",
            Item::Duplicate => "Duplicate",
            Item::Delete => "Delete",
            Item::TestFromHere => "Test from here",
            Item::EditCondition => "Edit condition",
            Item::Add(NewState::Strict) => "Add a strict state here",
            Item::Add(NewState::Loose) => "Add a loose state here",
            Item::Add(NewState::Goal) => "Add a goal state here",
            Item::Add(NewState::EndComplete) => "Add an end here",
            Item::Add(NewState::EndHangUp) => "Add a hang-up here",
            Item::Add(NewState::EndHandOff) => "Add a hand-off here",
            Item::Paste => "Paste",
            Item::Fit => "Fit the plan in view",
        }
    }

    /// Its `data-testid`: `menu-rename`, `menu-add-goal`, …
    pub fn testid(self) -> String {
        let name = match self {
            Item::Rename => "rename",
            Item::Duplicate => "duplicate",
            Item::Delete => "delete",
            Item::TestFromHere => "test-from-here",
            Item::EditCondition => "edit-condition",
            Item::Add(NewState::Strict) => "add-strict",
            Item::Add(NewState::Loose) => "add-loose",
            Item::Add(NewState::Goal) => "add-goal",
            Item::Add(NewState::EndComplete) => "add-end",
            Item::Add(NewState::EndHangUp) => "add-hang-up",
            Item::Add(NewState::EndHandOff) => "add-hand-off",
            Item::Paste => "paste",
            Item::Fit => "fit",
        };
        format!("menu-{name}")
    }
}

/// The modes a new state can have, in the order menus offer them: the background's menu the
/// first four (the endings share one, "End"), a dropped arrow's all six.
const NEW_STATES: [NewState; 6] = [
    NewState::Loose,
    NewState::Strict,
    NewState::Goal,
    NewState::EndComplete,
    NewState::EndHangUp,
    NewState::EndHandOff,
];

/// What the menu offers on `place`: what changes the plan only when the draft is shown
/// (`editable`), Paste only with something copied.
pub fn items(place: &Place, editable: bool, copied: bool) -> Vec<Item> {
    let mut out = Vec::new();
    match place {
        Place::Card(_) => {
            if editable {
                out.extend([Item::Rename, Item::Duplicate]);
            }
            out.push(Item::TestFromHere);
            if editable {
                out.push(Item::Delete);
            }
        }
        Place::Arrow { .. } => {
            out.push(Item::EditCondition);
            if editable {
                out.push(Item::Delete);
            }
        }
        Place::Background => {
            if editable {
                out.extend(NEW_STATES[..4].iter().copied().map(Item::Add));
                if copied {
                    out.push(Item::Paste);
                }
            }
            out.push(Item::Fit);
        }
        Place::DroppedArrow { .. } => {
            if editable {
                out.extend(NEW_STATES.iter().copied().map(Item::Add));
            }
        }
    }
    out
}

/// Carries `item` out on `place`, the menu opened at `at` (canvas pixels).
fn choose(item: Item, place: &Place, at: (f64, f64)) {
    let editor = expect_context::<Editor>();
    let actions = expect_context::<Actions>();
    let select = |place: &Place| editor.select(place.selection());
    match item {
        Item::Rename => {
            select(place);
            expect_context::<Navigation>().show(Tab::Inspect);
            super::items::open_in_inspector();
        }
        Item::Duplicate => {
            select(place);
            actions.perform(Action::Duplicate);
        }
        Item::Delete => {
            select(place);
            actions.perform(Action::Delete);
        }
        Item::TestFromHere => {
            if let Place::Card(id) = place {
                select(place);
                expect_context::<TestChat>().test_from(id.clone());
            }
        }
        Item::EditCondition => {
            select(place);
            expect_context::<Navigation>().show(Tab::Inspect);
        }
        Item::Add(kind) => {
            let from = match place {
                Place::DroppedArrow { from } => Some(from.clone()),
                _ => None,
            };
            actions.add_state(kind, Some(at), from);
        }
        Item::Paste => actions.perform(Action::Paste),
        Item::Fit => actions.perform(Action::Fit),
    }
}

/// The open menu, if any, drawn where it was opened (kept inside the canvas); a choice or a
/// press elsewhere closes it.
#[component]
pub fn ContextMenu(menu: RwSignal<Option<Menu>>, size: RwSignal<(f64, f64)>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let actions = expect_context::<Actions>();
    // A press anywhere else, or Escape, closes it.
    let press = window_event_listener(leptos::ev::pointerdown, move |_| menu.set(None));
    let key = window_event_listener(leptos::ev::keydown, move |e: leptos::ev::KeyboardEvent| {
        if e.key() == "Escape" {
            menu.set(None);
        }
    });
    on_cleanup(move || {
        press.remove();
        key.remove();
    });
    move || {
        let Menu { at, on } = menu.get()?;
        let editable = editor.mode.with_untracked(|m| m.is_draft());
        let list = items(&on, editable, actions.has_copied());
        // Kept inside the canvas: a menu opened near an edge opens towards the middle.
        let (w, h) = size.get_untracked();
        let (menu_w, menu_h) = (200.0, 8.0 + 30.0 * list.len() as f64);
        let left = if at.0 + menu_w > w {
            (at.0 - menu_w).max(0.0)
        } else {
            at.0
        };
        let top = if at.1 + menu_h > h {
            (at.1 - menu_h).max(0.0)
        } else {
            at.1
        };
        Some(view! {
            <div
                class="context-menu"
                data-testid="context-menu"
                role="menu"
                style:left=format!("{left}px")
                style:top=format!("{top}px")
                on:pointerdown=|e: leptos::ev::PointerEvent| e.stop_propagation()
                on:contextmenu=|e: leptos::ev::MouseEvent| e.prevent_default()
            >
                {list
                    .into_iter()
                    .map(|item| {
                        let on = on.clone();
                        view! {
                            <button
                                role="menuitem"
                                data-testid=item.testid()
                                on:click=move |_| {
                                    menu.set(None);
                                    choose(item, &on, at);
                                }
                            >
                                {item.label()}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_offers_rename_duplicate_test_and_delete_and_a_version_only_the_test() {
        let card = Place::Card("a".into());
        assert_eq!(
            items(&card, true, false),
            [
                Item::Rename,
                Item::Duplicate,
                Item::TestFromHere,
                Item::Delete
            ]
        );
        assert_eq!(items(&card, false, true), [Item::TestFromHere]);
    }

    #[test]
    fn an_arrow_offers_its_condition_and_delete() {
        let arrow = Place::Arrow {
            from: "a".into(),
            index: 0,
        };
        assert_eq!(
            items(&arrow, true, false),
            [Item::EditCondition, Item::Delete]
        );
        assert_eq!(items(&arrow, false, false), [Item::EditCondition]);
    }

    #[test]
    fn the_background_offers_a_state_of_each_mode_paste_when_something_is_copied_and_fit() {
        let all = items(&Place::Background, true, true);
        assert_eq!(all.len(), 6);
        assert!(all.contains(&Item::Paste) && all.last() == Some(&Item::Fit));
        assert!(!items(&Place::Background, true, false).contains(&Item::Paste));
        assert_eq!(items(&Place::Background, false, true), [Item::Fit]);
        let ids: std::collections::BTreeSet<String> = all.iter().map(|i| i.testid()).collect();
        assert_eq!(ids.len(), all.len(), "one testid each");
    }

    #[test]
    fn an_arrow_let_go_on_the_empty_canvas_offers_a_state_of_every_mode_there() {
        let dropped = Place::DroppedArrow { from: "a".into() };
        let all = items(&dropped, true, true);
        assert_eq!(all.len(), 6);
        assert!(all.iter().all(|i| matches!(i, Item::Add(_))));
        assert_eq!(items(&dropped, false, true), []);
        assert_eq!(dropped.selection(), Selection::state("a"));
    }

    #[test]
    fn the_controls_over_the_canvas_open_no_menu() {
        assert_eq!(
            Place::of(Target::Handle("a".into())),
            Some(Place::Card("a".into()))
        );
        assert_eq!(Place::of(Target::Background), Some(Place::Background));
    }
}
