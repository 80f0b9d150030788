//! The inspector of the plan itself: title, description, start state, tools with their response
//! codes, and settings.

use leptos::prelude::*;
use plan_core::edit::{Command, Renamed};
use plan_core::plan::Tool;

use super::access::{change_plan, read_plan};
use super::fields::{name_field, state_picker, typed, Extent};
use super::names::{added_codes, gated, gates};
use super::{interruptions, rules, session_state_form};
use crate::editor::Editor;

fn tool_name(editor: Editor, i: usize) -> String {
    editor.plan.with_untracked(|p| {
        p.as_ref()
            .and_then(|p| p.tools.get(i))
            .map(|t| t.name.clone())
            .unwrap_or_default()
    })
}

/// A tool's response codes: each its own field (renaming one rewires the conditions that read it)
/// with a button to remove it, and a field to add more, comma-separated.
#[component]
fn ResponseCodes(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let count = move || {
        read_plan(editor, |p| {
            p.tools.get(i).map_or(0, |t| t.response_codes.len())
        })
    };
    let code = move |c: usize| {
        read_plan(editor, |p| {
            p.tools
                .get(i)
                .and_then(|t| t.response_codes.get(c).cloned())
                .unwrap_or_default()
        })
    };
    view! {
        <div class="field tool-codes" data-testid="tool-codes">
            <span class="field-label">"Response codes"</span>
            <For each=move || 0..count() key=|c| *c let:c>
                <div class="tool-code" data-testid="tool-code">
                    {name_field(
                        editor,
                        "",
                        "tool-code",
                        move || code(c),
                        move |to| {
                            let tool = tool_name(editor, i);
                            Some(Command::Rename {
                                what: Renamed::ResponseCode { tool },
                                from: code(c),
                                to: to.trim().to_string(),
                            })
                        },
                    )}
                    <button
                        class="remove"
                        title="Remove this code"
                        data-testid="remove-tool-code"
                        on:click=move |_| change_plan(
                            editor,
                            None,
                            |d| {
                                if let Some(t) = d.tools.get_mut(i) {
                                    if c < t.response_codes.len() {
                                        t.response_codes.remove(c);
                                    }
                                }
                            },
                        )
                    >
                        "✕"
                    </button>
                </div>
            </For>
            <label class="field">
                <span class="field-label">"Add codes (comma-separated)"</span>
                <input
                    type="text"
                    data-testid="field-tool-add-codes"
                    placeholder="OK, DENIED"
                    on:change=move |e| {
                        let typed = event_target_value(&e);
                        let added = read_plan(
                            editor,
                            |p| {
                                p.tools
                                    .get(i)
                                    .map(|t| added_codes(&t.response_codes, &typed))
                                    .unwrap_or_default()
                            },
                        );
                        if !added.is_empty() {
                            change_plan(
                                editor,
                                None,
                                |d| {
                                    if let Some(t) = d.tools.get_mut(i) {
                                        t.response_codes.extend(added)
                                    }
                                },
                            );
                        }
                        if let Some(input) = e
                            .target()
                            .and_then(|t| {
                                wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()
                            })
                        {
                            input.set_value("");
                        }
                    }
                />
            </label>
        </div>
    }
}

/// A tool's "available only while" checklist: a box per session state.
#[component]
fn Gates(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let boxes = move || read_plan(editor, |p| gates(p, i));
    view! {
        <div class="field gates" data-testid="tool-available-when">
            <span class="field-label">
                "Available only while one of these session states is on (none ticked: always)"
            </span>
            {move || {
                let boxes = boxes();
                if boxes.is_empty() {
                    return view! {
                        <p class="hint">
                            "No session states yet: add them above to make this tool wait for one."
                        </p>
                    }
                        .into_any();
                }
                boxes
                    .into_iter()
                    .map(|g| {
                        let id = g.id.clone();
                        let label = if g.declared {
                            g.label.clone()
                        } else {
                            format!("{} (not declared)", g.label)
                        };
                        view! {
                            <label class="field check" class:undeclared=!g.declared>
                                <input
                                    type="checkbox"
                                    data-testid="available-when-option"
                                    data-session-id=g.id.clone()
                                    prop:checked=g.checked
                                    on:change=move |e| {
                                        let on = event_target_checked(&e);
                                        let ids = read_plan(editor, |p| gated(p, i, &id, on));
                                        change_plan(
                                            editor,
                                            None,
                                            |d| {
                                                if let Some(t) = d.tools.get_mut(i) {
                                                    t.available_when = ids;
                                                }
                                            },
                                        );
                                    }
                                />
                                <span>{label}</span>
                            </label>
                        }
                    })
                    .collect_view()
                    .into_any()
            }}
        </div>
    }
}

