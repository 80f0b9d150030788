//! End-to-end tests of a plan's lifecycle in the window (issue 15): publishing with the diff or
//! the errors that block it, the versions (view read-only, set live, compare, reopen), import and
//! export through the real GTK file dialogs, and the plan switcher (new, duplicate, rename,
//! search, delete and its Undo, the trash).
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::native::choose_file;
use plan_tests::page::{
    attribute, click, confirm_publish, count, draft, ensure_count, gone, notice_with, open_plan,
    open_publish, plan, plan_cli, publish, set_value, shows, text_of, type_text, Outcome, DELETE,
};
use plan_tests::{Ctx, Test, SHORT};
use serde_json::json;

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    publish_set_live_edit_publish_again_compare_view_and_reopen,
    a_draft_with_an_error_is_not_published_and_the_error_leads_to_its_state,
    plans_are_made_copied_renamed_found_deleted_and_brought_back,
    a_plan_whose_files_need_attention_says_so_in_the_list_and_still_opens,
];

/// Plans through files: a module of its own.
pub mod files;

/// How long an operation that reads and writes files gets to show its result.
const LONG: Duration = Duration::from_secs(10);
/// Clicks the Versions tab and waits for version `n` in it.
fn versions_tab_shows(ctx: &Ctx, n: u32) -> Outcome {
    click(ctx, hooks::TAB_VERSIONS)?;
    shows(
        ctx,
        &format!("version {n} listed"),
        &hooks::version(n),
        LONG,
    )
}

fn mode(ctx: &Ctx) -> Result<String, String> {
    text_of(ctx, hooks::MODE)
}

