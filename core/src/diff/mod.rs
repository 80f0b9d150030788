//! A semantic diff of two plans: states, tasks, deliverables and transitions added, removed or
//! changed (with the names of the changed fields). Canvas positions are ignored: moving a card is
//! not a change of the plan. Returned as data: the CLI prints it, the app colours the canvas
//! ([`overlay`]) and lists it in words ([`describe`]).

mod describe;
mod overlay;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use describe::{describe, ListedChange};
pub use overlay::{overlay, Overlay, TransitionMark};

use crate::plan::{Deliverable, Plan, State, Task, Transition};

/// What happened to one thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// Only the second plan has it.
    Added,
    /// Only the first plan has it.
    Removed,
    /// Both have it, and it differs.
    Changed,
}

impl Change {
    /// The name the canvas and its test hooks use (`data-diff`, `data-change`).
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
        }
    }
}

/// One task, deliverable or transition that differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemDiff {
    /// Task id, deliverable key, or transition position (0-based) with its target.
    pub id: String,
    /// How it changed.
    pub change: Change,
    /// The fields that differ, for `changed`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
}

/// One state that differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateDiff {
    /// The state's id.
    pub state_id: String,
    /// How the state changed.
    pub change: Change,
    /// The state's own fields that differ (title, type, instructions…), for `changed`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    /// Its tasks that changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<ItemDiff>,
    /// Its deliverables that changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deliverables: Vec<ItemDiff>,
    /// Its transitions that changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transitions: Vec<ItemDiff>,
}

impl StateDiff {
    /// A state added or removed as a whole.
    fn whole(id: &str, change: Change) -> StateDiff {
        StateDiff {
            state_id: id.to_string(),
            change,
            fields: vec![],
            tasks: vec![],
            deliverables: vec![],
            transitions: vec![],
        }
    }
}

/// Everything that differs between two plans.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlanDiff {
    /// Plan-level fields that differ (title, start_state_id, tools, settings…).
    pub plan: Vec<String>,
    /// States in the order of the new plan, then removed ones in the order of the old.
    pub states: Vec<StateDiff>,
}

impl PlanDiff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.plan.is_empty() && self.states.is_empty()
    }
}

/// What changed from `old` to `new`.
pub fn diff(old: &Plan, new: &Plan) -> PlanDiff {
    let mut plan = Vec::new();
    field(&mut plan, "title", &old.title, &new.title);
    field(&mut plan, "description", &old.description, &new.description);
    field(
        &mut plan,
        "start_state_id",
        &old.start_state_id(),
        &new.start_state_id(),
    );
    field(
        &mut plan,
        "instructions",
        &old.instructions,
        &new.instructions,
    );
    field(&mut plan, "tools", &old.tools, &new.tools);
    field(
        &mut plan,
        "session_states",
        &old.session_states,
        &new.session_states,
    );
    field(
        &mut plan,
        "interruptions",
        &old.interruptions,
        &new.interruptions,
    );
    field(&mut plan, "rules", &old.rules, &new.rules);
    field(&mut plan, "evaluations", &old.evaluations, &new.evaluations);
    field(&mut plan, "settings", &old.settings, &new.settings);
    let order: Vec<&str> = old.states.iter().map(|s| s.id.as_str()).collect();
    let new_order: Vec<&str> = new.states.iter().map(|s| s.id.as_str()).collect();
    if order != new_order && same_set(&order, &new_order) {
        plan.push("plan order".into());
    }

    // By id, once: a lookup per state would make a diff of two 5,000-state plans quadratic
    // (120 ms of 12.5 million id comparisons, `cargo bench -p plan-api --bench lifecycle`).
    let old_states = by_state_id(old);
    let new_states = by_state_id(new);
    let mut states = Vec::new();
    for s in &new.states {
        match old_states.get(s.id.as_str()) {
            None => states.push(StateDiff::whole(&s.id, Change::Added)),
            Some(o) => {
                let d = state_diff(o, s);
                if !(d.fields.is_empty()
                    && d.tasks.is_empty()
                    && d.deliverables.is_empty()
                    && d.transitions.is_empty())
                {
                    states.push(d);
                }
            }
        }
    }
    for s in &old.states {
        if !new_states.contains_key(s.id.as_str()) {
            states.push(StateDiff::whole(&s.id, Change::Removed));
        }
    }
    PlanDiff { plan, states }
}

