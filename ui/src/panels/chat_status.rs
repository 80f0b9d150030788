//! The conversation as it stands, beside the transcript: the state it is in, that visit's tasks
//! with their statuses or its goal, the counters against the plan's stuck-turn limit, every value
//! known (where and when it was recorded, and the words it came from), the insights, and for each
//! tool allowed here a button per response code that sends the call. What each part says is
//! decided in `test_chat::conversation_status`; each part here only shows it.

use leptos::prelude::*;
use plan_core::runtime::{Preset, Session};

use crate::editor::Editor;
use crate::test_chat::{
    counters, goal_words, known_rows, parked_text, session_rows, task_rows, KnownRow, SessionRow,
    TaskRow, TestChat,
};

/// The session shown: the conversation's, following each turn.
type Shown = Memo<Option<Session>>;

/// Whether the conversation can take no more by hand: it ended, or a turn is under way.
fn locked(session: Shown, test_chat: TestChat) -> bool {
    session.with(|s| s.as_ref().is_some_and(|s| s.ended.is_some())) || test_chat.busy().get()
}

#[component]
pub fn Now() -> impl IntoView {
    let editor = expect_context::<Editor>();
    let test_chat = expect_context::<TestChat>();
    let session: Shown = Memo::new(move |_| {
        test_chat
            .chat()
            .with(|c| c.as_ref().map(|c| c.session.clone()))
    });
    let with = move |f: fn(&Session, &plan_core::Plan) -> String| {
        move || {
            session.with(|s| {
                editor.plan.with(|p| match (s, p) {
                    (Some(s), Some(p)) => f(s, p),
                    _ => String::new(),
                })
            })
        }
    };
    let title = with(|s, p| {
        p.state(&s.state_id)
            .map_or(s.state_id.clone(), |st| st.title.clone())
    });
    let goal = move || session.with(|s| s.as_ref().and_then(goal_words));
    let parked = move || {
        session.with(|s| {
            editor.plan.with(|p| match (s, p) {
                (Some(s), Some(p)) => parked_text(p, s),
                _ => None,
            })
        })
    };
    let insights = move || {
        session.with(|s| {
            s.as_ref()
                .map(|s| {
                    s.insights
                        .iter()
                        .map(|i| i.text.clone())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    view! {
        <section class="chat-now" data-testid="chat-now">
            <h4>"Now"</h4>
            <p
                class="chat-state"
                data-testid="chat-state"
                data-state-id=move || session.with(|s| s.as_ref().map(|s| s.state_id.clone()))
            >
                {title}
            </p>
            <p class="hint" data-testid="chat-counters">
                {with(counters_of)}
            </p>
            <VisitTasks session />
            {move || {
                goal().map(|g| view! { <p data-testid="chat-goal">{format!("Goal: {g}")}</p> })
            }}
            <ToolsHere session />
            {move || {
                parked()
                    .map(|(id, said)| {
                        view! {
                            <div class="chat-parked" data-testid="chat-parked" data-state-id=id>
                                <span class="field-label">"Parked task"</span>
                                <p>{said}</p>
                            </div>
                        }
                    })
            }}
            <SessionStatesNow session />
            <KnownNow session />
            {move || {
                let insights = insights();
                (!insights.is_empty())
                    .then(|| {
                        view! {
                            <span class="field-label">"Insights"</span>
                            <ul class="chat-insights">
                                {insights
                                    .into_iter()
                                    .map(|i| view! { <li>{i}</li> })
                                    .collect_view()}
                            </ul>
                        }
                    })
            }}
        </section>
    }
}

fn counters_of(session: &Session, plan: &plan_core::Plan) -> String {
    counters(plan, session)
}

/// The visit's tasks with their statuses.
#[component]
fn VisitTasks(session: Shown) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let tasks = move || session.with(|s| s.as_ref().map(task_rows).unwrap_or_default());
    let row = move |TaskRow { id, status, mark }: TaskRow| {
        let task_id = id.clone();
        // The task as the author wrote it (its description's first sentence), not its id.
        let words = editor.plan.with_untracked(|p| {
            p.as_ref()
                .map(|p| plan_core::explore::story::task_words(p, &id))
                .unwrap_or_else(|| id.clone())
        });
        view! {
            <li
                class=format!("chat-task {status}")
                data-testid="chat-task"
                data-task-id=task_id
                data-status=status
            >
                <span class="chat-task-mark">{mark}</span>
                {words}
                <span class="hint">{format!(" {status}")}</span>
            </li>
        }
    };
    move || {
        let tasks = tasks();
        (!tasks.is_empty()).then(
            || view! { <ul class="chat-tasks">{tasks.into_iter().map(row).collect_view()}</ul> },
        )
    }
}

/// The tools allowed here, each with a button per response code that sends the call, and the
/// switch of what it returns when the agent calls it.
#[component]
fn ToolsHere(session: Shown) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let test_chat = expect_context::<TestChat>();
    let tools = move || {
        session.with(|s| {
            editor.plan.with(|p| {
                let (Some(s), Some(p)) = (s, p) else {
                    return Vec::new();
                };
                // A tool gated off by its session states does not exist for the agent now.
                plan_core::runtime::tools_available_now(p, s)
                    .map(|(name, tool)| {
                        let codes = tool.map(|t| t.response_codes.clone()).unwrap_or_default();
                        let last = s.visit.tools.get(name).cloned();
                        (name.to_string(), codes, last)
                    })
                    .collect::<Vec<_>>()
            })
        })
    };
    let tool = move |(name, codes, last): (String, Vec<String>, Option<String>)| {
        let buttons = if codes.is_empty() {
            vec![String::from("OK")]
        } else {
            codes.clone()
        };
        let button = |code: String| {
            let message = format!("/tool {name} {code}");
            view! {
                <button
                    data-testid="chat-tool-code"
                    data-tool=name.clone()
                    data-code=code.clone()
                    disabled=move || locked(session, test_chat)
                    on:click=move |_| test_chat.say(message.clone())
                >
                    {code.clone()}
                </button>
            }
        };
        view! {
            <div class="chat-tool" data-testid="chat-tool" data-tool=name.clone()>
                <code>{name.clone()}</code>
                {last.map(|l| view! { <span class="hint">{format!(" last: {l}")}</span> })}
                <ToolSwitch tool=name.clone() codes=codes.clone() />
                <div class="chat-tool-codes">{buttons.into_iter().map(button).collect_view()}</div>
            </div>
        }
    };
    move || {
        let tools = tools();
        (!tools.is_empty())
            .then(|| {
                view! {
                    <div class="chat-tools">
                        <span class="field-label">
                            "Tools here: send a call with a code, or choose what each returns when the agent calls it"
                        </span>
                        {tools.into_iter().map(tool).collect_view()}
                    </div>
                }
            })
    }
}

/// Every session state as the conversation holds it, each switched or set by hand.
#[component]
fn SessionStatesNow(session: Shown) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let test_chat = expect_context::<TestChat>();
    let rows = move || {
        test_chat.chat().with(|c| {
            editor.plan.with(|p| match (c, p) {
                (Some(c), Some(p)) => {
                    let last = c
                        .turns
                        .last()
                        .map(|t| t.events.as_slice())
                        .unwrap_or_default();
                    session_rows(p, &c.session, last)
                }
                _ => Vec::new(),
            })
        })
    };
    let row = move |row: SessionRow| {
        let SessionRow {
            id,
            title,
            value,
            active,
            changed_by,
            prompt,
        } = row;
        let (toggle_id, value_id, row_id) = (id.clone(), id.clone(), id.clone());
        let toggle = move |_| {
            let preset = Preset {
                value: None,
                active: Some(!active),
            };
            test_chat.set_session_state(toggle_id.clone(), preset);
        };
        let set_value = move |e: leptos::ev::Event| {
            let text = event_target_value(&e);
            let value = (!text.trim().is_empty()).then_some(serde_json::Value::String(text));
            let preset = Preset {
                value: Some(value),
                active: None,
            };
            test_chat.set_session_state(value_id.clone(), preset);
        };
        let value_field = (!prompt).then(|| {
            view! {
                <input
                    type="text"
                    class="chat-ss-value"
                    data-testid="chat-ss-value"
                    prop:value=value.clone()
                    disabled=move || locked(session, test_chat)
                    on:change=set_value
                />
            }
        });
        view! {
            <li
                class="chat-session-state"
                class:on=active
                data-testid="chat-session-state"
                data-id=row_id
                data-active=if active { "true" } else { "false" }
                data-value=value.clone()
            >
                <button
                    class="chat-ss-toggle"
                    data-testid="chat-ss-toggle"
                    title="Switch it by hand"
                    disabled=move || locked(session, test_chat)
                    on:click=toggle
                >
                    {if active { "● on" } else { "○ off" }}
                </button>
                // Named as the author named it: an id is not an author's word.
                <span class="chat-ss-title">{title}</span>
                {value_field}
                {changed_by
                    .map(|c| {
                        view! {
                            <span class="hint" data-testid="chat-session-state-changed">
                                {c}
                            </span>
                        }
                    })}
            </li>
        }
    };
    move || {
        (!rows().is_empty()).then(|| {
            view! {
                <span class="field-label">"Session states (set one by hand: by the author)"</span>
                <ul class="chat-session-states">
                    <For each=rows key=|row| row.clone() children=row />
                </ul>
            }
        })
    }
}

/// Every value known, where and when it was recorded.
#[component]
fn KnownNow(session: Shown) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let known = move || {
        session.with(|s| {
            editor.plan.with(|p| match (s, p) {
                (Some(s), Some(p)) => known_rows(p, s),
                _ => Vec::new(),
            })
        })
    };
    view! {
        <span class="field-label">"Known"</span>
        {move || known().is_empty().then(|| view! { <p class="hint">"Nothing yet."</p> })}
        <ul class="chat-known-values">
            // Keyed by what a row says: a turn adds or changes a few values, the rest stay.
            <For
                each=known
                key=|row| row.clone()
                children=|KnownRow { key, value, recorded }| {
                    let data_key = key.clone();
                    view! {
                        <li data-testid="chat-deliverable" data-key=data_key>
                            <code>{key}</code>
                            " = "
                            <strong class="chat-value">{value}</strong>
                            <span class="hint chat-where">{recorded}</span>
                        </li>
                    }
                }
            />
        </ul>
    }
}

/// The tool switch: which code the tool returns when the agent (the language model, or the
/// simulator's `/tool NAME`) calls it without naming one.
#[component]
fn ToolSwitch(tool: String, codes: Vec<String>) -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let first = codes.first().cloned().unwrap_or_default();
    let key = tool.clone();
    let chosen = move || {
        test_chat
            .tool_results()
            .with(|t| t.get(&key).cloned().unwrap_or_default())
    };
    (!codes.is_empty()).then(|| {
        view! {
            <label class="chat-tool-switch">
                <span class="hint">"returns "</span>
                <select
                    data-testid="chat-tool-result"
                    data-tool=tool.clone()
                    prop:value=chosen
                    on:change=move |e| {
                        let v = event_target_value(&e);
                        test_chat.set_tool_result(tool.clone(), (!v.is_empty()).then_some(v));
                    }
                >
                    <option value="">{format!("{first} (first)")}</option>
                    {codes
                        .iter()
                        .map(|c| view! { <option value=c.clone()>{c.clone()}</option> })
                        .collect_view()}
                </select>
            </label>
        }
    })
}
