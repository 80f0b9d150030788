//! Transition conditions: the eleven condition types, a typed reading of a `condition_config`, and
//! the short label an author reads on an arrow ("issue_type = billing").
//!
//! A transition stores its condition as `condition_type` plus raw JSON, because everything inside a
//! config is the validator's business (`invalid-condition-config`) and must never stop a plan from
//! loading. [`Check::read`] turns that raw form into a typed tree, or says exactly what is wrong and
//! where (a JSON Pointer relative to the condition), to any depth.

pub mod change;
mod operators;
mod read;
mod session_states;
mod settings;
mod visit;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use operators::{Combine, NumericOperator, SessionOperator};
pub use session_states::SessionTest;
pub use settings::{joined, Settings};
pub use visit::{visit, Node};

/// The condition types of the plan format.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConditionType {
    /// Every required task of the current state is done.
    AllTasksComplete,
    /// The current goal state's goal is achieved.
    GoalAchieved,
    /// A deliverable key has a value.
    DeliverableExists,
    /// A deliverable key has one given value.
    DeliverableValue,
    /// A deliverable key has one of several values.
    DeliverableValueIn,
    /// A number key compares with a number or a range.
    DeliverableValueNumeric,
    /// More turns than a number have passed, in the state or in the conversation.
    TurnCountExceeded,
    /// Every nested condition holds.
    AllOf,
    /// At least one nested condition holds.
    AnyOf,
    /// `all_of` or `any_of`, as its `operator` says.
    Compound,
    /// A tool answered with a given response code (or, negated, did not).
    ToolResult,
    /// A session state is active (or, negated, is not).
    SessionStateActive,
    /// A session state's value compares with a value.
    SessionStateValue,
    /// A state has been entered a number of times or more.
    VisitCountExceeded,
}

impl ConditionType {
    /// Every condition type, in the order the format lists them.
    pub const ALL: [ConditionType; 14] = [
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
        ConditionType::VisitCountExceeded,
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
            ConditionType::VisitCountExceeded => "visit_count_exceeded",
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
    /// What kind of condition it is.
    pub condition_type: ConditionType,
    /// Its settings, as the kind reads them (docs/plan-format.md, "Conditions").
    #[serde(
        default,
        skip_serializing_if = "Map::is_empty",
        deserialize_with = "crate::duplicate_keys::unique_map"
    )]
    pub condition_config: Map<String, Value>,
}

impl Condition {
    /// The condition read into a typed tree, or what is wrong with it.
    pub fn read(&self) -> Result<Check<'_>, ConfigProblem> {
        Check::read(self.condition_type, &self.condition_config)
    }
}

/// A numeric comparison operator of `deliverable_value_numeric`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumericTest {
    /// Greater than.
    Gt(f64),
    /// Greater than or equal to.
    Gte(f64),
    /// Less than.
    Lt(f64),
    /// Less than or equal to.
    Lte(f64),
    /// Equal to.
    Eq(f64),
    /// Not equal to.
    Neq(f64),
    /// Between `min` and `max`, the ends included when `inclusive`.
    Between {
        /// The lower end.
        min: f64,
        /// The upper end.
        max: f64,
        /// Whether the ends are in the range.
        inclusive: bool,
    },
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TurnScope {
    /// Consecutive turns in this visit with no progress (when a condition does not say).
    #[default]
    WithoutProgress,
    /// All user turns in this visit.
    Total,
}

