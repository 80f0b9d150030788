//! The DOM of one card and of a detour, as the canvas view draws them: plain copies of a
//! [`Card`]'s values, with the selection and the problem marks read reactively so that selecting
//! or validating redraws no card. An arrow and its label are `arrow_items`'.

use leptos::prelude::*;
use plan_core::diff::Change;
use plan_core::Severity;
use std::fmt::Write as _;

use super::marks::{CardMarks, Marks};
use super::scene::{Card, Detour};
use super::spoken::{card_spoken, card_words};
use crate::editor::{Editor, Selection};
use crate::navigation::{Navigation, Tab};

fn severity_name(s: Severity) -> &'static str {
    s.as_str()
}

/// A state card: mode, start and ending marks, problem badge, title, work and keys, and the handle
/// that connects it. It is a stop of the keyboard's Tab: focused from the keyboard it is selected
/// (Delete, Ctrl+D and the arrow keys then act on it), and Enter opens it in the inspector.
pub fn card_view(card: Card, editor: Editor, marks: Memo<Marks>) -> impl IntoView {
    let mode = card.mode.label();
    let mode_class = format!("card mode-{}", mode.to_lowercase());
    let keys = match card.keys.len() {
        0 => String::new(),
        1..=3 => card.keys.join(", "),
        n => format!("{} +{}", card.keys[..2].join(", "), n - 2),
    };
    let meta = if keys.is_empty() {
        card.work.clone()
    } else {
        format!("{} · {keys}", card.work)
    };
    let id = card.id.clone();
    let id_sel = card.id.clone();
    let selected = Memo::new(move |_| editor.selection.with(|s| s.states.contains(&id_sel)));
    let id_mark = card.id.clone();
    let look = Memo::new(move |_| marks.with(|m| CardMarks::of(m, &id_mark)));
    let problem = move || look.with(|l| l.problem);
    let parked = move || look.with(|l| l.parked);
    let spoken = std::sync::Arc::new(card.clone());
    let (whole_of, short_of) = (spoken.clone(), spoken.clone());
    let words = move || card_words(&spoken, problem());
    let id_focus = card.id.clone();
    let id_held = card.id.clone();
    let id_lost = card.id.clone();
    let on_focus = move |e: leptos::ev::FocusEvent| {
        super::card_focus::took(&id_held);
        // The whole words (tasks, arrows) are made as the card takes the focus, when a screen
        // reader reads them: made for every card drawn, they would cost on every edit and pan.
        if let Some(el) = focus_target(&e) {
            let whole = editor
                .plan
                .with_untracked(|p| p.as_ref().map(|p| card_spoken(&whole_of, p, problem())));
            if let Some(whole) = whole {
                let _ = el.set_attribute("aria-label", &whole);
            }
        }
        // Only a focus from the keyboard selects: a click selects through the canvas's gesture,
        // which knows about Shift.
        let from_keyboard = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .is_some_and(|el| el.matches(":focus-visible").unwrap_or(false));
        // A card whose state was renamed as it took the focus (its title's field let go) is
        // gone: the renamed one is selected already.
        let exists = editor
            .plan
            .with_untracked(|p| p.as_ref().is_some_and(|p| p.state(&id_focus).is_some()));
        if from_keyboard
            && exists
            && !editor
                .selection
                .with_untracked(|s| s.states == [id_focus.clone()])
        {
            editor.select(Selection::state(&id_focus));
        }
    };
    let id_enter = card.id.clone();
    let on_key = move |e: leptos::ev::KeyboardEvent| {
        if e.key() == "Enter" {
            e.prevent_default();
            editor.select(Selection::state(&id_enter));
            if let Some(navigation) = use_context::<Navigation>() {
                navigation.show(Tab::Inspect);
            }
            open_in_inspector();
        }
    };
    view! {
        <div
            tabindex="0"
            role="group"
            aria-label=words
            on:focus=on_focus
            on:blur=move |e: leptos::ev::FocusEvent| {
                let element = focus_target(&e);
                if let Some(el) = &element {
                    let _ = el.set_attribute("aria-label", &card_words(&short_of, problem()));
                }
                super::card_focus::lost(&id_lost, element);
            }
            on:keydown=on_key
            class=mode_class
            class:start=card.is_start
            class:ending=card.ending.is_some()
            class:returns=card.returns
            class:selected=selected
            class:has-problem=move || problem().is_some()
            data-testid="state"
            data-state-id=card.id.clone()
            data-selected=move || selected.get().then_some("true")
            data-diff=move || look.with(|l| l.diff.map(Change::as_str))
            data-conflict=move || look.with(|l| l.conflict).then_some("true")
            data-current=move || look.with(|l| l.current).then_some("true")
            data-visited=move || look.with(|l| l.visited).then_some("true")
            data-parked=move || parked().then_some("true")
            data-reach=move || look.with(|l| l.reach.map(|(level, _)| level))
            class:parked=parked
            title=format!("{} · {mode} ({})", card.title, card.id)
            style:left=format!("{}px", card.rect.x)
            style:top=format!("{}px", card.rect.y)
        >
            <div class="card-stripe"></div>
            <div class="card-head">
                <span class="mode-badge">{mode}</span>
                {card
                    .is_start
                    .then(|| {
                        view! {
                            <span
                                class="start-flag"
                                data-testid="start-marker"
                                title="Start: every conversation begins here"
                            >
                                "▶"
                                <span class="mark-words">" Start"</span>
                            </span>
                        }
                    })}
                {card
                    .ending
                    .clone()
                    .map(|e| {
                        let tip = e.clone();
                        view! {
                            <span class="card-ending" data-testid="ending-marker" title=tip>
                                "■"
                                <span class="mark-words">" "{e}</span>
                            </span>
                        }
                    })}
            </div>
            {move || {
                problem()
                    .map(|s| {
                        view! {
                            <span
                                class=format!("problem-badge {}", severity_name(s))
                                data-testid="problem-badge"
                                data-severity=severity_name(s)
                                title="This state has problems: see the Problems tab"
                            >
                                {match s {
                                    Severity::Error | Severity::Warning => "!",
                                    Severity::Info => "i",
                                }}
                            </span>
                        }
                    })
            }}
            {move || {
                look.with(|l| l.reach.map(|r| (r, l.heat)))
                    .map(|((level, n), heat)| {
                        let (words, shown) = reach_words(n, heat);
                        view! {
                            <span
                                class="reach-badge"
                                data-testid="reach-marker"
                                data-level=level
                                title=words
                            >
                                {shown}
                            </span>
                        }
                    })
            }}
            {move || {
                look.with(|l| l.conflict)
                    .then(|| {
                        view! {
                            <span
                                class="conflict-badge"
                                data-testid="conflict-marker"
                                title="Others' changes conflict with yours here: choose in the inspector"
                            >
                                "Conflict"
                            </span>
                        }
                    })
            }}
            {move || {
                look.with(|l| l.diff)
                    .map(|change| {
                        view! {
                            <span
                                class="diff-badge"
                                data-testid="diff-marker"
                                data-diff=change.as_str()
                            >
                                {diff_word(change)}
                            </span>
                        }
                    })
            }}
            {move || {
                parked()
                    .then(|| {
                        view! {
                            <span
                                class="parked-badge"
                                data-testid="parked-marker"
                                title="The task set aside for a detour: the conversation comes back to it"
                            >
                                "parked"
                            </span>
                        }
                    })
            }}
            {card
                .returns
                .then(|| {
                    view! {
                        <span
                            class="return-marker"
                            data-testid="return-marker"
                            title="Returns to the parked task"
                        >
                            "↩"
                        </span>
                    }
                })}
            <div class="card-title">{card.title.clone()}</div>
            <div class="card-meta">{meta}</div>
            {card
                .changes
                .clone()
                .map(|c| {
                    let tip = c.clone();
                    view! {
                        <div class="card-changes" data-testid="card-changes" title=tip>
                            {c}
                        </div>
                    }
                })}
            <div class="handle" data-handle=id title="Drag to another state to connect"></div>
        </div>
    }
}

