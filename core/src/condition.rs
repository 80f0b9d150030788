//! Transition conditions: the eleven condition types, a typed reading of a `condition_config`, and
//! the short label an author reads on an arrow ("issue_type = billing").
//!
//! A transition stores its condition as `condition_type` plus raw JSON, because everything inside a
//! config is the validator's business (`invalid-condition-config`) and must never stop a plan from
//! loading. [`Check::read`] turns that raw form into a typed tree, or says exactly what is wrong and
//! where (a JSON Pointer relative to the condition), to any depth.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The condition types of the plan format.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConditionType {
    AllTasksComplete,
    GoalAchieved,
    DeliverableExists,
    DeliverableValue,
    DeliverableValueIn,
    DeliverableValueNumeric,
    TurnCountExceeded,
    AllOf,
    AnyOf,
    Compound,
    ToolResult,
    SessionStateActive,
    SessionStateValue,
}

impl ConditionType {
    /// Every condition type, in the order the format lists them.
    pub const ALL: [ConditionType; 13] = [
        ConditionType::AllTasksComplete,
        ConditionType::GoalAchieved,
        ConditionType::DeliverableExists,
        ConditionType::DeliverableValue,
        ConditionType::DeliverableValueIn,
        ConditionType::DeliverableValueNumeric,
        ConditionType::TurnCountExceeded,
        ConditionType::AllOf,
        ConditionType::AnyOf,
        ConditionType::Compound,
        ConditionType::ToolResult,
        ConditionType::SessionStateActive,
        ConditionType::SessionStateValue,
    ];

    /// The name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ConditionType::AllTasksComplete => "all_tasks_complete",
            ConditionType::GoalAchieved => "goal_achieved",
            ConditionType::DeliverableExists => "deliverable_exists",
            ConditionType::DeliverableValue => "deliverable_value",
            ConditionType::DeliverableValueIn => "deliverable_value_in",
            ConditionType::DeliverableValueNumeric => "deliverable_value_numeric",
            ConditionType::TurnCountExceeded => "turn_count_exceeded",
            ConditionType::AllOf => "all_of",
            ConditionType::AnyOf => "any_of",
            ConditionType::Compound => "compound",
            ConditionType::ToolResult => "tool_result",
            ConditionType::SessionStateActive => "session_state_active",
            ConditionType::SessionStateValue => "session_state_value",
        }
    }

    /// The type named `name` in JSON, if there is one.
    pub fn from_name(name: &str) -> Option<ConditionType> {
        ConditionType::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// Whether this type nests child conditions in `conditions`.
    pub fn is_composite(self) -> bool {
        matches!(
            self,
            ConditionType::AllOf | ConditionType::AnyOf | ConditionType::Compound
        )
    }
}

/// A condition as the format writes it where it stands alone (a session state's `auto_activate`,
/// a composite's children): a type and its parameters, the parameters checked by the validator.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    pub condition_type: ConditionType,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub condition_config: Map<String, Value>,
}

impl Condition {
    /// The condition read into a typed tree, or what is wrong with it.
    pub fn read(&self) -> Result<Check, ConfigProblem> {
        Check::read(self.condition_type, &self.condition_config)
    }
}

/// The comparison of `session_state_value`, its value as written (coerced when compared).
#[derive(Debug, Clone, PartialEq)]
pub enum SessionTest {
    Eq(Value),
    Neq(Value),
    In(Vec<Value>),
    Gt(Value),
    Gte(Value),
    Lt(Value),
    Lte(Value),
    /// A list state holds the value.
    Contains(Value),
}

impl SessionTest {
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
    pub fn values(&self) -> Vec<(String, &Value)> {
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
            | SessionTest::Contains(v) => vec![("/value".into(), v)],
        }
    }

    /// Whether the operator compares numbers.
    pub fn is_ordering(&self) -> bool {
        matches!(
            self,
            SessionTest::Gt(_) | SessionTest::Gte(_) | SessionTest::Lt(_) | SessionTest::Lte(_)
        )
    }

    fn describe(&self, id: &str) -> String {
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

/// A numeric comparison operator of `deliverable_value_numeric`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumericTest {
    Gt(f64),
    Gte(f64),
    Lt(f64),
    Lte(f64),
    Eq(f64),
    Neq(f64),
    Between { min: f64, max: f64, inclusive: bool },
}

