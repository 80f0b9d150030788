//! End-to-end tests of an answer nothing handles (`unhandled-value`) in the real app: the warning
//! names the answer in the Problems tab and on the status bar, and its fix, one click, adds the
//! arrow for it, selected so that the author picks where it goes; the warning is gone.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::fs;

use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::page::{click, draft, gone, open_plan, plan, text_of, Outcome};
use plan_tests::{Ctx, Test, SHORT};

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] =
    plan_tests::tests![a_no_that_no_arrow_handles_is_named_and_fixed_by_one_click,];

const UNHANDLED: &str = hooks::UNHANDLED_VALUE;

/// The vehicle-viewing sample with its "not that time" arrows gone: a caller who says no at the
/// confirmation is not moved on. The Problems tab says so in words and offers "Add an arrow for
/// 'no'"; one click adds it (to where "yes" goes, after the others), selects it, and the warning
/// goes; the draft holds the new arrow.
fn a_no_that_no_arrow_handles_is_named_and_fixed_by_one_click(ctx: &Ctx) -> Outcome {
    let mut broken = plan(ctx, "vehicle-viewing")?;
    let confirm = broken
        .states
        .iter_mut()
        .find(|s| s.id == "confirm")
        .ok_or("the sample has no confirmation")?;
    let before = std::sync::Arc::make_mut(confirm);
    // Both arrows that read a "no" go (one of them, after a fourth reschedule, could still take it).
    before
        .transitions
        .retain(|t| t.target_state_id != "reschedule" && t.target_state_id != "reschedule-cap");
    let arrows = before.transitions.len();
    let text = serde_json::to_string_pretty(&broken).map_err(|e| e.to_string())?;
    fs::write(draft(ctx, "vehicle-viewing"), text).map_err(|e| e.to_string())?;
    ctx.relaunch()?;
    open_plan(ctx, "vehicle-viewing")?;
    click(ctx, hooks::TAB_PROBLEMS)?;
    ctx.session().wait_for(UNHANDLED, SHORT)?;
    let said = text_of(ctx, UNHANDLED)?;
    ensure!(
        said.contains("'no' for confirmed") && said.contains("Confirmation"),
        "the warning says {said:?}"
    )?;
    let fix = text_of(ctx, hooks::PROBLEM_FIX)?;
    ensure!(
        fix == "Add an arrow for \u{2018}no\u{2019}",
        "the fix says {fix:?}"
    )?;
    ctx.screenshot("unhandled-answer-and-its-fix")?;
    click(ctx, hooks::PROBLEM_FIX)?;
    ctx.session().wait_for(hooks::TRANSITION_INSPECTOR, SHORT)?;
    let selected = format!(
        "[data-testid=transition][data-from=confirm][data-index='{arrows}'][data-selected=true]"
    );
    ctx.session().wait_for(&selected, SHORT)?;
    ctx.screenshot("unhandled-answer-arrow-added")?;
    ctx.session()
        .wait_until("the fixed draft saved", SHORT, || {
            let saved = plan(ctx, "vehicle-viewing")?;
            let state = saved.state("confirm").ok_or("confirm is gone")?;
            Ok(state.transitions.len() == arrows + 1
                && state.transitions[arrows].condition_config.get("value")
                    == Some(&serde_json::json!(false)))
        })?;
    click(ctx, hooks::TAB_PROBLEMS)?;
    gone(ctx, "the warning gone", UNHANDLED, SHORT)?;
    ctx.screenshot("unhandled-answer-fixed")?;
    Ok(())
}
