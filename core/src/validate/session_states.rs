//! The checks of `docs/session-states.md`: the session states themselves (ids, `parent`,
//! `initially_active`, declared values, auto rules), the changes of effects and entries, the
//! conditions that read them, templates, tool gating, and `session-state-never-active`.
//!
//! What the never-active rule needs is gathered while the rest of the plan is walked (which states
//! something relies on being active, which something can switch on) and answered at the end
//! without a graph: a state can be switched on when something switches it or one of its
//! descendants on, since switching a nested state on switches on its ancestors.

use serde_json::Value;

use super::{at, Code, Location, Validator};
use crate::coerce::{coerce_session, coerce_to};
use crate::condition::{Check, Condition, SessionTest};
use crate::plan::{SessionChange, SessionState, SessionType};
use crate::template::{NameRef, Template};

/// What the session checks gather during the walk, by session state index.
#[derive(Default)]
pub(super) struct Uses {
    /// Something relies on it being active (a prompt state, `isActive`, `session_state_active`,
    /// `available_when`).
    pub relied: Vec<bool>,
    /// Something can switch it on directly.
    pub switched_on: Vec<bool>,
}

impl Uses {
    pub fn new(n: usize) -> Uses {
        Uses {
            relied: vec![false; n],
            switched_on: vec![false; n],
        }
    }

    /// What another run of the checks gathered, added to this one's.
    pub fn join(&mut self, other: Uses) {
        for (mine, theirs) in [
            (&mut self.relied, other.relied),
            (&mut self.switched_on, other.switched_on),
        ] {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m |= t;
            }
        }
    }
}

