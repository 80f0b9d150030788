//! The canvas authored from the keyboard: a state added beside the selected card (N, its mode
//! picked from a menu), the card connected to a state picked by its title (C), the card's arrows
//! gone round (`]`, `[`) and checked earlier or later (`{`, `}`), the menu of what has the focus (Shift+F10, the Menu key), and F6 round
//! the window's regions. Where the focus goes is decided in `canvas::neighbour` and `regions`,
//! pure; this carries it out.

use leptos::prelude::*;
use plan_core::edit::{Command, Limit};
use wasm_bindgen::JsCast;

use super::{focus_card, Actions};
use crate::canvas::lanes;
use crate::canvas::menu::{Menu, Place};
use crate::canvas::neighbour;
use crate::canvas::spoken::arrow_spoken;
use crate::canvas::text::order_word;
use crate::editor::Selection;
use crate::regions::{self, Region};

/// What a new edge leaves while its target is picked (C).
#[derive(Debug, Clone, PartialEq)]
pub enum Connecting {
    /// An arrow from a state to another.
    Arrow {
        /// The state the arrow leaves.
        from: String,
    },
    /// An edge of the lanes: an evaluation limited to a session state.
    Limit {
        /// The session state (its chip has the focus).
        session_state: String,
    },
}

/// The session state whose chip has the focus, if one has.
fn focused_chip() -> Option<String> {
    document()
        .active_element()?
        .closest("[data-testid=session-chip]")
        .ok()??
        .get_attribute("data-session-state")
}

impl Actions {
    /// The one selected card, if one alone is.
    pub(super) fn one_selected(self) -> Option<String> {
        self.editor
            .selection
            .with_untracked(|s| match &s.states[..] {
                [one] => Some(one.clone()),
                _ => None,
            })
    }

    /// The card an arrow-selection belongs to, else the one selected card.
    fn card_in_hand(self) -> Option<String> {
        let arrow = self
            .editor
            .selection
            .with_untracked(|s| s.transition.as_ref().map(|(from, _)| from.clone()));
        arrow.or_else(|| self.one_selected())
    }

    /// Where the menu of card `id` opens: under the card's middle, in the canvas's pixels.
    fn under_card(self, id: &str) -> (f64, f64) {
        let rect = self
            .scene
            .with_untracked(|s| s.cards.iter().find(|c| c.id == id).map(|c| c.rect));
        let v = self.camera.viewport.get_untracked();
        match rect {
            Some(r) => v.to_screen((r.x + r.w / 2.0, r.y + r.h)),
            None => self.middle_of_canvas(),
        }
    }

    fn middle_of_canvas(self) -> (f64, f64) {
        let (w, h) = self.camera.size.get_untracked();
        (w / 2.0, h / 2.0)
    }

    /// N: the menu of the modes a state beside the selected card can have; with no card
    /// selected, the background's menu in the middle of the view.
    pub(super) fn add_beside(self) -> bool {
        if !self.editor.mode.with_untracked(|m| m.is_draft()) {
            return false;
        }
        let menu = match self.one_selected() {
            Some(id) => Menu {
                at: self.under_card(&id),
                on: Place::Beside(id),
            },
            None => Menu {
                at: self.middle_of_canvas(),
                on: Place::Background,
            },
        };
        self.menu.set(Some(menu));
        true
    }

    /// C: the picker of the state an arrow from the selected card goes to.
    pub(super) fn start_connecting(self) -> bool {
        if !self.editor.mode.with_untracked(|m| m.is_draft()) {
            return false;
        }
        if let Some(session_state) = focused_chip() {
            self.connecting
                .set(Some(Connecting::Limit { session_state }));
            return true;
        }
        match self.card_in_hand() {
            Some(from) => {
                self.connecting.set(Some(Connecting::Arrow { from }));
                true
            }
            None => {
                self.editor
                    .say_refused("Select a card first (Tab or Ctrl+arrows): C connects it.");
                true
            }
        }
    }

    /// What the picker of a new arrow's target is picking for (tracked).
    pub fn connecting(self) -> Option<Connecting> {
        self.connecting.get()
    }

    /// A new arrow from `from` to `to`, selected with the focus on it: Enter then opens its
    /// condition.
    pub fn connect(self, from: &str, to: &str) {
        self.connecting.set(None);
        let connected = self.editor.dispatch(Command::Connect {
            from: from.to_string(),
            to: to.to_string(),
        });
        if !connected {
            focus_card(from);
            return;
        }
        let index = self.editor.plan.with_untracked(|p| {
            p.as_ref()
                .and_then(|p| p.state(from))
                .map(|s| s.transitions.len().saturating_sub(1))
        });
        if let Some(index) = index {
            self.show_arrow(from, index);
            let words = self
                .editor
                .plan
                .with_untracked(|p| p.as_ref().and_then(|p| arrow_spoken(p, from, index)));
            self.editor.say(format!(
                "Connected. {}. Enter opens its condition.",
                words.unwrap_or_default()
            ));
        }
    }

