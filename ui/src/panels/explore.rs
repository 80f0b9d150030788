//! The Explore tab: every conversation the draft allows, run by the shell in the background
//! (progress, Stop), what it found with the length of the shortest conversation that shows it,
//! and for each: Show (its path drawn on the canvas, state by state), Play in the test chat, Save
//! as test case. A switch colours the canvas by coverage. The decisions are `crate::explore`'s.

use leptos::prelude::*;
use plan_api::messages::FindingView;
use plan_core::Severity;

use plan_core::explore::{Suggestion, Told};

use crate::actions::Actions;
use crate::editor::Editor;
use crate::explore::{length_words, summary, thousands, Exploring};
use crate::navigation::{Navigation, Tab};
use crate::test_chat::sentence_start;

#[component]
pub fn Explore() -> impl IntoView {
    let exploring = expect_context::<Exploring>();
    let running = exploring.running;
    view! {
        <section class="explore" data-testid="explore">
            <p class="hint">
                {format!(
                    "Every conversation the draft allows, up to {} turns, run through the simulator: what only shows when the plan runs, with the shortest conversation that shows it.",
                    plan_core::explore::WINDOW_BOUNDS.max_turns,
                )}
            </p>
            <div class="explore-head">
                {move || {
                    if running.get() {
                        view! {
                            <button data-testid="explore-stop" on:click=move |_| exploring.stop()>
                                "Stop"
                            </button>
                        }
                            .into_any()
                    } else {
                        view! {
                            <button
                                data-testid="explore-run"
                                class:primary=move || exploring.stale.get()
                                on:click=move |_| exploring.start()
                            >
                                {move || {
                                    if exploring.found.with(Option::is_some) {
                                        "Explore again"
                                    } else {
                                        "Explore"
                                    }
                                }}
                            </button>
                        }
                            .into_any()
                    }
                }} <label class="explore-coverage">
                    <input
                        type="checkbox"
                        data-testid="explore-coverage"
                        prop:checked=move || exploring.coverage.get()
                        on:change=move |e| {
                            exploring.show_coverage(event_target_checked(&e));
                        }
                    />
                    "Colour the canvas by coverage"
                </label>
            </div>
            {move || {
                running
                    .get()
                    .then(|| {
                        view! {
                            <p class="hint" data-testid="explore-progress">
                                {move || {
                                    format!(
                                        "Exploring… {} ways a conversation can go",
                                        thousands(exploring.progress.get()),
                                    )
                                }}
                            </p>
                        }
                    })
            }}
            {move || {
                (exploring.stale.get() && !running.get())
                    .then(|| {
                        view! {
                            <p class="hint explore-stale" data-testid="explore-stale">
                                "The draft changed since: explore again to see what holds now."
                            </p>
                        }
                    })
            }}
            {move || {
                exploring
                    .error
                    .get()
                    .map(|e| {
                        view! {
                            <p class="error" data-testid="explore-error" data-code=e.code.as_str()>
                                {e.message}
                            </p>
                        }
                    })
            }}
            {move || exploring.found.get().map(|found| found_view(exploring, found))}
        </section>
    }
}

fn found_view(exploring: Exploring, found: plan_api::messages::ExploreView) -> impl IntoView {
    let line = summary(&found);
    let nothing = found.explored.findings.is_empty();
    let complete = found.explored.complete;
    let findings = found.explored.findings.into_iter().enumerate();
    view! {
        <p class="explore-summary" data-testid="explore-summary" data-complete=complete.to_string()>
            {line}
        </p>
        {nothing
            .then(|| {
                view! {
                    <p class="hint" data-testid="explore-nothing">
                        "Nothing found: every conversation can finish, every state is entered and every rule holds."
                    </p>
                }
            })}
        <ul class="explore-findings">
            {findings.map(|(i, f)| finding_view(exploring, i, f)).collect_view()}
        </ul>
    }
}

