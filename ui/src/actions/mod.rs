//! What the author does to the selection and the view from the keyboard, the palette and the
//! lists: add, delete, copy, paste, nudge, select all, zoom, find, and going to a state or
//! transition named by a problem or a change. Key presses are matched in [`crate::keymap`]; this
//! carries the matched action out.

use std::collections::BTreeMap;

use leptos::ev;
use leptos::prelude::*;
use plan_core::edit::{delete_impact, place, Command, NewState};
use plan_core::plan::{Position, State};
use plan_core::Diagnostic;
use wasm_bindgen::JsCast;

mod keyboard;

pub use crate::canvas::text::plural;

pub use crate::focus::focus_card;
pub use keyboard::Connecting;

use crate::canvas::camera::Camera;
use crate::canvas::geometry::{snap, CARD_H, CARD_W, GRID};
use crate::canvas::menu::Menu;
use crate::canvas::neighbour;
use crate::canvas::scene::Scene;
use crate::editor::{Editor, Selection};
use crate::focus::focus_field_of;
use crate::keymap::{action_for, Action, Press};
use crate::navigation::{Navigation, Tab};

/// Copied states, for paste.
#[derive(Clone, Default)]
struct Clipboard {
    states: Vec<State>,
    layout: BTreeMap<String, Position>,
    pastes: u32,
}

#[derive(Clone, Copy)]
pub struct Actions {
    editor: Editor,
    camera: Camera,
    scene: Memo<Scene>,
    clipboard: StoredValue<Clipboard>,
    /// Find (Ctrl+F) is open.
    finding: RwSignal<bool>,
    /// The shortcut overlay (`?`) is open.
    help: RwSignal<bool>,
    navigation: Navigation,
    /// The left column (plans and palette) is open, not folded to a strip.
    side_open: RwSignal<bool>,
    /// The right panel is open, not folded to a strip.
    panel_open: RwSignal<bool>,
    /// The canvas's context menu, while open (a right click, Shift+F10, N).
    pub menu: RwSignal<Option<Menu>>,
    /// The picker of the state a new arrow goes to (C), while open.
    connecting: RwSignal<Option<Connecting>>,
}

impl Actions {
    pub fn new(
        editor: Editor,
        camera: Camera,
        scene: Memo<Scene>,
        navigation: Navigation,
    ) -> Actions {
        Actions {
            editor,
            camera,
            scene,
            clipboard: StoredValue::new(Clipboard::default()),
            finding: RwSignal::new(false),
            help: RwSignal::new(false),
            navigation,
            side_open: RwSignal::new(true),
            panel_open: RwSignal::new(true),
            menu: RwSignal::new(None),
            connecting: RwSignal::new(None),
        }
    }

    /// Opens the right panel whenever its tab is picked (a problem shown, a card opened in the
    /// inspector, a comparison): what was asked for is never left inside a folded panel.
    pub fn open_panel_on_tab_change(self) {
        Effect::new(move |before: Option<Tab>| {
            let tab = self.navigation.tab();
            if before.is_some() {
                self.panel_open.set(true);
            }
            tab
        });
    }

    /// In a narrow window (large text: GTK's text scaling zooms the page, so 1280 px at 200 %
    /// are 640 CSS px), the plans' column folds once a plan is open, leaving the canvas room; the
    /// author unfolds it with « or Ctrl+B. A wide window keeps the column as the author left it.
    pub fn fold_side_when_narrow(self) {
        let editor = self.editor;
        Effect::new(move |before: Option<Option<String>>| {
            let open = editor.id.get();
            let opened = open.is_some() && before.as_ref() != Some(&open);
            let width = window()
                .inner_width()
                .ok()
                .and_then(|w| w.as_f64())
                .unwrap_or(f64::MAX);
            if opened && crate::regions::narrow(width) {
                self.side_open.set(false);
            }
            open
        });
    }

    /// Carries out the shortcuts of the window's key presses, for as long as the window lives.
    pub fn listen_to_keys(self) {
        let keys = window_event_listener(ev::keydown, move |e: ev::KeyboardEvent| {
            let key = e.key();
            let press = Press {
                key: &key,
                ctrl: e.ctrl_key() || e.meta_key(),
                shift: e.shift_key(),
                typing: in_text_field(&e),
            };
            let handled = action_for(&press).is_some_and(|a| self.run(a, press));
            if handled {
                e.prevent_default();
            }
        });
        // The web view's own menu (Back, Reload, Inspect Element) is not the author's: only
        // text fields keep theirs (cut, copy, paste); the canvas opens its own.
        let menu = window_event_listener(ev::contextmenu, move |e: ev::MouseEvent| {
            let in_field = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA"));
            if !in_field {
                e.prevent_default();
            }
        });
        on_cleanup(move || {
            keys.remove();
            menu.remove();
        });
    }

