//! The publish dialog: a note, and before it is confirmed what the draft changes against the
//! newest version ("first version" when there is none), or, instead, the errors that block it,
//! each taking the author to its place; then what the draft changes for callers (every
//! conversation of both explored: the outcomes that differ, each playable in the test chat) and
//! the rules it newly breaks. Publish is disabled while anything blocks it, as
//! [`crate::navigation::PublishGate`] decides: broken rules included, and, for a plan with rules,
//! while they are checked or when they could not be.

use leptos::prelude::*;
use plan_api::messages::{PublishOutcomes, PublishRules};

use super::cancel_and_act;
use crate::actions::Actions;
use crate::explore::length_words;
use crate::lifecycle::Lifecycle;
use crate::navigation::{Dialog, Navigation, Publishing};
use crate::panels::{change_mark, problem_item, problem_place as place};
use crate::test_chat::{sentence_start, TestChat};

/// An outcome in a sentence's past: "ended in Billing", "was still going".
fn was(outcome: &str) -> String {
    match outcome {
        "not ended" => "was still going".to_string(),
        o => o.to_string(),
    }
}

/// An outcome in a sentence's present, one way or several: "end in Hand-off", "hangs up in
/// Security". "Not ended" is said as what it is, the same moves going on past where they
/// ended: whether they can still finish is the Explore tab's to say (a dead end), not this.
fn now(outcome: &str, one: bool) -> String {
    if outcome == "not ended" {
        return if one {
            "goes on instead (not ended at that point)"
        } else {
            "go on instead (not ended at that point)"
        }
        .to_string();
    }
    for (past, many, single) in [
        ("ended", "end", "ends"),
        ("hung up", "hang up", "hangs up"),
        ("handed off", "are handed off", "is handed off"),
    ] {
        if let Some(rest) = outcome.strip_prefix(past) {
            return format!("{}{rest}", if one { single } else { many });
        }
    }
    outcome.to_string()
}

/// "12 ways a conversation can go that ended in Billing now end in Hand-off": the count is of
/// the ways explore tells apart (as the Explore tab counts them), not of callers.
pub fn outcome_sentence(from: &str, to: &str, count: usize) -> String {
    let one = count == 1;
    let n = if one {
        "1 way a conversation can go".to_string()
    } else {
        format!(
            "{} ways a conversation can go",
            crate::explore::thousands(count)
        )
    };
    format!("{n} that {} now {}", was(from), now(to, one))
}

