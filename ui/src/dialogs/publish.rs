//! The publish dialog: a note, and before it is confirmed what the draft changes against the
//! newest version ("first version" when there is none), or, instead, the errors that block it,
//! each taking the author to its place; Publish is disabled while anything blocks it.

use leptos::prelude::*;

use crate::actions::Actions;
use crate::lifecycle::{Dialog, Lifecycle, Publishing};
use crate::panels::{change_mark, problem_item};

#[component]
pub fn PublishDialog() -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    let actions = expect_context::<Actions>();
    let note = RwSignal::new(String::new());
    let state = move || match lifecycle.dialog.get() {
        Some(Dialog::Publish(p)) => p,
        _ => Publishing::default(),
    };
    let blocked = move || {
        let s = state();
        s.busy
            || s.preview
                .as_ref()
                .is_none_or(|p| p.unchanged || !p.errors.is_empty())
    };
    let heading = move || match state().preview {
        Some(p) => match p.newest {
            None => format!("Publish version {}: the first version", p.next),
            Some(n) => format!("Publish version {} (after version {n})", p.next),
        },
        None => "Publish".to_string(),
    };
    // A blocking error clicked: the dialog gives way to the place it names.
    let go_to = Callback::new(move |d: plan_core::Diagnostic| {
        lifecycle.close_dialog();
        actions.show_problem(&d);
    });
    let body = move || {
        let s = state();
        let Some(p) = s.preview else {
            return match &s.error {
                Some(_) => ().into_any(),
                None => view! { <p class="hint">"Checking the draft…"</p> }.into_any(),
            };
        };
        if !p.errors.is_empty() {
            let n = p.errors.len();
            return view! {
                <p class="publish-blocked">
                    {format!(
                        "{} must be fixed before this draft can be published:",
                        if n == 1 { "This error".to_string() } else { format!("These {n} errors") },
                    )}
                </p>
                <ul class="publish-errors" data-testid="publish-errors">
                    {p.errors.into_iter().map(|d| problem_item(d, go_to)).collect_view()}
                </ul>
            }
            .into_any();
        }
        if p.unchanged {
            return view! {
                <p class="hint" data-testid="publish-unchanged">
                    {format!(
                        "The draft is what version {} already holds: there is nothing to publish.",
                        p.newest.unwrap_or(0),
                    )}
                </p>
            }
            .into_any();
        }
        let what = match p.newest {
            None => "What the first version holds:".to_string(),
            Some(n) => format!("What changes since version {n}:"),
        };
        view! {
            <p>{what}</p>
            <ul class="publish-diff" data-testid="publish-diff">
                {p
                    .changes
                    .into_iter()
                    .map(|c| {
                        view! {
                            <li
                                class=format!("change depth-{} {}", c.depth, c.change.as_str())
                                data-change=c.change.as_str()
                            >
                                <span class="change-mark">{change_mark(c.change)}</span>
                                <span>{c.text}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
        .into_any()
    };
    let publish = move || {
        if !blocked() {
            lifecycle.publish(note.get_untracked());
        }
    };
    view! {
        <h3>{heading}</h3>
        {body}
        {move || {
            state()
                .error
                .map(|e| {
                    view! {
                        <p class="error" data-testid="publish-error" data-code=e.code.as_str()>
                            {e.message}
                        </p>
                    }
                })
        }}
        <label class="field">
            <span class="field-label">"Note (what changed, for whoever reads the versions)"</span>
            <textarea
                data-testid="publish-note"
                rows="2"
                prop:value=move || note.get()
                on:input=move |e| note.set(event_target_value(&e))
            ></textarea>
        </label>
        <div class="dialog-buttons">
            <button data-testid="publish-cancel" on:click=move |_| lifecycle.close_dialog()>
                "Cancel"
            </button>
            <button
                class="primary"
                data-testid="publish-confirm"
                disabled=blocked
                on:click=move |_| publish()
            >
                {move || if state().busy { "Publishing…" } else { "Publish" }}
            </button>
        </div>
    }
}
