//! The plan switcher: the workspace's plans, most recently changed first, searched by title or
//! id; each with its versions and a way to rename, duplicate or delete it; a new plan (blank or
//! from a sample); and the trash, from which a deleted plan comes back. What each action does is
//! [`crate::lifecycle`]'s.

use leptos::ev;
use leptos::prelude::*;
use plan_api::messages::{DraftStatus, PlanSummary};
use plan_api::{ApiError, ErrorCode};
use std::fmt::Write as _;

use crate::actions::plural;
use crate::editor::Editor;
use crate::lifecycle::{filter_plans, Lifecycle};
use crate::opening::Opening;

#[component]
pub fn Switcher() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let opening = expect_context::<Opening>();
    let lifecycle = expect_context::<Lifecycle>();
    let query = RwSignal::new(String::new());
    // The plan whose title is being edited in the list.
    let renaming = RwSignal::new(None::<String>);
    let listed = move || -> Vec<PlanSummary> {
        let list: Vec<PlanSummary> = opening
            .plans
            .get()
            .into_iter()
            .map(|p| as_edited(editor, p))
            .collect();
        query.with(|q| filter_plans(&list, q))
    };
    let row = move |p: PlanSummary| view! { <PlanRow p renaming /> };
    focus_the_title_being_renamed(renaming);
    view! {
        <div class="switcher">
            <div class="switcher-head">
                <h2>"Plans"</h2>
                <button
                    class="add"
                    data-testid="plan-new"
                    title="A new plan: blank, or a copy of a sample"
                    on:click=move |_| lifecycle.new_plan_dialog()
                >
                    "+ New"
                </button>
            </div>
            <input
                class="plan-search"
                type="search"
                data-testid="plan-search"
                placeholder="Search plans"
                prop:value=move || query.get()
                on:input=move |e| query.set(event_target_value(&e))
            />
            {move || {
                opening
                    .list_error
                    .get()
                    .map(|e| {
                        view! {
                            <p class="error" data-testid="list-error">
                                {e.message}
                            </p>
                        }
                    })
            }}
            <ul class="plan-list">
                <For
                    each=listed
                    key=|p| {
                        format!(
                            "{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{:?}\u{1f}{:?}\u{1f}{:?}\u{1f}{:?}\u{1f}{:?}",
                            p.id,
                            p.title,
                            p.states,
                            p.transitions,
                            p.error,
                            p.draft,
                            p.newest_version,
                            p.live_version,
                            p.problems,
                        )
                    }
                    children=row
                />
            </ul>
            {move || {
                (listed().is_empty() && !query.with(String::is_empty))
                    .then(|| view! { <p class="hint sidebar-hint">"No plan matches."</p> })
            }}
            <Trash />
        </div>
    }
}

/// A plan list entry; for the open plan's draft, with the title and counts of the editor's plan,
/// which are newer than the list's (the app's own saves do not refresh the list).
fn as_edited(editor: Editor, mut p: PlanSummary) -> PlanSummary {
    let open = editor.id.with(|id| id.as_deref() == Some(p.id.as_str()));
    if p.error.is_none() && open && editor.mode.with(|m| m.is_draft()) {
        editor.plan.with(|plan| {
            if let Some(plan) = plan {
                p.title = plan.title.clone();
                p.states = plan.states.len();
                p.transitions = plan.transition_count();
            }
        });
        if let Some(status) = editor.draft_status.get() {
            p.draft = status;
        }
    }
    p
}

/// The line under a plan's title: its size and versions, or why it cannot be opened.
fn describe(p: &PlanSummary) -> String {
    if let Some(e) = &p.error {
        return problem_summary(e);
    }
    let mut line = format!(
        "{} · {}",
        plural(p.states, "state"),
        plural(p.transitions, "transition")
    );
    if let Some(n) = p.newest_version {
        let _ = write!(line, " · v{n}");
        match p.live_version {
            Some(l) if l == n => line.push_str(" live"),
            Some(l) => {
                let _ = write!(line, " (live v{l})");
            }
            None => {}
        }
        if p.draft == DraftStatus::Changed {
            line.push_str(" · edited");
        }
    }
    if !p.problems.is_empty() {
        line.push_str(" · ⚠ files need attention");
    }
    line
}

