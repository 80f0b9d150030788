//! The DOM of one card, one arrow and one arrow's label, as the canvas view draws them: plain
//! copies of a [`Card`]'s or an [`Arrow`]'s values, with the selection and the problem marks
//! read reactively so that selecting or validating redraws no card.

use std::collections::HashMap;

use leptos::prelude::*;
use plan_core::diff::Change;
use plan_core::Severity;

use super::label_place::Placed;
use super::marks::{ArrowMarks, CardMarks, Marks};
use super::scene::{Arrow, ArrowText, Card, Detour};
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

/// Whether transition `index` of `from` is the selection (an arrow and its label both show it).
fn transition_selected(editor: Editor, from: String, index: usize) -> Memo<bool> {
    Memo::new(move |_| {
        editor.selection.with(|s| {
            s.transition
                .as_ref()
                .is_some_and(|(f, i)| *f == from && *i == index)
        })
    })
}

/// What the arrows with elements say, kept by arrow key: each arrow has two elements (its path,
/// whose tooltip is the title, and its label), and describing its condition once serves both,
/// and serves it again when a pan brings it back. A key changes with the text (see `text`).
#[derive(Clone, Copy)]
pub struct Texts(StoredValue<HashMap<u64, ArrowText>>);

/// Texts kept at most; past it the cache starts again (a few screens' worth of arrows).
const TEXTS_KEPT: usize = 2_000;

impl Texts {
    pub fn new() -> Texts {
        Texts(StoredValue::new(HashMap::new()))
    }

    /// What `arrow` says, read from the open plan (the plan its scene was built from).
    pub(super) fn of(&self, arrow: &Arrow, editor: Editor) -> ArrowText {
        if let Some(text) = self.0.with_value(|t| t.get(&arrow.key).cloned()) {
            return text;
        }
        let text = editor
            .plan
            .with_untracked(|p| p.as_ref().map(|p| arrow.text(p)).unwrap_or_default());
        self.0.update_value(|t| {
            if t.len() >= TEXTS_KEPT {
                t.clear();
            }
            t.insert(arrow.key, text.clone());
        });
        text
    }
}

/// A transition's arrow in the SVG layer, with a wide invisible stroke to click it by.
pub fn arrow_view(arrow: Arrow, editor: Editor, marks: Memo<Marks>, texts: Texts) -> impl IntoView {
    let title = texts.of(&arrow, editor).title;
    let (from, index) = (arrow.from.clone(), arrow.index);
    let selected = transition_selected(editor, from.clone(), index);
    let look = arrow_marks(marks, from.clone(), index);
    let marker = move || {
        if arrow.dangling {
            "url(#arrowhead-broken)"
        } else if selected.get() {
            "url(#arrowhead-selected)"
        } else {
            "url(#arrowhead)"
        }
    };
    view! {
        <g
            class="transition"
            class:broken=arrow.dangling
            class:selected=selected
            class:has-problem=move || look.with(|l| l.problem)
            data-testid="transition"
            data-from=arrow.from.clone()
            data-index=arrow.index.to_string()
            data-to=arrow.to.clone()
            data-selected=move || selected.get().then_some("true")
            data-diff=move || look.with(|l| l.diff.map(Change::as_str))
            data-fired=move || look.with(|l| l.fired.is_some()).then_some("true")
            data-covered=move || look.with(|l| l.covered.map(|c| if c { "true" } else { "false" }))
        >
            <title>{title}</title>
            <path class="edge-hit" d=arrow.path.d.clone()></path>
            <path class="edge" d=arrow.path.d.clone() marker-end=marker></path>
        </g>
    }
}

