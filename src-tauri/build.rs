//! Reads `tauri.conf.json` from the workspace root and declares the app's own commands, so that the
//! capability file can allow exactly them and nothing else.

fn main() {
    let attributes = tauri_build::Attributes::new()
        .config_path("../tauri.conf.json")
        .app_manifest(tauri_build::AppManifest::new().commands(&[
            "start",
            "list_plans",
            "load_plan",
            "save_draft",
        ]));
    if let Err(e) = tauri_build::try_build(attributes) {
        eprintln!("tauri build script failed: {e:#}");
        std::process::exit(1);
    }
}