/// A plan's tooltip: its id, and what is wrong with its files, each on a line.
fn tooltip(p: &PlanSummary) -> String {
    std::iter::once(p.id.clone())
        .chain(p.problems.iter().cloned())
        .collect::<Vec<_>>()
        .join("\n")
}

fn problem_summary(e: &ApiError) -> String {
    match e.code {
        ErrorCode::InvalidJson => "Not valid JSON".into(),
        ErrorCode::MergedAsText => "Merged as text by git".into(),
        ErrorCode::Schema => "Not a valid plan".into(),
        ErrorCode::TooLarge => "File too large".into(),
        _ => "Cannot be read".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_whose_files_need_attention_says_so_and_names_them_in_its_tooltip() {
        let mut p = PlanSummary {
            id: "support".into(),
            title: "Support".into(),
            states: 3,
            transitions: 2,
            error: None,
            draft: DraftStatus::Published,
            newest_version: Some(1),
            live_version: None,
            changed_at: None,
            problems: Vec::new(),
        };
        assert_eq!(describe(&p), "3 states · 2 transitions · v1");
        assert_eq!(tooltip(&p), "support");
        p.problems =
            vec!["/ws/support/live.json: it names version 99, which does not exist".into()];
        assert_eq!(
            describe(&p),
            "3 states · 2 transitions · v1 · ⚠ files need attention"
        );
        assert_eq!(
            tooltip(&p),
            "support\n/ws/support/live.json: it names version 99, which does not exist"
        );
    }
}

/// One plan of the list: its title (edited in place while `renaming` names it), what it holds, and
/// its actions.
#[component]
fn PlanRow(p: PlanSummary, renaming: RwSignal<Option<String>>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let opening = expect_context::<Opening>();
    let lifecycle = expect_context::<Lifecycle>();
    let id = p.id.clone();
    let active = Memo::new({
        let id = id.clone();
        move |_| editor.id.get().as_deref() == Some(id.as_str())
    });
    let broken = p.error.clone();
    let is_renaming = Memo::new({
        let id = id.clone();
        move |_| renaming.get().as_deref() == Some(id.as_str())
    });
    let name = {
        let (id, title) = (id.clone(), p.title.clone());
        move || {
            if is_renaming.get() {
                let commit_id = id.clone();
                view! {
                    <input
                        class="rename-input"
                        data-testid="plan-rename-input"
                        prop:value=title.clone()
                        on:keydown=move |e: ev::KeyboardEvent| match e.key().as_str() {
                            "Enter" => {
                                renaming.set(None);
                                lifecycle.rename(commit_id.clone(), event_target_value(&e));
                            }
                            "Escape" => renaming.set(None),
                            _ => {}
                        }
                        on:blur=move |_| renaming.set(None)
                    />
                }
                .into_any()
            } else {
                view! { <span class="plan-name">{title.clone()}</span> }.into_any()
            }
        }
    };
    let (open_id, rename_id, copy_id, delete_id) = (id.clone(), id.clone(), id.clone(), id.clone());
    view! {
        <li class="plan-row" class:active=active>
            <button
                class="plan-item"
                class:active=active
                class:broken=broken.is_some()
                data-testid="plan"
                data-plan-id=id.clone()
                title=broken.as_ref().map(|e| e.message.clone()).unwrap_or_else(|| tooltip(&p))
                on:click=move |_| {
                    if !is_renaming.get_untracked() {
                        opening.open(open_id.clone(), true)
                    }
                }
            >
                {name}
                <span class="plan-meta">{describe(&p)}</span>
            </button>
            <div class="plan-actions">
                <button
                    data-testid="plan-rename"
                    data-plan-id=id.clone()
                    title="Rename"
                    disabled=broken.is_some()
                    on:click=move |_| renaming.set(Some(rename_id.clone()))
                >
                    "✎"
                </button>
                <button
                    data-testid="plan-duplicate"
                    data-plan-id=id.clone()
                    title="Duplicate (the draft, as a new plan)"
                    disabled=broken.is_some()
                    on:click=move |_| lifecycle.duplicate(copy_id.clone())
                >
                    {duplicate_icon()}
                </button>
                <button
                    data-testid="plan-delete"
                    data-plan-id=id.clone()
                    title="Delete (to the trash; Undo brings it back)"
                    on:click=move |_| lifecycle.delete(delete_id.clone())
                >
                    {delete_icon()}
                </button>
            </div>
        </li>
    }
}

/// The icon of Duplicate: two sheets.
fn duplicate_icon() -> impl IntoView {
    view! {
        <svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
            <rect
                x="5"
                y="5"
                width="9"
                height="9"
                rx="1.5"
                fill="none"
                stroke="currentColor"
                stroke-width="1.5"
            ></rect>
            <path
                d="M3 11V3.5A1.5 1.5 0 0 1 4.5 2H11"
                fill="none"
                stroke="currentColor"
                stroke-width="1.5"
            ></path>
        </svg>
    }
}

/// The icon of Delete: a bin.
fn delete_icon() -> impl IntoView {
    view! {
        <svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
            <path
                d="M2.5 4h11M6 4V2.5h4V4M4 4l.8 9.5h6.4L12 4"
                fill="none"
                stroke="currentColor"
                stroke-width="1.5"
                stroke-linejoin="round"
            ></path>
        </svg>
    }
}

/// Puts the caret in a plan's title as soon as its field appears.
fn focus_the_title_being_renamed(renaming: RwSignal<Option<String>>) {
    Effect::new(move |_| {
        if renaming.get().is_some() {
            request_animation_frame(|| {
                if let Some(input) = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| {
                        d.query_selector("[data-testid=plan-rename-input]")
                            .ok()
                            .flatten()
                    })
                    .and_then(|el| {
                        wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(el).ok()
                    })
                {
                    let _ = input.focus();
                    input.select();
                }
            });
        }
    });
}

