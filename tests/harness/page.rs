//! Reading and driving the app's page in end-to-end tests: the helpers every test file uses.

use serde_json::json;

use crate::{Ctx, SHORT};
use plan_core::files::read_draft;
use plan_core::plan::Plan;

/// How long an operation that reads and writes files gets to show its result.
const LONG: std::time::Duration = std::time::Duration::from_secs(10);

/// What a test returns: `Err` says what went wrong.
pub type Outcome = Result<(), String>;

/// Fails with `what` unless `cond` holds.
pub fn ensure(cond: bool, what: impl FnOnce() -> String) -> Outcome {
    if cond {
        Ok(())
    } else {
        Err(what())
    }
}

/// Fails unless `plan` (a draft read back from disk) has no validation error.
pub fn ensure_valid(plan: &Plan) -> Outcome {
    let report = plan_core::validate(plan);
    crate::ensure!(
        !report.has_errors(),
        "the draft has errors: {:?}",
        report.codes()
    )
}

/// Plan `id` open with its own details in the inspector (no state selected).
pub fn open_plan_details(ctx: &Ctx, id: &str) -> Outcome {
    open_plan(ctx, id)?;
    click(ctx, crate::hooks::TAB_INSPECT)?;
    ctx.session()
        .wait_for(crate::hooks::PLAN_INSPECTOR, SHORT)?;
    Ok(())
}

/// The draft file of plan `id` in the test's workspace.
pub fn draft(ctx: &Ctx, id: &str) -> std::path::PathBuf {
    ctx.workspace().join(id).join("draft.json")
}

/// The draft of plan `id` as it is on disk (work in progress: shape problems are validation's).
pub fn plan(ctx: &Ctx, id: &str) -> Result<Plan, String> {
    read_draft(&draft(ctx, id)).map_err(|e| e.to_string())
}

/// Text of the first element matching `css`, as the DOM holds it (works for SVG too).
pub fn text_of(ctx: &Ctx, css: &str) -> Result<String, String> {
    first_property(ctx, css, "textContent")
}

/// What the first form field matching `css` holds (typed, or filled in by the app).
pub fn value_of(ctx: &Ctx, css: &str) -> Result<String, String> {
    first_property(ctx, css, "value")
}

/// The text held in DOM property `property` of the first element matching `css`.
fn first_property(ctx: &Ctx, css: &str, property: &str) -> Result<String, String> {
    let v = ctx.session().execute(
        "const el = document.querySelector(arguments[0]); return el ? el[arguments[1]] : null;",
        json!([css, property]),
    )?;
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("nothing matches {css} (or it holds no {property})"))
}

/// Attribute `name` of the first element matching `css`: `None` when nothing matches or it has
/// no such attribute.
pub fn attribute(ctx: &Ctx, css: &str, name: &str) -> Result<Option<String>, String> {
    let v = ctx.session().execute(
        "const el = document.querySelector(arguments[0]); return el ? el.getAttribute(arguments[1]) : null;",
        json!([css, name]),
    )?;
    Ok(v.as_str().map(str::to_string))
}

/// Attribute `name` of every element matching `css`, in the page's order (empty where one has
/// none).
pub fn attributes(ctx: &Ctx, css: &str, name: &str) -> Result<Vec<String>, String> {
    let v = ctx.session().execute(
        "const name = arguments[1];
         return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute(name) || '');",
        json!([css, name]),
    )?;
    serde_json::from_value(v).map_err(|e| format!("the attributes {name} of {css}: {e}"))
}

/// The text of every element matching `css`, in the page's order.
pub fn texts(ctx: &Ctx, css: &str) -> Result<Vec<String>, String> {
    let v = ctx.session().execute(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent);",
        json!([css]),
    )?;
    serde_json::from_value(v).map_err(|e| format!("the texts of {css}: {e}"))
}

/// Whether the first element matching `css` is drawn (inside a closed disclosure it is not).
pub fn is_visible(ctx: &Ctx, css: &str) -> Result<bool, String> {
    let v = ctx.session().execute(
        "const el = document.querySelector(arguments[0]); return el ? el.checkVisibility() : null;",
        json!([css]),
    )?;
    v.as_bool().ok_or_else(|| format!("nothing matches {css}"))
}

/// Fails naming the cards that are not wholly on the canvas (`when`: what the author did).
pub fn ensure_whole(ctx: &Ctx, when: &str) -> Outcome {
    let cut = ctx.session().execute(
        "const c = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
         return [...document.querySelectorAll('[data-testid=state]')].filter(e => {
             const r = e.getBoundingClientRect();
             return r.left < c.left || r.right > c.right || r.top < c.top || r.bottom > c.bottom;
         }).map(e => e.dataset.stateId);",
        json!([]),
    )?;
    ensure!(
        cut.as_array().is_some_and(Vec::is_empty),
        "cards cut at the canvas's edge {when}: {cut}"
    )
}

