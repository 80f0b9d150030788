//! Plans through files: the seed's flow export imported and exported through the file dialogs, a bad file refused by name and place with nothing changed

use super::*;
use plan_tests::ensure;

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    the_seed_flow_export_is_imported_and_exported_through_the_file_dialogs,
    a_bad_file_is_refused_by_name_and_place_and_changes_nothing,
];

/// The titles of the shell's file dialogs (`src-tauri/src/dialogs.rs`).
const IMPORT_DIALOG: &str = "Import a plan";
const EXPORT_DIALOG: &str = "Export the plan";

/// Every file under `dir` with its bytes (to check that nothing changed).
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(bytes) = fs::read(&p) {
                out.insert(p, bytes);
            }
        }
    }
    out
}

/// A folder of the test's own for files it imports and exports.
fn scratch(ctx: &Ctx) -> Result<PathBuf, String> {
    let dir = ctx
        .harness
        .out()
        .join(format!("files-{}-{}", std::process::id(), ctx.name()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    Ok(dir)
}

/// The exact flow export printed in the seed document (the seed's flow export), kept byte for
/// byte in the core's test fixtures.
fn seed_export(ctx: &Ctx) -> PathBuf {
    ctx.harness
        .root()
        .join("core/tests/fixtures/flow-export.json")
}

/// The seed's flow export imported as a new plan through the real GTK file chooser (the path
/// typed into it), its four states on the canvas, then exported through the save dialog: the
/// file is what `plan export` prints.
fn the_seed_flow_export_is_imported_and_exported_through_the_file_dialogs(ctx: &Ctx) -> Outcome {
    let files = scratch(ctx)?;
    let export = files.join("flow-export.json");
    fs::copy(seed_export(ctx), &export).map_err(|e| e.to_string())?;
    click(ctx, hooks::IMPORT)?;
    click(ctx, hooks::IMPORT_NEW)?;
    choose_file(ctx, IMPORT_DIALOG, &export.display().to_string(), false)?;
    let said = notice_with(ctx, "Imported 4 states")?;
    ensure!(
        said.contains("flow-export.json"),
        "the notice does not name the file: {said:?}"
    )?;
    // The export carries no positions: the plan opens laid out and whole, before any Fit.
    ctx.session()
        .wait_until("the imported plan open", LONG, || {
            Ok(count(ctx, hooks::STATE)? == 4 && text_of(ctx, hooks::PLAN_TITLE)? == "flow-export")
        })?;
    std::thread::sleep(Duration::from_millis(500));
    plan_tests::page::ensure_whole(ctx, "as the imported plan opens")?;
    ctx.screenshot("imported-opens-whole")?;
    let p = open_plan(ctx, "flow-export")?;
    ensure!(p.states.len() == 4, "{} states", p.states.len())?;
    for s in &p.states {
        shows(ctx, &format!("state {}", s.id), &hooks::state(&s.id), LONG)?;
    }
    ensure!(
        text_of(ctx, hooks::PLAN_TITLE)? == "flow-export",
        "the imported plan's title is not the id it was imported as"
    )?;
    ctx.screenshot("imported-seed-export")?;

    let out = files.join("exported.json");
    click(ctx, hooks::EXPORT)?;
    click(ctx, hooks::EXPORT_DRAFT)?;
    choose_file(ctx, EXPORT_DIALOG, &out.display().to_string(), true)?;
    notice_with(ctx, "Exported the draft")?;
    let deadline = Instant::now() + LONG;
    while !out.is_file() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let written = fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let printed = plan_cli(ctx, &["export", "flow-export"])?;
    ensure!(
        written == printed,
        "the exported file differs from plan export"
    )
}

/// Files that cannot be imported, through the real dialog: not JSON, not a plan, a flow export
/// whose output goes to a state it does not have. Each is refused in words that name the file and
/// the place, and the workspace stays byte for byte as it was.
fn a_bad_file_is_refused_by_name_and_place_and_changes_nothing(ctx: &Ctx) -> Outcome {
    let files = scratch(ctx)?;
    let not_json = files.join("not-json.json");
    fs::write(&not_json, "{\"id\": \"x\",\n  oops").map_err(|e| e.to_string())?;
    let not_a_plan = files.join("not-a-plan.json");
    fs::write(
        &not_a_plan,
        "{\"id\": \"x\", \"title\": \"X\", \"states\": [{\"id\": \"a\", \"titel\": \"A\"}]}",
    )
    .map_err(|e| e.to_string())?;
    let mut flow: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(seed_export(ctx)).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let first = flow["flow"]["statesOrder"][0]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let output = flow["flow"]["states"][&first]["outputsOrder"][0]
        .as_str()
        .unwrap_or_default()
        .to_string();
    flow["flow"]["states"][&first]["outputs"][&output]["transitionTo"] = json!("nowhere");
    let dangling = files.join("dangling.json");
    fs::write(&dangling, flow.to_string()).map_err(|e| e.to_string())?;

    open_plan(ctx, "customer-support")?;
    plan_tests::page::wait_saved(ctx)?;
    let before = snapshot(ctx.workspace());
    for (file, into, code, place) in [
        (&not_json, true, "invalid-json", "line 2".to_string()),
        (&not_a_plan, false, "schema", "/states/0/titel".to_string()),
        (
            &dangling,
            false,
            "schema",
            format!("/flow/states/{first}/outputs/{output}/transitionTo"),
        ),
    ] {
        click(ctx, hooks::IMPORT)?;
        click(
            ctx,
            if into {
                hooks::IMPORT_INTO
            } else {
                hooks::IMPORT_NEW
            },
        )?;
        choose_file(ctx, IMPORT_DIALOG, &file.display().to_string(), false)?;
        let css = format!("[data-testid=notice][data-code={code}]");
        shows(ctx, &format!("{} refused", file.display()), &css, LONG)?;
        let said = text_of(ctx, &css)?;
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        ensure!(
            said.contains(name.as_ref()) && said.contains(&place),
            "{name} refused as {said:?}, without its name or {place:?}"
        )?;
        if into {
            ctx.screenshot("import-refused")?;
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    let after = snapshot(ctx.workspace());
    plan_tests::page::ensure(before == after, || {
        let changed: Vec<_> = after
            .keys()
            .filter(|k| before.get(*k) != after.get(*k))
            .chain(before.keys().filter(|k| !after.contains_key(*k)))
            .collect();
        format!("refused imports changed the workspace: {changed:?}")
    })
}
