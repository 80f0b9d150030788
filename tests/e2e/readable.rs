//! End-to-end tests of the view an author first sees (issue 29) in the real app at 1280×800: every
//! sample plan opens whole and readable with the panels as they open (every card on the canvas and
//! clear of the minimap and the zoom buttons, every text the cards' layer draws at least 8 px tall
//! on screen, no word broken across lines, no title, label or mark cut), Fit and Auto-layout keep that rule, and folding a side panel gives the canvas its room
//! and keeps the canvas's middle where it was.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::time::Duration;

use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::keys::{press, LEFT, SHIFT};
use plan_tests::page::{
    click, count, ensure, plan, select_state, text_of, view_transform, Outcome,
};
use plan_tests::{Ctx, Test, SHORT};
use serde_json::{json, Value};

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    every_sample_opens_whole_and_readable,
    fit_and_auto_layout_keep_the_text_readable,
    folding_a_side_panel_gives_the_canvas_room_and_keeps_its_middle,
    the_smallest_window_keeps_everything_on_screen_and_apart,
    a_plan_without_saved_positions_opens_laid_out_and_whole,
    parallel_arrows_and_long_names_read_apart_and_whole,
];

/// The sample plans, as the workspace is seeded with them.
const SAMPLES: &[&str] = &[
    "account-care",
    "collections",
    "customer-support",
    "daily-routine",
    "medical-intake",
    "vehicle-viewing",
];

/// The smallest a title or label may be on screen.
const LEGIBLE_PX: f64 = 8.0;

/// What the canvas shows, measured in the page: the zoom; each card (its state's id, whether it
/// lies wholly inside the canvas, whether it touches the minimap or the zoom buttons, its title's
/// size on screen); each arrow label (whether it shows, its size on screen, the cards it
/// overlaps).
fn measure(ctx: &Ctx) -> Result<Value, String> {
    ctx.session().execute(
        "const canvas = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
         const zoom = +/scale\\(([-\\d.e]+)\\)/.exec(document.querySelector('.cards').style.transform)[1];
         const overlays = [...document.querySelectorAll('[data-testid=minimap], .zoom-controls')]
             .map(e => e.getBoundingClientRect());
         const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
         const px = (el) => parseFloat(getComputedStyle(el).fontSize) * zoom;
         const boxes = [...document.querySelectorAll('[data-testid=state], [data-testid=interruption]')];
         const cards = boxes.map(e => {
             const r = e.getBoundingClientRect();
             const title = e.querySelector('.card-title, .detour-title');
             return {id: e.dataset.stateId || e.textContent.slice(0, 30),
                 inside: r.left >= canvas.left && r.right <= canvas.right && r.top >= canvas.top && r.bottom <= canvas.bottom,
                 underOverlay: overlays.some(o => meets(r, o)),
                 title: title ? px(title) : 0,
                 handle: (h => h ? h.getBoundingClientRect().width : null)(e.querySelector('.handle'))};
         });
         const cardRects = boxes.map(e => [e.dataset.stateId || 'interruption', e.getBoundingClientRect()]);
         const tags = [...document.querySelectorAll('[data-testid=transition-label]')];
         const labels = tags.map(e => {
             const r = e.getBoundingClientRect();
             return {from: e.dataset.from, index: +e.dataset.index, text: e.textContent,
                 shown: getComputedStyle(e).display !== 'none' && r.width > 0,
                 px: px(e),
                 over: cardRects.filter(([, c]) => meets(r, c)).map(([id]) => id),
                 crosses: tags.filter(o => o !== e && r.width > 0 && meets(r, o.getBoundingClientRect()))
                     .map(o => ({from: o.dataset.from, index: +o.dataset.index, text: o.textContent}))};
         });
         // Every text the cards' layer draws (marks, counts, badges included): its size on screen,
         // whether a word of it wraps inside itself, whether it is cut (clipped or ellipsized).
         const prints = [];
         for (const el of document.querySelectorAll('.cards *')) {
             const own = [...el.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim());
             const r = el.getBoundingClientRect();
             const style = getComputedStyle(el);
             if (!own.length || r.width === 0 || style.visibility === 'hidden') continue;
             // A word may break after a hyphen (\"hand-\" / \"off\"), nowhere else.
             let brokenWord = null;
             for (const node of own) for (const m of node.textContent.matchAll(/[^\\s-]+-?/g)) {
                 const range = document.createRange();
                 range.setStart(node, m.index);
                 range.setEnd(node, m.index + m[0].length);
                 const tops = new Set([...range.getClientRects()].filter(q => q.width > 0.5).map(q => Math.round(q.top)));
                 if (tops.size > 1) brokenWord = m[0];
             }
             const clipped = style.overflow === 'hidden' || style.overflowX === 'hidden';
             prints.push({text: el.textContent.slice(0, 48), cls: String(el.className), px: px(el), brokenWord,
                 cut: clipped && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)});
         }
         return {zoom, cards, labels, prints};",
        json!([]),
    )
}

