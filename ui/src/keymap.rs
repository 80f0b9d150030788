//! The keyboard shortcuts and mouse gestures in one table, which both the keymap (what a key
//! press does) and the help overlay (`?`, what the author is told) read, so the two cannot
//! disagree. Pure: a key press is matched to an [`Action`] here and tested without a browser;
//! the window's listener carries the action out.

/// What a shortcut does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Undo,
    Redo,
    ZoomIn,
    ZoomOut,
    Fit,
    Find,
    Copy,
    Paste,
    Duplicate,
    SelectAll,
    Delete,
    /// Close an overlay, else clear the selection.
    Escape,
    Help,
    /// Show or hide the left column (plans and palette).
    ToggleSide,
    /// Show or hide the right panel (inspector and the other tabs).
    TogglePanel,
    /// Move the selected cards by a grid step (four with Shift) in a direction.
    Nudge {
        dx: i8,
        dy: i8,
    },
    /// Select (and focus) the nearest card in a direction.
    Neighbour {
        dx: i8,
        dy: i8,
    },
    /// A new state of a mode picked from a menu, next to the selected card.
    AddBeside,
    /// The selected card connected to a state picked by its title.
    Connect,
    /// The next (or previous) arrow out of the selected card, or of the selected arrow's card.
    CycleArrows {
        forward: bool,
    },
    /// The selected arrow checked one place earlier (or later) among its card's arrows.
    Recheck {
        earlier: bool,
    },
    /// The context menu of what has the focus.
    OpenMenu,
    /// The focus moved to the next (or previous) region of the window: the plans, the canvas,
    /// the panel.
    Region {
        forward: bool,
    },
}

/// A key press as the keymap reads it.
#[derive(Debug, Clone, Copy)]
pub struct Press<'a> {
    /// The `key` of the keyboard event (`"z"`, `"ArrowLeft"`, `"?"`).
    pub key: &'a str,
    /// Ctrl, or Cmd on a Mac.
    pub ctrl: bool,
    pub shift: bool,
    /// The focus is in a text field, where letters and Delete are the field's.
    pub typing: bool,
}

/// One way of pressing a shortcut.
#[derive(Debug, Clone, Copy)]
struct Keys {
    /// Any of these `key` values (both cases of a letter are listed).
    keys: &'static [&'static str],
    ctrl: bool,
    /// `Some(true)`: Shift must be held; `Some(false)`: must not be; `None`: either.
    shift: Option<bool>,
    /// Also while typing in a text field.
    in_text: bool,
}

/// A row of the help overlay: how it is done, what it does, and, for the keyboard, the keys the
/// keymap matches.
#[derive(Debug, Clone, Copy)]
pub struct Shortcut {
    /// As the author reads it: "Ctrl+Z", "Drag the background · scroll".
    pub how: &'static str,
    pub does: &'static str,
    keys: &'static [Keys],
    action: Option<Action>,
}

const fn ctrl(keys: &'static [&'static str], shift: Option<bool>, in_text: bool) -> Keys {
    Keys {
        keys,
        ctrl: true,
        shift,
        in_text,
    }
}

const fn plain(keys: &'static [&'static str], in_text: bool) -> Keys {
    Keys {
        keys,
        ctrl: false,
        shift: None,
        in_text,
    }
}

const fn shifted(keys: &'static [&'static str], in_text: bool) -> Keys {
    Keys {
        keys,
        ctrl: false,
        shift: Some(true),
        in_text,
    }
}

const fn unshifted(keys: &'static [&'static str], in_text: bool) -> Keys {
    Keys {
        keys,
        ctrl: false,
        shift: Some(false),
        in_text,
    }
}

const fn gesture(how: &'static str, does: &'static str) -> Shortcut {
    Shortcut {
        how,
        does,
        keys: &[],
        action: None,
    }
}

const fn key(
    how: &'static str,
    does: &'static str,
    keys: &'static [Keys],
    action: Action,
) -> Shortcut {
    Shortcut {
        how,
        does,
        keys,
        action: Some(action),
    }
}

