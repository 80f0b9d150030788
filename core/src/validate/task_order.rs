//! `leaves-before-tasks-done`: a transition out of a strict state whose condition can hold while
//! some of the state's required tasks are still to do, in a state where no transition waits for
//! its last required task. A strict state works through its tasks in order, and a value a task
//! collects is known once that task is done; a route that reads the value of an early task (and
//! does not also wait for "all tasks done") fires as soon as that value is known. When every route
//! of the state does that, the later required tasks are never asked for: authors meant "when the
//! state is done and the size is large"; the conditions say only "when the size is large". When
//! another route waits for the last task, the early ones are shortcuts the author chose (an
//! emergency on the first answer) and are not flagged.

use super::{Code, Location, Validator};
use crate::condition::Check;
use crate::plan::{State, StateType};

/// The state's required tasks, in order, with the keys each collects.
fn required_tasks(state: &State) -> Vec<(&str, Vec<&str>)> {
    state
        .tasks
        .iter()
        .filter(|t| t.required)
        .map(|t| {
            (
                t.id.as_str(),
                t.deliverables.iter().map(|d| d.key.as_str()).collect(),
            )
        })
        .collect()
}

/// The latest required task (its index among them) that must be done before `check` can hold,
/// with the key that says so; none when nothing in it waits for this state's tasks (a count of
/// turns, a tool's answer, a key another state collects).
fn needs<'c>(check: &Check<'c>, tasks: &[(&str, Vec<&str>)]) -> Option<(usize, Option<&'c str>)> {
    let task_of = |key: &str| tasks.iter().position(|(_, keys)| keys.contains(&key));
    match check {
        Check::AllTasksComplete => Some((tasks.len().saturating_sub(1), None)),
        Check::DeliverableExists { key }
        | Check::DeliverableValue { key, .. }
        | Check::DeliverableValueIn { key, .. }
        | Check::DeliverableValueNumeric { key, .. } => task_of(key).map(|i| (i, Some(*key))),
        // Every part must hold: the latest task any part needs.
        Check::AllOf(parts) => parts
            .iter()
            .filter_map(|c| needs(c, tasks))
            .max_by_key(|n| n.0),
        // Any part may hold first: the earliest task a part that waits for tasks needs.
        Check::AnyOf(parts) => parts
            .iter()
            .filter_map(|c| needs(c, tasks))
            .min_by_key(|n| n.0),
        _ => None,
    }
}

impl<'p> Validator<'p, '_> {
    /// The transitions of strict state `i` that can leave before its required tasks are done,
    /// when none of its transitions waits for the last of them.
    pub(super) fn task_order(&mut self, i: usize, state: &'p State) {
        // Most states are not strict or have fewer than two required tasks: nothing made for them.
        if state.kind != StateType::Strict
            || state.tasks.iter().filter(|t| t.required).nth(1).is_none()
        {
            return;
        }
        let tasks = required_tasks(state);
        let last = tasks.len() - 1;
        // The conditions as the transition checks read them (each read once per state).
        let mut routes: Vec<Option<(usize, Option<&str>)>> =
            Vec::with_capacity(state.transitions.len());
        for (k, t) in state.transitions.iter().enumerate() {
            let reading = self.readings[k].get_or_insert_with(|| {
                Check::read(t.condition_type_in(state.kind), &t.condition_config).ok()
            });
            routes.push(reading.as_ref().and_then(|check| needs(check, &tasks)));
        }
        if routes.iter().flatten().any(|(at, _)| *at >= last) {
            return;
        }
        let title = |id: &str| {
            state
                .tasks
                .iter()
                .find(|task| task.id == id)
                .map(|task| {
                    if task.description.is_empty() {
                        task.id.clone()
                    } else {
                        task.description.clone()
                    }
                })
                .unwrap_or_default()
        };
        for (k, route) in routes.iter().enumerate() {
            let Some((at, Some(key))) = route else {
                continue;
            };
            let later: Vec<String> = tasks[at + 1..]
                .iter()
                .map(|(id, _)| format!("'{}'", title(id)))
                .collect();
            self.push(
                Code::LeavesBeforeTasksDone,
                format!(
                    "Transition {} of '{}' can leave before the state's required tasks are done: it reads '{key}', known once '{}' is done, and no transition of '{}' waits for {}. Add 'all tasks done' to its condition if it should wait for them.",
                    k + 1,
                    state.title,
                    title(tasks[*at].0),
                    state.title,
                    later.join(" and "),
                ),
                Location {
                    path: format!("/states/{i}/transitions/{k}/condition_config"),
                    state_id: Some(state.id.clone()),
                    task_id: None,
                    transition_index: Some(k),
                },
            );
        }
    }
}
