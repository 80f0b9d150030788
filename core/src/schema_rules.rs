//! The shape rules of `parse/shapes.rs` that JSON Schema can also say, added to the derived
//! schemas so that an editor or a CI pipeline validating with `plan schema` refuses what
//! `plan check` refuses with a `schema` finding: a prompt session state's fields, enum choices,
//! what a session change must say, and `ttl_turns` only on a yield.
//!
//! Each rule is an `if`/`then` (or a `not`) appended to the type's `allOf`, so the derived
//! properties stay as serde describes them.

use schemars::Schema;
use serde_json::{json, Value};

/// Adds `rule` to the schema's `allOf`.
fn require(schema: &mut Schema, rule: Value) {
    let all = schema
        .ensure_object()
        .entry("allOf")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(list) = all {
        list.push(rule);
    }
}

/// `{"if": <field is value>}`: the field given and equal to `value`.
fn given(field: &str, value: &str) -> Value {
    json!({"properties": {field: {"const": value}}, "required": [field]})
}

/// The choices of an enum: at least one, none twice; and `enum_values` on nothing else.
fn enum_choices(schema: &mut Schema) {
    require(
        schema,
        json!({
            "if": given("type", "enum"),
            "then": {
                "required": ["enum_values"],
                "properties": {"enum_values": {"minItems": 1, "uniqueItems": true}}
            },
            "else": {"not": {"required": ["enum_values"]}}
        }),
    );
}

/// A session state: a prompt state has its `prompt`, no `value` and is not a list; `prompt` is on
/// nothing else; enum choices as for deliverables.
pub fn session_state(schema: &mut Schema) {
    require(
        schema,
        json!({
            "if": given("type", "prompt"),
            "then": {
                "required": ["prompt"],
                "not": {"required": ["value"]},
                "properties": {"list": {"const": false}}
            },
            "else": {"not": {"required": ["prompt"]}}
        }),
    );
    enum_choices(schema);
}

/// A deliverable: enum choices.
pub fn deliverable(schema: &mut Schema) {
    enum_choices(schema);
}

/// A session change says at least one of `value`, `add`, `active`, and not both `value` and
/// `add`.
pub fn session_change(schema: &mut Schema) {
    require(
        schema,
        json!({"anyOf": [
            {"required": ["value"]},
            {"required": ["add"]},
            {"required": ["active"]}
        ]}),
    );
    require(schema, json!({"not": {"required": ["value", "add"]}}));
}

/// An interruption: `ttl_turns` 0 or more, and above 0 only on a yield (the default kind).
pub fn interruption(schema: &mut Schema) {
    require(
        schema,
        json!({
            "properties": {"ttl_turns": {"minimum": 0}},
            "if": {"properties": {"kind": {"enum": ["abandon", "preempt"]}}, "required": ["kind"]},
            "then": {"properties": {"ttl_turns": {"const": 0}}}
        }),
    );
}
