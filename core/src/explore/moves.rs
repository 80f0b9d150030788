//! The moves of explore.md: what a user turn can do, each a message for the simulator, derived
//! from the plan and where the conversation is. Values come from each key's **domain**: the values
//! some condition compares it with (and the numbers either side of each), so that one value stands
//! for every value no condition tells apart.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::condition::{Check, Condition, NumericTest, SessionTest};
use crate::plan::{DeliverableType, Plan, StateType};
use crate::runtime::{
    step, tools_available_now, Event, RunError, Session, Simulator, TaskStatus, ToolResults,
};

/// The values worth trying for each deliverable key and session state, and the thresholds of the
/// counters conditions read: what the plan's conditions compare with.
#[derive(Debug, Clone, Default)]
pub struct Domains {
    /// Constants conditions compare each deliverable key with, and, for each condition that
    /// compares it with a list (or one value), that list: values that stand in the same lists
    /// are told apart by no condition.
    keys: BTreeMap<String, Compared>,
    /// Constants conditions compare each session state's value with.
    session: BTreeMap<String, Vec<Value>>,
    /// The values to try for each key, made once per search (a move's list is asked for in
    /// every configuration).
    tried: BTreeMap<String, Vec<String>>,
    /// What each state's future reads: the values a key keeps, the counters' caps.
    pub reads: super::reads::Reads,
}

/// What the conditions compare one key with.
#[derive(Debug, Clone, Default)]
struct Compared {
    /// Every constant, in the order first met.
    values: Vec<Value>,
    /// The lists of `deliverable_value` (one value) and `deliverable_value_in`: a value's
    /// membership of each is all an equality test can read of it.
    lists: Vec<Vec<Value>>,
}

impl Domains {
    /// The domains of `plan`'s keys, read from every condition it holds.
    pub fn of(plan: &Plan) -> Domains {
        let mut d = Domains {
            reads: super::reads::Reads::of(plan),
            ..Domains::default()
        };
        for c in conditions(plan) {
            if let Ok(check) = c.read() {
                d.read(&check);
            }
        }
        let keys: std::collections::BTreeSet<&str> = plan
            .states
            .iter()
            .flat_map(|s| s.deliverables())
            .map(|x| x.key.as_str())
            .collect();
        d.tried = keys
            .into_iter()
            .map(|key| (key.to_string(), d.values_of(plan, key)))
            .collect();
        d
    }

    fn read(&mut self, check: &Check) {
        let keep = |list: &mut Vec<Value>, v: &Value| {
            if !list.contains(v) {
                list.push(v.clone());
            }
        };
        match check {
            Check::DeliverableValue { key, value } => {
                let c = self.keys.entry(key.to_string()).or_default();
                keep(&mut c.values, value);
                c.lists.push(vec![(*value).clone()]);
            }
            Check::DeliverableValueIn { key, values } => {
                let c = self.keys.entry(key.to_string()).or_default();
                for v in values.iter() {
                    keep(&mut c.values, v);
                }
                c.lists.push(values.to_vec());
            }
            Check::DeliverableValueNumeric { key, test } => {
                let c = self.keys.entry(key.to_string()).or_default();
                for n in numbers(test) {
                    for v in [n - 1.0, n, n + 1.0] {
                        keep(&mut c.values, &number(v));
                    }
                }
            }
            Check::SessionStateValue { id, test } => {
                let values: Vec<&Value> = match test {
                    SessionTest::In(values) => values.iter().collect(),
                    SessionTest::Eq(v)
                    | SessionTest::Neq(v)
                    | SessionTest::Gt(v)
                    | SessionTest::Gte(v)
                    | SessionTest::Lt(v)
                    | SessionTest::Lte(v) => vec![*v],
                    #[allow(unreachable_patterns)]
                    _ => Vec::new(),
                };
                let list = self.session.entry(id.to_string()).or_default();
                for v in values {
                    match v.as_f64() {
                        Some(n) => {
                            for x in [n - 1.0, n, n + 1.0] {
                                keep(list, &number(x));
                            }
                        }
                        None => keep(list, v),
                    }
                }
            }
            Check::AllOf(children) | Check::AnyOf(children) => {
                for c in children {
                    self.read(c);
                }
            }
            _ => {}
        }
    }

