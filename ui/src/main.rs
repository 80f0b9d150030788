//! plan-ui: the Plan Builder window's UI, a Leptos client-side app compiled to wasm.
//!
//! `app` lays the window out. The stores: `editor` (the open plan, its undo history, autosave,
//! read-only views) and `opening` (the plan list, opening plans, changes on disk). What the
//! author does: `actions` (the selection and the view, carrying out the shortcuts of `keymap`)
//! and `lifecycle` (plans, publishing, versions, import and export). The parts: `topbar`,
//! `sidebar` with the `switcher`, `canvas` (draws and edits the plan), `panels` (inspector,
//! problems, versions, the test chat, changes), `dialogs`, `find`, `help`, `notice`; `test_chat` runs
//! the test chat. `validation` keeps the
//! problems up to date, `timeline` marks the open-time benchmark's moments, and `ipc` is the one
//! module that talks to the desktop shell.

mod actions;
mod app;
mod canvas;
mod dialogs;
mod editor;
mod explore;
mod find;
mod focus;
mod fold;
mod help;
mod ipc;
mod keymap;
mod lifecycle;
mod notice;
mod opening;
mod panels;
mod plan_names;
mod sidebar;
mod switcher;
mod tab;
mod test_chat;
mod timeline;
mod topbar;
mod validation;

fn main() {
    // A bug is logged to the console, and left on the page for the end-to-end tests to report.
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        if let Some(body) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
        {
            let _ = body.set_attribute("data-panic", &info.to_string());
        }
    }));
    // The open-time breakdown: wasm running, first screen built, first frame drawn.
    timeline::mark("main");
    leptos::mount::mount_to_body(app::App);
    timeline::mark("mounted");
    leptos::prelude::request_animation_frame(|| timeline::mark("first-frame"));
}