    /// A session state's chip limits evaluation `evaluation` to it (C on the chip, then the
    /// evaluation picked): the edge selected, the focus back on the chip.
    pub fn limit(self, session_state: &str, evaluation: &str) {
        self.connecting.set(None);
        let limit = Limit {
            session_state: session_state.to_string(),
            evaluation: evaluation.to_string(),
        };
        if self
            .editor
            .dispatch(Command::LimitEvaluation(limit.clone()))
        {
            self.select_limit(limit, "");
        }
        focus_chip(session_state);
    }

    /// Edge `limit` selected, what it means said (then `after`).
    fn select_limit(self, limit: Limit, after: &str) {
        let words = self
            .editor
            .plan
            .with_untracked(|p| p.as_ref().map(|p| lanes::limited_words(p, &limit)));
        self.editor.select(Selection {
            states: Vec::new(),
            transition: None,
            limit: Some(limit),
        });
        self.editor
            .say(format!("{}{after}", words.unwrap_or_default()));
    }

    /// The picker closed without a choice: the focus back on the chip it was opened on.
    pub fn limit_cancelled(self, session_state: &str) {
        focus_chip(session_state);
    }

    /// `]` or `[` on a session state's chip: the next or previous of its edges selected (Delete
    /// then removes it), the focus staying on the chip.
    fn cycle_limits(self, session_state: &str, forward: bool) -> bool {
        let edges: Vec<String> = self.editor.plan.with_untracked(|p| {
            p.as_ref()
                .map(|p| {
                    p.evaluations
                        .iter()
                        .filter(|e| e.only_while_active.iter().any(|s| s == session_state))
                        .map(|e| e.id.clone())
                        .collect()
                })
                .unwrap_or_default()
        });
        let current = self.editor.selection.with_untracked(|s| {
            s.limit
                .as_ref()
                .filter(|l| l.session_state == session_state)
                .and_then(|l| edges.iter().position(|e| *e == l.evaluation))
        });
        let order: Vec<usize> = (0..edges.len()).collect();
        let Some(next) = neighbour::cycled_arrow(&order, current, forward) else {
            self.editor
                .say("No evaluation is limited to this session state: C limits one.");
            return true;
        };
        let limit = Limit {
            session_state: session_state.to_string(),
            evaluation: edges[next].clone(),
        };
        self.select_limit(limit, " Delete removes the edge.");
        true
    }

    /// `]` or `[`: the next or previous arrow of the card in hand, in the order the runtime
    /// checks them, selected, brought into view and focused.
    pub(super) fn cycle_arrows(self, forward: bool) -> bool {
        if let Some(chip) = focused_chip() {
            return self.cycle_limits(&chip, forward);
        }
        let Some(from) = self.card_in_hand() else {
            return false;
        };
        let current = self.editor.selection.with_untracked(|s| {
            s.transition
                .as_ref()
                .filter(|(f, _)| *f == from)
                .map(|(_, i)| *i)
        });
        let checked = self.editor.plan.with_untracked(|p| {
            p.as_ref()
                .and_then(|p| p.state(&from))
                .map(|s| s.checked_in_order())
                .unwrap_or_default()
        });
        match neighbour::cycled_arrow(&checked, current, forward) {
            Some(index) => {
                self.show_arrow(&from, index);
                true
            }
            None => {
                self.editor
                    .say("No arrow leaves this card yet: C connects it to another.");
                true
            }
        }
    }

    /// `{` or `}`: the selected arrow checked one place earlier or later (it changes places,
    /// and priorities, with its neighbour in the order the runtime checks them); it stays
    /// selected and where it now comes is said. The focus goes to its label, or, with
    /// `keep_focus`, back to the inspector's button of that test id (drawn anew for the arrow's
    /// new place).
    pub fn recheck(self, earlier: bool, keep_focus: Option<&'static str>) -> bool {
        let Some((from, index)) = self.editor.selection.get_untracked().transition else {
            self.editor
                .say("Select an arrow first: ] goes round the selected card's arrows.");
            return true;
        };
        let neighbour = self.editor.plan.with_untracked(|p| {
            p.as_ref()
                .and_then(|p| p.state(&from))
                .map(|s| (s.check_neighbour(index, earlier), s.transitions.len()))
        });
        let Some((neighbour, of)) = neighbour else {
            return false;
        };
        let Some(with) = neighbour else {
            self.editor.say(if earlier {
                "This arrow is already checked first."
            } else {
                "This arrow is already checked last."
            });
            return true;
        };
        let command = Command::SwapCheckOrder {
            from: from.clone(),
            index,
            with,
        };
        if self.editor.dispatch(command) {
            let order = self.editor.plan.with_untracked(|p| {
                p.as_ref()
                    .and_then(|p| p.state(&from))
                    .map(|s| s.check_order(with))
                    .unwrap_or_default()
            });
            match keep_focus {
                Some(testid) => {
                    self.editor.select(Selection {
                        states: Vec::new(),
                        transition: Some((from.clone(), with)),
                        limit: None,
                    });
                    focus_testid(testid);
                }
                None => self.show_arrow(&from, with),
            }
            self.editor.say(format!(
                "Now checked {} of the {of} arrows.",
                order_word(order, of)
            ));
        }
        true
    }

