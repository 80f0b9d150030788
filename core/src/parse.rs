//! Reading a plan document from text: JSON syntax, then shape, each problem located.
//!
//! Two layers, so that one run says as much as it can: serde reads the shape (wrong types, missing
//! or unknown fields, unknown top-level condition types) and stops at the first such problem, with
//! its JSON Pointer; then [`shape_problems`] checks what serde cannot express (id and key patterns,
//! enum values, duplicate tool names and codes, unknown condition types nested in composites) and
//! reports all of them. Everything else inside a `condition_config` is the validator's business.

use std::collections::HashSet;

use serde_json::Value;

use crate::condition::{pointer_escape, ConditionType};
mod shapes;

use crate::plan::{Deliverable, DeliverableType, Plan, SessionChange};
use crate::unreadable;
use shapes::{interruption_problems, rule_problems, session_state_problems};

/// Which kind of reading problem: the codes `invalid-json` and `schema` of the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// Not JSON.
    InvalidJson,
    /// Not JSON because git merged the file as text: its conflict markers are in it. The format's
    /// code is `invalid-json`; the kind lets a view say what happened ("Merged as text by git").
    MergedAsText,
    /// JSON, but not the plan format's shape.
    Schema,
}

impl ProblemKind {
    /// The diagnostic code of the format.
    pub fn code(self) -> &'static str {
        match self {
            ProblemKind::InvalidJson | ProblemKind::MergedAsText => "invalid-json",
            ProblemKind::Schema => "schema",
        }
    }
}

/// One thing that stops a document from being read as a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseProblem {
    /// Which of the two.
    pub kind: ProblemKind,
    /// JSON Pointer to the offending value (empty: the whole document).
    pub pointer: String,
    /// 1-based line and column, for syntax errors.
    pub line_column: Option<(usize, usize)>,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for ParseProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line_column {
            Some((line, column)) => write!(f, "line {line}, column {column}: {}", self.message),
            None if self.pointer.is_empty() => write!(f, "{}", self.message),
            None => write!(f, "{}: {}", self.pointer, self.message),
        }
    }
}

/// Reads a plan from JSON text, or lists what is wrong with it.
///
/// The common case, a well-formed plan, is read straight into the model, which is several times
/// faster than going through a JSON tree; only when that fails is the text read again, slowly, to
/// say exactly where the problem is.
pub fn parse_plan(text: &str) -> Result<Plan, Vec<ParseProblem>> {
    well_shaped(parse_draft(text)?)
}

/// Reads a draft: a document with the plan's structure (fields of the right types), whose
/// remaining shape problems (an enum key still without values, a bad id) are left to
/// [`crate::validate()`], which reports them as `schema` errors. A draft is work in progress:
/// the editor saves every intermediate step, and a draft it wrote must open again.
pub fn parse_draft(text: &str) -> Result<Plan, Vec<ParseProblem>> {
    // serde would also read a plan written as a list of its fields, in order: not a plan file.
    let an_object = text.trim_start().starts_with('{');
    if an_object {
        // The fast path refuses an object that names a field twice ("duplicate field"); the
        // slow path below, through a JSON tree, would keep the last one silently, so it looks.
        if let Ok(plan) = crate::deep_json::from_str::<Plan>(text) {
            return Ok(plan);
        }
    }
    parse_object(text, "a plan")
}

