//! Plan Builder's desktop shell: a window showing the Leptos UI, and thin commands over plan-core.
//!
//! Where plans come from, until the workspace store exists: the folder named by `--plans DIR`, else
//! `PLAN_BUILDER_PLANS`, else `plans/` in the current directory, else the repository's `plans/`
//! (where the app was built). The app only reads that folder, and watches it so that a plan edited
//! in another program shows up at once.

// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod commands;
mod watch;

use std::path::PathBuf;

/// The folder the app reads plans from.
pub struct PlanDir(pub PathBuf);

fn plan_dir() -> PathBuf {
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--plans" {
            if let Some(dir) = args.next() {
                return PathBuf::from(dir);
            }
        } else if let Some(dir) = arg.strip_prefix("--plans=") {
            return PathBuf::from(dir);
        }
    }
    if let Some(dir) = std::env::var_os("PLAN_BUILDER_PLANS") {
        return PathBuf::from(dir);
    }
    let here = PathBuf::from("plans");
    if here.is_dir() {
        return here;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../plans"))
}

fn main() {
    let dir = plan_dir();
    let dir = dir.canonicalize().unwrap_or(dir);
    let watched = dir.clone();
    let result = tauri::Builder::default()
        .manage(PlanDir(dir))
        .setup(move |app| {
            // A folder that cannot be watched still opens; the list just won't refresh by itself.
            if let Err(e) = watch::start(app.handle().clone(), &watched) {
                eprintln!(
                    "plan-builder: not watching {} for changes: {e}",
                    watched.display()
                );
            }
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::list_plans,
            commands::load_plan
        ])
        .run(tauri::generate_context!("../tauri.conf.json"));
    if let Err(e) = result {
        eprintln!("plan-builder: could not start: {e}");
        std::process::exit(1);
    }
}
