//! A condition that may be absent (a session state's automatic rule, an interruption's own
//! trigger): the builder and a Remove button while there is one, else a button that adds one.

use leptos::prelude::*;
use plan_core::condition::{Condition, ConditionType};

use super::{ConditionEditor, Root};

/// What the part says and the test hooks of its buttons.
pub struct OptionalWords {
    /// What the condition is for: "Fires by itself when".
    pub label: &'static str,
    /// The part's test hook; its buttons' are `add-<testid>` and `remove-<testid>`.
    pub testid: &'static str,
    /// The Add button's words.
    pub add: &'static str,
    /// The Remove button's words.
    pub remove: &'static str,
}

/// The condition `root` names, when `present`; `set` adds one ("a value is known") or removes it.
pub fn optional_condition(
    words: OptionalWords,
    present: impl Fn() -> bool + Send + Sync + Copy + 'static,
    root: impl Fn() -> Root + Send + Sync + Copy + 'static,
    set: impl Fn(Option<Condition>) + Send + Sync + Copy + 'static,
) -> impl IntoView {
    let OptionalWords {
        label,
        testid,
        add,
        remove,
    } = words;
    let first = move |_| {
        set(Some(Condition {
            condition_type: ConditionType::DeliverableExists,
            condition_config: Default::default(),
        }))
    };
    let add_button = move || {
        view! {
            <button class="add" data-testid=format!("add-{testid}") on:click=first>
                {add}
            </button>
        }
    };
    view! {
        <div class="rule" data-testid=testid>
            <span class="field-label">{label}</span>
            <Show when=present fallback=add_button>
                {move || view! { <ConditionEditor root=root() path=Vec::new() /> }}
                <button
                    class="remove"
                    data-testid=format!("remove-{testid}")
                    on:click=move |_| set(None)
                >
                    {remove}
                </button>
            </Show>
        </div>
    }
}
