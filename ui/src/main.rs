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
mod announce;
mod app;
mod canvas;
mod connect_picker;
mod derived;
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
mod navigation;
mod notice;
mod opening;
mod panels;
mod plan_names;
mod problem_count;
mod regions;
mod sharing;
mod sidebar;
mod simulate;
mod switcher;
mod test_chat;
mod timeline;
mod topbar;
mod validation;

use std::cell::RefCell;
use std::rc::Rc;

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
    // Asked for first: the shell's answer travels while the wasm starts. The window is made once
    // it is in, so that the first frame shows the plan (an empty editor drawn first cost a
    // frame and a wait for the answer behind it); a shell slow to answer gets the empty window
    // after `FIRST_SCREEN_WAIT`, filled in when the answer comes.
    let first = opening::FirstScreen::ask();
    let unmade = Rc::new(RefCell::new(Some(first.clone())));
    let made_late = Rc::clone(&unmade);
    wasm_bindgen_futures::spawn_local(async move {
        first.arrived().await;
        make_window(&unmade);
    });
    leptos::prelude::set_timeout(move || make_window(&made_late), FIRST_SCREEN_WAIT);
}

/// How long the window waits for the first screen's answer before it is made without it.
const FIRST_SCREEN_WAIT: std::time::Duration = std::time::Duration::from_millis(300);

/// Makes the window, once.
fn make_window(unmade: &RefCell<Option<opening::FirstScreen>>) {
    let Some(first) = unmade.borrow_mut().take() else {
        return;
    };
    leptos::mount::mount_to_body(move || leptos::view! { <app::App first /> });
    timeline::mark("mounted");
    leptos::prelude::request_animation_frame(|| timeline::mark("first-frame"));
}
