//! Checks of one transition: its target, its condition to any depth, and whether an earlier or
//! stronger transition with the same condition always wins before it.

use serde_json::{Map, Value};

use super::{same_condition, Code, Location, Validator};
use crate::coerce::fits;
use crate::condition::{visit, Check, ConditionType, Node};
use crate::plan::{DeliverableType, State, StateType};

impl<'p> Validator<'p, '_> {
    /// Walks a condition to any depth: each problem said as `invalid-condition-config` in `name`'s
    /// words at `place(pointer)`, each clean leaf handed to `leaf` with its pointer (relative to
    /// the condition). Transitions, session-state rules and interruptions all walk theirs here.
    pub(super) fn condition(
        &mut self,
        kind: ConditionType,
        config: &Map<String, Value>,
        name: &dyn Fn() -> String,
        place: &dyn Fn(&str) -> Location,
        mut leaf: impl FnMut(&mut Self, &Check, &str),
    ) {
        visit(kind, config, |node| match node {
            Node::Problem { pointer, message } => self.push(
                Code::InvalidConditionConfig,
                format!(
                    "{}: the condition's settings need fixing: {message}.",
                    name()
                ),
                place(&pointer),
            ),
            Node::Leaf { check, pointer, .. } => leaf(self, &check, pointer),
        });
    }

    pub(super) fn transition(&mut self, i: usize, state: &'p State, k: usize) {
        let t = &state.transitions[k];
        // Spelled out only for a finding: this runs for every transition of the plan.
        let here = || format!("/states/{i}/transitions/{k}");
        let loc = |path: String| Location {
            path,
            state_id: Some(state.id.clone()),
            task_id: None,
            transition_index: Some(k),
        };
        let name = || format!("Transition {} of '{}'", k + 1, state.title);

        for (c, change) in t.effects.iter().enumerate() {
            self.change(change, &|| format!("{}/effects/{c}", here()), &state.id);
        }
        if !self.index_of.contains_key(t.target_state_id.as_str()) {
            let target = &t.target_state_id;
            self.push(
                Code::UnknownTargetState,
                format!("{} goes to '{target}', but no state has that id. Pick an existing state or create '{target}'.", name()),
                loc(format!("{}/target_state_id", here())),
            );
        }

        self.condition(
            t.condition_type_in(state.kind),
            &t.condition_config,
            &name,
            &|pointer| loc(format!("{}{pointer}", here())),
            |v, check, pointer| {
                let path = || format!("{}{pointer}", here());
                v.leaf(i, state, &name, check, &path, &loc);
            },
        );

        let shadowed_by = (0..state.transitions.len()).find(|&j| {
            let (pj, pk) = (state.transitions[j].priority, t.priority);
            j != k
                && (pj.0 < pk.0 || (pj.0 == pk.0 && j < k))
                && same_condition(state, &mut self.readings, j, k)
        });
        if let Some(j) = shadowed_by {
            self.push(
                Code::ShadowedTransition,
                format!(
                    "{} can never fire: transition {} has the same condition and wins first (priority {} against {}). Change its condition or its priority, or remove it.",
                    name(),
                    j + 1,
                    state.transitions[j].priority,
                    t.priority
                ),
                loc(here()),
            );
        }
    }

    /// The meaning checks of one clean, non-composite condition at `path`.
    fn leaf(
        &mut self,
        i: usize,
        state: &'p State,
        name: &dyn Fn() -> String,
        check: &Check,
        path: &dyn Fn() -> String,
        loc: &dyn Fn(String) -> Location,
    ) {
        let config = || format!("{}/condition_config", path());
        match check {
            Check::GoalAchieved if state.kind != StateType::Goal => self.push(
                Code::GoalConditionOnNonGoalState,
                format!("{} waits for 'goal done', but '{}' is not a goal state, so it is never true. Use 'all tasks done', or make the state a goal state.", name(), state.title),
                loc(format!("{}/condition_type", path())),
            ),
            Check::DeliverableExists { .. }
            | Check::DeliverableValue { .. }
            | Check::DeliverableValueIn { .. }
            | Check::DeliverableValueNumeric { .. } => {
                let Some(key) = self.key_leaf(check, name, &config, loc) else {
                    return;
                };
                if !self.collected_by(key, i) {
                    self.push(
                        Code::KeyNotCollectedBefore,
                        format!("{} reads '{key}', but neither '{}' nor any state leading to it collects it, so it is never set here. Collect it earlier, or read another key.", name(), state.title),
                        loc(format!("{}/key", config())),
                    );
                }
            }
            Check::ToolResult { tool, .. } => {
                if !self.tool_leaf(check, name, &config, loc) {
                    return;
                }
                if !state.allowed_tools.iter().any(|t| t == tool) {
                    self.push(
                        Code::ToolNotAllowed,
                        format!("{} waits for the tool '{tool}', but '{}' does not allow that tool, so it is never called here. Allow it in this state.", name(), state.title),
                        loc(format!("{}/tool", config())),
                    );
                }
            }
            Check::SessionStateActive { .. } | Check::SessionStateValue { .. } => {
                self.session_leaf(check, name, &config, loc)
            }
            Check::VisitCountExceeded { .. } => self.visit_leaf(check, name, &config, loc),
            _ => {}
        }
    }

    /// The plan's own spelling of `key`, when it declares it.
    /// The key a deliverable condition reads, as the plan declares it, with its values checked;
    /// none (and `unknown-deliverable-key` said) when no state collects it. Shared by transitions
    /// and session states' rules.
    pub(super) fn key_leaf(
        &mut self,
        check: &Check,
        name: &dyn Fn() -> String,
        config: &dyn Fn() -> String,
        loc: &dyn Fn(String) -> Location,
    ) -> Option<&'p str> {
        let written = check_key(check);
        let Some(key) = self.plan_key(written) else {
            self.push(
                Code::UnknownDeliverableKey,
                format!("{} reads the key '{written}', but no state collects it. Pick a key the plan declares, or add '{written}' to a task.", name()),
                loc(format!("{}/key", config())),
            );
            return None;
        };
        self.values(name, key, check, config, loc);
        Some(key)
    }

    /// A `tool_result` condition's tool and response code against the plan's tools: whether the
    /// tool is declared (`unknown-tool` said when not; `unknown-response-code` for a code it
    /// does not return).
    pub(super) fn tool_leaf(
        &mut self,
        check: &Check,
        name: &dyn Fn() -> String,
        config: &dyn Fn() -> String,
        loc: &dyn Fn(String) -> Location,
    ) -> bool {
        let Check::ToolResult {
            tool,
            response_code,
            ..
        } = check
        else {
            return false;
        };
        let Some(declared) = self.tools.get(*tool) else {
            self.push(
                Code::UnknownTool,
                format!("{} waits for the tool '{tool}', but the plan declares no such tool. Declare it, or pick a declared tool.", name()),
                loc(format!("{}/tool", config())),
            );
            return false;
        };
        if !declared.response_codes.iter().any(|c| c == response_code) {
            let known = if declared.response_codes.is_empty() {
                "declares no response codes".to_string()
            } else {
                format!("returns {}", declared.response_codes.join(", "))
            };
            self.push(
                Code::UnknownResponseCode,
                format!("{} waits for '{tool}' to return '{response_code}', but '{tool}' {known}. Pick one of its codes, or declare this one.", name()),
                loc(format!("{}/response_code", config())),
            );
        }
        true
    }

    pub(super) fn plan_key(&self, key: &str) -> Option<&'p str> {
        self.declared.get_key_value(key).map(|(k, _)| *k)
    }

    /// Whether a condition's values fit the key's type.
    pub(super) fn values(
        &mut self,
        name: &dyn Fn() -> String,
        key: &'p str,
        check: &Check,
        config: &dyn Fn() -> String,
        loc: &dyn Fn(String) -> Location,
    ) {
        let d = self.declared[key];
        // `value`, or `values` with each one's index; paths are spelled out only for a finding.
        let (one, values): (Option<&Value>, &[Value]) = match check {
            Check::DeliverableValue { value, .. } => (Some(value), &[]),
            Check::DeliverableValueIn { values, .. } => (None, values),
            Check::DeliverableValueNumeric { .. } => {
                if d.kind != DeliverableType::Number {
                    self.push(
                        Code::ConditionTypeMismatch,
                        format!("{} compares '{key}' as a number, but '{key}' is not a number key. Use 'equals' instead, or make '{key}' a number.", name()),
                        loc(format!("{}/key", config())),
                    );
                }
                return;
            }
            _ => return,
        };
        let each = one
            .map(|v| (None, v))
            .into_iter()
            .chain(values.iter().enumerate().map(|(j, v)| (Some(j), v)));
        for (j, value) in each {
            if fits(value, d) {
                continue;
            }
            let path = || match j {
                None => format!("{}/value", config()),
                Some(j) => format!("{}/values/{j}", config()),
            };
            if d.kind == DeliverableType::Enum && value.is_string() {
                let allowed = d.enum_values.as_deref().unwrap_or_default().join(", ");
                self.push(
                    Code::EnumValueNotAllowed,
                    format!("{} compares '{key}' with {value}, which is not one of its values ({allowed}). Pick one of them, or add it to the key's values.", name()),
                    loc(path()),
                );
            } else {
                let wanted = match d.kind {
                    DeliverableType::String => "text",
                    DeliverableType::Number => "a number",
                    DeliverableType::Boolean => "true or false",
                    DeliverableType::Enum => "one of its values, as text",
                };
                self.push(
                    Code::ConditionTypeMismatch,
                    format!("{} compares '{key}' with {value}, but '{key}' holds {wanted}. Use a value of that kind.", name()),
                    loc(path()),
                );
            }
        }
    }
}

fn check_key<'c>(check: &Check<'c>) -> &'c str {
    match check {
        Check::DeliverableExists { key }
        | Check::DeliverableValue { key, .. }
        | Check::DeliverableValueIn { key, .. }
        | Check::DeliverableValueNumeric { key, .. } => key,
        _ => "",
    }
}