fn finding_view(exploring: Exploring, index: usize, f: FindingView) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sev = f.finding.severity.as_str();
    let icon = match f.finding.severity {
        Severity::Error | Severity::Warning => "!",
        Severity::Info => "i",
    };
    let shown = move || exploring.shown.get() == Some(index);
    let has_script = f.finding.script.is_some();
    let has_case = f.case.is_some();
    let length = length_words(&f);
    let path = f.path.clone();
    let title_of = move |id: &str| {
        editor.plan.with_untracked(|p| {
            p.as_ref()
                .and_then(|p| p.state(id))
                .map(|s| s.title.clone())
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| id.to_string())
        })
    };
    let commands: Vec<String> = f
        .finding
        .script
        .as_ref()
        .map(|s| s.turns.iter().map(|t| t.user.clone()).collect())
        .unwrap_or_default();
    let turns = commands.len().to_string();
    let story = f.story.clone();
    let why = story.why.clone();
    let suggestions = story.suggestions.clone();
    let code = f.finding.code.to_string();
    let rule = f.finding.location.rule.clone();
    view! {
        <li
            class=format!("explore-finding sev-{sev}")
            class:shown=shown
            data-testid="explore-finding"
            data-code=f.finding.code.as_str()
            data-severity=sev
            data-turns=turns
        >
            <div class="explore-finding-text">
                <span class="problem-icon">{icon}</span>
                <span>
                    <span class="problem-message">{plan_core::explore::headline(&f.finding)}</span>
                    {length.map(|l| view! { <span class="problem-place">{l}</span> })}
                    {(!why.is_empty())
                        .then(|| {
                            view! {
                                <span class="explore-why" data-testid="explore-why">
                                    {why.clone()}
                                </span>
                            }
                        })}
                </span>
            </div>
            {(!suggestions.is_empty())
                .then(|| {
                    view! {
                        <div class="explore-suggestions">
                            {suggestions.into_iter().map(suggestion_button).collect_view()}
                        </div>
                    }
                })}
            {has_script
                .then(|| {
                    view! {
                        <div class="explore-actions">
                            <button
                                data-testid="explore-show"
                                aria-pressed=move || shown().to_string()
                                title="Draw this conversation's path on the canvas"
                                on:click=move |_| exploring.show(index)
                            >
                                {move || if shown() { "Hide" } else { "Show" }}
                            </button>
                            <button
                                data-testid="explore-play"
                                title="Replay this conversation turn by turn in the test chat"
                                on:click=move |_| exploring.play(index)
                            >
                                "Play in the test chat"
                            </button>
                            <button
                                data-testid="explore-save-case"
                                disabled=!has_case
                                title="Keep this conversation as a test case of the plan"
                                on:click=move |_| exploring.save_case(index)
                            >
                                "Save as test case"
                            </button>
                        </div>
                    }
                })}
            {move || {
                shown()
                    .then(|| {
                        let steps = path.clone();
                        let story = story.clone();
                        let commands = commands.clone();
                        let code = code.clone();
                        let rule = rule.clone();
                        view! {
                            <ol class="explore-path" data-testid="explore-path">
                                {steps
                                    .iter()
                                    .map(|id| {
                                        view! { <li data-state-id=id.clone()>{title_of(id)}</li> }
                                    })
                                    .collect_view()}
                            </ol>
                            <p class="hint">"What happens, turn by turn:"</p>
                            <ol class="explore-said" data-testid="explore-story">
                                {story.turns.iter().map(told_view).collect_view()}
                            </ol>
                            <details class="explore-details">
                                <summary>"For tests: code and commands"</summary>
                                <p>
                                    <code data-testid="explore-code">{code.clone()}</code>
                                    {rule.clone().map(|r| format!(" · rule {r}"))}
                                </p>
                                <ol class="explore-commands" data-testid="explore-commands">
                                    {commands
                                        .iter()
                                        .map(|m| {
                                            view! {
                                                <li>
                                                    <code>{m.clone()}</code>
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ol>
                            </details>
                        }
                    })
            }}
        </li>
    }
}

/// One turn of a finding's conversation, in words: what was said (with how many times in a row)
/// and what happened because of it.
fn told_view(told: &Told) -> impl IntoView {
    let said = if told.times > 1 {
        format!("{} ({} times)", sentence_start(&told.said), told.times)
    } else {
        sentence_start(&told.said)
    };
    let then = told.then.clone();
    view! {
        <li data-testid="explore-told" data-command=told.command.clone()>
            {said}
            {(!then.is_empty())
                .then(|| {
                    view! {
                        <ul class="explore-then">
                            {then.into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}
                        </ul>
                    }
                })}
        </li>
    }
}

/// A suggestion as a button that opens its place: the state (or arrow) in the inspector, or the
/// plan's rules.
fn suggestion_button(suggestion: Suggestion) -> impl IntoView {
    let actions = expect_context::<Actions>();
    let navigation = expect_context::<Navigation>();
    let editor = expect_context::<Editor>();
    let place = suggestion.place.clone();
    view! {
        <button
            class="explore-suggestion"
            data-testid="explore-suggestion"
            on:click=move |_| {
                match &place.state_id {
                    Some(state) => actions.go_to(state, place.transition_index),
                    None => editor.select(Default::default()),
                }
                navigation.show(Tab::Inspect);
            }
        >
            {suggestion.text}
        </button>
    }
}
