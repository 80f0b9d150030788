//! Small form controls the inspector is made of, each bound to one value of the plan: it shows
//! the value as it is now and reports the author's edit. Every control carries a `data-testid`
//! (`field-<name>`), by which a problem in the Problems tab focuses the field it is about.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use plan_core::edit::Command;

use super::access::run;
use super::field_problem::field_refusal;
use crate::editor::Editor;

fn input_value(e: &ev::Event) -> String {
    event_target_value(e)
}

/// How much a typed field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// One line (a title, a phrase).
    Line,
    /// A few lines (instructions, descriptions).
    Lines,
}

/// A field typed into; every keystroke is an edit (one undo step per burst).
pub fn typed(
    editor: Editor,
    extent: Extent,
    label: &'static str,
    testid: &'static str,
    value: impl Fn() -> String + Send + Sync + 'static,
    on_input: impl Fn(String) + 'static,
) -> impl IntoView {
    let testid = format!("field-{testid}");
    let input = move |e: ev::Event| on_input(input_value(&e));
    let blur = move |_: ev::FocusEvent| editor.end_typing();
    let control = match extent {
        Extent::Line => view! { <input type="text" data-testid=testid prop:value=value on:input=input on:blur=blur /> }
        .into_any(),
        Extent::Lines => view! {
            <textarea
                rows="3"
                data-testid=testid
                prop:value=value
                on:input=input
                on:blur=blur
            ></textarea>
        }
        .into_any(),
    };
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            {control}
        </label>
    }
}

/// A one-line field for a name others refer to (a tool, a response code, a task id, a key): the
/// edit is committed when the author leaves the field or presses Enter, not per keystroke, because
/// each intermediate name ("r", "re", "ref") would be a rename of its own and could collide with
/// another name on the way. `command` says what the typed text means (`None`: nothing to do). A
/// refusal is shown under the field in the editor's words, and the field shows the name it
/// still has.
pub fn name_field(
    editor: Editor,
    label: &'static str,
    testid: &'static str,
    value: impl Fn() -> String + Send + Sync + Clone + 'static,
    command: impl Fn(String) -> Option<Command> + 'static,
) -> impl IntoView {
    let refused = RwSignal::new(None::<String>);
    let current = value.clone();
    let commit = move |e: ev::Event| {
        let Some(cmd) = command(input_value(&e)) else {
            refused.set(None);
            return;
        };
        if run(editor, cmd, None) {
            refused.set(None);
        } else {
            refused.set(editor.notice.get_untracked().map(|n| n.text));
            if let Some(input) = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            {
                input.set_value(&current());
            }
        }
    };
    view! {
        <label class="field">
            {(!label.is_empty()).then(|| view! { <span class="field-label">{label}</span> })}
            // A field shown without words of its own (a tool's codes, under "Response codes")
            // is still named for a screen reader: "tool code".
            <input
                type="text"
                data-testid=format!("field-{testid}")
                aria-label=label.is_empty().then(|| testid.replace('-', " "))
                prop:value=value
                on:change=commit
            />
        </label>
        {field_refusal(refused)}
    }
}

/// Lists longer than this show only their current choice until they are about to open (a list of
/// a large plan's keys has thousands, which cost more to draw than the rest of the form).
const LIST_WHEN_OPENED_ABOVE: usize = 100;

