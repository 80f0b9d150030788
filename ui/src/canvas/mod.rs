//! The canvas, in three layers like xyflow: pure geometry (`geometry`, and `camera` for where the
//! view looks), what to draw for a plan (`scene`), a pure gesture state machine (`gesture`) and
//! what its effects do to the editor (`effects`), which items have elements (`mount`, `drawn`),
//! and thin DOM/SVG views (`view` composing them; `pointer` feeding the gesture machine;
//! `sizing`, `overlays`; `items` for one card, `arrow_items` for an arrow or its label, with what an arrow says from
//! `text`, each keyed by `key`; `shown` the scene as drawn); interruptions are drawn above the
//! flow (`detours`), session states and evaluations in lanes below it (`lanes`, `lane_items`).

pub mod arrow_items;
pub mod camera;
pub mod card_focus;
pub mod context_menu;
pub mod detours;
pub mod drawn;
pub mod effects;
pub mod geometry;
pub mod gesture;
pub mod items;
pub mod key;
pub mod label_place;
pub mod label_places;
pub mod lane_items;
pub mod lanes;
pub mod legible;
pub mod marks;
pub mod menu;
pub mod minimap;
pub mod mount;
pub mod neighbour;
pub mod overlays;
pub mod overview;
pub mod pointer;
pub mod scene;
pub mod shown;
pub mod sizing;
pub mod spoken;
pub mod text;
pub mod text_selection;
pub mod under_pointer;
pub mod view;
