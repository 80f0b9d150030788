//! `session_state_value`: how its comparison is written and read (docs/session-states.md).

use serde_json::Value;

use super::read::{problem, Config};
use super::{or_list, show, Check, ConfigProblem};

/// The comparison of `session_state_value`, its value as written (coerced when compared).
#[derive(Debug, Clone, PartialEq)]
pub enum SessionTest<'a> {
    /// Equal to the value.
    Eq(&'a Value),
    /// Not equal to the value.
    Neq(&'a Value),
    /// One of the values.
    In(&'a [Value]),
    /// Greater than the value.
    Gt(&'a Value),
    /// Greater than or equal to the value.
    Gte(&'a Value),
    /// Less than the value.
    Lt(&'a Value),
    /// Less than or equal to the value.
    Lte(&'a Value),
    /// A list state holds the value.
    Contains(&'a Value),
}

impl<'a> SessionTest<'a> {
    /// The operator as the format writes it.
    pub fn operator(&self) -> &'static str {
        match self {
            SessionTest::Eq(_) => "eq",
            SessionTest::Neq(_) => "neq",
            SessionTest::In(_) => "in",
            SessionTest::Gt(_) => "gt",
            SessionTest::Gte(_) => "gte",
            SessionTest::Lt(_) => "lt",
            SessionTest::Lte(_) => "lte",
            SessionTest::Contains(_) => "contains",
        }
    }

    /// The compared values, with the config field each is at (`/value`, `/values/1`).
    pub fn values(&self) -> Vec<(String, &'a Value)> {
        match self {
            SessionTest::In(values) => values
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("/values/{i}"), v))
                .collect(),
            SessionTest::Eq(v)
            | SessionTest::Neq(v)
            | SessionTest::Gt(v)
            | SessionTest::Gte(v)
            | SessionTest::Lt(v)
            | SessionTest::Lte(v)
            | SessionTest::Contains(v) => vec![("/value".into(), *v)],
        }
    }

    /// Whether the operator compares numbers.
    pub fn is_ordering(&self) -> bool {
        matches!(
            self,
            SessionTest::Gt(_) | SessionTest::Gte(_) | SessionTest::Lt(_) | SessionTest::Lte(_)
        )
    }

    pub(super) fn describe(&self, id: &str) -> String {
        match self {
            SessionTest::Eq(v) => format!("{id} = {}", show(v)),
            SessionTest::Neq(v) => format!("{id} ≠ {}", show(v)),
            SessionTest::In(values) => {
                let shown: Vec<String> = values.iter().map(show).collect();
                format!("{id} is {}", or_list(&shown))
            }
            SessionTest::Gt(v) => format!("{id} > {}", show(v)),
            SessionTest::Gte(v) => format!("{id} ≥ {}", show(v)),
            SessionTest::Lt(v) => format!("{id} < {}", show(v)),
            SessionTest::Lte(v) => format!("{id} ≤ {}", show(v)),
            SessionTest::Contains(v) => format!("{id} holds {}", show(v)),
        }
    }
}

impl<'a> Config<'a> {
    pub(super) fn session_value(&mut self) -> Result<Check<'a>, ConfigProblem> {
        let operator = match self.field("operator") {
            None => "eq",
            Some(_) => self.string("operator")?,
        };
        if operator == "in" {
            self.only(&["session_state", "operator", "values"])?;
            let Value::Array(values) = self.get("values")? else {
                return Err(problem(
                    "/values",
                    "\"values\" must be a list of values".into(),
                ));
            };
            if values.is_empty() {
                return Err(problem(
                    "/values",
                    "\"values\" is empty: list at least one value".into(),
                ));
            }
            return Ok(Check::SessionStateValue {
                id: self.string("session_state")?,
                test: SessionTest::In(values),
            });
        }
        self.only(&["session_state", "operator", "value"])?;
        let value = self.get("value")?;
        let test = match operator {
            "eq" => SessionTest::Eq(value),
            "neq" => SessionTest::Neq(value),
            "gt" => SessionTest::Gt(value),
            "gte" => SessionTest::Gte(value),
            "lt" => SessionTest::Lt(value),
            "lte" => SessionTest::Lte(value),
            "contains" => SessionTest::Contains(value),
            other => {
                return Err(problem(
                    "/operator",
                    format!(
                    "unknown operator \"{other}\" (use eq, neq, in, gt, gte, lt, lte or contains)"
                ),
                ))
            }
        };
        Ok(Check::SessionStateValue {
            id: self.string("session_state")?,
            test,
        })
    }
}