/// The deleted plans, folded; each comes back with Restore.
#[component]
fn Trash() -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    let trash = lifecycle.trash;
    let show_trash = RwSignal::new(false);
    move || {
        (!trash.with(Vec::is_empty))
                    .then(|| {
                        view! {
                            <div class="trash" data-testid="trash">
                                <button
                                    class="trash-toggle"
                                    data-testid="trash-toggle"
                                    on:click=move |_| show_trash.update(|s| *s = !*s)
                                >
                                    {move || {
                                        format!(
                                            "{} Trash ({})",
                                            if show_trash.get() { "▾" } else { "▸" },
                                            trash.with(Vec::len),
                                        )
                                    }}
                                </button>
                                {move || {
                                    show_trash
                                        .get()
                                        .then(|| {
                                            view! {
                                                <ul>
                                                    {move || {
                                                        trash
                                                            .get()
                                                            .into_iter()
                                                            .map(|t| {
                                                                let entry = t.entry.clone();
                                                                view! {
                                                                    <li
                                                                        class="trash-entry"
                                                                        data-testid="trash-entry"
                                                                        data-entry=t.entry.clone()
                                                                        data-plan-id=t.id.clone()
                                                                    >
                                                                        <span class="plan-name">{t.title.clone()}</span>
                                                                        <span class="plan-meta">
                                                                            {format!(
                                                                                "deleted {}",
                                                                                t.deleted_at.replace('T', " ").trim_end_matches('Z'),
                                                                            )}
                                                                        </span>
                                                                        <button
                                                                            data-testid="trash-restore"
                                                                            on:click=move |_| lifecycle.restore(entry.clone())
                                                                        >
                                                                            "Restore"
                                                                        </button>
                                                                    </li>
                                                                }
                                                            })
                                                            .collect_view()
                                                    }}
                                                </ul>
                                            }
                                        })
                                }}
                            </div>
                        }
                    })
    }
}
