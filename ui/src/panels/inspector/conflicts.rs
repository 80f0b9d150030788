//! In the inspector, the conflicts others' changes left on what it shows (a state, or the plan
//! itself): each with where it is, yours and theirs side by side, and "Keep mine" (the draft as
//! it is, an edit of yours included) or "Take theirs" (one undo step).

use leptos::prelude::*;

use crate::editor::Editor;
use crate::sharing::{words, Sharing};

/// The conflicts about state `state` (`None`: about the plan, no state).
#[component]
pub fn ConflictChoices(state: Option<String>) -> impl IntoView {
    let sharing = expect_context::<Sharing>();
    let editor = expect_context::<Editor>();
    let state = StoredValue::new(state);
    let mine = Memo::new(move |_| {
        sharing.conflicts.with(|all| {
            state.with_value(|s| {
                words::about(all, s.as_deref())
                    .into_iter()
                    .cloned()
                    .collect::<Vec<_>>()
            })
        })
    });
    move || {
        let list = mine.get();
        (!list.is_empty()).then(|| {
            view! {
                <section class="inspector-section merge-conflicts" data-testid="conflict-choices">
                    <h3>"Conflicts with others' changes"</h3>
                    {list
                        .into_iter()
                        .map(|c| {
                            let place = editor
                                .plan
                                .with_untracked(|p| {
                                    p.as_ref()
                                        .map(|p| {
                                            state.with_value(|s| words::place(&c.path, p, s.as_deref()))
                                        })
                                        .unwrap_or_default()
                                });
                            let (path, taken) = (c.path.clone(), c.clone());
                            view! {
                                <div
                                    class="merge-conflict"
                                    data-testid="conflict"
                                    data-path=c.path.clone()
                                >
                                    <p class="merge-place">{place}</p>
                                    <div class="merge-sides">
                                        <div>
                                            <span class="field-label">"Yours"</span>
                                            <p data-testid="conflict-mine">{words::value(&c.ours)}</p>
                                        </div>
                                        <div>
                                            <span class="field-label">"Theirs"</span>
                                            <p data-testid="conflict-theirs">
                                                {words::value(&c.theirs)}
                                            </p>
                                        </div>
                                    </div>
                                    <div class="row-buttons">
                                        <button
                                            data-testid="keep-mine"
                                            title="Keep the draft as it is (your edit of it included)"
                                            on:click=move |_| sharing.keep_mine(path.clone())
                                        >
                                            "Keep mine"
                                        </button>
                                        <button
                                            data-testid="take-theirs"
                                            on:click=move |_| sharing.take_theirs(taken.clone())
                                        >
                                            "Take theirs"
                                        </button>
                                    </div>
                                </div>
                            }
                        })
                        .collect_view()}
                </section>
            }
        })
    }
}
