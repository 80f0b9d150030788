//! The window's dialogs, one at a time over everything: Publish, a new plan, a conversation saved
//! as a test case, the first start's welcome, and the confirmation of an action that replaces
//! something. What they do is [`crate::lifecycle`]'s and [`crate::test_chat`]'s.

mod case;
mod focus;
mod publish;
mod share;
mod welcome;

use leptos::ev;
use leptos::prelude::*;

use crate::lifecycle::Lifecycle;
use crate::navigation::{Confirmation, Dialog, Navigation};
use case::SaveCaseDialog;
use publish::PublishDialog;
use share::ShareDialog;
use welcome::WelcomeDialog;

/// A dialog's two buttons: Cancel, which closes it, and its one action (`words` on it; disabled
/// while `blocked`). `hook` begins their test hooks (`cancel`, `confirm`).
pub(crate) fn cancel_and_act(
    hook: &'static str,
    words: impl IntoView + 'static,
    blocked: impl Fn() -> bool + Send + Sync + 'static,
    act: impl Fn() + 'static,
) -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    view! {
        <div class="dialog-buttons">
            <button data-testid=format!("{hook}cancel") on:click=move |_| lifecycle.close_dialog()>
                "Cancel"
            </button>
            <button
                class="primary"
                data-testid=format!("{hook}confirm")
                disabled=blocked
                on:click=move |_| act()
            >
                {words}
            </button>
        </div>
    }
}

#[component]
pub fn Dialogs() -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    let navigation = expect_context::<Navigation>();
    let close = move || lifecycle.close_dialog();
    // The kind of dialog shown: the dialog is made again only when that changes, not whenever
    // its state does (its fields keep what was typed).
    let kind = Memo::new(move |_| {
        navigation.with_dialog(|d| {
            d.map(|d| match d {
                Dialog::Publish(_) => 0,
                Dialog::NewPlan => 1,
                Dialog::Confirm(_) => 2,
                Dialog::SaveCase(_) => 3,
                Dialog::Welcome => 4,
                Dialog::Share => 5,
            })
        })
    });
    let root = NodeRef::<leptos::html::Div>::new();
    keep_focus(kind);
    // A dialog's fields may come after it opens (Publish asks what publishing would do first):
    // whenever it changes, the focus goes in if it is not there yet.
    Effect::new(move |_| {
        if navigation.with_dialog(|d| d.is_some()) {
            request_animation_frame(move || focus::enter(root));
        }
    });
    view! {
        {move || {
            kind.get()
                .map(|kind| {
                    view! {
                        <div class="overlay" data-testid="dialog" on:click=move |_| close()>
                            <div
                                class="dialog"
                                role="dialog"
                                aria-modal="true"
                                node_ref=root
                                on:click=|e: ev::MouseEvent| e.stop_propagation()
                                on:keydown=move |e: ev::KeyboardEvent| {
                                    if e.key() == "Escape" {
                                        close()
                                    } else if e.key() == "Tab" {
                                        focus::round(&e, root);
                                    }
                                }
                            >
                                {match kind {
                                    0 => view! { <PublishDialog /> }.into_any(),
                                    1 => view! { <NewPlanDialog /> }.into_any(),
                                    3 => view! { <SaveCaseDialog /> }.into_any(),
                                    4 => view! { <WelcomeDialog /> }.into_any(),
                                    5 => view! { <ShareDialog /> }.into_any(),
                                    _ => view! { <ConfirmDialog /> }.into_any(),
                                }}
                            </div>
                        </div>
                    }
                })
        }}
    }
}

/// A dialog opened remembers what had the focus, and gives it back when it closes.
fn keep_focus(kind: Memo<Option<u8>>) {
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    Effect::new(move |before: Option<Option<u8>>| {
        let now = kind.get();
        match (before.flatten(), now) {
            (None, Some(_)) => opener.set_value(focus::focused()),
            (Some(_), None) => {
                // After the key that closed it is done with: Enter in a field closes a dialog on
                // its press, and would press the button given the focus at once (New plan
                // opening again).
                request_animation_frame(move || {
                    if kind.get_untracked().is_none() {
                        if let Some(el) = opener.get_value().filter(|el| el.is_connected()) {
                            let _ = el.focus();
                        }
                    }
                });
            }
            _ => {}
        }
        now
    });
}

/// "Are you sure?" for an action that replaces something, saying what happens to it.
#[component]
fn ConfirmDialog() -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    let asked = move || match expect_context::<Navigation>().dialog() {
        Some(Dialog::Confirm(c)) => Some(c),
        _ => None,
    };
    move || {
        asked().map(
            |Confirmation {
                 title,
                 text,
                 confirm,
                 ..
             }| {
                view! {
                    <h3>{title}</h3>
                    <p>{text}</p>
                    {cancel_and_act("", confirm, || false, move || lifecycle.confirm())}
                }
            },
        )
    }
}

/// A new plan: its title, and what it starts from (blank, or a copy of a sample).
#[component]
fn NewPlanDialog() -> impl IntoView {
    let lifecycle = expect_context::<Lifecycle>();
    let title = RwSignal::new(String::new());
    let from = RwSignal::new(String::new());
    let create = move || {
        let sample = from.get_untracked();
        lifecycle.new_plan(
            title.get_untracked(),
            (!sample.is_empty()).then_some(sample),
        );
    };
    view! {
        <h3>"New plan"</h3>
        <label class="field">
            <span class="field-label">"Title"</span>
            <input
                type="text"
                data-testid="new-plan-title"
                placeholder="Refund desk"
                autofocus
                prop:value=move || title.get()
                on:input=move |e| title.set(event_target_value(&e))
                on:keydown=move |e: ev::KeyboardEvent| {
                    if e.key() == "Enter" {
                        create()
                    }
                }
            />
        </label>
        <label class="field">
            <span class="field-label">"Start from"</span>
            <select
                data-testid="new-plan-from"
                prop:value=move || from.get()
                on:change=move |e| from.set(event_target_value(&e))
            >
                <option value="">"A blank plan (one start state)"</option>
                <For each=move || lifecycle.samples.get() key=|s| s.id.clone() let:s>
                    <option value=s
                        .id
                        .clone()>
                        {format!("The sample “{}” ({} states)", s.title, s.states)}
                    </option>
                </For>
            </select>
        </label>
        <p class="hint">
            "The plan's id is made from its title; you can change the title any time."
        </p>
        {cancel_and_act("", "Create", || false, create)}
    }
}

/// A one-line field of a dialog: its label, test id, input type and placeholder, and the signal
/// it edits.
fn line_field(
    label: &'static str,
    testid: &'static str,
    kind: &'static str,
    placeholder: &'static str,
    value: RwSignal<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input
                type=kind
                data-testid=testid
                placeholder=placeholder
                prop:value=move || value.get()
                on:input=move |e| value.set(event_target_value(&e))
            />
        </label>
    }
}
