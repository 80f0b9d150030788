//! How an edit of a name in the inspector becomes a change of the plan: a rename that rewires every
//! reference (`Command::Rename`), or a plain edit where there is nothing to rewire; and the two
//! list fields of a tool (its response codes, the session states it waits for). Pure, so that the
//! rules are tested without a browser; the view files only map events to them.

use plan_core::plan::Plan;

/// What an edit of a deliverable's key means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyEdit {
    /// Nothing changed (or only spaces around it).
    Nothing,
    /// A new name for the key: rename it everywhere, its conditions and templates too.
    Rename { from: String, to: String },
    /// A key the plan collects elsewhere already: this deliverable collects that one now, and the
    /// old key's references stay as they are (the checker says if they now point nowhere).
    Reuse(String),
}

/// The meaning of typing `typed` over the key `from`.
pub fn key_edit(plan: &Plan, from: &str, typed: &str) -> KeyEdit {
    let to = typed.trim();
    if to == from {
        return KeyEdit::Nothing;
    }
    let declared = plan
        .states
        .iter()
        .flat_map(|s| s.deliverables())
        .any(|d| d.key == to);
    if declared || from.is_empty() {
        KeyEdit::Reuse(to.to_string())
    } else {
        KeyEdit::Rename {
            from: from.to_string(),
            to: to.to_string(),
        }
    }
}

/// The codes of `typed` (comma-separated) that `existing` does not have yet, in the order typed,
/// each once.
pub fn added_codes(existing: &[String], typed: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for code in typed.split(',').map(str::trim).filter(|c| !c.is_empty()) {
        if !existing.iter().any(|c| c == code) && !out.iter().any(|c| c == code) {
            out.push(code.to_string());
        }
    }
    out
}

/// One box of a "only while one of these session states is on" checklist (a tool's, an
/// evaluation's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    pub id: String,
    /// The title to show (the id when the state has none, or is not declared).
    pub label: String,
    pub checked: bool,
    /// Chosen but not declared among the session states: shown so it can be unticked.
    pub declared: bool,
}

/// The checklist of `chosen` session state ids: every session state in the plan's order, then any
/// chosen id that is not declared.
pub fn checklist(plan: &Plan, chosen: &[String]) -> Vec<Gate> {
    let on = |id: &str| chosen.iter().any(|a| a == id);
    let mut out: Vec<Gate> = plan
        .session_states
        .iter()
        .map(|s| Gate {
            id: s.id.clone(),
            label: if s.title.is_empty() {
                s.id.clone()
            } else {
                s.title.clone()
            },
            checked: on(&s.id),
            declared: true,
        })
        .collect();
    for id in chosen {
        if plan.session_state(id).is_none() && !out.iter().any(|g| &g.id == id) {
            out.push(Gate {
                id: id.clone(),
                label: id.clone(),
                checked: true,
                declared: false,
            });
        }
    }
    out
}

/// `chosen` after ticking (`on`) or unticking `id`: in the checklist's order.
pub fn ticked(plan: &Plan, chosen: &[String], id: &str, on: bool) -> Vec<String> {
    checklist(plan, chosen)
        .into_iter()
        .filter(|g| if g.id == id { on } else { g.checked })
        .map(|g| g.id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::parse_plan;
    use serde_json::json;

    fn plan() -> Plan {
        parse_plan(
            &json!({
                "id": "p", "title": "P", "start_state_id": "a",
                "session_states": [
                    {"id": "verified", "title": "Identity verified", "type": "boolean"},
                    {"id": "vip", "type": "prompt", "prompt": "Be kind."}
                ],
                "tools": [{"name": "refund", "response_codes": ["OK"], "available_when": ["vip", "gone"]}],
                "states": [{"id": "a", "title": "A", "type": "strict", "instructions": "x",
                    "tasks": [{"id": "t", "description": "d", "instruction": "i",
                        "deliverables": [{"key": "email"}, {"key": "phone"}]}],
                    "transitions": []}]
            })
            .to_string(),
        )
        .expect("the plan parses")
    }

    #[test]
    fn a_new_key_name_is_a_rename_and_a_known_one_is_collected_again() {
        let p = plan();
        assert_eq!(key_edit(&p, "email", " email "), KeyEdit::Nothing);
        assert_eq!(
            key_edit(&p, "email", "mail"),
            KeyEdit::Rename {
                from: "email".into(),
                to: "mail".into()
            }
        );
        assert_eq!(
            key_edit(&p, "email", "phone"),
            KeyEdit::Reuse("phone".into())
        );
        assert_eq!(key_edit(&p, "", "mail"), KeyEdit::Reuse("mail".into()));
    }

    #[test]
    fn added_codes_skip_the_known_ones_and_repeats() {
        let existing = vec!["OK".to_string()];
        assert_eq!(
            added_codes(&existing, "OK, DENIED,, LATER, DENIED"),
            vec!["DENIED".to_string(), "LATER".to_string()]
        );
        assert!(added_codes(&existing, " , ").is_empty());
    }

    #[test]
    fn the_checklist_lists_every_session_state_and_keeps_an_undeclared_one_to_untick() {
        let p = plan();
        let chosen = p.tools[0].available_when.clone();
        let g = checklist(&p, &chosen);
        let shown: Vec<(&str, &str, bool, bool)> = g
            .iter()
            .map(|g| (g.id.as_str(), g.label.as_str(), g.checked, g.declared))
            .collect();
        assert_eq!(
            shown,
            vec![
                ("verified", "Identity verified", false, true),
                ("vip", "vip", true, true),
                ("gone", "gone", true, false)
            ]
        );
        assert_eq!(
            ticked(&p, &chosen, "verified", true),
            vec!["verified", "vip", "gone"]
        );
        assert_eq!(ticked(&p, &chosen, "gone", false), vec!["vip"]);
    }
}
