//! The scene as the canvas draws it: the plan's, or while cards are dragged the one with them
//! moved. Read by the DOM view and the overview alike.

use leptos::prelude::*;

use super::scene::Scene;

/// The scene as drawn: the plan's, or the one with dragged cards moved.
#[derive(Clone, Copy)]
pub struct Shown {
    pub scene: Memo<Scene>,
    pub dragged: Memo<Option<Scene>>,
}

impl Shown {
    /// Reads the drawn scene (tracked).
    pub fn with<T>(&self, f: impl FnOnce(&Scene) -> T) -> T {
        let scene = self.scene;
        self.dragged.with(|d| match d {
            Some(s) => f(s),
            None => scene.with(f),
        })
    }

    /// Reads the drawn scene without tracking it.
    pub fn with_untracked<T>(&self, f: impl FnOnce(&Scene) -> T) -> T {
        let scene = self.scene;
        self.dragged.with_untracked(|d| match d {
            Some(s) => f(s),
            None => scene.with_untracked(f),
        })
    }
}
