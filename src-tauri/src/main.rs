//! Plan Builder's desktop shell: a window showing the Leptos UI, and thin commands over plan-api.
//!
//! The app opens a workspace, the same one the `plan` command uses: `--workspace DIR`, else
//! `PLAN_BUILDER_WORKSPACE`, else the default workspace (`~/.local/share/plan-builder/plans`).
//! A workspace that does not exist yet is created and seeded with the sample plans. A plan file
//! given too (`plan-builder FILE`, as a desktop's "Open with" does) is shown first. The app
//! watches it, so that a plan changed by the CLI or another program shows up at once.

// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod arguments;
mod commands;
mod dialogs;
mod first_screen;
mod painting;
mod recover;
mod saved_draft;
mod seen_files;
mod watch;

// Plans are many small strings: see the dependency's note in Cargo.toml.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use plan_api::context::{system_clock, workspace_root};
use plan_api::Context;

/// Says why the app cannot start, on stderr and, because someone who started the app from a menu
/// never sees stderr, in a native dialog when there is a display to show one on; then exits.
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
    let args = arguments::read(std::env::args().skip(1));
    if args.version {
        println!("plan-builder {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    if args.help {
        print!("{}", arguments::USAGE);
        return;
    }
    if !args.ignored.is_empty() {
        eprintln!("plan-builder: ignoring {}", args.ignored.join(" "));
    }
    painting::choose();
    let Ok(root) = workspace_root(args.workspace.as_deref()) else {
        fail("There is no workspace: start Plan Builder with --workspace DIR, or set PLAN_BUILDER_WORKSPACE.".into());
    };
    let ctx = match Context::open(&root, system_clock) {
        Ok(ctx) => ctx,
        Err(e) => fail(format!(
            "The workspace {} cannot be opened: {e}",
            root.display()
        )),
    };
    let watched = ctx.root().to_path_buf();
    // A file opened from the file manager: its plan opens first (imported when it is not one of
    // the workspace's).
    // A file that cannot be shown is said in the window, which opens on the workspace as usual.
    let (shown, unopened) = match args.file {
        None => (None, None),
        Some(file) => match plan_api::drafts::open_file(&ctx, &file) {
            Ok((id, _)) => (Some(id), None),
            Err(mut e) => {
                let named = file.display().to_string();
                if !e.message.contains(&named) {
                    e.message = format!("{named}: {}", e.message);
                }
                eprintln!("plan-builder: {}", e.message);
                (None, Some(e))
            }
        },
    };
    // The first screen is read while the window and the page start (see `first_screen`).
    let early = std::sync::Arc::new(first_screen::PreparedFirstScreen::begin(
        ctx.clone(),
        shown,
        unopened,
    ));
    set_up_sharing(&ctx);
    let own = std::sync::Arc::new(seen_files::SeenFiles::default());
    let own_for_watch = std::sync::Arc::clone(&own);
    let result = tauri::Builder::default()
        .manage(ctx)
        .manage(own)
        .manage(early)
        .manage(std::sync::Arc::new(saved_draft::SavedDraft::default()))
        .manage(std::sync::Arc::new(commands::explore::Searches::default()))
        .manage(std::sync::Arc::new(
            commands::simulate::Simulations::default(),
        ))
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
            commands::workspace::start,
            commands::workspace::list_plans,
            commands::workspace::new_plan,
            commands::workspace::duplicate_plan,
            commands::workspace::rename_plan,
            commands::workspace::delete_plan,
            commands::workspace::list_trash,
            commands::workspace::restore_plan,
            commands::workspace::list_samples,
            commands::drafts::load_plan,
            commands::drafts::save_draft,
            commands::drafts::import_file,
            commands::drafts::export_file,
            commands::versions::publish_preview,
            commands::versions::publish,
            commands::versions::list_versions,
            commands::versions::load_version,
            commands::versions::set_live,
            commands::versions::reopen_version,
            commands::versions::compare,
            commands::conversations::chat_start,
            commands::conversations::chat_say,
            commands::conversations::chat_set_state,
            commands::conversations::chat_step_back,
            commands::conversations::chat_latest,
            commands::conversations::chat_case,
            commands::conversations::save_case,
            commands::conversations::run_suite,
            commands::conversations::agent_settings,
            commands::conversations::save_agent_settings,
            commands::conversations::test_connection,
            commands::workspace::welcome,
            commands::workspace::dismiss_welcome,
            commands::explore::explore,
            commands::explore::explore_stop,
            commands::explore::publish_rules,
            commands::explore::publish_outcomes,
            commands::simulate::simulation_overview,
            commands::simulate::simulate,
            commands::simulate::simulate_stop,
            commands::simulate::save_persona,
            commands::simulate::run_report,
            commands::simulate::run_conversation,
            commands::simulate::compare_runs,
            commands::share::share_status,
            commands::share::share_checkpoint,
            commands::share::share_get,
            commands::share::share_send,
            commands::share::plan_conflicts,
            commands::share::resolve_conflict,
        ])
        .run(tauri::generate_context!());
    if let Err(e) = result {
        eprintln!("plan-builder: could not start: {e}");
        std::process::exit(1);
    }
}

/// A workspace kept in a git repository (its files committed there) is set up for sharing as it
/// opens (`plan share init`: the merge driver is the `plan` program installed beside the app),
/// on a thread of its own: git never holds up the first screen. A workspace merely inside a
/// repository (ignored by it, or never committed) is left alone: nothing is written outside it
/// unless the author shares it.
fn set_up_sharing(ctx: &Context) {
    let ctx = ctx.clone();
    std::thread::spawn(move || {
        let Some(plan) = std::env::current_exe()
            .ok()
            .map(|exe| exe.with_file_name("plan"))
            .filter(|plan| plan.is_file())
        else {
            return;
        };
        let shared =
            plan_api::sharing::git::Git::required(ctx.root()).is_ok_and(|git| git.keeps_files());
        if shared {
            if let Err(e) = plan_api::sharing::share::init(&ctx, &plan) {
                eprintln!("plan-builder: sharing not set up: {}", e.message);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    include!("command_names.rs");

    #[test]
    fn the_shell_declares_and_allows_exactly_the_commands_of_the_api() {
        assert_eq!(COMMANDS, plan_api::messages::COMMANDS);
        let capability: serde_json::Value =
            serde_json::from_str(include_str!("../capabilities/main.json")).unwrap();
        let allowed: Vec<String> = capability["permissions"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p.as_str()?.strip_prefix("allow-").map(str::to_string))
            .collect();
        let expected: Vec<String> = COMMANDS.iter().map(|c| c.replace('_', "-")).collect();
        assert_eq!(allowed, expected);
    }
}
