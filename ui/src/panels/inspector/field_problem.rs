//! A problem shown at the field it is about, as well as in the list above the fields: the
//! message under the field and the field marked (red border, `aria-invalid`), so that an author
//! who scrolled down to a task's choices sees what is wrong with them there. Which problems belong
//! to a field is [`at_field`], pure and tested natively; the report comes through the context
//! (the inspector provides it).

use leptos::prelude::*;
use plan_core::{Diagnostic, Report};

/// Where a field's problems are found: its path below its state, and whether problems about its
/// parts count too (a choice listed twice: `…/enum_values/2`).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldPath {
    /// The path below the state: `/tasks/0/deliverables/1/enum_values`.
    pub suffix: String,
    /// Problems at a path below it are the field's as well.
    pub with_parts: bool,
}

impl FieldPath {
    /// Exactly `suffix`.
    pub fn exact(suffix: String) -> FieldPath {
        FieldPath {
            suffix,
            with_parts: false,
        }
    }

    /// `suffix` and whatever lies below it.
    pub fn with_parts(suffix: String) -> FieldPath {
        FieldPath {
            suffix,
            with_parts: true,
        }
    }
}

/// Whether `d` is about the field at `field` of state `state_id`: its location's path is that
/// state's (`/states/<n>`) followed by the field's path.
pub fn at_field(d: &Diagnostic, state_id: &str, field: &FieldPath) -> bool {
    if d.location.state_id.as_deref() != Some(state_id) {
        return false;
    }
    let Some(rest) = d.location.path.strip_prefix("/states/") else {
        return false;
    };
    let after_index = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    if after_index.len() == rest.len() {
        return false;
    }
    match after_index.strip_prefix(field.suffix.as_str()) {
        Some("") => true,
        Some(below) => field.with_parts && below.starts_with('/'),
        None => false,
    }
}

/// The problems of the field at any of `fields` of state `state_id`, from the report in the
/// context.
pub fn problems_at(state_id: String, fields: Vec<FieldPath>) -> Memo<Vec<Diagnostic>> {
    let report = expect_context::<Memo<Report>>();
    Memo::new(move |_| {
        report.with(|r| {
            r.diagnostics
                .iter()
                .filter(|d| fields.iter().any(|f| at_field(d, &state_id, f)))
                .cloned()
                .collect()
        })
    })
}

/// The messages of `problems`, under their field.
pub fn field_problems(problems: Memo<Vec<Diagnostic>>) -> impl IntoView {
    move || {
        problems
            .get()
            .into_iter()
            .map(|d| {
                view! {
                    <p
                        class=format!("field-problem {}", d.severity.as_str())
                        data-testid="field-problem"
                        data-code=d.code.as_str()
                        role="alert"
                    >
                        {d.message}
                    </p>
                }
            })
            .collect_view()
    }
}

/// Why an edit typed into a field was refused (a rename onto a taken id, say), under the field
/// while it stands.
pub fn field_refusal(
    refused: impl Get<Value = Option<String>> + Send + Sync + 'static,
) -> impl IntoView {
    move || {
        refused.get().map(|m| {
            view! {
                <p class="field-error" data-testid="field-error">
                    {m}
                </p>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::validate::Location;
    use plan_core::{Code, Severity};

    fn at(path: &str, state: Option<&str>) -> Diagnostic {
        Diagnostic {
            code: Code::ALL[0],
            severity: Severity::Error,
            message: "m".into(),
            location: Location {
                path: path.into(),
                state_id: state.map(Into::into),
                task_id: None,
                transition_index: None,
            },
        }
    }

    #[test]
    fn a_problem_belongs_to_the_field_its_path_ends_at_in_its_state() {
        let choices = FieldPath::with_parts("/tasks/0/deliverables/1/enum_values".into());
        let d = at(
            "/states/12/tasks/0/deliverables/1/enum_values",
            Some("order"),
        );
        assert!(at_field(&d, "order", &choices));
        // A choice listed twice is a problem of the choices field too.
        let twice = at(
            "/states/12/tasks/0/deliverables/1/enum_values/2",
            Some("order"),
        );
        assert!(at_field(&twice, "order", &choices));
        assert!(!at_field(
            &twice,
            "order",
            &FieldPath::exact(choices.suffix.clone())
        ));
        // Another state, another deliverable, another field of it: not this field's.
        assert!(!at_field(&d, "pay", &choices));
        let other = FieldPath::with_parts("/tasks/0/deliverables/0/enum_values".into());
        assert!(!at_field(&d, "order", &other));
        let key = FieldPath::exact("/tasks/0/deliverables/1/key".into());
        assert!(!at_field(&d, "order", &key));
        // `…/deliverables/1` is not `…/deliverables/10`.
        let tenth = at(
            "/states/12/tasks/0/deliverables/10/enum_values",
            Some("order"),
        );
        let first = FieldPath::with_parts("/tasks/0/deliverables/1".into());
        assert!(!at_field(&tenth, "order", &first));
        // A goal's deliverable; a plan-level problem.
        let goal = at("/states/3/goal/deliverables/0/enum_values", Some("g"));
        assert!(at_field(
            &goal,
            "g",
            &FieldPath::exact("/goal/deliverables/0/enum_values".into())
        ));
        assert!(!at_field(&at("/start_state_id", None), "g", &key));
    }
}