/// An interruption's card, above the flow: what it does, its name, how it fires.
pub fn detour_view(d: Detour) -> impl IntoView {
    let kind = match d.kind.as_str() {
        "yield" => "Side question",
        "abandon" => "Never mind",
        _ => "Urgent",
    };
    view! {
        <div
            class=format!("detour kind-{}", d.kind.as_str())
            data-testid="interruption"
            data-id=d.id.clone()
            data-target=d.target.clone()
            title=format!("{} ({}): goes to {}", d.title, d.id, d.target)
            style:left=format!("{}px", d.rect.x)
            style:top=format!("{}px", d.rect.y)
            style:width=format!("{}px", d.rect.w)
            style:height=format!("{}px", d.rect.h)
        >
            <div class="detour-kind">{kind}</div>
            <div class="detour-title">{d.title.clone()}</div>
            <div class="detour-fires">{d.fires.clone()}</div>
        </div>
    }
}

/// An interruption's dashed arrow to its target.
pub fn detour_arrow_view(d: Detour) -> impl IntoView {
    d.path.map(|path| {
        view! {
            <g
                class=format!("detour-edge kind-{}", d.kind.as_str())
                data-testid="interruption-arrow"
                data-id=d.id.clone()
                data-to=d.target.clone()
            >
                <path class="edge dashed" d=path.d marker-end="url(#arrowhead)"></path>
            </g>
        }
    })
}

/// The element a focus event is about.
pub(super) fn focus_target(e: &leptos::ev::FocusEvent) -> Option<web_sys::Element> {
    e.target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
}

/// Focuses the inspector's title field once it shows the selected state (the next frame).
pub fn open_in_inspector() {
    request_animation_frame(|| {
        if let Some(field) = document()
            .query_selector("[data-testid=field-title]")
            .ok()
            .flatten()
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = field.focus();
        }
    });
}

/// A card's coverage badge: its tooltip and its text. Explore counts ways a conversation can go;
/// the heat map (`heat`: ended and stalled here) counts simulated conversations.
pub fn reach_words(n: usize, heat: Option<(u32, u32)>) -> (String, String) {
    match heat {
        None => {
            let words = match n {
                0 => "entered by no conversation".to_string(),
                1 => "entered in 1 way a conversation can go".to_string(),
                n => format!(
                    "entered in {} ways a conversation can go",
                    crate::explore::thousands(n)
                ),
            };
            let shown = if n == 0 {
                "never".to_string()
            } else {
                crate::explore::thousands(n)
            };
            (words, shown)
        }
        Some((ended, stalled)) => {
            let words = format!(
                "simulated conversations: {n} entered, {ended} ended here, {stalled} stalled here"
            );
            let mut shown = if n == 0 {
                "never".to_string()
            } else {
                format!("{n} in")
            };
            if ended > 0 {
                let _ = write!(shown, " · {ended} ended");
            }
            if stalled > 0 {
                let _ = write!(shown, " · {stalled} stalled");
            }
            (words, shown)
        }
    }
}

/// What a compared card's corner says happened to it, so that added, changed and removed are
/// never told by colour alone.
pub fn diff_word(change: Change) -> &'static str {
    match change {
        Change::Added => "New",
        Change::Changed => "Changed",
        Change::Removed => "Removed",
    }
}
