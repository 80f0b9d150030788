//! The canvas by pointer and keys: moving, connecting and panning select no text, the right button's menu, Tab through the cards and Enter, Ctrl and an arrow to the nearest card

use super::*;
use plan_tests::ensure;

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    moving_connecting_and_panning_select_no_text,
    the_right_button_opens_a_menu_of_what_can_be_done_there,
    tab_reaches_every_card_and_enter_opens_it_in_the_inspector,
    ctrl_and_an_arrow_go_to_the_nearest_card_that_way,
];

fn selected_text(ctx: &Ctx) -> Result<String, String> {
    let v = ctx
        .session()
        .execute("return String(window.getSelection());", json!([]))?;
    Ok(v.as_str().unwrap_or("").to_string())
}

fn moving_connecting_and_panning_select_no_text(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    let at = |p: (i64, i64), ms: u64| json!({"type": "pointerMove", "duration": ms, "x": p.0, "y": p.1, "origin": "viewport"});
    let (down, up) = (
        json!({"type": "pointerDown", "button": 0}),
        json!({"type": "pointerUp", "button": 0}),
    );
    let drag = |from: (i64, i64), to: (i64, i64)| -> Outcome {
        let mid = ((from.0 + to.0) / 2, (from.1 + to.1) / 2 + 30);
        ctx.session().actions(
            json!([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [at(from, 0), down.clone(), at(mid, 150), at(to, 150), up.clone()]}]),
        )?;
        Ok(())
    };
    let gestures: [(&str, Point, Point); 3] = [
        (
            "moving a card",
            centre(
                ctx,
                &format!("{} .card-title", hooks::state("billing-support")),
            )?,
            reachable_point(ctx, &hooks::state("farewell"))?,
        ),
        (
            "connecting two cards",
            reachable_point(ctx, &format!("{} .handle", hooks::state("greeting")))?,
            reachable_point(ctx, &hooks::state("farewell"))?,
        ),
        (
            "panning across the labels and out of the canvas",
            (600, 300),
            (40, 700),
        ),
    ];
    for (what, from, to) in gestures {
        drag(from, to)?;
        std::thread::sleep(Duration::from_millis(200));
        let selected = selected_text(ctx)?;
        if !selected.is_empty() {
            ctx.screenshot("drag-selected-text")?;
        }
        ensure!(selected.is_empty(), "{what} selected text: {selected:?}")?;
    }
    ctx.screenshot("drag-no-selection")?;
    Ok(())
}

fn right_click(ctx: &Ctx, at: (i64, i64)) -> Outcome {
    ctx.session().actions(
        json!([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [
            {"type": "pointerMove", "duration": 0, "x": at.0, "y": at.1, "origin": "viewport"},
            {"type": "pointerDown", "button": 2}, {"type": "pointerUp", "button": 2}
        ]}]),
    )?;
    ctx.session().wait_until("the context menu", SHORT, || {
        Ok(count(ctx, hooks::CONTEXT_MENU)? == 1)
    })
}

fn the_right_button_opens_a_menu_of_what_can_be_done_there(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "customer-support")?;
    let states = count(ctx, hooks::STATE)?;
    // On a card: rename, duplicate, test from here, delete.
    right_click(
        ctx,
        centre(
            ctx,
            &format!("{} .card-title", hooks::state("billing-support")),
        )?,
    )?;
    ctx.screenshot("context-menu-card")?;
    let words = text_of(ctx, hooks::CONTEXT_MENU)?;
    for item in ["Rename", "Duplicate", "Test from here", "Delete"] {
        ensure!(
            words.contains(item),
            "the card's menu lacks {item}: {words:?}"
        )?;
    }
    click(ctx, hooks::MENU_DUPLICATE)?;
    ctx.session().wait_until("the duplicate", SHORT, || {
        Ok(count(ctx, hooks::STATE)? == states + 1)
    })?;
    ensure!(
        count(ctx, hooks::CONTEXT_MENU)? == 0,
        "the menu stayed open"
    )?;
    // On the background: a state of each mode here, then Fit.
    let (left, top, right, bottom) = canvas_box(ctx)?;
    let empty = background_near(ctx, (((left + right) / 2.0) as i64, (bottom - 60.0) as i64))?;
    let _ = top;
    right_click(ctx, empty)?;
    ctx.screenshot("context-menu-background")?;
    click(ctx, hooks::MENU_ADD_GOAL)?;
    ctx.session()
        .wait_until("the goal state added there", SHORT, || {
            Ok(count(ctx, hooks::STATE)? == states + 2)
        })?;
    let modes = ctx.session().execute(
        "return [...document.querySelectorAll('[data-testid=state].mode-goal')].length",
        json!([]),
    )?;
    ensure!(modes.as_u64().unwrap_or(0) >= 1, "no goal state was added")?;
    ensure!(
        overlapping(&card_boxes(ctx)?).is_empty(),
        "the menu's state covers a card"
    )?;
    // On an arrow: edit its condition, delete it.
    let arrows = count(ctx, hooks::TRANSITION)?;
    right_click(ctx, arrow_middle(ctx, "greeting", 0)?)?;
    let words = text_of(ctx, hooks::CONTEXT_MENU)?;
    ensure!(
        words.contains("Edit condition"),
        "the arrow's menu: {words:?}"
    )?;
    click(ctx, hooks::MENU_DELETE)?;
    ctx.session().wait_until("the arrow deleted", SHORT, || {
        Ok(count(ctx, hooks::TRANSITION)? == arrows - 1)
    })?;
    // Escape closes an open menu, and nothing happens.
    right_click(ctx, empty)?;
    ctx.session().chord(&["\u{E00C}"])?;
    ctx.session().wait_until("the menu closed", SHORT, || {
        Ok(count(ctx, hooks::CONTEXT_MENU)? == 0)
    })
}