/// Checks that every card of `plan_id` is on the canvas, clear of its overlays, and that titles and
/// labels are legible and every arrow labelled; says what was measured otherwise.
fn check_readable(ctx: &Ctx, plan_id: &str, when: &str) -> Outcome {
    let plan = plan(ctx, plan_id)?;
    let m = measure(ctx)?;
    let cards = m["cards"].as_array().cloned().unwrap_or_default();
    let labels = m["labels"].as_array().cloned().unwrap_or_default();
    let zoom = m["zoom"].as_f64().unwrap_or(0.0);
    let states = cards.iter().filter(|c| c["id"].is_string()).count();
    ensure!(
        states >= plan.states.len(),
        "{plan_id} {when}: {states} cards drawn of {}",
        plan.states.len()
    )?;
    for c in &cards {
        ensure!(
            c["inside"] == json!(true),
            "{plan_id} {when} at {zoom}: card {} is not wholly on the canvas",
            c["id"]
        )?;
        ensure!(
            c["underOverlay"] == json!(false),
            "{plan_id} {when} at {zoom}: card {} is under the minimap or the zoom buttons",
            c["id"]
        )?;
        // The connect handle: a target of at least 12 px on screen.
        if let Some(handle) = c["handle"].as_f64() {
            ensure!(
                handle >= 11.9,
                "{plan_id} {when} at {zoom}: the connect handle of {} is {handle:.1} px",
                c["id"]
            )?;
        }
        let px = c["title"].as_f64().unwrap_or(0.0);
        ensure!(
            px >= LEGIBLE_PX - 0.01,
            "{plan_id} {when} at {zoom}: the title of {} is {px:.1} px on screen",
            c["id"]
        )?;
    }
    let transitions: usize = plan.states.iter().map(|s| s.transitions.len()).sum();
    ensure!(
        labels.len() == transitions,
        "{plan_id} {when}: {} arrow labels for {transitions} transitions",
        labels.len()
    )?;
    for p in m["prints"].as_array().cloned().unwrap_or_default() {
        let px = p["px"].as_f64().unwrap_or(0.0);
        ensure!(
            px >= LEGIBLE_PX - 0.01,
            "{plan_id} {when} at {zoom}: {:?} ({}) is {px:.1} px on screen",
            p["text"],
            p["cls"]
        )?;
        ensure!(
            p["brokenWord"].is_null(),
            "{plan_id} {when} at {zoom}: {:?} breaks the word {} across lines",
            p["text"],
            p["brokenWord"]
        )?;
        // A card's list of keys may end in "…" (the card's tooltip and inspector say them all);
        // a title, an arrow's label or a mark is never cut.
        ensure!(
            p["cut"] != json!(true) || p["cls"] == json!("card-meta"),
            "{plan_id} {when} at {zoom}: {:?} ({}) is cut",
            p["text"],
            p["cls"]
        )?;
    }
    for l in &labels {
        let px = l["px"].as_f64().unwrap_or(0.0);
        ensure!(
            l["shown"] == json!(true) && px >= LEGIBLE_PX - 0.01,
            "{plan_id} {when} at {zoom}: the label {} is {px:.1} px (shown: {})",
            l["text"],
            l["shown"]
        )?;
        ensure!(
            !l["text"].as_str().unwrap_or("").ends_with('\u{2026}'),
            "{plan_id} {when}: the label {} is cut short",
            l["text"]
        )?;
        ensure!(
            l["over"].as_array().is_none_or(Vec::is_empty),
            "{plan_id} {when} at {zoom}: the label {} lies over {}",
            l["text"],
            l["over"]
        )?;
        // No label lies over another: not a two-way pair's (a step and the way back), not a
        // fan's (a state's routes to a column of states).
        ensure!(
            l["crosses"].as_array().is_none_or(Vec::is_empty),
            "{plan_id} {when} at {zoom}: the label {} lies over {}",
            l["text"],
            l["crosses"]
        )?;
    }
    Ok(())
}

