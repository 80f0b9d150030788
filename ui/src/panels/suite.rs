//! The plan's suite in the Chat tab: run every saved case (progress while it runs), a pass/fail
//! line each, the coverage ("9 of 11 transitions tested", drawn on the canvas), and a failing
//! case opened at the turn where it differed, expected beside actual.

use leptos::prelude::*;

use crate::test_chat::TestChat;

#[component]
pub fn Suite() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let suite = test_chat.suite();
    let running = move || {
        test_chat.busy().get()
            && test_chat
                .progress()
                .get()
                .is_some_and(|p| p.total == 0 || p.done < p.total)
    };
    view! {
        <section class="chat-suite">
            <div class="chat-suite-head">
                <h4>"Test cases"</h4>
                <button
                    data-testid="chat-run-suite"
                    title="Run every saved test case of this plan"
                    disabled=move || test_chat.busy().get()
                    on:click=move |_| test_chat.run_suite()
                >
                    "Run the suite"
                </button>
            </div>
            {move || {
                running()
                    .then(|| {
                        test_chat
                            .progress()
                            .get()
                            .map(|p| {
                                view! {
                                    <p class="hint" data-testid="suite-progress">
                                        {if p.total == 0 {
                                            "Running the suite…".to_string()
                                        } else {
                                            format!("Running… {} of {} cases", p.done, p.total)
                                        }}
                                    </p>
                                }
                            })
                    })
            }}
            {move || {
                suite
                    .get()
                    .map(|run| {
                        let passed = run.cases.iter().filter(|c| c.passed).count();
                        let failed = run.cases.len() - passed;
                        view! {
                            <p class="suite-summary" data-testid="suite-summary">
                                {format!("{passed} passed, {failed} failed")}
                            </p>
                            <p class="hint" data-testid="coverage-summary">
                                {run.coverage_summary.clone()}
                            </p>
                            <ul class="case-results">
                                {run
                                    .cases
                                    .into_iter()
                                    .map(|c| {
                                        let name = c.name.clone();
                                        let first = c.failures.first().map(|f| f.to_string());
                                        view! {
                                            <li>
                                                <button
                                                    class="case-result"
                                                    class:failed=!c.passed
                                                    data-testid="case-result"
                                                    data-case=c.name.clone()
                                                    data-passed=if c.passed { "true" } else { "false" }
                                                    disabled=c.passed
                                                    on:click=move |_| test_chat.open_case(name.clone())
                                                >
                                                    <span class="case-mark">
                                                        {if c.passed { "✓" } else { "✗" }}
                                                    </span>
                                                    <span>{c.name.clone()}</span>
                                                    {first
                                                        .map(|f| view! { <span class="hint case-why">{f}</span> })}
                                                </button>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        }
                    })
            }}
        </section>
    }
}

/// A failing case opened from the suite's results, in place of the conversation: its turns up to
/// the one where it differed, what was expected there beside what happened, its state lit on the
/// canvas.
#[component]
pub fn OpenedCase() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    // Opened from the list below: brought into view (the DOM is the outside world).
    let here = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        test_chat.case().track();
        if let Some(el) = here.get() {
            request_animation_frame(move || el.scroll_into_view());
        }
    });
    view! {
        <div node_ref=here>
            {move || {
                test_chat
                    .case()
                    .get()
                    .map(|case| {
                        let failed_at = case.failures.first().map_or(0, |f| f.turn);
                        let turns = case
                            .record
                            .as_ref()
                            .map(|r| r.turns.clone())
                            .unwrap_or_default();
                        let failures = case.failures.clone();
                        view! {
                            <div
                                class="case-opened"
                                data-testid="case-opened"
                                data-case=case.name.clone()
                                data-turn=failed_at.to_string()
                            >
                                <h4>{format!("{} — differs at turn {failed_at}", case.name)}</h4>
                                <ol class="transcript">
                                    {turns
                                        .into_iter()
                                        .filter(|t| t.turn.number <= failed_at)
                                        .map(|t| {
                                            let here = t.turn.number == failed_at;
                                            let expected: Vec<String> = failures
                                                .iter()
                                                .filter(|f| f.turn == t.turn.number)
                                                .map(|f| f.message.clone())
                                                .collect();
                                            view! {
                                                <li class="chat-message user">
                                                    <p class="chat-text">{t.turn.user.clone()}</p>
                                                </li>
                                                <li class="chat-message agent" class:differs=here>
                                                    <p class="chat-text">{t.turn.reply.clone()}</p>
                                                    <p class="hint">{format!("then in {}", t.state)}</p>
                                                    {(!expected.is_empty())
                                                        .then(|| {
                                                            view! {
                                                                <ul class="case-differs" data-testid="case-differs">
                                                                    {expected
                                                                        .into_iter()
                                                                        .map(|e| view! { <li>{e}</li> })
                                                                        .collect_view()}
                                                                </ul>
                                                            }
                                                        })}
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ol>
                                <button
                                    data-testid="case-close"
                                    on:click=move |_| test_chat.close_case()
                                >
                                    "Back to the conversation"
                                </button>
                            </div>
                        }
                    })
            }}
        </div>
    }
}
