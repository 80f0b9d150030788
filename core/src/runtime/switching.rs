//! Session states at run time (`docs/session-states.md`, "At run time"): their start, switching
//! with its cascade and exclusivity, value changes, the changes of effects and entries, and the
//! auto rules. Every change is an event saying who made it.
//!
//! One rule holds after every function here: a nested state is active only while its parent is.
//! Switching on walks up first (ancestors on, from the top, each applying its own exclusivity);
//! switching off walks down (every descendant off).

use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use super::evaluate::{show, Context};
use super::event::{ChangedBy, Event, What};
use super::session::Session;
use crate::coerce::coerce_session;
use crate::plan::{Activation, Plan, SessionChange, SessionState, SessionType, State};
use crate::template::Lookup;

/// A session state's value (`null`: none) and flag, as a session holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionValue {
    /// Its value (`null` when it has none).
    pub value: Value,
    /// Whether it is active.
    pub active: bool,
}

/// A value or flag set by the author before a conversation starts (a preset) or during it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// `Some(None)` clears the value.
    #[serde(
        default,
        deserialize_with = "crate::session_state::present",
        skip_serializing_if = "Option::is_none"
    )]
    pub value: Option<Option<Value>>,
    /// Its new flag, when it is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}

/// Turn 0: every state gets its declared value (or none) and is inactive; then the initially
/// active one is switched on.
pub(super) fn begin(plan: &Plan, s: &mut Session, events: &mut Vec<Event>) {
    s.session_states = plan
        .session_states
        .iter()
        .map(|st| {
            let value = st
                .value
                .as_ref()
                .and_then(|v| coerce_session(v, st))
                .unwrap_or(Value::Null);
            (
                st.id.clone(),
                SessionValue {
                    value,
                    active: false,
                },
            )
        })
        .collect();
    if let Some(first) = plan.session_states.iter().find(|st| st.initially_active) {
        switch(plan, s, &first.id, true, ChangedBy::Start, events);
    }
}

/// Whether session state `id` is active in `s`.
pub fn is_active(s: &Session, id: &str) -> bool {
    s.session_states.get(id).is_some_and(|v| v.active)
}

/// Switches `id` on or off with the cascade; returns whether anything changed.
pub(super) fn switch(
    plan: &Plan,
    s: &mut Session,
    id: &str,
    on: bool,
    by: ChangedBy,
    events: &mut Vec<Event>,
) -> bool {
    if plan.session_state(id).is_none() || is_active(s, id) == on {
        return false;
    }
    if on {
        for ancestor in plan.session_ancestors(id).into_iter().rev() {
            if !is_active(s, &ancestor.id) {
                flag(plan, s, ancestor, true, ChangedBy::Cascade, events);
            }
        }
        if let Some(me) = plan.session_state(id) {
            flag(plan, s, me, true, by, events);
        }
    } else {
        if let Some(me) = plan.session_state(id) {
            flag(plan, s, me, false, by, events);
        }
        for d in plan.session_descendants(id) {
            if is_active(s, &d.id) {
                flag(plan, s, d, false, ChangedBy::Cascade, events);
            }
        }
    }
    true
}

/// Sets one flag and says so; switching on also switches off the active exclusive peers (and
/// with them their descendants).
fn flag(
    plan: &Plan,
    s: &mut Session,
    st: &SessionState,
    on: bool,
    by: ChangedBy,
    events: &mut Vec<Event>,
) {
    if let Some(v) = s.session_states.get_mut(&st.id) {
        v.active = on;
    }
    let text = format!(
        "{} {} ({})",
        st.id,
        if on { "switched on" } else { "switched off" },
        by.describe()
    );
    events.push(Event::new(
        s.turn,
        What::SessionStateChanged {
            session_state: st.id.clone(),
            value: None,
            active: Some(on),
            by,
        },
        text,
    ));
    if on && st.activation == Activation::Exclusive {
        for peer in plan.session_peers(&st.id) {
            if peer.activation == Activation::Exclusive && is_active(s, &peer.id) {
                switch(plan, s, &peer.id, false, ChangedBy::Cascade, events);
            }
        }
    }
}

/// Sets the value of `id` to `value` (already coerced; `null` clears); returns whether it changed.
pub(super) fn set_value(
    s: &mut Session,
    id: &str,
    value: Value,
    by: ChangedBy,
    events: &mut Vec<Event>,
) -> bool {
    let Some(v) = s.session_states.get_mut(id) else {
        return false;
    };
    if super::evaluate::equal(&v.value, &value) {
        return false;
    }
    v.value = value.clone();
    let text = if value.is_null() {
        format!("{id} cleared ({})", by.describe())
    } else {
        format!("{id} = {} ({})", show(&value), by.describe())
    };
    events.push(Event::new(
        s.turn,
        What::SessionStateChanged {
            session_state: id.to_string(),
            value: Some(value),
            active: None,
            by,
        },
        text,
    ));
    true
}

