//! plan-core: the plan model and everything pure about plans, shared by the desktop app, its UI
//! (compiled to wasm) and the `plan` command line (through `plan-api`).
//!
//! No IO outside the `fs` feature, no clock, no randomness: callers pass those in.

pub mod coerce;
pub mod condition;
pub mod coverage;
pub mod deep_json;
pub mod diff;
pub mod draft_changes;
pub mod duplicate_keys;
pub mod edit;
pub mod evaluation;
pub mod explore;
#[cfg(feature = "fs")]
pub mod files;
pub mod flow_import;
pub mod hash;
pub mod interruption;
pub mod layout;
pub mod merge;
pub mod parse;
pub mod plan;
pub mod plan_json;
pub mod revision;
pub mod rule;
pub mod runtime;
#[cfg(feature = "schema")]
mod schema_rules;
pub mod session_state;
pub mod simulate;
#[cfg(feature = "fs")]
pub mod store;
pub mod synthetic;
pub mod template;
pub mod unreadable;
pub mod validate;

pub use condition::{Check, ConditionType};
pub use parse::{parse_plan, ParseProblem};
pub use plan::{Plan, State, StateType, Transition};
pub use revision::Revision;
pub use validate::{check_bytes, check_text, validate, Code, Diagnostic, Report, Severity};

/// The JSON Schema of a persona file (simulate.md, "Personas"): its shape; what it names is
/// checked against the plan it runs with.
#[cfg(feature = "schema")]
pub fn persona_schema() -> serde_json::Value {
    let mut schema =
        serde_json::to_value(schemars::schema_for!(simulate::Persona)).unwrap_or_default();
    if let Some(obj) = schema.as_object_mut() {
        obj.insert(
            "title".into(),
            serde_json::Value::String("Plan Builder persona".into()),
        );
    }
    schema
}

/// The JSON Schema of the plan format. It describes the document's shape, with the shape rules a
/// schema can say (`schema_rules`); the validator checks its meaning (what states and keys exist,
/// what a condition reads).
#[cfg(feature = "schema")]
pub fn json_schema() -> serde_json::Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(Plan)).unwrap_or_default();
    if let Some(obj) = schema.as_object_mut() {
        obj.insert(
            "title".into(),
            serde_json::Value::String("Plan Builder plan (schema_version 1)".into()),
        );
    }
    schema
}
