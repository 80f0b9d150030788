//! End-to-end tests of the test chat in the window (issue 16): talking to a plan with the state
//! lit and the fired transition's why on the canvas, saving the conversation as a test case and
//! seeing it fail after a priority swap, the suite's coverage, the tool buttons of an imported
//! flow export to its hang-up, "test from here" with a value known and a turn taken back, and a
//! conversation continued after the app was killed.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::fs;
use std::process::Command;

use plan_tests::chat::{agent_lines, is_in, say, start_chat, LONG};
use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::native::choose_file;
use plan_tests::page::{
    arrow_middle, attribute, click, click_at, count, ensure_count, is_visible, open_plan, plan,
    set_value, shows, text_of, texts, type_text, value_of, Outcome,
};
use plan_tests::{Ctx, Test, SHORT};
use serde_json::json;

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    a_chat_reaches_billing_is_saved_as_a_case_and_fails_after_a_priority_swap,
    the_seed_flow_export_is_talked_through_with_the_tool_buttons_to_the_hang_up,
    a_chat_begun_in_technical_support_with_a_value_known_takes_a_turn_back,
    a_chat_killed_half_way_is_continued_after_the_app_starts_again,
    a_published_version_is_tested_read_only_and_the_draft_again_after,
];

/// Session states in the test chat: a module of its own.
pub mod sessions;

fn deliverable(ctx: &Ctx, key: &str) -> Result<String, String> {
    text_of(
        ctx,
        &format!("[data-testid=chat-deliverable][data-key='{key}']"),
    )
}

/// Selects a transition by clicking its arrow, as the editor tests do.
fn select_arrow(ctx: &Ctx, from: &str, index: usize) -> Outcome {
    let css = format!(
        "[data-testid=transition][data-from='{from}'][data-index='{index}'][data-selected=true]"
    );
    click_at(ctx, arrow_middle(ctx, from, index)?)?;
    shows(
        ctx,
        &format!("transition {index} of {from} selected"),
        &css,
        LONG,
    )
}

