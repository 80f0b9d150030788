//! The inspector of one transition: where it goes, its priority and label, its condition.

use leptos::prelude::*;
use plan_core::edit::Command;
use plan_core::plan::{Priority, Transition};

use super::access::{edit_state, read_state, run};
use super::changes::{ChangesEditor, ChangesOf};
use super::condition::{ConditionEditor, Root};
use super::fields::{state_picker, typed, Extent};
use crate::actions::Actions;
use crate::canvas::text::order_word;
use crate::editor::Editor;

#[component]
pub fn TransitionInspector(from: String, index: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(from.clone());
    let get = move |f: fn(&Transition) -> String| {
        move || {
            read_state(editor, &sid.get_value(), |s| {
                s.transitions.get(index).map(f).unwrap_or_default()
            })
            .unwrap_or_default()
        }
    };
    let from_title =
        move || read_state(editor, &sid.get_value(), |s| s.title.clone()).unwrap_or_default();
    view! {
        <div class="inspector-section" data-testid="transition-inspector">
            <h3>"Transition"</h3>
            <p class="hint">
                {move || format!("From {} · transition {}", from_title(), index + 1)}
            </p>
            {state_picker(
                "Goes to",
                "target",
                get(|t| t.target_state_id.clone()),
                move |to: String| {
                    run(
                        editor,
                        Command::Retarget {
                            from: sid.get_value(),
                            index,
                            to,
                        },
                        None,
                    );
                },
            )}
            <label class="field">
                <span class="field-label">"Order of checking (lower first)"</span>
                <input
                    type="number"
                    data-testid="field-priority"
                    prop:value=get(|t| t.priority.to_string())
                    on:input=move |e| {
                        if let Ok(p) = event_target_value(&e).parse::<f64>() {
                            let id = sid.get_value();
                            edit_state(
                                editor,
                                &id,
                                Some(format!("{id}:t{index}:priority")),
                                |s| {
                                    if let Some(t) = s.transitions.get_mut(index) {
                                        t.priority = Priority(p);
                                    }
                                },
                            );
                        }
                    }
                    on:blur=move |_| editor.end_typing()
                />
            </label>
            <p class="hint" data-testid="check-order">
                {move || {
                    read_state(
                            editor,
                            &sid.get_value(),
                            |s| {
                                let of = s.transitions.len();
                                if of < 2 {
                                    return "The only arrow leaving this state.".to_string();
                                }
                                format!(
                                    "Checked {} of the {of} arrows leaving {}; on equal numbers, the one higher in the list first.",
                                    order_word(s.check_order(index), of),
                                    s.title,
                                )
                            },
                        )
                        .unwrap_or_default()
                }}
            </p>
            <CheckOrderButtons from=from.clone() index />
            {typed(
                editor,
                Extent::Line,
                "Label on the arrow",
                "label",
                get(|t| t.label.clone()),
                move |v| {
                    let id = sid.get_value();
                    edit_state(
                        editor,
                        &id,
                        Some(format!("{id}:t{index}:label")),
                        |s| {
                            if let Some(t) = s.transitions.get_mut(index) {
                                t.label = v;
                            }
                        },
                    );
                },
            )}
            <ConditionEditor
                root=Root::Transition {
                    from: from.clone(),
                    index,
                }
                path=Vec::new()
            />
            <ChangesEditor
                at=ChangesOf::Effects(from.clone(), index)
                label="Effects on session states when it fires"
            />
            <button
                class="danger"
                data-testid="delete-transition"
                on:click=move |_| {
                    if run(
                        editor,
                        Command::DeleteTransition {
                            from: sid.get_value(),
                            index,
                        },
                        None,
                    ) {
                        editor.select(Default::default());
                    }
                }
            >
                "Delete transition"
            </button>
        </div>
    }
}

/// "Check earlier" and "Check later": the arrow changes places with its neighbour in check order
/// (`{` and `}` on the canvas). A button at an end stays focusable, marked disabled, and says why
/// when pressed, so that the focus is never lost by the press that took the arrow there.
#[component]
fn CheckOrderButtons(from: String, index: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let actions = expect_context::<Actions>();
    let sid = StoredValue::new(from);
    let at_end = move |earlier: bool| {
        read_state(editor, &sid.get_value(), |s| {
            s.check_neighbour(index, earlier).is_none()
        })
        .unwrap_or(true)
    };
    let several =
        move || read_state(editor, &sid.get_value(), |s| s.transitions.len() > 1).unwrap_or(false);
    move || {
        several().then(|| {
            view! {
                <div class="row-buttons">
                    <button
                        data-testid="check-earlier"
                        aria-disabled=move || at_end(true).to_string()
                        aria-keyshortcuts="{"
                        on:click=move |_| {
                            actions.recheck(true, Some("check-earlier"));
                        }
                    >
                        "Check earlier"
                    </button>
                    <button
                        data-testid="check-later"
                        aria-disabled=move || at_end(false).to_string()
                        aria-keyshortcuts="}"
                        on:click=move |_| {
                            actions.recheck(false, Some("check-later"));
                        }
                    >
                        "Check later"
                    </button>
                </div>
            }
        })
    }
}
