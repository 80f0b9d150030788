//! The Problems tab: every finding of the validator, errors first; a click selects and centres
//! the state or transition concerned and opens its field; a problem with a one-click fix (an
//! answer no arrow handles: "Add an arrow for 'no'") offers it beside. The publish dialog lists
//! the errors that block it the same way ([`problem_item`]).

use leptos::prelude::*;
use plan_core::edit::Command;
use plan_core::validate::{unhandled_answers, unhandled_codes, Code};
use plan_core::{Diagnostic, Plan, Report, Severity};

use crate::actions::Actions;
use crate::editor::Editor;
use crate::navigation::{Navigation, Tab};

/// A problem's one-click fix: what the button says, the edit, and the arrow it makes (state,
/// index), selected after so that the author picks where it goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Fix {
    pub label: String,
    pub command: Command,
    pub arrow: (String, usize),
}

/// The fix of problem `d` of `all` (the report it is in), if it has one: for `unhandled-value`,
/// an arrow for its answer; for `unhandled-response-code`, an arrow for its code. A state's
/// unhandled answers (codes) come in the order of its warnings, so the warning's rank among its
/// state's picks its answer.
pub fn fix_for(plan: &Plan, all: &[Diagnostic], d: &Diagnostic) -> Option<Fix> {
    if !matches!(d.code, Code::UnhandledValue | Code::UnhandledResponseCode) {
        return None;
    }
    let state_id = d.location.state_id.as_deref()?;
    let rank = all
        .iter()
        .filter(|x| x.code == d.code && x.location.state_id.as_deref() == Some(state_id))
        .position(|x| x == d)?;
    let state = plan.state(state_id)?;
    let (label, command) = if d.code == Code::UnhandledValue {
        let answer = unhandled_answers(plan, state).into_iter().nth(rank)?;
        (
            plan_core::coerce::in_words(&answer.value),
            Command::AnswerArrow {
                from: state_id.to_string(),
                key: answer.key,
                value: answer.value,
            },
        )
    } else {
        let answer = unhandled_codes(plan, state).into_iter().nth(rank)?;
        (
            answer.code.clone(),
            Command::CodeArrow {
                from: state_id.to_string(),
                tool: answer.tool,
                code: answer.code,
            },
        )
    };
    Some(Fix {
        label: format!("Add an arrow for \u{2018}{label}\u{2019}"),
        command,
        arrow: (state_id.to_string(), state.transitions.len()),
    })
}

#[component]
pub fn Problems(report: Memo<Report>, on_problem: Callback<Diagnostic>) -> impl IntoView {
    let sorted = move || {
        report.with(|r| {
            let mut list = r.diagnostics.clone();
            // Stable: document order within each severity.
            list.sort_by_key(|d| d.severity);
            list
        })
    };
    let editor = expect_context::<Editor>();
    let actions = expect_context::<Actions>();
    let navigation = expect_context::<Navigation>();
    let items = move || {
        let all = sorted();
        let (fixes, places): (Vec<Option<Fix>>, Vec<String>) = editor.plan.with(|p| {
            all.iter()
                .map(|d| {
                    let fix = p
                        .as_ref()
                        .and_then(|p| report.with(|r| fix_for(p, &r.diagnostics, d)));
                    (fix, place(p.as_ref(), d))
                })
                .unzip()
        });
        all.into_iter()
            .zip(fixes.into_iter().zip(places))
            .map(|(d, (fix, place))| {
                let on_fix = Callback::new(move |fix: Fix| {
                    if editor.dispatch(fix.command) {
                        actions.go_to(&fix.arrow.0, Some(fix.arrow.1));
                        navigation.show(Tab::Inspect);
                    }
                });
                problem_item(d, place, on_problem, fix.map(|f| (f, on_fix)))
            })
            .collect_view()
    };
    view! {
        <div class="problems" data-testid="problems">
            {move || {
                sorted()
                    .is_empty()
                    .then(|| {
                        view! {
                            <p class="hint" data-testid="no-problems">
                                "No problems: this plan can be published."
                            </p>
                        }
                    })
            }}
            <ul>{items}</ul>
        </div>
    }
}

/// One problem in a list: its message and place; a click is `on_click`'s; its fix, if any, a
/// button beside.
pub fn problem_item(
    d: Diagnostic,
    place: String,
    on_click: Callback<Diagnostic>,
    fix: Option<(Fix, Callback<Fix>)>,
) -> impl IntoView {
    let sev = d.severity.as_str();
    let icon = match d.severity {
        Severity::Error | Severity::Warning => "!",
        Severity::Info => "i",
    };
    let clicked = d.clone();
    view! {
        <li>
            <button
                class=format!("problem {sev}")
                data-testid="problem"
                data-code=d.code.as_str()
                data-severity=sev
                title=d.code.as_str()
                on:click=move |_| on_click.run(clicked.clone())
            >
                <span class="problem-icon">{icon}</span>
                <span class="problem-text">
                    <span class="problem-message">{d.message.clone()}</span>
                    <span class="problem-place">{place}</span>
                </span>
            </button>
            {fix
                .map(|(fix, on_fix)| {
                    let label = fix.label.clone();
                    view! {
                        <button
                            class="problem-fix"
                            data-testid="problem-fix"
                            on:click=move |_| on_fix.run(fix.clone())
                        >
                            {label}
                        </button>
                    }
                })}
        </li>
    }
}