/// The support plan to billing in plain words, the lit state checked after each turn; saved as
/// a test case; the plan changed so that the case fails (billing's priority swapped with the
/// fall-through to general support); the suite fails it at the turn where it differs, with what
/// was expected and what happened, and the coverage is counted and drawn.
fn a_chat_reaches_billing_is_saved_as_a_case_and_fails_after_a_priority_swap(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    start_chat(ctx)?;
    is_in(ctx, "greeting")?;
    let mode = text_of(ctx, hooks::MODE)?;
    ensure!(mode == "Testing the draft", "the top bar says {mode:?}")?;
    for (message, state) in [
        ("Chloe", "customer-intake"),
        ("Chloe Martin", "customer-intake"),
        ("CM-1", "customer-intake"),
        ("it is about billing", "billing-support"),
    ] {
        say(ctx, message)?;
        is_in(ctx, state)?;
    }
    // The why of the move: in the fired label's tooltip at the zoom the plan opened at, where
    // drawn it would be under 8 px on screen; drawn once the author zooms in far enough.
    const WHY: &str = "moved to Billing support because issue_type = billing (priority 1)";
    let fired = "[data-testid=transition-label][data-fired=true]";
    let tooltip = attribute(ctx, fired, "title")?;
    ensure!(
        tooltip.as_deref().is_some_and(|t| t.ends_with(WHY)),
        "the fired label's tooltip is {tooltip:?}"
    )?;
    ensure!(
        !is_visible(ctx, hooks::FIRED_WHY)?,
        "the why is drawn under 8 px at the zoom the plan opened at"
    )?;
    ctx.screenshot("chat-why-in-the-tooltip")?;
    for _ in 0..4 {
        click(ctx, hooks::ZOOM_IN)?;
    }
    let why = ctx
        .session()
        .wait_until("the why drawn, zoomed in", SHORT, || {
            is_visible(ctx, hooks::FIRED_WHY)
        })
        .and_then(|_| text_of(ctx, hooks::FIRED_WHY))?;
    ensure!(why == WHY, "the canvas says {why:?}")?;
    ctx.screenshot("chat-why-zoomed-in")?;
    click(ctx, hooks::FIT_VIEW)?;
    ensure!(
        count(
            ctx,
            "[data-testid=transition][data-from=customer-intake][data-index='0'][data-fired=true]",
        )? == 1
            && count(ctx, "[data-testid=transition][data-fired=true]")? == 1,
        "the fired transition is not the one flashed"
    )?;
    for visited in ["greeting", "customer-intake"] {
        ensure!(
            count(
                ctx,
                &format!("{}[data-visited=true]", hooks::state(visited)),
            )? == 1,
            "{visited} is not marked as visited"
        )?;
    }
    ensure_count(
        ctx,
        &format!("{}[data-visited=true]", hooks::state("technical-support")),
        0,
        "technical support is marked but was never visited",
    )?;
    let issue = deliverable(ctx, "issue_type")?;
    ensure!(
        issue.contains("billing")
            && issue.contains("at turn 4")
            && issue.contains("it is about billing"),
        "issue_type shows {issue:?}"
    )?;
    let traces = texts(ctx, hooks::CHAT_TRACE)?;
    ensure!(
        traces.iter().any(|t| t.contains(&why)),
        "no turn's trace tells the move: {traces:?}"
    )?;
    ctx.screenshot("chat-reached-billing")?;

    click(ctx, hooks::CHAT_SAVE_CASE)?;
    shows(ctx, "the save-as-case dialog", hooks::CASE_NAME, LONG)?;
    ensure!(
        count(ctx, hooks::CASE_EXPECT)? >= 5,
        "the dialog lists no expectations to trim"
    )?;
    // Values by the key's words (its deliverable's description, else the key in words).
    let listed = text_of(ctx, hooks::CASE_TURNS)?;
    ensure!(
        listed.contains("issue type: billing") && !listed.contains("issue_type"),
        "the dialog names a value by its key: {listed}"
    )?;
    // The dialog opens in the name it needs (not in the first box to untick); Enter saves.
    let focused = plan_tests::keys::focused(ctx)?;
    ensure!(
        focused == "case-name",
        "the dialog opened with the focus on {focused}"
    )?;
    plan_tests::keys::type_keys(ctx, "billing-by-chat")?;
    ctx.screenshot("chat-save-case")?;
    plan_tests::axe::check(ctx, "the save-as-case dialog")?;
    plan_tests::keys::press(ctx, &[plan_tests::keys::ENTER])?;
    let file = ctx
        .workspace()
        .join("customer-support/tests/billing-by-chat.json");
    ctx.session()
        .wait_until("the case saved in tests/", LONG, || Ok(file.is_file()))?;
    let saved = fs::read_to_string(&file).map_err(|e| e.to_string())?;
    ensure!(
        saved.contains("\"billing-support\"") && saved.contains("it is about billing"),
        "the saved case: {saved}"
    )?;
    // Listed as soon as it is saved, with its result.
    shows(
        ctx,
        "the saved case listed, passing",
        "[data-testid=case-result][data-case=billing-by-chat][data-passed=true]",
        LONG,
    )?;

    // The priority swap, in the inspector: billing 10, the fall-through to general 1.
    click(ctx, hooks::TAB_INSPECT)?;
    select_arrow(ctx, "customer-intake", 0)?;
    type_text(ctx, hooks::FIELD_PRIORITY, "10")?;
    select_arrow(ctx, "customer-intake", 2)?;
    type_text(ctx, hooks::FIELD_PRIORITY, "1")?;
    ctx.session().wait_until("the swap saved", LONG, || {
        let p = plan(ctx, "customer-support")?;
        let t = &p.state("customer-intake").ok_or("no intake")?.transitions;
        Ok(t[0].priority.0 == 10.0 && t[2].priority.0 == 1.0)
    })?;

    click(ctx, hooks::TAB_CHAT)?;
    shows(ctx, "the chat offering a restart", hooks::CHAT_STALE, LONG)?;
    click(ctx, hooks::CHAT_RUN_SUITE)?;
    let case = "[data-testid=case-result][data-case=billing-by-chat]";
    shows(
        ctx,
        "the case failing after the swap",
        &format!("{case}[data-passed=false]"),
        LONG,
    )?;
    let summary = text_of(ctx, hooks::SUITE_SUMMARY)?;
    ensure!(
        summary.ends_with("failed") && !summary.contains(" 0 failed"),
        "the summary says {summary:?}"
    )?;
    let coverage = text_of(ctx, hooks::COVERAGE_SUMMARY)?;
    ensure!(
        coverage.ends_with("of 7 transitions tested"),
        "the coverage says {coverage:?}"
    )?;
    let taken = count(ctx, "[data-testid=transition][data-covered=true]")?;
    let untaken = count(ctx, "[data-testid=transition][data-covered=false]")?;
    ensure!(
        taken + untaken == 7 && coverage.starts_with(&format!("{taken} of")),
        "{taken} arrows drawn tested, {untaken} untested, for {coverage:?}"
    )?;

    click(ctx, case)?;
    shows(
        ctx,
        "the failing case opened",
        "[data-testid=case-opened][data-turn='4']",
        LONG,
    )?;
    let differs = text_of(ctx, hooks::CASE_DIFFERS)?;
    ensure!(
        differs.contains("expected state 'billing-support'")
            && differs.contains("in 'general-support'"),
        "the case says {differs:?}"
    )?;
    is_lit(ctx, "general-support")?;
    ctx.screenshot("suite-failing-case").map(|_| ())
}

