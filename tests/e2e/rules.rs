//! End-to-end tests of rules (explore.md, "Rules") in the real app: an author writes one in the
//! plan inspector with pickers, not JSON, and it is kept in the draft, checked like everything
//! else (a state it names that is renamed follows; one removed is a problem at the rule).
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use plan_core::plan::RuleKind;
use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::page::{
    click, ensure_valid, open_plan_details, plan, scroll_to, set_value, wait_saved, Outcome,
};
use plan_tests::{Ctx, Test, SHORT};

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] =
    plan_tests::tests![a_rule_is_written_with_pickers_and_kept_in_the_draft,];

/// On the telecom sample, beside its own two rules: "Billing only after identity is verified",
/// written as a kind in words,
/// the billing state picked, and the condition built (a value is known: the customer's name);
/// the draft holds exactly that rule, valid; the kind changed to "one state always comes before
/// another" keeps only what that kind uses.
fn a_rule_is_written_with_pickers_and_kept_in_the_draft(ctx: &Ctx) -> Outcome {
    open_plan_details(ctx, "account-care")?;
    click(ctx, hooks::ADD_RULE)?;
    let form = "[data-testid=rule-fields][data-rule-id='rule-3']";
    ctx.session().wait_for(form, SHORT)?;
    set_value(
        ctx,
        &format!("{form} [data-testid=field-rule-title]"),
        "Billing only after identity is verified",
    )?;
    set_value(
        ctx,
        &format!("{form} [data-testid=field-rule-kind]"),
        "never_enters_unless",
    )?;
    let state = format!("{form} [data-testid=field-rule-state]");
    ctx.session().wait_for(&state, SHORT)?;
    set_value(ctx, &state, "billing")?;
    let key = format!("{form} [data-testid=rule-condition] [data-testid=field-key]");
    ctx.session().wait_for(&key, SHORT)?;
    set_value(ctx, &key, "customer_name")?;
    wait_saved(ctx)?;
    let saved = plan(ctx, "account-care")?;
    let rule = saved.rules.last().ok_or("the draft has no rule")?;
    let condition = rule.condition.as_ref().ok_or("the rule has no condition")?;
    ensure!(
        rule.title == "Billing only after identity is verified"
            && rule.kind == RuleKind::NeverEntersUnless
            && rule.state_id.as_deref() == Some("billing")
            && condition
                .condition_config
                .get("key")
                .and_then(|k| k.as_str())
                == Some("customer_name"),
        "the draft's rule: {rule:?}"
    )?;
    ensure_valid(&saved)?;
    scroll_to(ctx, form)?;
    ctx.screenshot("rule-written")?;

    set_value(
        ctx,
        &format!("{form} [data-testid=field-rule-kind]"),
        "visits_before",
    )?;
    ctx.session().wait_for(
        &format!("{form} [data-testid=field-rule-then-state]"),
        SHORT,
    )?;
    wait_saved(ctx)?;
    let saved = plan(ctx, "account-care")?;
    let rule = saved.rules.last().ok_or("the draft has no rule")?;
    ensure!(
        rule.kind == RuleKind::VisitsBefore
            && rule.condition.is_none()
            && rule.state_id.is_none()
            && rule.first_state_id.as_deref() == Some("welcome")
            && rule.then_state_id.is_some(),
        "after choosing another kind: {rule:?}"
    )?;
    Ok(())
}