/// How many elements match `css`.
pub fn count(ctx: &Ctx, css: &str) -> Result<usize, String> {
    Ok(ctx.session().find_all(css)?.len())
}

/// Clicks a plan in the list, fits it to the view (a plan opens no smaller than its arrow
/// labels' zoom, so a large one opens on its start state), and waits until its title and all its
/// states are on the canvas.
pub fn open_plan(ctx: &Ctx, id: &str) -> Result<Plan, String> {
    let p = plan(ctx, id)?;
    click(ctx, &crate::hooks::plan(id))?;
    ctx.session()
        .wait_until(&format!("plan {id} open"), SHORT, || {
            Ok(text_of(ctx, crate::hooks::PLAN_TITLE)? == p.title)
        })?;
    // The app sets its opening view after the plan's first frame; a Fit pressed before that is
    // undone by it (and a large plan then opens on its start state, some cards unmounted), so
    // Fit is pressed again until every state is on the canvas.
    fit(ctx)?;
    ctx.session()
        .wait_until(&format!("plan {id} on the canvas"), SHORT * 2, || {
            if count(ctx, crate::hooks::STATE)? == p.states.len() {
                return Ok(true);
            }
            fit(ctx)?;
            std::thread::sleep(std::time::Duration::from_millis(100));
            Ok(count(ctx, crate::hooks::STATE)? == p.states.len())
        })?;
    Ok(p)
}

/// Fits the open plan to the view (the Fit button).
pub fn fit(ctx: &Ctx) -> Outcome {
    click(ctx, crate::hooks::FIT_VIEW)
}

/// The element with `data-testid=<testid>` (the first, when several), waiting for it.
pub fn by_testid(ctx: &Ctx, testid: &str) -> Result<crate::webdriver::Element, String> {
    ctx.session()
        .wait_for(&format!("[data-testid={testid}]"), SHORT)
}

/// Clicks the element matching `css`, waiting for it. The UI redraws lists as the plan changes,
/// so an element found a moment ago may have been replaced: it is found again, a few times.
pub fn click(ctx: &Ctx, css: &str) -> Outcome {
    let mut last = String::new();
    for _ in 0..4 {
        let el = ctx.session().wait_for(css, SHORT)?;
        scroll_to(ctx, css)?;
        match ctx.session().click(&el) {
            Ok(()) => return Ok(()),
            Err(e) => last = e,
        }
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
    Err(format!("clicking {css}: {last}"))
}

/// Moves the pointer over the first element matching `css` (scrolled into view first), as an
/// author does to see what a row shows only under the pointer (its actions).
pub fn hover(ctx: &Ctx, css: &str) -> Outcome {
    ctx.session().wait_for(css, SHORT)?;
    scroll_to(ctx, css)?;
    let at = centre(ctx, css)?;
    ctx.session().actions(json!([{
        "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [{"type": "pointerMove", "duration": 0, "x": at.0, "y": at.1, "origin": "viewport"}]
    }]))
}

/// Scrolls the first element matching `css` to the middle of whatever scrolls it, as an author
/// would before clicking it: WebKit's WebDriver scrolls an element only until it is partly in
/// view, and refuses a click whose centre is still outside ("element not interactable").
pub fn scroll_to(ctx: &Ctx, css: &str) -> Outcome {
    ctx.session().execute(
        "const el = document.querySelector(arguments[0]);
         if (el && el.closest('.panel-body, .sidebar, .dialog, .switcher')) el.scrollIntoView({block: 'center', inline: 'nearest'});",
        json!([css]),
    )?;
    Ok(())
}

/// Sets a field's value as if the author had changed it (`input` and `change` events): for
/// selects and for fields whose keystrokes are not what a test is about.
pub fn set_value(ctx: &Ctx, css: &str, value: &str) -> Outcome {
    ctx.session().wait_for(css, SHORT)?;
    let done = ctx.session().execute(
        "const el = document.querySelector(arguments[0]);
         if (!el) return false;
         el.focus();
         el.value = arguments[1];
         el.dispatchEvent(new Event('input', {bubbles: true}));
         el.dispatchEvent(new Event('change', {bubbles: true}));
         el.blur();
         return true;",
        json!([css, value]),
    )?;
    ensure!(done == json!(true), "nothing matches {css}")
}

/// Types `text` into the field matching `css` with real key presses, replacing what it held, and
/// leaves the field (so a change is committed).
pub fn type_text(ctx: &Ctx, css: &str, text: &str) -> Outcome {
    let typed = || -> Outcome {
        let el = ctx.session().wait_for(css, SHORT)?;
        scroll_to(ctx, css)?;
        ctx.session().click(&el)?;
        ctx.session().chord(&[CTRL, "a"])?;
        ctx.session().send_keys(&el, text)?;
        ctx.session().send_keys(&el, TAB)
    };
    typed().map_err(|e| format!("typing into {css}: {e}"))
}

/// WebDriver key codes.
pub const CTRL: &str = "\u{E009}";
/// The Shift key, as WebDriver sends it.
pub const SHIFT: &str = "\u{E008}";
/// The Tab key, as WebDriver sends it.
pub const TAB: &str = "\u{E004}";
/// The Delete key, as WebDriver sends it.
pub const DELETE: &str = "\u{E017}";

/// The centre of the first element matching `css`, in viewport pixels.
pub fn centre(ctx: &Ctx, css: &str) -> Result<(i64, i64), String> {
    let v = ctx.session().execute(
        "const el = document.querySelector(arguments[0]);
         if (!el) return null;
         const r = el.getBoundingClientRect();
         return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];",
        json!([css]),
    )?;
    match (v[0].as_i64(), v[1].as_i64()) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(format!("nothing matches {css}")),
    }
}

