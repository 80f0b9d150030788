//! The form that writes a simulated caller in plain words: who they are, how they behave (each
//! behaviour with the sentence the caller-model is told), what they know (a table), how long they
//! stand, what the conversation must show (picked from the plan's states and keys), and the
//! judge's questions. What the fields make is `crate::simulate::persona_form`'s; the checks are the API's.

use leptos::prelude::*;
use plan_core::simulate::persona::Behaviour;

use super::list_ops::{apply_op, ListOp};
use crate::plan_names::{state_labels, PlanNames};
use crate::simulate::persona_form::{ending_words, PersonaFields, ENDINGS};
use crate::simulate::Simulating;

type Form = RwSignal<Option<PersonaFields>>;

/// A value of the form's fields, for a view.
fn get<T: Default>(form: Form, pick: impl Fn(&PersonaFields) -> T) -> T {
    form.with(|f| f.as_ref().map(&pick).unwrap_or_default())
}

/// A change to the form's fields.
fn put(form: Form, change: impl FnOnce(&mut PersonaFields)) {
    form.update(|f| {
        if let Some(f) = f.as_mut() {
            change(f)
        }
    });
}

/// What typing into a text field does: the field's text written with `write`.
fn typed_into(form: Form, write: fn(&mut PersonaFields, String)) -> impl Fn(leptos::ev::Event) {
    move |e| {
        let v = event_target_value(&e);
        put(form, |f| write(f, v))
    }
}

/// The "×" that removes a row, named for a screen reader by `label`.
fn remove_button(label: &'static str, remove: impl Fn() + 'static) -> impl IntoView {
    view! {
        <button type="button" aria-label=label on:click=move |_| remove()>
            "×"
        </button>
    }
}

#[component]
pub fn PersonaForm() -> impl IntoView {
    let s = expect_context::<Simulating>();
    let form = s.persona_form;
    let heading = move || {
        if get(form, |f| f.was.is_some()) {
            "Edit the caller"
        } else {
            "A new caller"
        }
    };
    view! {
        // `novalidate`: the browser's own check would silently block the submit of a patience
        // out of bounds; the API says what is wrong, in `plan simulate`'s words.
        <form
            class="persona-form"
            data-testid="persona-form"
            novalidate
            on:submit=move |e| {
                e.prevent_default();
                s.save_persona();
            }
        >
            <h3>{heading}</h3>
            <label class="field">
                <span class="field-label">"Name"</span>
                <input
                    type="text"
                    data-testid="persona-title"
                    placeholder="Hurried customer with a billing question"
                    prop:value=move || get(form, |f| f.title.clone())
                    on:input=typed_into(form, |f, v| f.title = v)
                />
            </label>
            <label class="field">
                <span class="field-label">
                    "Who they are and what they want (the model is told this)"
                </span>
                <textarea
                    data-testid="persona-who"
                    rows="3"
                    prop:value=move || get(form, |f| f.who.clone())
                    on:input=typed_into(form, |f, v| f.who = v)
                ></textarea>
            </label>
            <Behaviours form=form />
            <Facts form=form />
            <label class="field">
                <span class="field-label">"Patience (turns before they give up)"</span>
                <input
                    type="number"
                    min="1"
                    max="100"
                    data-testid="persona-patience"
                    prop:value=move || get(form, |f| f.patience.clone())
                    on:input=typed_into(form, |f, v| f.patience = v)
                />
            </label>
            <Expectations form=form />
            <Questions form=form />
            {move || {
                s.persona_error
                    .get()
                    .map(|e| {
                        view! {
                            <p class="error" data-testid="persona-error" role="alert">
                                {e}
                            </p>
                        }
                    })
            }}
            <div class="row">
                <button type="submit" data-testid="persona-save">
                    "Save the caller"
                </button>
                <button
                    type="button"
                    data-testid="persona-cancel"
                    on:click=move |_| s.cancel_persona()
                >
                    "Cancel"
                </button>
            </div>
        </form>
    }
}

