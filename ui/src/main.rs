//! plan-ui: the Plan Builder window's UI, a Leptos client-side app compiled to wasm.
//!
//! `app` holds the window's layout, `editor` the open plan and its undo history, `canvas` draws
//! and edits it, `inspector` edits the selection, `find` searches it, and `ipc` is the one module
//! that talks to the desktop shell.

mod app;
mod canvas;
mod editor;
mod find;
mod inspector;
mod ipc;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
