//! The fields of a composite condition ("all of these", "any of these", "combined"): how it
//! combines, and each condition inside it, nested to any depth.

use leptos::prelude::*;
use plan_core::condition::change::ConditionChange;
use plan_core::condition::Combine;

use super::super::fields::choice;
use super::model::path_name;
use super::{ConditionEditor, Node};

/// The conditions inside a composite (`children` of them), removable one by one, and one more
/// added; `combine` for a compound's "and" or "or".
#[component]
pub(super) fn Composite(node: Node, combine: bool, children: usize) -> impl IntoView {
    let combine = combine.then(|| {
        choice(
            "Combine with",
            "compound-operator",
            node.path_name(),
            || {
                Combine::ALL
                    .iter()
                    .map(|c| (c.as_str().to_string(), c.shown().to_string()))
                    .collect()
            },
            node.shown(|s| {
                s.combine
                    .map(|c| c.as_str().to_string())
                    .unwrap_or_default()
            }),
            move |v: String| {
                if let Some(c) = Combine::from_name(&v) {
                    node.change(None, ConditionChange::Combine(c));
                }
            },
        )
    });
    let children = (0..children)
        .map(|i| {
            let mut child = node.path.get_value();
            child.push(i);
            view! {
                <div class="condition-child">
                    <button
                        class="remove"
                        title="Remove this condition"
                        data-testid="remove-condition"
                        data-path=path_name(&child)
                        on:click=move |_| node.change(None, ConditionChange::RemoveChild(i))
                    >
                        "✕"
                    </button>
                    <ConditionEditor root=node.root.get_value() path=child />
                </div>
            }
        })
        .collect_view();
    view! {
        {combine}
        <div class="condition-children">{children}</div>
        <button
            class="add"
            data-testid="add-condition"
            data-path=node.path_name()
            on:click=move |_| node.change(None, ConditionChange::AddChild)
        >
            "+ Add condition"
        </button>
    }
}
