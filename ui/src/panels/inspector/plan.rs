//! The inspector of the plan itself: title, description, start state, tools with their response
//! codes, and settings.

use leptos::prelude::*;
use plan_core::edit::{Command, PlanDetails};
use plan_core::plan::{Plan, Tool};

use super::fields::{area, state_picker, text};
use super::session;
use crate::editor::Editor;

fn change(editor: Editor, burst: Option<&str>, f: impl FnOnce(&mut PlanDetails)) {
    let Some(mut d) = editor
        .plan
        .with_untracked(|p| p.as_ref().map(PlanDetails::of))
    else {
        return;
    };
    f(&mut d);
    let command = Command::SetPlanDetails(d);
    match burst {
        Some(k) => editor.dispatch_typing(command, &format!("plan:{k}")),
        None => editor.dispatch(command),
    };
}

fn read<T: Default>(editor: Editor, f: impl FnOnce(&Plan) -> T) -> T {
    editor.plan.with(|p| p.as_ref().map(f).unwrap_or_default())
}

#[component]
pub fn PlanInspector(editor: Editor) -> impl IntoView {
    let tool_count = move || read(editor, |p| p.tools.len());
    view! {
        <div class="inspector-section" data-testid="plan-inspector">
            <h3>"Plan"</h3>
            {text(editor, "Title", "plan-title", move || read(editor, |p| p.title.clone()), move |v| change(editor, Some("title"), |d| d.title = v))}
            {area(editor, "Description", "plan-description", move || read(editor, |p| p.description.clone()), move |v| change(editor, Some("description"), |d| d.description = v))}
            {state_picker(
                editor,
                "Start state",
                "start-state",
                move || read(editor, |p| p.start_state_id().unwrap_or_default().to_string()),
                move |v: String| change(editor, None, |d| d.start_state_id = Some(v)),
            )}
            <div class="subsection">
                <h4>"Settings"</h4>
                <label class="field">
                    <span class="field-label">"Release a stuck task after this many turns without progress (0: never)"</span>
                    <input type="number" min="0" data-testid="field-stuck-turns"
                        prop:value=move || read(editor, |p| p.settings.stuck_turns.to_string())
                        on:input=move |e| if let Ok(n) = event_target_value(&e).parse() { change(editor, Some("stuck"), |d| d.settings.stuck_turns = n) } />
                </label>
                <label class="field">
                    <span class="field-label">"Insights kept per conversation"</span>
                    <input type="number" min="0" data-testid="field-max-insights"
                        prop:value=move || read(editor, |p| p.settings.max_insights.to_string())
                        on:input=move |e| if let Ok(n) = event_target_value(&e).parse() { change(editor, Some("insights"), |d| d.settings.max_insights = n) } />
                </label>
            </div>
            <session::SessionStatesSection editor=editor />
            <div class="subsection">
                <h4>"Tools"</h4>
                <For each=move || 0..tool_count() key=|i| *i let:i>
                    <div class="tool" data-testid="tool" data-tool-index=i>
                        {text(editor, "Name", "tool-name", move || read(editor, |p| p.tools.get(i).map(|t| t.name.clone()).unwrap_or_default()),
                            move |v| change(editor, Some(&format!("tool{i}name")), |d| if let Some(t) = d.tools.get_mut(i) { t.name = v }))}
                        {text(editor, "What it does", "tool-description", move || read(editor, |p| p.tools.get(i).map(|t| t.description.clone()).unwrap_or_default()),
                            move |v| change(editor, Some(&format!("tool{i}desc")), |d| if let Some(t) = d.tools.get_mut(i) { t.description = v }))}
                        <label class="field">
                            <span class="field-label">"Response codes (comma-separated)"</span>
                            <input type="text" data-testid="field-tool-codes"
                                prop:value=move || read(editor, |p| p.tools.get(i).map(|t| t.response_codes.join(", ")).unwrap_or_default())
                                on:change=move |e| {
                                    let codes: Vec<String> = event_target_value(&e).split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect();
                                    change(editor, None, |d| if let Some(t) = d.tools.get_mut(i) { t.response_codes = codes });
                                } />
                        </label>
                        <label class="field">
                            <span class="field-label">"Available only while one of these session states is on (comma-separated; empty: always)"</span>
                            <input type="text" data-testid="field-tool-available-when"
                                prop:value=move || read(editor, |p| p.tools.get(i).map(|t| t.available_when.join(", ")).unwrap_or_default())
                                on:change=move |e| {
                                    let ids: Vec<String> = event_target_value(&e).split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect();
                                    change(editor, None, |d| if let Some(t) = d.tools.get_mut(i) { t.available_when = ids });
                                } />
                        </label>
                        <button class="remove" data-testid="remove-tool" on:click=move |_| change(editor, None, |d| { if i < d.tools.len() { d.tools.remove(i); } })>"Remove tool"</button>
                    </div>
                </For>
                <button class="add" data-testid="add-tool" on:click=move |_| change(editor, None, |d| {
                    let mut n = d.tools.len() + 1;
                    while d.tools.iter().any(|t| t.name == format!("tool_{n}")) { n += 1; }
                    d.tools.push(Tool { name: format!("tool_{n}"), description: String::new(), response_codes: Vec::new(), available_when: Vec::new() });
                })>"+ Add tool"</button>
            </div>
        </div>
    }
}