impl NumericTest {
    /// Whether `x` passes the comparison.
    pub fn holds(&self, x: f64) -> bool {
        match *self {
            NumericTest::Gt(v) => x > v,
            NumericTest::Gte(v) => x >= v,
            NumericTest::Lt(v) => x < v,
            NumericTest::Lte(v) => x <= v,
            NumericTest::Eq(v) => x == v,
            NumericTest::Neq(v) => x != v,
            NumericTest::Between {
                min,
                max,
                inclusive: true,
            } => min <= x && x <= max,
            NumericTest::Between { min, max, .. } => min < x && x < max,
        }
    }

    /// The comparison in words about `subject`: "risk_score ≥ 8", "1 < risk_score = 3 < 5" (the
    /// runtime passes "risk_score = 3" to say which value made it true).
    pub fn describe(&self, subject: &str) -> String {
        let (op, v) = match *self {
            NumericTest::Gt(v) => (">", v),
            NumericTest::Gte(v) => ("≥", v),
            NumericTest::Lt(v) => ("<", v),
            NumericTest::Lte(v) => ("≤", v),
            NumericTest::Eq(v) => ("=", v),
            NumericTest::Neq(v) => ("≠", v),
            NumericTest::Between {
                min,
                max,
                inclusive,
            } => {
                let op = if inclusive { "≤" } else { "<" };
                return format!("{} {op} {subject} {op} {}", num(min), num(max));
            }
        };
        format!("{subject} {op} {}", num(v))
    }
}

/// Which counter `turn_count_exceeded` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnScope {
    /// Consecutive turns in this visit with no progress.
    WithoutProgress,
    /// All user turns in this visit.
    Total,
}

/// A condition read into a typed tree. `compound` reads as [`Check::AllOf`] or [`Check::AnyOf`].
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    AllTasksComplete,
    GoalAchieved,
    DeliverableExists {
        key: String,
    },
    DeliverableValue {
        key: String,
        value: Value,
    },
    DeliverableValueIn {
        key: String,
        values: Vec<Value>,
    },
    DeliverableValueNumeric {
        key: String,
        test: NumericTest,
    },
    TurnCountExceeded {
        turns: u64,
        scope: TurnScope,
    },
    AllOf(Vec<Check>),
    AnyOf(Vec<Check>),
    ToolResult {
        tool: String,
        response_code: String,
        negated: bool,
    },
    SessionStateActive {
        id: String,
        negated: bool,
    },
    SessionStateValue {
        id: String,
        test: SessionTest,
    },
}

/// What is wrong inside a condition config, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// JSON Pointer relative to the condition object: the transition for a top-level condition, the
    /// `{condition_type, condition_config}` object for a nested one. A field inside the config is
    /// `/condition_config/<field>`; empty means the condition itself (a missing field, say).
    pub pointer: String,
    pub message: String,
}