#[component]
pub fn PublishDialog() -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    let actions = expect_context::<Actions>();
    let navigation = expect_context::<Navigation>();
    let editor = expect_context::<crate::editor::Editor>();
    let note = RwSignal::new(String::new());
    let state = move || match navigation.dialog() {
        Some(Dialog::Publish(p)) => p,
        _ => Publishing::default(),
    };
    let has_rules = move || lifecycle.has_rules();
    let gate = Memo::new(move |_| lifecycle.publish_gate());
    let blocked = move || !gate.get().is_open();
    let heading = move || match state().preview {
        Some(p) => match p.newest {
            None => format!("Publish version {}: the first version", p.next),
            Some(n) => format!("Publish version {} (after version {n})", p.next),
        },
        None => "Publish".to_string(),
    };
    // A blocking error clicked: the dialog gives way to the place it names.
    let go_to = Callback::new(move |d: plan_core::Diagnostic| {
        lifecycle.close_dialog();
        actions.show_problem(&d);
    });
    let body = move || {
        let s = state();
        let Some(p) = s.preview else {
            return match &s.error {
                Some(_) => ().into_any(),
                None => view! { <p class="hint">"Checking the draft…"</p> }.into_any(),
            };
        };
        if let Some(refusal) = p.conflicts {
            return view! {
                <p
                    class="publish-blocked"
                    data-testid="publish-conflicts"
                    data-code=refusal.code.as_str()
                >
                    {refusal.message}
                </p>
                <p class="hint">
                    "The cards marked “Conflict” have them: choose yours or theirs in each one's inspector."
                </p>
            }
            .into_any();
        }
        if !p.errors.is_empty() {
            let n = p.errors.len();
            return view! {
                <p class="publish-blocked">
                    {format!(
                        "{} must be fixed before this draft can be published:",
                        if n == 1 { "This error".to_string() } else { format!("These {n} errors") },
                    )}
                </p>
                <ul class="publish-errors" data-testid="publish-errors">
                    {p
                        .errors
                        .into_iter()
                        .map(|d| {
                            let at = editor.plan.with_untracked(|plan| place(plan.as_ref(), &d));
                            problem_item(d, at, go_to, None)
                        })
                        .collect_view()}
                </ul>
            }
            .into_any();
        }
        if p.unchanged {
            return view! {
                <p class="hint" data-testid="publish-unchanged">
                    {format!(
                        "The draft is what version {} already holds: there is nothing to publish.",
                        p.newest.unwrap_or(0),
                    )}
                </p>
            }
            .into_any();
        }
        let what = match p.newest {
            None => "What the first version holds:".to_string(),
            Some(n) => format!("What changes since version {n}:"),
        };
        let label = what.trim_end_matches(':').to_string();
        view! {
            <p>{what}</p>
            // Focusable: a list that scrolls (a long one, or any at large text) is read by keys too.
            <ul class="publish-diff" data-testid="publish-diff" tabindex="0" aria-label=label>
                {p
                    .changes
                    .into_iter()
                    .map(|c| {
                        view! {
                            <li
                                class=format!("change depth-{} {}", c.depth, c.change.as_str())
                                data-change=c.change.as_str()
                            >
                                <span class="change-mark">{change_mark(c.change)}</span>
                                <span>{c.text}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            {rules_view(s.rules, p.newest, has_rules())}
            {outcomes_view(s.outcomes)}
        }
        .into_any()
    };
    let publish = move || lifecycle.publish(note.get_untracked());
    view! {
        <h3>{heading}</h3>
        {body}
        {move || {
            state()
                .error
                .map(|e| {
                    view! {
                        <p class="error" data-testid="publish-error" data-code=e.code.as_str()>
                            {e.message}
                        </p>
                    }
                })
        }}
        <label class="field">
            <span class="field-label">"Note (what changed, for whoever reads the versions)"</span>
            <textarea
                data-testid="publish-note"
                rows="2"
                prop:value=move || note.get()
                on:input=move |e| note.set(event_target_value(&e))
            ></textarea>
        </label>
        {cancel_and_act("publish-", move || gate.get().button(), blocked, publish)}
    }
}

/// Plays `script` in the test chat, the dialog closed.
fn play_from_dialog(script: plan_core::runtime::script::Script) {
    expect_context::<Lifecycle>().close_dialog();
    expect_context::<TestChat>().play(script);
}

/// The rules the draft newly breaks: being checked, why they could not be, or each with a Play
/// of its shortest conversation.
fn rules_view(
    rules: Option<Result<PublishRules, plan_api::ApiError>>,
    newest: Option<u32>,
    has_rules: bool,
) -> impl IntoView {
    if !has_rules {
        return ().into_any();
    }
    let Some(rules) = rules else {
        return view! {
            <p class="hint" data-testid="publish-rules-checking">
                "Checking the rules: every conversation the draft allows…"
            </p>
        }
        .into_any();
    };
    let broken = match rules {
        Ok(r) => r.rules_broken,
        Err(e) => {
            return view! {
                <p class="hint" data-testid="publish-rules-error">
                    {format!(
                        "The rules could not be checked: {}. Publishing waits until they can be.",
                        e.message.trim_end_matches('.'),
                    )}
                </p>
            }
            .into_any();
        }
    };
    if broken.is_empty() {
        return view! {
            <p class="hint" data-testid="publish-rules-hold">
                "Every rule holds in every conversation."
            </p>
        }
        .into_any();
    }
    view! {
        <p class="publish-blocked">
            {match newest {
                Some(n) => {
                    format!(
                        "This draft breaks rules that version {n} kept: fix them before publishing.",
                    )
                }
                None => "This draft breaks its rules: fix them before publishing.".to_string(),
            }}
        </p>
        <ul class="publish-errors" data-testid="publish-rules-broken">
            {broken
                .into_iter()
                .map(|f| {
                    let length = length_words(&f).unwrap_or_default();
                    view! {
                        <li class="publish-rule" data-testid="publish-rule-broken">
                            <span class="problem-message">
                                {plan_core::explore::headline(&f.finding)}
                            </span>
                            <span class="problem-place">{length}</span>
                            {f
                                .finding
                                .script
                                .map(|s| {
                                    view! {
                                        <button
                                            data-testid="publish-play"
                                            on:click=move |_| play_from_dialog(s.clone())
                                        >
                                            "Play in the test chat"
                                        </button>
                                    }
                                })}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
    .into_any()
}

/// Each turn of `script` in words of the open plan, with its command (for a tooltip); the same
/// turn in a row said once with how many times.
fn told_turns(script: &plan_core::runtime::script::Script) -> Vec<(String, String)> {
    let editor = expect_context::<crate::editor::Editor>();
    editor.plan.with_untracked(|plan| {
        let mut out: Vec<(String, String, usize)> = Vec::new();
        for t in &script.turns {
            match out.last_mut() {
                Some(last) if last.1 == t.user => last.2 += 1,
                _ => {
                    let words = plan
                        .as_ref()
                        .map(|p| sentence_start(&plan_core::explore::said(p, &t.user)))
                        .unwrap_or_else(|| t.user.clone());
                    out.push((words, t.user.clone(), 1));
                }
            }
        }
        out.into_iter()
            .map(|(w, c, n)| match n {
                1 => (w, c),
                n => (format!("{w} ({n} times)"), c),
            })
            .collect()
    })
}

/// What the draft changes for callers against the newest version: being worked out, why it could
/// not be, or each changed outcome with a Play of its shortest conversation.
fn outcomes_view(outcomes: Option<Result<PublishOutcomes, plan_api::ApiError>>) -> impl IntoView {
    let Some(outcomes) = outcomes else {
        return view! {
            <p class="hint" data-testid="publish-outcomes-checking">
                "Exploring what changes for callers…"
            </p>
        }
        .into_any();
    };
    let o = match outcomes {
        Ok(o) => o,
        Err(e) => {
            return view! {
                <p class="hint" data-testid="publish-outcomes-error">
                    {format!("What changes for callers could not be worked out: {}", e.message)}
                </p>
            }
            .into_any();
        }
    };
    let Some(n) = o.newest else {
        return ().into_any();
    };
    if o.outcomes.is_empty() {
        return view! {
            <p class="hint" data-testid="publish-outcomes-same">
                {format!("Every conversation ends as it did in version {n}.")}
            </p>
        }
        .into_any();
    }
    view! {
        <p>{format!("What changes for callers since version {n}:")}</p>
        <ul class="publish-outcomes" data-testid="publish-outcomes">
            {o
                .outcomes
                .into_iter()
                .map(|c| {
                    let script = c.script.clone();
                    let told = told_turns(&c.script);
                    view! {
                        <li data-testid="publish-outcome">
                            <span>
                                {outcome_sentence(&c.from, &c.to, c.count)}
                                <span class="problem-place">
                                    {format!(" · the shortest in {} turns", c.script.turns.len())}
                                </span> <details class="publish-example">
                                    <summary>"How it goes"</summary>
                                    <ol data-testid="publish-example">
                                        {told
                                            .into_iter()
                                            .map(|(words, command)| {
                                                view! { <li title=command>{words}</li> }
                                            })
                                            .collect_view()}
                                    </ol>
                                </details>
                            </span>
                            <button
                                data-testid="publish-play"
                                on:click=move |_| play_from_dialog(script.clone())
                            >
                                "Play"
                            </button>
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::outcome_sentence;

    #[test]
    fn an_outcome_that_changed_reads_as_a_sentence() {
        assert_eq!(
            outcome_sentence("ended in Billing", "handed off in Hand-off", 12_000),
            "12,000 ways a conversation can go that ended in Billing now are handed off in Hand-off"
        );
        assert_eq!(
            outcome_sentence("not ended", "ended in Wrap-up", 1),
            "1 way a conversation can go that was still going now ends in Wrap-up"
        );
        assert_eq!(
            outcome_sentence("ended in Billing", "not ended", 3),
            "3 ways a conversation can go that ended in Billing now go on instead (not ended at that point)"
        );
        assert_eq!(
            outcome_sentence("ended in Billing", "not ended", 1),
            "1 way a conversation can go that ended in Billing now goes on instead (not ended at that point)"
        );
        assert_eq!(
            outcome_sentence("ended in A", "hung up in B", 1),
            "1 way a conversation can go that ended in A now hangs up in B"
        );
    }
}
