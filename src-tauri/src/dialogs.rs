//! The native file dialogs of Import and Export (rfd, through GTK on Linux): the author picks a
//! file; the page never sees the file system.
//!
//! rfd runs GTK dialogs on a GTK thread of its own, so a dialog is awaited from the command's
//! task without holding the window's main thread.

use std::path::PathBuf;

use rfd::AsyncFileDialog;

/// The title of the import dialog (end-to-end tests find the dialog's window by it).
pub const IMPORT_TITLE: &str = "Import a plan";
/// The title of the export dialog.
pub const EXPORT_TITLE: &str = "Export the plan";

fn start_folder() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

/// A plan file (this project's format or a flow export) the author picks; none when cancelled.
pub async fn pick_plan_file(_app: &tauri::AppHandle) -> Option<PathBuf> {
    let mut dialog = AsyncFileDialog::new()
        .set_title(IMPORT_TITLE)
        .add_filter("Plans and flow exports (JSON)", &["json"])
        .add_filter("All files", &["*"]);
    if let Some(dir) = start_folder() {
        dialog = dialog.set_directory(dir);
    }
    dialog.pick_file().await.map(|f| f.path().to_path_buf())
}

/// Where the author wants a plan document written (suggesting `name`); none when cancelled.
pub async fn choose_export_file(_app: &tauri::AppHandle, name: &str) -> Option<PathBuf> {
    let mut dialog = AsyncFileDialog::new()
        .set_title(EXPORT_TITLE)
        .set_file_name(name)
        .add_filter("Plan (JSON)", &["json"]);
    if let Some(dir) = start_folder() {
        dialog = dialog.set_directory(dir);
    }
    dialog.save_file().await.map(|f| f.path().to_path_buf())
}
