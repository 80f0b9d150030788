//! Watches the workspace and tells the UI which plans changed on disk (by the CLI, a text editor,
//! a `git pull`): their drafts, live markers and versions; not their sessions, test cases or
//! history, which the app's own test chats write every turn.
//!
//! Writers save in bursts (a temporary file, a rename), so events are gathered for a short quiet
//! period and sent as one `plans-changed` event naming the plan ids involved.
//! Changes to files that are still what the app last read or wrote ([`SeenFiles`]), above all its
//! own autosaves, are left out: the page already has them.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use notify::{RecursiveMode, Watcher};
use plan_api::messages::{PlansChanged, PLANS_CHANGED};
use plan_core::store::Workspace;
use tauri::{AppHandle, Emitter, Manager};
use tokio::sync::mpsc;

use crate::seen_files::SeenFiles;

/// How long the workspace must be quiet before the UI is told.
const QUIET: Duration = Duration::from_millis(150);

/// Keeps the watcher alive for as long as the app runs.
struct Watching(#[allow(dead_code)] notify::RecommendedWatcher);

/// Starts watching the workspace at `root`; changes are emitted to every window of `app`.
pub fn start(app: AppHandle, root: &Path, own: Arc<SeenFiles>) -> notify::Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<(String, PathBuf)>>();
    let ws = Workspace::at(root);
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event {
            // Reading a file is an event too (inotify reports opens and closes): only changes
            // count, or every reload of a plan would announce another change and reload it again.
            if matches!(event.kind, notify::EventKind::Access(_)) {
                return;
            }
            let ids: Vec<(String, PathBuf)> = event
                .paths
                .iter()
                .filter_map(|p| Some((ws.document_of_path(p)?, p.clone())))
                .collect();
            if !ids.is_empty() {
                // The receiver only goes away when the app quits.
                let _ = tx.send(ids);
            }
        }
    })?;
    watcher.watch(root, RecursiveMode::Recursive)?;
    app.manage(Watching(watcher));

    tauri::async_runtime::spawn(async move {
        while let Some(first) = rx.recv().await {
            let mut ids = first;
            while let Ok(Some(more)) = tokio::time::timeout(QUIET, rx.recv()).await {
                ids.extend(more);
            }
            // The app's own autosaves are not news to it.
            let mut ids: Vec<String> = ids
                .into_iter()
                .filter(|(_, path)| !own.is_known(path))
                .map(|(id, _)| id)
                .collect();
            if ids.is_empty() {
                continue;
            }
            ids.sort();
            ids.dedup();
            let _ = app.emit(PLANS_CHANGED, PlansChanged { ids });
        }
    });
    Ok(())
}