    /// Does `action` as its shortcut would, for a button or the canvas's context menu.
    pub fn perform(self, action: Action) {
        let press = Press {
            key: "",
            ctrl: false,
            shift: false,
            typing: false,
        };
        self.run(action, press);
    }

    /// Whether Find (Ctrl+F) is open (tracked).
    pub fn finding(self) -> bool {
        self.finding.get()
    }

    /// Whether the shortcut overlay is open (tracked).
    pub fn showing_help(self) -> bool {
        self.help.get()
    }

    /// Whether the left column (plans and palette) is open, not folded to a strip (tracked).
    pub fn side_open(self) -> bool {
        self.side_open.get()
    }

    /// Whether the right panel is open, not folded to a strip (tracked).
    pub fn panel_open(self) -> bool {
        self.panel_open.get()
    }

    /// Closes Find, the shortcut overlay and the picker of a new arrow's target.
    pub fn close_overlays(self) {
        self.help.set(false);
        self.finding.set(false);
        self.connecting.set(None);
    }

    /// Whether states were copied (Paste has something to paste).
    pub fn has_copied(self) -> bool {
        self.clipboard.with_value(|c| !c.states.is_empty())
    }

    /// Does `action`; false when it had nothing to act on (the key is then the page's).
    fn run(self, action: Action, press: Press) -> bool {
        let editor = self.editor;
        match action {
            Action::Undo => editor.undo(),
            Action::Redo => editor.redo(),
            Action::ZoomIn => self.camera.zoom(1),
            Action::ZoomOut => self.camera.zoom(-1),
            Action::Fit => self.camera.fit(),
            Action::Find => self.finding.set(true),
            Action::Copy => self.copy(),
            Action::Paste => self.paste(),
            Action::Duplicate => {
                self.copy();
                self.paste();
            }
            Action::SelectAll => self.select_all(),
            Action::Delete => self.delete_selection(),
            Action::Escape => {
                if self.help.get_untracked()
                    || self.finding.get_untracked()
                    || self.connecting.with_untracked(Option::is_some)
                {
                    self.close_overlays();
                } else if !press.typing {
                    editor.select(Selection::default());
                }
            }
            Action::Help => self.help.update(|h| *h = !*h),
            Action::ToggleSide => self.side_open.update(|open| *open = !*open),
            Action::TogglePanel => self.panel_open.update(|open| *open = !*open),
            Action::Nudge { dx, dy } => {
                let step = if press.shift { GRID * 4.0 } else { GRID };
                return self.nudge(f64::from(dx) * step, f64::from(dy) * step);
            }
            Action::Neighbour { dx, dy } => return self.go_towards(dx, dy),
            Action::AddBeside => return self.add_beside(),
            Action::Connect => return self.start_connecting(),
            Action::CycleArrows { forward } => return self.cycle_arrows(forward),
            Action::Recheck { earlier } => return self.recheck(earlier, None),
            Action::OpenMenu => return self.open_menu(),
            Action::Region { forward } => return self.go_to_region(forward),
        }
        true
    }

    /// A state of `kind` where the author is working: at a point of the canvas (a double-click, a
    /// drop from the palette), else right of the one selected card, else in the middle of the
    /// view; moved to the nearest place where it covers no card (and, where the app chose the
    /// place, with room for an arrow's label around it: `place`). A card pointed to or put in the
    /// middle shows whole where it can; one added beside a card goes along the flow, on screen
    /// or off, and the view then follows it. With `from`, the new state is entered by a new
    /// transition of that state (an arrow let go on the canvas).
    pub fn add_state(self, kind: NewState, at: Option<(f64, f64)>, from: Option<String>) {
        let size = self.camera.size.get_untracked();
        let viewport = self.camera.viewport.get_untracked();
        let centred = |(x, y): (f64, f64)| Position {
            x: snap(x - CARD_W / 2.0),
            y: snap(y - CARD_H / 2.0),
        };
        let selected = match self.editor.selection.get_untracked().states.as_slice() {
            [one] => Some(one.clone()),
            _ => None,
        };
        let (wanted, taken) = self.scene.with_untracked(|scene| {
            let beside_selected = || {
                let id = selected.as_ref()?;
                let card = scene.cards.iter().find(|c| &c.id == id)?;
                Some(place::Wanted::Beside(area(&card.rect)))
            };
            let wanted = match at {
                Some(point) => place::Wanted::Pointed(centred(viewport.to_world(point))),
                None => beside_selected().unwrap_or_else(|| {
                    place::Wanted::Chosen(centred(viewport.to_world((size.0 / 2.0, size.1 / 2.0))))
                }),
            };
            (wanted, taken_areas(scene))
        });
        let beside = matches!(wanted, place::Wanted::Beside(_));
        let screen = viewport.visible(size);
        // A margin inside the view's edges, so the new card's shadow and handles show too.
        let margin = GRID * 2.0 / viewport.zoom.max(0.1);
        let on_screen = (!beside).then_some(place::Area {
            x: screen.x + margin,
            y: screen.y + margin,
            w: screen.w - 2.0 * margin,
            h: screen.h - 2.0 * margin,
        });
        let free = place::free_place(&taken, wanted, on_screen);
        let added = self.editor.dispatch(Command::AddState {
            kind,
            at: Position {
                x: snap(free.x),
                y: snap(free.y),
            },
            from,
        });
        // A state is named as it is added: its title field focused, the placeholder selected.
        if added {
            if beside {
                if let [id] = self.editor.selection.get_untracked().states.as_slice() {
                    self.bring_into_view(id);
                }
            }
            self.navigation.show(Tab::Inspect);
            crate::focus::name_in_inspector();
        }
    }

