//! The window's layout: the top bar, the sidebar (plan switcher and palette), the canvas with
//! what lies over it (a read-only banner, a plan that cannot be opened, a change on disk to
//! settle, the latest notice, Find, the shortcut overlay), the right-hand panel, the status bar,
//! and the dialogs. It makes the stores and the derived state and hands them to the parts; what
//! happens lives in `opening`, `actions` and `lifecycle`.

use leptos::prelude::*;
use plan_core::Severity;

use crate::actions::{plural, Actions};
use crate::announce::Announcer;
use crate::canvas::camera::Camera;
use crate::canvas::view::Canvas;
use crate::connect_picker::ConnectPicker;
use crate::derived;
use crate::dialogs::Dialogs;
use crate::editor::{Editor, Mode, OnDiskChoice, SaveState};
use crate::explore::Exploring;
use crate::find::Find;
use crate::fold::FoldToggles;
use crate::help::Help;
use crate::lifecycle::Lifecycle;
use crate::navigation::{Navigation, Tab};
use crate::opening::{FirstScreen, Opening};
use crate::panels::Panel;
use crate::problem_count::{no_plan_open, problem_count, Counted, Explored};
use crate::sidebar::Sidebar;
use crate::simulate::Simulating;
use crate::test_chat::TestChat;
use crate::topbar::TopBar;
use crate::validation::validation;

/// The window, opening the first screen `first` when it arrives.
#[component]
pub fn App(first: FirstScreen) -> impl IntoView {
    let editor = Editor::new();
    let camera = Camera::new();

    let scene = derived::scene(editor);
    let report = validation(editor);
    // The plan's names, which the inspector's pickers offer (see `names`).
    provide_context(crate::plan_names::memo(editor));
    let opening = Opening::new(editor, camera, scene);
    let navigation = Navigation::new();
    let actions = Actions::new(editor, camera, scene, navigation);
    let lifecycle = Lifecycle::new(editor, opening, navigation);
    let test_chat = TestChat::new(editor, actions, lifecycle, navigation);
    let exploring = Exploring::new(editor, actions, navigation, test_chat);
    let simulating = Simulating::new(editor, navigation);
    let sharing = crate::sharing::Sharing::new(editor, opening);
    // The stores, reached by every part of the window through the context: a component takes
    // as props only what it shows.
    provide_context(editor);
    provide_context(camera);
    provide_context(opening);
    provide_context(navigation);
    provide_context(actions);
    provide_context(lifecycle);
    provide_context(test_chat);
    provide_context(exploring);
    provide_context(simulating);
    provide_context(sharing);
    opening.start(first);
    actions.listen_to_keys();
    actions.open_panel_on_tab_change();
    actions.fold_side_when_narrow();

    let chat_marks = derived::chat_marks();
    let marks = derived::marks(report, chat_marks);
    derived::follow_the_conversation(scene, chat_marks);

    view! {
        <div
            class="app"
            class:wide-panel=move || {
                matches!(navigation.tab(), Tab::Chat | Tab::Explore | Tab::Simulate)
            }
            class:side-folded=move || !actions.side_open()
            class:panel-folded=move || !actions.panel_open()
        >
            <TopBar />
            <Sidebar />
            <main
                class="workspace"
                class:read-only=move || !editor.mode.with(Mode::is_draft)
                data-region="canvas"
                aria-label="Canvas"
            >
                <Canvas scene=scene marks=marks />
                <FoldToggles />
                <ReadOnlyBanner />
                <crate::sharing::banner::ConflictBanner />
                <LoadError />
                <OnDiskConflict />
                <Notice />
                <FindAndHelp />
            </main>
            <Panel report=report />
            <StatusBar report=report />
            <Dialogs />
        </div>
    }
}

/// Over the canvas when the plan cannot be opened: why, and that it opens again once fixed.
#[component]
fn LoadError() -> impl IntoView {
    let opening = expect_context::<Opening>();
    move || {
        opening.load_error().map(|e| {
            view! {
                <div class="load-error" data-testid="load-error" data-code=e.code.as_str()>
                    <h3>"This plan cannot be opened"</h3>
                    <p>{e.message.clone()}</p>
                    <p class="hint">"Fix the file and it opens again by itself."</p>
                </div>
            }
        })
    }
}

/// Find (Ctrl+F), the shortcuts overlay (?) and the picker of a new arrow's target (C), while
/// open.
#[component]
fn FindAndHelp() -> impl IntoView {
    let actions = expect_context::<Actions>();
    let close = Callback::new(move |()| actions.close_overlays());
    view! {
        {move || {
            actions
                .finding()
                .then(|| {
                    view! {
                        <Find
                            close=close
                            on_pick=Callback::new(move |id: String| {
                                actions.go_to(&id, None);
                                crate::actions::focus_card(&id);
                            })
                        />
                    }
                })
        }}
        {move || { actions.showing_help().then(|| view! { <Help close=close /> }) }}
        {move || {
            actions.connecting().map(|connecting| view! { <ConnectPicker connecting=connecting /> })
        }}
    }
}

/// Over the canvas while a version or a comparison is shown: what it is, and the way back.
#[component]
fn ReadOnlyBanner() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let lifecycle = expect_context::<Lifecycle>();
    move || {
        let mode = editor.mode.get();
        (!mode.is_draft()).then(|| {
            view! {
                <div class="readonly-banner" data-testid="readonly-banner">
                    <span>{mode.label()}</span>
                    <button
                        class="primary"
                        data-testid="back-to-draft"
                        on:click=move |_| lifecycle.back_to_draft()
                    >
                        "Back to the draft"
                    </button>
                </div>
            }
        })
    }
}