impl Check {
    /// Reads a condition of type `kind` with the parameters `config`.
    pub fn read(kind: ConditionType, config: &Map<String, Value>) -> Result<Check, ConfigProblem> {
        let cfg = Config { map: config };
        let check = match kind {
            ConditionType::AllTasksComplete => {
                cfg.only(&[])?;
                Check::AllTasksComplete
            }
            ConditionType::GoalAchieved => {
                cfg.only(&[])?;
                Check::GoalAchieved
            }
            ConditionType::DeliverableExists => {
                cfg.only(&["key"])?;
                Check::DeliverableExists { key: cfg.key()? }
            }
            ConditionType::DeliverableValue => {
                cfg.only(&["key", "value"])?;
                Check::DeliverableValue {
                    key: cfg.key()?,
                    value: cfg.scalar("value")?,
                }
            }
            ConditionType::DeliverableValueIn => {
                cfg.only(&["key", "values"])?;
                Check::DeliverableValueIn {
                    key: cfg.key()?,
                    values: cfg.scalars("values")?,
                }
            }
            ConditionType::DeliverableValueNumeric => cfg.numeric()?,
            ConditionType::TurnCountExceeded => cfg.turns()?,
            ConditionType::AllOf => {
                cfg.only(&["conditions"])?;
                Check::AllOf(cfg.children()?)
            }
            ConditionType::AnyOf => {
                cfg.only(&["conditions"])?;
                Check::AnyOf(cfg.children()?)
            }
            ConditionType::Compound => {
                cfg.only(&["operator", "conditions"])?;
                let operator = cfg.string("operator")?;
                let children = cfg.children()?;
                match operator.as_str() {
                    "and" => Check::AllOf(children),
                    "or" => Check::AnyOf(children),
                    other => {
                        return Err(problem(
                            "/operator",
                            format!("operator must be \"and\" or \"or\", not \"{other}\""),
                        ))
                    }
                }
            }
            ConditionType::ToolResult => {
                cfg.only(&["tool", "response_code", "negated"])?;
                Check::ToolResult {
                    tool: cfg.string("tool")?,
                    response_code: cfg.string("response_code")?,
                    negated: cfg.optional_bool("negated")?.unwrap_or(false),
                }
            }
            ConditionType::SessionStateActive => {
                cfg.only(&["session_state", "negated"])?;
                Check::SessionStateActive {
                    id: cfg.string("session_state")?,
                    negated: cfg.optional_bool("negated")?.unwrap_or(false),
                }
            }
            ConditionType::SessionStateValue => cfg.session_value()?,
        };
        Ok(check)
    }

    /// The short label an author reads on an arrow: "issue_type = billing", "risk_score ≥ 8",
    /// "after 3 turns without progress", "verify_customer → CUSTOMER_VERIFIED".
    pub fn describe(&self) -> String {
        match self {
            Check::AllTasksComplete => "all tasks done".into(),
            Check::GoalAchieved => "goal done".into(),
            Check::DeliverableExists { key } => format!("{key} is known"),
            Check::DeliverableValue { key, value } => format!("{key} = {}", show(value)),
            Check::DeliverableValueIn { key, values } => {
                let shown: Vec<String> = values.iter().map(show).collect();
                format!("{key} is {}", or_list(&shown))
            }
            Check::DeliverableValueNumeric { key, test } => test.describe(key),
            Check::TurnCountExceeded { turns, scope } => {
                let unit = if *turns == 1 { "turn" } else { "turns" };
                match scope {
                    TurnScope::WithoutProgress => format!("after {turns} {unit} without progress"),
                    TurnScope::Total => format!("after {turns} {unit} here"),
                }
            }
            Check::AllOf(children) => join(children, " and "),
            Check::AnyOf(children) => join(children, " or "),
            Check::ToolResult {
                tool,
                response_code,
                negated,
            } => {
                let not = if *negated { "not " } else { "" };
                format!("{tool} → {not}{response_code}")
            }
            Check::SessionStateActive { id, negated: false } => format!("{id} is on"),
            Check::SessionStateActive { id, negated: true } => format!("{id} is off"),
            Check::SessionStateValue { id, test } => test.describe(id),
        }
    }
}