/// Where a problem is, in the author's words: "Intake · arrow 1", "Intake", "the plan" (the
/// state's title; its id only for a state the plan does not have). The code is the item's
/// tooltip and `data-code`, not part of the sentence.
pub fn place(plan: Option<&Plan>, d: &Diagnostic) -> String {
    let title = |id: &str| {
        plan.and_then(|p| p.state(id))
            .map(|s| s.title.trim().to_string())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| id.to_string())
    };
    match (&d.location.state_id, d.location.transition_index) {
        (Some(s), Some(i)) => format!("{} · arrow {}", title(s), i + 1),
        (Some(s), None) => title(s),
        _ => "the plan".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pizza() -> Plan {
        plan_core::parse::parse_plan(
            &serde_json::json!({"id": "pizza", "title": "Pizza", "states": [
                {"id": "size", "title": "Size", "type": "loose", "instructions": "Ask.",
                 "tasks": [{"id": "size", "deliverables": [{"key": "size", "type": "enum",
                            "enum_values": ["small", "medium", "large"]}]}],
                 "transitions": [{"target_state_id": "done", "condition_type": "deliverable_value",
                                  "condition_config": {"key": "size", "value": "small"}}]},
                {"id": "done", "title": "Done"}]})
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn each_unhandled_answer_is_fixed_by_an_arrow_for_itself_and_other_problems_have_no_fix() {
        let plan = pizza();
        let all = plan_core::validate(&plan).diagnostics;
        let unhandled: Vec<&Diagnostic> = all
            .iter()
            .filter(|d| d.code == Code::UnhandledValue)
            .collect();
        assert_eq!(unhandled.len(), 2, "{all:#?}");
        let fixes: Vec<Fix> = unhandled
            .iter()
            .filter_map(|d| fix_for(&plan, &all, d))
            .collect();
        assert_eq!(fixes[0].label, "Add an arrow for \u{2018}medium\u{2019}");
        assert_eq!(fixes[1].label, "Add an arrow for \u{2018}large\u{2019}");
        assert_eq!(fixes[1].arrow, ("size".to_string(), 1));
        let fixed = plan_core::edit::apply(&plan, &fixes[1].command)
            .unwrap()
            .plan;
        let left: Vec<Diagnostic> = plan_core::validate(&fixed)
            .diagnostics
            .into_iter()
            .filter(|d| d.code == Code::UnhandledValue)
            .collect();
        assert_eq!(left.len(), 1);
        assert!(left[0].message.contains("'medium'"), "{}", left[0].message);
        let other = Diagnostic {
            code: Code::EmptyState,
            ..unhandled[0].clone()
        };
        assert_eq!(fix_for(&plan, &all, &other), None);
        assert_eq!(place(Some(&plan), unhandled[0]), "Size");
        let at_arrow = Diagnostic {
            location: plan_core::validate::Location {
                transition_index: Some(0),
                ..unhandled[0].location.clone()
            },
            ..unhandled[0].clone()
        };
        assert_eq!(place(Some(&plan), &at_arrow), "Size · arrow 1");
        assert_eq!(place(None, &at_arrow), "size · arrow 1");
    }

    #[test]
    fn a_tool_code_no_arrow_reads_is_fixed_by_an_arrow_for_it() {
        let plan = plan_core::parse_plan(
            &serde_json::json!({"id": "pay", "title": "Pay", "tools": [
                {"name": "check_payment", "response_codes": ["DONE", "DECLINED"]}], "states": [
                {"id": "pay", "title": "Payment", "type": "loose", "instructions": "Take it.",
                 "allowed_tools": ["check_payment"],
                 "transitions": [{"target_state_id": "done", "condition_type": "tool_result",
                    "condition_config": {"tool": "check_payment", "response_code": "DONE"}}]},
                {"id": "done", "title": "Done"}]})
            .to_string(),
        )
        .unwrap();
        let all = plan_core::validate(&plan).diagnostics;
        let d = all
            .iter()
            .find(|d| d.code == Code::UnhandledResponseCode)
            .expect("the DECLINED code unhandled");
        let fix = fix_for(&plan, &all, d).unwrap();
        assert_eq!(fix.label, "Add an arrow for \u{2018}DECLINED\u{2019}");
        let fixed = plan_core::edit::apply(&plan, &fix.command).unwrap().plan;
        assert!(plan_core::validate(&fixed)
            .diagnostics
            .iter()
            .all(|d| d.code != Code::UnhandledResponseCode));
    }
}
