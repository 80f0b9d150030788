//! End-to-end tests of an author's first hour (issues 29 and 30) in the real app at 1280×800: new
//! states land beside the work and never on another card, no gesture paints a text selection, the
//! first start welcomes once, and a plan file opened from the file manager shows its plan.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::time::Duration;

use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::page::{
    arrow_middle, centre, click, count, ensure_count, open_plan, reachable_point, shows, text_of,
    value_of, Outcome,
};
use plan_tests::{Ctx, Test, SHORT};
use serde_json::{json, Value};

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    new_states_land_beside_the_work_never_on_a_card_and_wholly_on_screen,
    an_arrow_let_go_on_the_empty_canvas_offers_a_connected_state_there,
    a_problem_is_said_and_marked_at_its_field_and_the_problems_list_leads_there,
    a_new_state_takes_its_id_from_its_title_and_the_id_waits_under_advanced,
    the_first_start_welcomes_with_three_ways_in_and_never_again_once_dismissed,
    a_plan_file_opened_from_outside_the_app_shows_its_plan,
];

/// The canvas by pointer and keys: a module of its own.
pub mod pointer_and_keys;

/// A card's box on screen: its state's id, left, top, right, bottom.
type CardBox = (String, f64, f64, f64, f64);

/// A point of the screen, in pixels.
type Point = (i64, i64);

/// Every card's box on screen.
fn card_boxes(ctx: &Ctx) -> Result<Vec<CardBox>, String> {
    let v = ctx.session().execute(
        "return [...document.querySelectorAll('[data-testid=state]')].map(e => { \
           const r = e.getBoundingClientRect(); \
           return [e.dataset.stateId, r.left, r.top, r.right, r.bottom]; })",
        json!([]),
    )?;
    let rows = v.as_array().cloned().unwrap_or_default();
    Ok(rows
        .iter()
        .map(|r| {
            let n = |i: usize| r[i].as_f64().unwrap_or(0.0);
            (
                r[0].as_str().unwrap_or("").to_string(),
                n(1),
                n(2),
                n(3),
                n(4),
            )
        })
        .collect())
}

/// The canvas's box on screen: left, top, right, bottom.
fn canvas_box(ctx: &Ctx) -> Result<(f64, f64, f64, f64), String> {
    let v = ctx.session().execute(
        "const r = document.querySelector('[data-testid=canvas]').getBoundingClientRect(); \
         return [r.left, r.top, r.right, r.bottom];",
        json!([]),
    )?;
    let n = |i: usize| v[i].as_f64().unwrap_or(0.0);
    Ok((n(0), n(1), n(2), n(3)))
}

/// The pairs of cards whose boxes overlap.
fn overlapping(boxes: &[CardBox]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            if a.1 < b.3 && b.1 < a.3 && a.2 < b.4 && b.2 < a.4 {
                out.push((a.0.clone(), b.0.clone()));
            }
        }
    }
    out
}

fn new_ids(before: &[CardBox], now: &[CardBox]) -> Vec<String> {
    now.iter()
        .filter(|b| !before.iter().any(|a| a.0 == b.0))
        .map(|b| b.0.clone())
        .collect()
}

