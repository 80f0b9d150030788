//! What a turn changed in a session, kept the other way round: applied to the session after the
//! turn, an [`Undo`] gives the session before it. A conversation's log keeps one per turn instead
//! of the whole session before it, so that a record grows with what the turn changed, not with
//! the session (31 turns each adding a 1 MiB insight wrote the 25 insights kept again in every
//! record: a 596 MB log).
//!
//! Made on the session as JSON, so that it follows every field the session has or gains: an
//! object by its fields (the values known, the session states: by key), a list by what it kept
//! of itself (the insights, a capped list: what was dropped at its front and added at its end),
//! anything else whole.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How to go back from a value to the one it was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Undo {
    /// It was this, whole.
    Was(Value),
    /// An object: the fields that changed, each undone (a field it did not have is `Was(null)`
    /// with its name in `added`), and the fields it gained, to remove.
    Fields {
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        changed: BTreeMap<String, Undo>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        added: Vec<String>,
    },
    /// A list of the same length: the items that changed, by place, each undone.
    At(BTreeMap<usize, Undo>),
    /// A list: it was `first`, then the `kept` items of the list now from `from`, then `last`.
    Items {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        first: Vec<Value>,
        from: usize,
        kept: usize,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        last: Vec<Value>,
    },
}

/// How to go back from `after` to `before`; none when they are the same.
pub fn undo(before: &Value, after: &Value) -> Option<Undo> {
    if before == after {
        return None;
    }
    Some(match (before, after) {
        (Value::Object(b), Value::Object(a)) => fields(b, a),
        (Value::Array(b), Value::Array(a)) => items(b, a),
        _ => Undo::Was(before.clone()),
    })
}

fn fields(before: &Map<String, Value>, after: &Map<String, Value>) -> Undo {
    let mut changed = BTreeMap::new();
    for (k, b) in before {
        match after.get(k) {
            Some(a) => {
                if let Some(u) = undo(b, a) {
                    changed.insert(k.clone(), u);
                }
            }
            None => {
                changed.insert(k.clone(), Undo::Was(b.clone()));
            }
        }
    }
    let added = after
        .keys()
        .filter(|k| !before.contains_key(*k))
        .cloned()
        .collect();
    Undo::Fields { changed, added }
}

/// The cheapest of: `before` as the start of `after` kept and the rest of `before` (items added
/// or changed at the end), as the end of `after` kept after the start of `before` (items added
/// or changed at the start), as the start of `after` after items `before` had first (a capped
/// list that dropped its first items and added new ones), or whole.
fn items(before: &[Value], after: &[Value]) -> Undo {
    let start = before.iter().zip(after).take_while(|(b, a)| b == a).count();
    let end = before
        .iter()
        .rev()
        .zip(after.iter().rev())
        .take_while(|(b, a)| b == a)
        .count();
    let mut candidates = vec![
        Undo::Was(Value::Array(before.to_vec())),
        Undo::Items {
            first: Vec::new(),
            from: 0,
            kept: start,
            last: before[start..].to_vec(),
        },
        Undo::Items {
            first: before[..before.len() - end].to_vec(),
            from: after.len() - end,
            kept: end,
            last: Vec::new(),
        },
    ];
    if before.len() == after.len() {
        let at = before
            .iter()
            .zip(after)
            .enumerate()
            .filter_map(|(i, (b, a))| undo(b, a).map(|u| (i, u)))
            .collect();
        candidates.push(Undo::At(at));
    }
    // A shift: before = its first `dropped` items, then the start of after.
    if let Some(dropped) = (1..before.len()).find(|&dropped| {
        let rest = before.len() - dropped;
        rest <= after.len()
            && after.first() == before.get(dropped)
            && before[dropped..] == after[..rest]
    }) {
        candidates.push(Undo::Items {
            first: before[..dropped].to_vec(),
            from: 0,
            kept: before.len() - dropped,
            last: Vec::new(),
        });
    }
    candidates
        .into_iter()
        .min_by_key(Undo::size)
        .unwrap_or(Undo::Was(Value::Array(before.to_vec())))
}

