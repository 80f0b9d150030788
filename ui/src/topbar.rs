//! The top bar: the open plan's title, the editing tools (undo, redo, layout, find, help),
//! Import and Export, Publish with the version badge, and what the canvas shows (the mode).

use leptos::prelude::*;
use plan_core::edit::Command;
use plan_core::Revision;

use crate::actions::Actions;
use crate::canvas::camera::Camera;
use crate::editor::{Editor, Mode};
use crate::keymap::Action;
use crate::lifecycle::{badge, Lifecycle};
use crate::navigation::{Dialog, Navigation};
use crate::opening::Opening;
use crate::test_chat::TestChat;

/// Which of the top bar's menus is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Menu {
    Import,
    Export,
}

#[component]
pub fn TopBar() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let actions = expect_context::<Actions>();
    let opening = expect_context::<Opening>();
    let lifecycle = expect_context::<Lifecycle>();
    let navigation = expect_context::<Navigation>();
    let menu = RwSignal::new(None::<Menu>);
    // The Export menu lists the versions: they are read while it is open.
    Effect::new(move |_| {
        lifecycle
            .versions_wanted
            .set(menu.get() == Some(Menu::Export))
    });
    let title = move || {
        editor.plan.with(|p| {
            p.as_ref()
                .map(|p| p.title.clone())
                .unwrap_or_else(|| "No plan open".into())
        })
    };
    let badge_text = move || {
        let id = editor.id.get()?;
        let summary = opening
            .plans
            .with(|list| list.iter().find(|p| p.id == id).cloned())?;
        let status = editor.draft_status.get();
        Some(badge(
            status.or(Some(summary.draft)),
            summary.newest_version,
            summary.live_version,
        ))
    };
    let draft_shown = move || editor.mode.with(Mode::is_draft);
    let plan_read = editor.plan_open;
    view! {
        <header class="topbar" data-region="toolbar" aria-label="Toolbar">
            <div class="brand">
                <img src="icon.png" alt="Plan Builder" width="22" height="22" />
                <span class="wide-only">"Plan Builder"</span>
            </div>
            <div class="plan-title" data-testid="plan-title" title=title>
                {title}
            </div>
            <div class="toolbar">
                // The editing tools are the draft's: a read-only view has none of them.
                {move || draft_shown().then(|| view! { <EditingTools /> })}
                <button
                    data-testid="find"
                    title="Find (Ctrl+F)"
                    disabled=move || !plan_read.get()
                    on:click=move |_| actions.perform(Action::Find)
                >
                    "Find"
                </button>
                <button
                    data-testid="help"
                    title="Keyboard shortcuts (?)"
                    on:click=move |_| actions.perform(Action::Help)
                >
                    "?"
                </button>
            </div>
            <div class="toolbar lifecycle-tools">
                <ImportMenu menu />
                <ExportMenu menu />
                // In a narrow window its word gives way to its sign, as Undo's and Redo's do.
                <button
                    data-testid="share"
                    aria-label="Share…"
                    title="Share the workspace with others through git: checkpoint, get, send"
                    on:click=move |_| navigation.open(Dialog::Share)
                >
                    "⇅"
                    <span class="wide-only">" Share…"</span>
                </button>
                <button
                    class="primary"
                    data-testid="publish"
                    title="Freeze the draft as the next version"
                    // A plan whose draft cannot be read has an id but nothing to publish.
                    disabled=move || !plan_read.get() || !draft_shown()
                    on:click=move |_| lifecycle.open_publish()
                >
                    "Publish…"
                </button>
                // Always there and of a fixed width, so Publish never moves when its text changes.
                <span
                    class="version-badge"
                    data-testid="version-badge"
                    title=move || badge_text().unwrap_or_default()
                >
                    {move || badge_text().unwrap_or_default()}
                </span>
            </div>
            <ModeBadge />
        </header>
    }
}

/// Opens menu `m`, or closes it when it is open.
fn toggle(menu: RwSignal<Option<Menu>>, m: Menu) {
    menu.update(|open| *open = if *open == Some(m) { None } else { Some(m) });
}