/// The whole lifecycle of the support plan in the window, as issue 15 names it.
fn publish_set_live_edit_publish_again_compare_view_and_reopen(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    ensure!(
        text_of(ctx, hooks::VERSION_BADGE)? == "Not published yet",
        "the badge of a plan never published"
    )?;

    // Version 1: the dialog says it is the first and lists every state as new.
    open_publish(ctx)?;
    let heading = text_of(ctx, ".dialog h3")?;
    ensure!(
        heading.contains("first version"),
        "the first publish is headed {heading:?}"
    )?;
    let listed = count(ctx, "[data-testid=publish-diff] [data-change=added]")?;
    ensure!(listed >= 6, "{listed} new things listed for 6 states")?;
    ctx.screenshot("publish-first-version")?;
    type_text(ctx, hooks::PUBLISH_NOTE, "first cut")?;
    confirm_publish(ctx)?;
    notice_with(ctx, "Published version 1")?;
    versions_tab_shows(ctx, 1)?;
    ensure!(
        text_of(ctx, &hooks::version(1))?.contains("first cut"),
        "version 1 without its note"
    )?;

    // Live.
    click(
        ctx,
        &format!("{} [data-testid=version-set-live]", hooks::version(1)),
    )?;
    shows(
        ctx,
        "version 1 live",
        &format!("{}[data-live=true]", hooks::version(1)),
        LONG,
    )?;
    ctx.session()
        .wait_until("the badge saying live", LONG, || {
            Ok(text_of(ctx, hooks::VERSION_BADGE)? == "v1 · live")
        })?;

    // An edit to the draft: Publish lists it.
    click(ctx, hooks::TAB_INSPECT)?;
    click(
        ctx,
        &format!("{} .card-title", hooks::state("billing-support")),
    )?;
    type_text(ctx, hooks::FIELD_TITLE, "Billing and refunds")?;
    plan_tests::page::wait_saved(ctx)?;
    ctx.session()
        .wait_until("the badge saying changed", LONG, || {
            Ok(text_of(ctx, hooks::VERSION_BADGE)?.contains("changed since v1"))
        })?;
    let v2 = publish(
        ctx,
        "billing renamed",
        "Changed state “Billing and refunds”: title",
    )?;
    ensure!(v2 == 2, "the second publish made version {v2}")?;
    versions_tab_shows(ctx, 2)?;

    // Compare 1 with 2: the renamed state is coloured, and its change listed and clickable.
    set_value(ctx, hooks::COMPARE_WITH, "2")?;
    click(
        ctx,
        &format!("{} [data-testid=version-compare]", hooks::version(1)),
    )?;
    shows(
        ctx,
        "the renamed state coloured",
        &format!("{}[data-diff=changed]", hooks::state("billing-support")),
        LONG,
    )?;
    // Told in a word as well as a colour, and drawn at 3:1 against the canvas.
    let word = text_of(
        ctx,
        &format!(
            "{} [data-testid=diff-marker]",
            hooks::state("billing-support")
        ),
    )?;
    ensure!(word == "Changed", "the changed card says {word:?}")?;
    plan_tests::contrast::check(ctx, "comparing two versions", 5)?;
    ensure!(
        mode(ctx)? == "Comparing version 1 with version 2, read-only",
        "the mode reads {:?}",
        mode(ctx)
    )?;
    ensure_count(
        ctx,
        "[data-testid=state][data-diff=added]",
        0,
        "nothing was added, something is coloured added",
    )?;
    click(
        ctx,
        "[data-testid=diff-change][data-state-id='billing-support']",
    )?;
    shows(
        ctx,
        "the changed state selected from the list",
        &format!("{}[data-selected=true]", hooks::state("billing-support")),
        LONG,
    )?;
    // The five tabs of a comparison keep to one row, each whole (the Changes tab was cut off).
    let rows = ctx.session().execute(
        "const tabs = [...document.querySelectorAll('.tabs button')];
         const strip = document.querySelector('.tabs').getBoundingClientRect();
         return {tops: [...new Set(tabs.map(t => Math.round(t.getBoundingClientRect().top)))].length,
                 whole: tabs.every(t => t.scrollWidth <= t.clientWidth + 1
                     && t.getBoundingClientRect().right <= strip.right + 0.5),
                 count: tabs.length};",
        json!([]),
    )?;
    ensure!(
        rows["tops"] == json!(1) && rows["whole"] == json!(true) && rows["count"] == json!(5),
        "the comparison's tabs: {rows}"
    )?;
    ctx.screenshot("compare-v1-v2")?;
    click(ctx, hooks::BACK_TO_DRAFT)?;
    ctx.session().wait_until("the draft back", LONG, || {
        Ok(mode(ctx)? == "Editing draft" && count(ctx, hooks::READONLY_BANNER)? == 0)
    })?;

    // View version 1: read-only, with the old title, and an edit is refused.
    click(ctx, hooks::TAB_VERSIONS)?;
    click(
        ctx,
        &format!("{} [data-testid=version-view]", hooks::version(1)),
    )?;
    shows(ctx, "the read-only banner", hooks::READONLY_BANNER, LONG)?;
    ensure!(
        mode(ctx)? == "Viewing version 1, read-only",
        "the mode reads {:?}",
        mode(ctx)
    )?;
    ctx.session()
        .wait_until("version 1's title on the card", LONG, || {
            Ok(text_of(
                ctx,
                &format!("{} .card-title", hooks::state("billing-support")),
            )? == "Billing support")
        })?;
    let on_disk = fs::read(draft(ctx, "customer-support")).map_err(|e| e.to_string())?;
    click(ctx, &format!("{} .card-title", hooks::state("farewell")))?;
    ctx.session().chord(&[DELETE])?;
    let refused = notice_with(ctx, "read-only")?;
    ensure!(
        count(ctx, &hooks::state("farewell"))? == 1,
        "a state of version 1 was deleted ({refused})"
    )?;
    ctx.screenshot("viewing-version-1")?;
    std::thread::sleep(Duration::from_millis(800));
    ensure!(
        fs::read(draft(ctx, "customer-support")).map_err(|e| e.to_string())? == on_disk,
        "viewing a version changed the draft"
    )?;
    click(ctx, hooks::BACK_TO_DRAFT)?;
    ctx.session()
        .wait_until("the draft's title back", LONG, || {
            Ok(text_of(
                ctx,
                &format!("{} .card-title", hooks::state("billing-support")),
            )? == "Billing and refunds")
        })?;

    // Reopen 1 as the draft: asked first; the replaced draft is kept in history/.
    click(ctx, hooks::TAB_VERSIONS)?;
    click(
        ctx,
        &format!("{} [data-testid=version-reopen]", hooks::version(1)),
    )?;
    shows(ctx, "the confirmation", hooks::CONFIRM, LONG)?;
    click(ctx, hooks::CONFIRM)?;
    let said = notice_with(ctx, "is now the draft")?;
    ensure!(
        said.contains("history/"),
        "the reopen does not say where the old draft went: {said:?}"
    )?;
    ctx.session()
        .wait_until("version 1's title in the draft", LONG, || {
            Ok(plan(ctx, "customer-support")?
                .state("billing-support")
                .is_some_and(|s| s.title == "Billing support"))
        })?;
    let history: Vec<String> = fs::read_dir(ctx.workspace().join("customer-support/history"))
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    ensure!(
        history.iter().any(|n| n.ends_with("-reopen-v1.json")),
        "history/ holds {history:?}"
    )?;
    let kept = history
        .iter()
        .find(|n| n.ends_with("-reopen-v1.json"))
        .unwrap();
    let kept = fs::read_to_string(ctx.workspace().join("customer-support/history").join(kept))
        .map_err(|e| e.to_string())?;
    ensure!(
        kept.contains("Billing and refunds"),
        "the kept draft is not the one replaced"
    )?;
    // The CLI sees what the app did.
    let versions = plan_cli(ctx, &["versions", "customer-support"])?;
    ensure!(
        versions.lines().count() == 2 && versions.contains("live"),
        "plan versions says {versions}"
    )
}