fn focused_card(ctx: &Ctx) -> Result<Option<String>, String> {
    let v = ctx.session().execute(
        "const e = document.activeElement; return e && e.dataset ? (e.dataset.stateId || null) : null;",
        json!([]),
    )?;
    Ok(v.as_str().map(String::from))
}

fn tab_reaches_every_card_and_enter_opens_it_in_the_inspector(ctx: &Ctx) -> Outcome {
    let plan = open_plan(ctx, "customer-support")?;
    // The first card takes the focus; from there Tab goes from card to card.
    ctx.session().execute(
        "document.querySelector('[data-testid=state]').focus();",
        json!([]),
    )?;
    let mut reached = Vec::new();
    for _ in 0..plan.states.len() {
        let Some(id) = focused_card(ctx)? else { break };
        reached.push(id);
        ctx.session().chord(&["\u{E004}"])?;
    }
    let mut all: Vec<String> = plan.states.iter().map(|s| s.id.clone()).collect();
    let mut got = reached.clone();
    all.sort();
    got.sort();
    ensure!(got == all, "Tab reached {reached:?} of {all:?}")?;
    // Back to a card with Shift+Tab: it is selected, as a click would.
    ctx.session()
        .chord(&[plan_tests::page::SHIFT, "\u{E004}"])?;
    let last = focused_card(ctx)?.ok_or("Shift+Tab left the cards")?;
    ctx.session()
        .wait_until("the focused card selected", SHORT, || {
            Ok(count(ctx, &format!("{}[data-selected=true]", hooks::state(&last)))? == 1)
        })?;
    ctx.screenshot("keyboard-focus")?;
    // What a screen reader hears: the title, the mode.
    let words = ctx.session().execute(
        "return document.activeElement.getAttribute('aria-label');",
        json!([]),
    )?;
    let title = &plan.state(&last).ok_or("no such state")?.title;
    let words = words.as_str().unwrap_or("").to_string();
    ensure!(
        words.starts_with(title.as_str()) && words.contains("state"),
        "the card says {words:?}"
    )?;
    // Enter opens it in the inspector, its title ready to type.
    ctx.session().chord(&["\u{E007}"])?;
    ctx.session().wait_until("the title field focused", SHORT, || {
        let v = ctx.session().execute(
            "const e = document.activeElement; return e && e.dataset.testid === 'field-title' ? e.value : null;",
            json!([]),
        )?;
        Ok(v.as_str() == Some(title.as_str()))
    })
}

/// Ctrl+arrow goes from the selected card to the nearest one that way (the arrows alone move the
/// selection, as in every canvas): through the support plan's columns and back, each card
/// selected and focused, Enter opening the last in the inspector.
fn ctrl_and_an_arrow_go_to_the_nearest_card_that_way(ctx: &Ctx) -> Outcome {
    const LEFT: &str = "\u{E012}";
    const UP: &str = "\u{E013}";
    const RIGHT: &str = "\u{E014}";
    const DOWN: &str = "\u{E015}";
    open_plan(ctx, "customer-support")?;
    let before = card_boxes(ctx)?;
    // Nothing selected: the first Ctrl+arrow picks the start state.
    let steps = [
        (RIGHT, "greeting"),
        (RIGHT, "customer-intake"),
        (RIGHT, "technical-support"),
        (UP, "billing-support"),
        (DOWN, "technical-support"),
        (DOWN, "general-support"),
        (RIGHT, "farewell"),
        (LEFT, "technical-support"),
    ];
    for (key, expected) in steps {
        ctx.session().chord(&[plan_tests::page::CTRL, key])?;
        ctx.session()
            .wait_until(&format!("{expected} selected and focused"), SHORT, || {
                Ok(count(
                    ctx,
                    &format!("{}[data-selected=true]", hooks::state(expected)),
                )? == 1
                    && focused_card(ctx)?.as_deref() == Some(expected))
            })?;
    }
    ensure!(card_boxes(ctx)? == before, "a Ctrl+arrow moved a card")?;
    ctx.screenshot("ctrl-arrow-focus")?;
    ctx.session().chord(&["\u{E007}"])?;
    ctx.session().wait_until("the inspector on Technical support", SHORT, || {
        let v = ctx.session().execute(
            "const e = document.activeElement; return e && e.dataset.testid === 'field-title' ? e.value : null;",
            json!([]),
        )?;
        Ok(v.as_str() == Some("Technical support"))
    })
}