fn join(children: &[Check], sep: &str) -> String {
    let parts: Vec<String> = children
        .iter()
        .map(|c| match c {
            Check::AllOf(g) | Check::AnyOf(g) if g.len() > 1 => format!("({})", c.describe()),
            _ => c.describe(),
        })
        .collect();
    parts.join(sep)
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A number as an author reads it: `8`, not `8.0`.
pub fn num(v: f64) -> String {
    // `8`, not `8.0`: authors typed whole numbers.
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// A problem with the config field at `field` (`"/key"`, `"/conditions/0"`), or with the condition
/// itself when `field` is empty.
fn problem(field: &str, message: String) -> ConfigProblem {
    ConfigProblem {
        pointer: if field.is_empty() {
            String::new()
        } else {
            format!("/condition_config{field}")
        },
        message,
    }
}

/// Escapes a key for use inside a JSON Pointer (RFC 6901).
pub fn pointer_escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Field access over one `condition_config` with errors that name the field.
struct Config<'a> {
    map: &'a Map<String, Value>,
}

impl Config<'_> {
    fn only(&self, allowed: &[&str]) -> Result<(), ConfigProblem> {
        match self.map.keys().find(|k| !allowed.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) if allowed.is_empty() => Err(problem(
                &format!("/{}", pointer_escape(k)),
                format!("this condition takes no settings, but has \"{k}\""),
            )),
            Some(k) => Err(problem(
                &format!("/{}", pointer_escape(k)),
                format!(
                    "unknown setting \"{k}\" (expected {})",
                    or_list(
                        &allowed
                            .iter()
                            .map(|a| format!("\"{a}\""))
                            .collect::<Vec<_>>()
                    )
                ),
            )),
        }
    }

    fn get(&self, field: &str) -> Result<&Value, ConfigProblem> {
        self.map
            .get(field)
            .ok_or_else(|| problem("", format!("\"{field}\" is missing")))
    }

    fn string(&self, field: &str) -> Result<String, ConfigProblem> {
        match self.get(field)? {
            Value::String(s) if !s.is_empty() => Ok(s.clone()),
            Value::String(_) => Err(problem(
                &format!("/{field}"),
                format!("\"{field}\" is empty"),
            )),
            other => Err(problem(
                &format!("/{field}"),
                format!("\"{field}\" must be text, not {}", kind_of(other)),
            )),
        }
    }

    fn key(&self) -> Result<String, ConfigProblem> {
        self.string("key")
    }

    fn scalar(&self, field: &str) -> Result<Value, ConfigProblem> {
        let v = self.get(field)?;
        if is_scalar(v) {
            Ok(v.clone())
        } else {
            Err(problem(
                &format!("/{field}"),
                format!(
                    "\"{field}\" must be text, a number or true/false, not {}",
                    kind_of(v)
                ),
            ))
        }
    }

    fn scalars(&self, field: &str) -> Result<Vec<Value>, ConfigProblem> {
        let Value::Array(items) = self.get(field)? else {
            return Err(problem(
                &format!("/{field}"),
                format!("\"{field}\" must be a list of values"),
            ));
        };
        if items.is_empty() {
            return Err(problem(
                &format!("/{field}"),
                format!("\"{field}\" is empty: list at least one value"),
            ));
        }
        for (i, v) in items.iter().enumerate() {
            if !is_scalar(v) {
                return Err(problem(
                    &format!("/{field}/{i}"),
                    format!(
                        "value {} must be text, a number or true/false, not {}",
                        i + 1,
                        kind_of(v)
                    ),
                ));
            }
        }
        Ok(items.clone())
    }

    fn number(&self, field: &str) -> Result<f64, ConfigProblem> {
        match self.get(field)? {
            Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
            other => Err(problem(
                &format!("/{field}"),
                format!("\"{field}\" must be a number, not {}", kind_of(other)),
            )),
        }
    }

    fn optional_bool(&self, field: &str) -> Result<Option<bool>, ConfigProblem> {
        match self.map.get(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(problem(
                &format!("/{field}"),
                format!("\"{field}\" must be true or false, not {}", kind_of(other)),
            )),
        }
    }

    fn numeric(&self) -> Result<Check, ConfigProblem> {
        let operator = self.string("operator")?;
        let test = if operator == "between" {
            self.only(&["key", "operator", "min", "max", "inclusive"])?;
            let min = self.number("min")?;
            let max = self.number("max")?;
            if min > max {
                return Err(problem(
                    "/min",
                    format!(
                        "min ({}) is larger than max ({}): swap them",
                        num(min),
                        num(max)
                    ),
                ));
            }
            let inclusive = self.optional_bool("inclusive")?.unwrap_or(true);
            NumericTest::Between {
                min,
                max,
                inclusive,
            }
        } else {
            self.only(&["key", "operator", "value"])?;
            let value = self.number("value")?;
            match operator.as_str() {
                "gt" => NumericTest::Gt(value),
                "gte" => NumericTest::Gte(value),
                "lt" => NumericTest::Lt(value),
                "lte" => NumericTest::Lte(value),
                "eq" => NumericTest::Eq(value),
                "neq" => NumericTest::Neq(value),
                other => {
                    return Err(problem(
                        "/operator",
                        format!(
                        "unknown operator \"{other}\" (use gt, gte, lt, lte, eq, neq or between)"
                    ),
                    ))
                }
            }
        };
        Ok(Check::DeliverableValueNumeric {
            key: self.key()?,
            test,
        })
    }

    fn session_value(&self) -> Result<Check, ConfigProblem> {
        let operator = match self.map.get("operator") {
            None => "eq".to_string(),
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
                test: SessionTest::In(values.clone()),
            });
        }
        self.only(&["session_state", "operator", "value"])?;
        let value = self.get("value")?.clone();
        let test = match operator.as_str() {
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

    fn turns(&self) -> Result<Check, ConfigProblem> {
        self.only(&["turns", "scope"])?;
        let turns = match self.get("turns")? {
            Value::Number(n) if n.as_u64().is_some_and(|t| t >= 1) => n.as_u64().unwrap_or(1),
            other => {
                return Err(problem(
                    "/turns",
                    format!("\"turns\" must be a whole number of at least 1, not {other}"),
                ))
            }
        };
        let scope = match self.map.get("scope") {
            None => TurnScope::WithoutProgress,
            Some(Value::String(s)) if s == "without_progress" => TurnScope::WithoutProgress,
            Some(Value::String(s)) if s == "total" => TurnScope::Total,
            Some(other) => {
                return Err(problem(
                    "/scope",
                    format!("\"scope\" must be \"without_progress\" or \"total\", not {other}"),
                ))
            }
        };
        Ok(Check::TurnCountExceeded { turns, scope })
    }

    fn children(&self) -> Result<Vec<Check>, ConfigProblem> {
        let Value::Array(items) = self.get("conditions")? else {
            return Err(problem(
                "/conditions",
                "\"conditions\" must be a list of conditions".into(),
            ));
        };
        if items.is_empty() {
            return Err(problem(
                "/conditions",
                "this group has no conditions: add at least one".into(),
            ));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                read_child(item).map_err(|p| ConfigProblem {
                    pointer: format!("/condition_config/conditions/{i}{}", p.pointer),
                    message: p.message,
                })
            })
            .collect()
    }
}

