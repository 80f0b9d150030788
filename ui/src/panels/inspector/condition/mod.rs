//! The condition builder: every condition type of the plan format, composites nested to any
//! depth, with pickers that offer only what fits (declared keys, an enum key's values, number keys
//! for numeric tests, declared tools and their codes). One component per kind of condition; each
//! reads the condition's typed [`Settings`] and makes one typed [`ConditionChange`] per event.
//!
//! A condition is edited where it lives: `path` is the list of child indexes from the
//! transition's own condition down through `conditions` arrays.

mod composite;
mod counts;
pub(super) mod model;
mod optional;
mod references;
mod values;

use leptos::prelude::*;
use plan_core::condition::change::{apply as apply_change, apply_in, ConditionChange};
use plan_core::condition::{ConditionType, Settings};
use plan_core::edit::{Command, PlanDetails};

use super::access::{edit_state, run};
use super::fields::choice;
use crate::editor::Editor;
use crate::plan_names::PlanNames;

pub use model::Root;
use model::{
    descend, label, node, path_name, set_node, set_rule, standalone, standalone_mut, Shape,
};
pub use optional::{optional_condition, OptionalWords};

/// One condition being edited: where it lives, what it says now, and the one way to change it.
#[derive(Clone, Copy)]
pub(super) struct Node {
    root: StoredValue<Root>,
    path: StoredValue<Vec<usize>>,
    /// The condition's type and settings, following the plan.
    read: Memo<Option<(ConditionType, Settings)>>,
    change: Callback<(Option<&'static str>, ConditionChange)>,
}

impl Node {
    /// A setting as its field shows it: empty while the condition is gone.
    pub(super) fn shown(
        self,
        setting: impl Fn(&Settings) -> String + Send + Sync + 'static,
    ) -> impl Fn() -> String + Send + Sync + 'static {
        move || {
            self.read
                .with(|r| r.as_ref().map(|(_, s)| setting(s)))
                .unwrap_or_default()
        }
    }

    /// Reads the settings (tracked); `T::default()` while the condition is gone.
    pub(super) fn with<T: Default>(self, read: impl FnOnce(&Settings) -> T) -> T {
        self.read
            .with(|r| r.as_ref().map(|(_, s)| read(s)))
            .unwrap_or_default()
    }

    /// Makes one change; `burst` names the field typed into, so that typing is one undo step.
    pub(super) fn change(self, burst: Option<&'static str>, change: ConditionChange) {
        self.change.run((burst, change));
    }

    /// The path's name, for `data-path`: `""`, `"0"`, `"0.1"`.
    pub(super) fn path_name(self) -> String {
        path_name(&self.path.get_value())
    }
}

/// The condition at `path` below `root`, and its children.
#[component]
pub fn ConditionEditor(root: Root, path: Vec<usize>) -> AnyView {
    let editor = expect_context::<Editor>();
    let names = expect_context::<Memo<PlanNames>>();
    let root = StoredValue::new(root);
    let path = StoredValue::new(path);
    let read = Memo::new(move |_| {
        editor.plan.with(|p| {
            let p = p.as_ref()?;
            let (ty, cfg) = match root.get_value() {
                Root::Transition { from, index } => {
                    let s = p.state(&from)?;
                    node(s.transitions.get(index)?, s.kind, &path.get_value())?
                }
                other => {
                    let c = standalone(p, &other)?;
                    descend(
                        (c.condition_type, c.condition_config.clone()),
                        &path.get_value(),
                    )?
                }
            };
            Some((ty, Settings::of(&cfg)))
        })
    });
    let change = Callback::new(
        move |(burst, change): (Option<&'static str>, ConditionChange)| {
            update(editor, &root.get_value(), &path.get_value(), burst, &change);
        },
    );
    let node = Node {
        root,
        path,
        read,
        change,
    };
    // What the form looks like: rebuilt only when this changes, never while the author types a
    // value (a rebuilt field loses the caret).
    let shape = Memo::new(move |_| {
        read.with(|r| {
            r.as_ref().map(|(ty, s)| Shape {
                ty: *ty,
                key: names.with(|n| n.key(&s.key).cloned()),
                between: s.numeric == Some(plan_core::condition::NumericOperator::Between),
                children: s.children,
            })
        })
    });
    let fields = move || {
        let Some(Shape {
            ty,
            key,
            between,
            children,
        }) = shape.get()
        else {
            return ().into_any();
        };
        fields(node, ty, key, between, children)
    };
    let pname = node.path_name();
    view! {
        <div class="condition" data-testid="condition" data-path=pname.clone()>
            {choice(
                "Condition",
                "condition-type",
                pname.clone(),
                || {
                    ConditionType::ALL
                        .iter()
                        .map(|t| (t.as_str().to_string(), label(*t).to_string()))
                        .collect()
                },
                move || {
                    read.with(|r| {
                        r.as_ref().map(|(t, _)| t.as_str().to_string()).unwrap_or_default()
                    })
                },
                move |v: String| {
                    if let Some(ty) = ConditionType::from_name(&v) {
                        node.change(None, ConditionChange::Type(ty));
                    }
                },
            )}
            {fields}
        </div>
    }
    .into_any()
}