    /// [`Domains::of`] with keys that keep every value and the counters up to the largest
    /// threshold anywhere (`explore_with_every_value`, a test oracle).
    #[cfg(any(test, feature = "oracles"))]
    pub fn with_every_value(plan: &Plan) -> Domains {
        Domains {
            reads: super::reads::Reads::every_value(plan),
            ..Domains::of(plan)
        }
    }

    /// The values to try for key `key`: both booleans; for a number, the constants compared
    /// (and either side of each), else 0; for an enum or a text, one value for each way the
    /// conditions can tell values apart (the lists of `deliverable_value` and
    /// `deliverable_value_in` each value stands in), and one for the values no condition names
    /// (an enum's first such value; for a text, `other-than-KEY`). A 2,000-value enum read by
    /// two conditions is three values, not 2,000 (explore.md: "one representative stands for
    /// all").
    pub fn values(&self, key: &str) -> &[String] {
        self.tried.get(key).map_or(&[], Vec::as_slice)
    }

    fn values_of(&self, plan: &Plan, key: &str) -> Vec<String> {
        let declared = crate::runtime::declaration(plan, key);
        let ty = declared.map(|d| d.kind).unwrap_or_default();
        let compared = self.keys.get(key).cloned().unwrap_or_default();
        let as_declared = |v: &Value| match declared {
            Some(d) => crate::coerce::coerce(v, d).unwrap_or_else(|| v.clone()),
            None => v.clone(),
        };
        // Which lists a value stands in: values with the same answer are told apart by nothing.
        let lists: Vec<Vec<Value>> = compared
            .lists
            .iter()
            .map(|l| l.iter().map(as_declared).collect())
            .collect();
        let mut seen = std::collections::HashSet::new();
        let mut one_per_answer = |v: &Value| {
            let answer: Vec<bool> = lists.iter().map(|l| l.contains(v)).collect();
            seen.insert(answer)
        };
        let mut out: Vec<String> = match ty {
            DeliverableType::Boolean => vec!["true".into(), "false".into()],
            DeliverableType::Enum => declared
                .and_then(|d| d.enum_values.as_ref())
                .into_iter()
                .flatten()
                .filter(|v| one_per_answer(&Value::String((*v).clone())))
                .cloned()
                .collect(),
            DeliverableType::Number => {
                let mut v: Vec<String> = compared.values.iter().map(text).collect();
                if v.is_empty() {
                    v.push("0".into());
                }
                v
            }
            _ => {
                // A text is compared by equality only: by the lists it stands in.
                let mut v: Vec<String> = compared
                    .values
                    .iter()
                    .filter(|v| one_per_answer(&as_declared(v)))
                    .map(text)
                    .collect();
                v.push(stand_in(key));
                v
            }
        };
        out.dedup();
        out
    }

    /// The values to try for session state `id`.
    pub fn session_values(&self, id: &str) -> Vec<String> {
        self.session
            .get(id)
            .map(|v| v.iter().map(text).collect())
            .unwrap_or_default()
    }
}

fn numbers(test: &NumericTest) -> Vec<f64> {
    match test {
        NumericTest::Gt(n)
        | NumericTest::Gte(n)
        | NumericTest::Lt(n)
        | NumericTest::Lte(n)
        | NumericTest::Eq(n)
        | NumericTest::Neq(n) => vec![*n],
        NumericTest::Between { min, max, .. } => vec![*min, *max],
    }
}

fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Every condition of the plan: transitions', session states' rules, interruptions', rules'.
pub fn conditions(plan: &Plan) -> Vec<Condition> {
    let mut out = Vec::new();
    for s in &plan.states {
        for t in &s.transitions {
            if let Some(ty) = t.condition_type {
                out.push(Condition {
                    condition_type: ty,
                    condition_config: t.condition_config.clone(),
                });
            }
        }
    }
    for st in &plan.session_states {
        out.extend(st.auto_activate.clone());
        out.extend(st.auto_deactivate.clone());
    }
    for x in &plan.interruptions {
        out.extend(x.condition.clone());
    }
    for r in &plan.rules {
        out.extend(r.condition.clone());
    }
    out
}

