//! The keyboard as an author without a pointer uses it: keys pressed through WebDriver's key
//! actions (never an element's own typing, never a pointer), and where the focus is.

use serde_json::{json, Value};

use crate::page::Outcome;
use crate::Ctx;

// WebDriver's codes of keys (the W3C table).

/// Enter.
pub const ENTER: &str = "\u{E007}";
/// Escape.
pub const ESCAPE: &str = "\u{E00C}";
/// Tab.
pub const TAB: &str = "\u{E004}";
/// Shift (held with another key).
pub const SHIFT: &str = "\u{E008}";
/// Ctrl (held with another key).
pub const CTRL: &str = "\u{E009}";
/// Space.
pub const SPACE: &str = "\u{E00D}";
/// The down arrow.
pub const DOWN: &str = "\u{E015}";
/// The up arrow.
pub const UP: &str = "\u{E013}";
/// The right arrow.
pub const RIGHT: &str = "\u{E014}";
/// The left arrow.
pub const LEFT: &str = "\u{E012}";
/// Delete.
pub const DELETE: &str = "\u{E017}";
/// Home.
pub const HOME: &str = "\u{E011}";
/// End.
pub const END: &str = "\u{E010}";
/// F6.
pub const F6: &str = "\u{E036}";
/// F10.
pub const F10: &str = "\u{E03A}";

/// Presses `keys` together and lets them go.
pub fn press(ctx: &Ctx, keys: &[&str]) -> Outcome {
    ctx.session().chord(keys).map_err(|e| e.to_string())
}

/// Types `text` into whatever has the focus, a key at a time.
pub fn type_keys(ctx: &Ctx, text: &str) -> Outcome {
    let mut seq: Vec<Value> = Vec::new();
    for c in text.chars() {
        let k = c.to_string();
        seq.push(json!({"type": "keyDown", "value": k}));
        seq.push(json!({"type": "keyUp", "value": k}));
    }
    ctx.session()
        .actions(json!([{"type": "key", "id": "keyboard", "actions": seq}]))
        .map_err(|e| e.to_string())
}

/// Replaces the focused field's text: Ctrl+A, then `text` typed.
pub fn retype(ctx: &Ctx, text: &str) -> Outcome {
    press(ctx, &[CTRL, "a"])?;
    type_keys(ctx, text)
}

/// What has the focus, as a short description: its `data-testid`, else its tag, with the state
/// or arrow it is about ("state:order", "transition-label:order/0", "field-title").
pub fn focused(ctx: &Ctx) -> Result<String, String> {
    let v = ctx.session().execute(
        "const e = document.activeElement; if (!e) return ''; \
         const d = e.dataset || {}; const what = d.testid || e.tagName.toLowerCase(); \
         if (d.stateId) return what + ':' + d.stateId; \
         if (d.from !== undefined && d.index !== undefined) return what + ':' + d.from + '/' + d.index; \
         return what;",
        json!([]),
    )?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// Whether the focused element matches `css`.
pub fn focus_is(ctx: &Ctx, css: &str) -> Result<bool, String> {
    let v = ctx.session().execute(
        "const e = document.activeElement; return !!e && e.matches(arguments[0]);",
        json!([css]),
    )?;
    Ok(v.as_bool().unwrap_or(false))
}

/// Presses Tab (with Shift: `back`) until the focus is on `css`, at most `most` times; the
/// presses it took.
pub fn tab_to(ctx: &Ctx, css: &str, back: bool, most: usize) -> Result<usize, String> {
    let mut path = Vec::new();
    for n in 0..=most {
        if focus_is(ctx, css)? {
            return Ok(n);
        }
        path.push(focused(ctx)?);
        if back {
            press(ctx, &[SHIFT, TAB])?;
        } else {
            press(ctx, &[TAB])?;
        }
    }
    Err(format!(
        "{most} presses of Tab did not reach {css}; the focus went {}",
        path.join(" → ")
    ))
}

/// Waits until the focus is on `css`.
pub fn wait_focus(ctx: &Ctx, what: &str, css: &str) -> Outcome {
    ctx.session()
        .wait_until(what, crate::SHORT, || focus_is(ctx, css))
        .map_err(|e| format!("{e}; the focus is on {}", focused(ctx).unwrap_or_default()))
}

/// On the focused picker: Home, then ↓ until its value is `value` (at most `most` presses).
pub fn choose(ctx: &Ctx, value: &str, most: usize) -> Outcome {
    press(ctx, &[HOME])?;
    let current = || -> Result<String, String> {
        let v = ctx.session().execute(
            "const e = document.activeElement; return e && e.value !== undefined ? e.value : null;",
            json!([]),
        )?;
        Ok(v.as_str().unwrap_or_default().to_string())
    };
    let mut seen = Vec::new();
    for _ in 0..=most {
        std::thread::sleep(std::time::Duration::from_millis(80));
        let now = current()?;
        if now == value {
            return Ok(());
        }
        seen.push(now);
        press(ctx, &[DOWN])?;
    }
    Err(format!(
        "↓ did not reach {value:?} on {}: it went {}",
        focused(ctx)?,
        seen.join(" → ")
    ))
}
