//! A plan without a pointer (issue 44), in the real app: the "Pizza order" built, connected,
//! given conditions, tried in the test chat and published with keys only (WebDriver key actions,
//! not one pointer action), then read back from disk and compared with the plan meant; F6 round
//! the window's regions; the Menu key's menu; the focus after a delete and an undo; an arrow
//! checked earlier or later (`{`, `}`, the menu, the inspector).
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::fs;

use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::keys::{
    choose, focus_is, focused, press, retype, tab_to, type_keys, wait_focus, CTRL, DELETE, DOWN,
    ENTER, ESCAPE, F10, F6, RIGHT, SHIFT,
};
use plan_tests::page::{click, count, gone, open_plan, text_of, Outcome};
use plan_tests::{Ctx, Test, SHORT};

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    f6_reaches_a_card_the_menu_key_opens_its_menu_and_the_focus_outlives_a_move_a_delete_and_an_undo,
    a_session_states_chip_limits_an_evaluation_from_the_keyboard,
    the_pizza_order_is_built_tried_and_published_with_keys_only,
    braces_the_menu_and_the_inspector_change_the_order_arrows_are_checked_in,
];

/// Where the focus is in the window: the region's name, else "none".
fn region(ctx: &Ctx) -> Result<String, String> {
    let v = ctx.session().execute(
        "const r = document.activeElement && document.activeElement.closest('[data-region]'); \
         return r ? r.dataset.region : 'none';",
        serde_json::json!([]),
    )?;
    Ok(v.as_str().unwrap_or("none").to_string())
}

/// Delete on what has the focus: one fewer `items`, the focus then on `then`; Ctrl+Z brings it
/// back and the focus stays on a card.
fn deleted_and_back(ctx: &Ctx, items: &str, then: &str) -> Outcome {
    let before = count(ctx, items)?;
    press(ctx, &[DELETE])?;
    ctx.session()
        .wait_until("the delete", SHORT, || Ok(count(ctx, items)? == before - 1))?;
    wait_focus(ctx, "the focus after the delete", then)?;
    press(ctx, &[CTRL, "z"])?;
    ctx.session()
        .wait_until("the undo", SHORT, || Ok(count(ctx, items)? == before))?;
    std::thread::sleep(std::time::Duration::from_millis(300));
    ensure!(
        focus_is(ctx, hooks::STATE)?,
        "after the undo the focus is on {}",
        focused(ctx).unwrap_or_default()
    )
}

fn f6_reaches_a_card_the_menu_key_opens_its_menu_and_the_focus_outlives_a_move_a_delete_and_an_undo(
    ctx: &Ctx,
) -> Outcome {
    open_plan(ctx, "customer-support")?;
    // From a text field of the panel, F6 goes on to the toolbar, the plans, then the canvas: a
    // card, three presses.
    click(ctx, hooks::TAB_PROBLEMS)?;
    click(ctx, hooks::TAB_INSPECT)?;
    tab_to(ctx, "[data-region=panel] input", false, 30)?;
    let mut seen = vec![region(ctx)?];
    for _ in 0..4 {
        if focus_is(ctx, hooks::STATE)? {
            break;
        }
        press(ctx, &[F6])?;
        std::thread::sleep(std::time::Duration::from_millis(150));
        seen.push(region(ctx)?);
    }
    ensure!(
        seen == ["panel", "toolbar", "plans", "canvas"],
        "F6 went through {seen:?}"
    )?;
    wait_focus(ctx, "the start state's card", &card("greeting"))?;
    // Shift+F6 goes back the other way round.
    press(ctx, &[SHIFT, F6])?;
    ensure!(region(ctx)? == "plans", "Shift+F6 from the canvas")?;
    press(ctx, &[F6])?;
    wait_focus(ctx, "the card again", &card("greeting"))?;

    // The Menu key's menu: its first item focused, ↓ to the next, Escape back to the card.
    press(ctx, &[SHIFT, F10])?;
    wait_focus(ctx, "the menu's first item", hooks::MENU_RENAME)?;
    press(ctx, &[DOWN])?;
    wait_focus(ctx, "the menu's second item", hooks::MENU_CONNECT)?;
    ctx.screenshot("keyboard-menu-focus")?;
    let words = text_of(ctx, hooks::CONTEXT_MENU)?;
    ensure!(
        words.contains("Delete") && words.contains("C"),
        "the menu shows its keys: {words:?}"
    )?;
    press(ctx, &[ESCAPE])?;
    wait_focus(ctx, "the card after Escape", &card("greeting"))?;
    ensure!(count(ctx, hooks::CONTEXT_MENU)? == 0, "the menu stayed")?;

    // Moved by an arrow key, the card is drawn anew and keeps the focus.
    press(ctx, &[RIGHT])?;
    std::thread::sleep(std::time::Duration::from_millis(300));
    wait_focus(ctx, "the moved card", &card("greeting"))?;

    // ] selects its arrow and focuses it; Delete removes it, the focus back on its card; Ctrl+Z.
    press(ctx, &["]"])?;
    wait_focus(
        ctx,
        "the arrow's label",
        "[data-testid=transition-label][data-from=greeting]",
    )?;
    ctx.session()
        .wait_for(hooks::TRANSITION_INSPECTOR, SHORT)
        .map_err(|e| e.to_string())?;
    let said = ctx.session().execute(
        "return document.activeElement.getAttribute('aria-label') || '';",
        serde_json::json!([]),
    )?;
    let said = said.as_str().unwrap_or_default().to_string();
    ensure!(
        said.contains(". Arrow 1 of ") && said.contains("from Greeting to "),
        "the arrow says {said:?}"
    )?;
    deleted_and_back(ctx, hooks::TRANSITION, &card("greeting"))?;

    // A card deleted: the focus goes to the nearest card left; Ctrl+Z brings the card back.
    deleted_and_back(ctx, hooks::STATE, hooks::STATE)?;
    // What a screen reader hears of a card it is on: its arrows, where they go and when.
    let said = ctx.session().execute(
        "return document.activeElement.getAttribute('aria-label') || '';",
        serde_json::json!([]),
    )?;
    let said = said.as_str().unwrap_or_default().to_string();
    ensure!(said.contains(" out: to "), "the card says {said:?}")
}

