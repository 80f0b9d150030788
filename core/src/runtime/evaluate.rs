//! Evaluating transition conditions against a session, every type of the format and composites to
//! any depth, with the reason a true condition is true ("risk_score = 9 ≥ 8").

use serde_json::Value;

use super::session::{GoalStatus, Session};
use crate::coerce::{coerce, coerce_session, coerce_to};
use crate::condition::{num, Check, NumericTest, SessionTest, TurnScope};
use crate::plan::{Deliverable, Plan, State, StateType};

/// What a condition is evaluated against: the current state and visit of a session.
pub struct Context<'a> {
    pub plan: &'a Plan,
    pub state: &'a State,
    pub session: &'a Session,
    /// Evaluate as if the goal were done (for `close_goal`: "a route would fire if the goal were
    /// done").
    pub assume_goal_done: bool,
}

impl Context<'_> {
    fn goal_done(&self) -> bool {
        self.assume_goal_done || self.session.visit.goal_done()
    }

    /// `Some(why)` when `check` holds, `None` when it does not.
    pub fn eval(&self, check: &Check) -> Option<String> {
        let visit = &self.session.visit;
        match check {
            Check::AllTasksComplete => {
                if self.state.kind == StateType::Goal {
                    self.goal_done().then(|| "the goal is done".to_string())
                } else if visit.tasks.is_empty() {
                    Some("there are no tasks here".into())
                } else {
                    visit
                        .all_tasks_addressed()
                        .then(|| "all tasks are done".to_string())
                }
            }
            Check::GoalAchieved => {
                if self.state.kind != StateType::Goal || !self.goal_done() {
                    return None;
                }
                Some(match visit.goal {
                    Some(GoalStatus::GivenUp) => "the goal was given up".into(),
                    Some(GoalStatus::Skipped) => "the goal was released as stuck".into(),
                    _ => "the goal is done".into(),
                })
            }
            Check::DeliverableExists { key } => {
                let value = self.value(key)?;
                Some(format!("{key} is known ({})", show(value)))
            }
            Check::DeliverableValue { key, value } => {
                let have = self.value(key)?;
                self.same(key, have, value)
                    .then(|| format!("{key} = {}", show(have)))
            }
            Check::DeliverableValueIn { key, values } => {
                let have = self.value(key)?;
                values.iter().any(|v| self.same(key, have, v)).then(|| {
                    let all: Vec<String> = values.iter().map(show).collect();
                    format!("{key} = {}, one of {}", show(have), all.join(", "))
                })
            }
            Check::DeliverableValueNumeric { key, test } => {
                let have = self.value(key)?;
                let x = number(have)?;
                test.holds(x).then(|| numeric_why(key, x, test))
            }
            Check::TurnCountExceeded { turns, scope } => {
                let (count, what) = match scope {
                    TurnScope::WithoutProgress => (visit.without_progress, "without progress"),
                    TurnScope::Total => (visit.total, "in this state"),
                };
                (u64::from(count) >= *turns).then(|| {
                    let unit = if count == 1 { "turn" } else { "turns" };
                    format!("{count} {unit} {what} (limit {turns})")
                })
            }
            Check::VisitCountExceeded { visits, state_id } => {
                let id = state_id.as_deref().unwrap_or(&self.state.id);
                let entered = self.session.path.iter().filter(|s| *s == id).count() as u64;
                (entered >= *visits).then(|| {
                    let times = if entered == 1 { "time" } else { "times" };
                    format!("{id} entered {entered} {times} (limit {visits})")
                })
            }
            Check::AllOf(children) => {
                let mut parts = Vec::with_capacity(children.len());
                for c in children {
                    parts.push(self.eval(c)?);
                }
                Some(parts.join(" and "))
            }
            Check::AnyOf(children) => children.iter().find_map(|c| self.eval(c)),
            Check::ToolResult {
                tool,
                response_code,
                negated,
            } => {
                let got = visit.tools.get(*tool)?;
                if (got == response_code) != *negated {
                    Some(if *negated {
                        format!("{tool} returned {got}, not {response_code}")
                    } else {
                        format!("{tool} returned {got}")
                    })
                } else {
                    None
                }
            }
            Check::SessionStateActive { id, negated } => {
                let active = super::switching::is_active(self.session, id);
                (active != *negated).then(|| {
                    if active {
                        format!("{id} is on")
                    } else {
                        format!("{id} is off")
                    }
                })
            }
            Check::SessionStateValue { id, test } => self.session_value(id, test),
        }
    }

    /// `session_state_value`: false for a state with no value, whatever the operator.
    fn session_value(&self, id: &str, test: &SessionTest) -> Option<String> {
        let st = self.plan.session_state(id)?;
        let have = &self.session.session_states.get(id)?.value;
        if have.is_null() {
            return None;
        }
        let single = |v: &Value| -> Option<Value> {
            let kind = st.value_type()?;
            coerce_to(v, kind, st.enum_values.as_deref())
        };
        let whole = |v: &Value| -> Option<Value> { coerce_session(v, st) };
        let same = |v: &Value| whole(v).is_some_and(|w| equal_deep(&w, have));
        let order =
            |v: &Value| -> Option<(f64, f64)> { Some((number(have)?, number(&single(v)?)?)) };
        let holds = match test {
            SessionTest::Eq(v) => same(v),
            SessionTest::Neq(v) => whole(v).is_some_and(|w| !equal_deep(&w, have)),
            SessionTest::In(values) => values.iter().any(same),
            SessionTest::Contains(v) => match (have, single(v)) {
                (Value::Array(items), Some(w)) => items.iter().any(|i| equal(i, &w)),
                _ => false,
            },
            SessionTest::Gt(v) => order(v).is_some_and(|(a, b)| a > b),
            SessionTest::Gte(v) => order(v).is_some_and(|(a, b)| a >= b),
            SessionTest::Lt(v) => order(v).is_some_and(|(a, b)| a < b),
            SessionTest::Lte(v) => order(v).is_some_and(|(a, b)| a <= b),
        };
        holds.then(|| {
            format!(
                "{}, as {id} = {}",
                Check::SessionStateValue {
                    id,
                    test: test.clone()
                }
                .describe(),
                show(have)
            )
        })
    }

    fn value(&self, key: &str) -> Option<&Value> {
        self.session.deliverables.get(key).map(|r| &r.value)
    }

    /// Whether a recorded value equals a condition's value, coerced as a recorded value is.
    fn same(&self, key: &str, have: &Value, wanted: &Value) -> bool {
        match declaration(self.plan, key) {
            Some(d) => coerce(wanted, d).is_some_and(|w| equal(&w, have)),
            None => equal(wanted, have),
        }
    }
}

/// The first declaration of deliverable `key` in the plan (the validator makes sure they agree).
pub fn declaration<'p>(plan: &'p Plan, key: &str) -> Option<&'p Deliverable> {
    plan.states
        .iter()
        .flat_map(|s| s.deliverables())
        .find(|d| d.key == key)
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// [`equal`] into lists, item by item.
pub fn equal_deep(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal_deep(p, q))
        }
        _ => equal(a, b),
    }
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A value as an author reads it: text without quotes, whole numbers without `.0`.
pub fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(x) => num(x),
            None => n.to_string(),
        },
        other => other.to_string(),
    }
}

fn numeric_why(key: &str, x: f64, test: &NumericTest) -> String {
    test.describe(&format!("{key} = {}", num(x)))
}
