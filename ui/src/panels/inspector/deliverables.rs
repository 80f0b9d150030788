//! Deliverables in the inspector, a task's or a goal's: the key (committed on leaving the field:
//! a new name renames it everywhere, a known key is collected here too), the type, enum values,
//! required, how to ask; with the plan's other keys offered while the key is edited.

use leptos::prelude::*;
use plan_core::edit::{Command, Renamed};
use plan_core::plan::{Deliverable, DeliverableType, Plan, State};

use super::access::{read_state, run};
use super::field_problem::{field_problems, field_refusal, problems_at, FieldPath};
use super::fields::{check, choice, type_word, typed, Extent};
use super::list::{list_items, op_button, Adder, Items};
use super::names::{key_edit, KeyEdit};
use crate::editor::Editor;
use crate::panels::list_ops::{fresh_id, ListOp};
use crate::plan_names::PlanNames;

/// The deliverables of task `task` of a state, or of its goal (`None`).
fn deliverables_mut(s: &mut State, task: Option<usize>) -> Option<&mut Vec<Deliverable>> {
    match task {
        Some(i) => s.tasks.get_mut(i).map(|t| &mut t.deliverables),
        None => s.goal.as_mut().map(|g| &mut g.deliverables),
    }
}

fn deliverables(s: &State, task: Option<usize>) -> Option<&Vec<Deliverable>> {
    match task {
        Some(i) => s.tasks.get(i).map(|t| &t.deliverables),
        None => s.goal.as_ref().map(|g| &g.deliverables),
    }
}

/// The deliverables of task `task` of state `id` (of its goal: `None`), as the inspector edits
/// them.
fn deliverable_items(editor: Editor, id: String, task: Option<usize>) -> Items<Deliverable> {
    Items::of_state(editor, id, task, "d", deliverables, deliverables_mut)
}

/// A new value to collect beside `list`: `value_N`, a required string.
fn fresh(_plan: &Plan, list: &[Deliverable]) -> Deliverable {
    Deliverable {
        key: fresh_id("value_", list.len() + 1, |k| {
            list.iter().any(|d| d.key == k)
        }),
        kind: DeliverableType::String,
        enum_values: None,
        required: true,
        description: String::new(),
    }
}

#[component]
pub fn DeliverableList(id: String, task: Option<usize>) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id.clone());
    let list = deliverable_items(editor, id, task);
    view! {
        <div class="deliverables">
            {list_items(
                list,
                move |i| view! { <DeliverableFields id=sid.get_value() task=task index=i /> },
                Adder {
                    testid: "add-deliverable",
                    label: "+ Add value to collect",
                    make: fresh,
                },
            )}
        </div>
    }
}

fn type_name(k: DeliverableType) -> &'static str {
    match k {
        DeliverableType::String => "string",
        DeliverableType::Number => "number",
        DeliverableType::Boolean => "boolean",
        DeliverableType::Enum => "enum",
    }
}

/// Makes `d` a value of type `kind`: a choice gets a list of choices, any other type has none.
pub fn change_kind(d: &mut Deliverable, kind: DeliverableType) {
    d.kind = kind;
    if kind == DeliverableType::Enum {
        d.enum_values.get_or_insert_with(Vec::new);
    } else {
        d.enum_values = None;
    }
}

/// A choice list as typed: comma-separated, trimmed, empty ones left out.
pub fn choices_from_text(text: &str) -> Vec<String> {
    text.split(',')
        .map(|x| x.trim().to_string())
        .filter(|x| !x.is_empty())
        .collect()
}

/// Where the format keeps deliverable `index` of task `task` (of the goal: `None`), for the
/// problems about its fields.
fn owner_path(task: Option<usize>, index: usize) -> String {
    match task {
        Some(t) => format!("/tasks/{t}/deliverables/{index}"),
        None => format!("/goal/deliverables/{index}"),
    }
}

