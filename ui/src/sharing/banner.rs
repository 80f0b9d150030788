//! Over the canvas, while the open plan has conflicts left by getting others' changes: how many,
//! where they are (the cards marked "Conflict"), and a button to the first one in the inspector,
//! where mine and theirs are shown side by side.

use leptos::prelude::*;

use super::Sharing;
use crate::editor::{Editor, Selection};
use crate::navigation::{Navigation, Tab};

#[component]
pub fn ConflictBanner() -> impl IntoView {
    let sharing = expect_context::<Sharing>();
    let editor = expect_context::<Editor>();
    let navigation = expect_context::<Navigation>();
    let first = move || {
        let state = sharing
            .conflicts
            .with_untracked(|c| c.first().and_then(|c| plan_core::merge::state_of(&c.path)));
        editor.select(match state {
            Some(id) => Selection::state(&id),
            None => Selection::default(),
        });
        navigation.show(Tab::Inspect);
    };
    move || {
        let n = sharing.conflicts.with(Vec::len);
        (n > 0).then(|| {
            let words = if n == 1 {
                "1 conflict from others' changes: choose yours or theirs in the inspector.".to_string()
            } else {
                format!(
                    "{n} conflicts from others' changes: the marked cards have them; choose yours or theirs in the inspector."
                )
            };
            view! {
                <div class="merge-banner" data-testid="conflict-banner" role="status">
                    <span>{words}</span>
                    <button data-testid="conflict-first" on:click=move |_| first()>
                        "Show the first"
                    </button>
                </div>
            }
        })
    }
}
