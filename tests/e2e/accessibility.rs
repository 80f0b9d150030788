//! Nothing an accessibility checker can fault (issue 44): axe-core's WCAG 2.1 A and AA rules,
//! run in the real app's page, find no violation of any impact in the welcome, the editor with a
//! plan open and each side panel shown (the inspector on a state and on an arrow, problems,
//! versions, the test chat with a conversation, explore with a finding), the publish and import
//! dialogs, the canvas's menu, the picker of a new arrow's target, the shortcuts overlay, the
//! canvas zoomed out (its labels grown), a plan's lanes of session states and evaluations, and
//! the Simulate tab.
//! Each failure lists the rule, its impact and the elements.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::fs;
use std::time::Duration;

use plan_tests::axe;
use plan_tests::hooks;
use plan_tests::keys::{press, wait_focus, ESCAPE};
use plan_tests::page::{click, open_plan, open_publish, select_state, shows, type_text, Outcome};
use plan_tests::{Ctx, Test, SHORT};
use serde_json::json;

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    the_welcome_the_editor_and_every_panel_and_dialog_pass_axe_cores_wcag_rules,
];

/// A plan explore finds a dead end in: Confirm waits for a "yes" nothing else leaves.
fn dead_end() -> serde_json::Value {
    json!({"id": "dead-end", "title": "Dead end",
    "states": [
      {"id": "ask", "title": "Ask", "type": "loose", "instructions": "Ask whether to go on.",
       "tasks": [{"id": "ask_go_on", "description": "Ask whether to go on.",
         "deliverables": [{"key": "go_on", "type": "boolean", "description": "Whether to go on"}]}],
       "transitions": [{"target_state_id": "done", "condition_type": "deliverable_value",
         "condition_config": {"key": "go_on", "value": true}}]},
      {"id": "done", "title": "Done"}]})
}

fn the_welcome_the_editor_and_every_panel_and_dialog_pass_axe_cores_wcag_rules(
    ctx: &Ctx,
) -> Outcome {
    let mut failures: Vec<String> = Vec::new();
    let mut judge = |what: &str| {
        if let Err(e) = axe::check(ctx, what) {
            failures.push(e);
        }
    };

    // The welcome, as the first start shows it.
    let mark = ctx.harness.welcome_mark();
    fs::remove_file(&mark).map_err(|e| format!("{}: {e}", mark.display()))?;
    let welcomed = (|| {
        ctx.relaunch()?;
        ctx.session().wait_for(hooks::WELCOME, SHORT)?;
        Ok::<(), String>(())
    })();
    if welcomed.is_ok() {
        judge("the welcome");
    }
    ctx.harness.dismiss_welcome()?;
    welcomed?;
    ctx.relaunch()?;

    // The editor with a sample open, the inspector on a state, then on an arrow.
    open_plan(ctx, "customer-support")?;
    judge("the editor with a plan open (the plan's inspector)");
    select_state(ctx, "customer-intake")?;
    judge("the inspector on a state");
    press(ctx, &["]"])?;
    ctx.session().wait_for(hooks::TRANSITION_INSPECTOR, SHORT)?;
    judge("the inspector on an arrow");
    press(ctx, &[ESCAPE])?;

    // The canvas's menu (Shift+F10) and the picker of a new arrow's target (C).
    wait_focus(ctx, "the card", &hooks::state("customer-intake"))?;
    press(ctx, &[plan_tests::keys::SHIFT, plan_tests::keys::F10])?;
    ctx.session().wait_for(hooks::CONTEXT_MENU, SHORT)?;
    judge("the card's menu");
    press(ctx, &[ESCAPE])?;
    wait_focus(ctx, "the card again", &hooks::state("customer-intake"))?;
    press(ctx, &["c"])?;
    ctx.session().wait_for(hooks::CONNECT_PICKER, SHORT)?;
    judge("the picker of a new arrow's target");
    press(ctx, &[ESCAPE])?;

    // The shortcuts (?), and the canvas zoomed out, where its labels grow.
    press(ctx, &["?"])?;
    ctx.session().wait_for(hooks::HELP_OVERLAY, SHORT)?;
    judge("the shortcuts overlay");
    press(ctx, &[ESCAPE])?;
    for _ in 0..3 {
        press(ctx, &[plan_tests::keys::CTRL, "-"])?;
    }
    std::thread::sleep(Duration::from_millis(400));
    judge("the canvas zoomed out");
    press(ctx, &[plan_tests::keys::CTRL, "0"])?;

    // Problems, versions.
    click(ctx, hooks::TAB_PROBLEMS)?;
    judge("the problems tab");
    click(ctx, hooks::TAB_VERSIONS)?;
    judge("the versions tab");

    // The test chat with a conversation.
    click(ctx, hooks::TAB_CHAT)?;
    click(ctx, hooks::CHAT_START)?;
    ctx.session().wait_for(hooks::CHAT_INPUT, SHORT)?;
    type_text(ctx, hooks::CHAT_INPUT, "hello\u{E007}")?;
    ctx.session().wait_until("the agent's reply", SHORT, || {
        Ok(plan_tests::page::count(ctx, hooks::CHAT_MESSAGE)? >= 3)
    })?;
    judge("the test chat with a conversation");

    // The publish dialog and the import dialog.
    open_publish(ctx)?;
    judge("the publish dialog");
    click(ctx, hooks::PUBLISH_CANCEL)?;
    click(ctx, hooks::IMPORT)?;
    ctx.session().wait_for(hooks::IMPORT_NEW, SHORT)?;
    judge("the import dialog");
    press(ctx, &[ESCAPE])?;

    // The lanes of session states and evaluations below the flow, and the Simulate tab with its
    // callers.
    open_plan(ctx, "account-care")?;
    judge("a plan with its lanes of session states and evaluations");
    click(ctx, hooks::TAB_SIMULATE)?;
    ctx.session().wait_for(hooks::SIM_PERSONA, SHORT)?;
    judge("the Simulate tab");

    // Explore with a finding.
    let folder = ctx.workspace().join("dead-end");
    fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
    let text = serde_json::to_string_pretty(&dead_end()).map_err(|e| e.to_string())?;
    fs::write(folder.join("draft.json"), text).map_err(|e| e.to_string())?;
    ctx.relaunch()?;
    open_plan(ctx, "dead-end")?;
    click(ctx, hooks::TAB_EXPLORE)?;
    shows(
        ctx,
        "a finding",
        "[data-testid=explore-finding]",
        Duration::from_secs(60),
    )?;
    judge("explore with a finding");
    ctx.screenshot("axe-explore")?;

    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}
