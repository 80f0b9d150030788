//! Two runs compared, in words (simulate.md, "Runs"): each row what it was and what it became,
//! and whether that is better or worse. Pure; `panels::run_compare` lays the rows out.

use plan_api::messages::{ComparedRun, RunComparison};
use plan_core::simulate::compare::{PassRate, VerdictCounts};
use plan_core::simulate::run_id;

/// Whether a row got better, worse, or stayed (or cannot be told).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trend {
    Better,
    Worse,
    Same,
}

impl Trend {
    /// The class the row is drawn with, and the word a screen reader says.
    pub fn as_str(self) -> &'static str {
        match self {
            Trend::Better => "better",
            Trend::Worse => "worse",
            Trend::Same => "same",
        }
    }
}

/// One row of the comparison: what it is about, before, after, and the trend.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub what: String,
    pub before: String,
    pub after: String,
    pub trend: Trend,
}

/// "The run of 6 Dec 2026, 10:15:00 UTC (draft)".
pub fn compared_run_name(r: &ComparedRun) -> String {
    let when = run_id::words(&r.run);
    match r.plan.version {
        Some(n) => format!("The run of {when} (version {n})"),
        None => format!("The run of {when} (draft)"),
    }
}

/// "2 of 3 passed" (and "1 caller failed or stopped" when any); "not run" when absent.
fn rate_words(r: Option<PassRate>) -> String {
    match r {
        None => "not run".into(),
        Some(r) if r.apart > 0 => format!(
            "{} of {} passed, {} caller failed or stopped",
            r.passed, r.of, r.apart
        ),
        Some(r) => format!("{} of {} passed", r.passed, r.of),
    }
}

/// "3 yes, 1 no, 1 unsure" (the counts that are not zero); "not asked" when absent.
fn verdict_words(v: Option<VerdictCounts>) -> String {
    let Some(v) = v else {
        return "not asked".into();
    };
    let parts: Vec<String> = [
        (v.yes, "yes"),
        (v.no, "no"),
        (v.unsure, "unsure"),
        (v.not_asked, "not asked"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, w)| format!("{n} {w}"))
    .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// The share of `part` in `whole`, none when there is nothing to share.
fn share(part: u32, whole: u32) -> Option<f64> {
    (whole > 0).then(|| f64::from(part) / f64::from(whole))
}

/// Better when the share went up, worse when down.
fn trend(before: Option<f64>, after: Option<f64>) -> Trend {
    match (before, after) {
        (Some(b), Some(a)) if a > b + 1e-9 => Trend::Better,
        (Some(b), Some(a)) if a < b - 1e-9 => Trend::Worse,
        _ => Trend::Same,
    }
}

/// The rows per caller, named by `name`.
pub fn caller_rows(c: &RunComparison, name: impl Fn(&str) -> String) -> Vec<Row> {
    c.comparison
        .personas
        .iter()
        .map(|p| Row {
            what: name(&p.id),
            before: rate_words(p.before),
            after: rate_words(p.after),
            trend: trend(
                p.before.and_then(|r| share(r.passed, r.of)),
                p.after.and_then(|r| share(r.passed, r.of)),
            ),
        })
        .collect()
}

/// The rows per judge question: better when a larger share said yes.
pub fn question_rows(c: &RunComparison) -> Vec<Row> {
    let yes = |v: Option<VerdictCounts>| v.and_then(|v| share(v.yes, v.yes + v.no + v.unsure));
    c.comparison
        .questions
        .iter()
        .map(|q| Row {
            what: q.words.clone(),
            before: verdict_words(q.before),
            after: verdict_words(q.after),
            trend: trend(yes(q.before), yes(q.after)),
        })
        .collect()
}

/// The rows of how conversations ended, and of their mean turns (neither better nor worse).
pub fn ending_rows(c: &RunComparison) -> Vec<Row> {
    let count = |n: Option<u32>| n.unwrap_or(0).to_string();
    let mut rows: Vec<Row> = c
        .comparison
        .endings
        .iter()
        .map(|e| Row {
            what: format!("Ended: {}", ending_words(&e.id)),
            before: count(e.before),
            after: count(e.after),
            trend: Trend::Same,
        })
        .collect();
    let turns = |t: Option<f64>| t.map_or("—".to_string(), |t| format!("{t:.1}"));
    rows.push(Row {
        what: "Turns in a conversation, on average".into(),
        before: turns(c.comparison.turns.0),
        after: turns(c.comparison.turns.1),
        trend: Trend::Same,
    });
    rows
}

/// How the window says an ending.
fn ending_words(ending: &str) -> &str {
    match ending {
        "complete" => "complete",
        "hang_up" => "the plan hung up",
        "hand_off" => "handed off",
        "caller_hung_up" => "the caller hung up",
        "max_turns" => "the caller's patience ran out",
        _ => "cut short",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comparison() -> RunComparison {
        serde_json::from_value(serde_json::json!({
            "before": {"run": "20261206-100000", "plan": {"id": "p", "draft": true, "hash": "a"}},
            "after": {"run": "20261206-110000", "plan": {"id": "p", "version": 2, "hash": "b"}},
            "comparison": {
                "personas": [
                    {"id": "calm", "before": {"passed": 1, "of": 2, "apart": 0},
                     "after": {"passed": 2, "of": 2, "apart": 0}},
                    {"id": "late", "before": null, "after": {"passed": 0, "of": 1, "apart": 1}}],
                "questions": [{"id": "q1", "words": "Polite?",
                    "before": {"yes": 2, "no": 0, "unsure": 0, "not_asked": 0},
                    "after": {"yes": 1, "no": 1, "unsure": 1, "not_asked": 0}}],
                "endings": [{"id": "max_turns", "before": 1, "after": null}],
                "turns": [4.5, null]
            }
        }))
        .unwrap()
    }

    #[test]
    fn a_comparison_reads_as_rows_that_say_what_got_better_or_worse() {
        let c = comparison();
        assert_eq!(
            compared_run_name(&c.before),
            "The run of 6 Dec 2026, 10:00:00 UTC (draft)"
        );
        assert_eq!(
            compared_run_name(&c.after),
            "The run of 6 Dec 2026, 11:00:00 UTC (version 2)"
        );
        let callers = caller_rows(&c, |id| id.to_uppercase());
        assert_eq!(
            callers[0],
            Row {
                what: "CALM".into(),
                before: "1 of 2 passed".into(),
                after: "2 of 2 passed".into(),
                trend: Trend::Better,
            }
        );
        assert_eq!(callers[1].before, "not run");
        assert_eq!(
            callers[1].after,
            "0 of 1 passed, 1 caller failed or stopped"
        );
        assert_eq!(callers[1].trend, Trend::Same);
        let q = &question_rows(&c)[0];
        assert_eq!(
            (q.before.as_str(), q.after.as_str(), q.trend),
            ("2 yes", "1 yes, 1 no, 1 unsure", Trend::Worse)
        );
        let endings = ending_rows(&c);
        assert_eq!(endings[0].what, "Ended: the caller's patience ran out");
        assert_eq!(
            (endings[0].before.as_str(), endings[0].after.as_str()),
            ("1", "0")
        );
        assert_eq!(
            (endings[1].before.as_str(), endings[1].after.as_str()),
            ("4.5", "—")
        );
    }
}
