//! Several authors, one plan, in the real app (issue 45): the test's workspace is Ann's clone of a
//! shared bare repository; Bob, in a clone of his own, renames a state and sends it with `plan
//! share`. Ann renames the same state in the window, saves a checkpoint (asked her name once),
//! gets Bob's change: one conflict, shown in a banner, on the card and in the inspector, mine and
//! theirs side by side; publishing is refused meanwhile, in the words `plan publish` says; she
//! takes theirs, and the plan may be published again; she saves a checkpoint (Enter in the
//! message) and sends. The shared repository then holds Bob's title. A draft git merged as text
//! (its conflict markers in it) is refused when opened, in the words `plan export` says. Every
//! screen on the way passes axe-core's WCAG 2.1 AA rules.

use std::path::Path;
use std::process::Command;

use plan_tests::axe;
use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::keys::{press, ENTER};
use plan_tests::page::{
    centre, click, count, gone, open_plan, open_publish, select_state, text_of, type_text,
    value_of, Outcome,
};
use plan_tests::{Ctx, Test, SHORT};
use serde_json::json;

/// A step that runs git (a fetch, a merge, a push) may take longer than a click.
const LONG: std::time::Duration = std::time::Duration::from_secs(20);

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] =
    plan_tests::tests![a_conflict_with_a_teammate_is_got_chosen_on_the_canvas_and_sent,];

fn git(dir: &Path, args: &[&str]) -> Outcome {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(|e| format!("git: {e}"))?;
    ensure!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    )
}