/// Fails naming each arrow label that lies over a card or over another label in the view as it
/// is (a label over a card is cut by it): `what` says which view.
pub(crate) fn labels_apart(ctx: &Ctx, what: &str) -> Outcome {
    let m = measure(ctx)?;
    let labels = m["labels"].as_array().cloned().unwrap_or_default();
    ensure!(!labels.is_empty(), "{what}: no arrow label drawn")?;
    let crowded: Vec<String> = labels
        .iter()
        .filter(|l| {
            l["over"].as_array().is_some_and(|v| !v.is_empty())
                || l["crosses"].as_array().is_some_and(|v| !v.is_empty())
        })
        .map(|l| format!("{} over {} {}", l["text"], l["over"], l["crosses"]))
        .collect();
    ensure!(
        crowded.is_empty(),
        "{what}: labels cut or crowded:\n  {}",
        crowded.join("\n  ")
    )
}

/// Opens `id` from the plan list as an author does, with no Fit pressed, and waits until its view
/// has come to rest.
fn open_as_an_author(ctx: &Ctx, id: &str) -> Outcome {
    let p = plan(ctx, id)?;
    click(ctx, &hooks::plan(id))?;
    ctx.session()
        .wait_until(&format!("plan {id} open"), SHORT, || {
            Ok(text_of(ctx, hooks::PLAN_TITLE)? == p.title
                && count(ctx, hooks::STATE)? == p.states.len())
        })?;
    settle(ctx)
}

/// Waits until the canvas's transform has held still for a moment (an opening view, a Fit, a
/// panel folding are each one change, but not always on the next frame).
fn settle(ctx: &Ctx) -> Outcome {
    let transform = || view_transform(ctx);
    let mut last = transform()?;
    let mut still = 0;
    ctx.session().wait_until("the view to rest", SHORT, || {
        std::thread::sleep(Duration::from_millis(150));
        let now = transform()?;
        still = if now == last { still + 1 } else { 0 };
        last = now;
        Ok(still >= 3)
    })
}

fn every_sample_opens_whole_and_readable(ctx: &Ctx) -> Outcome {
    let mut failed = Vec::new();
    for id in SAMPLES {
        open_as_an_author(ctx, id)?;
        ctx.screenshot(&format!("opened-{id}"))?;
        if let Err(e) = check_readable(ctx, id, "as it opens") {
            failed.push(e);
        }
    }
    ensure(failed.is_empty(), || failed.join("\n"))
}

fn fit_and_auto_layout_keep_the_text_readable(ctx: &Ctx) -> Outcome {
    for id in ["customer-support", "daily-routine"] {
        open_as_an_author(ctx, id)?;
        // Zoomed in, then Fit: the whole plan again, still readable.
        for _ in 0..4 {
            click(ctx, hooks::ZOOM_IN)?;
        }
        click(ctx, hooks::FIT_VIEW)?;
        settle(ctx)?;
        check_readable(ctx, id, "after Fit")?;
        click(ctx, hooks::AUTO_LAYOUT)?;
        settle(ctx)?;
        ctx.screenshot(&format!("auto-layout-{id}"))?;
        check_readable(ctx, id, "after Auto-layout")?;
    }
    Ok(())
}

