//! The merge of one value of the document, three ways, at any depth: objects field by field,
//! named lists element by element, everything else whole.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::key::{self, Matched};
use super::Conflict;

/// The merge under way: the conflicts found so far.
#[derive(Debug, Default)]
pub struct Merger {
    /// Where both sides changed one thing differently, in document order.
    pub conflicts: Vec<Conflict>,
}

impl Merger {
    /// The merged value at `path` (`None`: not there), from the three sides' (`None`: absent).
    pub fn merge(
        &mut self,
        path: &mut Vec<String>,
        base: Option<&Value>,
        ours: Option<&Value>,
        theirs: Option<&Value>,
    ) -> Option<Value> {
        if ours == theirs || base == theirs {
            return ours.cloned();
        }
        if base == ours {
            return theirs.cloned();
        }
        // Changed on both sides, differently. A card's position is never a conflict: ours.
        if path.first().is_some_and(|p| p == "layout") {
            return ours.cloned();
        }
        match (ours, theirs) {
            (Some(Value::Object(o)), Some(Value::Object(t))) => {
                let b = base.and_then(Value::as_object);
                Some(Value::Object(self.object(path, b, o, t)))
            }
            (Some(Value::Array(o)), Some(Value::Array(t))) => {
                let how = path.last().map_or(Matched::Whole, |f| key::matched(f));
                let b = base.and_then(Value::as_array);
                match self.list(path, how, b, o, t) {
                    Some(list) => Some(Value::Array(list)),
                    None => self.conflict(path, base, ours, theirs),
                }
            }
            _ => self.conflict(path, base, ours, theirs),
        }
    }

    /// A conflict at `path`; ours is what the merge keeps.
    fn conflict(
        &mut self,
        path: &[String],
        base: Option<&Value>,
        ours: Option<&Value>,
        theirs: Option<&Value>,
    ) -> Option<Value> {
        self.conflicts.push(Conflict {
            path: pointer(path),
            base: base.cloned(),
            ours: ours.cloned(),
            theirs: theirs.cloned(),
        });
        ours.cloned()
    }

    /// Two objects, field by field, in ours' field order then theirs' new fields.
    fn object(
        &mut self,
        path: &mut Vec<String>,
        base: Option<&Map<String, Value>>,
        ours: &Map<String, Value>,
        theirs: &Map<String, Value>,
    ) -> Map<String, Value> {
        let mut fields: Vec<&String> = ours.keys().collect();
        fields.extend(theirs.keys().filter(|k| !ours.contains_key(*k)));
        if let Some(b) = base {
            fields.extend(
                b.keys()
                    .filter(|k| !ours.contains_key(*k) && !theirs.contains_key(*k)),
            );
        }
        let mut out = Map::new();
        for field in fields {
            path.push(field.clone());
            let merged = self.merge(
                path,
                base.and_then(|b| b.get(field)),
                ours.get(field),
                theirs.get(field),
            );
            path.pop();
            if let Some(v) = merged {
                out.insert(field.clone(), v);
            }
        }
        out
    }

    /// Two lists matched element by element (`None`: they cannot be, merge them whole).
    fn list(
        &mut self,
        path: &mut Vec<String>,
        how: Matched,
        base: Option<&Vec<Value>>,
        ours: &[Value],
        theirs: &[Value],
    ) -> Option<Vec<Value>> {
        let empty = Vec::new();
        let base = base.unwrap_or(&empty);
        let (bk, ok, tk) = (
            key::keys(how, base)?,
            key::keys(how, ours)?,
            key::keys(how, theirs)?,
        );
        let index = |keys: &[String], list: &[Value]| -> HashMap<String, Value> {
            keys.iter().cloned().zip(list.iter().cloned()).collect()
        };
        let (bi, oi, ti) = (index(&bk, base), index(&ok, ours), index(&tk, theirs));

        // The order, of the elements all three have: a value of its own.
        let common = |keys: &[String]| -> Vec<String> {
            keys.iter()
                .filter(|k| bi.contains_key(*k) && oi.contains_key(*k) && ti.contains_key(*k))
                .cloned()
                .collect()
        };
        let (bo, oo, to) = (common(&bk), common(&ok), common(&tk));
        let theirs_order = oo == bo && to != bo;
        if oo != bo && to != bo && oo != to {
            let words = |keys: &[String]| Some(Value::from(keys.to_vec()));
            self.conflicts.push(Conflict {
                path: pointer(path),
                base: words(&bo),
                ours: words(&oo),
                theirs: words(&to),
            });
        }

        // Each element, merged; words have no fields to merge.
        let mut merged: HashMap<String, Value> = HashMap::new();
        let mut all: Vec<&String> = ok.iter().collect();
        all.extend(tk.iter().filter(|k| !oi.contains_key(*k)));
        all.extend(
            bk.iter()
                .filter(|k| !oi.contains_key(*k) && !ti.contains_key(*k)),
        );
        for k in all {
            path.push(key::escape(k));
            let m = self.merge(path, bi.get(k), oi.get(k), ti.get(k));
            path.pop();
            if let Some(v) = m {
                merged.insert(k.clone(), v);
            }
        }

        // The chosen side's order, then the other side's elements after their predecessors.
        let (first, second) = if theirs_order { (&tk, &ok) } else { (&ok, &tk) };
        let mut order: Vec<String> = first
            .iter()
            .filter(|k| merged.contains_key(*k))
            .cloned()
            .collect();
        let mut placed: HashSet<String> = order.iter().cloned().collect();
        for (i, k) in second.iter().enumerate() {
            if placed.contains(k) || !merged.contains_key(k) {
                continue;
            }
            let after = second[..i]
                .iter()
                .rev()
                .find_map(|p| order.iter().position(|o| o == p));
            order.insert(after.map_or(0, |a| a + 1), k.clone());
            placed.insert(k.clone());
        }
        Some(
            order
                .into_iter()
                .filter_map(|k| merged.remove(&k))
                .collect(),
        )
    }
}

/// A path as the conflict file writes it: `/states/billing/title`.
fn pointer(path: &[String]) -> String {
    path.iter().map(|p| format!("/{p}")).collect()
}