/// Reads one nested `{condition_type, condition_config}` object; pointers are relative to it.
fn read_child(item: &Value) -> Result<Check, ConfigProblem> {
    let (kind, config) = child_parts(item)?;
    Check::read(kind, config)
}

/// The type and config of a nested condition object, or what is wrong with its shape. An unknown
/// `condition_type` is reported here too, for callers that read without parsing first.
fn child_parts(item: &Value) -> Result<(ConditionType, &Map<String, Value>), ConfigProblem> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    let at = |pointer: &str, message: String| ConfigProblem {
        pointer: pointer.to_string(),
        message,
    };
    let Value::Object(obj) = item else {
        return Err(at(
            "",
            format!(
                "a nested condition must be an object, not {}",
                kind_of(item)
            ),
        ));
    };
    if let Some(k) = obj
        .keys()
        .find(|k| *k != "condition_type" && *k != "condition_config")
    {
        return Err(at(
            &format!("/{}", pointer_escape(k)),
            format!("unknown field \"{k}\" in a nested condition"),
        ));
    }
    let kind = match obj.get("condition_type") {
        Some(Value::String(name)) => ConditionType::from_name(name).ok_or_else(|| {
            at(
                "/condition_type",
                format!("unknown condition type \"{name}\""),
            )
        })?,
        Some(other) => {
            return Err(at(
                "/condition_type",
                format!("\"condition_type\" must be text, not {}", kind_of(other)),
            ))
        }
        None => return Err(at("", "\"condition_type\" is missing".into())),
    };
    let config = match obj.get("condition_config") {
        None => EMPTY.get_or_init(Map::new),
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(at(
                "/condition_config",
                format!(
                    "\"condition_config\" must be an object, not {}",
                    kind_of(other)
                ),
            ))
        }
    };
    Ok((kind, config))
}

/// One condition met while walking a condition tree with [`visit`].
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    /// A non-composite condition that reads cleanly.
    Leaf {
        kind: ConditionType,
        check: Check,
        /// Pointer of the condition object, relative to where the walk started.
        pointer: &'a str,
    },
    /// Something wrong, at `pointer` (relative to where the walk started).
    Problem { pointer: String, message: String },
}

