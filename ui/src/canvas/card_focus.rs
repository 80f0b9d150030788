//! The keyboard's focus kept on a card whose element is drawn anew. A card's element is keyed by
//! everything it draws (`key::key_of`), so a card moved by the arrow keys, renamed, or brought
//! back by an undo gets a new element, and the focus of the old one would fall to the page. The
//! card that has the focus is remembered here; once the canvas has drawn its cards, a focus that
//! fell to the page goes back to that card (or, renamed, to the one selected card).

use std::cell::RefCell;

use leptos::prelude::*;

use super::scene::Card;
use crate::editor::Editor;

thread_local! {
    /// The state whose card has (or last had, before its element went) the keyboard's focus.
    static HELD: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Card `id` took the focus.
pub fn took(id: &str) {
    HELD.with(|h| *h.borrow_mut() = Some(id.to_string()));
}

/// Card `id`'s element lost the focus; while it is still in the page the author moved the focus
/// away (forgotten), else the element went with the focus (kept, to give it back).
pub fn lost(id: &str, element: Option<web_sys::Element>) {
    let went = element.is_some_and(|el| !el.is_connected());
    if !went {
        HELD.with(|h| {
            let mut h = h.borrow_mut();
            if h.as_deref() == Some(id) {
                *h = None;
            }
        });
    }
}

/// Whenever the canvas draws its cards again: a focus that fell to the page goes back to the card
/// that had it, else to the one selected card.
pub fn keep(editor: Editor, cards: Memo<Vec<Card>>) {
    Effect::new(move |_| {
        cards.track();
        if HELD.with(|h| h.borrow().is_none()) {
            return;
        }
        request_animation_frame(move || {
            let fell = document()
                .active_element()
                .is_none_or(|el| el.tag_name() == "BODY");
            if !fell {
                return;
            }
            let held = HELD.with(|h| h.borrow().clone());
            let selected = editor.selection.with_untracked(|s| match &s.states[..] {
                [one] => Some(one.clone()),
                _ => None,
            });
            let drawn = |id: &str| cards.with_untracked(|c| c.iter().any(|c| c.id == id));
            let back = held
                .filter(|id| drawn(id))
                .or(selected.filter(|id| drawn(id)));
            match back {
                Some(id) => crate::focus::focus_card(&id),
                None => HELD.with(|h| *h.borrow_mut() = None),
            }
        });
    });
}
