//! The canvas's pointer and wheel events, fed to the gesture machine; its effects carried to the
//! editor as [`effects::outcome`] decides (a selection, an edit, an arrow drawn, a menu opened).

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use plan_core::edit::NewState;

use super::drawn::Drawn;
use super::effects::{self, Outcome};
use super::geometry::Viewport;
use super::gesture::{self, Gesture, Input, Target};
use super::menu::{Menu, Place};
use super::overview::card_at;
use super::scene::Scene;
use super::text_selection;
use super::under_pointer::target_of;
use crate::actions::Actions;
use crate::editor::{Editor, Selection};

/// Where the canvas's input goes, and what it changes.
#[derive(Clone, Copy)]
pub struct Pointer {
    /// The canvas's element.
    pub root: NodeRef<html::Div>,
    /// The gesture under way.
    pub gesture: RwSignal<Gesture>,
    /// The view the gestures move.
    pub viewport: RwSignal<Viewport>,
    /// The plan's scene.
    pub scene: Memo<Scene>,
    /// What is drawn.
    pub drawn: Drawn,
    /// The open context menu.
    pub menu: RwSignal<Option<Menu>>,
    /// The editor the gestures change.
    pub editor: Editor,
    /// The last two releases, newest first: whether each ended a click on the empty background.
    pub background_clicks: StoredValue<[bool; 2]>,
}

impl Pointer {
    /// A pointer pressed.
    pub fn down(self, e: ev::PointerEvent) {
        self.menu.set(None);
        if e.button() == 2 {
            // The right button opens the context menu (`context_menu`), nothing else.
            return;
        }
        text_selection::gesture(true);
        let target = self.resolve(
            target_of(e.target()),
            self.local(e.client_x(), e.client_y()),
        );
        if let Some(el) = self.root.get_untracked() {
            let _ = el.set_pointer_capture(e.pointer_id());
        }
        self.feed(Input::Down {
            at: self.local(e.client_x(), e.client_y()),
            button: e.button(),
            target,
            shift: e.shift_key(),
        });
    }

    /// A pointer moved; nothing to do unless a gesture is under way.
    pub fn moved(self, e: ev::PointerEvent) {
        if self.gesture.with_untracked(|g| *g != Gesture::Idle) {
            self.feed(Input::Move {
                at: self.local(e.client_x(), e.client_y()),
            });
        }
    }

    /// A pointer released (or its gesture cancelled).
    pub fn up(self, e: ev::PointerEvent) {
        text_selection::gesture(false);
        let clicked = self.gesture.with_untracked(Gesture::is_background_click);
        self.background_clicks
            .update_value(|c| *c = [clicked, c[0]]);
        self.feed(Input::Up {
            target: self.under(e.client_x(), e.client_y()),
        });
    }

    /// The context menu asked for (the right button, the Menu key): what it is about is selected,
    /// as a left click would (the inspector shows it).
    pub fn context_menu(self, e: ev::MouseEvent) {
        e.prevent_default();
        // The Menu key's own event, after its key press opened the menu of what has the focus
        // (`Actions::open_menu`); a right click closes an open menu first (on its press).
        if self.menu.with_untracked(Option::is_some) {
            return;
        }
        let place = Place::of(self.under(e.client_x(), e.client_y()));
        if let Some(on @ (Place::Card(_) | Place::Arrow { .. })) = &place {
            self.editor.select(on.selection());
        }
        self.menu.set(place.map(|on| Menu {
            at: self.local(e.client_x(), e.client_y()),
            on,
        }));
    }

    /// The wheel: a pan, or with Ctrl a zoom step.
    pub fn wheel(self, e: ev::WheelEvent) {
        e.prevent_default();
        let ctrl = e.ctrl_key() || e.meta_key();
        if ctrl {
            self.drawn.zoom_step();
        }
        // Lines and pages (older mice) are scaled to pixels.
        let scale = match e.delta_mode() {
            1 => 16.0,
            2 => 400.0,
            _ => 1.0,
        };
        self.feed(Input::Wheel {
            at: self.local(e.client_x(), e.client_y()),
            dx: e.delta_x() * scale,
            dy: e.delta_y() * scale,
            ctrl,
        });
    }

    /// A double click on the empty background adds a state there.
    pub fn double_click(self, e: ev::MouseEvent) {
        let both_on_background = self.background_clicks.get_value() == [true, true];
        if !both_on_background || self.under(e.client_x(), e.client_y()) != Target::Background {
            return;
        }
        expect_context::<Actions>().add_state(
            NewState::Loose,
            Some(self.local(e.client_x(), e.client_y())),
            None,
        );
    }

    /// One input through the gesture machine, and what it asks for done.
    fn feed(self, input: Input) {
        let selected = self.editor.selection.with_untracked(|s| s.states.clone());
        let (g, v, effects) = gesture::step(
            self.gesture.get_untracked(),
            self.viewport.get_untracked(),
            input,
            &selected,
        );
        if g != self.gesture.get_untracked() {
            self.gesture.set(g);
        }
        if v != self.viewport.get_untracked() {
            self.viewport.set(v);
        }
        for e in effects {
            self.apply(e);
        }
    }

    /// One effect of the gesture machine carried out, as [`effects::outcome`] decides.
    fn apply(self, effect: gesture::Effect) {
        let editor = self.editor;
        let before = editor.selection.get_untracked();
        match self
            .scene
            .with_untracked(|s| effects::outcome(effect, &before, s))
        {
            Outcome::Select(selection) => editor.select(selection),
            Outcome::Edit(command) => {
                editor.dispatch(command);
            }
            Outcome::Connect { command, from } => {
                if editor.dispatch(command) {
                    let index = editor.plan.with_untracked(|p| {
                        p.as_ref()
                            .and_then(|p| p.state(&from))
                            .map_or(0, |s| s.transitions.len().saturating_sub(1))
                    });
                    editor.select(Selection {
                        states: Vec::new(),
                        transition: Some((from, index)),
                        limit: None,
                    });
                }
            }
            Outcome::Menu(m) => self.menu.set(Some(m)),
        }
    }

    /// A point of the window in canvas pixels.
    fn local(self, x: i32, y: i32) -> (f64, f64) {
        self.root
            .get_untracked()
            .map(|el| {
                let r = el.get_bounding_client_rect();
                (x as f64 - r.left(), y as f64 - r.top())
            })
            .unwrap_or((x as f64, y as f64))
    }

    /// In the overview the elements are hidden: what is under the pointer comes from the scene.
    fn resolve(self, target: Target, at: (f64, f64)) -> Target {
        if target == Target::Background && self.drawn.overview.get_untracked() {
            let world = self.viewport.get_untracked().to_world(at);
            if let Some(id) = self.drawn.shown.with_untracked(|s| card_at(s, world)) {
                return Target::Card(id);
            }
        }
        target
    }

    /// What is under the window's point (x, y). With the pointer captured, events land on the
    /// canvas itself, so the document is asked.
    fn under(self, x: i32, y: i32) -> Target {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.element_from_point(x as f32, y as f32));
        self.resolve(target_of(el.map(Into::into)), self.local(x, y))
    }
}
