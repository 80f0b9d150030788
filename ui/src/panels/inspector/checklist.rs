//! A checklist of the plan's session states ("only while one of these is on"), as a tool's gates
//! and an evaluation's limits show it: a box per session state in the plan's order, then any chosen
//! id the plan does not declare (so that it can be unticked). What ticking a box makes of the list
//! is `names::ticked`, tested natively.

use leptos::prelude::*;

use super::access::read_plan;
use super::names::{checklist, ticked};
use crate::editor::Editor;

/// The checklist of the ids `chosen` gives; `choose` receives the list after a box changes.
#[component]
pub fn SessionStateChecklist(
    testid: &'static str,
    option_testid: &'static str,
    label: &'static str,
    empty: &'static str,
    chosen: Callback<(), Vec<String>>,
    choose: Callback<Vec<String>>,
) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let boxes = move || {
        let ids = chosen.run(());
        read_plan(editor, |p| checklist(p, &ids))
    };
    view! {
        <div class="field gates" data-testid=testid>
            <span class="field-label">{label}</span>
            {move || {
                let boxes = boxes();
                if boxes.is_empty() {
                    return view! { <p class="hint">{empty}</p> }.into_any();
                }
                boxes
                    .into_iter()
                    .map(|g| {
                        let id = g.id.clone();
                        let shown = if g.declared {
                            g.label.clone()
                        } else {
                            format!("{} (not declared)", g.label)
                        };
                        view! {
                            <label class="field check" class:undeclared=!g.declared>
                                <input
                                    type="checkbox"
                                    data-testid=option_testid
                                    data-session-id=g.id.clone()
                                    prop:checked=g.checked
                                    on:change=move |e| {
                                        let on = event_target_checked(&e);
                                        let now = chosen.run(());
                                        let ids = read_plan(editor, |p| ticked(p, &now, &id, on));
                                        choose.run(ids);
                                    }
                                />
                                <span>{shown}</span>
                            </label>
                        }
                    })
                    .collect_view()
                    .into_any()
            }}
        </div>
    }
}