/// One move from `s`, as `plan chat` runs it: the simulator reads the message into actions, then
/// `step` runs them. Without what only a person reads (the reply, the prompt, the transcript and
/// the agent's notes): no later move reads them, and writing them was most of a move's time.
/// Each finding's conversation is said again through the whole chat before it is reported.
pub fn play(plan: &Plan, s: &Session, message: &str) -> Result<(Session, Vec<Event>), RunError> {
    if let Some(ended) = &s.ended {
        return Err(RunError::Ended(ended.clone()));
    }
    let actions = Simulator.actions(plan, s, message, &ToolResults::new());
    let (mut next, events) = step(plan, s, message, &actions)?;
    next.transcript.clear();
    next.insights.clear();
    Ok((next, events))
}

/// The moves offered where `s` is, each a message for the simulator, in a fixed order.
pub fn moves(plan: &Plan, domains: &Domains, s: &Session) -> Vec<String> {
    let mut out = Vec::new();
    let Some(state) = plan.state(&s.state_id) else {
        return out;
    };
    // Values: strict states take the current task's keys only.
    let mut keys: Vec<&str> = Vec::new();
    if state.kind == StateType::Goal {
        if let Some(goal) = &state.goal {
            keys.extend(goal.deliverables.iter().map(|d| d.key.as_str()));
        }
    } else {
        let pending = |i: usize| {
            s.visit
                .tasks
                .get(i)
                .is_none_or(|t| t.status == TaskStatus::Pending)
        };
        for (i, task) in state.tasks.iter().enumerate() {
            if state.kind == StateType::Strict && !pending(i) {
                continue;
            }
            keys.extend(task.deliverables.iter().map(|d| d.key.as_str()));
            if state.kind == StateType::Strict {
                break;
            }
        }
    }
    for key in keys {
        for value in domains.values(key) {
            out.push(format!("/set {key} {value}"));
        }
    }
    for (i, task) in state.tasks.iter().enumerate() {
        let pending = s
            .visit
            .tasks
            .get(i)
            .is_some_and(|t| t.status == TaskStatus::Pending);
        if pending && state.kind != StateType::Goal {
            out.push(format!("/complete {}", task.id));
            if !task.required {
                out.push(format!("/skip {}", task.id));
            }
            // A strict state takes its current task only (runtime.md): offering the others,
            // each refused, cost a whole turn each (2,000 tasks: 2,000 turns per configuration).
            if state.kind == StateType::Strict {
                break;
            }
        }
    }
    if state.kind == StateType::Goal && !s.visit.goal_done() {
        out.push("that is all\n/close that is all".into());
        out.push("I give up\n/giveup I give up".into());
    }
    for (name, tool) in tools_available_now(plan, s) {
        match tool
            .map(|t| t.response_codes.as_slice())
            .unwrap_or_default()
        {
            [] => out.push(format!("/tool {name} OK")),
            codes => out.extend(codes.iter().map(|c| format!("/tool {name} {c}"))),
        }
    }
    for x in &plan.interruptions {
        if x.allowed_in(&s.state_id) {
            out.push(format!("/interrupt {}", x.id));
        }
    }
    // Session states the agent may change (the others change by their rules or by the author).
    for st in plan.session_states.iter().filter(|st| st.agent_can_change) {
        let active = s.session_states.get(&st.id).is_some_and(|v| v.active);
        out.push(format!(
            "/{} {}",
            if active { "deactivate" } else { "activate" },
            st.id
        ));
        // The values conditions compare it with; else one representative of its choices.
        let mut values = domains.session_values(&st.id);
        if values.is_empty() {
            values.extend(st.enum_values.iter().flatten().take(1).cloned());
        }
        for v in values {
            out.push(format!("/state {} {v}", st.id));
        }
    }
    // Nothing useful: counters move, the safety net can act.
    out.push("/insight nothing new".into());
    out
}

/// The value the explorer gives a text key `key` for everything no condition names: what any
/// caller could say there. Played in the test chat it is recorded like a caller's words, so the
/// window tells it apart with [`is_stand_in`] and says it in words.
pub fn stand_in(key: &str) -> String {
    format!("other-than-{key}")
}

/// Whether `value`, given for key `key`, is the explorer's [`stand_in`] for any other text.
pub fn is_stand_in(key: &str, value: &str) -> bool {
    value.strip_prefix("other-than-") == Some(key)
}