#[component]
fn DeliverableFields(id: String, task: Option<usize>, index: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let sid = StoredValue::new(id.clone());
    let list = deliverable_items(editor, id.clone(), task);
    let read_d = move |f: fn(&Deliverable) -> String| list.text(index, f);
    let is_enum = Memo::new(move |_| list.flag(index, |d| d.kind == DeliverableType::Enum)());
    let where_ = task.map_or("goal".to_string(), |t| t.to_string());
    let types = || {
        ["string", "number", "boolean", "enum"]
            .iter()
            .map(|t| (t.to_string(), type_word(t).to_string()))
            .collect()
    };
    let set_type = move |v: String| {
        let kind = match v.as_str() {
            "number" => DeliverableType::Number,
            "boolean" => DeliverableType::Boolean,
            "enum" => DeliverableType::Enum,
            _ => DeliverableType::String,
        };
        list.edit(index, None, |d| change_kind(d, kind));
    };
    let required = move || {
        read_state(editor, &sid.get_value(), |s| {
            deliverables(s, task)
                .and_then(|l| l.get(index))
                .is_some_and(|d| d.required)
        })
        .unwrap_or(true)
    };
    let choices_id = id.clone();
    view! {
        <div
            class="deliverable"
            data-testid="deliverable"
            data-task-index=where_
            data-deliverable-index=index
        >
            <div class="deliverable-row">
                <KeyField id task index />
                {choice(
                    "Type",
                    "deliverable-type",
                    String::new(),
                    types,
                    read_d(|d| type_name(d.kind).to_string()),
                    set_type,
                )}
                {op_button(
                    list,
                    index,
                    ListOp::Remove,
                    "remove-deliverable",
                    "✕",
                    Some("Remove"),
                )}
            </div>
            {move || {
                is_enum.get().then(|| view! { <ChoicesField id=choices_id.clone() task index /> })
            }}
            {typed(
                editor,
                Extent::Line,
                "How to ask for it",
                "deliverable-description",
                read_d(|d| d.description.clone()),
                move |v| list.edit(index, Some("description"), |d| d.description = v),
            )}
            {check(
                "Required",
                "deliverable-required",
                required,
                move |on| list.edit(index, None, |d| d.required = on),
            )}
        </div>
    }
}

/// The key: committed when the author leaves the field (a new name renames the key everywhere,
/// conditions and templates too; a key collected elsewhere is collected here as well), with the
/// plan's other keys offered while it is edited.
#[component]
fn KeyField(id: String, task: Option<usize>, index: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let names = expect_context::<Memo<PlanNames>>();
    let list = deliverable_items(editor, id.clone(), task);
    let key = move || list.read(index, |d| d.key.clone());
    // Suggestions exist only while the key is being edited, and only those that match what is
    // typed: a list of every key of the plan in every deliverable row, rebuilt on every change,
    // took half a second per click on a card of a 5,000-state plan.
    let editing_key = RwSignal::new(false);
    let typed = RwSignal::new(String::new());
    let key_refused = RwSignal::new(None::<String>);
    let commit_key = move |e: leptos::ev::Event| {
        let from = untrack(key);
        let edit = editor.plan.with_untracked(|p| {
            p.as_ref()
                .map(|p| key_edit(p, &from, &event_target_value(&e)))
        });
        let ok = match edit {
            None | Some(KeyEdit::Nothing) => true,
            Some(KeyEdit::Rename { from, to }) => {
                let what = Renamed::DeliverableKey;
                run(editor, Command::Rename { what, from, to }, None)
            }
            Some(KeyEdit::Reuse(to)) => {
                list.edit(index, None, |d| d.key = to);
                true
            }
        };
        key_refused.set(
            (!ok)
                .then(|| editor.notice.get_untracked().map(|n| n.text))
                .flatten(),
        );
        if !ok {
            if let Some(input) = e
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
            {
                input.set_value(&from);
            }
        }
    };
    let suggestions = move || {
        if !editing_key.get() {
            return Vec::new();
        }
        let typed = typed.get();
        // The key this row still has (the edit is committed on leaving the field) is not offered.
        let own = untrack(key);
        let mut offered = names.with_untracked(|n| n.key_suggestions(&typed, KEY_SUGGESTIONS));
        offered.retain(|k| *k != own);
        offered
            .into_iter()
            .map(|k| view! { <option value=k></option> })
            .collect_view()
    };
    let list_id = format!("keys-{id}-{task:?}-{index}");
    let key_problems = problems_at(
        id,
        vec![FieldPath::exact(format!("{}/key", owner_path(task, index)))],
    );
    view! {
        <label class="field">
            <span class="field-label">"What the caller gives"</span>
            <input
                type="text"
                list=list_id.clone()
                data-testid="field-deliverable-key"
                class:invalid=move || key_problems.with(|p| !p.is_empty())
                aria-invalid=move || key_problems.with(|p| (!p.is_empty()).then_some("true"))
                prop:value=list.text(index, |d| d.key.clone())
                on:input=move |e| typed.set(event_target_value(&e).to_lowercase())
                on:change=commit_key
                on:focus=move |_| {
                    typed.set(untrack(key).to_lowercase());
                    editing_key.set(true)
                }
                on:blur=move |_| editing_key.set(false)
            />
            {field_problems(key_problems)}
            {field_refusal(key_refused)}
            <datalist id=list_id>{suggestions}</datalist>
        </label>
    }
}

