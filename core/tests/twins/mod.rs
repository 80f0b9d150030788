//! What the validator's twin tests share: a plan's findings as `plan check` reports them, and one
//! case — a broken plan that triggers a code once (with its severity and path) and its fixed twin
//! that does not.

use plan_core::validate::{check_text, Diagnostic, Severity};
use serde_json::Value;

pub fn report(plan: &Value) -> Vec<Diagnostic> {
    check_text(&plan.to_string()).1.diagnostics
}

pub fn case(
    broken: &Value,
    fixed: &Value,
    code: &str,
    severity: Severity,
    path: &str,
) -> Diagnostic {
    let found = report(broken);
    let hits: Vec<&Diagnostic> = found.iter().filter(|d| d.code.as_str() == code).collect();
    assert_eq!(hits.len(), 1, "expected one {code} in {found:#?}");
    let d = hits[0].clone();
    assert_eq!(d.severity, severity, "{d:?}");
    assert_eq!(d.location.path, path, "{d:?}");
    assert!(!d.message.is_empty());
    let after = report(fixed);
    assert!(
        after.iter().all(|d| d.code.as_str() != code),
        "the fix left {code}: {after:#?}"
    );
    d
}
