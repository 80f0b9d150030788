//! The Simulate tab: the plan's simulated callers (personas) with what each is told and what is
//! wrong with it; a run's settings with Run, progress and Stop (`run_form`); the run shown, per
//! caller and per conversation (how it ended, the checks that failed, each judge question's
//! verdict with its agreement and reasons); past runs to open, replay or compare (`run_compare`).
//! The decisions are `crate::simulate`'s.

use leptos::prelude::*;
use plan_api::messages::{ConversationSummary, PersonaRow, RunReport, RunRow};
use plan_core::simulate::judge::Vote;
use plan_core::simulate::run_id;

use super::persona_form::PersonaForm;
use super::run_compare::comparison_view;
use super::run_form::RunForm;
use crate::simulate::cost::cost_words;
use crate::simulate::stepping;
use crate::simulate::{
    persona_words, run_words, state_words, status_words, tally_words, verdict_words, Simulating,
};

#[component]
pub fn Simulate() -> impl IntoView {
    let simulating = expect_context::<Simulating>();
    // Whether the form shows, not its fields: typing in it must not build the tab again.
    let writing = Memo::new(move |_| simulating.persona_form.with(Option::is_some));
    move || {
        if writing.get() {
            view! {
                <section class="simulate" data-testid="simulate">
                    <PersonaForm />
                </section>
            }
            .into_any()
        } else {
            view! { <Overview /> }.into_any()
        }
    }
}

/// The tab without the form: callers, the run's settings, the run shown, past runs.
#[component]
fn Overview() -> impl IntoView {
    let simulating = expect_context::<Simulating>();
    view! {
        <section class="simulate" data-testid="simulate">
            <p class="hint">
                "Callers played by a language model talk to the draft, answered by the simulator; each conversation is checked and judged, and every model answer is kept so that a run can be replayed."
            </p>
            <div class="row sim-callers-head">
                <h3>"Callers"</h3>
                <button
                    type="button"
                    data-testid="sim-new-persona"
                    on:click=move |_| simulating.new_persona()
                >
                    "New caller"
                </button>
            </div>
            {move || {
                simulating
                    .overview
                    .with(|o| match o {
                        None => view! { <p class="hint">"Reading the callers…"</p> }.into_any(),
                        Some(o) if o.personas.is_empty() => {
                            view! {
                                <p class="hint" data-testid="sim-no-personas">
                                    "This plan has no callers yet: write one with New caller."
                                </p>
                            }
                                .into_any()
                        }
                        Some(o) => {
                            view! {
                                <ul class="sim-personas" data-testid="sim-personas">
                                    {o
                                        .personas
                                        .iter()
                                        .map(|p| persona(simulating, p))
                                        .collect_view()}
                                </ul>
                            }
                                .into_any()
                        }
                    })
            }}
            <RunForm />
            {move || {
                simulating
                    .error
                    .get()
                    .map(|e| {
                        view! {
                            <p class="error" data-testid="sim-error" role="alert">
                                {e}
                            </p>
                        }
                    })
            }}
            {move || {
                simulating
                    .report
                    .with(Option::is_some)
                    .then(|| {
                        view! {
                            <label class="explore-coverage">
                                <input
                                    type="checkbox"
                                    data-testid="sim-heat"
                                    prop:checked=move || simulating.heat.get()
                                    on:change=move |e| simulating.heat.set(event_target_checked(&e))
                                />
                                "Show the run on the canvas (the heat map)"
                            </label>
                        }
                    })
            }}
            {move || simulating.comparison.with(|c| c.as_ref().map(comparison_view))}
            {move || simulating.report.with(|r| r.as_ref().map(report))}
            <h3>"Past runs"</h3>
            {move || {
                simulating
                    .overview
                    .with(|o| {
                        let runs = o.as_ref().map(|o| o.runs.clone()).unwrap_or_default();
                        if runs.is_empty() {
                            view! { <p class="hint">"No runs yet."</p> }.into_any()
                        } else {
                            view! {
                                <ul class="sim-runs" data-testid="sim-runs">
                                    {runs
                                        .into_iter()
                                        .map(|r| past_run(simulating, r))
                                        .collect_view()}
                                </ul>
                            }
                                .into_any()
                        }
                    })
            }}
        </section>
    }
}

fn persona(simulating: Simulating, p: &PersonaRow) -> impl IntoView {
    let problems = p.problems.clone();
    let id = p.id.clone();
    let editable = p.persona.is_some();
    view! {
        <li class="sim-persona" data-testid="sim-persona" data-id=p.id.clone()>
            <div class="row">
                <strong>{p.name.clone()}</strong>
                {editable
                    .then(|| {
                        view! {
                            <button
                                type="button"
                                data-testid="sim-edit-persona"
                                aria-label=format!("edit the caller {}", p.name)
                                on:click=move |_| simulating.edit_persona(&id)
                            >
                                "Edit"
                            </button>
                        }
                    })}
            </div>
            <span class="sim-who">{p.who.clone()}</span>
            {(!p.behaviour.is_empty())
                .then(|| view! { <span class="hint">{p.behaviour.join(" ")}</span> })}
            {(!p.questions.is_empty())
                .then(|| {
                    view! {
                        <span class="hint">{format!("Judge: {}", p.questions.join(" "))}</span>
                    }
                })}
            {problems
                .into_iter()
                .map(|line| {
                    view! {
                        <span class="error" data-testid="sim-persona-problem">
                            {line}
                        </span>
                    }
                })
                .collect_view()}
        </li>
    }
}