/// Seed 001's edge drawn from the keyboard: Tab to a session state's chip, C, part of an
/// evaluation's name, Enter; `]` selects the edge, Delete removes it, Ctrl+Z brings it back.
fn a_session_states_chip_limits_an_evaluation_from_the_keyboard(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "account-care")?;
    press(ctx, &[F6])?;
    to_canvas(ctx)?;
    tab_to(ctx, &hooks::session_chip("upsell"), false, 40)?;
    ctx.screenshot("keyboard-chip-focus")?;
    press(ctx, &["c"])?;
    wait_focus(ctx, "the picker", hooks::CONNECT_INPUT)?;
    type_keys(ctx, "polite")?;
    press(ctx, &[ENTER])?;
    let scope = format!(
        "{} [data-testid=evaluation-scope]",
        hooks::evaluation_card("polite")
    );
    ctx.session()
        .wait_until("the card says when it is asked", SHORT, || {
            Ok(text_of(ctx, &scope)? == "Only while Offer a bigger plan is on")
        })?;
    wait_focus(ctx, "the chip again", &hooks::session_chip("upsell"))?;
    let edge = hooks::limit("upsell", "polite");
    ctx.session()
        .wait_for(&format!("{edge}[data-selected=true]"), SHORT)
        .map_err(|e| e.to_string())?;
    press(ctx, &[ESCAPE])?;
    press(ctx, &["]"])?;
    ctx.session()
        .wait_for(&format!("{edge}[data-selected=true]"), SHORT)
        .map_err(|e| e.to_string())?;
    press(ctx, &[DELETE])?;
    gone(ctx, "the edge deleted", &edge, SHORT)?;
    press(ctx, &[CTRL, "z"])?;
    ctx.session()
        .wait_until("the edge back", SHORT, || Ok(count(ctx, &edge)? == 1))
}

/// What the window said last: the status line's message, which the live region reads out (the
/// live region itself may already say "Saved" after it).
fn said(ctx: &Ctx) -> Result<String, String> {
    Ok(format!(
        "{} {}",
        text_of(ctx, hooks::NOTICE).unwrap_or_default(),
        text_of(ctx, hooks::ANNOUNCER)?
    ))
}

/// The label of arrow `index` of `from`.
fn label(from: &str, index: usize) -> String {
    format!("[data-testid=transition-label][data-from={from}][data-index=\"{index}\"]")
}