    /// Deletes the selection and says what went with it (Ctrl+Z brings it back).
    pub fn delete_selection(self) {
        let editor = self.editor;
        let sel = editor.selection.get_untracked();
        // The focus is never lost with what it was on: it goes to the nearest card left.
        let refocus = crate::regions::focused() == Some(crate::regions::Region::Canvas);
        let next = self.focus_after_delete(&sel);
        if let Some((from, index)) = sel.transition {
            if editor.dispatch(Command::DeleteTransition { from, index }) {
                editor.say("Deleted 1 transition. Ctrl+Z brings it back.");
            }
        } else if let Some(limit) = sel.limit {
            let words = editor.plan.with_untracked(|p| {
                p.as_ref()
                    .map(|p| crate::canvas::lanes::unlimited_words(p, &limit))
            });
            if editor.dispatch(Command::UnlimitEvaluation(limit)) {
                editor.say(words.unwrap_or_default());
            }
        } else if !sel.states.is_empty() {
            let (states, arrows) = editor.plan.with_untracked(|p| {
                p.as_ref()
                    .map(|p| delete_impact(p, &sel.states))
                    .unwrap_or_default()
            });
            if editor.dispatch(Command::DeleteStates { ids: sel.states }) {
                editor.say(format!(
                    "Deleted {} and {} with it. Ctrl+Z brings them back.",
                    plural(states, "state"),
                    plural(arrows, "transition")
                ));
            }
        }
        editor.select(Selection::default());
        if let (true, Some(id)) = (refocus, next) {
            editor.select(Selection::state(&id));
            focus_card(&id);
        }
    }

    fn copy(self) {
        let ids = self.editor.selection.get_untracked().states;
        self.editor.plan.with_untracked(|p| {
            let Some(p) = p else { return };
            let positions = plan_core::layout::complete(p);
            let states: Vec<State> = p
                .states
                .iter()
                .filter(|s| ids.contains(&s.id))
                .map(|s| State::clone(s))
                .collect();
            let layout = states
                .iter()
                .filter_map(|s| positions.get(&s.id).map(|at| (s.id.clone(), *at)))
                .collect();
            if !states.is_empty() {
                self.clipboard.set_value(Clipboard {
                    states,
                    layout,
                    pastes: 0,
                });
            }
        });
    }

    fn paste(self) {
        let mut c = self.clipboard.get_value();
        if c.states.is_empty() {
            return;
        }
        c.pastes += 1;
        let wanted = 48.0 * c.pastes as f64;
        // The copies go down and right of the originals, on as far as it takes to cover no card.
        let taken = self.scene.with_untracked(taken_areas);
        let group: Vec<Position> = c.layout.values().copied().collect();
        let offset = place::free_offset(
            &taken,
            &group,
            Position {
                x: wanted,
                y: wanted,
            },
        );
        self.editor.dispatch(Command::Paste {
            states: c.states.clone(),
            layout: c.layout.clone(),
            offset: Position {
                x: snap(offset.x),
                y: snap(offset.y),
            },
        });
        self.clipboard.set_value(c);
    }

    fn select_all(self) {
        let all = self.editor.plan.with_untracked(|p| {
            p.as_ref()
                .map(|p| p.states.iter().map(|s| s.id.clone()).collect())
                .unwrap_or_default()
        });
        self.editor.select(Selection {
            states: all,
            transition: None,
            limit: None,
        });
    }