impl<'p> Validator<'p, '_> {
    /// The template in `text` at `path`: its syntax and the names it uses.
    pub(super) fn template(
        &mut self,
        text: &'p str,
        path: &dyn Fn() -> String,
        state_id: Option<&str>,
    ) {
        if Template::is_plain(text) {
            return;
        }
        let loc = || Location {
            path: path(),
            state_id: state_id.map(str::to_string),
            ..Location::default()
        };
        // The names are checked as the scan meets them: no list of them is built.
        let scanned = Template::scan(text, &mut |name, is_active| {
            match name {
            NameRef::SessionState(id) => match self.session_of.get(id) {
                Some(&k) => {
                    if is_active {
                        self.uses.relied[k] = true;
                    }
                }
                None => self.push(
                    Code::UnknownSessionState,
                    format!("The text at {} uses the session state '{id}', which the plan does not declare. Declare it, or use a declared one.", path()),
                    loc(),
                ),
            },
            NameRef::Deliverable(key) => {
                if !self.declared.contains_key(key) {
                    self.push(
                        Code::UnknownDeliverableKey,
                        format!("The text at {} writes the key '{key}', but no state collects it. Pick a key the plan declares, or add '{key}' to a task.", path()),
                        loc(),
                    );
                }
            }
        }
        });
        if let Err(e) = scanned {
            self.push(
                Code::TemplateSyntax,
                format!("The text at {} cannot be read as a template: line {}, column {}: {}. Fix the tag, or write {{{{ \"{{{{\" }}}} for the characters themselves.", path(), e.line, e.column, e.message),
                loc(),
            );
        }
    }

    /// One change of an effect or an entry at `path`.
    pub(super) fn change(
        &mut self,
        change: &'p SessionChange,
        path: &dyn Fn() -> String,
        state_id: &str,
    ) {
        let loc = |suffix: &str| Location {
            path: format!("{}{suffix}", path()),
            state_id: Some(state_id.to_string()),
            ..Location::default()
        };
        let id = change.session_state.as_str();
        let Some(&k) = self.session_of.get(id) else {
            self.push(
                Code::UnknownSessionState,
                format!("A change sets the session state '{id}', which the plan does not declare. Declare it, or pick a declared one."),
                loc("/session_state"),
            );
            return;
        };
        if change.active == Some(true) {
            self.uses.switched_on[k] = true;
        }
        let st = &self.plan.session_states[k];
        let problem = match (&change.value, &change.add) {
            (Some(_), _) | (_, Some(_)) if st.kind == SessionType::Prompt => Some((
                if change.value.is_some() { "/value" } else { "/add" },
                format!("'{id}' is a prompt state: it has no value to set. Switch it on or off instead."),
            )),
            (Some(Some(v)), _) if !v.is_null() && !fits(v, st) => Some((
                "/value",
                format!("A change sets '{id}' to {v}, which does not fit it ({}). Use a value of that kind.", kind_words(st)),
            )),
            (None, Some(_)) if st.kind != SessionType::Number || st.list => Some((
                "/add",
                format!("A change adds to '{id}', which is not a number ({}). Set a value instead, or make '{id}' a number.", kind_words(st)),
            )),
            _ => None,
        };
        if let Some((field, message)) = problem {
            self.push(Code::SessionValueMismatch, message, loc(field));
        }
    }

    /// The meaning checks of a clean session-state condition; `config` is the config's path.
    pub(super) fn session_leaf(
        &mut self,
        check: &Check,
        name: &dyn Fn() -> String,
        config: &dyn Fn() -> String,
        loc: &dyn Fn(String) -> Location,
    ) {
        let (id, test) = match check {
            Check::SessionStateActive { id, .. } => (id, None),
            Check::SessionStateValue { id, test } => (id, Some(test)),
            _ => return,
        };
        let Some(&k) = self.session_of.get(*id) else {
            self.push(
                Code::UnknownSessionState,
                format!("{} reads the session state '{id}', which the plan does not declare. Declare it, or pick a declared one.", name()),
                loc(format!("{}/session_state", config())),
            );
            return;
        };
        let Some(test) = test else {
            self.uses.relied[k] = true;
            return;
        };
        let st = &self.plan.session_states[k];
        if let Some((field, why)) = comparison_problem(st, test) {
            self.push(
                Code::SessionValueMismatch,
                format!(
                    "{} compares '{id}' in a way that does not fit it: {why}.",
                    name()
                ),
                loc(format!("{}{field}", config())),
            );
        }
    }

    /// The plan's `session_states` and the tools' `available_when`, after the states.
    pub(super) fn session_states(&mut self) {
        let plan = self.plan;
        for (t, tool) in plan.tools.iter().enumerate() {
            for (w, id) in tool.available_when.iter().enumerate() {
                match self.session_of.get(id.as_str()) {
                    Some(&k) => self.uses.relied[k] = true,
                    None => self.push(
                        Code::UnknownSessionState,
                        format!("The tool '{}' is available only while '{id}' is active, but the plan declares no such session state. Declare it, or pick a declared one.", tool.name),
                        at(format!("/tools/{t}/available_when/{w}")),
                    ),
                }
            }
        }
        let mut first_initial: Option<&str> = None;
        for (i, st) in plan.session_states.iter().enumerate() {
            self.session_state(i, st, &mut first_initial);
        }
        self.never_active();
    }

    fn session_state(
        &mut self,
        i: usize,
        st: &'p SessionState,
        first_initial: &mut Option<&'p str>,
    ) {
        let here = |field: &str| at(format!("/session_states/{i}{field}"));
        let id = st.id.as_str();
        if self.session_of.get(id) != Some(&i) {
            self.push(
                Code::DuplicateSessionState,
                format!("The session state '{id}' is declared twice. Give each session state its own id."),
                here("/id"),
            );
        }
        if st.kind == SessionType::Prompt {
            self.uses.relied[i] = true;
        }
        if st.initially_active || st.agent_can_change || st.auto_activate.is_some() {
            self.uses.switched_on[i] = true;
        }
        if let Some(parent) = &st.parent {
            if !self.session_of.contains_key(parent.as_str()) {
                self.push(
                    Code::UnknownSessionState,
                    format!("The session state '{id}' is nested under '{parent}', which the plan does not declare. Pick a declared parent, or none."),
                    here("/parent"),
                );
            } else if self.on_parent_cycle(i) {
                self.push(
                    Code::SessionStateCycle,
                    format!("Following the parents of '{id}' comes back to '{id}'. Break the circle: one of them must be at the top."),
                    here("/parent"),
                );
            }
        }
        if st.initially_active {
            if st.parent.is_some() {
                self.push(
                    Code::NestedInitiallyActive,
                    format!("The session state '{id}' is nested under '{}' but is initially active; only a top-level state can be. Switch its parent on at the start instead.", st.parent.as_deref().unwrap_or_default()),
                    here("/initially_active"),
                );
            }
            match first_initial {
                None => *first_initial = Some(id),
                Some(first) => self.push(
                    Code::SeveralInitiallyActive,
                    format!("The session state '{id}' is initially active, but '{first}' already is; at most one can be. Turn one of them off."),
                    here("/initially_active"),
                ),
            }
        }
        if let Some(value) = &st.value {
            if st.kind != SessionType::Prompt && !value.is_null() && !fits(value, st) {
                self.push(
                    Code::SessionValueMismatch,
                    format!("The session state '{id}' starts with {value}, which does not fit it ({}). Use a value of that kind.", kind_words(st)),
                    here("/value"),
                );
            }
        }
        if let Some(prompt) = &st.prompt {
            self.template(prompt, &|| format!("/session_states/{i}/prompt"), None);
        }
        for (field, rule) in [
            ("auto_activate", &st.auto_activate),
            ("auto_deactivate", &st.auto_deactivate),
        ] {
            let Some(rule) = rule else { continue };
            let path = || format!("/session_states/{i}/{field}");
            let name = || format!("The rule '{field}' of '{id}'");
            self.standalone(rule, &path, &name);
        }
    }

    /// A condition that stands alone (a session state's rule, an interruption's condition), at
    /// `path`: its settings, and that what it names exists and fits.
    pub(super) fn standalone(
        &mut self,
        rule: &Condition,
        path: &dyn Fn() -> String,
        name: &dyn Fn() -> String,
    ) {
        self.condition(
            rule.condition_type,
            &rule.condition_config,
            name,
            &|pointer| at(format!("{}{pointer}", path())),
            |v, check, pointer| {
                let config = || format!("{}{pointer}/condition_config", path());
                v.rule_leaf(check, name, &config);
            },
        );
    }

    /// The checks of one condition of an auto rule: what it names exists and fits.
    fn rule_leaf(&mut self, check: &Check, name: &dyn Fn() -> String, config: &dyn Fn() -> String) {
        let loc = |path: String| at(path);
        match check {
            Check::SessionStateActive { .. } | Check::SessionStateValue { .. } => {
                self.session_leaf(check, name, config, &loc)
            }
            Check::DeliverableExists { .. }
            | Check::DeliverableValue { .. }
            | Check::DeliverableValueIn { .. }
            | Check::DeliverableValueNumeric { .. } => {
                self.key_leaf(check, name, config, &loc);
            }
            Check::ToolResult { .. } => {
                self.tool_leaf(check, name, config, &loc);
            }
            Check::VisitCountExceeded { .. } => self.visit_leaf(check, name, config, &loc),
            _ => {}
        }
    }

    /// Whether following `parent` from state `i` comes back to `i`.
    fn on_parent_cycle(&self, i: usize) -> bool {
        let states = &self.plan.session_states;
        let mut at = i;
        for _ in 0..states.len() {
            let Some(next) = states[at]
                .parent
                .as_deref()
                .and_then(|p| self.session_of.get(p))
            else {
                return false;
            };
            if *next == i {
                return true;
            }
            at = *next;
        }
        false
    }

    /// `session-state-never-active`: relied on, and neither it nor a descendant can be switched on.
    fn never_active(&mut self) {
        let states = &self.plan.session_states;
        let mut can = vec![false; states.len()];
        for j in 0..states.len() {
            if !self.uses.switched_on[j] {
                continue;
            }
            // Switching j on switches on its ancestors: walk up, at most once around a cycle.
            let mut at = Some(j);
            let mut steps = 0;
            while let Some(k) = at {
                if can[k] && k != j || steps > states.len() {
                    break;
                }
                can[k] = true;
                steps += 1;
                at = states[k]
                    .parent
                    .as_deref()
                    .and_then(|p| self.session_of.get(p).copied());
            }
        }
        for (i, st) in states.iter().enumerate() {
            if self.uses.relied[i] && !can[i] && self.session_of.get(st.id.as_str()) == Some(&i) {
                self.push(
                    Code::SessionStateNeverActive,
                    format!("Something relies on '{}' being active, but nothing can switch it on: it is not initially active, has no automatic rule, no change switches it on, the agent may not change it, and none of its nested states can be switched on. Add one of these, or stop relying on it.", st.id),
                    at(format!("/session_states/{i}")),
                );
            }
        }
    }
}

