//! Walking a condition tree to any depth, reporting every clean leaf and every problem, so that
//! the validator says everything at once.

use std::fmt::Write;

use serde_json::{Map, Value};

use super::read::{child_parts, problem, Config};
use super::{Check, ConditionType, ConfigProblem};

/// One condition met while walking a condition tree with [`visit`].
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    /// A non-composite condition that reads cleanly.
    Leaf {
        /// Its condition type.
        kind: ConditionType,
        /// What it checks.
        check: Check<'a>,
        /// Pointer of the condition object, relative to where the walk started.
        pointer: &'a str,
    },
    /// Something wrong, at `pointer` (relative to where the walk started).
    Problem {
        /// Where, as a JSON Pointer.
        pointer: String,
        /// What is wrong, in words.
        message: String,
    },
}

/// Walks a condition tree and reports every clean leaf and every problem, to any depth, so that a
/// validator can say everything at once (where [`Check::read`] stops at the first problem). The
/// children of a composite are visited even when a sibling is broken. Nested conditions of an
/// unknown type are skipped: they are a parse error (`schema`), reported elsewhere.
pub fn visit(kind: ConditionType, config: &Map<String, Value>, mut f: impl FnMut(Node<'_>)) {
    // One pointer buffer for the whole walk: children push their part and take it off again.
    let mut at = String::new();
    visit_at(kind, config, &mut at, &mut f);
}

fn visit_at(
    kind: ConditionType,
    config: &Map<String, Value>,
    at: &mut String,
    f: &mut impl FnMut(Node<'_>),
) {
    let report = |f: &mut dyn FnMut(Node<'_>), at: &str, p: ConfigProblem| {
        f(Node::Problem {
            pointer: format!("{at}{}", p.pointer),
            message: p.message,
        })
    };
    if !kind.is_composite() {
        match Check::read(kind, config) {
            Ok(check) => f(Node::Leaf {
                kind,
                check,
                pointer: at,
            }),
            Err(p) => report(f, at, p),
        }
        return;
    }
    let mut cfg = Config::new(config);
    let own = if kind == ConditionType::Compound {
        cfg.only(&["operator", "conditions"])
            .and_then(|_| match cfg.string("operator")? {
                "and" | "or" => Ok(()),
                other => Err(problem(
                    "/operator",
                    format!("operator must be \"and\" or \"or\", not \"{other}\""),
                )),
            })
    } else {
        cfg.only(&["conditions"])
    };
    if let Err(p) = own {
        report(f, at, p);
    }
    let items = match cfg.get("conditions") {
        Ok(Value::Array(items)) if !items.is_empty() => items,
        Ok(Value::Array(_)) => {
            return report(
                f,
                at,
                problem(
                    "/conditions",
                    "this group has no conditions: add at least one".into(),
                ),
            )
        }
        Ok(_) => {
            return report(
                f,
                at,
                problem(
                    "/conditions",
                    "\"conditions\" must be a list of conditions".into(),
                ),
            )
        }
        Err(p) => return report(f, at, p),
    };
    for (i, item) in items.iter().enumerate() {
        if let Some(Value::String(name)) = item.get("condition_type") {
            if ConditionType::from_name(name).is_none() {
                continue;
            }
        }
        let len = at.len();
        // Written into the buffer: `i.to_string()` was an allocation a child.
        let _ = write!(at, "/condition_config/conditions/{i}");
        match child_parts(item) {
            Ok((child, child_config)) => visit_at(child, child_config, at, f),
            Err(p) => f(Node::Problem {
                pointer: format!("{at}{}", p.pointer),
                message: p.message,
            }),
        }
        at.truncate(len);
    }
}
