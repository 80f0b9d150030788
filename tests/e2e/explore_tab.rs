//! End-to-end tests of exploring in the real app (explore.md; issue 32): the Explore tab runs every
//! conversation of the draft in the background and finds a broken rule on a copy of a sample;
//! Show draws its conversation on the canvas; the coverage colours every state; Play in the test
//! chat replays it turn by turn with its state lit; Save as test case keeps it; a long search counts
//! its configurations as it goes and stops when asked. The Publish dialog
//! lists a broken rule and keeps Publish disabled, and after a version, says what an edit changes
//! for callers.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::fs;
use std::time::Duration;

use plan_core::Plan;
use plan_tests::chat::is_in;
use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::page::{
    click, count, draft, ensure_count, open_plan, shows, text_of, texts, type_text, Outcome,
};
use plan_tests::{Ctx, Test};
use serde_json::json;

/// A search of the customer-support sample takes a few seconds in the debug app.
const SEARCH: Duration = Duration::from_secs(90);
const WAIT: Duration = Duration::from_secs(15);

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    a_broken_rule_is_found_shown_played_and_kept_as_a_test_case,
    the_publish_dialog_says_what_changes_for_callers_and_blocks_a_broken_rule,
    a_long_search_shows_its_progress_and_stops_when_asked,
    a_plan_built_to_explode_stops_at_a_ceiling_and_the_window_stays_responsive,
];

/// Opens the Explore tab and waits until its search counts configurations.
fn explore_until_counting(ctx: &Ctx) -> Outcome {
    click(ctx, hooks::TAB_EXPLORE)?;
    ctx.session()
        .wait_until("the search to count its configurations", WAIT, || {
            let text = text_of(ctx, hooks::EXPLORE_PROGRESS).unwrap_or_default();
            Ok(text.starts_with("Exploring…") && !text.contains(" 0 ways"))
        })
}

/// Whether the element `css` names is disabled.
fn disabled(ctx: &Ctx, css: &str) -> Result<bool, String> {
    let v = ctx.session().execute(
        "const e = document.querySelector(arguments[0]); return e ? e.disabled : null;",
        json!([css]),
    )?;
    v.as_bool().ok_or_else(|| format!("no {css}"))
}

/// The customer-support sample's draft, as the workspace holds it.
fn sample(ctx: &Ctx) -> Result<Plan, String> {
    plan_tests::page::plan(ctx, "customer-support")
}

/// Writes `plan` as customer-support's draft and starts the app again on it.
fn with_draft(ctx: &Ctx, plan: &Plan) -> Outcome {
    let text = serde_json::to_string_pretty(plan).map_err(|e| e.to_string())?;
    fs::write(draft(ctx, "customer-support"), text).map_err(|e| e.to_string())?;
    ctx.relaunch()?;
    open_plan(ctx, "customer-support")?;
    Ok(())
}

/// The rule the sample breaks: a caller who never gives a first name is moved on by the stuck
/// safety net and can reach billing.
fn broken_rule() -> Result<plan_core::plan::Rule, String> {
    serde_json::from_value(json!({
        "id": "billing-knows-the-name",
        "title": "Billing only for a caller who gave their name",
        "kind": "never_enters_unless",
        "state_id": "billing-support",
        "condition": {"condition_type": "deliverable_exists", "condition_config": {"key": "first_name"}}
    }))
    .map_err(|e| e.to_string())
}

