//! Reads `tauri.conf.json` (the top level's, through the link beside this file) and declares the
//! app's own commands, so that the capability file can allow exactly them and nothing else.

// The command names the page may call: plan_api::messages::COMMANDS, which a build script cannot
// import. A unit test of the shell checks that the two lists agree.
include!("src/command_names.rs");

fn main() {
    let attributes = tauri_build::Attributes::new()
        .config_path("tauri.conf.json")
        .app_manifest(tauri_build::AppManifest::new().commands(&COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        eprintln!("tauri build script failed: {e:#}");
        std::process::exit(1);
    }
}
