//! Files under the app: a plan changed on disk redrawn where it was, a broken plan file listed with its problem and every tool off, a workspace that cannot be opened explained in a window

use super::*;
use plan_tests::ensure;

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    a_plan_changed_on_disk_is_redrawn_where_it_was,
    a_broken_plan_file_is_listed_with_its_problem,
    a_workspace_that_cannot_be_opened_is_explained_in_a_window,
];

fn a_plan_changed_on_disk_is_redrawn_where_it_was(ctx: &Ctx) -> Outcome {
    let p = open_plan(ctx, "medical-intake")?;
    let (left, top, _, _) = canvas_rect(ctx)?;
    let from = ((left + 16.0) as i64, (top + 16.0) as i64);
    ctx.session().drag(from, (from.0 + 60, from.1 + 30), 4)?;
    let before = view_transform(ctx)?;

    let path = draft(ctx, "medical-intake");
    let original = fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let mut changed = p.clone();
    std::sync::Arc::make_mut(&mut changed.states[0]).title = "Welcome, consent and age".into();
    fs::write(&path, serde_json::to_string_pretty(&changed).unwrap()).map_err(|e| e.to_string())?;

    let redrawn = ctx
        .session()
        .wait_until("the new title on the canvas", SHORT, || {
            Ok(text_of(
                ctx,
                "[data-testid=state][data-state-id='welcome'] .card-title",
            )? == "Welcome, consent and age")
        });
    let after = view_transform(ctx);
    fs::write(&path, original).map_err(|e| e.to_string())?;
    redrawn?;
    ensure!(
        after? == before,
        "reloading the changed plan moved the view"
    )
}

fn a_broken_plan_file_is_listed_with_its_problem(ctx: &Ctx) -> Outcome {
    ctx.session().wait_for(hooks::PLAN, SHORT)?;
    // A plan folder whose draft is not JSON, as a bad merge or a stray editor could leave it.
    let folder = ctx.workspace().join("broken");
    fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
    let path = folder.join("draft.json");
    fs::write(
        &path,
        "{\n  \"id\": \"broken\",\n  \"title\": \"Broken\"\n  \"states\": []\n}\n",
    )
    .map_err(|e| e.to_string())?;
    let result = (|| {
        let item = ctx.session().wait_for(&hooks::plan("broken"), SHORT)?;
        let text = ctx.session().text(&item)?;
        ensure!(
            text.contains("Not valid JSON"),
            "the broken plan is listed as {text:?}"
        )?;
        ctx.session().click(&item)?;
        let error = ctx.session().wait_for(hooks::LOAD_ERROR, SHORT)?;
        let code = ctx.session().attribute(&error, "data-code")?;
        let message = ctx.session().text(&error)?;
        ensure!(
            code.as_deref() == Some("invalid-json"),
            "the error code is {code:?}"
        )?;
        ensure!(
            message.contains("broken/draft.json") && message.contains("line 4"),
            "the error does not name the file and line: {message:?}"
        )?;
        // No empty fields of a plan that is not there to type into, and nothing to publish.
        ensure!(
            count(ctx, hooks::INSPECTOR_NO_PLAN)? == 1 && count(ctx, hooks::FIELD_TITLE)? == 0,
            "the inspector offers fields with no plan open"
        )?;
        // Nothing to publish, arrange, find or add to: each tool is off, not silently idle.
        const TOOLS: [&str; 6] = [
            hooks::PUBLISH,
            hooks::AUTO_LAYOUT,
            hooks::TIDY,
            hooks::FIND,
            hooks::PALETTE_STRICT,
            hooks::PALETTE_ENDING,
        ];
        // Each tool's `disabled`, none where a tool is missing.
        let tools_disabled = || -> Result<Vec<Option<bool>>, String> {
            let found = ctx.session().execute(
                "return arguments[0].map(s => { const b = document.querySelector(s); \
                 return b ? b.disabled : null; });",
                serde_json::json!([TOOLS]),
            )?;
            serde_json::from_value(found).map_err(|e| e.to_string())
        };
        let off = tools_disabled()?;
        ensure!(
            off.iter().all(|d| *d == Some(true)),
            "{TOOLS:?} are disabled: {off:?}, for a plan that cannot be read"
        )?;
        // The bar does not say "No problems · Saved" of a plan nobody could check or save.
        let problems = text_of(ctx, hooks::PROBLEM_COUNT)?;
        let saved = text_of(ctx, hooks::SAVE_STATUS)?;
        ensure!(
            problems == "No plan open" && saved.is_empty(),
            "the status bar says {problems:?} and {saved:?} with no plan open"
        )?;
        let mode = text_of(ctx, hooks::MODE)?;
        ensure!(
            mode == "Nothing to edit",
            "the mode says {mode:?} with no plan open"
        )?;
        let hint = text_of(ctx, hooks::PALETTE_HINT)?;
        ensure!(
            hint.starts_with("No plan is open"),
            "the palette says {hint:?} with no plan open"
        )?;
        ctx.screenshot("broken-plan")?;
        plan_tests::axe::check(ctx, "a plan that cannot be read, its tools off")?;
        // The other plans still open, and with one the tools are back.
        open_plan(ctx, "daily-routine")?;
        let on = tools_disabled()?;
        ensure!(
            on.iter().all(|d| *d == Some(false)),
            "{TOOLS:?} are disabled: {on:?}, with a plan open"
        )?;
        let problems = text_of(ctx, hooks::PROBLEM_COUNT)?;
        ensure!(
            problems != "No plan open",
            "the status bar still says no plan is open"
        )
    })();
    fs::remove_dir_all(&folder).map_err(|e| e.to_string())?;
    result?;
    ctx.session()
        .wait_until("the broken plan to leave the list", SHORT, || {
            Ok(count(ctx, &hooks::plan("broken"))? == 0)
        })
}

/// Started from a menu, the app has no terminal: a startup failure must show in a window.
fn a_workspace_that_cannot_be_opened_is_explained_in_a_window(ctx: &Ctx) -> Outcome {
    use std::process::{Command, Stdio};
    let h = ctx.harness;
    // A file where the workspace's parent folder should be: it can never be created.
    let blocker = h.out().join("not-a-folder");
    fs::write(&blocker, "").map_err(|e| e.to_string())?;
    let mut app = Command::new(h.app())
        .arg("--workspace")
        .arg(blocker.join("workspace"))
        .env("DISPLAY", h.display())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let windows = || -> String {
        Command::new("xwininfo")
            .args(["-display", h.display(), "-root", "-tree"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    };
    let shown = ctx
        .session()
        .wait_until("the startup error dialog", SHORT * 2, || {
            Ok(windows().contains("Plan Builder cannot start"))
        });
    let shot = h.out().join("startup-error.png");
    let _ = Command::new("import")
        .args(["-display", h.display(), "-window", "root"])
        .arg(&shot)
        .status();
    let still_running = matches!(app.try_wait(), Ok(None));
    let _ = app.kill();
    let output = app.wait_with_output().map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    shown?;
    ensure!(still_running, "the app exited instead of showing why")?;
    ensure!(
        stderr.contains("cannot be opened") && stderr.contains("not-a-folder"),
        "stderr does not say which workspace failed: {stderr:?}"
    )
}
