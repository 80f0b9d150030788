//! A diff in an author's words, one line per thing that changed, each saying where it is so that
//! a click can take the author there: "New state “Billing support”", "Changed transition 2 of
//! “Intake” (→ Billing support): condition". The app's publish dialog and its comparison list
//! show these lines; `plan diff` keeps its own terse form.

use serde::{Deserialize, Serialize};

use super::{by_state_id, Change, ItemDiff, PlanDiff};
use crate::plan::Plan;

/// One line of a described diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListedChange {
    /// How it changed.
    pub change: Change,
    /// What changed, in words.
    pub text: String,
    /// The state it is in (none for the plan's own details).
    pub state_id: Option<String>,
    /// The transition it is, when it is one (its index in the state's list).
    pub transition: Option<usize>,
    /// 0 for the plan and its states, 1 for what is inside a state.
    pub depth: u8,
}

/// `diff` (from `old` to `new`) as lines for people; titles come from whichever plan has the
/// state.
pub fn describe(diff: &PlanDiff, old: &Plan, new: &Plan) -> Vec<ListedChange> {
    let (old_states, new_states) = (by_state_id(old), by_state_id(new));
    let title = |id: &str| {
        new_states
            .get(id)
            .or_else(|| old_states.get(id))
            .map(|s| s.title.as_str())
            .filter(|t| !t.is_empty())
            .unwrap_or(id)
            .to_string()
    };
    let mut out = Vec::new();
    // Evaluations are listed one by one below, as states are, not as a detail of the plan.
    let details: Vec<String> = diff
        .plan
        .iter()
        .filter(|f| *f != "evaluations")
        .cloned()
        .collect();
    if !details.is_empty() {
        out.push(ListedChange {
            change: Change::Changed,
            text: format!("Plan details: {}", fields(&details)),
            state_id: None,
            transition: None,
            depth: 0,
        });
    }
    if diff.plan.iter().any(|f| f == "evaluations") {
        out.extend(evaluation_changes(old, new));
    }
    for s in &diff.states {
        let name = title(&s.state_id);
        let text = match s.change {
            Change::Added => format!("New state “{name}”"),
            Change::Removed => format!("Removed state “{name}”"),
            Change::Changed if s.fields.is_empty() => format!("Changed state “{name}”"),
            Change::Changed => format!("Changed state “{name}”: {}", fields(&s.fields)),
        };
        out.push(ListedChange {
            change: s.change,
            text,
            state_id: Some(s.state_id.clone()),
            transition: None,
            depth: 0,
        });
        for (what, items) in [("task", &s.tasks), ("deliverable", &s.deliverables)] {
            for item in items.iter() {
                out.push(ListedChange {
                    change: item.change,
                    text: item_text(item, &format!("{what} {}", item.id)),
                    state_id: Some(s.state_id.clone()),
                    transition: None,
                    depth: 1,
                });
            }
        }
        for item in &s.transitions {
            let (index, target) = item.id.split_once(" → ").unwrap_or((&item.id, ""));
            let index: Option<usize> = index.parse().ok();
            let place = match index {
                Some(i) => format!("transition {} (→ {})", i + 1, title(target)),
                None => format!("transition {}", item.id),
            };
            out.push(ListedChange {
                change: item.change,
                text: item_text(item, &place),
                state_id: Some(s.state_id.clone()),
                transition: index,
                depth: 1,
            });
        }
    }
    out
}

/// A line per evaluation added, removed or changed, in the new plan's order, then the removed.
fn evaluation_changes(old: &Plan, new: &Plan) -> Vec<ListedChange> {
    let line = |change: Change, text: String| ListedChange {
        change,
        text,
        state_id: None,
        transition: None,
        depth: 0,
    };
    let mut out = Vec::new();
    for e in &new.evaluations {
        match old.evaluations.iter().find(|o| o.id == e.id) {
            None => out.push(line(
                Change::Added,
                format!("New evaluation “{}”", e.name()),
            )),
            Some(o) if o != e => {
                let mut changed = Vec::new();
                if o.title != e.title {
                    changed.push("title");
                }
                if o.question != e.question {
                    changed.push("question");
                }
                if o.only_while_active != e.only_while_active {
                    changed.push("asked only while");
                }
                let text = format!("Changed evaluation “{}”: {}", e.name(), changed.join(", "));
                out.push(line(Change::Changed, text));
            }
            Some(_) => {}
        }
    }
    for o in &old.evaluations {
        if !new.evaluations.iter().any(|e| e.id == o.id) {
            out.push(line(
                Change::Removed,
                format!("Removed evaluation “{}”", o.name()),
            ));
        }
    }
    out
}

fn item_text(item: &ItemDiff, what: &str) -> String {
    match item.change {
        Change::Added => format!("New {what}"),
        Change::Removed => format!("Removed {what}"),
        Change::Changed if item.fields.is_empty() => format!("Changed {what}"),
        Change::Changed => format!("Changed {what}: {}", fields(&item.fields)),
    }
}

/// Field names as an author reads them, without repeats, in the order given.
fn fields(names: &[String]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for name in names {
        let word = match name.as_str() {
            "start_state_id" => "start state",
            "allowed_tools" => "allowed tools",
            "session_states" => "session states",
            "on_enter" => "changes on entering",
            "effects" => "effects on session states",
            "enum_values" => "choices",
            "target_state_id" => "target",
            "condition_type" | "condition_config" => "condition",
            "type" => "mode or type",
            other => other,
        };
        if !out.contains(&word) {
            out.push(word);
        }
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;
    use crate::parse_plan;

    #[test]
    fn each_change_is_a_line_that_says_where_it_is() {
        let old = parse_plan(
            r#"{"id": "p", "title": "P", "states": [
            {"id": "a", "title": "Intake", "transitions": [{"target_state_id": "b"}]},
            {"id": "b", "title": "Billing"}, {"id": "c", "title": "Old"}]}"#,
        )
        .unwrap();
        let new = parse_plan(
            r#"{"id": "p", "title": "P2", "states": [
            {"id": "a", "title": "Intake", "instructions": "Ask.",
             "transitions": [{"target_state_id": "b", "condition_type": "all_tasks_complete", "priority": 2}]},
            {"id": "b", "title": "Billing"}, {"id": "d", "title": "New one"}]}"#,
        )
        .unwrap();
        let lines = describe(&diff(&old, &new), &old, &new);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Plan details: title",
                "Changed state “Intake”: instructions",
                "Changed transition 1 (→ Billing): condition, priority",
                "New state “New one”",
                "Removed state “Old”",
            ]
        );
        assert_eq!(lines[2].state_id.as_deref(), Some("a"));
        assert_eq!((lines[2].transition, lines[2].depth), (Some(0), 1));
        assert_eq!(lines[4].change, Change::Removed);
    }
}
