//! End-to-end tests of interruptions (issue 18) in the real app: an author adds one in the plan
//! inspector, sees it on the canvas, chats into the detour and back, and sees the parked task lit
//! and then resumed.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use plan_tests::chat::{is_in, say, start_chat, LONG};
use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::page::{
    by_testid, click, count, ensure_count, ensure_valid, open_plan, open_plan_details, plan,
    select_state, set_value, text_of, wait_saved, Outcome, CTRL,
};
use plan_tests::{Ctx, Test, SHORT};

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    an_interruption_added_in_the_editor_parks_the_task_and_the_chat_comes_back_to_it,
    states_say_whether_they_can_be_interrupted_and_find_finds_interruptions,
];

/// On the vehicle-viewing sample: a new side question ("directions") that goes to the parking
/// state, only while booking. It is drawn above the flow with a dashed arrow to its target; in the
/// chat, asking for directions parks the booking (lit beside the current state, and said in the
/// panel), and answering brings the booking back where it was.
fn an_interruption_added_in_the_editor_parks_the_task_and_the_chat_comes_back_to_it(
    ctx: &Ctx,
) -> Outcome {
    open_plan_details(ctx, "vehicle-viewing")?;
    ensure!(
        count(ctx, hooks::INTERRUPTION)? == 3,
        "the sample's three interruptions are not drawn"
    )?;
    click(ctx, hooks::ADD_INTERRUPTION)?;
    let form = "[data-testid=interruption-fields][data-interruption-id='interruption-4']";
    ctx.session().wait_for(form, SHORT)?;
    set_value(
        ctx,
        &format!("{form} [data-testid=field-x-title]"),
        "Asks for directions",
    )?;
    set_value(
        ctx,
        &format!("{form} [data-testid=field-x-target]"),
        "parking",
    )?;
    set_value(
        ctx,
        &format!("{form} [data-testid=field-x-phrases]"),
        "directions, how do I get",
    )?;
    set_value(
        ctx,
        &format!("{form} [data-testid=field-x-only-in]"),
        "booking",
    )?;
    set_value(
        ctx,
        &format!("{form} [data-testid=field-x-id]"),
        "directions",
    )?;
    ctx.session().wait_for(
        "[data-testid=interruption-fields][data-interruption-id=directions]",
        SHORT,
    )?;
    wait_saved(ctx)?;
    let saved = plan(ctx, "vehicle-viewing")?;
    let x = saved
        .interruption("directions")
        .ok_or("the draft has no 'directions'")?;
    ensure!(
        x.target_state_id == "parking"
            && x.phrases == ["directions", "how do I get"]
            && x.only_in == ["booking"],
        "the draft's interruption: {x:?}"
    )?;
    ensure_valid(&saved)?;
    ctx.session().wait_for(
        "[data-testid=interruption][data-id=directions][data-target=parking]",
        SHORT,
    )?;
    ensure_count(
        ctx,
        "[data-testid=interruption-arrow][data-id=directions][data-to=parking]",
        1,
        "no dashed arrow to the target",
    )?;
    ensure_count(
        ctx,
        "[data-testid=state][data-state-id=back-to-booking] [data-testid=return-marker]",
        1,
        "the return point is not marked",
    )?;

    start_chat(ctx)?;
    say(ctx, "8842")?;
    is_in(ctx, "booking")?;
    say(ctx, "I need directions")?;
    is_in(ctx, "parking")?;
    ctx.session().wait_for(
        "[data-testid=state][data-state-id=booking][data-parked=true]",
        LONG,
    )?;
    let said = text_of(ctx, hooks::CHAT_PARKED)?;
    ensure!(
        said.contains("Booking a viewing, parked at turn 2 for Asks for directions")
            && said.contains("kept until the detour ends"),
        "the panel says {said:?}"
    )?;
    ctx.screenshot("interruption-parked")?;
    say(ctx, "by bike")?;
    is_in(ctx, "booking")?;
    ensure!(
        count(ctx, hooks::CHAT_PARKED)? == 0,
        "the parked task is still shown"
    )?;
    ensure_count(
        ctx,
        "[data-testid=state][data-parked=true]",
        0,
        "a card is still lit as parked",
    )?;
    let transcript = text_of(ctx, hooks::CHAT_TRANSCRIPT)?;
    ensure!(
        transcript.contains("back to Booking a viewing")
            && transcript.contains("parked Booking a viewing to answer Asks for directions"),
        "the trace does not say what happened: {transcript}"
    )?;
    ctx.screenshot("interruption-resumed")?;
    Ok(())
}

fn checked(ctx: &Ctx, css: &str) -> Result<bool, String> {
    let v = ctx.session().execute(
        "const el = document.querySelector(arguments[0]); return el ? el.checked : null;",
        serde_json::json!([css]),
    )?;
    v.as_bool().ok_or(format!("no checkbox {css}"))
}

/// The state inspector's part of interruptions: the confirmation "cannot be interrupted", a task
/// "asks afresh", the return point's ending; a state made a return point in the ending picker;
/// and Find finds an interruption by its phrase, showing the state it goes to.
fn states_say_whether_they_can_be_interrupted_and_find_finds_interruptions(ctx: &Ctx) -> Outcome {
    open_plan(ctx, "vehicle-viewing")?;
    click(ctx, hooks::TAB_INSPECT)?;
    select_state(ctx, "confirm")?;
    ensure!(
        !checked(ctx, hooks::FIELD_INTERRUPTIBLE)?,
        "the confirmation says it can be interrupted"
    )?;
    ensure!(
        checked(ctx, hooks::FIELD_TASK_ASK_AGAIN)?,
        "the confirmation's task does not ask afresh"
    )?;
    select_state(ctx, "booking")?;
    ensure!(
        checked(ctx, hooks::FIELD_INTERRUPTIBLE)?,
        "the booking says it cannot be interrupted"
    )?;
    click(ctx, hooks::FIELD_INTERRUPTIBLE)?;
    select_state(ctx, "booked")?;
    set_value(ctx, hooks::FIELD_ENDING, "resume")?;
    ctx.session().wait_for(
        "[data-testid=state][data-state-id=booked] [data-testid=return-marker]",
        SHORT,
    )?;
    wait_saved(ctx)?;
    let saved = plan(ctx, "vehicle-viewing")?;
    ensure!(
        !saved.state("booking").is_some_and(|s| s.interruptible)
            && saved
                .state("booked")
                .is_some_and(|s| s.ending == Some(plan_core::plan::Ending::Resume {})),
        "the draft did not follow the fields"
    )?;
    // The checker says what that did: a return point reached without a detour.
    click(ctx, hooks::TAB_PROBLEMS)?;
    ctx.session()
        .wait_for(&hooks::problem("resume-outside-detour"), LONG)?;
    ctx.session().chord(&[CTRL, "f"])?;
    let input = by_testid(ctx, "find-input")?;
    ctx.session().send_keys(&input, "forget it")?;
    let found = ctx
        .session()
        .wait_for("[data-testid=find-result][data-state-id=dropped]", SHORT)?;
    let said = ctx.session().text(&found)?;
    ensure!(
        said.contains("interruption Never mind"),
        "the result says {said:?}"
    )?;
    ctx.screenshot("find-interruption")?;
    Ok(())
}
