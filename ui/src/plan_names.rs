//! The names a plan declares, as the inspector's pickers offer them: its states (by title),
//! its deliverable keys (each once, as first declared), its tools and its session states.
//!
//! One `Memo` for the whole window ([`memo()`]), found through the context. It follows the plan
//! without reading it whole: states an edit did not touch are the very states of the plan before
//! (shared, see `Plan::states`), so only the states an edit made anew are compared, and when
//! their names did not change the names are the same as before and nothing that shows them is
//! drawn again. Typing a description in one state of a 10,000-state plan compares one state.

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;
use plan_core::plan::{Deliverable, DeliverableType, Plan, SessionState, SessionType, State, Tool};

use crate::editor::Editor;

/// A state as pickers name it.
#[derive(Debug, Clone, PartialEq)]
pub struct StateName {
    pub id: String,
    pub title: String,
}

impl StateName {
    /// What a list of states shows: the title, as the author wrote it; the id (the format's name,
    /// kept under Advanced) only where the title cannot tell it apart: no title, or one that
    /// another state has too ("Confirm (confirm-2)").
    pub fn label(&self, all: &[StateName]) -> String {
        let title = self.title.trim();
        let shared = all
            .iter()
            .filter(|s| s.title.trim() == title)
            .nth(1)
            .is_some();
        match (title.is_empty(), shared) {
            (true, _) => self.id.clone(),
            (false, true) => format!("{title} ({})", self.id),
            (false, false) => title.to_string(),
        }
    }
}

/// Every state's [`StateName::label`], in plan order.
pub fn state_labels(all: &[StateName]) -> Vec<(String, String)> {
    all.iter().map(|s| (s.id.clone(), s.label(all))).collect()
}

/// A deliverable key as pickers and conditions need it: its first declaration's type and choices.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyName {
    pub key: String,
    pub kind: DeliverableType,
    pub enum_values: Option<Vec<String>>,
}

impl KeyName {
    fn of(d: &Deliverable) -> KeyName {
        KeyName {
            key: d.key.clone(),
            kind: d.kind,
            enum_values: d.enum_values.clone(),
        }
    }
}

/// The names of one plan. Cheap to copy (shared parts), and equal to another when its parts are
/// the same parts, which is what [`PlanNames::follow`] keeps when nothing was renamed.
#[derive(Debug, Clone, Default)]
pub struct PlanNames {
    states: Arc<Vec<StateName>>,
    keys: Arc<Keys>,
    tools: Arc<Vec<Tool>>,
    session_states: Arc<Vec<SessionState>>,
}

#[derive(Debug, Default)]
struct Keys {
    /// In plan order of their first declaration.
    list: Vec<KeyName>,
    at: HashMap<String, usize>,
}

impl PartialEq for PlanNames {
    fn eq(&self, other: &PlanNames) -> bool {
        Arc::ptr_eq(&self.states, &other.states)
            && Arc::ptr_eq(&self.keys, &other.keys)
            && Arc::ptr_eq(&self.tools, &other.tools)
            && Arc::ptr_eq(&self.session_states, &other.session_states)
    }
}

impl PlanNames {
    /// The names of `plan`, read whole.
    pub fn of(plan: &Plan) -> PlanNames {
        PlanNames {
            states: Arc::new(state_names(plan)),
            keys: Arc::new(keys_of(plan)),
            tools: Arc::new(plan.tools.clone()),
            session_states: Arc::new(plan.session_states.clone()),
        }
    }

    /// The names of `plan`, which an edit made from the plan whose states were `before` and whose
    /// names are `self`: each part kept when it did not change.
    pub fn follow(&self, before: &[Arc<State>], plan: &Plan) -> PlanNames {
        let same_states = before.len() == plan.states.len()
            && before
                .iter()
                .zip(&plan.states)
                .all(|(a, b)| Arc::ptr_eq(a, b) || same_names(a, b));
        let (states, keys) = if same_states {
            (self.states.clone(), self.keys.clone())
        } else {
            (Arc::new(state_names(plan)), Arc::new(keys_of(plan)))
        };
        let tools = if *self.tools == plan.tools {
            self.tools.clone()
        } else {
            Arc::new(plan.tools.clone())
        };
        let session_states = if *self.session_states == plan.session_states {
            self.session_states.clone()
        } else {
            Arc::new(plan.session_states.clone())
        };
        PlanNames {
            states,
            keys,
            tools,
            session_states,
        }
    }