/// The world point in the middle of the canvas, and the canvas's width.
fn middle(ctx: &Ctx) -> Result<((f64, f64), f64), String> {
    let (x, y, z) = view_transform(ctx)?;
    let v = ctx.session().execute(
        "const c = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
         return [c.width, c.height];",
        json!([]),
    )?;
    let (w, h) = (
        v[0].as_f64().unwrap_or(f64::NAN),
        v[1].as_f64().unwrap_or(f64::NAN),
    );
    Ok((((w / 2.0 - x) / z, (h / 2.0 - y) / z), w))
}

fn folding_a_side_panel_gives_the_canvas_room_and_keeps_its_middle(ctx: &Ctx) -> Outcome {
    open_as_an_author(ctx, "customer-support")?;
    let (centre, width) = middle(ctx)?;
    let kept = |what: &str, before: (f64, f64), after: (f64, f64)| {
        ensure!(
            (before.0 - after.0).abs() < 1.5 && (before.1 - after.1).abs() < 1.5,
            "{what}: the middle of the canvas moved from {before:?} to {after:?}"
        )
    };
    click(ctx, hooks::FOLD_PANEL)?;
    settle(ctx)?;
    let (after, wider) = middle(ctx)?;
    ensure!(
        wider > width + 250.0,
        "the folded panel left the canvas {wider} px wide (was {width})"
    )?;
    ensure!(
        !shown(ctx, hooks::TAB_INSPECT)?,
        "the folded panel still shows its tabs"
    )?;
    kept("the panel folded", centre, after)?;
    click(ctx, hooks::FOLD_SIDE)?;
    settle(ctx)?;
    let (after, widest) = middle(ctx)?;
    ensure!(
        widest > wider + 150.0,
        "the folded sidebar left the canvas {widest} px wide (was {wider})"
    )?;
    kept("the sidebar folded", centre, after)?;
    ctx.screenshot("both-panels-folded")?;
    // Fit now uses the room: the plan is larger on screen than as it opened.
    let opened_zoom = measure(ctx)?["zoom"].as_f64().unwrap_or(0.0);
    click(ctx, hooks::FIT_VIEW)?;
    settle(ctx)?;
    let fitted_zoom = measure(ctx)?["zoom"].as_f64().unwrap_or(0.0);
    ensure!(
        fitted_zoom > opened_zoom * 1.3,
        "Fit with both panels folded: {fitted_zoom}, as opened {opened_zoom}"
    )?;
    check_readable(ctx, "customer-support", "with both panels folded")?;
    // The keyboard unfolds them, and asking for a tab opens the panel.
    ctx.session().chord(&["\u{E009}", "b"])?;
    ctx.session().wait_until("the sidebar back", SHORT, || {
        Ok(count(ctx, hooks::PALETTE_STRICT)? == 1 && shown(ctx, hooks::PALETTE_STRICT)?)
    })?;
    click(ctx, "[data-testid=state][data-state-id='greeting']")?;
    ctx.session().chord(&["\u{E007}"])?;
    ctx.session()
        .wait_until("the inspector open again", SHORT, || {
            shown(ctx, hooks::FIELD_TITLE)
        })?;
    Ok(())
}

/// Whether the first element matching `css` takes up room on the page.
fn shown(ctx: &Ctx, css: &str) -> Result<bool, String> {
    Ok(ctx
        .session()
        .execute(
            "const e = document.querySelector(arguments[0]);
             return !!e && e.getBoundingClientRect().width > 0;",
            json!([css]),
        )?
        .as_bool()
        .unwrap_or(false))
}

