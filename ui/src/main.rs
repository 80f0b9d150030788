//! plan-ui: the Plan Builder window's UI, a Leptos client-side app compiled to wasm.
//!
//! `app` holds the window's layout, `editor` the open plan and its undo history, `canvas` draws
//! and edits it, `inspector` edits the selection, `find` searches it, `sidebar` lists the plans
//! and holds the palette, `validation` keeps the problems up to date, `help` lists the shortcuts,
//! `timeline` marks the open-time benchmark's moments, and `ipc` is the one module that talks to
//! the desktop shell.

mod app;
mod canvas;
mod editor;
mod find;
mod help;
mod inspector;
mod ipc;
mod sidebar;
mod timeline;
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
