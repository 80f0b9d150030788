//! The Changes tab of a comparison: what differs, in words, each line taking the author to its
//! state or transition on the canvas.

use leptos::prelude::*;
use plan_core::diff::Change;

use crate::actions::Actions;
use crate::editor::Editor;

#[component]
pub fn Changes() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let actions = expect_context::<Actions>();
    let changes = move || {
        editor
            .comparing
            .with(|c| c.as_ref().map(|c| c.changes.clone()).unwrap_or_default())
    };
    view! {
        <div class="changes" data-testid="changes">
            {move || {
                changes()
                    .is_empty()
                    .then(|| {
                        view! {
                            <p class="hint">
                                "No changes: the two say the same (positions on the canvas are not compared)."
                            </p>
                        }
                    })
            }}
            <ul>
                {move || {
                    changes()
                        .into_iter()
                        .map(|c| {
                            let (state, transition) = (c.state_id.clone(), c.transition);
                            view! {
                                <li>
                                    <button
                                        class=format!(
                                            "change depth-{} {}",
                                            c.depth,
                                            c.change.as_str(),
                                        )
                                        data-testid="diff-change"
                                        data-change=c.change.as_str()
                                        data-state-id=c.state_id.clone()
                                        on:click=move |_| {
                                            if let Some(s) = &state {
                                                actions.go_to(s, transition)
                                            }
                                        }
                                    >
                                        <span class="change-mark">{mark(c.change)}</span>
                                        <span>{c.text.clone()}</span>
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </div>
    }
}

/// The sign a listed change starts with.
pub fn mark(change: Change) -> &'static str {
    match change {
        Change::Added => "+",
        Change::Removed => "−",
        Change::Changed => "~",
    }
}
