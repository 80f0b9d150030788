//! The Chat tab: who answers (`agent`), the transcript with each turn's trace and the model's
//! calls folded under the agent's reply, a turn the model failed, the message field, and the
//! conversation's actions (step back, save as test case). What a new conversation runs and where it
//! begins is `chat_begin`'s; the live state of the conversation `chat_status`'s, the suite's
//! results `suite`'s.

use leptos::ev;
use leptos::prelude::*;

use super::agent::{AgentSwitch, FailedTurn};
use super::chat_begin::Begin;
use super::chat_status::Now;
use super::suite::{OpenedCase, Suite};
use crate::editor::Editor;
use crate::test_chat::{conversation_cost, transcript_lines, CallLine, TestChat, TranscriptLine};

#[component]
pub fn Chat() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let chat = test_chat.chat();
    // Memos: the views below are made once per conversation shown, not once per turn.
    let has_chat = Memo::new(move |_| chat.with(Option::is_some));
    // A failing case opened from the suite takes the conversation's place until it is closed.
    let case_open = Memo::new(move |_| test_chat.case().with(Option::is_some));
    // While a conversation runs, the window is laid out as any chat's: what it runs and its state
    // on top (scrolling on its own), the transcript filling the middle, the message box fixed at
    // the panel's foot; it never moves down as the conversation grows.
    let talking = Memo::new(move |_| has_chat.get() && !case_open.get());
    view! {
        <div class="chat" class:talking=move || talking.get() data-testid="chat">
            <div class="chat-top">
                <Begin />
                {move || {
                    test_chat
                        .error()
                        .get()
                        .map(|e| {
                            view! {
                                <p class="error" data-testid="chat-error" data-code=e.code.as_str()>
                                    {e.message}
                                </p>
                            }
                        })
                }}
                {move || {
                    chat.get()
                        .and_then(|c| c.stale)
                        .map(|why| {
                            view! {
                                <div class="chat-stale" data-testid="chat-stale">
                                    <p>{why}</p>
                                    <button class="primary" on:click=move |_| test_chat.restart()>
                                        "Start again"
                                    </button>
                                </div>
                            }
                        })
                }}
                // Where the conversation is comes before who answers: opened, the model's settings
                // would push it out of the top's view.
                {move || talking.get().then(|| view! { <Now /> })}
                <AgentSwitch />
                {move || case_open.get().then(|| view! { <OpenedCase /> })}
                <Suite />
            </div>
            {move || {
                talking
                    .get()
                    .then(|| {
                        view! {
                            <Transcript />
                            <FailedTurn />
                            <Say />
                        }
                    })
            }}
        </div>
    }
}

/// The conversation, each agent reply with its turn's trace folded under it.
#[component]
fn Transcript() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let editor = expect_context::<Editor>();
    let lines = move || {
        let agent = test_chat.agent().get();
        // The plan read untracked: an edit does not redo the transcript (the words follow the
        // next turn).
        editor.plan.with_untracked(|plan| {
            test_chat.chat().with(|c| {
                c.as_ref()
                    .map(|c| transcript_lines(c, agent, plan.as_ref()))
                    .unwrap_or_default()
            })
        })
    };
    let cost = move || {
        test_chat
            .chat()
            .with(|c| c.as_ref().and_then(|c| conversation_cost(&c.turns)))
    };
    let ended = move || {
        test_chat.chat().with(|c| {
            c.as_ref()
                .and_then(|c| c.session.ended.as_ref().map(|e| e.describe()))
        })
    };
    // The newest line in view after each turn, as in any chat window (the DOM is the outside world).
    let list = NodeRef::<leptos::html::Ol>::new();
    Effect::new(move |_| {
        test_chat.chat().track();
        if let Some(ol) = list.get() {
            request_animation_frame(move || ol.set_scroll_top(ol.scroll_height()));
        }
    });
    // And kept there while the author has not scrolled up: the panel's top (the Now panel, the
    // model's settings) can grow after a turn, which shortens the transcript without scrolling it.
    let at_newest = StoredValue::new(true);
    Effect::new(move |_| {
        if let Some(ol) = list.get() {
            StoredValue::new_local(KeptAtNewest::observe(ol, at_newest));
        }
    });
    let on_scroll = move |_| {
        if let Some(ol) = list.get_untracked() {
            at_newest.set_value(ol.scroll_top() + ol.client_height() >= ol.scroll_height() - 8);
        }
    };
    // Keyed by the whole line: a turn adds two lines and makes no other again (every line made
    // again was most of a turn's time on the page by the 30th turn); a line taken back and said
    // differently is a new line.
    view! {
        <ol class="transcript" data-testid="chat-transcript" node_ref=list on:scroll=on_scroll>
            <For each=lines key=|l| l.clone() children=message />
        </ol>
        {move || {
            ended()
                .map(|e| {
                    view! {
                        <p class="chat-ended" data-testid="chat-ended">
                            {format!("The conversation has ended: {e}.")}
                        </p>
                    }
                })
        }}
        {move || {
            cost()
                .map(|c| {
                    view! {
                        <p class="chat-total-cost" data-testid="chat-cost">
                            {c}
                        </p>
                    }
                })
        }}
    }
}

