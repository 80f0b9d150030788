//! Live validation of the open plan: the validator's report, kept up to date without making
//! typing wait for it.

use leptos::prelude::*;
use plan_core::validate;

use crate::editor::{Editor, Mode};

/// Plans this large are validated a moment after the last change instead of on every keystroke,
/// so typing never waits for the validator.
const VALIDATE_AT_ONCE_BELOW: usize = 400;
const VALIDATE_AFTER: std::time::Duration = std::time::Duration::from_millis(150);
const VALIDATE_AFTER_AT_MOST: std::time::Duration = std::time::Duration::from_millis(700);

/// The validator's report on the open plan, kept up to date.
pub fn validation(editor: Editor) -> Memo<plan_core::Report> {
    let report = RwSignal::new(plan_core::Report::default());
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let size = editor
            .plan
            .with(|p| p.as_ref().map_or(0, |p| p.states.len()));
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        // A comparison's plan holds ghosts of what was removed: its problems are no one's.
        if editor.mode.with(|m| matches!(m, Mode::Compare { .. })) {
            report.set(plan_core::Report::default());
            return;
        }
        let run = move || {
            if generation.get_value() == mine {
                let found = crate::timeline::timed("validate", || {
                    editor
                        .plan
                        .with_untracked(|p| p.as_ref().map(validate).unwrap_or_default())
                });
                crate::timeline::timed("validate: report set", || report.set(found));
            }
        };
        if size < VALIDATE_AT_ONCE_BELOW {
            run();
        } else {
            // The larger the plan, the longer validating it holds up the page: wait for a real
            // pause in typing (a keystroke every 150–250 ms would otherwise validate in between).
            let pause = VALIDATE_AFTER + std::time::Duration::from_millis(size as u64 / 10);
            set_timeout(run, pause.min(VALIDATE_AFTER_AT_MOST));
        }
    });
    Memo::new(move |_| report.get())
}
