//! Session states in the test chat: a gated tool and an automatic prompt built in the editor appear as the chat goes on; the sample chatted with presets and switched by hand

use super::*;
use plan_tests::ensure;
use plan_tests::page::{ensure_valid, open_plan_details};

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    a_gated_tool_and_an_automatic_prompt_built_in_the_editor_appear_as_the_chat_goes_on,
    the_session_states_sample_is_chatted_with_presets_and_switched_by_hand,
];

/// Session states (issue 17), built in the editor on the support sample: a prompt state that
/// switches itself on once the account number is known, and a refund tool that exists only while
/// it is on. The chat does not offer the tool until then; then it does, the panel says the rule
/// switched the state on, and the prompt the agent was told has the new text.
fn a_gated_tool_and_an_automatic_prompt_built_in_the_editor_appear_as_the_chat_goes_on(
    ctx: &Ctx,
) -> Outcome {
    open_plan_details(ctx, "customer-support")?;
    // The prompt state with its automatic rule.
    click(ctx, hooks::ADD_SESSION_STATE)?;
    set_value(ctx, hooks::FIELD_SS_ID, "vip_care")?;
    ctx.session().wait_for(
        "[data-testid=session-state][data-session-id=vip_care]",
        SHORT,
    )?;
    set_value(ctx, hooks::FIELD_SS_TYPE, "prompt")?;
    set_value(
        ctx,
        hooks::FIELD_SS_PROMPT,
        "Treat {{deliverable.customer_name}} as a VIP.",
    )?;
    click(ctx, hooks::ADD_AUTO_ACTIVATE)?;
    set_value(
        ctx,
        "[data-testid=auto-activate] [data-testid=field-key]",
        "account_number",
    )?;
    // The tool, first under another name, available only while vip_care is on.
    click(ctx, hooks::ADD_TOOL)?;
    set_value(ctx, hooks::FIELD_TOOL_NAME, "payout")?;
    set_value(ctx, hooks::FIELD_TOOL_ADD_CODES, "OK, REFUSED")?;
    click(
        ctx,
        "[data-testid=available-when-option][data-session-id=vip_care]",
    )?;
    // A template problem is said inline, under the field.
    set_value(ctx, hooks::FIELD_PLAN_INSTRUCTIONS, "Be kind. {{if}}")?;
    ctx.session()
        .wait_for(hooks::PROBLEM_PLAN_INSTRUCTIONS, SHORT)?;
    set_value(ctx, hooks::FIELD_PLAN_INSTRUCTIONS, "Be kind.")?;
    // Allowed in the intake, where the account number is asked for.
    click(
        ctx,
        &format!("{} .card-title", hooks::state("customer-intake")),
    )?;
    click(ctx, "[data-testid=field-allowed-tool][data-tool=payout]")?;
    // Renamed in the plan inspector: the state's allowed tools follow, as do conditions that
    // read a renamed response code.
    ctx.session().execute(
        "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));",
        json!([]),
    )?;
    set_value(ctx, hooks::FIELD_TOOL_NAME, "refund")?;
    set_value(
        ctx,
        "[data-testid=tool-code]:nth-of-type(2) [data-testid=field-tool-code]",
        "DENIED",
    )?;
    ctx.session().execute(
        "document.querySelector('[data-testid=tool]').scrollIntoView();",
        json!([]),
    )?;
    ctx.screenshot("tool-inspector-renamed")?;
    plan_tests::page::wait_saved(ctx)?;
    let saved = plan(ctx, "customer-support")?;
    ensure!(
        saved.tools.iter().any(|t| {
            t.name == "refund"
                && t.response_codes == ["OK", "DENIED"]
                && t.available_when == ["vip_care"]
        }),
        "the draft's tools: {:?}",
        saved.tools
    )?;
    let intake = saved.state("customer-intake").ok_or("no customer-intake")?;
    ensure!(
        intake.allowed_tools.iter().any(|t| t == "refund"),
        "intake's allowed tools after the rename: {:?}",
        intake.allowed_tools
    )?;
    let st = saved
        .session_state("vip_care")
        .ok_or("the draft has no vip_care")?;
    ensure!(
        st.auto_activate
            .as_ref()
            .is_some_and(|c| c.condition_config.get("key") == Some(&json!("account_number"))),
        "vip_care's rule: {:?}",
        st.auto_activate
    )?;
    ensure_valid(&saved)?;

    start_chat(ctx)?;
    say(ctx, "Chloe")?;
    say(ctx, "Chloe Martin")?;
    is_in(ctx, "customer-intake")?;
    let vip = "[data-testid=chat-session-state][data-id=vip_care]";
    ensure_count(
        ctx,
        &format!("{vip}[data-active=false]"),
        1,
        "vip_care is on too early",
    )?;
    ensure_count(
        ctx,
        "[data-testid=chat-tool][data-tool=refund]",
        0,
        "the refund tool is offered while vip_care is off",
    )?;
    say(ctx, "CM-1")?;
    ctx.session()
        .wait_for(&format!("{vip}[data-active=true]"), LONG)?;
    let changed = text_of(
        ctx,
        &format!("{vip} [data-testid=chat-session-state-changed]"),
    )?;
    ensure!(
        changed.contains("automatic rule"),
        "the panel says {changed:?}"
    )?;
    ctx.session()
        .wait_for("[data-testid=chat-tool][data-tool=refund]", LONG)?;
    let prompt = ctx.session().execute(
        "const all = document.querySelectorAll('[data-testid=chat-message][data-role=agent] [data-testid=chat-prompt] pre');
         return [all.length > 1 ? all[all.length - 2].textContent : '', all[all.length - 1].textContent];",
        json!([]),
    )?;
    let before = prompt[0].as_str().unwrap_or_default();
    let now = prompt[1].as_str().unwrap_or_default();
    ensure!(
        !before.contains("VIP") && now.contains("Treat Chloe Martin as a VIP."),
        "the prompt before: {before:?}, now: {now:?}"
    )?;
    // Open the last prompt for the screenshot, and call the tool that appeared.
    ctx.session().execute(
        "const all = document.querySelectorAll('[data-testid=chat-prompt]'); all[all.length - 1].open = true;",
        json!([]),
    )?;
    click(
        ctx,
        "[data-testid=chat-tool-code][data-tool=refund][data-code=OK]",
    )?;
    ctx.session()
        .wait_until("the refund call in the trace", LONG, || {
            Ok(text_of(ctx, hooks::CHAT_TRANSCRIPT)?.contains("/tool refund OK"))
        })?;
    ctx.screenshot("session-states-gated-tool")?;
    Ok(())
}