/// A choice's list, typed comma-separated and shown as chips.
#[component]
fn ChoicesField(id: String, task: Option<usize>, index: usize) -> impl IntoView {
    let editor = expect_context::<Editor>();
    let list = deliverable_items(editor, id.clone(), task);
    let owner = owner_path(task, index);
    // A choice without its list is found at the deliverable itself: said at its choices.
    let choice_problems = problems_at(
        id,
        vec![
            FieldPath::with_parts(format!("{owner}/enum_values")),
            FieldPath::exact(owner.clone()),
        ],
    );
    let chips = move || {
        list.read(index, |d| d.enum_values.clone().unwrap_or_default())
            .into_iter()
            .map(|c| view! { <span class="chip">{c}</span> })
            .collect_view()
    };
    view! {
        <label class="field">
            <span class="field-label">"Choices (comma-separated)"</span>
            <input
                type="text"
                data-testid="field-enum-values"
                class:invalid=move || choice_problems.with(|p| !p.is_empty())
                aria-invalid=move || choice_problems.with(|p| (!p.is_empty()).then_some("true"))
                prop:value=list
                    .text(index, |d| d.enum_values.as_deref().unwrap_or_default().join(", "))
                on:change=move |e| {
                    let values = choices_from_text(&event_target_value(&e));
                    list.edit(index, None, |d| d.enum_values = Some(values));
                }
            />
            {field_problems(choice_problems)}
        </label>
        <div class="chips">{chips}</div>
    }
}

/// Most suggestions offered for a deliverable key.
const KEY_SUGGESTIONS: usize = 40;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_gets_a_list_of_choices_and_another_type_drops_it() {
        let plan = plan_core::parse_plan(
            r#"{"id": "p", "title": "P", "states": [{"id": "a", "title": "A"}]}"#,
        )
        .unwrap();
        let mut d = fresh(&plan, &[]);
        assert_eq!((d.key.as_str(), d.required), ("value_1", true));
        change_kind(&mut d, DeliverableType::Enum);
        assert_eq!(d.enum_values, Some(Vec::new()));
        d.enum_values = Some(choices_from_text(" billing, ,technical "));
        assert_eq!(
            d.enum_values.as_deref(),
            Some(&["billing".to_string(), "technical".to_string()][..])
        );
        change_kind(&mut d, DeliverableType::Enum);
        assert_eq!(
            d.enum_values.as_ref().map(Vec::len),
            Some(2),
            "the choices stay"
        );
        change_kind(&mut d, DeliverableType::Number);
        assert_eq!(d.enum_values, None);
        assert_eq!(owner_path(None, 2), "/goal/deliverables/2");
    }
}