/// The window's smallest size (tauri.conf.json's minWidth × minHeight): the top bar's controls,
/// the tabs, the zoom buttons and the minimap all on screen, none over another.
fn the_smallest_window_keeps_everything_on_screen_and_apart(ctx: &Ctx) -> Outcome {
    ctx.session().set_window_size(1024, 640)?;
    ctx.session()
        .wait_until("the window at 1024 × 640", SHORT, || {
            let v = ctx
                .session()
                .execute("return [window.innerWidth, window.innerHeight];", json!([]))?;
            Ok(v[0].as_f64() == Some(1024.0) && v[1].as_f64() == Some(640.0))
        })?;
    // Not all of the plan is drawn where it opens in so small a canvas: its title is enough.
    click(ctx, &hooks::plan("customer-support"))?;
    ctx.session().wait_until("the plan open", SHORT, || {
        Ok(text_of(ctx, hooks::PLAN_TITLE)? == "Customer support")
    })?;
    settle(ctx)?;
    let found = ctx.session().execute(
        "const inside = (r) => r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
         const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
         const shown = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
         const name = (e) => e.dataset.testid || e.className || e.tagName;
         const groups = [
             [...document.querySelectorAll('.topbar > *, .topbar .toolbar > *')].filter(shown)
                 .filter(e => !e.classList.contains('toolbar')),
             [...document.querySelectorAll('.tabs > button')].filter(shown),
             [...document.querySelectorAll('[data-testid=minimap], .zoom-controls, .fold-toggle')].filter(shown),
             [...document.querySelectorAll('.statusbar > *')].filter(shown),
         ];
         const problems = [];
         for (const g of groups) {
             for (const e of g) {
                 if (!inside(e.getBoundingClientRect())) problems.push(`${name(e)} is off screen`);
             }
             for (let i = 0; i < g.length; i++) for (let j = i + 1; j < g.length; j++) {
                 if (meets(g[i].getBoundingClientRect(), g[j].getBoundingClientRect()))
                     problems.push(`${name(g[i])} overlaps ${name(g[j])}`);
             }
         }
         return {problems, counted: groups.map(g => g.length)};",
        json!([]),
    )?;
    ctx.screenshot("window-1024x640")?;
    let problems = found["problems"].as_array().cloned().unwrap_or_default();
    ensure!(
        problems.is_empty(),
        "at 1024 × 640: {problems:?} (elements checked: {})",
        found["counted"]
    )?;
    ensure!(
        found["counted"][0].as_u64().unwrap_or(0) >= 8,
        "the top bar's controls were not found: {}",
        found["counted"]
    )?;
    // Every state reachable: the plan is on screen where it opens, and Fit shows it whole.
    click(ctx, hooks::FIT_VIEW)?;
    settle(ctx)?;
    let m = measure(ctx)?;
    let cards = m["cards"].as_array().cloned().unwrap_or_default();
    ensure!(
        cards.len() == 6 && cards.iter().all(|c| c["inside"] == json!(true)),
        "after Fit at 1024 × 640: {cards:?}"
    )
}

/// A plan written by hand or by another tool carries no positions: it opens laid out, then fitted,
/// as the samples do: every card wholly on the canvas and readable.
fn a_plan_without_saved_positions_opens_laid_out_and_whole(ctx: &Ctx) -> Outcome {
    for id in ["daily-routine", "customer-support"] {
        let mut without = plan(ctx, id)?;
        without.layout.clear();
        let text = serde_json::to_string_pretty(&without).map_err(|e| e.to_string())?;
        std::fs::write(plan_tests::page::draft(ctx, id), text).map_err(|e| e.to_string())?;
    }
    ctx.relaunch()?;
    for id in ["daily-routine", "customer-support"] {
        open_as_an_author(ctx, id)?;
        ctx.screenshot(&format!("opened-without-positions-{id}"))?;
        check_readable(ctx, id, "opened without saved positions")?;
    }
    Ok(())
}