/// Every shortcut and gesture, in the order the help overlay lists them.
pub const SHORTCUTS: &[Shortcut] = &[
    gesture("Double-click the canvas", "Add a state"),
    gesture(
        "Drag a card's right edge to a card",
        "Connect (onto itself: a loop; onto the empty canvas: a new state there)",
    ),
    gesture(
        "Drag an arrow's end (when selected)",
        "Send it to another state",
    ),
    gesture(
        "Click · Shift+click · Shift+drag",
        "Select · add to selection · select in a box",
    ),
    gesture("Drag cards", "Move (snaps to the grid)"),
    key(
        "←",
        "Move the selection left (Shift: ×4)",
        &[plain(&["ArrowLeft"], false)],
        Action::Nudge { dx: -1, dy: 0 },
    ),
    key(
        "→",
        "Move the selection right (Shift: ×4)",
        &[plain(&["ArrowRight"], false)],
        Action::Nudge { dx: 1, dy: 0 },
    ),
    key(
        "↑",
        "Move the selection up (Shift: ×4)",
        &[plain(&["ArrowUp"], false)],
        Action::Nudge { dx: 0, dy: -1 },
    ),
    key(
        "↓",
        "Move the selection down (Shift: ×4)",
        &[plain(&["ArrowDown"], false)],
        Action::Nudge { dx: 0, dy: 1 },
    ),
    key(
        "Ctrl+←",
        "Go to the nearest card on the left",
        &[ctrl(&["ArrowLeft"], Some(false), false)],
        Action::Neighbour { dx: -1, dy: 0 },
    ),
    key(
        "Ctrl+→",
        "Go to the nearest card on the right",
        &[ctrl(&["ArrowRight"], Some(false), false)],
        Action::Neighbour { dx: 1, dy: 0 },
    ),
    key(
        "Ctrl+↑",
        "Go to the nearest card above",
        &[ctrl(&["ArrowUp"], Some(false), false)],
        Action::Neighbour { dx: 0, dy: -1 },
    ),
    key(
        "Ctrl+↓",
        "Go to the nearest card below",
        &[ctrl(&["ArrowDown"], Some(false), false)],
        Action::Neighbour { dx: 0, dy: 1 },
    ),
    key(
        "N",
        "Add a state next to the selected card (pick its mode from the menu)",
        &[plain(&["n", "N"], false)],
        Action::AddBeside,
    ),
    key(
        "C",
        "Connect the selected card to another (type part of its title, Enter)",
        &[plain(&["c", "C"], false)],
        Action::Connect,
    ),
    key(
        "]",
        "Select the card's next arrow (Delete, Enter and Escape then act on it)",
        &[plain(&["]"], false)],
        Action::CycleArrows { forward: true },
    ),
    key(
        "[",
        "Select the card's previous arrow",
        &[plain(&["["], false)],
        Action::CycleArrows { forward: false },
    ),
    key(
        "{",
        "Check the selected arrow before the one checked just before it",
        &[plain(&["{"], false)],
        Action::Recheck { earlier: true },
    ),
    key(
        "}",
        "Check the selected arrow after the one checked just after it",
        &[plain(&["}"], false)],
        Action::Recheck { earlier: false },
    ),
    gesture(
        "Enter",
        "Open the selected card in the inspector (an arrow: its condition)",
    ),
    key(
        "Shift+F10 or the Menu key",
        "Open the menu of what has the focus",
        &[shifted(&["F10"], false), plain(&["ContextMenu"], false)],
        Action::OpenMenu,
    ),
    key(
        "F6",
        "Go to the next region: the toolbar, the plans, the canvas, the panel",
        &[unshifted(&["F6"], true)],
        Action::Region { forward: true },
    ),
    key(
        "Shift+F6",
        "Go to the previous region",
        &[shifted(&["F6"], true)],
        Action::Region { forward: false },
    ),
    key(
        "Delete",
        "Delete the selection",
        &[plain(&["Delete", "Backspace"], false)],
        Action::Delete,
    ),
    key(
        "Ctrl+C",
        "Copy the selected states",
        &[ctrl(&["c", "C"], None, false)],
        Action::Copy,
    ),
    key(
        "Ctrl+V",
        "Paste",
        &[ctrl(&["v", "V"], None, false)],
        Action::Paste,
    ),
    key(
        "Ctrl+D",
        "Duplicate the selected states",
        &[ctrl(&["d", "D"], None, false)],
        Action::Duplicate,
    ),
    key(
        "Ctrl+A",
        "Select every state",
        &[ctrl(&["a", "A"], None, false)],
        Action::SelectAll,
    ),
    key(
        "Ctrl+Z",
        "Undo",
        &[ctrl(&["z", "Z"], Some(false), true)],
        Action::Undo,
    ),
    key(
        "Ctrl+Shift+Z or Ctrl+Y",
        "Redo",
        &[
            ctrl(&["z", "Z"], Some(true), true),
            ctrl(&["y", "Y"], None, true),
        ],
        Action::Redo,
    ),
    key(
        "Ctrl+F",
        "Find a state",
        &[ctrl(&["f", "F"], None, true)],
        Action::Find,
    ),
    gesture("Drag the background · scroll", "Pan"),
    gesture(
        "S · L · G before a title, zoomed far out",
        "A strict, loose or goal state (comparing: New, Changed, Removed)",
    ),
    gesture("Ctrl+scroll · pinch", "Zoom"),
    key(
        "Ctrl+=",
        "Zoom in",
        &[ctrl(&["=", "+"], None, true)],
        Action::ZoomIn,
    ),
    key(
        "Ctrl+-",
        "Zoom out",
        &[ctrl(&["-"], None, true)],
        Action::ZoomOut,
    ),
    key(
        "Ctrl+0",
        "Fit the whole plan",
        &[ctrl(&["0"], None, true)],
        Action::Fit,
    ),
    key(
        "Ctrl+B",
        "Show or hide the plans and the palette",
        &[ctrl(&["b", "B"], Some(false), true)],
        Action::ToggleSide,
    ),
    key(
        "Ctrl+Shift+B",
        "Show or hide the inspector panel",
        &[ctrl(&["b", "B"], Some(true), true)],
        Action::TogglePanel,
    ),
    key("?", "This help", &[plain(&["?"], false)], Action::Help),
    key(
        "Escape",
        "Close · on an arrow, back to its card · clear the selection",
        &[plain(&["Escape"], true)],
        Action::Escape,
    ),
];

