//! The app's native windows, driven as an author would under Xvfb: the GTK file chooser of
//! Import and Export, found by its title and answered by typing a path into it (with `xdotool`,
//! which sends real key presses through the X server).

use std::process::Command;
use std::time::{Duration, Instant};

use crate::Ctx;

/// How long a native dialog gets to appear.
const DIALOG_START: Duration = Duration::from_secs(15);

fn xdotool(ctx: &Ctx, args: &[&str]) -> Result<String, String> {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", ctx.harness.display())
        .output()
        .map_err(|e| format!("cannot run xdotool (apt-get install xdotool): {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(format!(
            "xdotool {args:?}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The X window titled `title`, waiting for it to appear.
pub fn window_titled(ctx: &Ctx, title: &str) -> Result<String, String> {
    let deadline = Instant::now() + DIALOG_START;
    loop {
        if let Ok(found) = xdotool(ctx, &["search", "--onlyvisible", "--name", title]) {
            if let Some(id) = found.lines().next().filter(|l| !l.is_empty()) {
                return Ok(id.to_string());
            }
        }
        if Instant::now() > deadline {
            return Err(format!("no window titled \"{title}\" appeared"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Answers the GTK file chooser titled `title` with `path`: its location field (Ctrl+L in an
/// open dialog, the name field of a save dialog) gets the path typed in, then Enter. Returns once
/// the dialog has gone.
pub fn choose_file(ctx: &Ctx, title: &str, path: &str, saving: bool) -> Result<(), String> {
    let window = window_titled(ctx, title)?;
    // No window manager under Xvfb: the dialog gets the keyboard by being given the focus.
    xdotool(ctx, &["windowfocus", "--sync", &window])?;
    // GTK needs a moment after mapping before its entries take keys.
    std::thread::sleep(Duration::from_millis(400));
    if saving {
        xdotool(ctx, &["key", "--clearmodifiers", "ctrl+a"])?;
    } else {
        xdotool(ctx, &["key", "--clearmodifiers", "ctrl+l"])?;
        std::thread::sleep(Duration::from_millis(200));
    }
    xdotool(ctx, &["type", "--delay", "15", path])?;
    std::thread::sleep(Duration::from_millis(200));
    xdotool(ctx, &["key", "Return"])?;
    let deadline = Instant::now() + Duration::from_secs(10);
    while xdotool(ctx, &["search", "--onlyvisible", "--name", title])
        .is_ok_and(|found| !found.is_empty())
    {
        if Instant::now() > deadline {
            return Err(format!(
                "the dialog \"{title}\" did not close after {path} was typed"
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}

/// Closes the dialog titled `title` without choosing (Escape).
pub fn cancel_dialog(ctx: &Ctx, title: &str) -> Result<(), String> {
    let window = window_titled(ctx, title)?;
    xdotool(ctx, &["windowfocus", "--sync", &window])?;
    std::thread::sleep(Duration::from_millis(300));
    xdotool(ctx, &["key", "Escape"]).map(drop)
}