/// One message of the transcript, with what is folded under an agent's reply: the model's calls,
/// the turn's trace, the prompt.
fn message(line: TranscriptLine) -> impl IntoView {
    let TranscriptLine {
        role,
        turn,
        text,
        words,
        trace,
        prompt,
        by,
        calls,
        cost,
        no_functions,
        ..
    } = line;
    let calls = (!calls.is_empty()).then(|| {
        let count = calls.len();
        let call = |c: CallLine| {
            view! {
                <li
                    class="chat-call"
                    class:rejected=!c.accepted
                    data-testid="chat-call"
                    data-function=c.function
                    data-accepted=if c.accepted { "true" } else { "false" }
                >
                    {c.text}
                </li>
            }
        };
        view! {
            <details class="chat-calls" data-testid="chat-calls">
                <summary>{format!("What the model did ({count})")}</summary>
                <ul>{calls.into_iter().map(call).collect_view()}</ul>
            </details>
        }
    });
    let trace = (!trace.is_empty()).then(|| {
        view! {
            <details class="chat-trace" data-testid="chat-trace">
                <summary>{format!("What happened in turn {turn}")}</summary>
                <ul>{trace.into_iter().map(|t| view! { <li>{t}</li> }).collect_view()}</ul>
            </details>
        }
    });
    let prompt = (!prompt.is_empty()).then(|| {
        view! {
            <details class="chat-prompt" data-testid="chat-prompt">
                <summary>"What the agent was told"</summary>
                <pre>{prompt}</pre>
            </details>
        }
    });
    let notice = no_functions.then(|| {
        view! {
            <p class="chat-notice" data-testid="chat-no-functions">
                {plan_api::agent::no_functions_notice()}
            </p>
        }
    });
    view! {
        <li
            class=format!("chat-message {role}")
            data-testid="chat-message"
            data-role=role
            data-turn=turn.to_string()
            data-by=by.unwrap_or_default()
        >
            {by
                .map(|by| {
                    view! {
                        <span class="chat-by" data-testid="chat-by">
                            {by}
                        </span>
                    }
                })}
            {match words {
                Some(words) => {
                    view! {
                        <p class="chat-text" title=text.clone()>
                            {words}
                        </p>
                        <p class="chat-command">
                            <code data-testid="chat-command">{text}</code>
                        </p>
                    }
                        .into_any()
                }
                None => view! { <p class="chat-text">{text}</p> }.into_any(),
            }}
            {cost
                .map(|c| {
                    view! {
                        <p class="chat-cost" data-testid="chat-turn-cost">
                            {c}
                        </p>
                    }
                })}
            {notice}
            {calls}
            {trace}
            {prompt}
        </li>
    }
}

