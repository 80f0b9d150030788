//! Where a new test conversation begins, decided without a browser: what it runs (the draft, the
//! live version, a version), the state it begins in, the values known and the session states set
//! from the start. The view maps each event to one [`BeginChange`]; [`summary`] is the line the
//! folded beginning shows.

use plan_core::plan::{Plan, SessionType};
use plan_core::runtime::{show, Start};
use plan_core::Revision;
use serde_json::Value;

/// One change to how a new conversation begins.
#[derive(Debug, Clone, PartialEq)]
pub enum BeginChange {
    /// Run another document.
    Run(Revision),
    /// Begin in this state; none: the start state.
    State(Option<String>),
    /// A value known from the start (trimmed; an empty key changes nothing).
    Know { key: String, value: String },
    /// A known value forgotten.
    Forget(String),
    /// A session state on, off, or as the plan says (none).
    SessionActive { id: String, active: Option<bool> },
    /// A session state's value as typed; empty: as the plan says.
    SessionValue { id: String, typed: String },
}

/// Makes `change` to `start` (all but [`BeginChange::Run`], which is not about where it begins).
pub fn apply(start: &mut Start, change: BeginChange) {
    match change {
        BeginChange::Run(_) => {}
        BeginChange::State(state) => start.state = state,
        BeginChange::Know { key, value } => {
            if !key.trim().is_empty() {
                let value = Value::String(value.trim().to_string());
                start.deliverables.insert(key.trim().to_string(), value);
            }
        }
        BeginChange::Forget(key) => {
            start.deliverables.remove(&key);
        }
        BeginChange::SessionActive { id, active } => {
            start.session_states.entry(id.clone()).or_default().active = active;
            forget_unset(start, &id);
        }
        BeginChange::SessionValue { id, typed } => {
            let value =
                (!typed.trim().is_empty()).then(|| Some(Value::String(typed.trim().into())));
            start.session_states.entry(id.clone()).or_default().value = value;
            forget_unset(start, &id);
        }
    }
}

/// A session state set to nothing is as the plan says: no preset at all.
fn forget_unset(start: &mut Start, id: &str) {
    if start
        .session_states
        .get(id)
        .is_some_and(|p| p.active.is_none() && p.value.is_none())
    {
        start.session_states.remove(id);
    }
}

/// One session state's row of presets: whether it is set on or off (`"on"`, `"off"`, `""` as the
/// plan says), its value as typed, and whether it is a prompt state (which holds no value).
#[derive(Debug, Clone, PartialEq)]
pub struct PresetRow {
    pub id: String,
    /// What the author calls it: its title, else its id.
    pub title: String,
    pub active: &'static str,
    pub value: String,
    pub prompt: bool,
}

/// The preset rows of every session state of `plan`, as `start` sets them.
pub fn preset_rows(plan: &Plan, start: &Start) -> Vec<PresetRow> {
    plan.session_states
        .iter()
        .map(|st| {
            let preset = start.session_states.get(&st.id);
            PresetRow {
                id: st.id.clone(),
                title: if st.title.trim().is_empty() {
                    st.id.clone()
                } else {
                    st.title.clone()
                },
                active: match preset.and_then(|p| p.active) {
                    Some(true) => "on",
                    Some(false) => "off",
                    None => "",
                },
                value: preset
                    .and_then(|p| p.value.clone())
                    .flatten()
                    .map(|v| show(&v))
                    .unwrap_or_default(),
                prompt: st.kind == SessionType::Prompt,
            }
        })
        .collect()
}

/// What the folded beginning says: "Testing the draft from Billing, 2 values known".
pub fn summary(run: Revision, start: &Start, title_of: impl Fn(&str) -> Option<String>) -> String {
    let at = match &start.state {
        Some(id) => title_of(id).unwrap_or_else(|| id.clone()),
        None => "the start state".to_string(),
    };
    let what = match run {
        Revision::Draft => "the draft".to_string(),
        Revision::Live => "the live version".to_string(),
        Revision::Version(n) => format!("version {n}"),
    };
    let known = match start.deliverables.len() {
        0 => String::new(),
        1 => ", 1 value known".to_string(),
        n => format!(", {n} values known"),
    };
    format!("Testing {what} from {at}{known}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(id: &str, active: Option<bool>, typed: &str) -> [BeginChange; 2] {
        [
            BeginChange::SessionActive {
                id: id.into(),
                active,
            },
            BeginChange::SessionValue {
                id: id.into(),
                typed: typed.into(),
            },
        ]
    }

    #[test]
    fn values_known_are_trimmed_and_an_empty_key_adds_nothing() {
        let mut start = Start::default();
        apply(
            &mut start,
            BeginChange::Know {
                key: " name ".into(),
                value: " Ann ".into(),
            },
        );
        apply(
            &mut start,
            BeginChange::Know {
                key: "  ".into(),
                value: "lost".into(),
            },
        );
        assert_eq!(start.deliverables.len(), 1);
        assert_eq!(start.deliverables["name"], "Ann");
        assert_eq!(
            summary(Revision::Draft, &start, |_| None),
            "Testing the draft from the start state, 1 value known"
        );
        apply(&mut start, BeginChange::Forget("name".into()));
        assert!(start.is_plain());
    }

    #[test]
    fn a_session_state_set_back_to_as_the_plan_says_leaves_no_preset() {
        let mut start = Start::default();
        for change in session("vip", Some(true), "gold") {
            apply(&mut start, change);
        }
        let plan = plan_core::parse_plan(
            r#"{"id": "p", "title": "P", "session_states": [{"id": "vip", "type": "string"}],
                "states": [{"id": "a", "title": "A"}]}"#,
        )
        .unwrap();
        let rows = preset_rows(&plan, &start);
        assert_eq!(
            (rows[0].active, rows[0].value.as_str(), rows[0].prompt),
            ("on", "gold", false)
        );
        for change in session("vip", None, " ") {
            apply(&mut start, change);
        }
        assert!(start.session_states.is_empty(), "{start:?}");
    }

    #[test]
    fn the_folded_beginning_names_the_version_and_the_states_title() {
        let start = Start {
            state: Some("billing".into()),
            ..Start::default()
        };
        let title = |id: &str| (id == "billing").then(|| "Billing".to_string());
        assert_eq!(
            summary(Revision::Version(2), &start, title),
            "Testing version 2 from Billing"
        );
    }
}