#[component]
pub fn PlanInspector() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let tool_count = move || read_plan(editor, |p| p.tools.len());
    view! {
        <div class="inspector-section" data-testid="plan-inspector">
            <h3>"Plan"</h3>
            {typed(
                editor,
                Extent::Line,
                "Title",
                "plan-title",
                move || read_plan(editor, |p| p.title.clone()),
                move |v| change_plan(editor, Some("title"), |d| d.title = v),
            )}
            {typed(
                editor,
                Extent::Lines,
                "Description",
                "plan-description",
                move || read_plan(editor, |p| p.description.clone()),
                move |v| change_plan(editor, Some("description"), |d| d.description = v),
            )}
            {state_picker(
                "Start state",
                "start-state",
                move || read_plan(editor, |p| p.start_state_id().unwrap_or_default().to_string()),
                move |v: String| change_plan(editor, None, |d| d.start_state_id = Some(v)),
            )}
            <div class="subsection">
                <h4>"Settings"</h4>
                <label class="field">
                    <span class="field-label">
                        "Release a stuck task after this many turns without progress (0: never)"
                    </span>
                    <input
                        type="number"
                        min="0"
                        data-testid="field-stuck-turns"
                        prop:value=move || read_plan(editor, |p| p.settings.stuck_turns.to_string())
                        on:input=move |e| {
                            if let Ok(n) = event_target_value(&e).parse() {
                                change_plan(editor, Some("stuck"), |d| d.settings.stuck_turns = n)
                            }
                        }
                    />
                </label>
                <label class="field">
                    <span class="field-label">"Insights kept per conversation"</span>
                    <input
                        type="number"
                        min="0"
                        data-testid="field-max-insights"
                        prop:value=move || read_plan(
                            editor,
                            |p| p.settings.max_insights.to_string(),
                        )
                        on:input=move |e| {
                            if let Ok(n) = event_target_value(&e).parse() {
                                change_plan(
                                    editor,
                                    Some("insights"),
                                    |d| d.settings.max_insights = n,
                                )
                            }
                        }
                    />
                </label>
            </div>
            <session_state_form::SessionStatesSection />
            <interruptions::InterruptionsSection />
            <rules::RulesSection />
            <div class="subsection">
                <h4>"Tools"</h4>
                <For each=move || 0..tool_count() key=|i| *i let:i>
                    <div class="tool" data-testid="tool" data-tool-index=i>
                        {name_field(
                            editor,
                            "Name (renaming rewires every use)",
                            "tool-name",
                            move || tool_name(editor, i),
                            move |to| Some(Command::Rename {
                                what: Renamed::Tool,
                                from: tool_name(editor, i),
                                to: to.trim().to_string(),
                            }),
                        )}
                        {typed(
                            editor,
                            Extent::Line,
                            "What it does",
                            "tool-description",
                            move || read_plan(
                                editor,
                                |p| {
                                    p.tools
                                        .get(i)
                                        .map(|t| t.description.clone())
                                        .unwrap_or_default()
                                },
                            ),
                            move |v| change_plan(
                                editor,
                                Some(&format!("tool{i}desc")),
                                |d| {
                                    if let Some(t) = d.tools.get_mut(i) {
                                        t.description = v;
                                    }
                                },
                            ),
                        )}
                        <ResponseCodes i=i />
                        <Gates i=i />
                        <button
                            class="remove"
                            data-testid="remove-tool"
                            on:click=move |_| change_plan(
                                editor,
                                None,
                                |d| {
                                    if i < d.tools.len() {
                                        d.tools.remove(i);
                                    }
                                },
                            )
                        >
                            "Remove tool"
                        </button>
                    </div>
                </For>
                <button
                    class="add"
                    data-testid="add-tool"
                    on:click=move |_| change_plan(
                        editor,
                        None,
                        |d| {
                            let mut n = d.tools.len() + 1;
                            while d.tools.iter().any(|t| t.name == format!("tool_{n}")) {
                                n += 1;
                            }
                            d.tools
                                .push(Tool {
                                    name: format!("tool_{n}"),
                                    description: String::new(),
                                    response_codes: Vec::new(),
                                    available_when: Vec::new(),
                                });
                        },
                    )
                >
                    "+ Add tool"
                </button>
            </div>
        </div>
    }
}