/// The message field (Enter sends, Shift+Enter starts a new line) and the conversation's actions.
#[component]
fn Say() -> impl IntoView {
    let test_chat = expect_context::<TestChat>();
    let text = RwSignal::new(String::new());
    let send = move || {
        let message = text.get_untracked();
        if !message.trim().is_empty() {
            text.set(String::new());
            test_chat.say(message);
        }
    };
    let ended = move || {
        test_chat.chat().with(|c| {
            c.as_ref()
                .is_some_and(|c| c.session.ended.is_some() || c.stale.is_some())
        })
    };
    let can_step_back = move || {
        test_chat
            .chat()
            .with(|c| c.as_ref().is_some_and(|c| c.can_step_back))
    };
    // The field is disabled once the conversation ends: its focus goes on to "Save as test case…",
    // not to the page.
    let save_case = NodeRef::<leptos::html::Button>::new();
    let has_ended = Memo::new(move |_| ended());
    Effect::new(move |_| {
        if has_ended.get() {
            request_animation_frame(move || {
                let fell = document().active_element().is_none_or(|el| {
                    el.tag_name() == "BODY" || el.matches(":disabled").unwrap_or(false)
                });
                if let (true, Some(button)) = (fell, save_case.get_untracked()) {
                    let _ = button.focus();
                }
            });
        }
    });
    view! {
        <div class="chat-say">
            <textarea
                data-testid="chat-input"
                rows="2"
                placeholder="What the caller says…"
                disabled=ended
                prop:value=move || text.get()
                on:input=move |e| text.set(event_target_value(&e))
                on:keydown=move |e: ev::KeyboardEvent| {
                    if e.key() == "Enter" && !e.shift_key() {
                        e.prevent_default();
                        send();
                    }
                }
            ></textarea>
            <button
                class="primary"
                data-testid="chat-send"
                disabled=move || ended() || test_chat.busy().get()
                on:click=move |_| send()
            >
                "Send"
            </button>
        </div>
        <div class="chat-actions">
            <button
                data-testid="chat-step-back"
                title="Take the last turn back, to answer differently"
                disabled=move || !can_step_back() || test_chat.busy().get()
                on:click=move |_| test_chat.step_back()
            >
                "↶ Step back"
            </button>
            <button
                node_ref=save_case
                data-testid="chat-save-case"
                title="Keep this conversation as a test case"
                on:click=move |_| test_chat.propose_case()
            >
                "Save as test case…"
            </button>
        </div>
    }
}

/// Scrolls a transcript to its newest line whenever its box or its content changes size while it
/// shows that line (the top growing above it, a line's details opened); stops when dropped (with
/// the effect that made it).
struct KeptAtNewest {
    resized: web_sys::ResizeObserver,
    changed: web_sys::MutationObserver,
    _on_change: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

impl KeptAtNewest {
    fn observe(
        ol: web_sys::HtmlOListElement,
        at_newest: StoredValue<bool>,
    ) -> Option<KeptAtNewest> {
        use wasm_bindgen::JsCast;
        let list = ol.clone();
        let on_change = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
            if at_newest.try_get_value().unwrap_or(false) {
                list.set_scroll_top(list.scroll_height());
            }
        });
        let callback = on_change.as_ref().unchecked_ref();
        let resized = web_sys::ResizeObserver::new(callback).ok()?;
        resized.observe(&ol);
        let changed = web_sys::MutationObserver::new(callback).ok()?;
        let what = web_sys::MutationObserverInit::new();
        what.set_child_list(true);
        what.set_subtree(true);
        what.set_attributes(true);
        what.set_character_data(true);
        changed.observe_with_options(&ol, &what).ok()?;
        Some(KeptAtNewest {
            resized,
            changed,
            _on_change: on_change,
        })
    }
}

impl Drop for KeptAtNewest {
    fn drop(&mut self) {
        self.resized.disconnect();
        self.changed.disconnect();
    }
}