fn git_out(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("git: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `plan ARGS --workspace DIR` (the debug build the cross-crate tests run).
fn plan_run(dir: &Path, args: &[&str]) -> Result<std::process::Output, String> {
    Command::new(plan_tests::binary("plan")?)
        .args(args)
        .arg("--workspace")
        .arg(dir)
        .env_remove("PLAN_BUILDER_WORKSPACE")
        .output()
        .map_err(|e| e.to_string())
}

/// What `plan ARGS` refuses with: its message, without the command's `plan: ` and the newline.
fn plan_refusal(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = plan_run(dir, args)?;
    ensure!(!out.status.success(), "plan {args:?} was not refused")?;
    let said = String::from_utf8_lossy(&out.stderr);
    Ok(said
        .trim_end()
        .strip_prefix("plan: ")
        .unwrap_or(&said)
        .to_string())
}

/// `plan ARGS --workspace DIR`, which must succeed.
fn plan(dir: &Path, args: &[&str]) -> Outcome {
    let out = plan_run(dir, args)?;
    ensure!(
        out.status.success(),
        "plan {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Sets the title field of the selected state to `title` and waits for the save.
fn retitle(ctx: &Ctx, title: &str) -> Outcome {
    type_text(ctx, hooks::FIELD_TITLE, title)?;
    plan_tests::page::wait_saved(ctx)
}

fn said(ctx: &Ctx) -> Result<String, String> {
    text_of(ctx, hooks::SHARE_SAID)
}

fn a_conflict_with_a_teammate_is_got_chosen_on_the_canvas_and_sent(ctx: &Ctx) -> Outcome {
    // The team's repository: Ann's workspace (the test's) sent to a bare one; Bob clones it.
    let ann = ctx.workspace().to_path_buf();
    let team = ann
        .parent()
        .ok_or("the workspace has no parent")?
        .join(format!("team-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&team);
    std::fs::create_dir_all(&team).map_err(|e| e.to_string())?;
    let shared = team.join("shared.git");
    git(
        &team,
        &["init", "--quiet", "--bare", "-b", "main", "shared.git"],
    )?;
    git(&ann, &["init", "--quiet", "-b", "main"])?;
    git(
        &ann,
        &["remote", "add", "origin", shared.to_str().ok_or("path")?],
    )?;
    plan(&ann, &["share", "init"])?;
    git(&ann, &["add", "--all"])?;
    git(
        &ann,
        &[
            "-c",
            "user.name=Team",
            "-c",
            "user.email=team@example.com",
            "commit",
            "--quiet",
            "-m",
            "The samples",
        ],
    )?;
    git(&ann, &["push", "--quiet", "-u", "origin", "main"])?;
    git(&team, &["clone", "--quiet", "shared.git", "bob"])?;
    let bob = team.join("bob");
    git(&bob, &["config", "user.name", "Bob"])?;
    git(&bob, &["config", "user.email", "bob@example.com"])?;

    // Bob renames Billing and sends it.
    let draft = bob.join("customer-support/draft.json");
    let text = std::fs::read_to_string(&draft).map_err(|e| e.to_string())?;
    let mut value: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    for s in value["states"].as_array_mut().ok_or("no states")? {
        if s["id"] == "billing-support" {
            s["title"] = "Bills".into();
        }
    }
    let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
    std::fs::write(&draft, format!("{text}\n")).map_err(|e| e.to_string())?;
    plan(&bob, &["share", "checkpoint", "-m", "Billing is Bills"])?;
    plan(&bob, &["share", "send"])?;

    // Ann, in the window (started again: the workspace is now in a repository).
    ctx.relaunch()?;
    open_plan(ctx, "customer-support")?;
    select_state(ctx, "billing-support")?;
    retitle(ctx, "Payments")?;

    // The Share panel: her name asked once, a checkpoint, then Bob's change got.
    click(ctx, hooks::SHARE)?;
    ctx.session()
        .wait_until("the Share panel's state", LONG, || {
            Ok(text_of(ctx, hooks::SHARE_UNSAVED)?.contains("Customer support"))
        })?;
    type_text(ctx, hooks::SHARE_NAME, "Ann")?;
    type_text(ctx, hooks::SHARE_EMAIL, "ann@example.com")?;
    type_text(ctx, hooks::SHARE_MESSAGE, "Billing is Payments")?;
    ctx.screenshot("share-panel")?;
    axe::check(ctx, "the Share panel asking the author's name")?;
    let get_before = centre(ctx, hooks::SHARE_GET)?;
    // Enter in the message saves the checkpoint.
    press(ctx, &[ENTER])?;
    ctx.session()
        .wait_until("the checkpoint", LONG, || Ok(said(ctx)?.contains("saved")))?;
    // The panel keeps its layout: who signs stays shown, filled from git's settings once the
    // panel's state comes back, and Get stays where it was.
    ctx.session()
        .wait_until("the panel's state after the checkpoint", LONG, || {
            Ok(!text_of(ctx, hooks::SHARE_UNSAVED)?.contains("Customer support"))
        })?;
    let name = value_of(ctx, hooks::SHARE_NAME)?;
    let get_after = centre(ctx, hooks::SHARE_GET)?;
    ctx.screenshot("share-after-checkpoint")?;
    ensure!(
        name == "Ann" && get_after == get_before,
        "after the checkpoint: name {name:?}, Get at {get_after:?} (before {get_before:?})"
    )?;
    click(ctx, hooks::SHARE_GET)?;
    ctx.session().wait_until("Bob's change", LONG, || {
        Ok(said(ctx)?.contains("1 conflict to choose"))
    })?;
    ctx.screenshot("share-got-a-conflict")?;
    click(ctx, hooks::SHARE_CLOSE)?;

    // The conflict: a banner, the card marked, mine and theirs in the inspector.
    ctx.session()
        .wait_for(hooks::CONFLICT_BANNER, LONG)
        .map_err(|e| format!("no banner: {e}"))?;
    ctx.session()
        .wait_for(
            &format!("{}[data-conflict=true]", hooks::state("billing-support")),
            SHORT,
        )
        .map_err(|e| format!("the card is not marked: {e}"))?;
    click(ctx, hooks::CONFLICT_FIRST)?;
    ctx.session()
        .wait_for(hooks::CONFLICT_CHOICES, SHORT)
        .map_err(|e| e.to_string())?;
    let mine = text_of(ctx, hooks::CONFLICT_MINE)?;
    let theirs = text_of(ctx, hooks::CONFLICT_THEIRS)?;
    ensure!(
        mine == "Payments" && theirs == "Bills",
        "mine {mine:?}, theirs {theirs:?}"
    )?;
    ctx.screenshot("share-conflict-in-the-inspector")?;
    axe::check(
        ctx,
        "a conflict in the banner, on the card and in the inspector",
    )?;

    // Not published while the conflict is left: the dialog says so in the command line's words.
    let refusal = plan_refusal(&ann, &["publish", "customer-support", "-m", "too soon"])?;
    open_publish(ctx)?;
    let told = text_of(ctx, hooks::PUBLISH_CONFLICTS)?;
    ensure!(
        told == refusal,
        "the dialog says {told:?}, plan publish {refusal:?}"
    )?;
    ensure!(
        !enabled(ctx, hooks::PUBLISH_CONFIRM)?,
        "Publish is offered while a conflict is left"
    )?;
    ctx.screenshot("share-publish-refused-for-a-conflict")?;
    axe::check(ctx, "the publish dialog refusing for a conflict")?;
    click(ctx, hooks::PUBLISH_CANCEL)?;
    click(ctx, hooks::TAKE_THEIRS)?;
    gone(ctx, "theirs taken", hooks::CONFLICT_BANNER, SHORT)?;
    ctx.session().wait_until("the title", SHORT, || {
        Ok(text_of(
            ctx,
            &format!("{} .card-title", hooks::state("billing-support")),
        )? == "Bills")
    })?;
    plan_tests::page::wait_saved(ctx)?;
    ensure!(
        !ann.join("customer-support/draft.conflicts.json").exists(),
        "the conflicts file stayed"
    )?;
    // Chosen: the publish dialog shows what would change, and Publish is offered.
    open_publish(ctx)?;
    ensure!(
        count(ctx, hooks::PUBLISH_CONFLICTS)? == 0,
        "the dialog still refuses for a conflict"
    )?;
    ctx.session().wait_until("Publish offered", LONG, || {
        enabled(ctx, hooks::PUBLISH_CONFIRM)
    })?;
    click(ctx, hooks::PUBLISH_CANCEL)?;

    // A checkpoint, then sent: the shared repository holds Bob's title.
    click(ctx, hooks::SHARE)?;
    type_text(ctx, hooks::SHARE_MESSAGE, "Took Bob's title")?;
    click(ctx, hooks::SHARE_CHECKPOINT)?;
    ctx.session()
        .wait_until("the second checkpoint", LONG, || {
            Ok(said(ctx)?.contains("saved"))
        })?;
    click(ctx, hooks::SHARE_SEND)?;
    ctx.session().wait_until("sent", LONG, || {
        Ok(said(ctx)?.contains("Sent to origin/main"))
    })?;
    ctx.screenshot("share-sent")?;
    let sent = git_out(&shared, &["show", "main:customer-support/draft.json"])?;
    ensure!(
        sent.contains("\"title\": \"Bills\""),
        "the shared repository does not hold Bob's title"
    )?;
    click(ctx, hooks::SHARE_CLOSE)?;
    a_draft_git_merged_as_text_is_refused_in_the_words_of_the_command_line(ctx, &ann)
}

/// A draft with git's conflict markers (merged without the driver) is listed and refused when
/// opened, with the words `plan export` says: what happened and how to set the driver up.
fn a_draft_git_merged_as_text_is_refused_in_the_words_of_the_command_line(
    ctx: &Ctx,
    ann: &Path,
) -> Outcome {
    let text =
        std::fs::read_to_string(ann.join("daily-routine/draft.json")).map_err(|e| e.to_string())?;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let title = lines
        .iter()
        .position(|l| l.trim_start().starts_with("\"title\""))
        .ok_or("the sample has no title line")?;
    lines.insert(title, "<<<<<<< HEAD".into());
    lines.insert(title + 2, "=======".into());
    lines.insert(title + 3, "  \"title\": \"Their routine\",".into());
    lines.insert(title + 4, ">>>>>>> theirs".into());
    let folder = ann.join("merged-as-text");
    std::fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
    std::fs::write(
        folder.join("draft.json"),
        lines
            .join("\n")
            .replace("\"daily-routine\"", "\"merged-as-text\""),
    )
    .map_err(|e| e.to_string())?;
    let result = (|| {
        let said = plan_refusal(ann, &["export", "merged-as-text"])?;
        let item = ctx
            .session()
            .wait_for(&hooks::plan("merged-as-text"), LONG)?;
        // Listed as what happened to it, not as a file someone broke by hand.
        let listed = ctx.session().text(&item)?;
        ensure!(
            listed.contains("Merged as text by git"),
            "the plan list says {listed:?}"
        )?;
        ctx.session().click(&item)?;
        ctx.session().wait_for(hooks::LOAD_ERROR, SHORT)?;
        // Its words, below the heading "This plan cannot be opened".
        let message = text_of(ctx, &format!("{} h3 + p", hooks::LOAD_ERROR))?;
        ensure!(
            message == said,
            "the app says {message:?}, plan export {said:?}"
        )?;
        ensure!(
            message.contains("plan share init") && !message.contains("<<<<<<< HEAD\n"),
            "the refusal does not say how to set the driver up: {message:?}"
        )?;
        ctx.screenshot("share-draft-merged-as-text")?;
        axe::check(ctx, "a draft merged as text refused")
    })();
    std::fs::remove_dir_all(&folder).map_err(|e| e.to_string())?;
    result
}

/// Whether the control `css` may be used.
fn enabled(ctx: &Ctx, css: &str) -> Result<bool, String> {
    let disabled = ctx.session().execute(
        "const el = document.querySelector(arguments[0]); return !el || el.disabled;",
        json!([css]),
    )?;
    Ok(disabled == serde_json::json!(false))
}