/// Only `state` is lit on the canvas (a failing case shows where it was).
fn is_lit(ctx: &Ctx, state: &str) -> Outcome {
    ctx.session().wait_until(&format!("{state} lit"), LONG, || {
        Ok(count(ctx, hooks::LIT_STATE)? == 1
            && count(ctx, &format!("{}[data-current=true]", hooks::state(state)))? == 1)
    })
}

/// The exact flow export printed in seed 004, imported through the dialog, then talked through
/// with the tool buttons only, each button sending the call with its code, to the hang-up.
fn the_seed_flow_export_is_talked_through_with_the_tool_buttons_to_the_hang_up(
    ctx: &Ctx,
) -> Outcome {
    let export = ctx
        .harness
        .root()
        .join("core/tests/fixtures/flow-export.json");
    click(ctx, hooks::IMPORT)?;
    click(ctx, hooks::IMPORT_NEW)?;
    choose_file(ctx, "Import a plan", &export.display().to_string(), false)?;
    shows(ctx, "the imported plan", &hooks::plan("flow-export"), LONG)?;
    let p = open_plan(ctx, "flow-export")?;
    start_chat(ctx)?;
    let ids: Vec<String> = p.states.iter().map(|s| s.id.clone()).collect();
    is_in(ctx, &ids[0])?;
    for (tool, code, next) in [
        ("verify_customer", "CUSTOMER_VERIFIED", &ids[1]),
        ("classify", "Ratenzahlung gewünscht", &ids[2]),
        ("agree_installment_plan", "AGREEMENT_CONFIRMED", &ids[3]),
    ] {
        let button = format!("[data-testid=chat-tool-code][data-tool={tool}][data-code='{code}']");
        let before = agent_lines(ctx)?;
        if tool == "classify" {
            ctx.screenshot("chat-tool-buttons")?;
        }
        click(ctx, &button)?;
        ctx.session()
            .wait_until(&format!("the reply to {tool}"), LONG, || {
                Ok(agent_lines(ctx)? == before + 1)
            })?;
        is_in(ctx, next)?;
        let sent = ctx.session().execute(
            "const u = [...document.querySelectorAll('[data-testid=chat-message][data-role=user] [data-testid=chat-command]')]; return u[u.length - 1].textContent;",
            json!([]),
        )?;
        ensure!(
            sent.as_str() == Some(&format!("/tool {tool} {code}")),
            "the button sent {sent}"
        )?;
    }
    let ended = text_of(ctx, hooks::CHAT_ENDED)?;
    ensure!(ended.contains("hung up"), "the chat says {ended:?}")?;
    let disabled = ctx.session().execute(
        "return document.querySelector('[data-testid=chat-input]').disabled;",
        json!([]),
    )?;
    ensure!(
        disabled == json!(true),
        "the message field still takes messages after the hang-up"
    )?;
    ctx.screenshot("chat-hung-up").map(|_| ())
}

