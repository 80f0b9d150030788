//! The canvas's context menu (right mouse button): on a card, on an arrow, on the background, each
//! with what an author does there. Which items a place offers is [`items`], a pure function tested
//! without a browser; the view shows them where the button was pressed and carries the chosen one
//! out through the same actions as the keyboard and the panels. The web view's own menu (Back,
//! Reload, Inspect Element) never shows on the canvas.

use leptos::prelude::*;
use plan_core::edit::NewState;

pub use super::menu::{Menu, Place};
use crate::actions::Actions;
use crate::editor::Editor;
use crate::keymap::Action;
use crate::navigation::{Navigation, Tab};
use crate::test_chat::TestChat;

/// One thing the menu offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// The state's title field, ready to type.
    Rename,
    /// A new arrow from the state, its target picked by title.
    Connect,
    /// A copy of the state beside it.
    Duplicate,
    /// The state or transition removed (Ctrl+Z brings it back).
    Delete,
    /// A test conversation that begins in this state.
    TestFromHere,
    /// The transition's condition in the inspector.
    EditCondition,
    /// The transition checked before (`true`) or after its neighbour in check order.
    Recheck(bool),
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
            Item::Connect => "Connect to…",
            Item::Duplicate => "Duplicate",
            Item::Delete => "Delete",
            Item::TestFromHere => "Test from here",
            Item::EditCondition => "Edit condition",
            Item::Recheck(true) => "Check earlier",
            Item::Recheck(false) => "Check later",
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
            Item::Connect => "connect",
            Item::Duplicate => "duplicate",
            Item::Delete => "delete",
            Item::TestFromHere => "test-from-here",
            Item::EditCondition => "edit-condition",
            Item::Recheck(true) => "check-earlier",
            Item::Recheck(false) => "check-later",
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

    /// The key that does the same from the keyboard, shown beside it.
    pub fn keys(self) -> Option<&'static str> {
        match self {
            Item::Rename | Item::EditCondition => Some("Enter"),
            Item::Connect => Some("C"),
            Item::Recheck(true) => Some("{"),
            Item::Recheck(false) => Some("}"),
            Item::Duplicate => Some("Ctrl+D"),
            Item::Delete => Some("Delete"),
            Item::Paste => Some("Ctrl+V"),
            Item::Fit => Some("Ctrl+0"),
            Item::TestFromHere | Item::Add(_) => None,
        }
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
                out.extend([Item::Rename, Item::Connect, Item::Duplicate]);
            }
            out.push(Item::TestFromHere);
            if editable {
                out.push(Item::Delete);
            }
        }
        Place::Arrow { .. } => {
            out.push(Item::EditCondition);
            if editable {
                out.extend([Item::Recheck(true), Item::Recheck(false), Item::Delete]);
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
        Place::DroppedArrow { .. } | Place::Beside(_) => {
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
        Item::Connect => {
            select(place);
            actions.perform(Action::Connect);
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
        Item::Recheck(earlier) => {
            select(place);
            actions.perform(Action::Recheck { earlier });
        }
        Item::Add(kind) => match place {
            Place::DroppedArrow { from } => actions.add_state(kind, Some(at), Some(from.clone())),
            // Beside the card, as a palette click places a state beside the selected one.
            Place::Beside(_) => {
                select(place);
                actions.add_state(kind, None, None);
            }
            _ => actions.add_state(kind, Some(at), None),
        },
        Item::Paste => actions.perform(Action::Paste),
        Item::Fit => actions.perform(Action::Fit),
    }
}

/// The open menu, if any, drawn where it was opened (kept inside the canvas); a choice or a
/// press elsewhere closes it. Opened, its first item has the focus; the arrow keys, Home and End
/// go through its items; Escape closes it and gives the focus back to where it was.
#[component]
pub fn ContextMenu(menu: RwSignal<Option<Menu>>, size: RwSignal<(f64, f64)>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let actions = expect_context::<Actions>();
    let root = NodeRef::<leptos::html::Div>::new();
    // What had the focus before the menu opened, to give it back on Escape.
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    let press = window_event_listener(leptos::ev::pointerdown, move |_| menu.set(None));
    on_cleanup(move || press.remove());
    Effect::new(move |_| {
        if menu.with(Option::is_some) {
            opener.set_value(active_element());
            request_animation_frame(move || focus_item(root, |_, _| Some(0)));
        }
    });
    let close_back = move || {
        menu.set(None);
        if let Some(el) = opener.get_value() {
            let _ = el.focus();
        }
    };
    let on_key = move |e: leptos::ev::KeyboardEvent| {
        let key = e.key();
        let step = match key.as_str() {
            "ArrowDown" => Some(menu_step::Step::Next),
            "ArrowUp" => Some(menu_step::Step::Previous),
            "Home" => Some(menu_step::Step::First),
            "End" => Some(menu_step::Step::Last),
            _ => None,
        };
        if let Some(step) = step {
            e.prevent_default();
            e.stop_propagation();
            focus_item(root, |at, n| menu_step::next(at, n, step));
        } else if key == "Escape" {
            e.prevent_default();
            e.stop_propagation();
            close_back();
        } else if key == "Tab" {
            menu.set(None);
        }
    };
    move || {
        let Menu { at, on } = menu.get()?;
        let editable = editor.mode.with_untracked(|m| m.is_draft());
        let list = items(&on, editable, actions.has_copied());
        // Kept inside the canvas: a menu opened near an edge opens towards the middle.
        let (w, h) = size.get_untracked();
        let (menu_w, menu_h) = (220.0, 8.0 + 30.0 * list.len() as f64);
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
                aria-label=on.spoken()
                node_ref=root
                style:left=format!("{left}px")
                style:top=format!("{top}px")
                on:pointerdown=|e: leptos::ev::PointerEvent| e.stop_propagation()
                on:contextmenu=|e: leptos::ev::MouseEvent| e.prevent_default()
                on:keydown=on_key
            >
                {list
                    .into_iter()
                    .map(|item| {
                        let on = on.clone();
                        view! {
                            <button
                                role="menuitem"
                                tabindex="-1"
                                data-testid=item.testid()
                                aria-keyshortcuts=item.keys()
                                on:click=move |_| {
                                    menu.set(None);
                                    choose(item, &on, at);
                                }
                            >
                                <span>{item.label()}</span>
                                {item.keys().map(|k| view! { <kbd class="menu-keys">{k}</kbd> })}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
        })
    }
}

/// The focused element, as an element that can be focused again.
fn active_element() -> Option<web_sys::HtmlElement> {
    use wasm_bindgen::JsCast;
    document()
        .active_element()
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
}

/// Focuses the menu's item that `pick` chooses from the focused one's place and the count.
fn focus_item(
    root: NodeRef<leptos::html::Div>,
    pick: impl Fn(Option<usize>, usize) -> Option<usize>,
) {
    use wasm_bindgen::JsCast;
    let Some(menu) = root.get_untracked() else {
        return;
    };
    // The items are the menu's children.
    let items: Vec<web_sys::HtmlElement> =
        std::iter::successors(menu.first_element_child(), |el| el.next_element_sibling())
            .filter_map(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
            .collect();
    let focused = document().active_element();
    let at = items
        .iter()
        .position(|el| focused.as_ref().is_some_and(|f| f == &**el));
    if let Some(el) = pick(at, items.len()).and_then(|i| items.get(i)) {
        let _ = el.focus();
    }
}

/// Going through a menu's items from the keyboard: pure.
pub mod menu_step {
    /// A key's move.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Step {
        Next,
        Previous,
        First,
        Last,
    }

    /// The item `step` goes to from item `at` (none focused: the first) among `n`, round at
    /// either end.
    pub fn next(at: Option<usize>, n: usize, step: Step) -> Option<usize> {
        if n == 0 {
            return None;
        }
        Some(match (step, at) {
            (Step::First, _) | (Step::Next, None) => 0,
            (Step::Last, _) | (Step::Previous, None) => n - 1,
            (Step::Next, Some(i)) => (i + 1) % n,
            (Step::Previous, Some(i)) => (i + n - 1) % n,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canvas::gesture::Target;
    use crate::editor::Selection;

    #[test]
    fn a_card_offers_rename_connect_duplicate_test_and_delete_and_a_version_only_the_test() {
        let card = Place::Card("a".into());
        assert_eq!(
            items(&card, true, false),
            [
                Item::Rename,
                Item::Connect,
                Item::Duplicate,
                Item::TestFromHere,
                Item::Delete
            ]
        );
        assert_eq!(items(&card, false, true), [Item::TestFromHere]);
    }

    #[test]
    fn an_arrow_offers_its_condition_its_place_in_check_order_and_delete() {
        let arrow = Place::Arrow {
            from: "a".into(),
            index: 0,
        };
        assert_eq!(
            items(&arrow, true, false),
            [
                Item::EditCondition,
                Item::Recheck(true),
                Item::Recheck(false),
                Item::Delete
            ]
        );
        assert_eq!(Item::Recheck(true).keys(), Some("{"));
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

    #[test]
    fn the_arrow_keys_go_round_a_menu_and_home_and_end_to_its_ends() {
        use menu_step::{next, Step};
        assert_eq!(next(None, 3, Step::Next), Some(0));
        assert_eq!(next(Some(2), 3, Step::Next), Some(0));
        assert_eq!(next(Some(0), 3, Step::Previous), Some(2));
        assert_eq!(next(Some(1), 3, Step::Last), Some(2));
        assert_eq!(next(Some(1), 3, Step::First), Some(0));
        assert_eq!(next(None, 0, Step::Next), None);
    }

    #[test]
    fn n_beside_a_card_offers_every_mode_and_each_item_shows_its_key() {
        let beside = Place::Beside("a".into());
        assert_eq!(items(&beside, true, false).len(), 6);
        assert_eq!(beside.selection(), Selection::state("a"));
        assert_eq!(Item::Delete.keys(), Some("Delete"));
        assert_eq!(Item::Connect.keys(), Some("C"));
        assert!(items(&Place::Card("a".into()), true, false).contains(&Item::Connect));
    }
}