fn new_states_land_beside_the_work_never_on_a_card_and_wholly_on_screen(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    let before = card_boxes(ctx)?;
    ensure!(
        overlapping(&before).is_empty(),
        "the sample opens with cards on cards"
    )?;
    // Three from the palette with a card selected: each goes right of the one before it.
    click(ctx, &format!("{} .card-title", hooks::state("greeting")))?;
    for n in 1..=3 {
        click(ctx, hooks::PALETTE_LOOSE)?;
        ctx.session().wait_until("the new state", SHORT, || {
            Ok(count(ctx, hooks::STATE)? == before.len() + n)
        })?;
    }
    // Two by double-click: one near the canvas's right edge, one on the middle of the view.
    let (left, top, right, bottom) = canvas_box(ctx)?;
    let at = |p: (i64, i64)| json!({"type": "pointerMove", "duration": 0, "x": p.0, "y": p.1, "origin": "viewport"});
    let (down, up) = (
        json!({"type": "pointerDown", "button": 0}),
        json!({"type": "pointerUp", "button": 0}),
    );
    for (n, point) in [
        (4, ((right - 30.0) as i64, ((top + bottom) / 2.0) as i64)),
        (5, (((left + right) / 2.0) as i64, (bottom - 40.0) as i64)),
    ] {
        // Only on empty canvas: find the nearest point that is background.
        let p = background_near(ctx, point)?;
        ctx.session().actions(
            json!([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [at(p), down.clone(), up.clone(), down.clone(), up.clone()]}]),
        )?;
        ctx.session()
            .wait_until("a state made by double-click", SHORT, || {
                Ok(count(ctx, hooks::STATE)? == before.len() + n)
            })?;
    }
    std::thread::sleep(Duration::from_millis(300));
    ctx.screenshot("new-states-placed")?;
    let now = card_boxes(ctx)?;
    let added = new_ids(&before, &now);
    ensure!(added.len() == 5, "5 new states, found {added:?}")?;
    let overlaps = overlapping(&now);
    ensure!(overlaps.is_empty(), "cards on cards: {overlaps:?}")?;
    for id in &added {
        let b = now.iter().find(|b| &b.0 == id).expect("listed");
        ensure!(
            b.1 >= left && b.2 >= top && b.3 <= right && b.4 <= bottom,
            "{id} is not wholly on the canvas: {b:?} in {:?}",
            (left, top, right, bottom)
        )?;
    }
    // The palette's three went right of the card selected before each, in a row.
    let greeting = now.iter().find(|b| b.0 == "greeting").expect("greeting");
    let first = now.iter().find(|b| b.0 == added[0]).expect("first");
    ensure!(
        first.1 > greeting.3 && (first.2 - greeting.2).abs() < 3.0 * (greeting.4 - greeting.2),
        "the first palette state is not right of the selected card: {first:?} vs {greeting:?}"
    )
}

fn an_arrow_let_go_on_the_empty_canvas_offers_a_connected_state_there(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    let before = card_boxes(ctx)?;
    let farewell = centre(ctx, &hooks::state("farewell"))?;
    // Hovering the card shows its handle; the arrow is let go on the empty canvas below it.
    ctx.session().actions(json!([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [{"type": "pointerMove", "duration": 0, "x": farewell.0, "y": farewell.1, "origin": "viewport"}]}]))?;
    let handle = reachable_point(ctx, &format!("{} .handle", hooks::state("farewell")))?;
    let drop = background_near(ctx, (farewell.0, farewell.1 + 150))?;
    ctx.session().drag(handle, drop, 8)?;
    ctx.session()
        .wait_until("the menu where the arrow was let go", SHORT, || {
            Ok(count(
                ctx,
                "[data-testid=context-menu] [data-testid=menu-add-goal]",
            )? == 1)
        })?;
    ensure_count(
        ctx,
        "[data-testid=context-menu] button",
        6,
        "the menu does not offer a state of each of the six modes",
    )?;
    ctx.screenshot("dropped-arrow-menu")?;
    click(ctx, hooks::MENU_ADD_GOAL)?;
    ctx.session().wait_until("the new state", SHORT, || {
        Ok(count(ctx, hooks::STATE)? == before.len() + 1)
    })?;
    std::thread::sleep(Duration::from_millis(200));
    let now = card_boxes(ctx)?;
    let added = new_ids(&before, &now);
    ensure!(added.len() == 1, "one new state, found {added:?}")?;
    let overlaps = overlapping(&now);
    ensure!(overlaps.is_empty(), "cards on cards: {overlaps:?}")?;
    let (left, top, right, bottom) = canvas_box(ctx)?;
    let b = now.iter().find(|b| b.0 == added[0]).expect("listed");
    ensure!(
        b.1 >= left && b.2 >= top && b.3 <= right && b.4 <= bottom,
        "the new state is not wholly on the canvas: {b:?}"
    )?;
    // Near where the arrow was let go, and entered from Farewell by a new transition: one edit,
    // which one undo takes back whole.
    let (cx, cy) = ((b.1 + b.3) / 2.0, (b.2 + b.4) / 2.0);
    ensure!(
        (cx - drop.0 as f64).abs() < 200.0 && (cy - drop.1 as f64).abs() < 200.0,
        "the new state is at {cx},{cy}, the arrow was let go at {drop:?}"
    )?;
    plan_tests::page::wait_saved(ctx)?;
    let plan = plan_tests::page::plan(ctx, "customer-support")?;
    let out = plan.state("farewell").ok_or("no farewell")?;
    ensure!(
        out.transitions
            .iter()
            .any(|t| t.target_state_id == added[0]),
        "farewell does not lead to {}: {:?}",
        added[0],
        out.transitions
    )?;
    ensure!(
        plan.state(&added[0]).map(|s| s.kind) == Some(plan_core::StateType::Goal),
        "the new state is not a goal state"
    )?;
    ctx.screenshot("dropped-arrow-state")?;
    click(ctx, hooks::UNDO)?;
    ctx.session()
        .wait_until("one undo taking it all back", SHORT, || {
            Ok(count(ctx, hooks::STATE)? == before.len())
        })?;
    plan_tests::page::wait_saved(ctx)?;
    let plan = plan_tests::page::plan(ctx, "customer-support")?;
    ensure!(
        plan.state("farewell")
            .is_some_and(|s| s.transitions.iter().all(|t| t.target_state_id != added[0])),
        "the undo left the transition"
    )
}

