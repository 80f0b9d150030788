//! One condition's settings as the condition builder shows them: each read leniently and typed, so
//! a half-made condition of a draft still shows what it has (where [`super::Check::read`] stops at
//! the first thing wrong). Values an author types are kept as the text shown in the field.

use serde_json::{Map, Value};

use super::change::NumberField;
use super::operators::{Combine, NumericOperator, SessionOperator};
use super::TurnScope;

/// The settings of one condition, whatever its type; a setting it lacks reads empty.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Settings {
    /// The deliverable key a value test reads.
    pub key: String,
    /// The value compared with, as text: `value`'s, a list's items comma-separated.
    pub value: String,
    /// `values` (of "is one of"), each as text.
    pub values: Vec<String>,
    /// A number comparison's operator.
    pub numeric: Option<NumericOperator>,
    /// `min` of a number comparison, as text.
    pub min: String,
    /// `max` of a number comparison, as text.
    pub max: String,
    /// `turns`, as text.
    pub turns: String,
    /// `visits`, as text.
    pub visits: String,
    /// Which turns count (without progress when unset).
    pub scope: TurnScope,
    /// The state whose visits count; none: the state the condition is in.
    pub visited_state: Option<String>,
    /// The tool whose result is tested.
    pub tool: String,
    /// The response code tested.
    pub response_code: String,
    /// Whether the test is turned around.
    pub negated: bool,
    /// The session state tested.
    pub session_state: String,
    /// A session state comparison's operator (`=` when unset).
    pub session_operator: SessionOperator,
    /// How a compound combines, when it says.
    pub combine: Option<Combine>,
    /// How many conditions a composite holds.
    pub children: usize,
}

impl Settings {
    /// Reads `config`, keeping what fits and leaving the rest empty.
    pub fn of(config: &Map<String, Value>) -> Settings {
        let text = |field: &str| config.get(field).map(shown).unwrap_or_default();
        let word = |field: &str| config.get(field).and_then(Value::as_str);
        let operator = word("operator").unwrap_or_default();
        Settings {
            key: text("key"),
            value: match (config.get("values"), config.get("value")) {
                (Some(Value::Array(values)), _) => joined(values),
                _ => text("value"),
            },
            values: config
                .get("values")
                .and_then(Value::as_array)
                .map(|values| values.iter().map(shown).collect())
                .unwrap_or_default(),
            numeric: NumericOperator::from_name(operator),
            min: text("min"),
            max: text("max"),
            turns: text("turns"),
            visits: text("visits"),
            scope: word("scope")
                .and_then(TurnScope::from_name)
                .unwrap_or_default(),
            visited_state: word("state_id").map(str::to_string),
            tool: text("tool"),
            response_code: text("response_code"),
            negated: config.get("negated").and_then(Value::as_bool) == Some(true),
            session_state: text("session_state"),
            session_operator: SessionOperator::from_name(operator).unwrap_or_default(),
            combine: Combine::from_name(operator),
            children: config
                .get("conditions")
                .and_then(Value::as_array)
                .map_or(0, Vec::len),
        }
    }

    /// A number setting, as text.
    pub fn number(&self, field: NumberField) -> &str {
        match field {
            NumberField::Value => &self.value,
            NumberField::Min => &self.min,
            NumberField::Max => &self.max,
            NumberField::Turns => &self.turns,
            NumberField::Visits => &self.visits,
        }
    }
}

/// A value as an author reads it: text as is, a list's items comma-separated, anything else as
/// JSON writes it (`3`, `true`).
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Array(items) => joined(items),
        other => other.to_string(),
    }
}

/// Values as an author types them: `a, b, 3`.
pub fn joined(values: &[Value]) -> String {
    values.iter().map(shown).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn settings(config: Value) -> Settings {
        Settings::of(config.as_object().expect("an object"))
    }

    #[test]
    fn each_setting_reads_as_the_field_shows_it() {
        let s = settings(json!({"key": "age", "operator": "between", "min": 3, "max": 7.5}));
        assert_eq!(s.key, "age");
        assert_eq!(s.numeric, Some(NumericOperator::Between));
        assert_eq!(
            (s.number(NumberField::Min), s.number(NumberField::Max)),
            ("3", "7.5")
        );
        let s = settings(json!({"session_state": "tags", "operator": "in", "values": ["a", 2]}));
        assert_eq!(s.session_operator, SessionOperator::In);
        assert_eq!(s.values, ["a", "2"]);
        assert_eq!(s.value, "a, 2", "the session value field shows the list");
        let s = settings(json!({"turns": 4, "scope": "total", "state_id": "b"}));
        assert_eq!((s.turns.as_str(), s.scope), ("4", TurnScope::Total));
        assert_eq!(s.visited_state.as_deref(), Some("b"));
        let s = settings(json!({"operator": "or", "conditions": [{}, {}], "negated": true}));
        assert_eq!(
            (s.combine, s.children, s.negated),
            (Some(Combine::Or), 2, true)
        );
    }

    #[test]
    fn a_half_made_condition_reads_what_it_has() {
        let s = settings(json!({"key": 3, "operator": "nearly", "scope": "sometimes"}));
        assert_eq!(s.key, "3");
        assert_eq!(s.numeric, None);
        assert_eq!(s.session_operator, SessionOperator::Eq);
        assert_eq!(s.scope, TurnScope::WithoutProgress);
        assert_eq!(settings(json!({})), Settings::default());
    }
}