/// The draft's editing tools: undo, redo, auto-layout and tidy.
#[component]
fn EditingTools() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let camera = expect_context::<Camera>();
    // A plan that cannot be read has nothing to arrange.
    let plan_read = editor.plan_open;
    let layout = move |only_overlaps: bool| {
        editor.dispatch(Command::AutoLayout { only_overlaps });
    };
    view! {
        <button
            data-testid="undo"
            title="Undo (Ctrl+Z)"
            disabled=move || !editor.can_undo.get()
            on:click=move |_| editor.undo()
        >
            "↶"
            <span class="wide-only">" Undo"</span>
        </button>
        <button
            data-testid="redo"
            title="Redo (Ctrl+Shift+Z)"
            disabled=move || !editor.can_redo.get()
            on:click=move |_| editor.redo()
        >
            "↷"
            <span class="wide-only">" Redo"</span>
        </button>
        <button
            data-testid="auto-layout"
            title="Arrange the whole plan left to right"
            disabled=move || !plan_read.get()
            on:click=move |_| {
                layout(false);
                camera.fit();
            }
        >
            "Auto-layout"
        </button>
        <button
            data-testid="tidy"
            title="Move only cards that overlap"
            disabled=move || !plan_read.get()
            on:click=move |_| layout(true)
        >
            "Tidy"
        </button>
    }
}

/// Import: into this plan's draft, or as a new plan.
#[component]
fn ImportMenu(menu: RwSignal<Option<Menu>>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let lifecycle = expect_context::<Lifecycle>();
    let no_plan = move || editor.id.with(Option::is_none);
    let items = move || {
        view! {
            <div class="menu" data-testid="import-menu" on:click=move |_| menu.set(None)>
                <button
                    data-testid="import-into"
                    disabled=no_plan
                    on:click=move |_| lifecycle.import(true)
                >
                    "Into this plan's draft…"
                </button>
                <button data-testid="import-new" on:click=move |_| lifecycle.import(false)>
                    "As a new plan…"
                </button>
            </div>
        }
    };
    view! {
        <div class="menu-anchor">
            <button
                data-testid="import"
                title="Import a plan or a flow export from a file"
                on:click=move |_| toggle(menu, Menu::Import)
            >
                "Import ▾"
            </button>
            {move || (menu.get() == Some(Menu::Import)).then(items)}
        </div>
    }
}

/// Export: the draft, the live version, or any version that is whole.
#[component]
fn ExportMenu(menu: RwSignal<Option<Menu>>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let opening = expect_context::<Opening>();
    let lifecycle = expect_context::<Lifecycle>();
    let no_plan = move || editor.id.with(Option::is_none);
    let live = move || {
        let id = editor.id.get()?;
        opening.plans.with(|list| {
            list.iter()
                .find(|p| p.id == id)
                .and_then(|p| p.live_version)
        })
    };
    let live_words = move || {
        live().map_or("The live version (none yet)".to_string(), |n| {
            format!("The live version (v{n})…")
        })
    };
    let versions = move || {
        lifecycle
            .versions
            .get()
            .into_iter()
            .rev()
            .map(|v| {
                let n = v.version;
                view! {
                    <button
                        data-testid="export-version"
                        data-version=n.to_string()
                        disabled=v.corrupted.is_some()
                        on:click=move |_| lifecycle.export(Revision::Version(n))
                    >
                        {format!("Version {n}…")}
                    </button>
                }
            })
            .collect_view()
    };
    let items = move || {
        view! {
            <div class="menu" data-testid="export-menu" on:click=move |_| menu.set(None)>
                <button
                    data-testid="export-draft"
                    on:click=move |_| lifecycle.export(Revision::Draft)
                >
                    "The draft…"
                </button>
                <button
                    data-testid="export-live"
                    disabled=move || live().is_none()
                    on:click=move |_| lifecycle.export(Revision::Live)
                >
                    {live_words}
                </button>
                {versions}
            </div>
        }
    };
    view! {
        <div class="menu-anchor">
            <button
                data-testid="export"
                title="Write the plan to a file"
                disabled=no_plan
                on:click=move |_| toggle(menu, Menu::Export)
            >
                "Export ▾"
            </button>
            {move || (menu.get() == Some(Menu::Export)).then(items)}
        </div>
    }
}

/// What the canvas shows: the draft being edited, a version read-only, or a conversation tested.
#[component]
fn ModeBadge() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let test_chat = expect_context::<TestChat>();
    let plan_open = editor.plan_open;
    let words = move || match test_chat.chat().with(|c| c.as_ref().map(|c| c.revision)) {
        Some(revision) if test_chat.is_on() => crate::test_chat::label(revision),
        // No draft is being edited while nothing is open (or the open plan cannot be read).
        _ if !plan_open.get() => "Nothing to edit".into(),
        _ => editor.mode.with(Mode::label),
    };
    view! {
        <span
            class="mode"
            class:read-only=move || !editor.mode.with(Mode::is_draft)
            class:testing=move || test_chat.is_on()
            data-testid="mode"
            title=words
        >
            {words}
        </span>
    }
}
