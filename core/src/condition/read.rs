//! Reading a `condition_config` into a typed [`Check`], field by field, with a problem that
//! names the field (a JSON Pointer relative to the condition) at the first thing wrong.

use serde_json::{Map, Value};

use super::{
    kind_of, num, or_list, pointer_escape, Check, ConditionType, ConfigProblem, NumericTest,
    TurnScope,
};

impl<'a> Check<'a> {
    /// Reads a condition of type `kind` with the parameters `config`, borrowing from it.
    pub fn read(
        kind: ConditionType,
        config: &'a Map<String, Value>,
    ) -> Result<Check<'a>, ConfigProblem> {
        let mut cfg = Config::new(config);
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
            ConditionType::VisitCountExceeded => cfg.visits()?,
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
                match operator {
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
}

/// A problem with the config field at `field` (`"/key"`, `"/conditions/0"`), or with the condition
/// itself when `field` is empty.
pub(super) fn problem(field: &str, message: String) -> ConfigProblem {
    ConfigProblem {
        pointer: if field.is_empty() {
            String::new()
        } else {
            format!("/condition_config{field}")
        },
        message,
    }
}
/// A setting `k` that a condition taking only `allowed` does not have.
fn unknown_setting(k: &str, allowed: &[&str]) -> ConfigProblem {
    let at = format!("/{}", pointer_escape(k));
    if allowed.is_empty() {
        return problem(
            &at,
            format!("this condition takes no settings, but has \"{k}\""),
        );
    }
    let expected: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
    problem(
        &at,
        format!("unknown setting \"{k}\" (expected {})", or_list(&expected)),
    )
}

/// Field access over one `condition_config` with errors that name the field.
pub(super) struct Config<'a> {
    map: &'a Map<String, Value>,
    /// The fields [`Config::only`] allowed, and the value of each it found in its one pass over
    /// the map: a field read after it is not searched for again among the map's keys (that search,
    /// `serde_json`'s `index_into`, was 5 % of validating the session-states benchmark's plan, perf).
    found: Found<'a>,
}

type Found<'a> = (&'static [&'static str], [Option<&'a Value>; MOST_FIELDS]);

/// The most settings a condition type has (`deliverable_value_numeric` with `between`).
const MOST_FIELDS: usize = 5;

impl<'a> Config<'a> {
    pub(super) fn new(map: &'a Map<String, Value>) -> Self {
        Config {
            map,
            found: (&[], [None; MOST_FIELDS]),
        }
    }

    /// The field `name`, if the config has it.
    pub(super) fn field(&self, name: &str) -> Option<&'a Value> {
        let (allowed, values) = self.found;
        match allowed.iter().position(|a| *a == name) {
            Some(i) => values[i],
            None => self.map.get(name),
        }
    }

    /// Refuses a field not in `allowed` (at most [`MOST_FIELDS`]), and keeps the allowed ones'
    /// values for reading.
    pub(super) fn only(&mut self, allowed: &'static [&'static str]) -> Result<(), ConfigProblem> {
        debug_assert!(allowed.len() <= MOST_FIELDS);
        let mut values = [None; MOST_FIELDS];
        for (k, v) in self.map {
            match allowed.iter().position(|a| *a == k.as_str()) {
                Some(i) => values[i] = Some(v),
                None => return Err(unknown_setting(k, allowed)),
            }
        }
        self.found = (allowed, values);
        Ok(())
    }

    pub(super) fn get(&self, field: &str) -> Result<&'a Value, ConfigProblem> {
        self.field(field)
            .ok_or_else(|| problem("", format!("\"{field}\" is missing")))
    }

    pub(super) fn string(&self, field: &str) -> Result<&'a str, ConfigProblem> {
        match self.get(field)? {
            Value::String(s) if !s.is_empty() => Ok(s),
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

    pub(super) fn key(&self) -> Result<&'a str, ConfigProblem> {
        self.string("key")
    }

    pub(super) fn scalar(&self, field: &str) -> Result<&'a Value, ConfigProblem> {
        let v = self.get(field)?;
        if is_scalar(v) {
            Ok(v)
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

    pub(super) fn scalars(&self, field: &str) -> Result<&'a [Value], ConfigProblem> {
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
        Ok(items)
    }

    pub(super) fn number(&self, field: &str) -> Result<f64, ConfigProblem> {
        match self.get(field)? {
            Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
            other => Err(problem(
                &format!("/{field}"),
                format!("\"{field}\" must be a number, not {}", kind_of(other)),
            )),
        }
    }

    pub(super) fn optional_bool(&self, field: &str) -> Result<Option<bool>, ConfigProblem> {
        match self.field(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(problem(
                &format!("/{field}"),
                format!("\"{field}\" must be true or false, not {}", kind_of(other)),
            )),
        }
    }

    pub(super) fn numeric(&mut self) -> Result<Check<'a>, ConfigProblem> {
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
            match operator {
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

    pub(super) fn turns(&mut self) -> Result<Check<'a>, ConfigProblem> {
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
        let scope = match self.field("scope") {
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

    pub(super) fn visits(&mut self) -> Result<Check<'a>, ConfigProblem> {
        self.only(&["visits", "state_id"])?;
        let visits = match self.get("visits")? {
            Value::Number(n) if n.as_u64().is_some_and(|t| t >= 1) => n.as_u64().unwrap_or(1),
            other => {
                return Err(problem(
                    "/visits",
                    format!("\"visits\" must be a whole number of at least 1, not {other}"),
                ))
            }
        };
        let state_id = match self.field("state_id") {
            None => None,
            Some(_) => Some(self.string("state_id")?),
        };
        Ok(Check::VisitCountExceeded { visits, state_id })
    }

    pub(super) fn children(&self) -> Result<Vec<Check<'a>>, ConfigProblem> {
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
fn read_child(item: &Value) -> Result<Check<'_>, ConfigProblem> {
    let (kind, config) = child_parts(item)?;
    Check::read(kind, config)
}

/// The type and config of a nested condition object, or what is wrong with its shape. An unknown
/// `condition_type` is reported here too, for callers that read without parsing first.
pub(super) fn child_parts(
    item: &Value,
) -> Result<(ConditionType, &Map<String, Value>), ConfigProblem> {
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

pub(super) fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}