/// The seven behaviours, each a box with the sentence the caller-model is told.
#[component]
fn Behaviours(form: Form) -> impl IntoView {
    let boxes = Behaviour::ALL
        .iter()
        .map(|&b| {
            view! {
                <label class="field check">
                    <input
                        type="checkbox"
                        data-testid="persona-behaviour"
                        data-behaviour=b.as_str()
                        prop:checked=move || get(form, |f| f.behaviour.contains(&b))
                        on:change=move |e| {
                            let on = event_target_checked(&e);
                            put(
                                form,
                                |f| {
                                    f.behaviour.retain(|x| *x != b);
                                    if on {
                                        f.behaviour.push(b);
                                    }
                                },
                            )
                        }
                    />
                    <span>{b.sentence()}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="persona-group">
            <legend>"How they behave"</legend>
            {boxes}
        </fieldset>
    }
}

/// What the caller knows: a row per fact, name and value.
#[component]
fn Facts(form: Form) -> impl IntoView {
    view! {
        <fieldset class="persona-group" data-testid="persona-facts">
            <legend>"What they know (they answer with it when asked)"</legend>
            <PairRows form=form pairs=Pairs::Facts />
        </fieldset>
    }
}

/// The form's two tables of two-cell rows.
#[derive(Clone, Copy, PartialEq)]
enum Pairs {
    /// What the caller knows: a name typed, its value.
    Facts,
    /// Values captured at the end: a key of the plan picked, its value.
    Values,
}

impl Pairs {
    fn rows(self, f: &PersonaFields) -> &Vec<(String, String)> {
        match self {
            Pairs::Facts => &f.facts,
            Pairs::Values => &f.deliverables,
        }
    }

    fn rows_mut(self, f: &mut PersonaFields) -> &mut Vec<(String, String)> {
        match self {
            Pairs::Facts => &mut f.facts,
            Pairs::Values => &mut f.deliverables,
        }
    }

    /// The test ids of the first cell, the value, and the add button; the value's accessible
    /// name; the remove button's; the add button's words.
    fn words(self) -> [&'static str; 6] {
        match self {
            Pairs::Facts => [
                "persona-fact-name",
                "persona-fact-value",
                "persona-add-fact",
                "fact's value",
                "remove this fact",
                "Add a fact",
            ],
            Pairs::Values => [
                "persona-value-key",
                "persona-value",
                "persona-add-value",
                "expected value",
                "remove this value",
                "Expect a value",
            ],
        }
    }
}

/// Cell `cell` (0: the name or key, 1: the value) of row `i`.
fn cell(form: Form, pairs: Pairs, i: usize, cell: usize) -> String {
    get(form, |f| {
        pairs
            .rows(f)
            .get(i)
            .map(|r| if cell == 0 { r.0.clone() } else { r.1.clone() })
            .unwrap_or_default()
    })
}

/// Sets cell `cell` of row `i` to `v`.
fn set_cell(form: Form, pairs: Pairs, i: usize, cell: usize, v: String) {
    put(form, |f| {
        if let Some(r) = pairs.rows_mut(f).get_mut(i) {
            if cell == 0 {
                r.0 = v;
            } else {
                r.1 = v;
            }
        }
    })
}

/// A table of two-cell rows with a remove button each, and a button that adds a row. A fact's
/// name is typed; an expected value's key is picked from the plan's keys.
#[component]
fn PairRows(form: Form, pairs: Pairs) -> impl IntoView {
    let names = expect_context::<Memo<PlanNames>>();
    let [first_id, value_id, add_id, value_label, remove_label, add_words] = pairs.words();
    let rows = move || get(form, |f| (0..pairs.rows(f).len()).collect::<Vec<_>>());
    let keys = move || names.with(|n| n.keys(None).map(|k| k.key.clone()).collect::<Vec<_>>());
    let first = move |i: usize| match pairs {
        Pairs::Facts => view! {
            <input
                type="text"
                aria-label="fact's name"
                placeholder="account_number"
                data-testid=first_id
                prop:value=move || cell(form, pairs, i, 0)
                on:input=move |e| set_cell(form, pairs, i, 0, event_target_value(&e))
            />
        }
        .into_any(),
        Pairs::Values => view! {
            <select
                aria-label="value's key"
                data-testid=first_id
                prop:value=move || cell(form, pairs, i, 0)
                on:change=move |e| set_cell(form, pairs, i, 0, event_target_value(&e))
            >
                <option value="">"pick a key"</option>
                {move || {
                    keys()
                        .into_iter()
                        .map(|k| view! { <option value=k.clone()>{k.clone()}</option> })
                        .collect_view()
                }}
            </select>
        }
        .into_any(),
    };
    view! {
        <For each=rows key=|i| *i let:i>
            <div class="row persona-row">
                {first(i)}
                <input
                    type="text"
                    aria-label=value_label
                    data-testid=value_id
                    placeholder=if pairs == Pairs::Facts { "AC-48213" } else { "" }
                    prop:value=move || cell(form, pairs, i, 1)
                    on:input=move |e| set_cell(form, pairs, i, 1, event_target_value(&e))
                />
                {remove_button(
                    remove_label,
                    move || put(form, |f| apply_op(pairs.rows_mut(f), i, ListOp::Remove)),
                )}
            </div>
        </For>
        <button
            type="button"
            data-testid=add_id
            on:click=move |_| put(form, |f| pairs.rows_mut(f).push(Default::default()))
        >
            {add_words}
        </button>
    }
}

/// What the conversation must show when it is over, picked from the plan's states and keys.
#[component]
fn Expectations(form: Form) -> impl IntoView {
    let names = expect_context::<Memo<PlanNames>>();
    let states = move || names.with(|n| state_labels(n.states()));
    let ending_options = ENDINGS
        .iter()
        .map(|&e| view! { <option value=e.as_str()>{ending_words(e)}</option> })
        .collect_view();
    let ended_in = move || {
        states()
            .into_iter()
            .map(|(id, label)| view! { <option value=id>{label}</option> })
            .collect_view()
    };
    view! {
        <fieldset class="persona-group" data-testid="persona-expect">
            <legend>"What the conversation must show"</legend>
            <label class="field">
                <span class="field-label">"How it ends"</span>
                <select
                    data-testid="persona-ending"
                    prop:value=move || get(
                        form,
                        |f| f.ending.map(|e| e.as_str()).unwrap_or_default().to_string(),
                    )
                    on:change=move |e| {
                        let v = event_target_value(&e);
                        let ending = ENDINGS.iter().copied().find(|x| x.as_str() == v);
                        put(form, |f| f.ending = ending)
                    }
                >
                    <option value="">"not checked"</option>
                    {ending_options}
                </select>
            </label>
            <label class="field">
                <span class="field-label">"The state it ends in"</span>
                <select
                    data-testid="persona-ended-in"
                    prop:value=move || get(form, |f| f.ended_in.clone().unwrap_or_default())
                    on:change=move |e| {
                        let v = event_target_value(&e);
                        put(form, |f| f.ended_in = (!v.is_empty()).then_some(v))
                    }
                >
                    <option value="">"not checked"</option>
                    {ended_in}
                </select>
            </label>
            <StateChecklist form=form never=false />
            <StateChecklist form=form never=true />
            <ExpectedValues form=form />
        </fieldset>
    }
}

/// The states the conversation must pass through (or must never enter), a box each.
#[component]
fn StateChecklist(form: Form, never: bool) -> impl IntoView {
    let names = expect_context::<Memo<PlanNames>>();
    let (label, testid) = if never {
        ("It never enters", "persona-never-visits")
    } else {
        ("It passes through", "persona-visits")
    };
    view! {
        <div class="field persona-states" data-testid=testid>
            <span class="field-label">{label}</span>
            {move || {
                names
                    .with(|n| state_labels(n.states()))
                    .into_iter()
                    .map(|(id, label)| {
                        let checked_id = id.clone();
                        view! {
                            <label class="field check">
                                <input
                                    type="checkbox"
                                    data-state-id=id.clone()
                                    prop:checked=move || {
                                        get(
                                            form,
                                            |f| {
                                                if never { &f.never_visits } else { &f.visits }
                                                    .contains(&checked_id)
                                            },
                                        )
                                    }
                                    on:change=move |e| {
                                        let on = event_target_checked(&e);
                                        let id = id.clone();
                                        put(
                                            form,
                                            |f| {
                                                let l = states_of(f, never);
                                                l.retain(|x| *x != id);
                                                if on {
                                                    l.push(id);
                                                }
                                            },
                                        )
                                    }
                                />
                                <span>{label}</span>
                            </label>
                        }
                    })
                    .collect_view()
            }}
        </div>
    }
}

/// The list of states a checklist edits.
fn states_of(f: &mut PersonaFields, never: bool) -> &mut Vec<String> {
    if never {
        &mut f.never_visits
    } else {
        &mut f.visits
    }
}

/// Values the conversation must have captured at the end: a key of the plan and its value.
#[component]
fn ExpectedValues(form: Form) -> impl IntoView {
    view! {
        <div class="field" data-testid="persona-values">
            <span class="field-label">"Values captured at the end"</span>
            <PairRows form=form pairs=Pairs::Values />
        </div>
    }
}

/// The judge's questions, each answered yes or no about the whole conversation.
#[component]
fn Questions(form: Form) -> impl IntoView {
    let rows = move || get(form, |f| (0..f.questions.len()).collect::<Vec<_>>());
    view! {
        <fieldset class="persona-group" data-testid="persona-questions">
            <legend>"Questions for the judge (yes or no)"</legend>
            <For each=rows key=|i| *i let:i>
                <div class="row persona-row">
                    <input
                        type="text"
                        aria-label="question"
                        placeholder="Did the agent confirm the amount before refunding?"
                        data-testid="persona-question"
                        prop:value=move || get(
                            form,
                            |f| f.questions.get(i).cloned().unwrap_or_default(),
                        )
                        on:input=move |e| {
                            let v = event_target_value(&e);
                            put(
                                form,
                                |f| {
                                    if let Some(q) = f.questions.get_mut(i) {
                                        *q = v;
                                    }
                                },
                            )
                        }
                    />
                    {remove_button(
                        "remove this question",
                        move || put(form, |f| apply_op(&mut f.questions, i, ListOp::Remove)),
                    )}
                </div>
            </For>
            <button
                type="button"
                data-testid="persona-add-question"
                on:click=move |_| put(form, |f| f.questions.push(String::new()))
            >
                "Add a question"
            </button>
        </fieldset>
    }
}