fn a_broken_rule_is_found_shown_played_and_kept_as_a_test_case(ctx: &Ctx) -> Outcome {
    let mut plan = sample(ctx)?;
    plan.rules.push(broken_rule()?);
    with_draft(ctx, &plan)?;

    // Opened, the tab explores by itself.
    click(ctx, hooks::TAB_EXPLORE)?;
    let finding = &hooks::finding("explore-rule-broken");
    shows(ctx, "the broken rule found", finding, SEARCH)?;
    let summary = text_of(ctx, hooks::EXPLORE_SUMMARY)?;
    ensure!(
        summary.contains("every conversation") && summary.contains("1 error"),
        "the summary: {summary:?}"
    )?;
    let message = text_of(ctx, finding)?;
    ensure!(
        message.contains("Billing only for a caller who gave their name")
            && message.contains("conversation of 9 turns"),
        "the finding: {message:?}"
    )?;
    ensure!(
        text_of(ctx, hooks::TAB_EXPLORE)? == "Explore (1)",
        "the tab does not count the error"
    )?;
    ctx.screenshot("explore-found")?;

    // One truth: the status bar counts explore's error beside the checks', and opens Explore.
    let problems = text_of(ctx, hooks::PROBLEM_COUNT)?;
    ensure!(
        problems.starts_with("1 error"),
        "the status bar says {problems:?} while Explore shows an error"
    )?;
    // Why it happened, from the runtime's events, in words; no rule id in the sentence.
    let why = text_of(ctx, &format!("{finding} {}", hooks::EXPLORE_WHY))?;
    ensure!(
        why.contains("the stuck safety net skipped") && why.contains("Greeting"),
        "the why: {why:?}"
    )?;
    ensure!(
        !message.contains("billing-knows-the-name"),
        "the rule's id in the finding: {message:?}"
    )?;

    // Show: the path on the canvas, its last state lit, the states listed in order.
    click(ctx, &format!("{finding} [data-testid=explore-show]"))?;
    shows(
        ctx,
        "billing lit as the conversation's last state",
        "[data-testid=state][data-state-id=billing-support][data-current=true]",
        WAIT,
    )?;
    let path = text_of(ctx, hooks::EXPLORE_PATH)?;
    ensure!(
        path.find("Greeting") < path.find("Customer Intake")
            && path.find("Customer Intake") < path.find("Billing support")
            && path.contains("Greeting"),
        "the path: {path:?}"
    )?;
    ensure_count(
        ctx,
        "[data-testid=state][data-visited=true]",
        3,
        "the canvas does not mark the path's three states",
    )?;
    ensure_count(
        ctx,
        "[data-testid=transition][data-covered=true]",
        2,
        "the canvas does not draw the path's two transitions",
    )?;
    // The conversation told as a call: the caller's turns in words, the commands folded away.
    let story = text_of(ctx, hooks::EXPLORE_STORY)?;
    ensure!(
        story.contains("The agent marks \u{2018}Welcome the customer\u{2019} done (5 times)")
            && story.contains("The caller gives issue type: billing")
            && !story.contains("other-than")
            && !story.contains("/complete")
            && !story.contains("/set"),
        "the story: {story:?}"
    )?;
    ensure!(
        !plan_tests::page::is_visible(ctx, hooks::EXPLORE_COMMANDS)?,
        "the commands show without being asked for"
    )?;
    ctx.screenshot("explore-path-shown")?;
    // A suggestion opens the state it names in the inspector.
    click(ctx, &format!("{finding} {}", hooks::EXPLORE_SUGGESTION))?;
    shows(
        ctx,
        "the state the suggestion names, selected",
        "[data-testid=state][data-state-id=greeting][data-selected=true]",
        WAIT,
    )?;
    click(ctx, hooks::TAB_EXPLORE)?;
    shows(ctx, "the finding again", finding, WAIT)?;

    // Coverage: every state coloured by how many configurations enter it.
    click(ctx, &format!("{finding} [data-testid=explore-show]"))?;
    click(ctx, hooks::EXPLORE_COVERAGE)?;
    let states = plan.states.len();
    ctx.session()
        .wait_until("every state coloured by coverage", WAIT, || {
            Ok(count(ctx, "[data-testid=state][data-reach]")? == states)
        })?;
    ensure_count(
        ctx,
        "[data-testid=state][data-reach=never]",
        0,
        "a state of the sample is marked as never entered",
    )?;
    // The colours explained on the canvas while they show.
    let legend = text_of(ctx, hooks::COVERAGE_LEGEND)?;
    ensure!(
        legend.contains("none (dashed)") && legend.contains("many"),
        "the legend: {legend:?}"
    )?;
    ctx.screenshot("explore-coverage")?;
    click(ctx, hooks::EXPLORE_COVERAGE)?;

    // Play in the test chat: nine turns, one at a time, ending in billing, lit.
    click(ctx, &format!("{finding} [data-testid=explore-play]"))?;
    ctx.session()
        .wait_until("the conversation played to its ninth turn", SEARCH, || {
            Ok(count(ctx, hooks::USER_MESSAGE)? == 9)
        })?;
    is_in(ctx, "billing-support")?;
    shows(
        ctx,
        "billing lit on the canvas",
        "[data-testid=state][data-state-id=billing-support][data-current=true]",
        WAIT,
    )?;
    // The caller's turns read as words; each command is kept, small, under its words.
    let said = texts(ctx, "[data-testid=chat-message][data-role=user] .chat-text")?;
    ensure!(
        said.len() == 9
            && said
                .iter()
                .all(|t| t.starts_with("The ") && !t.contains('/')),
        "the caller's turns in the chat: {said:?}"
    )?;
    ensure_count(
        ctx,
        "[data-testid=chat-message][data-role=user] [data-testid=chat-command]",
        9,
        "the commands are not kept under the words",
    )?;
    ctx.screenshot("explore-played")?;

    // Save as test case: the dialog with its expectations, saved in tests/, passing.
    click(ctx, hooks::TAB_EXPLORE)?;
    shows(ctx, "the finding again", finding, WAIT)?;
    click(ctx, &format!("{finding} [data-testid=explore-save-case]"))?;
    shows(ctx, "the save-as-case dialog", hooks::CASE_NAME, WAIT)?;
    type_text(ctx, hooks::CASE_NAME, "nameless-caller-in-billing")?;
    click(ctx, hooks::CONFIRM)?;
    let file = ctx
        .workspace()
        .join("customer-support/tests/nameless-caller-in-billing.json");
    ctx.session()
        .wait_until("the case saved in tests/", WAIT, || Ok(file.is_file()))?;
    let saved: plan_core::runtime::script::Script =
        serde_json::from_str(&fs::read_to_string(&file).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    ensure!(
        saved.turns.len() == 9
            && saved
                .turns
                .last()
                .and_then(|t| t.expect.as_ref())
                .and_then(|e| e.state.as_deref())
                == Some("billing-support"),
        "the saved case: {saved:?}"
    )?;
    // Listed with the plan's cases in the test chat, passing.
    click(ctx, hooks::TAB_CHAT)?;
    shows(
        ctx,
        "the saved case listed, passing",
        "[data-testid=case-result][data-case=nameless-caller-in-billing][data-passed=true]",
        WAIT,
    )
}

/// A generated plan of 100 states allows millions of configurations (minutes): the tab counts
/// them as they come, Stop ends the search, which says it stopped, claims no "never" and is said
/// as incomplete.
fn a_long_search_shows_its_progress_and_stops_when_asked(ctx: &Ctx) -> Outcome {
    let large = plan_core::synthetic::plan(100);
    plan_core::store::Workspace::at(ctx.workspace())
        .create(&large.id, large.clone(), "2026-01-01T00:00:00Z")
        .map_err(|e| e.to_string())?;
    ctx.relaunch()?;
    open_plan(ctx, &large.id)?;
    explore_until_counting(ctx)?;
    ctx.screenshot("explore-running")?;
    click(ctx, hooks::EXPLORE_STOP)?;
    shows(ctx, "the search's answer", hooks::EXPLORE_SUMMARY, WAIT)?;
    let summary = text_of(ctx, hooks::EXPLORE_SUMMARY)?;
    ensure!(
        summary.contains("(stopped)"),
        "the summary of a stopped search: {summary:?}"
    )?;
    ensure!(
        count(ctx, &hooks::finding("explore-incomplete"),)? == 1
            && count(ctx, &hooks::finding("explore-state-never-entered"),)? == 0,
        "a stopped search is not said as incomplete, or claims a never"
    )?;
    ensure!(
        count(ctx, hooks::EXPLORE_RUN)? == 1,
        "no Explore again after the stop"
    )?;
    Ok(())
}

fn the_publish_dialog_says_what_changes_for_callers_and_blocks_a_broken_rule(ctx: &Ctx) -> Outcome {
    let original = sample(ctx)?;
    // A broken rule blocks publishing, listed with its conversation.
    let mut broken = original.clone();
    broken.rules.push(broken_rule()?);
    with_draft(ctx, &broken)?;
    click(ctx, hooks::PUBLISH)?;
    shows(
        ctx,
        "the broken rule in the publish dialog",
        hooks::PUBLISH_RULE_BROKEN,
        SEARCH,
    )?;
    ensure!(
        disabled(ctx, hooks::PUBLISH_CONFIRM)?,
        "Publish is enabled with a broken rule"
    )?;
    ctx.screenshot("publish-rule-broken")?;
    click(ctx, hooks::PUBLISH_CANCEL)?;

    // The sample as it is: its rules hold, and it is published.
    with_draft(ctx, &original)?;
    click(ctx, hooks::PUBLISH)?;
    shows(
        ctx,
        "the rules checked and holding",
        hooks::PUBLISH_RULES_HOLD,
        SEARCH,
    )?;
    click(ctx, hooks::PUBLISH_CONFIRM)?;
    ctx.session().wait_until("version 1 published", WAIT, || {
        Ok(ctx.workspace().join("customer-support/versions").is_dir()
            && count(ctx, hooks::PUBLISH_CONFIRM)? == 0)
    })?;

    // Billing support leads back to the intake instead of the farewell: its callers never finish.
    let mut edited = original.clone();
    let billing = edited
        .states
        .iter_mut()
        .find(|s| s.id == "billing-support")
        .ok_or("no billing-support")?;
    std::sync::Arc::make_mut(billing).transitions[0].target_state_id = "customer-intake".into();
    with_draft(ctx, &edited)?;
    click(ctx, hooks::PUBLISH)?;
    shows(
        ctx,
        "what changes for callers",
        hooks::PUBLISH_OUTCOMES,
        SEARCH,
    )?;
    let outcomes = text_of(ctx, hooks::PUBLISH_OUTCOMES)?;
    ensure!(
        outcomes.contains("ways a conversation can go that ended in Farewell now go on instead"),
        "the outcomes: {outcomes:?}"
    )?;
    let rules = text_of(ctx, hooks::PUBLISH_RULES_BROKEN)?;
    ensure!(
        rules.contains("Every call can end"),
        "the broken rules: {rules:?}"
    )?;
    ensure!(
        disabled(ctx, hooks::PUBLISH_CONFIRM)?,
        "Publish is enabled with a newly broken rule"
    )?;
    // An outcome's example, told as the call it is: the caller's turns in words, not commands.
    click(
        ctx,
        "[data-testid=publish-outcome] .publish-example summary",
    )?;
    let example = text_of(ctx, hooks::PUBLISH_EXAMPLE)?;
    ensure!(
        example.contains("The caller gives") && !example.contains('/'),
        "the example: {example:?}"
    )?;
    ctx.screenshot("publish-behaviour")?;
    Ok(())
}

/// A loose state of 2,000 tasks: every order of doing them is a conversation. The window's
/// search stops at its work ceiling and says so; meanwhile the page answers at once, and the
/// app's memory stays within its budget (the search's ceiling in the window is 300 MB).
fn a_plan_built_to_explode_stops_at_a_ceiling_and_the_window_stays_responsive(
    ctx: &Ctx,
) -> Outcome {
    let tasks: Vec<serde_json::Value> = (0..2_000)
        .map(|i| json!({"id": format!("t{i}"), "deliverables": [{"key": format!("k{i}"), "type": "string"}]}))
        .collect();
    let text = json!({
        "schema_version": 1, "id": "many-tasks", "title": "Many tasks", "start_state_id": "a",
        "states": [
            {"id": "a", "title": "Every task", "type": "loose", "tasks": tasks,
             "transitions": [{"target_state_id": "b", "condition_type": "all_tasks_complete"}]},
            {"id": "b", "title": "Done", "instructions": "Bye"}
        ]
    })
    .to_string();
    let plan = plan_core::parse_plan(&text).map_err(|e| format!("{e:?}"))?;
    plan_core::store::Workspace::at(ctx.workspace())
        .create("many-tasks", plan, "2026-01-01T00:00:00Z")
        .map_err(|e| e.to_string())?;
    ctx.relaunch()?;
    open_plan(ctx, "many-tasks")?;
    explore_until_counting(ctx)?;
    // While it runs, the page answers at once.
    let mut slowest = Duration::ZERO;
    for _ in 0..5 {
        let asked = std::time::Instant::now();
        ctx.session().execute("return document.title;", json!([]))?;
        slowest = slowest.max(asked.elapsed());
        std::thread::sleep(Duration::from_millis(200));
    }
    ensure!(
        slowest < Duration::from_secs(1),
        "the page took {slowest:?} to answer while exploring"
    )?;
    shows(
        ctx,
        "the search's answer",
        hooks::EXPLORE_SUMMARY,
        Duration::from_secs(240),
    )?;
    let summary = text_of(ctx, hooks::EXPLORE_SUMMARY)?;
    ensure!(
        summary.contains("(stopped at the work ceiling)"),
        "the summary: {summary:?}"
    )?;
    let finding = text_of(ctx, &hooks::finding("explore-incomplete"))?;
    ensure!(
        finding.contains("its work ceiling (10,000,000 moves"),
        "the finding: {finding:?}"
    )?;
    // The app's peak resident size: within its budget.
    let pid = ctx.app_pid()?;
    let status = fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| e.to_string())?;
    let peak_kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .ok_or("no VmHWM")?;
    ensure!(
        peak_kb < 700 * 1024,
        "the app peaked at {} MB",
        peak_kb / 1024
    )?;
    ctx.screenshot("explore-work-ceiling")?;
    Ok(())
}