/// Reads a JSON document of type `T` (a plan, a persona) the slow, careful way: its syntax, its
/// depth, one JSON object naming no field twice, then its structure, each problem placed by line
/// and column or by its JSON Pointer. `what` names the document in the words an author reads
/// ("a persona").
pub fn parse_object<T: serde::de::DeserializeOwned>(
    text: &str,
    what: &str,
) -> Result<T, Vec<ParseProblem>> {
    if let Some(problem) = unreadable::conflict_markers(text) {
        return Err(vec![problem]);
    }
    if let Some((message, line_column)) = crate::deep_json::too_deep(text.as_bytes()) {
        return Err(vec![ParseProblem {
            kind: ProblemKind::Schema,
            pointer: String::new(),
            line_column: Some(line_column),
            message,
        }]);
    }
    let value: Value = crate::deep_json::from_str(text).map_err(|e| {
        vec![ParseProblem {
            kind: ProblemKind::InvalidJson,
            pointer: String::new(),
            line_column: Some((e.line(), e.column())),
            message: syntax_message(&e),
        }]
    })?;
    if !value.is_object() {
        return Err(vec![unreadable::not_an_object(&value, what)]);
    }
    let mut problems: Vec<ParseProblem> = unreadable::key_given_twice(text).into_iter().collect();
    match structure_from_value(&value) {
        Ok(document) if problems.is_empty() => Ok(document),
        Ok(_) => Err(problems),
        Err(more) => {
            problems.extend(more);
            Err(problems)
        }
    }
}

/// Reads a plan from an already parsed JSON value.
pub fn plan_from_value(value: &Value) -> Result<Plan, Vec<ParseProblem>> {
    well_shaped(structure_from_value(value)?)
}

/// The plan, if it also keeps the shape rules serde cannot express; else what breaks them.
fn well_shaped(plan: Plan) -> Result<Plan, Vec<ParseProblem>> {
    let problems = shape_problems(&plan);
    if problems.is_empty() {
        Ok(plan)
    } else {
        Err(problems)
    }
}

/// A document's structure from a JSON value, the first misfit named by its pointer.
fn structure_from_value<T: serde::de::DeserializeOwned>(
    value: &Value,
) -> Result<T, Vec<ParseProblem>> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let message = e.inner().to_string();
        vec![ParseProblem {
            kind: ProblemKind::Schema,
            pointer: field_pointer(pointer_of(e.path()), &message),
            line_column: None,
            message: humanise(&message),
        }]
    })
}

/// An unknown field is reported by serde at the object holding it: the finding points at the
/// field itself (`/states/5/ending/reason`), where the author has to act.
fn field_pointer(pointer: String, message: &str) -> String {
    let field = message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(field, _)| pointer_escape(field));
    match field {
        Some(f) if !pointer.ends_with(&format!("/{f}")) => format!("{pointer}/{f}"),
        _ => pointer,
    }
}

/// serde's messages, in words an author knows: "text" not "string", "a number" not "f64".
fn humanise(message: &str) -> String {
    let names = |list: &str| list.replace('`', "\"");
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            let found = found
                .replace("string ", "the text ")
                .replace("integer `", "the number `")
                .replace("floating point `", "the number `")
                .replace("boolean `", "`")
                .replace("map", "an object")
                .replace("sequence", "a list")
                .replace('`', "");
            let expected = match expected {
                "f64" => "a number",
                "u32" | "u64" | "usize" => "a whole number, 0 or more",
                "a string" => "text",
                "a boolean" => "true or false",
                "a sequence" => "a list",
                e if e.starts_with("struct ") || e.starts_with("a map") => "an object",
                e if e.starts_with("internally tagged enum") => "an object with a \"kind\"",
                e => e,
            };
            return format!("{found} is the wrong kind of value here: expected {expected}");
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        if let Some((field, allowed)) = rest.split_once(", expected one of ") {
            return format!(
                "unknown field {}: check the spelling (allowed here: {})",
                names(field),
                names(allowed)
            );
        }
        if let Some((field, _)) = rest.split_once(", there are no fields") {
            return format!(
                "unknown field {}: nothing else is allowed here",
                names(field)
            );
        }
    }
    if let Some(field) = message.strip_prefix("missing field ") {
        return format!("the required field {} is missing", names(field));
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        if let Some((value, allowed)) = rest.split_once(", expected one of ") {
            return format!(
                "{} is not allowed here (use one of {})",
                names(value),
                names(allowed)
            );
        }
    }
    message.to_string()
}

