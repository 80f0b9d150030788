//! The Versions tab: every published version (number, date, note, live marker), each with its
//! actions: view it read-only, set it live, reopen it as the draft, compare it with the draft or
//! another version (the "Compare with" choice above the list).

use leptos::prelude::*;
use plan_api::messages::VersionInfo;
use plan_core::Revision;

use crate::editor::{Editor, Mode};
use crate::lifecycle::Lifecycle;

/// Rows made at once when the tab shows, then each frame.
const FIRST_ROWS: usize = 40;
const ROWS_A_FRAME: usize = 60;

#[component]
pub fn Versions() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let lifecycle = expect_context::<Lifecycle>();
    let versions = lifecycle.versions;
    let viewing = Memo::new(move |_| match editor.mode.get() {
        Mode::Version(n) => Some(n),
        _ => None,
    });
    // The newest versions first, a screenful at once and the rest a batch a frame: 500 rows at
    // once took 140 ms to make before the tab showed anything (`scripts/bench-app.sh`).
    let drawn = RwSignal::new(FIRST_ROWS);
    // Another plan's list starts at its top again.
    Effect::new(move |before: Option<Option<String>>| {
        let id = editor.id.get();
        if before.is_some_and(|b| b != id) {
            drawn.set(FIRST_ROWS);
        }
        id
    });
    Effect::new(move |_| {
        let total = versions.with(Vec::len);
        if drawn.get() < total {
            request_animation_frame(move || drawn.update(|n| *n += ROWS_A_FRAME));
        }
    });
    let rows = move || {
        let n = drawn.get();
        versions.with(|list| list.iter().rev().take(n).cloned().collect::<Vec<_>>())
    };
    let row = move |v: VersionInfo| view! { <VersionRow v viewing /> };
    view! {
        <div class="versions" data-testid="versions">
            {move || {
                versions
                    .with(Vec::is_empty)
                    .then(|| {
                        view! {
                            <p class="hint" data-testid="no-versions">
                                "Not published yet. Publish makes the draft version 1: a copy that never changes, which you can set live."
                            </p>
                        }
                    })
            }}
            {move || (!versions.with(Vec::is_empty)).then(|| view! { <CompareWith /> })}
            <ul class="version-list">
                <For
                    each=rows
                    key=|v| (v.version, v.live, v.corrupted.is_some(), v.note.clone())
                    children=row
                />
            </ul>
            {move || {
                (drawn.get() < versions.with(Vec::len))
                    .then(|| view! { <p class="hint">"Listing older versions…"</p> })
            }}
        </div>
    }
}

/// One version: its number, date, note (or why it is corrupted), and its actions.
#[component]
fn VersionRow(v: VersionInfo, viewing: Memo<Option<u32>>) -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    let compare_with = lifecycle.compare_with;
    let n = v.version;
    let corrupted = v.corrupted.clone();
    let intact = corrupted.is_none();
    let shown = move || viewing.get() == Some(n);
    let compared_to_itself = move || compare_with.get() == Revision::Version(n);
    view! {
        <li
            class="version"
            class:live=v.live
            class:shown=shown
            data-testid="version"
            data-version=n.to_string()
            data-live=v.live.then_some("true")
        >
            <div class="version-head">
                <strong>{format!("v{n}")}</strong>
                {v.live.then(|| view! { <span class="live-chip">"live"</span> })}
                <span class="version-date">{published(&v.published_at)}</span>
            </div>
            {match &corrupted {
                Some(why) => {
                    view! { <p class="version-corrupted">{format!("Corrupted: {why}")}</p> }
                        .into_any()
                }
                None if v.note.is_empty() => {
                    view! { <p class="version-note hint">"No note"</p> }.into_any()
                }
                None => view! { <p class="version-note">{v.note.clone()}</p> }.into_any(),
            }}
            <div class="version-actions">
                <button
                    data-testid="version-view"
                    disabled=!intact
                    on:click=move |_| lifecycle.view(n)
                >
                    "View"
                </button>
                <button
                    data-testid="version-compare"
                    disabled=move || !intact || compared_to_itself()
                    title="Compare this version with the choice above"
                    on:click=move |_| {
                        lifecycle.compare(Revision::Version(n), compare_with.get_untracked())
                    }
                >
                    "Compare"
                </button>
                <button
                    data-testid="version-set-live"
                    disabled=!intact || v.live
                    on:click=move |_| lifecycle.set_live(n)
                >
                    "Set live"
                </button>
                <button
                    data-testid="version-reopen"
                    disabled=!intact
                    on:click=move |_| lifecycle.ask_reopen(n)
                >
                    "Reopen as draft"
                </button>
            </div>
        </li>
    }
}

/// What Compare compares a version with: the draft or another version.
#[component]
fn CompareWith() -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    let versions = lifecycle.versions;
    let options = move || {
        versions
            .get()
            .into_iter()
            .rev()
            .map(|v| {
                let n = v.version;
                view! { <option value=n.to_string()>{format!("version {n}")}</option> }
            })
            .collect_view()
    };
    view! {
        <label class="field compare-with">
            <span class="field-label">"Compare with"</span>
            <select
                data-testid="compare-with"
                prop:value=move || lifecycle.compare_with.get().word()
                on:change=move |e| {
                    let chosen = Revision::from_word(&event_target_value(&e));
                    lifecycle.compare_with_revision(chosen.unwrap_or(Revision::Draft));
                }
            >
                <option value="draft">"the draft"</option>
                {options}
            </select>
        </label>
    }
}

/// A publish time as the list shows it: `2026-12-02 14:05` (UTC, as recorded).
fn published(at: &str) -> String {
    match (at.get(..10), at.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time} UTC"),
        _ => at.to_string(),
    }
}