impl Undo {
    /// About how many bytes it takes written: what it repeats.
    fn size(&self) -> usize {
        match self {
            Undo::Was(v) => v.to_string().len(),
            Undo::Fields { changed, added } => {
                changed
                    .iter()
                    .map(|(k, u)| k.len() + u.size())
                    .sum::<usize>()
                    + added.iter().map(String::len).sum::<usize>()
            }
            Undo::At(items) => items.values().map(|u| 8 + u.size()).sum(),
            Undo::Items { first, last, .. } => {
                first.iter().chain(last).map(|v| v.to_string().len()).sum()
            }
        }
    }

    /// The value before, from `after`.
    pub fn apply(&self, after: &Value) -> Value {
        match (self, after) {
            (Undo::Was(v), _) => v.clone(),
            (Undo::Fields { changed, added }, Value::Object(a)) => {
                let mut out = a.clone();
                for k in added {
                    out.remove(k);
                }
                for (k, u) in changed {
                    let now = a.get(k).cloned().unwrap_or(Value::Null);
                    out.insert(k.clone(), u.apply(&now));
                }
                Value::Object(out)
            }
            (Undo::At(items), Value::Array(a)) => {
                let mut out = a.clone();
                for (&i, u) in items {
                    if let Some(item) = out.get_mut(i) {
                        *item = u.apply(item);
                    }
                }
                Value::Array(out)
            }
            (
                Undo::Items {
                    first,
                    from,
                    kept,
                    last,
                },
                Value::Array(a),
            ) => {
                let start = (*from).min(a.len());
                let end = (from + kept).min(a.len());
                let mut out = first.clone();
                out.extend_from_slice(&a[start..end]);
                out.extend(last.iter().cloned());
                Value::Array(out)
            }
            // A change made for another shape: nothing better than what is there.
            (_, other) => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `undo` of every pair, applied to the after, gives the before; and costs what changed.
    fn back(before: Value, after: Value) -> Undo {
        let u = undo(&before, &after).expect("they differ");
        assert_eq!(u.apply(&after), before, "{u:?}");
        u
    }

    #[test]
    fn every_change_is_undone_exactly() {
        assert_eq!(undo(&json!({"a": 1}), &json!({"a": 1})), None);
        back(json!(1), json!("one"));
        back(json!({"a": 1, "b": 2}), json!({"a": 1, "c": 3}));
        back(
            json!({"k": {"v": 1, "q": "x"}}),
            json!({"k": {"v": 2, "q": "x"}}),
        );
        back(json!([1, 2, 3]), json!([1, 2, 3, 4]));
        back(json!([1, 2, 3]), json!([0, 1, 2, 3]));
        back(json!([1, 2, 3]), json!([2, 3, 4]));
        back(json!([1, 2, 3]), json!([1, 9, 3]));
        back(json!([1, 2, 3]), json!([]));
        back(json!([]), json!([1]));
        back(json!([1, 1]), json!([1, 1, 1]));
        back(json!({"a": null}), json!({}));
        back(json!({}), json!({"a": null}));
    }

    #[test]
    fn what_is_kept_grows_with_what_changed_not_with_the_session() {
        let big = "x".repeat(100_000);
        let insights: Vec<Value> = (0..25).map(|i| json!({"text": big, "turn": i})).collect();
        let mut next = insights[1..].to_vec();
        next.push(json!({"text": big, "turn": 25}));
        let before =
            json!({"turn": 24, "insights": insights, "deliverables": {"a": {"value": big}}});
        let after =
            json!({"turn": 25, "insights": next, "deliverables": {"a": {"value": big}}, "b": 1});
        let u = back(before, after);
        let written = serde_json::to_string(&u).unwrap().len();
        // The dropped insight once, not the 25 kept nor the value known.
        assert!(written < 110_000, "{written} bytes");
        // A task done in a long list: that item only.
        let tasks: Vec<Value> = (0..2_000)
            .map(|i| json!({"id": format!("t{i}"), "status": "pending"}))
            .collect();
        let mut done = tasks.clone();
        done[700] = json!({"id": "t700", "status": "completed"});
        let u = back(Value::Array(tasks), Value::Array(done));
        assert!(serde_json::to_string(&u).unwrap().len() < 100);
    }
}
