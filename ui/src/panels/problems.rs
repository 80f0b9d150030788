//! The Problems tab: every finding of the validator, errors first; a click selects and centres
//! the state or transition concerned and opens its field. The publish dialog lists the errors
//! that block it the same way ([`problem_item`]).

use leptos::prelude::*;
use plan_core::{Diagnostic, Report, Severity};

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
            <ul>
                {move || sorted().into_iter().map(|d| problem_item(d, on_problem)).collect_view()}
            </ul>
        </div>
    }
}

/// One problem in a list: its message and place; a click is `on_click`'s.
pub fn problem_item(d: Diagnostic, on_click: Callback<Diagnostic>) -> impl IntoView {
    let sev = d.severity.as_str();
    let icon = match d.severity {
        Severity::Error | Severity::Warning => "!",
        Severity::Info => "i",
    };
    let place = place(&d);
    let clicked = d.clone();
    view! {
        <li>
            <button
                class=format!("problem {sev}")
                data-testid="problem"
                data-code=d.code.as_str()
                data-severity=sev
                on:click=move |_| on_click.run(clicked.clone())
            >
                <span class="problem-icon">{icon}</span>
                <span class="problem-text">
                    <span class="problem-message">{d.message.clone()}</span>
                    <span class="problem-place">{place}</span>
                </span>
            </button>
        </li>
    }
}

/// Where a problem is: `unknown-target-state · intake · transition 1`.
fn place(d: &Diagnostic) -> String {
    let at = match (&d.location.state_id, d.location.transition_index) {
        (Some(s), Some(i)) => format!("{s} · transition {}", i + 1),
        (Some(s), None) => s.clone(),
        _ => "plan".to_string(),
    };
    format!("{} · {at}", d.code.as_str())
}