/// A point inside the first element matching `css` where a press would reach it: the element (or
/// one of its children) is the topmost thing there. Tries the centre first, then a grid over the
/// element, so a label or another card lying over part of it does not make a drag miss. The error
/// says what covers the element, which is what a failing drag needs explained.
pub fn reachable_point(ctx: &Ctx, css: &str) -> Result<(i64, i64), String> {
    let v = ctx.session().execute(
        "const el = document.querySelector(arguments[0]);
         if (!el) return 'nothing matches ' + arguments[0];
         const r = el.getBoundingClientRect();
         const fractions = [0.5, 0.3, 0.7, 0.15, 0.85];
         for (const fy of fractions) for (const fx of fractions) {
           const x = Math.round(r.left + r.width * fx), y = Math.round(r.top + r.height * fy);
           const hit = document.elementFromPoint(x, y);
           if (hit && (hit === el || el.contains(hit))) return [x, y];
         }
         const x = Math.round(r.left + r.width / 2), y = Math.round(r.top + r.height / 2);
         const hit = document.elementFromPoint(x, y);
         const what = hit ? hit.outerHTML.slice(0, 160) : 'nothing (outside the window)';
         return `${arguments[0]} at ${x},${y} (${Math.round(r.width)}x${Math.round(r.height)}) is covered by ${what}`;",
        json!([css]),
    )?;
    match (v[0].as_i64(), v[1].as_i64()) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(v.as_str().unwrap_or("no answer").to_string()),
    }
}

/// The middle of transition `index` of state `from` (a point on the arrow), in viewport pixels.
pub fn arrow_middle(ctx: &Ctx, from: &str, index: usize) -> Result<(i64, i64), String> {
    let v = ctx.session().execute(
        "const p = document.querySelector(`[data-testid=transition][data-from=\"${arguments[0]}\"][data-index=\"${arguments[1]}\"] .edge-hit`);
         if (!p) return null;
         const at = p.getPointAtLength(p.getTotalLength() / 2);
         const m = p.getScreenCTM();
         return [Math.round(at.x * m.a + at.y * m.c + m.e), Math.round(at.x * m.b + at.y * m.d + m.f)];",
        json!([from, index]),
    )?;
    match (v[0].as_i64(), v[1].as_i64()) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(format!("no transition {index} of {from} on the canvas")),
    }
}

/// A mouse click at a viewport point.
pub fn click_at(ctx: &Ctx, at: (i64, i64)) -> Outcome {
    ctx.session().actions(json!([{
        "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [
            {"type": "pointerMove", "duration": 0, "x": at.0, "y": at.1, "origin": "viewport"},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0}
        ]
    }]))
}

/// Waits until the status bar says the draft is saved.
pub fn wait_saved(ctx: &Ctx) -> Outcome {
    ctx.session()
        .wait_until("the draft to be saved", SHORT, || {
            Ok(text_of(ctx, crate::hooks::SAVE_STATUS)? == "Saved")
        })
}

