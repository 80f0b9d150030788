//! The inspector of the plan itself: title, description, start state, settings, and the plan's
//! lists (session states, interruptions, rules, tools).

use leptos::prelude::*;

use super::access::{change_plan, read_plan};
use super::fields::{state_picker, typed, whole_number, Extent};
use super::{evaluations, interruptions, rules, session_state_form, tools};
use crate::editor::Editor;

#[component]
pub fn PlanInspector() -> impl IntoView {
    let editor = expect_context::<Editor>();
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
            <PlanSettings />
            <session_state_form::SessionStatesSection />
            <interruptions::InterruptionsSection />
            <rules::RulesSection />
            <evaluations::EvaluationsSection />
            <tools::ToolsSection />
        </div>
    }
}

/// The plan's settings: when a stuck task is released, how many insights are kept.
#[component]
fn PlanSettings() -> impl IntoView {
    let editor = expect_context::<Editor>();
    view! {
        <div class="subsection">
            <h4>"Settings"</h4>
            {whole_number(
                "Release a stuck task after this many turns without progress (0: never)",
                "stuck-turns",
                move || read_plan(editor, |p| p.settings.stuck_turns),
                move |n| change_plan(editor, Some("stuck"), |d| d.settings.stuck_turns = n),
            )}
            {whole_number(
                "Notes about the caller kept per conversation",
                "max-insights",
                move || read_plan(editor, |p| p.settings.max_insights),
                move |n| change_plan(editor, Some("insights"), |d| d.settings.max_insights = n),
            )}
        </div>
    }
}
