//! Plan Builder's desktop shell: a window showing the Leptos UI, and thin commands over plan-core.
//!
//! The app opens a workspace, the same one the `plan` command uses: `--workspace DIR`, else
//! `PLAN_BUILDER_WORKSPACE`, else the default workspace (`~/.local/share/plan-builder/plans`).
//! A workspace that does not exist yet is created and seeded with the sample plans. The app
//! watches it, so that a plan changed by the CLI or another program shows up at once.

// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod first_screen;
mod known;
mod painting;
mod recover;
mod watch;

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use plan_core::store::{default_root, timestamp, Workspace};

fn workspace_root() -> Option<PathBuf> {
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--workspace" {
            return args.next().map(PathBuf::from);
        } else if let Some(dir) = arg.strip_prefix("--workspace=") {
            return Some(PathBuf::from(dir));
        }
    }
    std::env::var_os("PLAN_BUILDER_WORKSPACE")
        .map(PathBuf::from)
        .or_else(default_root)
}

fn now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    timestamp(secs)
}

/// Says why the app cannot start, on stderr and, because someone who started it from a menu never
/// sees stderr, in a native dialog; then exits.
fn fail(message: String) -> ! {
    eprintln!("plan-builder: {message}");
    if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some() {
        let _ = rfd::MessageDialog::new()
            .set_level(rfd::MessageLevel::Error)
            .set_title("Plan Builder cannot start")
            .set_description(&message)
            .set_buttons(rfd::MessageButtons::Ok)
            .show();
    }
    std::process::exit(2);
}

fn main() {
    painting::choose();
    let Some(root) = workspace_root() else {
        fail("There is no workspace: start Plan Builder with --workspace DIR, or set PLAN_BUILDER_WORKSPACE.".into());
    };
    let workspace = match Workspace::open(&root, &now()) {
        Ok(ws) => ws,
        Err(e) => fail(format!(
            "The workspace {} cannot be opened: {e}",
            root.display()
        )),
    };
    let watched = workspace.root().to_path_buf();
    // The first screen is read while the window and the page start (see `first_screen`).
    let early = std::sync::Arc::new(first_screen::Early::begin(watched.clone()));
    let own = std::sync::Arc::new(known::Known::default());
    let own_for_watch = std::sync::Arc::clone(&own);
    let result = tauri::Builder::default()
        .manage(workspace)
        .manage(own)
        .manage(early)
        .setup(move |app| {
            recover::reload_on_crash(app.handle());
            // A workspace that cannot be watched still opens; the list just won't refresh by itself.
            if let Err(e) = watch::start(app.handle().clone(), &watched, own_for_watch) {
                eprintln!(
                    "plan-builder: not watching {} for changes: {e}",
                    watched.display()
                );
            }
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::start,
            commands::list_plans,
            commands::load_plan,
            commands::save_draft
        ])
        .run(tauri::generate_context!("../tauri.conf.json"));
    if let Err(e) = result {
        eprintln!("plan-builder: could not start: {e}");
        std::process::exit(1);
    }
}
