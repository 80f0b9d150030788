//! The plan's tools in the inspector: each one's name (renaming rewires every use), what it
//! does, its response codes, and the session states it waits for.

use leptos::prelude::*;
use plan_core::edit::{Command, Renamed};
use plan_core::plan::{Plan, Tool};

use super::access::{change_plan, read_plan};
use super::checklist::SessionStateChecklist;
use super::fields::{name_field, typed, Extent};
use super::list::{list_items, op_button, Adder, Items};
use super::names::added_codes;
use crate::editor::Editor;
use crate::panels::list_ops::{fresh_id, ListOp};

/// The plan's tools, as the inspector edits them.
fn tools(editor: Editor) -> Items<Tool> {
    Items::of_plan(editor, "tool", |p| &p.tools, |d| &mut d.tools)
}

/// A new tool: a name no other tool has, nothing else.
fn fresh(_: &Plan, list: &[Tool]) -> Tool {
    Tool {
        name: fresh_id("tool_", list.len() + 1, |name| {
            list.iter().any(|t| t.name == name)
        }),
        description: String::new(),
        response_codes: Vec::new(),
        available_when: Vec::new(),
    }
}

/// The plan's tools.
#[component]
pub fn ToolsSection() -> impl IntoView {
    let xs = tools(expect_context::<Editor>());
    view! {
        <div class="subsection">
            <h4>"Tools"</h4>
            {list_items(
                xs,
                |i| view! { <ToolForm i=i /> },
                Adder {
                    testid: "add-tool",
                    label: "+ Add tool",
                    make: fresh,
                },
            )}
        </div>
    }
}

/// The tool at `i` of the plan's list.
#[component]
fn ToolForm(i: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let xs = tools(editor);
    view! {
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
                xs.text(i, |t| t.description.clone()),
                xs.set_text(i, "description", |t, v| t.description = v),
            )}
            <ResponseCodes i=i />
            <Gates i=i />
            {op_button(xs, i, ListOp::Remove, "remove-tool", "Remove tool", None)}
        </div>
    }
}

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
    view! {
        <SessionStateChecklist
            testid="tool-available-when"
            option_testid="available-when-option"
            label="Available only while one of these session states is on (none ticked: always)"
            empty="No session states yet: add them above to make this tool wait for one."
            chosen=Callback::new(move |()| {
                read_plan(
                    editor,
                    |p| p.tools.get(i).map(|t| t.available_when.clone()).unwrap_or_default(),
                )
            })
            choose=Callback::new(move |ids: Vec<String>| {
                change_plan(
                    editor,
                    None,
                    |d| {
                        if let Some(t) = d.tools.get_mut(i) {
                            t.available_when = ids;
                        }
                    },
                );
            })
        />
    }
}
