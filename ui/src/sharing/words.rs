//! Sharing in the author's words, pure and tested without a browser: where a conflict is ("the
//! title of Billing", "the arrow from Intake to Billing: its order of checking"), a side's value
//! ("Payments", "deleted"), and what a get brought in.

use plan_api::messages::share::{plans_in_words, ChangedPlan, Received};
use plan_core::merge::Conflict;
use plan_core::plan::Plan;
use serde_json::Value;

/// The words of a field's name, as the inspector labels it.
fn field_words(field: &str) -> String {
    match field {
        "title" => "title".into(),
        "instructions" => "instructions".into(),
        "priority" => "order of checking".into(),
        "target_state_id" => "where it goes".into(),
        "condition_type" | "condition_config" => "condition".into(),
        "label" => "label".into(),
        "type" => "mode".into(),
        "description" => "description".into(),
        "objective" => "objective".into(),
        "ending" => "ending".into(),
        "start_state_id" => "start state".into(),
        other => other.replace('_', " "),
    }
}

/// Where conflict `path` is, in words, the states named by their titles in `plan`, and the state
/// the inspector shows (`here`) as "this state".
pub fn place(path: &str, plan: &Plan, here: Option<&str>) -> String {
    let titled = |id: &str| {
        if here == Some(id) {
            return "this state".to_string();
        }
        plan.state(id)
            .map_or_else(|| id.to_string(), |s| format!("“{}”", s.title))
    };
    let parts: Vec<String> = path
        .split('/')
        .skip(1)
        .map(|p| p.replace("~1", "/").replace("~0", "~"))
        .collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    match parts.as_slice() {
        [] => "the whole plan".into(),
        ["states"] => "the order of the states".into(),
        ["states", id] => format!("the state {}", titled(id)),
        ["states", id, "transitions"] => {
            format!("the order of the arrows from {}", titled(id))
        }
        ["states", id, "transitions", arrow, rest @ ..] => {
            let target = arrow.rsplit_once('#').map_or(*arrow, |(t, _)| t);
            let what = format!("the arrow from {} to {}", titled(id), titled(target));
            match rest.first() {
                Some(field) => format!("{what}: its {}", field_words(field)),
                None => what,
            }
        }
        ["states", id, "tasks", task, rest @ ..] => {
            let what = format!("the task “{task}” of {}", titled(id));
            match rest.last() {
                Some(field) => format!("{what}: {}", field_words(field)),
                None => what,
            }
        }
        ["states", id, field, ..] => format!("the {} of {}", field_words(field), titled(id)),
        [list, name, ..] => format!("“{name}” in the plan's {}", field_words(list)),
        [field] => format!("the plan's {}", field_words(field)),
    }
}

/// One side's value, short: a text as it is, an element by its title or id, absent as "none".
pub fn value(side: &Option<Value>) -> String {
    match side {
        None => "none (deleted)".into(),
        Some(Value::String(s)) if s.is_empty() => "(empty)".into(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Object(o)) => o
            .get("title")
            .or_else(|| o.get("id"))
            .and_then(Value::as_str)
            .map_or_else(|| short(&Value::Object(o.clone())), |t| format!("“{t}”")),
        Some(v) => short(v),
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 80 {
        format!("{}…", text.chars().take(80).collect::<String>())
    } else {
        text
    }
}

/// The conflicts that are about state `id` (`None`: about the plan itself, no state).
pub fn about<'c>(conflicts: &'c [Conflict], id: Option<&str>) -> Vec<&'c Conflict> {
    conflicts
        .iter()
        .filter(|c| plan_core::merge::state_of(&c.path).as_deref() == id)
        .collect()
}

/// The plans a list names, by their titles (`title` of an id), in words ("Support, Billing
/// (new)"), or "none".
pub fn plan_list(list: &[ChangedPlan], title: &impl Fn(&str) -> String) -> String {
    if list.is_empty() {
        return "none".into();
    }
    plans_in_words(list, title)
}

/// What a get brought in, a line per plan named by its title (`title` of an id).
pub fn received(got: &Received, title: &impl Fn(&str) -> String) -> Vec<String> {
    if !got.anything {
        return vec!["Nothing new: you have everyone's changes.".into()];
    }
    let mut lines = Vec::new();
    for p in &got.plans {
        let mut parts = p.in_words();
        parts.extend(p.conflicts_in_words());
        if parts.is_empty() {
            parts.push("changed (nothing of its states)".into());
        }
        lines.push(format!("{}: {}.", title(&p.id), parts.join("; ")));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_api::messages::share::PlanReceived;
    use serde_json::json;

    fn plan() -> Plan {
        plan_core::parse_plan(
            &json!({"id": "p", "title": "P", "states": [
                {"id": "intake", "title": "Intake", "type": "loose", "instructions": "Ask.",
                 "transitions": [{"target_state_id": "billing"}]},
                {"id": "billing", "title": "Billing", "type": "loose", "instructions": "Bill."}]})
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn a_conflict_is_placed_by_the_titles_the_author_reads() {
        let p = plan();
        assert_eq!(
            place("/states/billing/title", &p, None),
            "the title of “Billing”"
        );
        assert_eq!(
            place("/states/billing/title", &p, Some("billing")),
            "the title of this state"
        );
        assert_eq!(
            place(
                "/states/intake/transitions/billing#0/priority",
                &p,
                Some("intake")
            ),
            "the arrow from this state to “Billing”: its order of checking"
        );
        assert_eq!(place("/states/gone", &p, None), "the state gone");
        assert_eq!(place("/title", &p, None), "the plan's title");
        assert_eq!(place("/states", &p, None), "the order of the states");
        assert_eq!(
            place("/tools/lookup/response_codes", &p, None),
            "“lookup” in the plan's tools"
        );
    }

    #[test]
    fn a_sides_value_is_short_and_says_when_it_was_deleted() {
        assert_eq!(value(&Some(json!("Payments"))), "Payments");
        assert_eq!(value(&None), "none (deleted)");
        assert_eq!(
            value(&Some(json!({"id": "b", "title": "Bills"}))),
            "“Bills”"
        );
        assert_eq!(value(&Some(json!(3))), "3");
    }

    #[test]
    fn what_a_get_brought_is_said_per_plan() {
        let got = Received {
            anything: true,
            plans: vec![PlanReceived {
                id: "support".into(),
                states_changed: vec!["Billing".into()],
                versions_received: vec![3],
                versions_renumbered: vec![(3, 4)],
                ..PlanReceived::default()
            }],
        };
        let title = |id: &str| {
            if id == "support" {
                "Support".to_string()
            } else {
                id.to_string()
            }
        };
        assert_eq!(
            received(&got, &title),
            ["Support: states changed: Billing; versions received: v3; your version 3 is now version 4: others published 3 first."]
        );
        assert_eq!(
            received(&Received::default(), &title),
            ["Nothing new: you have everyone's changes."]
        );
    }

    #[test]
    fn conflicts_are_found_by_their_state() {
        let c = |path: &str| Conflict {
            path: path.into(),
            base: None,
            ours: None,
            theirs: None,
        };
        let all = [c("/states/a/title"), c("/title"), c("/states/b")];
        assert_eq!(about(&all, Some("a")).len(), 1);
        assert_eq!(about(&all, None)[0].path, "/title");
    }
}
