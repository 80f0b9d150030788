//! JSON objects that name one key twice. serde reads such a document and keeps the last value
//! (two `target_state_id` on one transition sent a chat to the second), so a plan would say one
//! thing to a reader and another to the runtime. One pass over the text finds the first such key
//! and where it is (a JSON Pointer to its second occurrence); keys are compared as borrowed slices of the
//! text, so the pass allocates only for keys written with escapes.
//!
//! The plan's own fields refuse a second key by themselves (serde's "duplicate field"); what the
//! plan keeps as free JSON (a condition's `condition_config`, a session state's values) is read
//! by [`unique_map`] and [`unique_value`], which refuse one too, at any depth, so that the fast
//! read fails and the slow one places the key.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// The first key found twice in one object: the JSON Pointer of its second occurrence, and the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// Where its second occurrence is (`/states/0/transitions/0/target_state_id`).
    pub pointer: String,
    /// The key it names twice.
    pub key: String,
}

/// The first key named twice in one object of `text`, if any; none for text that is not JSON
/// (its syntax is reported elsewhere).
pub fn first_duplicate_key(text: &str) -> Option<DuplicateKey> {
    let mut de = serde_json::Deserializer::from_str(text);
    // Called on text that read as JSON within the plans' depth (`crate::deep_json`).
    de.disable_recursion_limit();
    let mut walked = Walked::default();
    let _ = Walk(&mut walked).deserialize(&mut de);
    walked.found
}

/// What the walk keeps, shared by every level so that it allocates once, not per value: the
/// path to the value being read, the keys of the objects being read (each object's after the
/// enclosing ones'), and what was found.
#[derive(Default)]
struct Walked<'de> {
    path: Vec<Step<'de>>,
    keys: Vec<Cow<'de, str>>,
    found: Option<DuplicateKey>,
}

/// One step of a path: a key of an object or an index of a list.
enum Step<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

impl Walked<'_> {
    /// The path as a JSON Pointer (`~` → `~0`, `/` → `~1` in keys), made only when found.
    fn pointer(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            out.push('/');
            match step {
                Step::Key(k) => out.push_str(&k.replace('~', "~0").replace('/', "~1")),
                Step::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }
}

/// Walks one value, stopping at the first duplicate key.
struct Walk<'w, 'de>(&'w mut Walked<'de>);

impl<'de> DeserializeSeed<'de> for Walk<'_, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let walked = self.0;
        let mut index = 0usize;
        loop {
            if walked.found.is_some() {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                return Ok(());
            }
            walked.path.push(Step::Index(index));
            let more = seq.next_element_seed(Walk(&mut *walked))?.is_some();
            walked.path.pop();
            if !more {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let walked = self.0;
        // This object's keys follow the enclosing objects' on the shared list; objects of a plan
        // have a handful of keys, so a scan beats a hash set.
        let start = walked.keys.len();
        while let Some(key) = map.next_key_seed(Key)? {
            if walked.found.is_some() {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            if walked.keys[start..].contains(&key) {
                walked.path.push(Step::Key(key.clone()));
                walked.found = Some(DuplicateKey {
                    pointer: walked.pointer(),
                    key: key.into_owned(),
                });
                walked.path.pop();
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            walked.path.push(Step::Key(key.clone()));
            map.next_value_seed(Walk(&mut *walked))?;
            walked.path.pop();
            walked.keys.push(key);
        }
        walked.keys.truncate(start);
        Ok(())
    }
}

/// A key, borrowed from the text when it has no escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_string()))
    }
}

/// Reads a JSON object as serde_json's map, refusing a key given twice in it or in any object
/// inside it (serde_json's own map keeps the last one silently).
pub fn unique_map<'de, D: Deserializer<'de>>(d: D) -> Result<Map<String, Value>, D::Error> {
    match d.deserialize_any(UniqueValue)? {
        Value::Object(map) => Ok(map),
        other => Err(de::Error::invalid_type(unexpected(&other), &"an object")),
    }
}

/// Reads any JSON value, refusing a key given twice in any object inside it.
pub fn unique_value<'de, D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
    d.deserialize_any(UniqueValue)
}

/// [`unique_value`] for an optional field (`null` is `None`).
pub fn unique_optional_value<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Ok(match unique_value(d)? {
        Value::Null => None,
        v => Some(v),
    })
}

fn unexpected(v: &Value) -> de::Unexpected<'_> {
    match v {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(_) => de::Unexpected::Other("a number"),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

/// Builds a `Value` as serde_json does, but refuses an object with a key given twice.
struct UniqueValue;

impl<'de> DeserializeSeed<'de> for UniqueValue {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueValue {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(UniqueValue)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            let value = map.next_value_seed(UniqueValue)?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_key_named_twice_is_found_with_its_object() {
        let text = r#"{"states": [{"id": "a"}, {"id": "b", "transitions": [
            {"target_state_id": "x", "priority": 1, "target_state_id": "y"}]}]}"#;
        assert_eq!(
            first_duplicate_key(text),
            Some(DuplicateKey {
                pointer: "/states/1/transitions/0/target_state_id".into(),
                key: "target_state_id".into()
            })
        );
        assert_eq!(
            first_duplicate_key(r#"{"id": "p", "id": "q"}"#).map(|d| d.pointer),
            Some("/id".to_string())
        );
    }

    #[test]
    fn the_same_key_in_different_objects_and_escaped_keys_are_told_apart() {
        assert_eq!(
            first_duplicate_key(r#"{"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}]}"#),
            None
        );
        // "\u0061" is "a": the same key, written two ways.
        let escaped = first_duplicate_key(r#"{"a": 1, "\u0061": 2}"#);
        assert_eq!(escaped.map(|d| d.key), Some("a".into()));
        assert_eq!(first_duplicate_key("not json"), None);
        let sample = include_str!("../../plans/customer-support.json");
        assert_eq!(first_duplicate_key(sample), None);
    }

    #[test]
    fn free_json_read_strictly_refuses_a_key_given_twice_at_any_depth() {
        let read = |text: &str| unique_value(&mut serde_json::Deserializer::from_str(text));
        let v =
            read(r#"{"a": [1, -2, 2.5, "x", true, null, {"b": {}}], "c": 18446744073709551615}"#);
        assert_eq!(
            v.unwrap(),
            serde_json::from_str::<Value>(
                r#"{"a": [1, -2, 2.5, "x", true, null, {"b": {}}], "c": 18446744073709551615}"#
            )
            .unwrap()
        );
        let twice = read(r#"{"key": "issue", "value": "technical", "value": "billing"}"#);
        assert!(twice
            .unwrap_err()
            .to_string()
            .contains("duplicate field `value`"));
        let deep = read(r#"{"conditions": [{"condition_config": {"key": "a", "key": "b"}}]}"#);
        assert!(deep.is_err());
        let map = unique_map(&mut serde_json::Deserializer::from_str("[1]"));
        assert!(map.is_err());
    }
}
