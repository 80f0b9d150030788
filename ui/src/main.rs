//! plan-ui: the Plan Builder window's UI, a Leptos client-side app compiled to wasm.
//!
//! `app` holds the window's layout and state, `canvas` draws a plan, and `ipc` is the one module
//! that talks to the desktop shell.

mod app;
mod canvas;
mod ipc;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
