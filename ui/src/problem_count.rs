//! The status bar's one count of what is wrong: validation's findings and the last exploration's
//! together, so that the bar never says "No problems" while the Explore tab shows an error. An
//! exploration of an older draft is not counted (the bar says it is out of date instead).

use plan_core::Severity;

use crate::actions::plural;
use crate::navigation::Tab;

/// Errors and warnings of one check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counted {
    pub errors: usize,
    pub warnings: usize,
}

impl Counted {
    /// The errors and warnings among `severities`.
    pub fn of(severities: impl IntoIterator<Item = Severity>) -> Counted {
        severities.into_iter().fold(Counted::default(), |mut c, s| {
            match s {
                Severity::Error => c.errors += 1,
                Severity::Warning => c.warnings += 1,
                Severity::Info => {}
            }
            c
        })
    }

    fn is_clean(self) -> bool {
        self.errors == 0 && self.warnings == 0
    }
}

/// What the last exploration of the plan says, for the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Explored {
    /// Not explored since the plan was opened.
    Not,
    /// Explored, and the draft changed since.
    OutOfDate,
    /// Explored this draft.
    Found(Counted),
}

/// The status bar's count: its text, its tooltip (which check found what) and the tab a click
/// opens (the one that shows the problems).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProblemCount {
    pub text: String,
    pub tooltip: String,
    pub opens: Tab,
}

/// What the bar says when no plan is open (none yet, or one that cannot be read): nothing was
/// checked, so it must not say "No problems".
pub fn no_plan_open() -> ProblemCount {
    ProblemCount {
        text: "No plan open".into(),
        tooltip: "Nothing is checked until a plan is open".into(),
        opens: Tab::Inspect,
    }
}

/// The count of `checked` (validation) and `explored` together.
pub fn problem_count(checked: Counted, explored: Explored) -> ProblemCount {
    let found = match explored {
        Explored::Found(c) => c,
        _ => Counted::default(),
    };
    let errors = checked.errors + found.errors;
    let warnings = checked.warnings + found.warnings;
    let text = if errors == 0 && warnings == 0 {
        "No problems".to_string()
    } else {
        format!(
            "{} · {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        )
    };
    let said = |c: Counted| {
        if c.is_clean() {
            "nothing".to_string()
        } else {
            format!(
                "{}, {}",
                plural(c.errors, "error"),
                plural(c.warnings, "warning")
            )
        }
    };
    let explore_said = match explored {
        Explored::Not => "not explored yet".to_string(),
        Explored::OutOfDate => "the draft changed since: explore again".to_string(),
        Explored::Found(c) => said(c),
    };
    let tooltip = format!("Checks: {} · Explore: {explore_said}", said(checked));
    // A click opens where the problems are: the checks' list first (they block publishing).
    let opens = if checked.is_clean() && !found.is_clean() {
        Tab::Explore
    } else {
        Tab::Problems
    };
    ProblemCount {
        text,
        tooltip,
        opens,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLEAN: Counted = Counted {
        errors: 0,
        warnings: 0,
    };

    #[test]
    fn an_error_explore_found_is_counted_when_the_checks_find_none() {
        let count = problem_count(
            CLEAN,
            Explored::Found(Counted {
                errors: 1,
                warnings: 0,
            }),
        );
        assert_eq!(count.text, "1 error · 0 warnings");
        assert_eq!(count.opens, Tab::Explore);
        assert_eq!(
            count.tooltip,
            "Checks: nothing · Explore: 1 error, 0 warnings"
        );
    }

    #[test]
    fn both_checks_add_up_and_a_click_opens_the_checks_first() {
        let count = problem_count(
            Counted {
                errors: 0,
                warnings: 2,
            },
            Explored::Found(Counted {
                errors: 1,
                warnings: 1,
            }),
        );
        assert_eq!(count.text, "1 error · 3 warnings");
        assert_eq!(count.opens, Tab::Problems);
    }

    #[test]
    fn without_a_plan_the_bar_says_so_and_never_no_problems() {
        let count = no_plan_open();
        assert_eq!(count.text, "No plan open");
        assert_ne!(count.text, problem_count(CLEAN, Explored::Not).text);
        assert_eq!(count.opens, Tab::Inspect);
    }

    #[test]
    fn no_problems_only_when_neither_found_any_and_an_old_exploration_does_not_count() {
        assert_eq!(problem_count(CLEAN, Explored::Not).text, "No problems");
        let old = problem_count(CLEAN, Explored::OutOfDate);
        assert_eq!(old.text, "No problems");
        assert!(old.tooltip.ends_with("explore again"), "{}", old.tooltip);
        assert_eq!(
            Counted::of([Severity::Error, Severity::Info, Severity::Warning]),
            Counted {
                errors: 1,
                warnings: 1
            }
        );
    }
}
