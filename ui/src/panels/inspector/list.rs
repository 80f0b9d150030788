//! One list the inspector edits, whatever its items (the plan's rules, interruptions and session
//! states; a state's tasks; a task's or a goal's deliverables): where the list lives (a lens into
//! the plan's details or into one state), each item read tracked and changed through the access
//! module in one edit (one undo step, or one per burst of typing in a field), and the buttons
//! that add, remove and move items (what a button does to the list is `list_ops`'s).

use leptos::prelude::*;
use plan_core::edit::PlanDetails;
use plan_core::plan::{Plan, State};

use super::access::{change_plan, edit_state, read_plan, read_state};
use crate::editor::Editor;
use crate::panels::list_ops::{apply_op, ListOp};

/// The first state that is not the start (the start, when it is the only one): where a new
/// interruption goes and what a new rule is about.
pub fn first_state_after_start(plan: &Plan) -> String {
    let start = plan.start_state_id().unwrap_or_default();
    plan.states
        .iter()
        .find(|s| s.id != start)
        .or(plan.states.first())
        .map(|s| s.id.clone())
        .unwrap_or_default()
}

/// The list inside the plan's own details, or inside state `id` (at `at`: a task's index, or
/// none for a goal's).
enum Owner<T: 'static> {
    Plan {
        read: fn(&Plan) -> &Vec<T>,
        write: fn(&mut PlanDetails) -> &mut Vec<T>,
    },
    State {
        id: StoredValue<String>,
        at: Option<usize>,
        read: fn(&State, Option<usize>) -> Option<&Vec<T>>,
        write: fn(&mut State, Option<usize>) -> Option<&mut Vec<T>>,
    },
}

impl<T> Clone for Owner<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Owner<T> {}

/// A list of the plan that the inspector edits.
pub struct Items<T: 'static> {
    editor: Editor,
    owner: Owner<T>,
    /// What names this list's bursts of typing.
    burst: &'static str,
}

impl<T> Clone for Items<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Items<T> {}

impl<T: Send + Sync + 'static> Items<T> {
    /// A list of the plan's own details (rules, interruptions, session states).
    pub fn of_plan(
        editor: Editor,
        burst: &'static str,
        read: fn(&Plan) -> &Vec<T>,
        write: fn(&mut PlanDetails) -> &mut Vec<T>,
    ) -> Items<T> {
        Items {
            editor,
            owner: Owner::Plan { read, write },
            burst,
        }
    }

    /// A list of state `id` (its tasks; a task's or its goal's deliverables, `at` saying which).
    pub fn of_state(
        editor: Editor,
        id: String,
        at: Option<usize>,
        burst: &'static str,
        read: fn(&State, Option<usize>) -> Option<&Vec<T>>,
        write: fn(&mut State, Option<usize>) -> Option<&mut Vec<T>>,
    ) -> Items<T> {
        Items {
            editor,
            owner: Owner::State {
                id: StoredValue::new(id),
                at,
                read,
                write,
            },
            burst,
        }
    }

    /// Reads the list (tracked).
    pub fn with<R: Default>(self, f: impl FnOnce(&[T]) -> R) -> R {
        match self.owner {
            Owner::Plan { read, .. } => read_plan(self.editor, |p| f(read(p))),
            Owner::State { id, at, read, .. } => {
                read_state(self.editor, &id.get_value(), |s| read(s, at).map(|l| f(l)))
                    .flatten()
                    .unwrap_or_default()
            }
        }
    }

    /// Changes the list in one edit; `field` names a burst of typing (one undo step for it).
    pub fn change(self, field: Option<String>, f: impl FnOnce(&mut Vec<T>)) {
        let burst = field.map(|k| format!("{}:{k}", self.burst));
        match self.owner {
            Owner::Plan { write, .. } => {
                change_plan(self.editor, burst.as_deref(), |d| f(write(d)));
            }
            Owner::State { id, at, write, .. } => {
                let id = id.get_value();
                let burst = burst.map(|b| format!("{id}:{b}"));
                edit_state(self.editor, &id, burst, |s| {
                    if let Some(list) = write(s, at) {
                        f(list);
                    }
                });
            }
        }
    }

    /// How many items it has (tracked).
    pub fn len(self) -> usize {
        self.with(|l| l.len())
    }

    /// Reads item `i` (tracked); the default when there is none.
    pub fn read<R: Default>(self, i: usize, f: impl FnOnce(&T) -> R) -> R {
        self.with(|l| l.get(i).map(f).unwrap_or_default())
    }

    /// Changes item `i`; `field` names a burst of typing.
    pub fn edit(self, i: usize, field: Option<&str>, f: impl FnOnce(&mut T)) {
        self.change(field.map(|k| format!("{i}:{k}")), |l| {
            if let Some(x) = l.get_mut(i) {
                f(x);
            }
        });
    }

    /// Item `i`'s text, for a field to show (tracked).
    pub fn text(self, i: usize, f: fn(&T) -> String) -> impl Fn() -> String + Copy + Send + Sync {
        move || self.read(i, f)
    }

    /// Item `i`'s text as typed into field `field`: one undo step per burst.
    pub fn set_text(
        self,
        i: usize,
        field: &'static str,
        f: fn(&mut T, String),
    ) -> impl Fn(String) + Copy + Send + Sync {
        move |v: String| self.edit(i, Some(field), |x| f(x, v))
    }

    /// Item `i`'s switch, for a check box to show (tracked).
    pub fn flag(self, i: usize, f: fn(&T) -> bool) -> impl Fn() -> bool + Copy + Send + Sync {
        move || self.read(i, f)
    }

    /// Item `i`'s switch turned: one undo step.
    pub fn set_flag(self, i: usize, f: fn(&mut T, bool)) -> impl Fn(bool) + Copy + Send + Sync {
        move |on: bool| self.edit(i, None, |x| f(x, on))
    }

    /// A new item at the end, made from the plan and the list as they are: one undo step.
    pub fn push(self, make: fn(&Plan, &[T]) -> T) {
        let item = self.editor.plan.with_untracked(|p| {
            let p = p.as_ref()?;
            let list: &[T] = match self.owner {
                Owner::Plan { read, .. } => read(p),
                Owner::State { id, at, read, .. } => p
                    .state(&id.get_value())
                    .and_then(|s| read(s, at))
                    .map_or(&[], |l| l.as_slice()),
            };
            Some(make(p, list))
        });
        if let Some(item) = item {
            self.change(None, |l| l.push(item));
        }
    }

    /// Item `i` moved or removed: one undo step.
    pub fn apply(self, i: usize, op: ListOp) {
        self.change(None, |l| apply_op(l, i, op));
    }
}