/// The draft changed on disk under unsaved edits, or can no longer be read: both choices, and
/// nothing overwritten until the author picks one.
#[component]
fn OnDiskConflict() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let opening = expect_context::<Opening>();
    move || {
        editor.on_disk_choice.get().map(|choice| match choice {
            OnDiskChoice::Plan(_) => view! {
                <div class="conflict" data-testid="conflict">
                    <strong>"This plan changed on disk while you were editing."</strong>
                    <span>" Nothing has been overwritten."</span>
                    <button
                        data-testid="conflict-theirs"
                        on:click=move |_| editor.resolve_conflict(true)
                    >
                        "Use the file's version"
                    </button>
                    <button
                        data-testid="conflict-mine"
                        on:click=move |_| editor.resolve_conflict(false)
                    >
                        "Keep mine"
                    </button>
                </div>
            }
            .into_any(),
            OnDiskChoice::Unreadable(e) => {
                let why = e.clone();
                view! {
                    <div class="conflict" data-testid="conflict" data-code=e.code.as_str()>
                        <strong>
                            "The file on disk can no longer be read; your plan is still here."
                        </strong>
                        <span class="conflict-why">{e.message.clone()}</span>
                        <button
                            data-testid="conflict-theirs"
                            on:click=move |_| opening.close_unreadable(why.clone())
                        >
                            "Close it"
                        </button>
                        <button
                            data-testid="conflict-mine"
                            on:click=move |_| editor.resolve_conflict(false)
                        >
                            "Write mine over it"
                        </button>
                    </div>
                }
                .into_any()
            }
        })
    }
}

/// The latest message for the author, with its Undo when it has one.
#[component]
fn Notice() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let lifecycle = expect_context::<Lifecycle>();
    move || {
        editor.notice.get().map(|n| {
            let undo = n.undo.clone();
            view! {
                <div
                    class="notice"
                    class:refused=n.error.is_some()
                    data-testid="notice"
                    data-code=n.error.map(|c| c.as_str())
                >
                    <span>{n.text.clone()}</span>
                    {undo
                        .map(|u| {
                            view! {
                                <button
                                    data-testid="notice-undo"
                                    on:click=move |_| lifecycle.undo_notice(u.clone())
                                >
                                    "Undo"
                                </button>
                            }
                        })}
                    <button title="Dismiss" on:click=move |_| editor.notice.set(None)>
                        "✕"
                    </button>
                </div>
            }
        })
    }
}

/// Problem counts (a click opens the Problems tab), the save state, the plan's size, where its
/// draft is, and the zoom.
#[component]
fn StatusBar(report: Memo<plan_core::Report>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let camera = expect_context::<Camera>();
    let opening = expect_context::<Opening>();
    let counts = move || {
        editor.plan.with(|p| {
            p.as_ref().map_or(String::new(), |p| {
                format!(
                    "{} · {}",
                    plural(p.states.len(), "state"),
                    plural(p.transition_count(), "transition")
                )
            })
        })
    };
    let exploring = expect_context::<Exploring>();
    // Validation's and the last exploration's findings together: the bar never says "No
    // problems" while the Explore tab shows one.
    let plan_open = editor.plan_open;
    let problem_count = Memo::new(move |_| {
        if !plan_open.get() {
            return no_plan_open();
        }
        let checked = report.with(|r| Counted {
            errors: r.count(Severity::Error),
            warnings: r.count(Severity::Warning),
        });
        let explored = if exploring.stale.get() {
            Explored::OutOfDate
        } else {
            exploring.found.with(|f| match f {
                None => Explored::Not,
                Some(f) => Explored::Found(Counted::of(
                    f.explored.findings.iter().map(|f| f.finding.severity),
                )),
            })
        };
        problem_count(checked, explored)
    });
    let zoom = move || format!("{:.0} %", camera.viewport.get().zoom * 100.0);
    // Nothing open, nothing saved: the bar says nothing of saving.
    let save_label = move || {
        if plan_open.get() {
            editor.save.with(SaveState::label)
        } else {
            String::new()
        }
    };
    let save_class = move || match editor.save.get() {
        SaveState::Saved => "save saved",
        SaveState::Failed(_) | SaveState::Conflict => "save failed",
        _ => "save saving",
    };
    let source = opening.source;
    let navigation = expect_context::<Navigation>();
    view! {
        <footer class="statusbar">
            <button
                class="problem-count"
                data-testid="problem-count"
                title=move || problem_count.with(|c| c.tooltip.clone())
                on:click=move |_| navigation.show(problem_count.with_untracked(|c| c.opens))
            >
                {move || problem_count.with(|c| c.text.clone())}
            </button>
            // Where the draft is saved shows on hover only: a path is not an author's word.
            <span class=save_class data-testid="save-status" title=move || source.get()>
                {save_label}
            </span>
            <span data-testid="counts">{counts}</span>
            <span class="source"></span>
            <span class="zoom" data-testid="zoom">
                {zoom}
            </span>
            <Announcer problems=Memo::new(move |_| problem_count.with(|c| c.text.clone())) />
        </footer>
    }
}