    pub fn states(&self) -> &[StateName] {
        &self.states
    }

    /// Every key once, optionally only those of one type, in plan order.
    pub fn keys(&self, kind: Option<DeliverableType>) -> impl Iterator<Item = &KeyName> {
        self.keys
            .list
            .iter()
            .filter(move |k| kind.is_none_or(|kind| k.kind == kind))
    }

    /// The first declaration of `key`.
    pub fn key(&self, key: &str) -> Option<&KeyName> {
        self.keys.at.get(key).map(|&i| &self.keys.list[i])
    }

    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    pub fn session_states(&self) -> &[SessionState] {
        &self.session_states
    }

    /// The session states a value comparison can read: every one but prompt states.
    pub fn valued_session_states(&self) -> impl Iterator<Item = &SessionState> {
        self.session_states
            .iter()
            .filter(|s| s.kind != SessionType::Prompt)
    }

    /// The keys containing `typed` (any case), sorted, at most `limit`: what a key field offers
    /// while it is edited.
    pub fn key_suggestions(&self, typed: &str, limit: usize) -> Vec<String> {
        let typed = typed.to_lowercase();
        let mut keys: Vec<&str> = self
            .keys
            .list
            .iter()
            .map(|k| k.key.as_str())
            .filter(|k| !k.is_empty() && *k != typed && k.to_lowercase().contains(&typed))
            .collect();
        keys.sort_unstable();
        keys.truncate(limit);
        keys.into_iter().map(str::to_string).collect()
    }
}

fn state_names(plan: &Plan) -> Vec<StateName> {
    plan.states
        .iter()
        .map(|s| StateName {
            id: s.id.clone(),
            title: s.title.clone(),
        })
        .collect()
}

fn keys_of(plan: &Plan) -> Keys {
    let mut keys = Keys::default();
    for d in plan.states.iter().flat_map(|s| s.deliverables()) {
        if !keys.at.contains_key(&d.key) {
            keys.at.insert(d.key.clone(), keys.list.len());
            keys.list.push(KeyName::of(d));
        }
    }
    keys
}

/// Whether two states name the same things: id, title, and their deliverables' keys, types and
/// choices in order.
fn same_names(a: &State, b: &State) -> bool {
    a.id == b.id
        && a.title == b.title
        && a.deliverables().count() == b.deliverables().count()
        && a.deliverables()
            .zip(b.deliverables())
            .all(|(x, y)| x.key == y.key && x.kind == y.kind && x.enum_values == y.enum_values)
}