fn a_problem_is_said_and_marked_at_its_field_and_the_problems_list_leads_there(
    ctx: &Ctx,
) -> Outcome {
    open_plan(ctx, "customer-support")?;
    click(
        ctx,
        &format!("{} .card-title", hooks::state("customer-intake")),
    )?;
    // The second value of the first task (account_number) made a choice, with no choices yet.
    let row = "[data-testid=deliverable][data-task-index=\"0\"][data-deliverable-index=\"1\"]";
    plan_tests::page::set_value(
        ctx,
        &format!("{row} [data-testid=field-deliverable-type]"),
        "enum",
    )?;
    let choices = format!("{row} [data-testid=field-enum-values]");
    ctx.session()
        .wait_until("the choices field marked", SHORT, || {
            Ok(count(ctx, &format!("{choices}.invalid[aria-invalid=true]"))? == 1)
        })?;
    let said = text_of(ctx, &format!("{row} [data-testid=field-problem]"))?;
    ensure!(
        said.contains("account_number") && said.contains("choices"),
        "under the choices field: {said:?}"
    )?;
    // Only that row: the first value's fields are not marked.
    ensure_count(
        ctx,
        "[data-testid=deliverable][data-deliverable-index=\"0\"] .invalid",
        0,
        "another value's field is marked too",
    )?;
    // From the Problems tab, the problem leads to that very field, focused.
    click(ctx, hooks::TAB_PROBLEMS)?;
    click(ctx, hooks::PROBLEM)?;
    ctx.session()
        .wait_until("the choices field focused", SHORT, || {
            Ok(ctx
                .session()
                .execute(
                    "return document.activeElement === document.querySelector(arguments[0]);",
                    json!([choices]),
                )?
                .as_bool()
                == Some(true))
        })?;
    ctx.screenshot("problem-at-its-field")?;
    // Choices given: the mark and the words go.
    plan_tests::page::set_value(ctx, &choices, "card, cash")?;
    ctx.session().wait_until("the mark gone", SHORT, || {
        Ok(count(
            ctx,
            &format!("{row} .invalid, {row} [data-testid=field-problem]"),
        )? == 0)
    })
}