/// A plan's states by id (the first of a repeated id, as [`Plan::state`] finds it).
pub(crate) fn by_state_id(plan: &Plan) -> HashMap<&str, &State> {
    let mut map = HashMap::with_capacity(plan.states.len());
    for s in &plan.states {
        map.entry(s.id.as_str()).or_insert(&**s);
    }
    map
}

fn same_set(a: &[&str], b: &[&str]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

fn field<T: PartialEq>(out: &mut Vec<String>, name: &str, a: &T, b: &T) {
    if a != b {
        out.push(name.to_string());
    }
}

fn state_diff(o: &State, n: &State) -> StateDiff {
    let mut fields = Vec::new();
    field(&mut fields, "title", &o.title, &n.title);
    field(&mut fields, "type", &o.kind, &n.kind);
    field(&mut fields, "description", &o.description, &n.description);
    field(
        &mut fields,
        "instructions",
        &o.instructions,
        &n.instructions,
    );
    let goal_text = |s: &State| {
        s.goal
            .as_ref()
            .map(|g| (g.objective.clone(), g.success_description.clone()))
    };
    field(&mut fields, "goal", &goal_text(o), &goal_text(n));
    field(
        &mut fields,
        "allowed_tools",
        &o.allowed_tools,
        &n.allowed_tools,
    );
    field(
        &mut fields,
        "ending",
        &o.effective_ending(),
        &n.effective_ending(),
    );
    field(&mut fields, "on_enter", &o.on_enter, &n.on_enter);
    let task_order = |s: &State| s.tasks.iter().map(|t| t.id.clone()).collect::<Vec<_>>();
    if task_order(o) != task_order(n) && o.tasks.len() == n.tasks.len() {
        fields.push("task order".into());
    }
    StateDiff {
        state_id: n.id.clone(),
        change: Change::Changed,
        fields,
        tasks: by_id(&o.tasks, &n.tasks, |t| t.id.clone(), task_fields),
        deliverables: by_id(
            &o.deliverables().collect::<Vec<_>>(),
            &n.deliverables().collect::<Vec<_>>(),
            |d| d.key.clone(),
            deliverable_fields,
        ),
        transitions: transitions(&o.transitions, &n.transitions),
    }
}

fn by_id<T>(
    old: &[T],
    new: &[T],
    id: impl Fn(&T) -> String,
    fields: impl Fn(&T, &T) -> Vec<String>,
) -> Vec<ItemDiff> {
    let mut out = Vec::new();
    for n in new {
        let key = id(n);
        match old.iter().find(|o| id(o) == key) {
            None => out.push(ItemDiff {
                id: key,
                change: Change::Added,
                fields: vec![],
            }),
            Some(o) => {
                let f = fields(o, n);
                if !f.is_empty() {
                    out.push(ItemDiff {
                        id: key,
                        change: Change::Changed,
                        fields: f,
                    });
                }
            }
        }
    }
    for o in old {
        let key = id(o);
        if !new.iter().any(|n| id(n) == key) {
            out.push(ItemDiff {
                id: key,
                change: Change::Removed,
                fields: vec![],
            });
        }
    }
    out
}

fn task_fields(a: &Task, b: &Task) -> Vec<String> {
    let mut f = Vec::new();
    field(&mut f, "description", &a.description, &b.description);
    field(&mut f, "instruction", &a.instruction, &b.instruction);
    field(&mut f, "required", &a.required, &b.required);
    let keys = |t: &Task| {
        t.deliverables
            .iter()
            .map(|d| d.key.clone())
            .collect::<Vec<_>>()
    };
    field(&mut f, "deliverables", &keys(a), &keys(b));
    f
}

fn deliverable_fields(a: &&Deliverable, b: &&Deliverable) -> Vec<String> {
    let mut f = Vec::new();
    field(&mut f, "type", &a.kind, &b.kind);
    field(&mut f, "enum_values", &a.enum_values, &b.enum_values);
    field(&mut f, "required", &a.required, &b.required);
    field(&mut f, "description", &a.description, &b.description);
    f
}

/// Transitions are compared by position: "transition 2" is what an author sees in the inspector.
/// The item's id is `<index> → <target>` (0-based).
fn transitions(old: &[Transition], new: &[Transition]) -> Vec<ItemDiff> {
    let label = |i: usize, t: &Transition| format!("{i} → {}", t.target_state_id);
    let mut out = Vec::new();
    for (i, n) in new.iter().enumerate() {
        match old.get(i) {
            None => out.push(ItemDiff {
                id: label(i, n),
                change: Change::Added,
                fields: vec![],
            }),
            Some(o) => {
                let mut f = Vec::new();
                field(
                    &mut f,
                    "target_state_id",
                    &o.target_state_id,
                    &n.target_state_id,
                );
                field(
                    &mut f,
                    "condition_type",
                    &o.condition_type,
                    &n.condition_type,
                );
                field(
                    &mut f,
                    "condition_config",
                    &o.condition_config,
                    &n.condition_config,
                );
                field(&mut f, "priority", &o.priority, &n.priority);
                field(&mut f, "label", &o.label, &n.label);
                field(&mut f, "effects", &o.effects, &n.effects);
                if !f.is_empty() {
                    out.push(ItemDiff {
                        id: label(i, n),
                        change: Change::Changed,
                        fields: f,
                    });
                }
            }
        }
    }
    for (i, o) in old.iter().enumerate().skip(new.len()) {
        out.push(ItemDiff {
            id: label(i, o),
            change: Change::Removed,
            fields: vec![],
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_plan;

    fn plan(json: &str) -> Plan {
        parse_plan(json).unwrap()
    }

    const OLD: &str = r#"{"id": "p", "title": "P", "states": [
        {"id": "a", "title": "A", "tasks": [{"id": "t", "deliverables": [{"key": "k"}]}],
         "transitions": [{"target_state_id": "b"}, {"target_state_id": "c", "priority": 2}]},
        {"id": "b", "title": "B"},
        {"id": "c", "title": "C"}
    ], "layout": {"a": {"x": 0, "y": 0}}}"#;

    #[test]
    fn identical_plans_and_moved_cards_are_no_change() {
        let mut moved = plan(OLD);
        moved.layout.clear();
        assert!(diff(&plan(OLD), &moved).is_empty());
    }

    #[test]
    fn added_removed_and_changed_things_are_named_with_their_fields() {
        let new = plan(
            r#"{"id": "p", "title": "P2", "states": [
            {"id": "a", "title": "A", "type": "strict",
             "tasks": [{"id": "t", "deliverables": [{"key": "k", "type": "number"}]}, {"id": "u"}],
             "transitions": [{"target_state_id": "d"}]},
            {"id": "b", "title": "B"},
            {"id": "d", "title": "D"}
        ]}"#,
        );
        let d = diff(&plan(OLD), &new);
        assert_eq!(d.plan, ["title"]);
        let a = &d.states[0];
        assert_eq!((a.state_id.as_str(), a.change), ("a", Change::Changed));
        assert_eq!(a.fields, ["type"]);
        assert_eq!(
            a.tasks,
            [ItemDiff {
                id: "u".into(),
                change: Change::Added,
                fields: vec![]
            }]
        );
        assert_eq!(a.deliverables[0].fields, ["type"]);
        assert_eq!(a.transitions[0].fields, ["target_state_id"]);
        assert_eq!(a.transitions[1].change, Change::Removed);
        assert_eq!(
            d.states[1..]
                .iter()
                .map(|s| (s.state_id.as_str(), s.change))
                .collect::<Vec<_>>(),
            [("d", Change::Added), ("c", Change::Removed)]
        );
    }
}