/// The canvas's pan offset and zoom, read from the card layer's CSS transform.
pub fn view_transform(ctx: &Ctx) -> Result<(f64, f64, f64), String> {
    let style = ctx
        .session()
        .execute(
            "return document.querySelector('.cards').style.transform;",
            json!([]),
        )?
        .as_str()
        .unwrap_or_default()
        .to_string();
    let numbers: Vec<f64> = style
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
        .filter_map(|s| s.parse().ok())
        .collect();
    match numbers[..] {
        [x, y, z] => Ok((x, y, z)),
        _ => Err(format!("unexpected canvas transform {style:?}")),
    }
}

/// Waits up to `within` until `css` matches something; `what` names it in the failure.
pub fn shows(ctx: &Ctx, what: &str, css: &str, within: std::time::Duration) -> Outcome {
    ctx.session()
        .wait_until(what, within, || Ok(count(ctx, css)? > 0))
}

/// Waits up to `within` until `css` matches nothing; `what` names it in the failure.
pub fn gone(ctx: &Ctx, what: &str, css: &str, within: std::time::Duration) -> Outcome {
    ctx.session()
        .wait_until(what, within, || Ok(count(ctx, css)? == 0))
}

/// Fails with `what` unless `css` matches exactly `n` elements.
pub fn ensure_count(ctx: &Ctx, css: &str, n: usize, what: &str) -> Outcome {
    let found = count(ctx, css)?;
    ensure!(found == n, "{what} ({found} of {css}, {n} expected)")
}

/// Clicks state `id`'s title and waits until its inspector is shown.
pub fn select_state(ctx: &Ctx, id: &str) -> Outcome {
    let card = crate::hooks::state(id);
    click(ctx, &format!("{card} .card-title"))?;
    ctx.session()
        .wait_until(&format!("{id} selected"), SHORT, || {
            Ok(count(ctx, &format!("{card}[data-selected=true]"))? == 1
                && count(ctx, crate::hooks::ADVANCED_TOGGLE)? == 1)
        })
}

/// `plan ARGS --workspace <the test's>`: its standard output, or what it said on failing.
pub fn plan_cli(ctx: &Ctx, args: &[&str]) -> Result<String, String> {
    let out = std::process::Command::new(crate::binary("plan")?)
        .args(args)
        .arg("--workspace")
        .arg(ctx.workspace())
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "plan {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The text of the latest notice, waiting for one that contains `part`.
pub fn notice_with(ctx: &Ctx, part: &str) -> Result<String, String> {
    let mut seen = String::new();
    ctx.session()
        .wait_until(&format!("a notice saying {part:?}"), LONG, || {
            seen = text_of(ctx, crate::hooks::NOTICE).unwrap_or_default();
            Ok(seen.contains(part))
        })
        .map_err(|e| format!("{e} (the notice says {seen:?})"))?;
    Ok(seen)
}

/// Opens the publish dialog and waits for what it has to say (changes or errors).
pub fn open_publish(ctx: &Ctx) -> Outcome {
    click(ctx, crate::hooks::PUBLISH)?;
    ctx.session()
        .wait_until("the publish dialog's answer", LONG, || {
            Ok(count(ctx, crate::hooks::PUBLISH_DIFF)?
                + count(ctx, crate::hooks::PUBLISH_ERRORS)?
                + count(ctx, crate::hooks::PUBLISH_UNCHANGED)?
                + count(ctx, crate::hooks::PUBLISH_ERROR)?
                + count(ctx, crate::hooks::PUBLISH_CONFLICTS)?
                > 0)
        })
}

/// Clicks Publish once it is enabled: for a plan with rules, after every conversation has been
/// explored and the rules hold (seconds in the debug app).
pub fn confirm_publish(ctx: &Ctx) -> Outcome {
    ctx.session().wait_until(
        "Publish enabled once the rules are checked",
        std::time::Duration::from_secs(90),
        || {
            let disabled = ctx.session().execute(
                "return document.querySelector('[data-testid=publish-confirm]').disabled;",
                json!([]),
            )?;
            Ok(disabled == json!(false))
        },
    )?;
    click(ctx, crate::hooks::PUBLISH_CONFIRM)
}

/// Publishes the draft with `note` through the dialog, which must list `listed`.
pub fn publish(ctx: &Ctx, note: &str, listed: &str) -> Result<u32, String> {
    open_publish(ctx)?;
    let diff = text_of(ctx, crate::hooks::PUBLISH_DIFF)?;
    ensure!(
        diff.contains(listed),
        "the publish dialog lists {diff:?}, not {listed:?}"
    )?;
    type_text(ctx, crate::hooks::PUBLISH_NOTE, note)?;
    confirm_publish(ctx)?;
    let text = notice_with(ctx, "Published version")?;
    text.trim_start_matches(|c: char| !c.is_ascii_digit())
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("no version number in {text:?}"))
}