/// The value a change's `value` or `add` gives `st`, or why it cannot; `Ok(None)` when it sets no
/// value.
pub fn changed_value(
    st: &SessionState,
    current: &Value,
    value: &Option<Option<Value>>,
    add: Option<&Number>,
) -> Result<Option<Value>, String> {
    if st.kind == SessionType::Prompt && (value.is_some() || add.is_some()) {
        return Err(format!("{} is a prompt state: it has no value", st.id));
    }
    match (value, add) {
        (Some(None), _) | (Some(Some(Value::Null)), _) => Ok(Some(Value::Null)),
        (Some(Some(v)), _) => coerce_session(v, st).map(Some).ok_or_else(|| {
            let list = if st.list { "a list of " } else { "" };
            match (&st.enum_values, st.kind) {
                (Some(values), SessionType::Enum) => {
                    format!("\"{}\" is not {list}one of {}", show(v), values.join(", "))
                }
                _ => format!("\"{}\" is not {list}{}", show(v), type_words(st.kind)),
            }
        }),
        (None, Some(n)) => {
            if st.kind != SessionType::Number || st.list {
                return Err(format!(
                    "{} is not a number state, so nothing can be added",
                    st.id
                ));
            }
            let have = match current {
                Value::Number(c) => c.as_f64().unwrap_or(0.0),
                _ => 0.0,
            };
            let sum = have + n.as_f64().unwrap_or(0.0);
            Ok(Some(number(sum)))
        }
        (None, None) => Ok(None),
    }
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::Number((x as i64).into())
    } else {
        Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

fn type_words(kind: SessionType) -> &'static str {
    match kind {
        SessionType::Boolean => "true or false",
        SessionType::Number => "a number",
        SessionType::String => "text",
        SessionType::Enum => "one of its values",
        SessionType::Prompt => "a value",
    }
}

/// Applies one change of an effect or an entry: its value, then its flag. A change the plan's
/// checker would refuse (an unknown state, a value that does not fit) does nothing.
pub(super) fn apply_change(
    plan: &Plan,
    s: &mut Session,
    change: &SessionChange,
    by: ChangedBy,
    events: &mut Vec<Event>,
) {
    let Some(st) = plan.session_state(&change.session_state) else {
        return;
    };
    let current = s
        .session_states
        .get(&st.id)
        .map_or(Value::Null, |v| v.value.clone());
    if let Ok(Some(value)) = changed_value(st, &current, &change.value, change.add.as_ref()) {
        set_value(s, &st.id, value, by, events);
    }
    if let Some(on) = change.active {
        switch(plan, s, &st.id, on, by, events);
    }
}

/// Step 4a (and once more after an entry): one pass over the session states in plan order,
/// `auto_deactivate` winning over `auto_activate`; each rule sees the changes before it.
pub(super) fn auto_rules(plan: &Plan, state: &State, s: &mut Session, events: &mut Vec<Event>) {
    for st in &plan.session_states {
        if st.auto_activate.is_none() && st.auto_deactivate.is_none() {
            continue;
        }
        let holds = |c: &Option<crate::condition::Condition>, s: &Session| {
            c.as_ref().is_some_and(|c| {
                c.read().is_ok_and(|check| {
                    Context {
                        plan,
                        state,
                        session: s,
                        assume_goal_done: false,
                    }
                    .eval(&check)
                    .is_some()
                })
            })
        };
        if holds(&st.auto_deactivate, s) {
            switch(plan, s, &st.id, false, ChangedBy::Auto, events);
        } else if holds(&st.auto_activate, s) {
            switch(plan, s, &st.id, true, ChangedBy::Auto, events);
        }
    }
}

/// What templates read from a session.
impl Lookup for Session {
    fn session_value(&self, id: &str) -> Option<&Value> {
        self.session_states
            .get(id)
            .map(|v| &v.value)
            .filter(|v| !v.is_null())
    }

    fn is_active(&self, id: &str) -> bool {
        is_active(self, id)
    }

    fn deliverable(&self, key: &str) -> Option<&Value> {
        self.deliverables.get(key).map(|r| &r.value)
    }
}

/// Applies an author's preset or switch to `id` (`by: author`): a value coerced as the agent's
/// would be, then the flag. Refused with the reason when the state is unknown or the value does
/// not fit.
pub fn set_by_author(
    plan: &Plan,
    s: &mut Session,
    id: &str,
    preset: &Preset,
    events: &mut Vec<Event>,
) -> Result<(), String> {
    let st = plan
        .session_state(id)
        .ok_or_else(|| format!("the plan has no session state '{id}'"))?;
    let current = s
        .session_states
        .get(id)
        .map_or(Value::Null, |v| v.value.clone());
    if let Some(value) = changed_value(st, &current, &preset.value, None)? {
        set_value(s, id, value, ChangedBy::Author, events);
    }
    if let Some(on) = preset.active {
        switch(plan, s, id, on, ChangedBy::Author, events);
    }
    Ok(())
}