/// A condition read into a typed tree. `compound` reads as [`Check::AllOf`] or [`Check::AnyOf`].
/// It borrows its names and values from the config it was read from (`'a`): the validator reads
/// every condition of a plan, the runtime those of the current state each turn, and neither makes
/// a string to do so (a copy of each name was 12 % of the session-states benchmark's validation).
#[derive(Debug, Clone, PartialEq)]
pub enum Check<'a> {
    /// See [`ConditionType::AllTasksComplete`].
    AllTasksComplete,
    /// See [`ConditionType::GoalAchieved`].
    GoalAchieved,
    /// The key has a value.
    DeliverableExists {
        /// The deliverable key.
        key: &'a str,
    },
    /// The key has this value.
    DeliverableValue {
        /// The deliverable key.
        key: &'a str,
        /// The value it must have.
        value: &'a Value,
    },
    /// The key has one of these values.
    DeliverableValueIn {
        /// The deliverable key.
        key: &'a str,
        /// The values allowed.
        values: &'a [Value],
    },
    /// The number key compares as `test` says.
    DeliverableValueNumeric {
        /// The deliverable key.
        key: &'a str,
        /// The comparison.
        test: NumericTest,
    },
    /// More than `turns` turns passed in `scope`.
    TurnCountExceeded {
        /// The number of turns to exceed.
        turns: u64,
        /// In the state, or in the whole conversation.
        scope: TurnScope,
    },
    /// Every check holds.
    AllOf(Vec<Check<'a>>),
    /// At least one check holds.
    AnyOf(Vec<Check<'a>>),
    /// The tool answered `response_code` (or, when `negated`, did not).
    ToolResult {
        /// The tool's name.
        tool: &'a str,
        /// The response code.
        response_code: &'a str,
        /// Whether the check is the opposite.
        negated: bool,
    },
    /// Session state `id` is active (or, when `negated`, is not).
    SessionStateActive {
        /// The session state's id.
        id: &'a str,
        /// Whether the check is the opposite.
        negated: bool,
    },
    /// Session state `id`'s value passes `test`.
    SessionStateValue {
        /// The session state's id.
        id: &'a str,
        /// The comparison.
        test: SessionTest<'a>,
    },
    /// State `state_id` (none: the current state) has been entered `visits` times or more.
    VisitCountExceeded {
        /// The number of visits to reach.
        visits: u64,
        /// The state counted; none: the current state.
        state_id: Option<&'a str>,
    },
}

/// What is wrong inside a condition config, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// JSON Pointer relative to the condition object: the transition for a top-level condition, the
    /// `{condition_type, condition_config}` object for a nested one. A field inside the config is
    /// `/condition_config/<field>`; empty means the condition itself (a missing field, say).
    pub pointer: String,
    /// What is wrong, in words.
    pub message: String,
}

impl Check<'_> {
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
            Check::VisitCountExceeded { visits, state_id } => {
                let times = if *visits == 1 { "time" } else { "times" };
                match state_id {
                    Some(id) => format!("{id} entered {visits} {times}"),
                    None => format!("entered {visits} {times}"),
                }
            }
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

/// A value on an arrow as the inspector says it: yes or no for a boolean, a text as it is.
fn show(v: &Value) -> String {
    crate::coerce::in_words(v)
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

/// Escapes a key for use inside a JSON Pointer (RFC 6901).
pub fn pointer_escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
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

    /// What an author reads on the arrow of this condition, or its problem.
    fn read(kind: ConditionType, config: Value) -> Result<String, ConfigProblem> {
        Check::read(kind, config.as_object().unwrap()).map(|c| c.describe())
    }

    #[test]
    fn labels_read_like_the_editor_spec_examples() {
        let value = read(
            ConditionType::DeliverableValue,
            json!({"key": "issue_type", "value": "billing"}),
        )
        .unwrap();
        assert_eq!(value, "issue_type = billing");
        let turns = read(ConditionType::TurnCountExceeded, json!({"turns": 3})).unwrap();
        assert_eq!(turns, "after 3 turns without progress");
        let tool = read(
            ConditionType::ToolResult,
            json!({"tool": "verify_customer", "response_code": "CUSTOMER_VERIFIED"}),
        )
        .unwrap();
        assert_eq!(tool, "verify_customer → CUSTOMER_VERIFIED");
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
        assert_eq!(c, "4 ≤ risk ≤ 7 or (a is known and b is x, y or z)");
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