/// How a `session_state_value` comparison misfits the state, with the config field to point at.
fn comparison_problem(st: &SessionState, test: &SessionTest) -> Option<(String, String)> {
    let op = test.operator();
    let Some(kind) = st.value_type() else {
        return Some((
            "/session_state".into(),
            format!("'{}' is a prompt state and has no value", st.id),
        ));
    };
    let number = matches!(kind, crate::plan::DeliverableType::Number);
    if test.is_ordering() && (!number || st.list) {
        return Some((
            "/operator".into(),
            format!(
                "\"{op}\" compares numbers, and '{}' is {}",
                st.id,
                kind_words(st)
            ),
        ));
    }
    if matches!(test, SessionTest::Contains(_)) && !st.list {
        return Some((
            "/operator".into(),
            format!(
                "\"contains\" is for a list, and '{}' holds one value (use \"eq\" or \"in\")",
                st.id
            ),
        ));
    }
    if matches!(test, SessionTest::In(_)) && st.list {
        return Some((
            "/operator".into(),
            format!(
                "\"in\" is for one value, and '{}' is a list (use \"contains\")",
                st.id
            ),
        ));
    }
    let one = |v: &Value| coerce_to(v, kind, st.enum_values.as_deref()).is_some();
    for (field, v) in test.values() {
        let fits = match test {
            SessionTest::Eq(_) | SessionTest::Neq(_) if st.list => {
                v.is_array() && coerce_session(v, st).is_some()
            }
            _ => one(v),
        };
        if !fits {
            return Some((
                field,
                format!(
                    "{v} is not {}",
                    if st.list && !matches!(test, SessionTest::Contains(_)) {
                        format!("a list of {}", kind_words_one(st))
                    } else {
                        kind_words_one(st)
                    }
                ),
            ));
        }
    }
    None
}

/// Whether a value written in the plan fits a state: a list state takes only a JSON list (text split
/// at commas is for the agent's `set_session_state`).
fn fits(v: &Value, st: &SessionState) -> bool {
    (!st.list || v.is_array()) && coerce_session(v, st).is_some()
}

fn kind_words_one(st: &SessionState) -> String {
    match (&st.enum_values, st.kind) {
        (Some(values), SessionType::Enum) => format!("one of {}", values.join(", ")),
        (_, SessionType::Boolean) => "true or false".into(),
        (_, SessionType::Number) => "a number".into(),
        (_, SessionType::String) => "text".into(),
        _ => "a value".into(),
    }
}

fn kind_words(st: &SessionState) -> String {
    if st.list {
        format!("a list of {}", kind_words_one(st))
    } else {
        kind_words_one(st)
    }
}