fn a_new_state_takes_its_id_from_its_title_and_the_id_waits_under_advanced(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    click(ctx, &format!("{} .card-title", hooks::state("farewell")))?;
    click(ctx, hooks::PALETTE_STRICT)?;
    ctx.session()
        .wait_until("the new state selected", SHORT, || {
            Ok(count(
                ctx,
                &format!("{}[data-selected=true]", hooks::state("new-state")),
            )? == 1)
        })?;
    // The id is not the first thing asked: it waits, folded, under Advanced.
    let id_shown = |ctx: &Ctx| -> Result<bool, String> {
        Ok(ctx
            .session()
            .execute(
                "const e = document.querySelector('[data-testid=field-id]');
                 return !!e && e.getBoundingClientRect().height > 0;",
                json!([]),
            )?
            .as_bool()
            == Some(true))
    };
    ensure!(
        !id_shown(ctx)?,
        "the id field shows before Advanced is opened"
    )?;
    // The state is named as it is added: its title field has the focus, its text selected, so
    // the first keys typed replace it.
    ctx.session()
        .wait_until("the title field focused with its text selected", SHORT, || {
            Ok(ctx.session().execute(
                "const e = document.activeElement;
                 return !!e && e.dataset.testid === 'field-title'
                     && e.value.length > 0 && e.selectionStart === 0 && e.selectionEnd === e.value.length;",
                json!([]),
            )? == json!(true))
        })?;
    plan_tests::page::type_text(ctx, hooks::FIELD_TITLE, "Order details?")?;
    ctx.session()
        .wait_until("the state renamed after its title", SHORT, || {
            Ok(count(ctx, &hooks::state("order-details"))? == 1
                && count(ctx, &hooks::state("new-state"))? == 0)
        })?;
    click(ctx, hooks::ADVANCED_TOGGLE)?;
    ctx.session()
        .wait_until("the id under Advanced", SHORT, || id_shown(ctx))?;
    ensure!(
        value_of(ctx, hooks::FIELD_ID)? == "order-details",
        "the Advanced id field does not say order-details"
    )?;
    ctx.screenshot("id-from-title")?;
    // Not yet published, the id follows a corrected title too (what happens once the plan is
    // published: `pizza.rs`).
    plan_tests::page::type_text(ctx, hooks::FIELD_TITLE, "Order")?;
    ctx.session()
        .wait_until("the id following the second title", SHORT, || {
            Ok(count(ctx, &hooks::state("order"))? == 1
                && count(ctx, &hooks::state("order-details"))? == 0)
        })?;
    // An emptied title is refused at the field: the state keeps its name, and says so there.
    let el = ctx.session().wait_for(hooks::FIELD_TITLE, SHORT)?;
    ctx.session().click(&el)?;
    ctx.session().chord(&[plan_tests::page::CTRL, "a"])?;
    ctx.session().send_keys(&el, plan_tests::page::DELETE)?;
    ctx.session().send_keys(&el, plan_tests::page::TAB)?;
    shows(
        ctx,
        "the refusal under the title",
        hooks::FIELD_ERROR,
        SHORT,
    )?;
    let said = text_of(ctx, hooks::FIELD_ERROR)?;
    ensure!(
        said.contains("A state needs a name") && said.contains("Order"),
        "the refusal says {said:?}"
    )?;
    ensure!(
        value_of(ctx, hooks::FIELD_TITLE)? == "Order",
        "the title field does not show the name kept"
    )?;
    ctx.screenshot("empty-title-refused")?;
    plan_tests::page::wait_saved(ctx)?;
    let plan = plan_tests::page::plan(ctx, "customer-support")?;
    ensure!(
        plan.state("order").map(|s| s.title.as_str()) == Some("Order"),
        "the draft on disk does not hold order titled Order"
    )
}

/// The first start (no welcome mark in the config folder) greets with what a plan is and three
/// ways in; a sample picked there opens; the app started again does not greet.
fn the_first_start_welcomes_with_three_ways_in_and_never_again_once_dismissed(
    ctx: &Ctx,
) -> Outcome {
    let mark = ctx.harness.welcome_mark();
    std::fs::remove_file(&mark).map_err(|e| format!("{}: {e}", mark.display()))?;
    let outcome = (|| {
        ctx.relaunch()?;
        ctx.session().wait_for(hooks::WELCOME, SHORT)?;
        let text = text_of(ctx, hooks::WELCOME)?;
        ensure!(
            text.contains("A plan is how an AI agent holds a conversation"),
            "the welcome does not say what a plan is: {text}"
        )?;
        let samples = count(ctx, hooks::WELCOME_SAMPLE)?;
        ensure!(samples == 6, "{samples} samples offered, not 6")?;
        for way in ["welcome-blank", "welcome-import", "welcome-close"] {
            ensure!(
                count(ctx, &format!("[data-testid={way}]"))? == 1,
                "no {way} in the welcome"
            )?;
        }
        ctx.screenshot("welcome")?;
        click(ctx, "[data-testid=welcome-sample][data-id=vehicle-viewing]")?;
        ctx.session().wait_until("the sample to open", SHORT, || {
            Ok(count(ctx, hooks::WELCOME)? == 0
                && text_of(ctx, hooks::PLAN_TITLE)?.contains("viewing"))
        })?;
        ctx.session()
            .wait_until("the welcome to be kept as dismissed", SHORT, || {
                Ok(mark.exists())
            })?;
        ctx.relaunch()?;
        std::thread::sleep(Duration::from_millis(1500));
        ensure!(
            count(ctx, hooks::WELCOME)? == 0,
            "the welcome came back after it was dismissed"
        )
    })();
    // The other tests run without it, whatever happened here.
    ctx.harness.dismiss_welcome()?;
    outcome
}