    /// Moves the selected cards by a world offset; false when nothing is selected.
    fn nudge(self, dx: f64, dy: f64) -> bool {
        let ids = self.editor.selection.get_untracked().states;
        if ids.is_empty() {
            return false;
        }
        let moves = self.scene.with_untracked(|s| {
            s.cards
                .iter()
                .filter(|c| ids.contains(&c.id))
                .map(|c| {
                    let at = Position {
                        x: c.rect.x + dx,
                        y: c.rect.y + dy,
                    };
                    (c.id.clone(), at)
                })
                .collect()
        });
        self.editor.dispatch(Command::MoveStates { moves });
        true
    }

    /// Brings state `id`'s card to the middle of the view.
    pub fn centre_on(self, id: &str) {
        let rect = self
            .scene
            .with_untracked(|s| s.cards.iter().find(|c| c.id == id).map(|c| c.rect));
        if let Some(r) = rect {
            self.camera.centre(r);
        }
    }

    /// Brings the cards of states `ids` into view together (a conversation's path), zooming out
    /// only if they do not fit at the zoom of the moment.
    pub fn frame_states(self, ids: &[String]) {
        let rects: Vec<_> = self.scene.with_untracked(|s| {
            s.cards
                .iter()
                .filter(|c| ids.contains(&c.id))
                .map(|c| c.rect)
                .collect()
        });
        self.camera.frame(&rects);
    }

    /// Ctrl+arrow: from the one selected card (else the start state), the nearest card that way
    /// selected, focused (Enter then opens it, as after Tab) and brought into view if it is not.
    /// False when there is no card that way.
    fn go_towards(self, dx: i8, dy: i8) -> bool {
        let selected = self
            .editor
            .selection
            .with_untracked(|s| match &s.states[..] {
                [one] => Some(one.clone()),
                _ => None,
            });
        let target = self.scene.with_untracked(|scene| {
            let from = selected
                .as_deref()
                .and_then(|id| scene.cards.iter().find(|c| c.id == id))
                .or_else(|| scene.cards.iter().find(|c| c.is_start))?;
            if selected.is_none() {
                return Some(from.id.clone());
            }
            let cards = scene.cards.iter().map(|c| (c.id.as_str(), c.rect));
            neighbour::nearest(from.rect, cards, dx, dy).map(str::to_string)
        });
        let Some(id) = target else {
            return false;
        };
        self.bring_into_view(&id);
        self.editor.select(Selection::state(&id));
        focus_card(&id);
        true
    }

    /// Centres card `id` unless it is wholly in view already: the view does not move under the
    /// author for a card they can see.
    pub(crate) fn bring_into_view(self, id: &str) {
        let rect = self
            .scene
            .with_untracked(|s| s.cards.iter().find(|c| c.id == id).map(|c| c.rect));
        let (w, h) = self.camera.size.get_untracked();
        let v = self.camera.viewport.get_untracked();
        let in_view = rect.is_some_and(|r| {
            r.x * v.zoom + v.x >= 0.0
                && r.y * v.zoom + v.y >= 0.0
                && (r.x + r.w) * v.zoom + v.x <= w
                && (r.y + r.h) * v.zoom + v.y <= h
        });
        if !in_view {
            self.centre_on(id);
        }
    }

    /// Selects state `state`, or its transition `transition`, and brings it into view.
    pub fn go_to(self, state: &str, transition: Option<usize>) {
        self.bring_into_view(state);
        self.editor.select(match transition {
            Some(i) => Selection {
                states: Vec::new(),
                transition: Some((state.to_string(), i)),
                limit: None,
            },
            None => Selection::state(state),
        });
    }

    /// A problem clicked in a list: its state or transition selected and centred, its field
    /// focused in the inspector.
    pub fn show_problem(self, d: &Diagnostic) {
        match d.location.state_id.as_deref() {
            // Centred, as docs/editor.md says of a problem picked from the list.
            Some(state) => {
                self.go_to(state, d.location.transition_index);
                self.centre_on(state);
            }
            None => self.editor.select(Selection::default()),
        }
        self.navigation.show(Tab::Inspect);
        if d.location.state_id.is_some() {
            focus_field_of(&d.location.path);
        }
    }
}

fn in_text_field(e: &ev::KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// A box of the canvas as `place` reads it.
fn area(r: &crate::canvas::geometry::Rect) -> place::Area {
    place::Area {
        x: r.x,
        y: r.y,
        w: r.w,
        h: r.h,
    }
}

/// What a new card must not cover: every card, and every interruption's card.
fn taken_areas(scene: &Scene) -> Vec<place::Area> {
    scene
        .cards
        .iter()
        .map(|c| area(&c.rect))
        .chain(scene.interruptions.iter().map(|d| area(&d.rect)))
        .collect()
}
