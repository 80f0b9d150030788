//! The DOM of one arrow and of its label, as the canvas view draws them: plain copies of an
//! [`Arrow`]'s values, with the selection and the marks (problems, the test chat's fired arrow,
//! coverage, a comparison's changes) read reactively so that selecting or validating redraws no
//! arrow; what an arrow says described once for both ([`Texts`]).

use std::collections::HashMap;

use leptos::prelude::*;
use plan_core::diff::Change;

use super::items::focus_target;
use super::label_place::Placed;
use super::marks::{ArrowMarks, Marks};
use super::scene::{Arrow, ArrowText};
use crate::editor::{Editor, Selection};
use crate::navigation::{Navigation, Tab};

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