/// A choice among `options` (value, label); `path` tells nested condition fields apart.
pub fn choice(
    label: &'static str,
    testid: &'static str,
    path: String,
    options: impl Fn() -> Vec<(String, String)> + Send + Sync + 'static,
    value: impl Fn() -> String + Send + Sync + 'static,
    on_change: impl Fn(String) + 'static,
) -> impl IntoView {
    // The value follows the plan, which every keystroke changes; the list is drawn again only when
    // the value itself (or the options) changed.
    let current = Memo::new(move |_| value());
    let opened = RwSignal::new(false);
    let options = std::sync::Arc::new(options);
    let on_change = std::rc::Rc::new(on_change);
    let (listed, picked) = (options.clone(), on_change.clone());
    // The arrow keys, Home and End change the choice in place, as on other systems; WebKitGTK
    // would open its menu instead, which a keyboard's user then has to close.
    let on_key = move |e: leptos::ev::KeyboardEvent| {
        if e.alt_key() || e.ctrl_key() || e.meta_key() {
            return;
        }
        let values: Vec<String> = listed().into_iter().map(|(v, _)| v).collect();
        if let Some(next) = stepped(&values, &current.get_untracked(), &e.key()) {
            e.prevent_default();
            picked(next);
        }
    };
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <select
                data-testid=format!("field-{testid}")
                data-path=path
                on:focus=move |_| opened.set(true)
                on:pointerdown=move |_| opened.set(true)
                on:keydown=on_key
                on:change=move |e| on_change(input_value(&e))
            >
                {move || {
                    let current = current.get();
                    let all = options();
                    let whole = all.len() <= LIST_WHEN_OPENED_ABOVE || opened.get();
                    all.into_iter()
                        .filter(|(v, _)| whole || *v == current)
                        .map(|(v, l)| {
                            let selected = v == current;
                            view! {
                                <option value=v selected=selected>
                                    {l}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

/// The choice a key moves a picker to from `current` among `values`: ↓ and → the next, ↑ and ←
/// the previous (staying at either end), Home the first, End the last; none for any other key
/// or when it would not change.
pub fn stepped(values: &[String], current: &str, key: &str) -> Option<String> {
    let at = values.iter().position(|v| v == current);
    let last = values.len().checked_sub(1)?;
    let to = match (key, at) {
        ("Home", _) => 0,
        ("End", _) => last,
        ("ArrowDown" | "ArrowRight", None) => 0,
        ("ArrowDown" | "ArrowRight", Some(i)) => (i + 1).min(last),
        ("ArrowUp" | "ArrowLeft", None) => 0,
        ("ArrowUp" | "ArrowLeft", Some(i)) => i.saturating_sub(1),
        _ => return None,
    };
    (Some(to) != at).then(|| values[to].clone())
}

/// A number field: `min` where fewer makes no sense, `path` where the field lives in a nested
/// condition; every keystroke hands the text typed to `on_input`.
pub fn number(
    label: &'static str,
    testid: String,
    min: Option<&'static str>,
    path: Option<String>,
    value: impl Fn() -> String + Send + Sync + 'static,
    on_input: impl Fn(String) + 'static,
) -> impl IntoView {
    view! {
        <label class="field">
            <span class="field-label">{label}</span>
            <input
                type="number"
                min=min
                data-testid=format!("field-{testid}")
                data-path=path
                prop:value=value
                on:input=move |e| on_input(event_target_value(&e))
            />
        </label>
    }
}

/// A count typed in (0 or more); each keystroke that makes a whole number is an edit (one undo
/// step per burst), anything else is left for the author to finish.
pub fn whole_number(
    label: &'static str,
    testid: &'static str,
    value: impl Fn() -> u32 + Send + Sync + 'static,
    on_input: impl Fn(u32) + 'static,
) -> impl IntoView {
    let typed = move |text: String| {
        if let Ok(n) = text.parse() {
            on_input(n)
        }
    };
    number(
        label,
        testid.to_string(),
        Some("0"),
        None,
        move || value().to_string(),
        typed,
    )
}

/// A checkbox.
pub fn check(
    label: &'static str,
    testid: &'static str,
    value: impl Fn() -> bool + Send + Sync + 'static,
    on_change: impl Fn(bool) + 'static,
) -> impl IntoView {
    view! {
        <label class="field check">
            <input
                type="checkbox"
                data-testid=format!("field-{testid}")
                prop:checked=value
                on:change=move |e| on_change(event_target_checked(&e))
            />
            <span>{label}</span>
        </label>
    }
}

/// Above this many states, a state is picked by typing its id rather than from a list (a list of
/// thousands of options costs more to draw than the rest of the inspector together).
const PICK_FROM_LIST_UP_TO: usize = 300;

/// A state of the plan: a list of the states (by title), or for a large plan its id typed in.
pub fn state_picker(
    label: &'static str,
    testid: &'static str,
    value: impl Fn() -> String + Send + Sync + Clone + 'static,
    on_change: impl Fn(String) + Send + Sync + Clone + 'static,
) -> impl IntoView {
    // Rebuilt only when a state is added, removed or renamed, not on every edit.
    let names = expect_context::<Memo<crate::plan_names::PlanNames>>();
    let states = Memo::new(move |_| names.with(|n| crate::plan_names::state_labels(n.states())));
    let large = Memo::new(move |_| states.with(Vec::len) > PICK_FROM_LIST_UP_TO);
    move || {
        let value = value.clone();
        let on_change = on_change.clone();
        if large.get() {
            view! {
                <label class="field">
                    <span class="field-label">{format!("{label} (state id)")}</span>
                    <input
                        type="text"
                        data-testid=format!("field-{testid}")
                        prop:value=value
                        on:change=move |e| on_change(event_target_value(&e))
                    />
                </label>
            }
            .into_any()
        } else {
            choice(
                label,
                testid,
                String::new(),
                move || states.get(),
                value,
                on_change,
            )
            .into_any()
        }
    }
}

/// A value type as an author names it: the format's `string`, `boolean` and `enum` are Text,
/// Yes / no and Choice on screen (the file keeps the format's names).
pub fn type_word(format_name: &str) -> &'static str {
    match format_name {
        "string" => "Text",
        "number" => "Number",
        "boolean" => "Yes / no",
        "enum" => "Choice",
        "prompt" => "Prompt text",
        _ => "Other",
    }
}

#[cfg(test)]
mod tests {
    use super::{stepped, type_word};

    #[test]
    fn the_arrow_keys_home_and_end_move_a_pickers_choice_and_stop_at_its_ends() {
        let v: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(stepped(&v, "a", "ArrowDown").as_deref(), Some("b"));
        assert_eq!(stepped(&v, "b", "ArrowUp").as_deref(), Some("a"));
        assert_eq!(stepped(&v, "c", "ArrowDown"), None, "at the end");
        assert_eq!(stepped(&v, "a", "ArrowUp"), None, "at the start");
        assert_eq!(stepped(&v, "b", "Home").as_deref(), Some("a"));
        assert_eq!(stepped(&v, "a", "End").as_deref(), Some("c"));
        assert_eq!(
            stepped(&v, "", "ArrowDown").as_deref(),
            Some("a"),
            "nothing chosen yet"
        );
        assert_eq!(stepped(&v, "a", "x"), None);
        assert_eq!(stepped(&[], "", "ArrowDown"), None);
    }

    #[test]
    fn value_types_are_named_in_an_authors_words() {
        let words: Vec<&str> = ["string", "number", "boolean", "enum", "prompt"]
            .into_iter()
            .map(type_word)
            .collect();
        assert_eq!(
            words,
            ["Text", "Number", "Yes / no", "Choice", "Prompt text"]
        );
        for t in plan_core::plan::SessionType::ALL {
            assert_ne!(type_word(t.as_str()), "Other", "{t:?}");
        }
    }
}