/// The open plan's names, kept up to date: made again only when an edit changes one.
pub fn memo(editor: Editor) -> Memo<PlanNames> {
    let before: StoredValue<Vec<Arc<State>>> = StoredValue::new(Vec::new());
    Memo::new(move |previous: Option<&PlanNames>| {
        crate::timeline::timed("names", || {
            editor.plan.with(|p| {
                let Some(p) = p else {
                    before.set_value(Vec::new());
                    return PlanNames::default();
                };
                let names = before.with_value(|b| match previous {
                    Some(previous) if !b.is_empty() => previous.follow(b, p),
                    _ => PlanNames::of(p),
                });
                // A copy of the plan's list of states: one pointer a state.
                before.set_value(p.states.clone());
                names
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::edit::{apply, Command};

    fn replace(plan: &Plan, id: &str, f: impl FnOnce(&mut State)) -> Plan {
        let mut s = plan.state(id).unwrap().clone();
        f(&mut s);
        apply(
            plan,
            &Command::ReplaceState {
                id: id.into(),
                state: Box::new(s),
            },
        )
        .unwrap()
        .plan
    }

    #[test]
    fn keys_are_listed_once_in_plan_order_with_their_first_declaration() {
        let plan = plan_core::synthetic::plan(50);
        let names = PlanNames::of(&plan);
        let all: Vec<&str> = names.keys(None).map(|k| k.key.as_str()).collect();
        let mut seen = std::collections::HashSet::new();
        assert!(all.iter().all(|k| seen.insert(*k)), "each key once");
        let first = plan.states[0].deliverables().next().unwrap();
        assert_eq!(all[0], first.key);
        assert_eq!(names.key(&first.key).unwrap().kind, first.kind);
        assert!(names.key("no-such-key").is_none());
        assert!(names
            .keys(Some(DeliverableType::Number))
            .all(|k| k.kind == DeliverableType::Number));
    }

    #[test]
    fn an_edit_that_renames_nothing_keeps_the_names_as_they_were() {
        let plan = plan_core::synthetic::plan(200);
        let names = PlanNames::of(&plan);
        let typed = replace(&plan, "s7", |s| s.description.push_str("more words"));
        let after = names.follow(&plan.states, &typed);
        assert_eq!(
            after, names,
            "the same parts: nothing that shows them is drawn again"
        );
        assert!(Arc::ptr_eq(&after.states, &names.states));
    }

    #[test]
    fn an_edit_that_renames_makes_the_names_again() {
        let plan = plan_core::synthetic::plan(200);
        let names = PlanNames::of(&plan);
        let retitled = replace(&plan, "s7", |s| s.title = "Billing".into());
        let after = names.follow(&plan.states, &retitled);
        assert_ne!(after, names);
        assert_eq!(after.states()[7].title, "Billing");
        assert!(after.states() == PlanNames::of(&retitled).states());
        let rekeyed = replace(&plan, "s7", |s| {
            s.tasks[0].deliverables[0].key = "fresh".into()
        });
        let after = names.follow(&plan.states, &rekeyed);
        assert!(after.key("fresh").is_some());
        let mut with_tool = plan.clone();
        with_tool.tools.push(Tool {
            name: "lookup".into(),
            description: String::new(),
            response_codes: vec!["FOUND".into()],
            available_when: Vec::new(),
        });
        let after = names.follow(&plan.states, &with_tool);
        assert_eq!(after.tools().len(), names.tools().len() + 1);
        assert!(Arc::ptr_eq(&after.keys, &names.keys), "the keys kept");
    }

    #[test]
    fn key_suggestions_match_what_is_typed_without_repeats_and_are_capped() {
        let plan = plan_core::synthetic::plan(100);
        let names = PlanNames::of(&plan);
        let all = names.key_suggestions("", 40);
        assert_eq!(all.len(), 40, "capped: the plan has 300 keys");
        assert!(all.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
        let topics = names.key_suggestions("topic_4", 40);
        assert_eq!(topics[0], "topic_40", "the key typed is not offered again");
        assert!(topics.iter().all(|k| k.contains("topic_4")));
        assert_eq!(topics.len(), 10, "topic_40 to topic_49");
        assert_eq!(
            names.key_suggestions("score_99", 40),
            Vec::<String>::new(),
            "the key itself is not offered"
        );
    }

    #[test]
    fn pickers_show_titles_and_an_id_only_where_titles_cannot_tell_states_apart() {
        let name = |id: &str, title: &str| StateName {
            id: id.into(),
            title: title.into(),
        };
        let all = [
            name("order", "Order"),
            name("confirm", "Confirm"),
            name("confirm-2", "Confirm"),
            name("new-state", " "),
        ];
        assert_eq!(
            state_labels(&all),
            [
                ("order".to_string(), "Order".to_string()),
                ("confirm".into(), "Confirm (confirm)".into()),
                ("confirm-2".into(), "Confirm (confirm-2)".into()),
                ("new-state".into(), "new-state".into()),
            ]
        );
    }
}
