//! Two runs compared in the Simulate tab (simulate.md, "Runs"): a table per caller (the share
//! that passed), per judge question (the verdicts), how the conversations ended and their turns,
//! the earlier run on the left; a row that got better or worse says so in words as well as in
//! colour. The rows are `crate::simulate::compare`'s.

use leptos::prelude::*;
use plan_api::messages::RunComparison;

use crate::simulate::compare::{caller_rows, compared_run_name, ending_rows, question_rows, Row};
use crate::simulate::{persona_words, Simulating};

/// One table of rows under `caption`.
fn table(caption: &'static str, rows: Vec<Row>, before: &str, after: &str) -> impl IntoView {
    (!rows.is_empty()).then(|| {
        view! {
            <table class="sim-compare-table">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col"></th>
                        <th scope="col">{before.to_string()}</th>
                        <th scope="col">{after.to_string()}</th>
                    </tr>
                </thead>
                <tbody>
                    {rows
                        .into_iter()
                        .map(|r| {
                            let trend = r.trend.as_str();
                            let said = match trend {
                                "same" => String::new(),
                                t => format!(" ({t})"),
                            };
                            view! {
                                <tr data-testid="sim-compare-row" data-trend=trend>
                                    <th scope="row">{r.what}</th>
                                    <td>{r.before}</td>
                                    <td class=format!(
                                        "trend-{trend}",
                                    )>{format!("{}{said}", r.after)}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        }
    })
}

/// The comparison shown, with a button that closes it.
pub fn comparison_view(c: &RunComparison) -> impl IntoView {
    let simulating = expect_context::<Simulating>();
    let name = move |id: &str| {
        simulating
            .overview
            .with_untracked(|o| persona_words(o.as_ref(), id))
    };
    let (before, after) = ("Before", "After");
    view! {
        <div class="sim-compare" data-testid="sim-comparison">
            <div class="row">
                <p class="sim-summary">
                    {format!(
                        "{} → {}",
                        compared_run_name(&c.before),
                        compared_run_name(&c.after),
                    )}
                </p>
                <button
                    data-testid="sim-compare-close"
                    on:click=move |_| simulating.comparison.set(None)
                >
                    "Close"
                </button>
            </div>
            {table("Callers", caller_rows(c, name), before, after)}
            {table("Judge questions", question_rows(c), before, after)}
            {table("How they ended", ending_rows(c), before, after)}
        </div>
    }
}
