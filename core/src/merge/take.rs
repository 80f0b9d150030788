//! A conflict resolved by taking theirs: their value put at the conflict's path in the plan (an
//! element added, replaced or removed, a field set or removed, a list put in their order).

use serde_json::Value;

use super::key::{self, Matched};
use super::Conflict;

/// `plan` (a plan document as JSON) with `conflict`'s theirs at its path; `false` when the path
/// leads nowhere in `plan` (it changed since the merge), and nothing changed.
pub fn take_theirs(plan: &mut Value, conflict: &Conflict) -> bool {
    let segments: Vec<String> = conflict
        .path
        .split('/')
        .skip(1)
        .map(key::unescape)
        .collect();
    let Some((last, parents)) = segments.split_last() else {
        // The whole plan.
        return match &conflict.theirs {
            Some(theirs) => {
                *plan = theirs.clone();
                true
            }
            None => false,
        };
    };
    // The container the last segment is in, and the field name of the list it is, if one.
    let mut at = plan;
    let mut field: Option<&str> = None;
    for segment in parents {
        let Some(next) = child(at, field, segment) else {
            return false;
        };
        at = next;
        field = Some(segment.as_str()).filter(|_| at.is_array());
    }
    match at {
        Value::Object(fields) => {
            // A conflict on a named list itself is about its order: theirs is the list of names.
            if let (Some(list), Some(Value::Array(names))) =
                (fields.get_mut(last.as_str()), &conflict.theirs)
            {
                if names.iter().all(Value::is_string) && reorder(list, last, names) {
                    return true;
                }
            }
            match &conflict.theirs {
                Some(v) => {
                    fields.insert(last.clone(), v.clone());
                }
                None => {
                    fields.remove(last.as_str());
                }
            }
            true
        }
        Value::Array(list) => {
            let how = field.map_or(Matched::Whole, key::matched);
            let Some(keys) = key::keys(how, list) else {
                return false;
            };
            let index = keys.iter().position(|k| k == last);
            match (&conflict.theirs, index) {
                (Some(v), Some(i)) => list[i] = v.clone(),
                (Some(v), None) => list.push(v.clone()),
                (None, Some(i)) => {
                    list.remove(i);
                }
                (None, None) => {}
            }
            true
        }
        _ => false,
    }
}

/// The element or field `segment` of `value` (a list's element by its key).
fn child<'v>(
    value: &'v mut Value,
    list_field: Option<&str>,
    segment: &str,
) -> Option<&'v mut Value> {
    match value {
        Value::Object(fields) => fields.get_mut(segment),
        Value::Array(list) => {
            let keys = key::keys(key::matched(list_field?), list)?;
            let i = keys.iter().position(|k| k == segment)?;
            list.get_mut(i)
        }
        _ => None,
    }
}

/// The list in field `field` put in the order `names` gives (elements it does not name keep
/// their place after those it does).
fn reorder(list: &mut Value, field: &str, names: &[Value]) -> bool {
    let Value::Array(items) = list else {
        return false;
    };
    let Some(keys) = key::keys(key::matched(field), items) else {
        return false;
    };
    let mut rest: Vec<(String, Value)> = keys.into_iter().zip(items.drain(..)).collect();
    let mut ordered = Vec::with_capacity(rest.len());
    for name in names.iter().filter_map(Value::as_str) {
        if let Some(i) = rest.iter().position(|(k, _)| k == name) {
            ordered.push(rest.remove(i).1);
        }
    }
    ordered.extend(rest.into_iter().map(|(_, v)| v));
    *items = ordered;
    true
}