fn syntax_message(e: &serde_json::Error) -> String {
    // serde_json appends " at line L column C"; the location is given separately.
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => format!("not valid JSON: {}", &text[..i]),
        None => format!("not valid JSON: {text}"),
    }
}

fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    path.iter()
        .filter_map(|segment| match segment {
            Segment::Seq { index } => Some(format!("/{index}")),
            Segment::Map { key } => Some(format!("/{}", pointer_escape(key))),
            Segment::Enum { .. } | Segment::Unknown => None,
        })
        .collect()
}

/// Whether `id` is a plan id: `^[a-z0-9][a-z0-9_-]{0,63}$`.
pub fn is_slug(id: &str) -> bool {
    let b = id.as_bytes();
    !b.is_empty()
        && b.len() <= 64
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_' || *c == b'-')
}

/// Whether `key` is a deliverable key: `^[A-Za-z_][A-Za-z0-9_]*$`.
pub fn is_key(key: &str) -> bool {
    let b = key.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// The shape rules serde cannot express, each reported with its pointer, in document order.
pub fn shape_problems(plan: &Plan) -> Vec<ParseProblem> {
    let mut out = Vec::new();
    let mut schema = |pointer: String, message: String| {
        out.push(ParseProblem {
            kind: ProblemKind::Schema,
            pointer,
            line_column: None,
            message,
        })
    };
    if plan.schema_version < 1 {
        schema(
            "/schema_version".into(),
            "schema_version must be 1 or more".into(),
        );
    }
    if !is_slug(&plan.id) {
        schema(
            "/id".into(),
            format!(
                "plan id \"{}\" must be lowercase letters, digits, '-' or '_', starting with a letter or digit, at most 64 characters",
                plan.id
            ),
        );
    }
    for (s, state) in plan.states.iter().enumerate() {
        // Pointers are only spelled out for the rare problem: this runs on every plan read.
        for (t, task) in state.tasks.iter().enumerate() {
            for (d, deliverable) in task.deliverables.iter().enumerate() {
                deliverable_problems(
                    deliverable,
                    || format!("/states/{s}/tasks/{t}/deliverables/{d}"),
                    &mut schema,
                );
            }
        }
        if let Some(goal) = &state.goal {
            for (d, deliverable) in goal.deliverables.iter().enumerate() {
                deliverable_problems(
                    deliverable,
                    || format!("/states/{s}/goal/deliverables/{d}"),
                    &mut schema,
                );
            }
        }
        for (c, change) in state.on_enter.iter().enumerate() {
            change_problems(change, || format!("/states/{s}/on_enter/{c}"), &mut schema);
        }
        for (i, transition) in state.transitions.iter().enumerate() {
            for (c, change) in transition.effects.iter().enumerate() {
                change_problems(
                    change,
                    || format!("/states/{s}/transitions/{i}/effects/{c}"),
                    &mut schema,
                );
            }
            if transition
                .condition_type
                .is_some_and(ConditionType::is_composite)
            {
                nested_type_problems(
                    transition.condition_config.get("conditions"),
                    &|| format!("/states/{s}/transitions/{i}/condition_config"),
                    &mut schema,
                );
            }
        }
    }
    for (i, st) in plan.session_states.iter().enumerate() {
        session_state_problems(st, i, &mut schema);
    }
    for (i, interruption) in plan.interruptions.iter().enumerate() {
        interruption_problems(interruption, i, &mut schema);
    }
    let mut rule_ids = HashSet::new();
    for (i, rule) in plan.rules.iter().enumerate() {
        if !rule_ids.insert(rule.id.as_str()) {
            schema(
                format!("/rules/{i}/id"),
                format!(
                    "two rules have the id \"{}\": give this one another id",
                    rule.id
                ),
            );
        }
        rule_problems(rule, i, &mut schema);
    }
    for (i, evaluation) in plan.evaluations.iter().enumerate() {
        if !is_slug(&evaluation.id) {
            schema(
                format!("/evaluations/{i}/id"),
                format!("evaluation id \"{}\" must be lowercase letters, digits, '-' or '_', starting with a letter or digit, at most 64 characters", evaluation.id),
            );
        }
    }
    let mut names = HashSet::new();
    for (i, tool) in plan.tools.iter().enumerate() {
        if !names.insert(tool.name.as_str()) {
            schema(
                format!("/tools/{i}/name"),
                format!("a tool named \"{}\" is declared twice", tool.name),
            );
        }
        let mut codes = HashSet::new();
        for (c, code) in tool.response_codes.iter().enumerate() {
            if !codes.insert(code.as_str()) {
                schema(
                    format!("/tools/{i}/response_codes/{c}"),
                    format!(
                        "tool \"{}\" lists the response code \"{code}\" twice",
                        tool.name
                    ),
                );
            }
        }
    }
    out
}

fn deliverable_problems(
    d: &Deliverable,
    at: impl Fn() -> String,
    schema: &mut impl FnMut(String, String),
) {
    if !is_key(&d.key) {
        schema(
            format!("{}/key", at()),
            format!(
                "deliverable key \"{}\" must start with a letter or '_' and hold only letters, digits and '_'",
                d.key
            ),
        );
    }
    match (d.kind, &d.enum_values) {
        (DeliverableType::Enum, None) => schema(
            at(),
            format!(
                "the choice \"{}\" has no list of choices: add its choices",
                d.key
            ),
        ),
        (DeliverableType::Enum, Some(values)) if values.is_empty() => schema(
            format!("{}/enum_values", at()),
            format!(
                "the choice \"{}\" has no choices yet: add at least one",
                d.key
            ),
        ),
        (DeliverableType::Enum, Some(values)) => {
            for (i, v) in values.iter().enumerate() {
                if values[..i].contains(v) {
                    schema(
                        format!("{}/enum_values/{i}", at()),
                        format!("the choice \"{}\" lists \"{v}\" twice: keep one", d.key),
                    );
                }
            }
        }
        (_, Some(_)) => schema(
            format!("{}/enum_values", at()),
            format!(
                "\"enum_values\" only belongs on an enum key; \"{}\" is not an enum",
                d.key
            ),
        ),
        (_, None) => {}
    }
}

/// Unknown `condition_type`s nested in composites are shape errors (`schema`), at any depth; every
/// other problem inside a config is left to the validator.
fn nested_type_problems(
    conditions: Option<&Value>,
    at: &dyn Fn() -> String,
    schema: &mut impl FnMut(String, String),
) {
    let Some(Value::Array(items)) = conditions else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let Some(Value::String(name)) = item.get("condition_type") else {
            continue;
        };
        match ConditionType::from_name(name) {
            None => schema(
                format!("{}/conditions/{i}/condition_type", at()),
                format!("unknown condition type \"{name}\""),
            ),
            Some(kind) if kind.is_composite() => {
                let nested = item
                    .get("condition_config")
                    .and_then(|c| c.get("conditions"));
                let inner = || format!("{}/conditions/{i}/condition_config", at());
                nested_type_problems(nested, &inner, schema);
            }
            Some(_) => {}
        }
    }
}

/// A change says at least one of `value`, `add`, `active`, and not both `value` and `add`.
fn change_problems(
    change: &SessionChange,
    at: impl Fn() -> String,
    schema: &mut impl FnMut(String, String),
) {
    let id = &change.session_state;
    if change.value.is_none() && change.add.is_none() && change.active.is_none() {
        schema(
            at(),
            format!("the change of \"{id}\" says nothing: give \"value\", \"add\" or \"active\""),
        );
    }
    if change.value.is_some() && change.add.is_some() {
        schema(
            format!("{}/add", at()),
            format!("the change of \"{id}\" has both \"value\" and \"add\": keep one"),
        );
    }
}
