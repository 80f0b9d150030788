//! End-to-end: three mistakes shown where they are (the card, the arrow, the field) and gone when fixed.

use super::*;
use plan_tests::ensure;
use plan_tests::page::gone;

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] =
    plan_tests::tests![three_mistakes_are_shown_where_they_are_and_go_away_when_fixed,];

/// Clicks the problem with `code` and checks that it selects `css` (a card or an arrow).
fn open_problem(ctx: &Ctx, code: &str, selected: &str) -> Outcome {
    click(ctx, hooks::TAB_PROBLEMS)?;
    click(ctx, &hooks::problem(code))?;
    ctx.session().wait_until(
        &format!("the {code} problem's element selected"),
        SHORT,
        || Ok(count(ctx, &format!("{selected}[data-selected=true]"))? == 1),
    )
}

fn problem_gone(ctx: &Ctx, code: &str) -> Outcome {
    click(ctx, hooks::TAB_PROBLEMS)?;
    gone(ctx, &format!("{code} gone"), &hooks::problem(code), SHORT)?;
    click(ctx, hooks::TAB_INSPECT)
}

fn three_mistakes_are_shown_where_they_are_and_go_away_when_fixed(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    let intake = hooks::state("customer-intake");

    // 1. A dangling reference by deletion: the task that collects issue_type is removed, and the
    // routes that read it point at nothing.
    select_state(ctx, "customer-intake")?;
    click(
        ctx,
        "[data-testid=task][data-task-index='1'] [data-testid=remove-task]",
    )?;
    click(ctx, hooks::TAB_PROBLEMS)?;
    ctx.session()
        .wait_until("unknown-deliverable-key listed", SHORT, || {
            Ok(count(ctx, &hooks::problem("unknown-deliverable-key"))? >= 1)
        })?;
    ensure_count(
        ctx,
        &format!("{intake} [data-testid=problem-badge][data-severity=error]"),
        1,
        "no error badge on the card",
    )?;
    ctx.screenshot("dangling-key")?;
    open_problem(
        ctx,
        "unknown-deliverable-key",
        &hooks::arrow("customer-intake", 0),
    )?;
    ctx.session().chord(&[CTRL, "z"])?;
    problem_gone(ctx, "unknown-deliverable-key")?;

    // 2. A value the enum does not allow: billing is dropped from issue_type's choices.
    select_state(ctx, "customer-intake")?;
    set_value(
        ctx,
        "[data-testid=task][data-task-index='1'] [data-testid=field-enum-values]",
        "technical, general",
    )?;
    open_problem(
        ctx,
        "enum-value-not-allowed",
        &hooks::arrow("customer-intake", 0),
    )?;
    ensure!(
        count(ctx, hooks::TRANSITION_INSPECTOR)? == 1,
        "the transition is not in the inspector"
    )?;
    select_state(ctx, "customer-intake")?;
    set_value(
        ctx,
        "[data-testid=task][data-task-index='1'] [data-testid=field-enum-values]",
        "billing, technical, general",
    )?;
    problem_gone(ctx, "enum-value-not-allowed")?;

    // 3. An empty composite: an any_of whose only condition is removed.
    select_arrow(ctx, "greeting", 0)?;
    set_value(ctx, &nested("condition-type", ""), "any_of")?;
    click(ctx, "[data-testid=remove-condition][data-path='0']")?;
    open_problem(
        ctx,
        "invalid-condition-config",
        &hooks::arrow("greeting", 0),
    )?;
    ensure_count(
        ctx,
        "[data-testid=inline-problem][data-code=invalid-condition-config]",
        1,
        "the problem is not shown with the transition",
    )?;
    ensure_count(
        ctx,
        &format!("{} [data-testid=problem-badge]", hooks::state("greeting")),
        1,
        "no badge on greeting",
    )?;
    ctx.screenshot("empty-composite")?;
    click(ctx, hooks::ADD_ROOT_CONDITION)?;
    problem_gone(ctx, "invalid-condition-config")?;
    let p = wait_for_draft(ctx, "customer-support", "the fixes", |p| {
        !validate(p).has_errors()
            && p.states[0].transitions[0].condition_type == Some(ConditionType::AnyOf)
    })?;
    ensure!(
        p.state("customer-intake")
            .is_some_and(|s| s.tasks.len() == 2),
        "the task did not come back"
    )
}