/// `plan-builder FILE`, as a file manager's "Open with" starts it: a plan file from elsewhere
/// becomes a new plan of the workspace and is the one shown; the same file opened again shows
/// that plan without a second copy.
fn a_plan_file_opened_from_outside_the_app_shows_its_plan(ctx: &Ctx) -> Outcome {
    let outside = ctx
        .harness
        .out()
        .join(format!("downloads-{}", std::process::id()));
    std::fs::create_dir_all(&outside).map_err(|e| e.to_string())?;
    let draft = ctx.workspace().join("daily-routine").join("draft.json");
    let text = std::fs::read_to_string(&draft).map_err(|e| format!("{}: {e}", draft.display()))?;
    let text = text
        .replace("\"id\": \"daily-routine\"", "\"id\": \"pizza-order\"")
        .replacen("\"title\": \"", "\"title\": \"Pizza order: ", 1);
    let file = outside.join("pizza.plan.json");
    std::fs::write(&file, text).map_err(|e| e.to_string())?;
    let workspace = ctx.workspace().to_str().ok_or("not UTF-8")?.to_string();
    let file = file.to_str().ok_or("not UTF-8")?.to_string();
    for _ in 0..2 {
        ctx.relaunch_with(&["--workspace", &workspace, &file])?;
        ctx.session()
            .wait_until("the opened file's plan to show", SHORT, || {
                Ok(text_of(ctx, hooks::PLAN_TITLE)?.starts_with("Pizza order"))
            })
            .map_err(|e| {
                // Why the file was not shown, if the window said it.
                let told = text_of(ctx, hooks::NOTICE).unwrap_or_default();
                format!("{e}; the window's notice: {told:?}")
            })?;
        let copies = std::fs::read_dir(ctx.workspace())
            .map_err(|e| e.to_string())?
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("pizza-order"))
            .count();
        ensure!(
            copies == 1,
            "{copies} copies of the opened file in the workspace"
        )?;
    }
    ctx.screenshot("opened-from-file-manager")?;
    // A file that is not a plan: the window opens on the workspace and says why, naming the file.
    let broken = outside.join("notes.plan.json");
    std::fs::write(&broken, "{ \"id\": ").map_err(|e| e.to_string())?;
    let broken = broken.to_str().ok_or("not UTF-8")?.to_string();
    ctx.relaunch_with(&["--workspace", &workspace, &broken])?;
    ctx.session()
        .wait_until("the window to say why the file is not shown", SHORT, || {
            Ok(text_of(ctx, hooks::NOTICE)?.contains("notes.plan.json"))
        })?;
    ensure!(
        count(ctx, hooks::STATE)? > 0,
        "no plan shown beside the notice"
    )?;
    ctx.screenshot("unopened-file-told")?;
    Ok(())
}

/// A point near `p` where the canvas's background is what the pointer hits.
fn background_near(ctx: &Ctx, p: (i64, i64)) -> Result<(i64, i64), String> {
    let v: Value = ctx.session().execute(
        "const [x0, y0] = arguments; \
         for (let r = 0; r < 400; r += 12) for (const [dx, dy] of [[0,0],[-r,0],[0,-r],[0,r],[r,0]]) { \
           const e = document.elementFromPoint(x0 + dx, y0 + dy); \
           if (e && (e.dataset.testid === 'canvas' || e.classList.contains('arrows') || e.classList.contains('cards'))) return [x0 + dx, y0 + dy]; } \
         return null;",
        json!([p.0, p.1]),
    )?;
    let x = v[0].as_i64().ok_or("no empty canvas near the point")?;
    let y = v[1].as_i64().ok_or("no empty canvas near the point")?;
    Ok((x, y))
}
