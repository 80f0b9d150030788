//! The Debian package as an author meets it (issue 30), run by `scripts/test.sh` after it has
//! installed the package: `PLAN_BUILDER_APP=/usr/bin/plan-builder cargo test -p plan-tests --test
//! installed`. The installed app starts with no arguments, as its desktop entry starts it, makes
//! its workspace in the user's data folder with the samples in it, greets, opens a sample and
//! publishes a version there; the desktop entry and the plan file type are registered; `plan` is
//! on the PATH and says the same version; nothing is written beside the binaries.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use plan_tests::chat::LONG;
use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::page::{click, count, text_of, type_text, Outcome};
use plan_tests::{Ctx, Harness, SHORT};

fn main() -> std::process::ExitCode {
    Harness::run(plan_tests::tests![
        the_installed_app_starts_in_the_data_folder_greets_opens_a_sample_and_publishes,
        the_package_registers_the_app_the_plan_command_and_the_plan_file_type,
    ])
}

/// What `program --version` prints, trimmed.
fn version_of(program: &str) -> Result<String, String> {
    let out = Command::new(program)
        .arg("--version")
        .output()
        .map_err(|e| format!("{program} --version: {e}"))?;
    ensure!(out.status.success(), "{program} --version failed")?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Every file under `dirs` changed since `since`.
fn changed_since(dirs: &[&Path], since: SystemTime) -> Vec<PathBuf> {
    let mut changed = Vec::new();
    let mut todo: Vec<PathBuf> = dirs.iter().map(|d| d.to_path_buf()).collect();
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                todo.push(entry.path());
            } else if meta.modified().is_ok_and(|m| m > since) {
                changed.push(entry.path());
            }
        }
    }
    changed
}

fn the_installed_app_starts_in_the_data_folder_greets_opens_a_sample_and_publishes(
    ctx: &Ctx,
) -> Outcome {
    let started = SystemTime::now();
    let data = ctx.harness.data_dir();
    let _ = std::fs::remove_dir_all(&data);
    let mark = ctx.harness.welcome_mark();
    let _ = std::fs::remove_file(&mark);
    let outcome = (|| {
        // As the desktop entry starts it: no arguments.
        let asked = std::time::Instant::now();
        let canvas = ctx.relaunch_with(&[])?;
        ctx.session().wait_for(hooks::STATE, SHORT)?;
        println!(
            "the installed app, first start: canvas {} ms, first card {} ms after it was asked for (the driver's new session included)",
            canvas.as_millis(),
            asked.elapsed().as_millis()
        );
        let workspace = data.join("plan-builder").join("plans");
        let seeded = std::fs::read_dir(&workspace)
            .map_err(|e| {
                format!(
                    "no workspace in the data folder: {}: {e}",
                    workspace.display()
                )
            })?
            .filter_map(Result::ok)
            .filter(|e| e.path().join("draft.json").is_file())
            .count();
        ensure!(seeded == 6, "{seeded} sample plans seeded, not 6")?;
        ensure!(
            count(ctx, hooks::PLAN)? == 6,
            "the list does not show the six samples"
        )?;
        ctx.session().wait_for(hooks::WELCOME, SHORT)?;
        ctx.screenshot("installed-welcome")?;
        click(
            ctx,
            "[data-testid=welcome-sample][data-id=customer-support]",
        )?;
        ctx.session().wait_until("the sample to open", SHORT, || {
            Ok(text_of(ctx, hooks::PLAN_TITLE)? == "Customer support")
        })?;
        click(ctx, hooks::PUBLISH)?;
        ctx.session().wait_for(hooks::PUBLISH_DIFF, LONG)?;
        type_text(ctx, hooks::PUBLISH_NOTE, "from the installed app")?;
        // For a plan with rules, Publish waits for them to be checked (every conversation).
        ctx.session()
            .wait_until("Publish enabled once the rules are checked", LONG, || {
                let disabled = ctx.session().execute(
                    "return document.querySelector('[data-testid=publish-confirm]').disabled;",
                    serde_json::json!([]),
                )?;
                Ok(disabled == serde_json::json!(false))
            })?;
        click(ctx, hooks::PUBLISH_CONFIRM)?;
        let version = workspace
            .join("customer-support")
            .join("versions")
            .join("1.json");
        ctx.session()
            .wait_until("version 1 on disk", LONG, || Ok(version.is_file()))?;
        ctx.screenshot("installed-published")?;
        ensure!(mark.is_file(), "the welcome's dismissal was not kept")?;
        // Nothing beside the binaries: the app writes to its workspace and config folder only.
        let app_dir = ctx
            .harness
            .app()
            .parent()
            .ok_or("the app has no folder")?
            .to_path_buf();
        let beside = changed_since(&[&app_dir, Path::new("/usr/lib/plan-builder")], started)
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains("plan"))
            })
            .collect::<Vec<_>>();
        ensure!(beside.is_empty(), "written beside the binary: {beside:?}")
    })();
    ctx.harness.dismiss_welcome()?;
    outcome
}