/// How a list adds an item: the button's test hook and words, and the fresh item it makes.
pub struct Adder<T: 'static> {
    pub testid: &'static str,
    pub label: &'static str,
    pub make: fn(&Plan, &[T]) -> T,
}

/// Each item of `items`, drawn by `item` with its index, then the button that adds a fresh one.
pub fn list_items<T, V>(
    items: Items<T>,
    item: impl Fn(usize) -> V + Clone + Send + Sync + 'static,
    adder: Adder<T>,
) -> impl IntoView
where
    T: Send + Sync + 'static,
    V: IntoView + 'static,
{
    let Adder {
        testid,
        label,
        make,
    } = adder;
    view! {
        <For each=move || 0..items.len() key=|i| *i children=item />
        <button
            class="add"
            data-testid=testid
            on:click=move |e| {
                items.push(make);
                focus_added(e.target(), testid);
            }
        >
            {label}
        </button>
    }
}

/// Gives the first field of the item just added (the one before the add button) the focus, once
/// it is drawn: the author types into it, and a keyboard's focus is never left on a button that
/// the adding drew anew.
fn focus_added(button: Option<web_sys::EventTarget>, testid: &'static str) {
    use wasm_bindgen::JsCast;
    let Some(button) = button.and_then(|b| b.dyn_into::<web_sys::Element>().ok()) else {
        return;
    };
    // A list inside a task (its values) is found again by its task.
    let owner = button
        .closest("[data-task-index]")
        .ok()
        .flatten()
        .and_then(|t| t.get_attribute("data-task-index"));
    request_animation_frame(move || {
        let button = if button.is_connected() {
            Some(button)
        } else {
            let scope = owner.map_or(String::new(), |i| format!("[data-task-index=\"{i}\"] "));
            document()
                .query_selector(&format!("{scope}[data-testid={testid}]"))
                .ok()
                .flatten()
        };
        let field = button
            .and_then(|b| b.previous_element_sibling())
            .and_then(|row| row.query_selector("input, select, textarea").ok().flatten())
            .and_then(|f| f.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(field) = field {
            let _ = field.focus();
        }
    });
}

/// A button that moves or removes item `i`: `words` on it, `title` its tooltip (none: the words
/// say it).
pub fn op_button<T: Send + Sync + 'static>(
    items: Items<T>,
    i: usize,
    op: ListOp,
    testid: &'static str,
    words: &'static str,
    title: Option<&'static str>,
) -> impl IntoView {
    view! {
        <button
            class=(op == ListOp::Remove && title.is_none()).then_some("remove")
            title=title
            disabled=move || match op {
                ListOp::Up => i == 0,
                ListOp::Down => i + 1 >= items.len(),
                ListOp::Remove => false,
            }
            data-testid=testid
            on:click=move |_| items.apply(i, op)
        >
            {words}
        </button>
    }
}

/// Plans the lists' tests add items to.
#[cfg(test)]
pub mod fixtures {
    use plan_core::plan::Plan;

    /// A plan of two states, `a` (the start) with one arrow to `b`, and the plan's other fields
    /// `details` (rules, interruptions, tools…): what the lists' tests add items to.
    pub fn two_state_plan(details: serde_json::Value) -> Plan {
        let mut doc = serde_json::json!({"id": "p", "title": "P", "start_state_id": "a",
            "states": [{"id": "a", "title": "A", "transitions": [{"target_state_id": "b"}]},
                       {"id": "b", "title": "B"}]});
        if let (Some(doc), Some(details)) = (doc.as_object_mut(), details.as_object()) {
            doc.extend(details.clone());
        }
        plan_core::parse_plan(&doc.to_string()).unwrap()
    }

    /// The account-care sample plan, which has session states of every type.
    pub fn account_care() -> Plan {
        plan_core::parse_plan(include_str!("../../../../plans/account-care.json")).unwrap()
    }
}
