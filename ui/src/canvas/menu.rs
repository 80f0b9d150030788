//! What the canvas's context menu is about and where it opens: a card, an arrow, the background,
//! the end of an arrow let go on nothing, the place beside a card. Apart from the menu's view
//! (`context_menu`), so that the actions that open it (a right click, Shift+F10, N) name it without
//! depending on the view.

use super::gesture::Target;
use crate::editor::Selection;

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
    /// Beside a card (N from the keyboard): a state of any mode added next to it.
    Beside(String),
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
            Place::DroppedArrow { from } | Place::Beside(from) => Selection::state(from),
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

impl Place {
    /// What the menu is about, for a screen reader.
    pub fn spoken(&self) -> &'static str {
        match self {
            Place::Card(_) => "Card",
            Place::Arrow { .. } => "Arrow",
            Place::Background => "Canvas",
            Place::DroppedArrow { .. } => "New state at the arrow's end",
            Place::Beside(_) => "Add a state beside the card",
        }
    }
}
