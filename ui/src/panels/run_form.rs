//! The Simulate tab's run settings (simulate.md, "In the app"): the caller's model server and
//! model, who answers for the plan (the simulator or the language-model agent), the judge (the
//! caller's model, or one of its own), conversations per caller, votes per question, conversations
//! side by side; what the run will ask; Run, or while it goes its progress (with the models' time)
//! and Stop. The fields are `crate::simulate::run_form`'s.

use leptos::prelude::*;

use crate::simulate::cost::duration_words;
use crate::simulate::run_form::RunFields;
use crate::simulate::Simulating;

/// A text field of the form: `read` shows it, `write` keeps what is typed.
fn text_field(
    s: Simulating,
    label: &'static str,
    testid: &'static str,
    placeholder: &'static str,
    read: fn(&RunFields) -> &String,
    write: fn(&mut RunFields, String),
) -> impl IntoView {
    view! {
        <label>
            {label}
            <input
                data-testid=testid
                placeholder=placeholder
                prop:value=move || s.run_fields.with(|f| read(f).clone())
                on:input=move |e| s.run_fields.update(|f| write(f, event_target_value(&e)))
            />
        </label>
    }
}

/// A count of the form; what is not a number is left as it was.
fn count_field(
    s: Simulating,
    label: &'static str,
    testid: &'static str,
    read: fn(&RunFields) -> u32,
    write: fn(&mut RunFields, u32),
) -> impl IntoView {
    view! {
        <label>
            {label}
            <input
                type="number"
                min="1"
                data-testid=testid
                prop:value=move || s.run_fields.with(|f| read(f).to_string())
                on:change=move |e| {
                    if let Ok(n) = event_target_value(&e).trim().parse::<u32>() {
                        s.run_fields.update(|f| write(f, n));
                    }
                }
            />
        </label>
    }
}

/// A role with a server of its own.
#[derive(Clone, Copy)]
enum Role {
    Agent,
    Judge,
}

/// The server and model of `role`, shown while `shown` says (empty fields take the caller's).
fn server_fields(s: Simulating, shown: Memo<bool>, role: Role) -> impl IntoView {
    type Field = (fn(&RunFields) -> &String, fn(&mut RunFields, String));
    let (testid, labels, url, model): ([&'static str; 3], [&'static str; 2], Field, Field) =
        match role {
            Role::Agent => (
                ["sim-agent-server", "sim-agent-url", "sim-agent-model"],
                ["Agent's model server", "Agent's model"],
                (|f| &f.agent_url, |f, v| f.agent_url = v),
                (|f| &f.agent_model, |f, v| f.agent_model = v),
            ),
            Role::Judge => (
                ["sim-judge-server", "sim-judge-url", "sim-judge-model"],
                ["Judge's model server", "Judge's model"],
                (|f| &f.judge_url, |f, v| f.judge_url = v),
                (|f| &f.judge_model, |f, v| f.judge_model = v),
            ),
        };
    move || {
        shown.get().then(|| {
            view! {
                <div class="sim-form" data-testid=testid[0]>
                    {text_field(s, labels[0], testid[1], "the caller's", url.0, url.1)}
                    {text_field(s, labels[1], testid[2], "the caller's", model.0, model.1)}
                </div>
            }
        })
    }
}

#[component]
pub fn RunForm() -> impl IntoView {
    let s = expect_context::<Simulating>();
    // Whether the agent's and the judge's servers show, not their fields: typing must not build
    // the form again.
    let agent_llm = Memo::new(move |_| s.run_fields.with(|f| f.agent_llm));
    let own_judge = Memo::new(move |_| s.run_fields.with(|f| f.own_judge));
    view! {
        <h3>"Run"</h3>
        <div class="sim-form">
            {text_field(
                s,
                "Caller's model server",
                "sim-caller-url",
                "http://localhost:11434/v1",
                |f| &f.caller_url,
                |f, v| f.caller_url = v,
            )}
            {text_field(
                s,
                "Model",
                "sim-caller-model",
                "",
                |f| &f.caller_model,
                |f, v| f.caller_model = v,
            )}
            <label>
                "Who answers for the plan"
                <select
                    data-testid="sim-agent"
                    prop:value=move || if agent_llm.get() { "llm" } else { "simulator" }
                    on:change=move |e| {
                        let llm = event_target_value(&e) == "llm";
                        s.run_fields.update(|f| f.agent_llm = llm);
                    }
                >
                    <option value="simulator">"The simulator"</option>
                    <option value="llm">"The language-model agent"</option>
                </select>
            </label> <label class="sim-check">
                <input
                    type="checkbox"
                    data-testid="sim-own-judge"
                    prop:checked=move || own_judge.get()
                    on:change=move |e| {
                        let own = event_target_checked(&e);
                        s.run_fields.update(|f| f.own_judge = own);
                    }
                />
                "A judge of its own (else the caller's model judges)"
            </label>
        </div>
        {server_fields(s, agent_llm, Role::Agent)}
        {server_fields(s, own_judge, Role::Judge)}
        <div class="sim-form">
            {count_field(
                s,
                "Conversations per caller",
                "sim-conversations",
                |f| f.conversations,
                |f, n| f.conversations = n,
            )}
            {count_field(
                s,
                "Judge's votes per question",
                "sim-votes",
                |f| f.votes,
                |f, n| f.votes = n,
            )}
            {count_field(
                s,
                "Conversations side by side",
                "sim-parallel",
                |f| f.parallel,
                |f, n| f.parallel = n,
            )}
        </div>
        <p class="hint">
            {move || {
                let side = if agent_llm.get() {
                    "The language-model agent answers for the plan"
                } else {
                    "The simulator answers for the plan"
                };
                let judge = if own_judge.get() {
                    "a judge of its own judges"
                } else {
                    "the caller's model judges"
                };
                format!(
                    "{side}; {judge}. Nothing leaves this machine but the requests to those servers. A local server answers one request at a time: side by side helps only a server that takes several.",
                )
            }}
        </p>
        <p class="hint" data-testid="sim-estimate">
            {move || s.estimate_words()}
        </p>
        <div class="sim-actions">
            {move || {
                if s.running.get() {
                    view! {
                        <button data-testid="sim-stop" on:click=move |_| s.stop()>
                            "Stop"
                        </button>
                        <span class="hint" data-testid="sim-progress" aria-live="polite">
                            {move || match s.progress.get() {
                                None => "Starting…".to_string(),
                                Some(p) => {
                                    format!(
                                        "{} of {} conversations done, {} turns, {} of model time",
                                        p.done,
                                        p.of,
                                        p.turns,
                                        duration_words(p.model_ms),
                                    )
                                }
                            }}
                        </span>
                    }
                        .into_any()
                } else {
                    view! {
                        <button class="primary" data-testid="sim-run" on:click=move |_| s.run()>
                            "Run"
                        </button>
                    }
                        .into_any()
                }
            }}
        </div>
    }
}