impl Keys {
    fn matches(&self, press: &Press) -> bool {
        self.keys.contains(&press.key)
            && self.ctrl == press.ctrl
            && self.shift.is_none_or(|shift| shift == press.shift)
            && (self.in_text || !press.typing)
    }
}

/// What `press` does, if it is a shortcut.
pub fn action_for(press: &Press) -> Option<Action> {
    SHORTCUTS
        .iter()
        .find(|s| s.keys.iter().any(|k| k.matches(press)))
        .and_then(|s| s.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(key: &str, ctrl: bool, shift: bool, typing: bool) -> Option<Action> {
        action_for(&Press {
            key,
            ctrl,
            shift,
            typing,
        })
    }

    #[test]
    fn every_listed_key_does_what_its_row_says() {
        for s in SHORTCUTS {
            for k in s.keys {
                for key in k.keys {
                    let shift = k.shift.unwrap_or(false);
                    assert_eq!(press(key, k.ctrl, shift, false), s.action, "{}", s.how);
                }
            }
            // A row with keys has an action, a gesture has neither.
            assert_eq!(s.keys.is_empty(), s.action.is_none(), "{}", s.how);
        }
    }

    #[test]
    fn undo_redo_and_the_shift_variant_are_told_apart() {
        assert_eq!(press("z", true, false, false), Some(Action::Undo));
        assert_eq!(press("Z", true, true, false), Some(Action::Redo));
        assert_eq!(press("y", true, false, true), Some(Action::Redo));
        assert_eq!(press("b", true, false, false), Some(Action::ToggleSide));
        assert_eq!(press("B", true, true, true), Some(Action::TogglePanel));
    }

    #[test]
    fn letters_and_delete_belong_to_a_text_field_while_typing() {
        assert_eq!(press("Delete", false, false, false), Some(Action::Delete));
        assert_eq!(press("Delete", false, false, true), None);
        assert_eq!(press("c", true, false, true), None);
        assert_eq!(press("?", false, true, true), None);
        // Undo and Escape work everywhere.
        assert_eq!(press("z", true, false, true), Some(Action::Undo));
        assert_eq!(press("Escape", false, false, true), Some(Action::Escape));
        // A plain letter is nobody's shortcut but the canvas's own few, never while typing.
        assert_eq!(press("x", false, false, false), None);
        assert_eq!(press("c", false, false, false), Some(Action::Connect));
        assert_eq!(press("c", false, false, true), None);
        assert_eq!(press("n", false, false, true), None);
        assert_eq!(press("]", false, false, true), None);
        // F6 leaves a text field too; the Menu key there is the field's own.
        assert_eq!(
            press("F6", false, false, true),
            Some(Action::Region { forward: true })
        );
        assert_eq!(
            press("F6", false, true, true),
            Some(Action::Region { forward: false })
        );
        assert_eq!(press("F10", false, true, true), None);
        assert_eq!(press("F10", false, true, false), Some(Action::OpenMenu));
    }

    #[test]
    fn braces_move_an_arrow_in_check_order_with_shift_held_as_they_are_typed() {
        assert_eq!(
            press("{", false, true, false),
            Some(Action::Recheck { earlier: true })
        );
        assert_eq!(
            press("}", false, true, false),
            Some(Action::Recheck { earlier: false })
        );
        assert_eq!(
            press("}", false, true, true),
            None,
            "a brace typed in a field"
        );
    }
}