/// The session-states sample in the chat: begun with the caller preset as verified in technical
/// support (the refund tool is there at once), then technical mode switched off by hand, which
/// hides the line test.
fn the_session_states_sample_is_chatted_with_presets_and_switched_by_hand(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "account-care")?;
    click(ctx, hooks::TAB_CHAT)?;
    set_value(ctx, hooks::CHAT_BEGIN_STATE, "technical")?;
    set_value(ctx, "[data-testid=chat-ss-preset][data-id=identity_verified] [data-testid=chat-ss-preset-active]", "on")?;
    set_value(
        ctx,
        "[data-testid=chat-ss-preset][data-id=technical_mode] [data-testid=chat-ss-preset-active]",
        "on",
    )?;
    click(ctx, hooks::CHAT_START)?;
    ctx.session()
        .wait_until("the opening reply", LONG, || Ok(agent_lines(ctx)? >= 1))?;
    is_in(ctx, "technical")?;
    let row = |id: &str| format!("[data-testid=chat-session-state][data-id={id}]");
    ctx.session().wait_for(
        &format!("{}[data-active=true]", row("identity_verified")),
        LONG,
    )?;
    ctx.session()
        .wait_for("[data-testid=chat-tool][data-tool=issue_refund]", LONG)?;
    ctx.session()
        .wait_for("[data-testid=chat-tool][data-tool=run_line_test]", LONG)?;
    click(
        ctx,
        &format!("{} [data-testid=chat-ss-toggle]", row("technical_mode")),
    )?;
    ctx.session().wait_for(
        &format!("{}[data-active=false]", row("technical_mode")),
        LONG,
    )?;
    let changed = text_of(
        ctx,
        &format!(
            "{} [data-testid=chat-session-state-changed]",
            row("technical_mode")
        ),
    )?;
    ensure!(
        changed.contains("by the author"),
        "the panel says {changed:?}"
    )?;
    ensure_count(
        ctx,
        "[data-testid=chat-tool][data-tool=run_line_test]",
        0,
        "the line test is still offered with technical mode off",
    )?;
    // The cards and arrows say what they change.
    ensure_count(
        ctx,
        &format!("{} [data-testid=card-changes]", hooks::state("wrap_up")),
        1,
        "the wrap-up card does not say what it changes",
    )?;
    let arrow = text_of(ctx, "[data-testid=transition-label][data-from=verify][data-index='0'] [data-testid=arrow-changes]")?;
    ensure!(
        arrow.contains("identity_verified"),
        "the arrow says {arrow:?}"
    )?;
    ctx.screenshot("session-states-sample-chat")?;
    Ok(())
}