/// A draft whose transition goes nowhere: Publish lists the error instead of the changes, its
/// button stays disabled, the error leads to its state, and no version is written.
fn a_draft_with_an_error_is_not_published_and_the_error_leads_to_its_state(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    let mut broken = plan(ctx, "customer-support")?;
    broken
        .states_mut()
        .find(|s| s.id == "technical-support")
        .ok_or("no technical-support state")?
        .transitions[0]
        .target_state_id = "nowhere".into();
    fs::write(
        draft(ctx, "customer-support"),
        serde_json::to_string_pretty(&broken).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    ctx.session().wait_until("the error shown", LONG, || {
        Ok(
            count(ctx, "[data-testid=problem-badge][data-severity=error]")? > 0
                || text_of(ctx, hooks::PROBLEM_COUNT)?.starts_with("1 error"),
        )
    })?;
    open_publish(ctx)?;
    let error =
        "[data-testid=publish-errors] [data-testid=problem][data-code=unknown-target-state]";
    shows(ctx, "the blocking error listed", error, LONG)?;
    let disabled = ctx.session().execute(
        "return document.querySelector('[data-testid=publish-confirm]').disabled;",
        json!([]),
    )?;
    ensure!(disabled == json!(true), "Publish is enabled")?;
    ensure!(
        count(ctx, hooks::PUBLISH_DIFF)? == 0,
        "the changes are listed beside the error"
    )?;
    ctx.screenshot("publish-blocked")?;
    click(ctx, error)?;
    gone(ctx, "the dialog gone", hooks::DIALOG, SHORT)?;
    ctx.session()
        .wait_until("the transition selected", SHORT, || {
            Ok(count(
                ctx,
                "[data-testid=transition][data-from='technical-support'][data-selected=true]",
            )? == 1)
        })?;
    let versions = ctx.workspace().join("customer-support/versions");
    let written = fs::read_dir(&versions).map_or(0, |d| d.count());
    ensure!(written == 0, "{written} version files written")
}

/// The switcher: a new plan from a sample, a copy, a new title, search, a delete undone from its
/// notice, and a delete brought back from the trash.
fn plans_are_made_copied_renamed_found_deleted_and_brought_back(ctx: &Ctx) -> Outcome {
    // New, from a sample.
    click(ctx, hooks::PLAN_NEW)?;
    shows(ctx, "the new-plan dialog", hooks::NEW_PLAN_TITLE, LONG)?;
    type_text(ctx, hooks::NEW_PLAN_TITLE, "Refund desk")?;
    ctx.session().wait_until("the samples offered", LONG, || {
        Ok(count(
            ctx,
            "[data-testid=new-plan-from] option[value='customer-support']",
        )? == 1)
    })?;
    set_value(ctx, hooks::NEW_PLAN_FROM, "customer-support")?;
    ctx.screenshot("new-plan-dialog")?;
    click(ctx, hooks::CONFIRM)?;
    shows(
        ctx,
        "the new plan listed",
        &hooks::plan("refund-desk"),
        LONG,
    )?;
    ctx.session().wait_until("the new plan open", LONG, || {
        Ok(text_of(ctx, hooks::PLAN_TITLE)? == "Refund desk")
    })?;
    let made = plan(ctx, "refund-desk")?;
    ensure!(
        made.states.len() == 6 && made.title == "Refund desk",
        "the new plan has {} states, title {:?}",
        made.states.len(),
        made.title
    )?;
    // The list starts with what changed last.
    let first = attribute(ctx, hooks::PLAN, "data-plan-id")?;
    ensure!(
        first.as_deref() == Some("refund-desk"),
        "the list starts with {first:?}"
    )?;

    // Duplicate: a new id, the draft only.
    click(
        ctx,
        "[data-testid=plan-duplicate][data-plan-id='medical-intake']",
    )?;
    shows(
        ctx,
        "the copy listed",
        &hooks::plan("medical-intake-copy"),
        LONG,
    )?;
    let copy = plan(ctx, "medical-intake-copy")?;
    ensure!(
        copy.title == "Medical intake (copy)",
        "the copy is titled {:?}",
        copy.title
    )?;

    // Rename another plan's title in the list.
    click(
        ctx,
        "[data-testid=plan-rename][data-plan-id='daily-routine']",
    )?;
    shows(ctx, "the title field", hooks::PLAN_RENAME_INPUT, LONG)?;
    let input = ctx.session().wait_for(hooks::PLAN_RENAME_INPUT, SHORT)?;
    ctx.session().chord(&[plan_tests::page::CTRL, "a"])?;
    ctx.session()
        .send_keys(&input, "Morning check-in\u{E007}")?;
    ctx.session()
        .wait_until("the new title on disk", LONG, || {
            Ok(plan(ctx, "daily-routine")?.title == "Morning check-in")
        })?;
    shows(
        ctx,
        "the new title listed",
        &format!("{} .plan-name", hooks::plan("daily-routine")),
        LONG,
    )?;
    ctx.session().wait_until("the new title listed", LONG, || {
        Ok(
            text_of(ctx, &format!("{} .plan-name", hooks::plan("daily-routine")))?
                == "Morning check-in",
        )
    })?;

    // Search by title or id.
    type_text(ctx, hooks::PLAN_SEARCH, "medical")?;
    ctx.session()
        .wait_until("only the medical plans", SHORT, || {
            Ok(count(ctx, hooks::PLAN)? == 2)
        })?;
    type_text(ctx, hooks::PLAN_SEARCH, "check-in")?;
    ctx.session()
        .wait_until("the renamed plan found by its title", SHORT, || {
            Ok(count(ctx, hooks::PLAN)? == 1 && count(ctx, &hooks::plan("daily-routine"))? == 1)
        })?;
    set_value(ctx, hooks::PLAN_SEARCH, "")?;

    // Delete (its button shows under the pointer), then Undo in the notice.
    plan_tests::page::hover(ctx, &hooks::plan("medical-intake-copy"))?;
    click(
        ctx,
        "[data-testid=plan-delete][data-plan-id='medical-intake-copy']",
    )?;
    gone(
        ctx,
        "the copy gone",
        &hooks::plan("medical-intake-copy"),
        LONG,
    )?;
    ensure!(
        !ctx.workspace().join("medical-intake-copy").exists(),
        "the deleted plan's folder is still there"
    )?;
    notice_with(ctx, "Moved “Medical intake (copy)” to the trash")?;
    ctx.screenshot("deleted-with-undo")?;
    click(ctx, hooks::NOTICE_UNDO)?;
    shows(
        ctx,
        "the copy back",
        &hooks::plan("medical-intake-copy"),
        LONG,
    )?;
    ensure!(
        plan(ctx, "medical-intake-copy")?.title == "Medical intake (copy)",
        "the plan came back changed"
    )?;

    // Delete the open plan, and bring it back from the trash later.
    open_plan(ctx, "refund-desk")?;
    click(ctx, "[data-testid=plan-delete][data-plan-id='refund-desk']")?;
    ctx.session().wait_until("another plan open", LONG, || {
        Ok(count(ctx, &hooks::plan("refund-desk"))? == 0
            && text_of(ctx, hooks::PLAN_TITLE)? != "Refund desk")
    })?;
    click(ctx, hooks::TRASH_TOGGLE)?;
    shows(
        ctx,
        "the deleted plan in the trash",
        "[data-testid=trash-entry][data-plan-id='refund-desk']",
        LONG,
    )?;
    ctx.screenshot("trash")?;
    click(
        ctx,
        "[data-testid=trash-entry][data-plan-id='refund-desk'] [data-testid=trash-restore]",
    )?;
    shows(
        ctx,
        "the plan back from the trash",
        &hooks::plan("refund-desk"),
        LONG,
    )?;
    ensure!(
        plan(ctx, "refund-desk")?.title == "Refund desk",
        "the restored plan is not the one deleted"
    )
}

/// A plan whose files need attention (a `live.json` naming a version that does not exist, a
/// folder named like a version) says so in the plan list, each file named in the row's tooltip,
/// and still opens; the versions it has are listed without a live marker.
fn a_plan_whose_files_need_attention_says_so_in_the_list_and_still_opens(ctx: &Ctx) -> Outcome {
    let dir = ctx.workspace().join("medical-intake");
    let io = |e: std::io::Error| e.to_string();
    fs::create_dir_all(dir.join("versions/9.json")).map_err(io)?;
    fs::write(
        dir.join("live.json"),
        r#"{"version": 99, "set_at": "2026-01-01T00:00:00Z"}"#,
    )
    .map_err(io)?;
    ctx.relaunch()?;
    let row = &hooks::plan("medical-intake");
    let mut said = String::new();
    ctx.session()
        .wait_until("the row saying its files need attention", LONG, || {
            said = text_of(ctx, row).unwrap_or_default();
            Ok(said.contains("⚠ files need attention"))
        })
        .map_err(|e| format!("{e} (the row says {said:?})"))?;
    let tooltip = ctx.session().execute(
        "return document.querySelector(arguments[0]).title;",
        json!([row]),
    )?;
    let tooltip = tooltip.as_str().unwrap_or_default();
    let live = dir.join("live.json");
    let stray = dir.join("versions/9.json");
    ensure!(
        tooltip.contains(&format!(
            "{}: it names version 99, which does not exist",
            live.display()
        )) && tooltip.contains(&format!("{}: ignored (not a file)", stray.display())),
        "the tooltip says {tooltip:?}"
    )?;
    // Another plan's row says nothing of the kind.
    let other = text_of(ctx, &hooks::plan("customer-support"))?;
    ensure!(!other.contains("attention"), "another row says {other:?}")?;
    ctx.screenshot("plan-files-need-attention")?;
    click(ctx, row)?;
    ctx.session().wait_until("the plan open", LONG, || {
        Ok(text_of(ctx, hooks::PLAN_TITLE)? == "Medical intake")
    })
}