/// Where state `id`'s arrows go, in the order the runtime checks them, as saved on disk.
fn checked_targets(ctx: &Ctx, plan: &str, id: &str) -> Result<Vec<String>, String> {
    let path = ctx.workspace().join(plan).join("draft.json");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let draft: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let state = draft["states"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["id"] == id))
        .ok_or_else(|| format!("no state {id} in the draft"))?;
    let mut arrows: Vec<(f64, usize, String)> = state["transitions"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                t["priority"].as_f64().unwrap_or(1.0),
                i,
                t["target_state_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect();
    arrows.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    Ok(arrows.into_iter().map(|a| a.2).collect())
}

/// Issue 44's "reorder transitions": on a selected arrow `}` checks it after the next one and
/// `{` before the previous one (priorities exchanged as needed), said aloud, the focus kept on
/// it; the menu and the inspector offer the same, and the draft saved says so.
fn braces_the_menu_and_the_inspector_change_the_order_arrows_are_checked_in(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    let intake = "customer-intake";
    ensure!(
        checked_targets(ctx, "customer-support", intake)?
            == ["billing-support", "technical-support", "general-support"],
        "the sample's order changed"
    )?;
    press(ctx, &[F6])?;
    to_canvas(ctx)?;
    plan_tests::page::select_state(ctx, intake)?;
    wait_focus(ctx, "the card", &card(intake))?;
    press(ctx, &["]"])?;
    wait_focus(ctx, "billing's arrow", &label(intake, 0))?;
    press(ctx, &["}"])?;
    wait_focus(ctx, "billing's arrow, moved", &label(intake, 1))?;
    ctx.session().wait_until("the new place said", SHORT, || {
        Ok(said(ctx)?.contains("Now checked second of the 3 arrows."))
    })?;
    press(ctx, &["}"])?;
    wait_focus(ctx, "billing's arrow, last", &label(intake, 2))?;
    press(ctx, &["}"])?;
    ctx.session().wait_until("the last place said", SHORT, || {
        Ok(said(ctx)?.contains("already checked last"))
    })?;
    plan_tests::page::wait_saved(ctx)?;
    let order = checked_targets(ctx, "customer-support", intake)?;
    ensure!(
        order == ["technical-support", "general-support", "billing-support"],
        "after two }}: {order:?}"
    )?;

    // The menu's "Check earlier", then the inspector's button, which keeps the focus.
    press(ctx, &[SHIFT, F10])?;
    wait_focus(ctx, "the arrow's menu", hooks::MENU_EDIT_CONDITION)?;
    let words = text_of(ctx, hooks::CONTEXT_MENU)?;
    ensure!(
        words.contains("Check earlier") && words.contains('{'),
        "the arrow's menu: {words:?}"
    )?;
    click(ctx, hooks::MENU_CHECK_EARLIER)?;
    ctx.session().wait_until("billing checked 2nd", SHORT, || {
        Ok(said(ctx)?.contains("Now checked second of the 3 arrows."))
    })?;
    let earlier = "[data-testid=transition-inspector] [data-testid=check-earlier]";
    ctx.session()
        .wait_for(earlier, SHORT)
        .map_err(|e| e.to_string())?;
    ctx.screenshot("keyboard-check-order")?;
    click(ctx, earlier)?;
    wait_focus(ctx, "the inspector's button, drawn anew", earlier)?;
    ctx.session().wait_until("billing checked 1st", SHORT, || {
        Ok(said(ctx)?.contains("Now checked first of the 3 arrows."))
    })?;
    plan_tests::page::wait_saved(ctx)?;
    let order = checked_targets(ctx, "customer-support", intake)?;
    ensure!(
        order == ["billing-support", "technical-support", "general-support"],
        "after the menu and the button: {order:?}"
    )
}

/// The card of state `id`.
fn card(id: &str) -> String {
    hooks::state(id)
}

/// Each card's id and title, to say what is there when something is not.
fn cards(ctx: &Ctx) -> Result<String, String> {
    let v = ctx.session().execute(
        "return [...document.querySelectorAll('[data-testid=state]')].map(e => e.dataset.stateId + ': ' + e.querySelector('.card-title').textContent).join(', ')",
        serde_json::json!([]),
    )?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// F6 until the focus is in the canvas (at most 3 presses from anywhere), on a card.
fn to_canvas(ctx: &Ctx) -> Outcome {
    let mut seen = vec![format!("{}:{}", region(ctx)?, focused(ctx)?)];
    for _ in 0..3 {
        if focus_is(ctx, "[data-region=canvas] [data-testid=state]")? {
            return Ok(());
        }
        press(ctx, &[F6])?;
        std::thread::sleep(std::time::Duration::from_millis(250));
        seen.push(format!("{}:{}", region(ctx)?, focused(ctx)?));
    }
    wait_focus(
        ctx,
        &format!("a card, within 3 presses of F6 (the focus went {seen:?})"),
        "[data-region=canvas] [data-testid=state]",
    )
}

/// Adds a state beside the focused card with N, the menu's item `downs` presses down from its
/// first, named `title`; the focus back on its card.
fn add_beside(ctx: &Ctx, downs: usize, title: &str, id: &str) -> Outcome {
    press(ctx, &["n"])?;
    wait_focus(
        ctx,
        "the menu's first item",
        "[data-testid=context-menu] [role=menuitem]",
    )?;
    for _ in 0..downs {
        press(ctx, &[DOWN])?;
    }
    press(ctx, &[ENTER])?;
    wait_focus(ctx, "the new state's title", hooks::FIELD_TITLE)?;
    type_keys(ctx, title)?;
    // Leaving the title, its id follows it.
    press(ctx, &[SHIFT, F6])?;
    ctx.session()
        .wait_until(&format!("the state {id}"), SHORT, || {
            Ok(count(ctx, &card(id))? == 1)
        })
        .map_err(|e| format!("{e}; the cards: {}", cards(ctx).unwrap_or_default()))?;
    wait_focus(ctx, &format!("the card {id}"), &card(id))
}

/// Goes to the card titled `title` with Find (Ctrl+F), the focus then on the card.
fn find(ctx: &Ctx, title: &str, id: &str) -> Outcome {
    press(ctx, &[CTRL, "f"])?;
    wait_focus(ctx, "Find", hooks::FIND_INPUT)?;
    type_keys(ctx, title)?;
    press(ctx, &[ENTER])?;
    wait_focus(ctx, &format!("the card {id}"), &card(id))
}

/// Connects the focused card to the state titled `title` with C, the focus then on the arrow.
fn connect(ctx: &Ctx, part: &str, from: &str, index: usize) -> Outcome {
    press(ctx, &["c"])?;
    wait_focus(ctx, "the connect picker", hooks::CONNECT_INPUT)?;
    type_keys(ctx, part)?;
    press(ctx, &[ENTER])?;
    wait_focus(
        ctx,
        "the new arrow",
        &format!("[data-testid=transition-label][data-from='{from}'][data-index='{index}']"),
    )
}

fn the_pizza_order_is_built_tried_and_published_with_keys_only(ctx: &Ctx) -> Outcome {
    // From wherever the focus is, F6 reaches the plans; Shift+Tab from the list, "+ New".
    press(ctx, &[F6])?;
    let mut tries = 0;
    while !focus_is(ctx, "[data-region=plans] *")? && tries < 3 {
        press(ctx, &[F6])?;
        tries += 1;
    }
    tab_to(ctx, hooks::PLAN_NEW, true, 4)?;
    press(ctx, &[ENTER])?;
    wait_focus(ctx, "the new plan's title", hooks::NEW_PLAN_TITLE)?;
    type_keys(ctx, "Pizza order")?;
    press(ctx, &[ENTER])?;
    ctx.session().wait_until("the new plan open", SHORT, || {
        Ok(text_of(ctx, hooks::PLAN_TITLE)? == "Pizza order")
    })?;
    // Enter created the plan and closed the dialog; the focus back on "+ New" does not open it
    // again.
    std::thread::sleep(std::time::Duration::from_millis(300));
    ensure!(
        count(ctx, hooks::DIALOG)? == 0,
        "the New plan dialog opened again"
    )?;
    wait_focus(ctx, "the focus back on + New", hooks::PLAN_NEW)?;

    // The start state, renamed: F6 to its card, Enter, the title typed over. F6 at once, in the
    // new plan's first frames (its card not drawn yet, the focus waits for it: it was left in the
    // plans 1 run in 3 when it did not).
    to_canvas(ctx)?;
    press(ctx, &[ENTER])?;
    wait_focus(ctx, "the title field", hooks::FIELD_TITLE)?;
    retype(ctx, "Order")?;
    // The blank plan's start state keeps its id, "start".
    ctx.session()
        .wait_until("the start state titled Order", SHORT, || {
            Ok(text_of(ctx, &format!("{} .card-title", card("start")))? == "Order")
        })?;
    press(ctx, &[SHIFT, F6])?;
    wait_focus(ctx, "the Order card", &card("start"))?;
    ctx.screenshot("keyboard-card-focus")?;

    // Three states beside it: a loose one, then two endings.
    add_beside(ctx, 0, "Confirm", "confirm")?;
    add_beside(ctx, 3, "Order placed", "order-placed")?;
    find(ctx, "Confirm", "confirm")?;
    add_beside(ctx, 3, "Cancelled", "cancelled")?;

    // Three arrows: Order → Confirm (when its task is done, the default), Confirm → Order
    // placed and Confirm → Cancelled, each picked by part of its target's title.
    find(ctx, "Order", "start")?;
    connect(ctx, "Conf", "start", 0)?;
    ctx.screenshot("keyboard-arrow-focus")?;
    press(ctx, &[ESCAPE])?;
    wait_focus(ctx, "back on Order", &card("start"))?;

    // Order's task, collecting two values: Enter opens the card, Tab goes to "+ Add task".
    press(ctx, &[ENTER])?;
    wait_focus(ctx, "Order's title", hooks::FIELD_TITLE)?;
    tab_to(ctx, hooks::ADD_TASK, false, 40)?;
    press(ctx, &[ENTER])?;
    tab_to(ctx, hooks::FIELD_TASK_ID, false, 10)?;
    retype(ctx, "take_order")?;
    tab_to(ctx, hooks::FIELD_TASK_DESCRIPTION, false, 10)?;
    type_keys(ctx, "Take the order")?;
    for (i, key) in ["size", "address"].into_iter().enumerate() {
        tab_to(ctx, hooks::ADD_DELIVERABLE, false, 40)?;
        press(ctx, &[ENTER])?;
        tab_to(
            ctx,
            &format!("[data-testid=deliverable][data-deliverable-index='{i}'] [data-testid=field-deliverable-key]"),
            true,
            40,
        )?;
        retype(ctx, key)?;
    }

    // Confirm's task: whether the caller confirms, a yes or a no.
    press(ctx, &[SHIFT, F6])?;
    to_canvas(ctx)?;
    find(ctx, "Confirm", "confirm")?;
    press(ctx, &[ENTER])?;
    wait_focus(ctx, "Confirm's title", hooks::FIELD_TITLE)?;
    tab_to(ctx, hooks::ADD_TASK, false, 40)?;
    press(ctx, &[ENTER])?;
    tab_to(ctx, hooks::FIELD_TASK_ID, false, 10)?;
    retype(ctx, "confirm_order")?;
    tab_to(ctx, hooks::ADD_DELIVERABLE, false, 40)?;
    press(ctx, &[ENTER])?;
    tab_to(ctx, hooks::FIELD_DELIVERABLE_KEY, true, 40)?;
    retype(ctx, "confirmed")?;
    tab_to(ctx, hooks::FIELD_DELIVERABLE_TYPE, false, 10)?;
    choose(ctx, "boolean", 4)?;

    // Confirm's two arrows, their conditions edited from the keyboard: Enter on an arrow opens
    // its condition; "A value equals" is the fourth kind.
    for (index, (part, value)) in [("placed", "true"), ("cancel", "false")]
        .into_iter()
        .enumerate()
    {
        press(ctx, &[SHIFT, F6])?;
        to_canvas(ctx)?;
        find(ctx, "Confirm", "confirm")?;
        connect(ctx, part, "confirm", index)?;
        press(ctx, &[ENTER])?;
        wait_focus(ctx, "the arrow's condition", hooks::FIELD_CONDITION_TYPE)?;
        choose(ctx, "deliverable_value", 14)?;
        tab_to(ctx, hooks::FIELD_KEY, false, 6)?;
        choose(ctx, "confirmed", 10)?;
        tab_to(ctx, hooks::FIELD_VALUE, false, 6)?;
        choose(ctx, value, 3)?;
    }
    ctx.screenshot("keyboard-built")?;
    // Cancelled was added beside Confirm where Order placed already stood: it went where the
    // arrow from Confirm has room for its label ("me" of "confirmed = no" showed when it
    // went 24 units from a card).
    crate::readable::labels_apart(ctx, "the Pizza order built by keys")?;

    // Tried in the test chat: F6 to the panel, the tabs by Tab, the conversation typed.
    press(ctx, &[ESCAPE])?;
    to_canvas(ctx)?;
    press(ctx, &[F6])?;
    tab_to(ctx, hooks::TAB_CHAT, false, 6)?;
    press(ctx, &[ENTER])?;
    tab_to(ctx, hooks::CHAT_START, false, 30)?;
    press(ctx, &[ENTER])?;
    wait_focus(ctx, "the chat's field", hooks::CHAT_INPUT)
        .or_else(|_| tab_to(ctx, hooks::CHAT_INPUT, false, 30).map(drop))?;
    for said in ["size: large", "address: 1 Main Street", "yes"] {
        type_keys(ctx, said)?;
        press(ctx, &[ENTER])?;
        std::thread::sleep(std::time::Duration::from_millis(400));
    }
    ctx.session()
        .wait_until("the conversation ended in Order placed", SHORT, || {
            Ok(count(ctx, &format!("{}[data-current=true]", card("order-placed")))? == 1)
        })
        .map_err(|e| {
            format!(
                "{e}; the announcer says {:?}",
                text_of(ctx, hooks::ANNOUNCER)
            )
        })?;
    let heard = text_of(ctx, hooks::ANNOUNCER)?;
    ensure!(
        heard.contains("Now in Order placed"),
        "the live region said {heard:?}"
    )?;

    // Published: F6 to the toolbar, Tab to Publish, a note, Publish.
    for _ in 0..4 {
        if focus_is(ctx, "[data-region=toolbar] *")? {
            break;
        }
        press(ctx, &[F6])?;
    }
    tab_to(ctx, hooks::PUBLISH, false, 20)?;
    press(ctx, &[ENTER])?;
    wait_focus(ctx, "the note", hooks::PUBLISH_NOTE)
        .or_else(|_| tab_to(ctx, hooks::PUBLISH_NOTE, false, 20).map(drop))?;
    type_keys(ctx, "Built by keyboard")?;
    tab_to(ctx, hooks::PUBLISH_CONFIRM, false, 30)?;
    press(ctx, &[ENTER])?;
    ctx.session().wait_until("version 1 written", SHORT, || {
        Ok(ctx.workspace().join("pizza-order/versions/1.json").exists())
    })?;

    // What was published is the plan meant.
    let text = fs::read_to_string(ctx.workspace().join("pizza-order/versions/1.json"))
        .map_err(|e| e.to_string())?;
    let version: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let published = serde_json::to_value(
        plan_core::parse_plan(&serde_json::to_string(&version["plan"]).unwrap_or_default())
            .map_err(|e| format!("{e:?}"))?,
    )
    .map_err(|e| e.to_string())?;
    let expected = expected_pizza();
    for (i, want) in expected["states"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let got = &published["states"][i];
        for field in ["id", "title", "type", "tasks", "transitions", "ending"] {
            ensure!(
                got.get(field) == want.get(field),
                "state {i}'s {field}: published {}, meant {}; all published: {}",
                got.get(field).unwrap_or(&serde_json::Value::Null),
                want.get(field).unwrap_or(&serde_json::Value::Null),
                published["states"]
            )?;
        }
    }
    ensure!(
        published["states"].as_array().map(Vec::len) == Some(4),
        "{} states published",
        published["states"]
    )
}

/// The plan the keys above build, as its published version holds it (a priority of 1 is the
/// format's default, left out).
fn expected_pizza() -> serde_json::Value {
    serde_json::json!({"states": [
      {"id": "start", "title": "Order", "type": "loose",
       "tasks": [{"id": "take_order", "description": "Take the order",
         "deliverables": [{"key": "size", "type": "string"}, {"key": "address", "type": "string"}]}],
       "transitions": [{"target_state_id": "confirm"}]},
      {"id": "confirm", "title": "Confirm", "type": "loose",
       "tasks": [{"id": "confirm_order", "deliverables": [{"key": "confirmed", "type": "boolean"}]}],
       "transitions": [
         {"target_state_id": "order-placed", "condition_type": "deliverable_value",
          "condition_config": {"key": "confirmed", "value": true}},
         {"target_state_id": "cancelled", "priority": 2, "condition_type": "deliverable_value",
          "condition_config": {"key": "confirmed", "value": false}}]},
      {"id": "order-placed", "title": "Order placed", "type": "loose", "ending": {"kind": "complete"}},
      {"id": "cancelled", "title": "Cancelled", "type": "loose", "ending": {"kind": "complete"}}
    ]})
}
