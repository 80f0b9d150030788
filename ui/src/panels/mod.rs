//! The right-hand panel and its tabs: the inspector of the selection, the Problems, the Versions,
//! the Test chat, Explore, Simulate, and, while two documents are compared, their Changes.

mod agent;
mod changes;
mod chat;
mod chat_begin;
mod chat_status;
mod explore;
pub mod inspector;
mod list_ops;
mod persona_form;
mod problems;
mod run_compare;
mod run_form;
mod simulate;
mod suite;
mod versions;

use leptos::prelude::*;
use plan_core::Report;

use crate::actions::Actions;
use crate::editor::{Editor, Mode};
use crate::lifecycle::Lifecycle;
pub use changes::mark as change_mark;
use changes::Changes;
use chat::Chat;
use explore::Explore;
use inspector::Inspector;
use problems::Problems;
pub use problems::{place as problem_place, problem_item};
use simulate::Simulate;
use versions::Versions;

use crate::navigation::Navigation;
pub use crate::navigation::Tab;

#[component]
pub fn Panel(report: Memo<Report>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let actions = expect_context::<Actions>();
    let lifecycle = expect_context::<Lifecycle>();
    let navigation = expect_context::<Navigation>();
    let counts = move || {
        report.with(|r| {
            let e = r.count(plan_core::Severity::Error);
            let w = r.count(plan_core::Severity::Warning);
            match (e, w) {
                (0, 0) => "Problems".to_string(),
                (e, w) => format!("Problems ({})", e + w),
            }
        })
    };
    let comparing = move || editor.mode.with(|m| matches!(m, Mode::Compare { .. }));
    let exploring = expect_context::<crate::explore::Exploring>();
    // The errors the last search found, beside the tab's name.
    let explore_label = move || {
        let errors = exploring.found.with(|f| {
            f.as_ref().map_or(0, |f| {
                f.explored
                    .findings
                    .iter()
                    .filter(|x| x.finding.severity == plan_core::Severity::Error)
                    .count()
            })
        });
        match errors {
            0 => "Explore".to_string(),
            n => format!("Explore ({n})"),
        }
    };
    let on_problem = Callback::new(move |d: plan_core::Diagnostic| actions.show_problem(&d));
    view! {
        <aside
            class="panel"
            class:folded=move || !actions.panel_open()
            data-region="panel"
            aria-label="Panel"
        >
            // Five tabs: Explore (the draft's) gives way to Changes while two documents are compared.
            <div class="tabs">
                {tab_button(navigation, Tab::Inspect, "tab-inspect", || "Inspector".to_string())}
                {tab_button(navigation, Tab::Problems, "tab-problems", counts)}
                {tab_button(
                    navigation,
                    Tab::Versions,
                    "tab-versions",
                    move || {
                        match lifecycle.newest_version() {
                            Some(n) => format!("Versions ({n})"),
                            None => "Versions".to_string(),
                        }
                    },
                )} {tab_button(navigation, Tab::Chat, "tab-chat", || "Test chat".to_string())}
                {move || {
                    (!comparing())
                        .then(|| tab_button(navigation, Tab::Explore, "tab-explore", explore_label))
                }}
                {move || {
                    (!comparing())
                        .then(|| tab_button(
                            navigation,
                            Tab::Simulate,
                            "tab-simulate",
                            || "Simulate".to_string(),
                        ))
                }}
                {move || {
                    comparing()
                        .then(|| tab_button(
                            navigation,
                            Tab::Changes,
                            "tab-changes",
                            || "Changes".to_string(),
                        ))
                }}
            </div>
            <div class="panel-body" class:chat-body=move || navigation.showing(Tab::Chat)>
                {move || match navigation.tab() {
                    Tab::Inspect => view! { <Inspector report=report /> }.into_any(),
                    Tab::Problems => {
                        view! { <Problems report=report on_problem=on_problem /> }.into_any()
                    }
                    Tab::Versions => view! { <Versions /> }.into_any(),
                    Tab::Changes => view! { <Changes /> }.into_any(),
                    Tab::Chat => view! { <Chat /> }.into_any(),
                    Tab::Explore => view! { <Explore /> }.into_any(),
                    Tab::Simulate => view! { <Simulate /> }.into_any(),
                }}
            </div>
        </aside>
    }
}

fn tab_button(
    navigation: Navigation,
    which: Tab,
    testid: &'static str,
    label: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <button
            class:active=move || navigation.showing(which)
            data-testid=testid
            on:click=move |_| navigation.show(which)
        >
            {label}
        </button>
    }
}
