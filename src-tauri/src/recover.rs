//! Recovery from a crashed web view: WebKitGTK's web process can die on its own (a segfault inside
//! the engine), which leaves the window blank. The page is loaded again instead; the editor's
//! autosave has the draft on disk (at most 300 ms behind), and the UI reopens the plan that was
//! open (it keeps the id in the page's session storage, which a reload keeps).

use tauri::{AppHandle, Manager};

/// Reloads the main window's page whenever its web process ends unexpectedly.
pub fn reload_on_crash(app: &AppHandle) {
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    #[cfg(target_os = "linux")]
    let _ = window.with_webview(|webview| {
        use webkit2gtk::{WebProcessTerminationReason, WebViewExt};
        webview
            .inner()
            .connect_web_process_terminated(|view, reason| {
                // The app asked for it (it is closing): nothing to recover.
                if reason == WebProcessTerminationReason::TerminatedByApi {
                    return;
                }
                eprintln!("plan-builder: the web view stopped ({reason:?}); loading it again");
                view.reload();
            });
    });
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}