    /// Arrow `index` of `from` selected, its two cards in view, its label focused (else its
    /// card: a label is not drawn zoomed far out).
    fn show_arrow(self, from: &str, index: usize) {
        let to = self.editor.plan.with_untracked(|p| {
            p.as_ref()
                .and_then(|p| p.state(from))
                .and_then(|s| s.transitions.get(index))
                .map(|t| t.target_state_id.clone())
        });
        self.frame_states(&[from.to_string(), to.unwrap_or_default()]);
        self.editor.select(Selection {
            states: Vec::new(),
            transition: Some((from.to_string(), index)),
            limit: None,
        });
        focus_label(from, index);
    }

    /// Shift+F10 or the Menu key: the menu of the selected arrow, else of the selected card,
    /// else of the canvas when the focus is on it.
    pub(super) fn open_menu(self) -> bool {
        let arrow = self.editor.selection.get_untracked().transition;
        let on = if let Some((from, index)) = arrow {
            Some((
                Place::Arrow {
                    from: from.clone(),
                    index,
                },
                self.under_card(&from),
            ))
        } else if let Some(id) = self.one_selected() {
            let at = self.under_card(&id);
            Some((Place::Card(id), at))
        } else if regions::focused() == Some(Region::Canvas) {
            Some((Place::Background, self.middle_of_canvas()))
        } else {
            None
        };
        match on {
            Some((on, at)) => {
                self.menu.set(Some(Menu { at, on }));
                true
            }
            None => false,
        }
    }

    /// F6 or Shift+F6: the focus moved to the next or previous region.
    pub(super) fn go_to_region(self, forward: bool) -> bool {
        let open = |r: Region| match r {
            Region::Plans => self.side_open.get_untracked(),
            Region::Panel => self.panel_open.get_untracked(),
            Region::Canvas | Region::Toolbar => true,
        };
        match regions::next(regions::focused(), forward, open) {
            Region::Canvas => self.focus_canvas(),
            Region::Plans => {
                regions::focus_first_in(
                    Region::Plans,
                    &[
                        ".plan-row.active [data-testid=plan]",
                        "[data-testid=plan]",
                        "input",
                        "button",
                    ],
                );
            }
            Region::Panel => {
                regions::focus_first_in(Region::Panel, &[".tabs button.active", "button"]);
            }
            Region::Toolbar => {
                regions::focus_first_in(Region::Toolbar, &["button:not([disabled])"]);
            }
        }
        true
    }

    /// The canvas's focus: the selected card, else the start state's, else the first card's,
    /// brought into view; the canvas itself when it has no card.
    pub fn focus_canvas(self) {
        let card = self.card_in_hand().or_else(|| {
            self.scene.with_untracked(|s| {
                s.cards
                    .iter()
                    .find(|c| c.is_start)
                    .or_else(|| s.cards.first())
                    .map(|c| c.id.clone())
            })
        });
        match card {
            Some(id) => {
                self.bring_into_view(&id);
                self.editor.select(Selection::state(&id));
                focus_card(&id);
            }
            None => {
                regions::focus_first_in(Region::Canvas, &["button"]);
            }
        }
    }

    /// The card the focus goes to once `sel` is deleted: an arrow's own card; for cards, the
    /// nearest card left.
    pub(super) fn focus_after_delete(self, sel: &Selection) -> Option<String> {
        if let Some((from, _)) = &sel.transition {
            return Some(from.clone());
        }
        let first = sel.states.first()?;
        self.scene.with_untracked(|s| {
            let gone = s.cards.iter().find(|c| &c.id == first)?.rect;
            let left = s
                .cards
                .iter()
                .filter(|c| !sel.states.contains(&c.id))
                .map(|c| (c.id.as_str(), c.rect));
            neighbour::after_delete(gone, left).map(str::to_string)
        })
    }
}

/// Gives the chip of session state `id` the focus (the lanes are drawn with the plan).
fn focus_chip(id: &str) {
    let chip = format!("[data-testid=session-chip][data-session-state=\"{id}\"]");
    request_animation_frame(move || {
        if let Some(el) = document()
            .query_selector(&chip)
            .ok()
            .flatten()
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    });
}

/// Gives the element of test id `testid` the focus once it is drawn.
fn focus_testid(testid: &'static str) {
    let selector = format!("[data-testid={testid}]");
    request_animation_frame(move || {
        if let Some(el) = document()
            .query_selector(&selector)
            .ok()
            .flatten()
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    });
}

/// Gives the label of arrow `index` of `from` the focus once it is drawn, else its card.
fn focus_label(from: &str, index: usize) {
    let label =
        format!("[data-testid=transition-label][data-from=\"{from}\"][data-index=\"{index}\"]");
    let card = from.to_string();
    set_timeout(
        move || {
            let el = document()
                .query_selector(&label)
                .ok()
                .flatten()
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
            match el {
                Some(el) => {
                    let _ = el.focus();
                }
                None => focus_card(&card),
            }
        },
        std::time::Duration::from_millis(40),
    );
}
