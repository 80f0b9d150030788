//! Coercing a value to a deliverable's type, the one rule shared by recording a value at run time
//! and by comparing one in a condition: numbers from numeric text, booleans from
//! true/false/yes/no, enum values case-insensitively to their canonical spelling.

use serde_json::{Number, Value};

use crate::plan::{Deliverable, DeliverableType};

/// `value` as a value of `d`'s type, or `None` when it cannot be one.
pub fn coerce(value: &Value, d: &Deliverable) -> Option<Value> {
    coerce_to(value, d.kind, d.enum_values.as_deref())
}

/// `value` as one value of type `kind` (with `enum_values` for an enum), or `None`.
pub fn coerce_to(
    value: &Value,
    kind: DeliverableType,
    enum_values: Option<&[String]>,
) -> Option<Value> {
    match kind {
        DeliverableType::String => match value {
            Value::String(s) => Some(Value::String(s.clone())),
            Value::Number(n) => Some(Value::String(n.to_string())),
            Value::Bool(b) => Some(Value::String(b.to_string())),
            _ => None,
        },
        DeliverableType::Number => match value {
            Value::Number(n) => Some(Value::Number(n.clone())),
            Value::String(s) => {
                // `7` stays a whole number, so a recorded value reads as the author typed it.
                let s = s.trim();
                if let Ok(i) = s.parse::<i64>() {
                    return Some(Value::Number(i.into()));
                }
                let x: f64 = s.parse().ok()?;
                Number::from_f64(x).map(Value::Number)
            }
            _ => None,
        },
        DeliverableType::Boolean => match value {
            Value::Bool(b) => Some(Value::Bool(*b)),
            Value::String(s) => match s.trim().to_lowercase().as_str() {
                "true" | "yes" => Some(Value::Bool(true)),
                "false" | "no" => Some(Value::Bool(false)),
                _ => None,
            },
            _ => None,
        },
        DeliverableType::Enum => {
            let Value::String(s) = value else {
                return None;
            };
            enum_value(s, enum_values).map(|v| Value::String(v.clone()))
        }
    }
}

/// Whether `value` can be a value of `d`'s type: [`coerce`]`(value, d).is_some()` without making
/// the value. The validator asks it of every value a condition compares with (three allocations
/// for an enum key otherwise, measured in the session-states benchmark).
pub fn fits(value: &Value, d: &Deliverable) -> bool {
    match d.kind {
        DeliverableType::Enum => match value {
            Value::String(s) => enum_value(s, d.enum_values.as_deref()).is_some(),
            _ => false,
        },
        DeliverableType::String => {
            matches!(value, Value::String(_) | Value::Number(_) | Value::Bool(_))
        }
        DeliverableType::Number | DeliverableType::Boolean => coerce(value, d).is_some(),
    }
}

/// The canonical spelling of `s` among `enum_values`, compared case-insensitively and trimmed: the
/// first value whose `to_lowercase()` is that of `s`. For ASCII text on both sides that is the
/// ASCII comparison, which makes no strings.
fn enum_value<'v>(s: &str, enum_values: Option<&'v [String]>) -> Option<&'v String> {
    let wanted = s.trim();
    let ascii = wanted.is_ascii();
    let mut lowered: Option<String> = None;
    enum_values.into_iter().flatten().find(|v| {
        if ascii && v.is_ascii() {
            v.eq_ignore_ascii_case(wanted)
        } else {
            v.to_lowercase() == *lowered.get_or_insert_with(|| wanted.to_lowercase())
        }
    })
}

/// `value` as the value of session state `s`: one value of its type, or for a list state a JSON
/// array (or text split at commas, each part trimmed) of them; `None` when it does not fit, and
/// for a prompt state, which has no value.
pub fn coerce_session(value: &Value, s: &crate::plan::SessionState) -> Option<Value> {
    let kind = s.value_type()?;
    let one = |v: &Value| coerce_to(v, kind, s.enum_values.as_deref());
    if !s.list {
        return one(value);
    }
    let items: Vec<Value> = match value {
        Value::Array(items) => items.clone(),
        Value::String(text) if text.trim().is_empty() => Vec::new(),
        Value::String(text) => text
            .split(',')
            .map(|p| Value::String(p.trim().to_string()))
            .collect(),
        _ => return None,
    };
    items
        .iter()
        .map(one)
        .collect::<Option<Vec<_>>>()
        .map(Value::Array)
}

/// A value as an author reads it in a sentence: yes or no for a boolean, a text as it is.
pub fn in_words(value: &Value) -> String {
    match value {
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn d(kind: DeliverableType, values: Option<&[&str]>) -> Deliverable {
        Deliverable {
            key: "k".into(),
            kind,
            enum_values: values.map(|v| v.iter().map(|s| s.to_string()).collect()),
            required: true,
            description: String::new(),
        }
    }

    #[test]
    fn values_coerce_as_the_runtime_records_them() {
        let number = d(DeliverableType::Number, None);
        assert_eq!(coerce(&json!(" 7.5 "), &number), Some(json!(7.5)));
        assert_eq!(coerce(&json!("seven"), &number), None);
        assert_eq!(coerce(&json!("7"), &number), Some(json!(7)));
        let boolean = d(DeliverableType::Boolean, None);
        assert_eq!(coerce(&json!("Yes"), &boolean), Some(json!(true)));
        assert_eq!(coerce(&json!(1), &boolean), None);
        let choice = d(DeliverableType::Enum, Some(&["billing", "technical"]));
        assert_eq!(coerce(&json!("Billing"), &choice), Some(json!("billing")));
        assert_eq!(coerce(&json!("refund"), &choice), None);
        assert_eq!(coerce(&json!(true), &choice), None);
        let text = d(DeliverableType::String, None);
        assert_eq!(coerce(&json!(42), &text), Some(json!("42")));
    }

    #[test]
    fn fits_answers_as_coerce_does() {
        let kinds = [
            d(DeliverableType::Number, None),
            d(DeliverableType::Boolean, None),
            d(DeliverableType::String, None),
            d(
                DeliverableType::Enum,
                Some(&["billing", "Technical", "Ärger", "\u{212a}elvin"]),
            ),
            d(DeliverableType::Enum, None),
        ];
        let values = [
            json!(" 7.5 "),
            json!("seven"),
            json!(7),
            json!("Yes"),
            json!(true),
            json!(null),
            json!([1]),
            json!({"a": 1}),
            json!(" BILLING "),
            json!("technical"),
            json!("ärger"),
            json!("ÄRGER"),
            json!("kelvin"),
            json!("refund"),
        ];
        for d in &kinds {
            for v in &values {
                assert_eq!(fits(v, d), coerce(v, d).is_some(), "{v} as {:?}", d.kind);
            }
        }
        let choice = &kinds[3];
        assert_eq!(coerce(&json!("ärger"), choice), Some(json!("Ärger")));
        assert_eq!(
            coerce(&json!("kelvin"), choice),
            Some(json!("\u{212a}elvin"))
        );
    }
}