fn report(r: &RunReport) -> impl IntoView {
    let simulating = expect_context::<Simulating>();
    let name = move |id: &str| {
        simulating
            .overview
            .with_untracked(|o| persona_words(o.as_ref(), id))
    };
    let head = format!(
        "The run of {}{}: {}",
        run_id::words(&r.run),
        r.replay_of
            .as_ref()
            .map(|o| format!(" (replay of the run of {})", run_id::words(o)))
            .unwrap_or_default(),
        run_words(&r.personas)
    );
    view! {
        <div class="sim-report" data-testid="sim-report">
            <p class="sim-summary" data-testid="sim-summary">
                {head}
            </p>
            {
                let cost = cost_words(&r.cost);
                let recorded = if r.replay_of.is_some() { " (as recorded)" } else { "" };
                (!cost.is_empty())
                    .then(|| {
                        view! {
                            <p class="hint" data-testid="sim-cost">
                                {format!("What it asked{recorded}: {}.", cost.join("; "))}
                            </p>
                        }
                    })
            }
            <ul class="sim-tallies">
                {r
                    .personas
                    .iter()
                    .map(|t| {
                        view! {
                            <li data-testid="sim-tally" data-id=t.id.clone()>
                                <strong>{name(&t.id)}</strong>
                                {format!(": {}", tally_words(t))}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <ul class="sim-conversations">
                {r.conversations.iter().map(conversation).collect_view()}
            </ul>
        </div>
    }
}

fn conversation(summary: &ConversationSummary) -> impl IntoView {
    let c = &summary.outcome;
    let simulating = expect_context::<Simulating>();
    let status = c.status;
    let (persona, k) = (c.persona.clone(), c.k);
    let p2 = StoredValue::new(c.persona.clone());
    let is_open = move || {
        simulating.opened.with(|o| {
            o.as_ref().is_some_and(|o| {
                p2.with_value(|p| o.conversation.outcome.persona == *p)
                    && o.conversation.outcome.k == k
            })
        })
    };
    let who = simulating
        .overview
        .with_untracked(|o| persona_words(o.as_ref(), &c.persona));
    let title = format!(
        "{who}, conversation {}: {}, {} turn{}, ended {}",
        c.k,
        status_words(status),
        c.turns,
        if c.turns == 1 { "" } else { "s" },
        c.ended.as_str().replace('_', " ")
    );
    view! {
        <li class="sim-conversation" data-testid="sim-conversation" data-status=status.as_str()>
            <span class="sim-conversation-head">
                <span class=format!("sim-status {}", status.as_str())>{title}</span>
                <button
                    data-testid="sim-open-conversation"
                    on:click=move |_| simulating.open_conversation(persona.clone(), k)
                >
                    {move || if is_open() { "Close" } else { "Read it" }}
                </button>
            </span>
            {c.reason.clone().map(|r| view! { <span class="hint">{r}</span> })}
            {c
                .checks
                .iter()
                .filter(|k| !k.ok)
                .map(|k| {
                    view! { <span class="error">{format!("Failed: {}", k.detail)}</span> }
                })
                .collect_view()}
            {c
                .verdicts
                .iter()
                .map(|v| {
                    view! {
                        <span
                            class="sim-verdict"
                            data-testid="sim-verdict"
                            title=v.reasons.join(" · ")
                        >
                            {format!("{} {}", v.question, verdict_words(v))}
                        </span>
                    }
                })
                .collect_view()}
            {move || is_open().then(transcript)}
        </li>
    }
}

/// The conversation opened, turn by turn: what the caller said, what the plan answered and the
/// state it was in after; a step back and forth lights on the canvas where it was at that turn
/// (`crate::simulate::stepping`); each judge question's votes with their reasons; then Save as
/// test case.
fn transcript() -> impl IntoView {
    let simulating = expect_context::<Simulating>();
    let view = simulating.opened.get_untracked();
    let Some(view) = view else {
        return ().into_any();
    };
    let c = &view.conversation;
    let name = RwSignal::new(format!("{}-{}", c.outcome.persona, c.outcome.k));
    let names = expect_context::<Memo<crate::plan_names::PlanNames>>();
    let state = move |id: &str| names.with_untracked(|n| state_words(n.states(), id));
    let step = simulating.step;
    let turns = c.transcript.len();
    let shown = move |k: usize| stepping::at(step.get(), turns) == k;
    let show = move |k: usize| {
        view! {
            <button
                class="sim-show-turn"
                data-testid="sim-show-turn"
                aria-pressed=move || if shown(k) { "true" } else { "false" }
                on:click=move |_| step.set(Some(k))
            >
                {if k == 0 { "Opening".to_string() } else { format!("Turn {k}") }}
            </button>
        }
    };
    let opening = c.opening.as_ref().map(|o| {
        view! {
            <li class="sim-turn" class:shown=move || shown(0)>
                {show(0)}
                <span class="hint">{format!("in {}", state(&o.state))}</span>
                <span>{format!("Agent: {}", o.agent)}</span>
            </li>
        }
    });
    let votes = c
        .outcome
        .verdicts
        .iter()
        .map(|v| {
            view! {
                <li data-testid="sim-question-votes">
                    <strong>{v.question.clone()}</strong>
                    {format!(" {}", verdict_words(v))}
                    <ol>
                        {v
                            .votes
                            .iter()
                            .zip(v.reasons.iter().map(Some).chain(std::iter::repeat(None)))
                            .map(|(vote, reason)| {
                                let vote = match vote {
                                    Vote::Yes => "yes",
                                    Vote::No => "no",
                                    Vote::Invalid => "not a verdict",
                                };
                                let reason = reason.map(|r| format!(": {r}")).unwrap_or_default();
                                view! {
                                    <li data-testid="sim-vote">{format!("{vote}{reason}")}</li>
                                }
                            })
                            .collect_view()}
                    </ol>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="sim-steps" role="group" aria-label="Turn shown on the canvas">
            <button
                data-testid="sim-step-back"
                prop:disabled=move || stepping::back(step.get(), turns).is_none()
                on:click=move |_| {
                    if let Some(k) = stepping::back(step.get_untracked(), turns) {
                        step.set(Some(k));
                    }
                }
            >
                "◀ Previous turn"
            </button>
            <span data-testid="sim-step" aria-live="polite">
                {move || stepping::step_words(step.get(), turns)}
            </span>
            <button
                data-testid="sim-step-on"
                prop:disabled=move || stepping::on(step.get(), turns).is_none()
                on:click=move |_| {
                    if let Some(k) = stepping::on(step.get_untracked(), turns) {
                        step.set(Some(k));
                    }
                }
            >
                "Next turn ▶"
            </button>
        </div>
        <ol class="sim-transcript" data-testid="sim-transcript">
            {opening}
            {c
                .transcript
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let k = i + 1;
                    view! {
                        <li class="sim-turn" class:shown=move || shown(k) data-testid="sim-turn">
                            {show(k)}
                            <span class="hint">{format!("then in {}", state(&t.state))}</span>
                            <span>
                                {format!("Caller: {}", t.turn.user.clone().unwrap_or_default())}
                            </span>
                            <span>{format!("Agent: {}", t.turn.reply)}</span>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
        <ul class="sim-votes" data-testid="sim-vote-list">
            {votes}
        </ul>
        <div class="sim-save">
            <input
                data-testid="sim-case-name"
                aria-label="Test case name"
                prop:value=move || name.get()
                on:input=move |e| name.set(event_target_value(&e))
            />
            <button
                data-testid="sim-save-case"
                on:click=move |_| simulating.save_case(name.get_untracked())
            >
                "Save as test case"
            </button>
            {move || {
                simulating
                    .saved
                    .get()
                    .map(|s| {
                        view! {
                            <span class="hint" data-testid="sim-saved">
                                {s}
                            </span>
                        }
                    })
            }}
        </div>
    }
    .into_any()
}

fn past_run(s: Simulating, r: RunRow) -> impl IntoView {
    let (open, replay, run) = (r.run.clone(), r.run.clone(), r.run.clone());
    let doc = match r.plan.version {
        Some(n) => format!("version {n}"),
        None => "draft".to_string(),
    };
    view! {
        <li class="sim-run" data-testid="sim-run-row" data-run=r.run.clone()>
            <span>
                {format!(
                    "{} · {doc}{} · {}",
                    run_id::words(&r.run),
                    r
                        .replay_of
                        .as_ref()
                        .map(|o| format!(" · replay of the run of {}", run_id::words(o)))
                        .unwrap_or_default(),
                    run_words(&r.summary),
                )}
            </span>
            <button data-testid="sim-open" on:click=move |_| s.open(open.clone())>
                "Open"
            </button>
            <button
                data-testid="sim-replay"
                title="Run it again from its recording: nothing is sent"
                on:click=move |_| s.replay(replay.clone())
            >
                "Replay"
            </button>
            // Compared with the run shown, when another one is shown.
            {move || {
                let other = s.report.with(|r| r.as_ref().is_some_and(|r| r.run != run));
                let run = run.clone();
                other
                    .then(|| {
                        view! {
                            <button
                                data-testid="sim-compare"
                                title="Compare this run with the run shown"
                                on:click=move |_| s.compare(run.clone())
                            >
                                "Compare"
                            </button>
                        }
                    })
            }}
        </li>
    }
}