/// An arrow's label, drawn as HTML on the card layer: WebKit paints SVG text several times slower
/// than HTML text, and labels were most of the cost of a frame while panning.
pub fn label_view(
    arrow: Arrow,
    editor: Editor,
    marks: Memo<Marks>,
    texts: Texts,
    places: Memo<HashMap<u64, Placed>>,
) -> impl IntoView {
    let ArrowText {
        label,
        title,
        priority,
        changes,
    } = texts.of(&arrow, editor);
    let middle = Placed::middle(arrow.path.label_at, arrow.path.label_side);
    let key = arrow.key;
    // Moved along the arrow when its middle is taken (see `label_place`).
    let at = Memo::new(move |_| places.with(|p| p.get(&key).copied()).unwrap_or(middle));
    let (from, index) = (arrow.from.clone(), arrow.index);
    let selected = transition_selected(editor, from.clone(), index);
    let end = arrow.path.end;
    let look = arrow_marks(marks, from.clone(), index);
    // Reached from its card by `]` and `[` (not by Tab: a plan has many arrows), its words
    // made as it takes the focus. Its name starts with what it shows (a screen reader's user
    // who sees it can say it).
    let (spoken_from, key_from) = (from.clone(), from.clone());
    let on_focus = move |e: leptos::ev::FocusEvent| {
        let Some(el) = focus_target(&e) else { return };
        let shown = el.text_content().unwrap_or_default();
        let spoken = editor
            .plan
            .with_untracked(|p| super::spoken::arrow_spoken(p.as_ref()?, &spoken_from, index));
        if let Some(spoken) = spoken {
            let _ = el.set_attribute("aria-label", &format!("{}. {spoken}", shown.trim()));
        }
    };
    let on_key = move |e: leptos::ev::KeyboardEvent| match e.key().as_str() {
        "Enter" => {
            e.prevent_default();
            if let Some(navigation) = use_context::<Navigation>() {
                navigation.show(Tab::Inspect);
            }
            crate::focus::open_condition();
        }
        "Escape" => {
            // Back to its card, the arrow's selection given up for the card's.
            e.prevent_default();
            e.stop_propagation();
            editor.select(Selection::state(&key_from));
            crate::focus::focus_card(&key_from);
        }
        _ => {}
    };
    view! {
        // The selected arrow's end, above the cards so it can be grabbed where it meets one.
        {move || {
            selected
                .get()
                .then(|| {
                    view! {
                        <div
                            class="arrow-end"
                            data-arrow-end="true"
                            data-from=from.clone()
                            data-index=index.to_string()
                            title="Drag to another state to re-target"
                            style:left=format!("{:.1}px", end.0)
                            style:top=format!("{:.1}px", end.1)
                        ></div>
                    }
                })
        }}
        <div
            class=move || format!("edge-tag {}", at.get().side.class())
            data-over-card=move || at.get().over_card.then_some("true")
            class:broken=arrow.dangling
            class:selected=selected
            data-testid="transition-label"
            tabindex="-1"
            role="button"
            on:focus=on_focus
            on:keydown=on_key
            data-from=arrow.from.clone()
            data-index=arrow.index.to_string()
            data-diff=move || look.with(|l| l.diff.map(Change::as_str))
            data-fired=move || look.with(|l| l.fired.is_some()).then_some("true")
            data-covered=move || look.with(|l| l.covered.map(|c| if c { "true" } else { "false" }))
            // The test chat's why in the tooltip too: zoomed out, the label does not show it.
            title=move || match look.with(|l| l.fired.clone()) {
                Some(why) => format!("{title}\n{why}"),
                None => title.clone(),
            }
            style:left=move || format!("{:.1}px", at.get().at.0)
            style:top=move || format!("{:.1}px", at.get().at.1)
        >
            // A space after the order word: the line may wrap there, never inside the next word.
            {priority
                .map(|p| {
                    view! {
                        <span class="priority">{p}</span>
                        " "
                    }
                })}
            <span class="edge-condition">{breakable(&label)}</span>
            {changes
                .map(|c| {
                    view! {
                        <span class="edge-changes" data-testid="arrow-changes">
                            {c}
                        </span>
                    }
                })}
            // Why the test chat's last move took this transition.
            {move || {
                look.with(|l| l.fired.clone())
                    .map(|why| {
                        view! {
                            <span class="fired-why" data-testid="fired-why">
                                {why}
                            </span>
                        }
                    })
            }}
        </div>
    }
}

/// The marks of transition `index` of `from`, one memo for its arrow or its label.
fn arrow_marks(marks: Memo<Marks>, from: String, index: usize) -> Memo<ArrowMarks> {
    Memo::new(move |_| marks.with(|m| ArrowMarks::of(m, &from, index)))
}

/// The element a focus event is about.
fn focus_target(e: &leptos::ev::FocusEvent) -> Option<web_sys::Element> {
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

/// `text` with a place to wrap after each `_` of an identifier (`verify_<wbr>identity`), so that
/// a label wraps between the words of a name rather than inside one; its text is unchanged.
fn breakable(text: &str) -> impl IntoView {
    text.split_inclusive('_')
        .map(|part| {
            view! {
                {part.to_string()}
                <wbr />
            }
        })
        .collect_view()
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
                shown.push_str(&format!(" · {ended} ended"));
            }
            if stalled > 0 {
                shown.push_str(&format!(" · {stalled} stalled"));
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