/// The newcomer's Pizza order as it stands after a few edits: two arrows between the same two
/// cards twice over (Order to Address, Confirm to Order placed, the second one added for the
/// caller's "no"), and a tool whose name and codes are long identifiers. Opened as written (no
/// positions), every label apart from the others and from the cards, none cut, no word broken.
/// Then two cards pushed together by the author: the label with no room left is drawn over the
/// cards, whole.
fn parallel_arrows_and_long_names_read_apart_and_whole(ctx: &Ctx) -> Outcome {
    let pizza = json!({"id": "pizza-order", "title": "Pizza order",
    "tools": [{"name": "verify_identity_of_caller", "description": "Checks the caller's account",
       "response_codes": ["CUSTOMER_VERIFIED", "CUSTOMER_NOT_FOUND"]}],
    "states": [
      {"id": "order", "title": "Order", "type": "strict", "instructions": "Take the order.",
       "tasks": [{"id": "take_order", "description": "Take the order.",
         "deliverables": [{"key": "pizza_size", "type": "enum", "enum_values": ["small", "medium", "large"]}]}],
       "transitions": [
         {"target_state_id": "address", "condition_type": "deliverable_exists",
          "condition_config": {"key": "pizza_size"}},
         {"target_state_id": "address", "priority": 2, "condition_type": "turn_count_exceeded",
          "condition_config": {"turns": 4}}]},
      {"id": "address", "title": "Address", "type": "loose", "instructions": "Ask where to deliver.",
       "allowed_tools": ["verify_identity_of_caller"],
       "tasks": [{"id": "get_address", "description": "Get the address.",
         "deliverables": [{"key": "delivery_address", "type": "string"}]}],
       "transitions": [
         {"target_state_id": "confirm", "condition_type": "tool_result",
          "condition_config": {"tool": "verify_identity_of_caller", "response_code": "CUSTOMER_VERIFIED"}},
         {"target_state_id": "sorry", "condition_type": "tool_result",
          "condition_config": {"tool": "verify_identity_of_caller", "response_code": "CUSTOMER_NOT_FOUND"}}]},
      {"id": "confirm", "title": "Confirm", "type": "loose", "instructions": "Read the order back.",
       "tasks": [{"id": "confirm_order", "description": "Confirm the order.",
         "deliverables": [{"key": "order_confirmed", "type": "boolean"}]}],
       "transitions": [
         {"target_state_id": "placed", "condition_type": "deliverable_value",
          "condition_config": {"key": "order_confirmed", "value": true}},
         {"target_state_id": "placed", "priority": 2, "condition_type": "deliverable_value",
          "condition_config": {"key": "order_confirmed", "value": false}}]},
      {"id": "sorry", "title": "No account found", "ending": {"kind": "hand_off", "to": "the shop", "reason": "no account"}},
      {"id": "placed", "title": "Order placed"}]});
    let folder = ctx.workspace().join("pizza-order");
    std::fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
    let text = serde_json::to_string_pretty(&pizza).map_err(|e| e.to_string())?;
    std::fs::write(folder.join("draft.json"), text).map_err(|e| e.to_string())?;
    ctx.relaunch()?;
    open_as_an_author(ctx, "pizza-order")?;
    ctx.screenshot("pizza-parallel-labels")?;
    check_readable(ctx, "pizza-order", "as it opens")?;

    // Pushed up against Address by the author (four Shift+← of 48 units each), Confirm leaves
    // the arrow between them no room for its label: the label is drawn over the cards, whole.
    select_state(ctx, "confirm")?;
    plan_tests::keys::wait_focus(ctx, "Confirm's card", &hooks::state("confirm"))?;
    for _ in 0..4 {
        press(ctx, &[SHIFT, LEFT])?;
    }
    let label = "[data-testid=transition-label][data-from=address][data-index='0']";
    ctx.session()
        .wait_until("the label drawn over the cards", SHORT, || {
            Ok(count(ctx, &format!("{label}[data-over-card=true]"))? == 1)
        })?;
    ctx.screenshot("pizza-label-over-cards-pushed-together")?;
    let whole = ctx.session().execute(
        "const e = document.querySelector(arguments[0]);
         const r = e.getBoundingClientRect();
         const y = r.top + r.height / 2;
         return [r.left + 3, r.left + r.width / 2, r.right - 3].map(x => {
             const at = document.elementFromPoint(x, y);
             return !!at && (at === e || e.contains(at));
         });",
        json!([label]),
    )?;
    ensure!(
        whole == json!([true, true, true]),
        "the label over the cards is covered at its left, middle, right: {whole}"
    )?;
    plan_tests::axe::check(ctx, "a label drawn over cards pushed together")
}