/// "Test from here": technical support selected, issue_type known from the start; a turn
/// answered, taken back, and answered differently.
fn a_chat_begun_in_technical_support_with_a_value_known_takes_a_turn_back(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    click(ctx, &hooks::state("technical-support"))?;
    click(ctx, hooks::CHAT_FROM_HERE)?;
    shows(ctx, "the Chat tab", hooks::CHAT_BEGIN_STATE, LONG)?;
    let begin = value_of(ctx, hooks::CHAT_BEGIN_STATE)?;
    ensure!(begin == "technical-support", "the chat begins in {begin:?}")?;
    set_value(ctx, hooks::CHAT_PRESET_KEY, "issue_type")?;
    set_value(ctx, hooks::CHAT_PRESET_VALUE, "technical")?;
    click(ctx, hooks::CHAT_PRESET_ADD)?;
    shows(
        ctx,
        "the preset",
        "[data-testid=chat-preset][data-key=issue_type]",
        LONG,
    )?;
    click(ctx, hooks::CHAT_START)?;
    ctx.session()
        .wait_until("the opening reply", LONG, || Ok(agent_lines(ctx)? >= 1))?;
    is_in(ctx, "technical-support")?;
    let known = deliverable(ctx, "issue_type")?;
    ensure!(
        known.contains("technical") && known.contains("known from the start"),
        "issue_type shows {known:?}"
    )?;

    say(ctx, "device: laptop")?;
    ensure!(
        deliverable(ctx, "device")?.contains("laptop"),
        "the device was not recorded"
    )?;
    let users = count(ctx, hooks::USER_MESSAGE)?;
    click(ctx, hooks::CHAT_STEP_BACK)?;
    ctx.session().wait_until("the turn taken back", LONG, || {
        Ok(count(ctx, hooks::USER_MESSAGE)? == users - 1
            && count(ctx, "[data-testid=chat-deliverable][data-key=device]")? == 0)
    })?;
    say(ctx, "device: the phone app")?;
    let device = deliverable(ctx, "device")?;
    ensure!(
        device.contains("the phone app") && !device.contains("laptop"),
        "device shows {device:?}"
    )?;
    is_in(ctx, "technical-support")?;
    ctx.screenshot("chat-from-technical-support")?;

    // Restart: the same beginning, a new conversation.
    click(ctx, hooks::CHAT_RESTART)?;
    ctx.session().wait_until("a new conversation", LONG, || {
        Ok(count(ctx, hooks::CHAT_MESSAGE)? == 1)
    })?;
    is_in(ctx, "technical-support")?;
    ensure!(
        deliverable(ctx, "issue_type")?.contains("known from the start")
            && count(ctx, "[data-testid=chat-deliverable][data-key=device]")? == 0,
        "the restart did not begin as the conversation began"
    )
}