/// Walks a condition tree and reports every clean leaf and every problem, to any depth, so that a
/// validator can say everything at once (where [`Check::read`] stops at the first problem). The
/// children of a composite are visited even when a sibling is broken. Nested conditions of an
/// unknown type are skipped: they are a parse error (`schema`), reported elsewhere.
pub fn visit(kind: ConditionType, config: &Map<String, Value>, mut f: impl FnMut(Node<'_>)) {
    // One pointer buffer for the whole walk: children push their part and take it off again.
    let mut at = String::new();
    visit_at(kind, config, &mut at, &mut f);
}

fn visit_at(
    kind: ConditionType,
    config: &Map<String, Value>,
    at: &mut String,
    f: &mut impl FnMut(Node<'_>),
) {
    let report = |f: &mut dyn FnMut(Node<'_>), at: &str, p: ConfigProblem| {
        f(Node::Problem {
            pointer: format!("{at}{}", p.pointer),
            message: p.message,
        })
    };
    if !kind.is_composite() {
        match Check::read(kind, config) {
            Ok(check) => f(Node::Leaf {
                kind,
                check,
                pointer: at,
            }),
            Err(p) => report(f, at, p),
        }
        return;
    }
    let cfg = Config { map: config };
    let own = if kind == ConditionType::Compound {
        cfg.only(&["operator", "conditions"])
            .and_then(|_| match cfg.string("operator")?.as_str() {
                "and" | "or" => Ok(()),
                other => Err(problem(
                    "/operator",
                    format!("operator must be \"and\" or \"or\", not \"{other}\""),
                )),
            })
    } else {
        cfg.only(&["conditions"])
    };
    if let Err(p) = own {
        report(f, at, p);
    }
    let items = match cfg.get("conditions") {
        Ok(Value::Array(items)) if !items.is_empty() => items,
        Ok(Value::Array(_)) => {
            return report(
                f,
                at,
                problem(
                    "/conditions",
                    "this group has no conditions: add at least one".into(),
                ),
            )
        }
        Ok(_) => {
            return report(
                f,
                at,
                problem(
                    "/conditions",
                    "\"conditions\" must be a list of conditions".into(),
                ),
            )
        }
        Err(p) => return report(f, at, p),
    };
    for (i, item) in items.iter().enumerate() {
        if let Some(Value::String(name)) = item.get("condition_type") {
            if ConditionType::from_name(name).is_none() {
                continue;
            }
        }
        let len = at.len();
        at.push_str("/condition_config/conditions/");
        at.push_str(&i.to_string());
        match child_parts(item) {
            Ok((child, child_config)) => visit_at(child, child_config, at, f),
            Err(p) => f(Node::Problem {
                pointer: format!("{at}{}", p.pointer),
                message: p.message,
            }),
        }
        at.truncate(len);
    }
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// How a JSON value's kind is named in messages to authors.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(kind: ConditionType, config: Value) -> Result<Check, ConfigProblem> {
        Check::read(kind, config.as_object().unwrap())
    }

    #[test]
    fn labels_read_like_the_editor_spec_examples() {
        let value = read(
            ConditionType::DeliverableValue,
            json!({"key": "issue_type", "value": "billing"}),
        )
        .unwrap();
        assert_eq!(value.describe(), "issue_type = billing");
        let turns = read(ConditionType::TurnCountExceeded, json!({"turns": 3})).unwrap();
        assert_eq!(turns.describe(), "after 3 turns without progress");
        let tool = read(
            ConditionType::ToolResult,
            json!({"tool": "verify_customer", "response_code": "CUSTOMER_VERIFIED"}),
        )
        .unwrap();
        assert_eq!(tool.describe(), "verify_customer → CUSTOMER_VERIFIED");
    }

    #[test]
    fn between_and_nested_groups_are_described_with_brackets() {
        let c = read(
            ConditionType::AnyOf,
            json!({"conditions": [
                {"condition_type": "deliverable_value_numeric",
                 "condition_config": {"key": "risk", "operator": "between", "min": 4, "max": 7}},
                {"condition_type": "compound", "condition_config": {"operator": "and", "conditions": [
                    {"condition_type": "deliverable_exists", "condition_config": {"key": "a"}},
                    {"condition_type": "deliverable_value_in", "condition_config": {"key": "b", "values": ["x", "y", "z"]}}
                ]}}
            ]}),
        )
        .unwrap();
        assert_eq!(
            c.describe(),
            "4 ≤ risk ≤ 7 or (a is known and b is x, y or z)"
        );
    }

    #[test]
    fn a_problem_deep_inside_a_composite_names_the_nested_field() {
        let err = read(
            ConditionType::AllOf,
            json!({"conditions": [
                {"condition_type": "deliverable_exists", "condition_config": {"key": "a"}},
                {"condition_type": "any_of", "condition_config": {"conditions": [
                    {"condition_type": "deliverable_value_numeric",
                     "condition_config": {"key": "n", "operator": "between", "min": 9, "max": 1}}
                ]}}
            ]}),
        )
        .unwrap_err();
        assert_eq!(
            err.pointer,
            "/condition_config/conditions/1/condition_config/conditions/0/condition_config/min"
        );
        assert!(err.message.contains("larger than max"), "{}", err.message);
    }

    #[test]
    fn empty_composite_unknown_operator_and_bad_turns_are_problems() {
        assert_eq!(
            read(ConditionType::AnyOf, json!({"conditions": []}))
                .unwrap_err()
                .pointer,
            "/condition_config/conditions"
        );
        assert_eq!(
            read(
                ConditionType::DeliverableValueNumeric,
                json!({"key": "n", "operator": "approx", "value": 1})
            )
            .unwrap_err()
            .pointer,
            "/condition_config/operator"
        );
        assert_eq!(
            read(ConditionType::TurnCountExceeded, json!({"turns": 0}))
                .unwrap_err()
                .pointer,
            "/condition_config/turns"
        );
        assert_eq!(
            read(
                ConditionType::TurnCountExceeded,
                json!({"turns": 2, "scope": "forever"})
            )
            .unwrap_err()
            .pointer,
            "/condition_config/scope"
        );
    }

    #[test]
    fn visiting_reports_every_broken_sibling_and_every_clean_leaf() {
        let config = json!({"conditions": [
            {"condition_type": "deliverable_exists", "condition_config": {}},
            {"condition_type": "any_of", "condition_config": {"conditions": []}},
            {"condition_type": "tool_result", "condition_config": {"tool": "t", "response_code": "OK"}},
            {"condition_type": "no_such_type"},
            {"condition_type": "turn_count_exceeded", "condition_config": {"turns": 2}, "extra": 1}
        ]});
        let mut seen = Vec::new();
        visit(ConditionType::AllOf, config.as_object().unwrap(), |n| {
            seen.push(match n {
                Node::Leaf { pointer, .. } => format!("leaf {pointer}"),
                Node::Problem { pointer, .. } => format!("problem {pointer}"),
            })
        });
        assert_eq!(
            seen,
            [
                "problem /condition_config/conditions/0",
                "problem /condition_config/conditions/1/condition_config/conditions",
                "leaf /condition_config/conditions/2",
                "problem /condition_config/conditions/4/extra",
            ]
        );
    }

    #[test]
    fn numeric_tests_hold_as_their_operators_say() {
        let inclusive = NumericTest::Between {
            min: 4.0,
            max: 7.0,
            inclusive: true,
        };
        let exclusive = NumericTest::Between {
            min: 4.0,
            max: 7.0,
            inclusive: false,
        };
        assert!(inclusive.holds(4.0) && inclusive.holds(7.0) && !inclusive.holds(7.5));
        assert!(!exclusive.holds(4.0) && exclusive.holds(5.0));
        assert!(NumericTest::Gte(8.0).holds(8.0) && !NumericTest::Gt(8.0).holds(8.0));
        assert!(NumericTest::Neq(1.0).holds(2.0));
    }

    #[test]
    fn every_condition_type_has_a_json_name_that_reads_back() {
        for t in ConditionType::ALL {
            assert_eq!(ConditionType::from_name(t.as_str()), Some(t));
            let json = serde_json::to_value(t).unwrap();
            assert_eq!(json, Value::String(t.as_str().into()));
        }
    }
}