/// The fields of one kind of condition.
fn fields(
    node: Node,
    ty: ConditionType,
    key: Option<crate::plan_names::KeyName>,
    between: bool,
    children: usize,
) -> AnyView {
    use composite::Composite;
    use counts::{TurnsFields, VisitsFields};
    use references::{SessionActiveFields, SessionValueFields, ToolResultFields};
    use values::{KeyPicker, NumberCompare, ValueEquals, ValueIn};
    match ty {
        ConditionType::AllTasksComplete | ConditionType::GoalAchieved => ().into_any(),
        ConditionType::DeliverableExists => view! { <KeyPicker node kind=None /> }.into_any(),
        ConditionType::DeliverableValue => view! { <ValueEquals node key /> }.into_any(),
        ConditionType::DeliverableValueIn => view! { <ValueIn node key /> }.into_any(),
        ConditionType::DeliverableValueNumeric => {
            view! { <NumberCompare node between /> }.into_any()
        }
        ConditionType::TurnCountExceeded => view! { <TurnsFields node /> }.into_any(),
        ConditionType::VisitCountExceeded => view! { <VisitsFields node /> }.into_any(),
        ConditionType::ToolResult => view! { <ToolResultFields node /> }.into_any(),
        ConditionType::SessionStateActive => view! { <SessionActiveFields node /> }.into_any(),
        ConditionType::SessionStateValue => view! { <SessionValueFields node /> }.into_any(),
        ConditionType::AllOf | ConditionType::AnyOf | ConditionType::Compound => {
            let combine = ty == ConditionType::Compound;
            view! { <Composite node combine children /> }.into_any()
        }
    }
}

/// Makes `change` to the condition at `path` below `root`, as one edit (one burst of typing when
/// `burst` names the field).
fn update(
    editor: Editor,
    root: &Root,
    path: &[usize],
    burst: Option<&'static str>,
    change: &ConditionChange,
) {
    let Some(plan) = editor.plan.get_untracked() else {
        return;
    };
    let key = burst.map(|b| format!("{}:{}:{b}", root.name(), path_name(path)));
    match root {
        Root::Transition { from, index } => edit_state(editor, from, key, |s| {
            let kind = s.kind;
            if let Some(t) = s.transitions.get_mut(*index) {
                if let Some((mut ty, mut cfg)) = node(t, kind, path) {
                    apply_in(&plan, Some(from), &mut ty, &mut cfg, change);
                    set_node(t, path, ty, cfg);
                }
            }
        }),
        other => {
            let mut details = PlanDetails::of(&plan);
            let Some(c) = standalone_mut(&mut details, other) else {
                return;
            };
            let Some((mut ty, mut cfg)) =
                descend((c.condition_type, c.condition_config.clone()), path)
            else {
                return;
            };
            apply_change(&plan, &mut ty, &mut cfg, change);
            set_rule(c, path, ty, cfg);
            run(editor, Command::SetPlanDetails(details), key.as_deref());
        }
    }
}