/// A conversation half way, the app killed (SIGKILL), started again: the plan's last
/// conversation is shown where it was and goes on to billing.
fn a_chat_killed_half_way_is_continued_after_the_app_starts_again(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    start_chat(ctx)?;
    say(ctx, "Chloe")?;
    say(ctx, "Chloe Martin")?;
    is_in(ctx, "customer-intake")?;
    let pid = ctx.app_pid()?;
    let killed = Command::new("kill")
        .args(["-KILL", &pid])
        .status()
        .map_err(|e| e.to_string())?;
    ensure!(killed.success(), "the app was not running")?;

    ctx.relaunch()?;
    open_plan(ctx, "customer-support")?;
    click(ctx, hooks::TAB_CHAT)?;
    ctx.session()
        .wait_until("the conversation shown again", LONG, || {
            Ok(agent_lines(ctx)? == 3)
        })?;
    is_in(ctx, "customer-intake")?;
    ensure!(
        deliverable(ctx, "customer_name")?.contains("Chloe Martin"),
        "the name said before the kill is not known"
    )?;
    say(ctx, "CM-1")?;
    say(ctx, "it is about billing")?;
    is_in(ctx, "billing-support")?;
    ensure_count(
        ctx,
        hooks::USER_MESSAGE,
        4,
        "the turns before the kill are not in the transcript",
    )?;
    ctx.screenshot("chat-continued-after-kill")?;

    // Its log broken on disk: the Chat tab says so, naming the file, instead of a history lost.
    let logs = ctx.workspace().join("customer-support/sessions/.log");
    let log = std::fs::read_dir(&logs)
        .map_err(|e| format!("{}: {e}", logs.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .ok_or("no log kept")?;
    std::fs::write(&log, b"{\"turns\": [").map_err(|e| e.to_string())?;
    ctx.relaunch()?;
    open_plan(ctx, "customer-support")?;
    click(ctx, hooks::TAB_CHAT)?;
    let error = ctx
        .session()
        .wait_for("[data-testid=chat-error][data-code=invalid-json]", LONG)?;
    let said = ctx.session().text(&error)?;
    ensure!(
        said.contains(".log/") && said.contains("cannot be read"),
        "the broken log is said as {said:?}"
    )?;
    ctx.screenshot("chat-log-broken").map(|_| ())
}

/// Version 1 published (by `plan`, as another program would), then tested from the Run choice:
/// the canvas shows that version read-only and the top bar says so; back on the draft, the draft.
fn a_published_version_is_tested_read_only_and_the_draft_again_after(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    let out = Command::new(plan_tests::binary("plan")?)
        .args(["publish", "customer-support", "-m", "first"])
        .arg("--workspace")
        .arg(ctx.workspace())
        .output()
        .map_err(|e| e.to_string())?;
    ensure!(
        out.status.success(),
        "plan publish: {}",
        String::from_utf8_lossy(&out.stderr)
    )?;
    click(ctx, hooks::TAB_CHAT)?;
    shows(
        ctx,
        "version 1 offered",
        "[data-testid=chat-run] option[value='1']",
        LONG,
    )?;
    set_value(ctx, hooks::CHAT_RUN, "1")?;
    click(ctx, hooks::CHAT_START)?;
    ctx.session()
        .wait_until("the opening reply", LONG, || Ok(agent_lines(ctx)? >= 1))?;
    shows(
        ctx,
        "version 1 shown read-only",
        hooks::READONLY_BANNER,
        LONG,
    )?;
    let mode = text_of(ctx, hooks::MODE)?;
    ensure!(mode == "Testing version 1", "the top bar says {mode:?}")?;
    say(ctx, "Chloe")?;
    is_in(ctx, "customer-intake")?;
    ctx.screenshot("chat-version-1")?;

    set_value(ctx, hooks::CHAT_RUN, "draft")?;
    click(ctx, hooks::CHAT_START)?;
    ctx.session()
        .wait_until("the draft shown again", LONG, || {
            Ok(count(ctx, hooks::READONLY_BANNER)? == 0
                && text_of(ctx, hooks::MODE)? == "Testing the draft"
                && count(ctx, hooks::CHAT_MESSAGE)? == 1)
        })?;
    is_in(ctx, "greeting")
}
