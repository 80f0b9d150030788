//! What matches two elements of a list across the three sides: a list of things with a name is
//! matched by the name, a list of words by the word; other lists are whole values.

use std::collections::HashMap;

use serde_json::Value;

/// How the elements of the list in field `field` are matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matched {
    /// By this field of each element.
    ByField(&'static str),
    /// A transition: by its target, and which of the arrows to that target it is.
    ByTarget,
    /// A set of words: by the word.
    ByWord,
    /// Not matched: the list is one value.
    Whole,
}

/// How the list in field `field` is matched.
pub fn matched(field: &str) -> Matched {
    match field {
        "states" | "tasks" | "session_states" | "interruptions" | "rules" | "evaluations" => {
            Matched::ByField("id")
        }
        "deliverables" => Matched::ByField("key"),
        "tools" => Matched::ByField("name"),
        "transitions" => Matched::ByTarget,
        "allowed_tools" | "response_codes" | "available_when" | "only_while_active" | "phrases"
        | "only_in" | "enum_values" => Matched::ByWord,
        _ => Matched::Whole,
    }
}

/// Each element's key, in list order; `None` when an element has none or two share one (a draft
/// with duplicate ids), and the list is then merged as one value.
pub fn keys(how: Matched, list: &[Value]) -> Option<Vec<String>> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(list.len());
    for item in list {
        let key = match how {
            Matched::ByField(field) => item.get(field)?.as_str()?.to_string(),
            Matched::ByWord => item.as_str()?.to_string(),
            Matched::ByTarget => {
                let target = item.get("target_state_id")?.as_str()?;
                let n = seen.entry(target.to_string()).or_insert(0);
                let key = format!("{target}#{n}");
                *n += 1;
                key
            }
            Matched::Whole => return None,
        };
        out.push(key);
    }
    let mut unique = out.clone();
    unique.sort_unstable();
    unique.dedup();
    (unique.len() == out.len()).then_some(out)
}

/// A name as one segment of a path (JSON Pointer's escapes: `~` as `~0`, `/` as `~1`).
pub fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// A path segment as the name it is.
pub fn unescape(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}
