//! The shape rules of the plan's side lists, which serde cannot express: session states,
//! interruptions and rules, each problem a `schema` finding at its pointer (see
//! [`super::shape_problems`]).

use super::{is_key, is_slug, nested_type_problems};
use crate::plan::{Interruption, InterruptionKind, Rule, SessionState, SessionType};

/// The shape rules of one session state: its id, what a prompt state has and has not, enum values.
pub(super) fn session_state_problems(
    st: &SessionState,
    i: usize,
    schema: &mut impl FnMut(String, String),
) {
    let at = |field: &str| format!("/session_states/{i}{field}");
    let id = &st.id;
    if !is_key(id) {
        schema(
            at("/id"),
            format!("session state id \"{id}\" must start with a letter or '_' and hold only letters, digits and '_'"),
        );
    }
    if st.kind == SessionType::Prompt {
        if st.prompt.is_none() {
            schema(
                at(""),
                format!("prompt state \"{id}\" needs \"prompt\": the text it adds"),
            );
        }
        if st.value.is_some() {
            schema(
                at("/value"),
                format!("prompt state \"{id}\" has no value: remove \"value\""),
            );
        }
        if st.list {
            schema(
                at("/list"),
                format!("prompt state \"{id}\" cannot be a list"),
            );
        }
    } else if st.prompt.is_some() {
        schema(
            at("/prompt"),
            format!(
                "\"prompt\" only belongs on a prompt state; \"{id}\" is {}",
                st.kind.as_str()
            ),
        );
    }
    match (st.kind, &st.enum_values) {
        (SessionType::Enum, None) => schema(
            at(""),
            format!(
                "the session state \"{id}\" is a choice without a list of choices: add its choices"
            ),
        ),
        (SessionType::Enum, Some(values)) if values.is_empty() => schema(
            at("/enum_values"),
            format!("the session state \"{id}\" is a choice with no choices yet: add at least one"),
        ),
        (SessionType::Enum, Some(values)) => {
            for (v, value) in values.iter().enumerate() {
                if values[..v].contains(value) {
                    schema(
                        at(&format!("/enum_values/{v}")),
                        format!("enum session state \"{id}\" lists \"{value}\" twice"),
                    );
                }
            }
        }
        (_, Some(_)) => schema(
            at("/enum_values"),
            format!(
                "\"enum_values\" only belongs on an enum session state; \"{id}\" is {}",
                st.kind.as_str()
            ),
        ),
        (_, None) => {}
    }
    for (field, condition) in [
        ("/auto_activate", &st.auto_activate),
        ("/auto_deactivate", &st.auto_deactivate),
    ] {
        if let Some(c) = condition {
            if c.condition_type.is_composite() {
                nested_type_problems(
                    c.condition_config.get("conditions"),
                    &|| at(&format!("{field}/condition_config")),
                    schema,
                );
            }
        }
    }
}

/// The shape rules of one rule of the plan (explore.md): its id, and exactly the fields its kind
/// uses.
pub(super) fn rule_problems(rule: &Rule, i: usize, schema: &mut impl FnMut(String, String)) {
    let at = |field: &str| format!("/rules/{i}{field}");
    let id = &rule.id;
    if !is_slug(id) {
        schema(
            at("/id"),
            format!("rule id \"{id}\" must be lowercase letters, digits, '-' or '_', starting with a letter or digit, at most 64 characters"),
        );
    }
    let kind = rule.kind;
    for field in kind.fields() {
        if !rule.has(field) {
            schema(
                at(""),
                format!("the rule \"{id}\" ({}) needs \"{field}\"", kind.as_str()),
            );
        }
    }
    for field in rule.fields_given() {
        if !kind.fields().contains(&field) {
            schema(
                at(&format!("/{field}")),
                format!(
                    "a {} rule has no \"{field}\": remove it from \"{id}\"",
                    kind.as_str()
                ),
            );
        }
    }
    if let Some(c) = &rule.condition {
        if c.condition_type.is_composite() {
            nested_type_problems(
                c.condition_config.get("conditions"),
                &|| at("/condition/condition_config"),
                schema,
            );
        }
    }
}

/// The shape rules of one interruption: its id, and `ttl_turns` only on a `yield`, never negative.
pub(super) fn interruption_problems(
    interruption: &Interruption,
    i: usize,
    schema: &mut impl FnMut(String, String),
) {
    let at = |field: &str| format!("/interruptions/{i}{field}");
    let id = &interruption.id;
    if !is_slug(id) {
        schema(
            at("/id"),
            format!("interruption id \"{id}\" must be lowercase letters, digits, '-' or '_', starting with a letter or digit, at most 64 characters"),
        );
    }
    if interruption.ttl_turns < 0 {
        schema(
            at("/ttl_turns"),
            format!(
                "\"ttl_turns\" of \"{id}\" must be 0 or more, not {}",
                interruption.ttl_turns
            ),
        );
    } else if interruption.ttl_turns > 0 && interruption.kind != InterruptionKind::Yield {
        schema(
            at("/ttl_turns"),
            format!(
                "\"ttl_turns\" only belongs on a yield interruption: \"{id}\" is {}, and parks nothing",
                interruption.kind.as_str()
            ),
        );
    }
    if let Some(c) = &interruption.condition {
        if c.condition_type.is_composite() {
            nested_type_problems(
                c.condition_config.get("conditions"),
                &|| at("/condition/condition_config"),
                schema,
            );
        }
    }
}