fn the_package_registers_the_app_the_plan_command_and_the_plan_file_type(ctx: &Ctx) -> Outcome {
    let app = version_of("plan-builder")?;
    let cli = version_of("plan")?;
    ensure!(
        app.ends_with("0.1.0") && cli.ends_with("0.1.0"),
        "plan-builder says {app:?} and plan says {cli:?}"
    )?;
    ensure!(
        app.rsplit(' ').next() == cli.rsplit(' ').next(),
        "plan-builder says {app:?} but plan says {cli:?}"
    )?;
    // The desktop entry starts the installed binary with the files it is given.
    let entry = Path::new("/usr/share/applications/plan-builder.desktop");
    let text = std::fs::read_to_string(entry).map_err(|e| format!("{}: {e}", entry.display()))?;
    ensure!(
        text.lines().any(|l| l == "Exec=plan-builder %F"),
        "the desktop entry's Exec is not `plan-builder %F`:\n{text}"
    )?;
    ensure!(
        text.contains("MimeType=application/x-plan-builder-plan;"),
        "the desktop entry does not take plan files:\n{text}"
    )?;
    for size in [16, 32, 48, 128, 256, 512] {
        let icon = format!("/usr/share/icons/hicolor/{size}x{size}/apps/plan-builder.png");
        ensure!(Path::new(&icon).is_file(), "no icon {icon}")?;
    }
    // The file type is known to the system and handled by the app (the package's triggers ran
    // update-mime-database and update-desktop-database).
    let globs = std::fs::read_to_string("/usr/share/mime/globs2").unwrap_or_default();
    ensure!(
        globs
            .lines()
            .any(|l| l.ends_with(":application/x-plan-builder-plan:*.plan.json")),
        "*.plan.json is not in the shared MIME database"
    )?;
    let cache =
        std::fs::read_to_string("/usr/share/applications/mimeinfo.cache").unwrap_or_default();
    ensure!(
        cache.lines().any(|l| {
            l.starts_with("application/x-plan-builder-plan=") && l.contains("plan-builder.desktop")
        }),
        "the desktop database does not name the app for plan files"
    )?;
    // And a plan file opened with it, as the file manager does (`plan-builder FILE`), shows.
    let file = ctx.harness.out().join("installed-pizza.plan.json");
    let draft = ctx.workspace().join("medical-intake").join("draft.json");
    std::fs::copy(&draft, &file).map_err(|e| e.to_string())?;
    let workspace = ctx.workspace().to_str().ok_or("not UTF-8")?.to_string();
    ctx.relaunch_with(&["--workspace", &workspace, file.to_str().ok_or("not UTF-8")?])?;
    ctx.session()
        .wait_until("the file's plan to show", SHORT, || {
            Ok(text_of(ctx, hooks::PLAN_TITLE)? == "Medical intake")
        })?;
    Ok(())
}
