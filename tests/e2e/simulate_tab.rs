//! End-to-end tests of the Simulate tab (simulate.md) in the real app, against the
//! OpenAI-compatible test server this process starts on 127.0.0.1 playing the callers (each says
//! its persona's facts) and the judge (yes): the support plan's two callers listed; a run of two
//! conversations each with its progress, its results per caller and per conversation with the
//! verdicts' agreement; the run listed, replayed from its recording without a request sent, and
//! opened again.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::time::Duration;

use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::model_server::{stating_caller, ModelServer};
use plan_tests::page::{
    attribute, attributes, click, click_at, count, ensure_valid, open_plan, open_plan_details,
    plan, reachable_point, scroll_to, set_value, text_of, texts, type_text, value_of, wait_saved,
    Outcome, CTRL, DELETE,
};
use plan_tests::{Ctx, Test, SHORT};

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    the_support_plans_callers_run_are_judged_and_replay_without_a_request,
    an_evaluation_is_limited_to_a_session_state_by_ticking_it_in_the_plan_inspector,
    an_edge_drawn_from_a_session_state_to_an_evaluation_limits_it_and_moves_deletes_and_undoes,
    a_caller_written_in_the_form_is_checked_saved_edited_and_runs,
];

const WAIT: Duration = Duration::from_secs(60);

/// The Enter key, as WebDriver sends it.
const ENTER: &str = "\u{E007}";

/// Waits until the Simulate tab lists `n` callers.
fn callers_listed(ctx: &Ctx, n: usize) -> Outcome {
    ctx.session()
        .wait_until(&format!("{n} callers to be listed"), WAIT, || {
            Ok(count(ctx, hooks::SIM_PERSONA)? == n)
        })
        .map_err(|e| e.to_string())
}

/// Waits until `css` says `contains`.
fn wait_text(ctx: &Ctx, css: &str, contains: &str) -> Outcome {
    let mut seen = String::new();
    ctx.session()
        .wait_until(&format!("{css} to say {contains:?}"), WAIT, || {
            seen = text_of(ctx, css).unwrap_or_default();
            Ok(seen.contains(contains))
        })
        .map_err(|e| format!("{e}; it says {seen:?}"))
}

fn the_support_plans_callers_run_are_judged_and_replay_without_a_request(ctx: &Ctx) -> Outcome {
    let server = ModelServer::start();
    stating_caller(&server);
    open_plan(ctx, "customer-support")?;
    click(ctx, hooks::TAB_SIMULATE)?;
    callers_listed(ctx, 2)?;
    let callers = text_of(ctx, hooks::SIMULATE)?;
    ensure!(
        callers.contains("Charged twice, wants a refund"),
        "the callers are named by their titles: {callers}"
    )?;
    set_value(ctx, hooks::SIM_CALLER_URL, &server.base_url)?;
    set_value(ctx, hooks::SIM_CALLER_MODEL, "test-model")?;
    set_value(ctx, hooks::SIM_CONVERSATIONS, "2")?;
    // Before it runs, what it will ask at most: no run with this model yet, so no time.
    let before = text_of(ctx, hooks::SIM_ESTIMATE)?;
    ensure!(
        before.starts_with("Up to ")
            && before.contains("caller turns")
            && !before.contains("About"),
        "the estimate before the first run: {before:?}"
    )?;
    click(ctx, hooks::SIM_RUN)?;
    wait_text(ctx, hooks::SIM_SUMMARY, "4 passed, 0 failed")?;
    // The run is named by when it began, in words; its id (the folder's name) stays out of sight.
    let summary = text_of(ctx, hooks::SIM_SUMMARY)?;
    let run = attribute(ctx, hooks::SIM_RUN_ROW, "data-run")?.unwrap_or_default();
    let row = text_of(ctx, hooks::SIM_RUN_ROW)?;
    ensure!(
        summary.starts_with("The run of ")
            && summary.contains(" UTC")
            && !run.is_empty()
            && !summary.contains(&run)
            && row.contains(" UTC")
            && !row.contains(&run),
        "the run said by when it began, not by its id {run:?}: {summary:?}, listed as {row:?}"
    )?;
    plan_tests::axe::check(ctx, "a run shown, with its past runs")?;
    // After it, what it asked by role; and the next run's estimate has a time from this one.
    let cost = text_of(ctx, hooks::SIM_COST)?;
    ensure!(
        cost.contains("caller: ") && cost.contains("judge: "),
        "what the run asked: {cost:?}"
    )?;
    wait_text(ctx, hooks::SIM_ESTIMATE, ", from the run of ")?;
    let statuses = attributes(ctx, hooks::SIM_CONVERSATION, "data-status")?;
    ensure!(
        statuses == ["passed"; 4],
        "every conversation passed: {statuses:?}"
    )?;
    let verdict = text_of(ctx, hooks::SIM_VERDICT)?;
    ensure!(
        verdict.contains("yes (3 of 3 votes agree)"),
        "a verdict shows its agreement: {verdict:?}"
    )?;
    ctx.screenshot("simulate-run")?;
    // The heat map: the billing caller's state coloured, the legend counting conversations.
    let level = attribute(ctx, &hooks::state("customer-intake"), "data-reach")?;
    ensure!(
        level.as_deref() == Some("many"),
        "every conversation entered the intake: {level:?}"
    )?;
    let legend = text_of(ctx, hooks::COVERAGE_LEGEND)?;
    ensure!(
        legend.contains("simulated conversations"),
        "the legend says what the colours count: {legend:?}"
    )?;
    let never = attribute(ctx, &hooks::state("general-support"), "data-reach")?;
    ensure!(
        never.as_deref() == Some("never"),
        "no caller went to general support: {never:?}"
    )?;
    // One conversation read turn by turn, lit on the canvas, kept as a test case.
    click(ctx, hooks::SIM_OPEN_CONVERSATION)?;
    ctx.session().wait_for(hooks::SIM_TRANSCRIPT, SHORT)?;
    ensure!(count(ctx, hooks::SIM_TURN)? >= 2, "its turns are listed")?;
    ensure!(
        count(ctx, hooks::LIT_STATE)? == 1,
        "the state the conversation ended in is lit"
    )?;
    // Stepped back to the opening: the canvas lights where the conversation began.
    click(ctx, hooks::SIM_SHOW_TURN)?;
    wait_text(ctx, hooks::SIM_STEP, "The opening, before turn 1 of ")?;
    let lit = attributes(ctx, hooks::LIT_STATE, "data-state-id")?;
    ensure!(
        lit == ["greeting"],
        "at the opening the greeting is lit: {lit:?}"
    )?;
    click(ctx, hooks::SIM_STEP_ON)?;
    wait_text(ctx, hooks::SIM_STEP, "After turn 1 of ")?;
    let votes = texts(ctx, hooks::SIM_VOTE)?;
    ensure!(
        votes.len() == 3 && votes.iter().all(|v| v.starts_with("yes: ")),
        "each vote with its reason: {votes:?}"
    )?;
    ctx.screenshot("simulate-conversation")?;
    click(ctx, hooks::SIM_SAVE_CASE)?;
    wait_text(
        ctx,
        hooks::SIM_SAVED,
        "Saved as tests/billing-refund-1.json",
    )?;
    let case = ctx
        .workspace()
        .join("customer-support/tests/billing-refund-1.json");
    ensure!(case.is_file(), "{} is kept", case.display())?;
    click(ctx, hooks::SIM_HEAT)?;
    ctx.session()
        .wait_until("the heat map to go", WAIT, || {
            Ok(count(ctx, hooks::COVERAGE_LEGEND)? == 0)
        })
        .map_err(|e| e.to_string())?;
    let sent = server.completions().len();
    ensure!(count(ctx, hooks::SIM_RUN_ROW)? == 1, "the run is listed")?;
    click(ctx, hooks::SIM_REPLAY)?;
    wait_text(ctx, hooks::SIM_SUMMARY, "(replay of ")?;
    wait_text(ctx, hooks::SIM_SUMMARY, "4 passed, 0 failed")?;
    ensure!(server.completions().len() == sent, "a replay sends nothing")?;
    ctx.session()
        .wait_until("both runs to be listed", WAIT, || {
            Ok(count(ctx, hooks::SIM_RUN_ROW)? == 2)
        })
        .map_err(|e| e.to_string())?;
    ctx.screenshot("simulate-replay")?;
    // The first run compared with its replay, shown: the same, row by row.
    ensure!(
        count(ctx, hooks::SIM_COMPARE)? == 1,
        "only the run not shown offers Compare"
    )?;
    click(ctx, hooks::SIM_COMPARE)?;
    ctx.session()
        .wait_for(hooks::SIM_COMPARISON, SHORT)
        .map_err(|e| e.to_string())?;
    let compared = text_of(ctx, hooks::SIM_COMPARISON)?;
    ensure!(
        compared.contains("2 of 2 passed")
            && compared.contains("Ended: the caller's patience ran out")
            && compared.contains(" UTC (draft) → The run of "),
        "the comparison: {compared:?}"
    )?;
    plan_tests::axe::check(ctx, "two runs compared")?;
    let trends = attributes(ctx, hooks::SIM_COMPARE_ROW, "data-trend")?;
    ensure!(
        trends.len() >= 4 && trends.iter().all(|t| t == "same"),
        "a replay changes nothing: {trends:?}"
    )?;
    ctx.screenshot("simulate-compare")?;
    // The plan's side and the judge: their servers show only when asked for, the caller's by
    // default.
    ensure!(
        count(ctx, hooks::SIM_AGENT_SERVER)? == 0,
        "the simulator needs no server"
    )?;
    ctx.session().execute(
        "const s = document.querySelector('[data-testid=sim-agent]'); s.value = 'llm'; s.dispatchEvent(new Event('change'));",
        serde_json::json!([]),
    )?;
    click(ctx, hooks::SIM_OWN_JUDGE)?;
    ctx.session()
        .wait_for(
            "[data-testid=sim-judge-server] [data-testid=sim-judge-model]",
            SHORT,
        )
        .map_err(|e| e.to_string())?;
    let placeholder = ctx.session().execute(
        "return document.querySelector('[data-testid=sim-agent-url]').placeholder;",
        serde_json::json!([]),
    )?;
    ensure!(
        placeholder == serde_json::json!("the caller's"),
        "the agent's server defaults to the caller's: {placeholder}"
    )?;
    ctx.screenshot("simulate-settings").map(drop)
}

/// The telecom sample's evaluations in the plan inspector: the one limited to billing shows its
/// box ticked; ticking "technical" too is kept in the draft, one undo step, and valid.
fn an_evaluation_is_limited_to_a_session_state_by_ticking_it_in_the_plan_inspector(
    ctx: &Ctx,
) -> Outcome {
    open_plan_details(ctx, "account-care")?;
    let form = "[data-testid=evaluation-fields][data-evaluation-id='no-refund-promise']";
    ctx.session().wait_for(form, SHORT)?;
    let boxes = format!("{form} [data-testid=only-while-option]");
    let ticked = attributes(ctx, &format!("{boxes}:checked"), "data-session-id")?;
    ensure!(
        ticked == ["billing_mode"],
        "the evaluation is limited to billing: {ticked:?}"
    )?;
    click(
        ctx,
        &format!("{form} [data-testid=only-while-option][data-session-id=technical_mode]"),
    )?;
    wait_saved(ctx)?;
    let saved = plan(ctx, "account-care")?;
    let e = saved
        .evaluations
        .iter()
        .find(|e| e.id == "no-refund-promise")
        .ok_or("the evaluation is gone")?;
    ensure!(
        e.only_while_active == ["billing_mode", "technical_mode"],
        "the draft's evaluation: {e:?}"
    )?;
    ensure_valid(&saved)?;
    scroll_to(ctx, form)?;
    ctx.screenshot("evaluation-limited").map(drop)
}

/// Each evaluation of the draft on disk with the session states it is limited to.
fn limits_on_disk(ctx: &Ctx) -> Result<Vec<(String, Vec<String>)>, String> {
    Ok(plan(ctx, "account-care")?
        .evaluations
        .iter()
        .map(|e| (e.id.clone(), e.only_while_active.clone()))
        .collect())
}

/// Waits until the draft on disk limits the evaluations as `want` says.
fn limits_are(ctx: &Ctx, after: &str, want: &[(&str, &[&str])]) -> Outcome {
    let want: Vec<(String, Vec<String>)> = want
        .iter()
        .map(|(e, s)| (e.to_string(), s.iter().map(|s| s.to_string()).collect()))
        .collect();
    let waited = ctx.session().wait_until(after, SHORT, || {
        wait_saved(ctx)?;
        Ok(limits_on_disk(ctx)? == want)
    });
    waited.map_err(|e| format!("{e}: on disk {:?}", limits_on_disk(ctx)))
}

/// Clicks the middle of the edge `css`, where a press reaches it.
fn click_edge(ctx: &Ctx, css: &str) -> Outcome {
    let at = ctx.session().execute(
        "const g = document.querySelector(arguments[0]);
         if (!g) return 'no edge ' + arguments[0];
         const p = g.querySelector('path.edge-hit');
         const m = p.getPointAtLength(p.getTotalLength() / 2);
         const pt = new DOMPoint(m.x, m.y).matrixTransform(p.getScreenCTM());
         const x = Math.round(pt.x), y = Math.round(pt.y);
         const hit = document.elementFromPoint(x, y);
         if (!hit || !g.contains(hit)) return 'the middle of the edge is under ' + (hit && hit.outerHTML.slice(0, 120));
         return [x, y];",
        serde_json::json!([css]),
    )?;
    let (Some(x), Some(y)) = (at[0].as_i64(), at[1].as_i64()) else {
        return Err(at.to_string());
    };
    click_at(ctx, (x, y))
}

/// Seed 001's drawing, on the telecom sample's canvas: the lanes below the flow show its session
/// states as chips and its evaluations as cards with the one edge it has. An edge dragged from
/// "Offer a bigger plan" onto "Polite throughout" limits that evaluation (the card says so, the
/// draft keeps it); the edge's end dragged onto the other evaluation moves it; Delete removes it;
/// Ctrl+Z brings it back; each one step.
fn an_edge_drawn_from_a_session_state_to_an_evaluation_limits_it_and_moves_deletes_and_undoes(
    ctx: &Ctx,
) -> Outcome {
    open_plan(ctx, "account-care")?;
    let (chip, card, edge) = (hooks::session_chip, hooks::evaluation_card, hooks::limit);
    ensure!(
        count(ctx, hooks::SESSION_CHIP)? == 9,
        "the nine session states are chips"
    )?;
    ensure!(
        count(ctx, hooks::EVALUATION_CARD)? == 2,
        "the two evaluations are cards"
    )?;
    ensure!(
        count(ctx, &edge("billing_mode", "no-refund-promise"))? == 1,
        "the sample's edge is drawn"
    )?;
    ctx.screenshot("lanes").map(drop)?;

    // Drawn: from the chip onto the card.
    let from = reachable_point(ctx, &chip("upsell"))?;
    let to = reachable_point(ctx, &card("polite"))?;
    ctx.session().drag(from, to, 8).map_err(|e| e.to_string())?;
    limits_are(
        ctx,
        "the edge drawn is kept",
        &[
            ("polite", &["upsell"]),
            ("no-refund-promise", &["billing_mode"]),
        ],
    )?;
    ctx.session()
        .wait_until("the card says when it is asked", SHORT, || {
            Ok(text_of(
                ctx,
                &format!("{} [data-testid=evaluation-scope]", card("polite")),
            )? == "Only while Offer a bigger plan is on")
        })?;

    // Selected by a click, its end dragged onto the other evaluation.
    click_edge(ctx, &edge("upsell", "polite"))?;
    ctx.session().wait_for(
        &format!("{}[data-selected=true]", edge("upsell", "polite")),
        SHORT,
    )?;
    ctx.screenshot("lanes-edge-selected").map(drop)?;
    let end = reachable_point(ctx, hooks::LIMIT_END)?;
    let other = reachable_point(ctx, &card("no-refund-promise"))?;
    ctx.session()
        .drag(end, other, 8)
        .map_err(|e| e.to_string())?;
    limits_are(
        ctx,
        "the edge moved to the other evaluation",
        &[
            ("polite", &[]),
            ("no-refund-promise", &["billing_mode", "upsell"]),
        ],
    )?;

    // Deleted with the key, back with Ctrl+Z.
    click_edge(ctx, &edge("billing_mode", "no-refund-promise"))?;
    ctx.session().wait_for(
        &format!(
            "{}[data-selected=true]",
            edge("billing_mode", "no-refund-promise")
        ),
        SHORT,
    )?;
    ctx.session().chord(&[DELETE])?;
    limits_are(
        ctx,
        "the edge deleted",
        &[("polite", &[]), ("no-refund-promise", &["upsell"])],
    )?;
    ensure!(
        count(ctx, &edge("billing_mode", "no-refund-promise"))? == 0,
        "the deleted edge is still drawn"
    )?;
    ctx.session().chord(&[CTRL, "z"])?;
    limits_are(
        ctx,
        "the edge back after Ctrl+Z",
        &[
            ("polite", &[]),
            ("no-refund-promise", &["billing_mode", "upsell"]),
        ],
    )?;
    let saved = plan(ctx, "account-care")?;
    ensure_valid(&saved)?;
    ctx.screenshot("lanes-after").map(drop)
}

/// A caller written in plain words (typed with real keys): a patience out of bounds is refused in
/// `plan simulate`'s words with nothing written; mended, the file is written as the form says,
/// edited again with a judge question, and it runs with the others.
fn a_caller_written_in_the_form_is_checked_saved_edited_and_runs(ctx: &Ctx) -> Outcome {
    let server = ModelServer::start();
    stating_caller(&server);
    open_plan(ctx, "customer-support")?;
    click(ctx, hooks::TAB_SIMULATE)?;
    callers_listed(ctx, 2)?;
    // By keyboard: Enter on "New caller" opens the form; Enter in a field saves it (below).
    let new = ctx.session().wait_for(hooks::SIM_NEW_PERSONA, SHORT)?;
    ctx.session().send_keys(&new, ENTER)?;
    ctx.session().wait_for(hooks::PERSONA_FORM, SHORT)?;
    type_text(ctx, hooks::PERSONA_TITLE, "Late payer")?;
    type_text(
        ctx,
        hooks::PERSONA_WHO,
        "A customer whose card was declined twice this month.",
    )?;
    click(ctx, "[data-testid=persona-behaviour][data-behaviour=terse]")?;
    for (name, value) in [("customer_name", "Ann Lee"), ("issue_type", "billing")] {
        click(ctx, hooks::PERSONA_ADD_FACT)?;
        type_text(ctx, hooks::PERSONA_LAST_FACT_NAME, name)?;
        type_text(ctx, hooks::PERSONA_LAST_FACT_VALUE, value)?;
    }
    click(
        ctx,
        "[data-testid=persona-visits] [data-state-id=customer-intake]",
    )?;
    // A value the plan must have captured: a key picked from the plan's, its value typed.
    click(ctx, hooks::PERSONA_ADD_VALUE)?;
    set_value(ctx, hooks::PERSONA_VALUE_KEY, "customer_name")?;
    type_text(ctx, hooks::PERSONA_VALUE, "Ann Lee")?;
    type_text(ctx, hooks::PERSONA_PATIENCE, "500")?;
    ctx.screenshot("persona-form")?;
    plan_tests::axe::check(ctx, "the persona form filled in")?;
    click(ctx, hooks::PERSONA_SAVE)?;
    wait_text(
        ctx,
        hooks::PERSONA_ERROR,
        "personas/late-payer.json: /max_turns",
    )?;
    plan_tests::axe::check(ctx, "the persona form refusing a value")?;
    let file = ctx
        .workspace()
        .join("customer-support/personas/late-payer.json");
    ensure!(!file.exists(), "nothing written when refused")?;
    type_text(ctx, hooks::PERSONA_PATIENCE, "6")?;
    let patience = ctx.session().wait_for(hooks::PERSONA_PATIENCE, SHORT)?;
    ctx.session().send_keys(&patience, ENTER)?;
    ctx.session()
        .wait_until(
            "the form to close and three callers to be listed",
            WAIT,
            || Ok(count(ctx, hooks::PERSONA_FORM)? == 0 && count(ctx, hooks::SIM_PERSONA)? == 3),
        )
        .map_err(|e| e.to_string())?;
    let written = |file: &std::path::Path| -> Result<serde_json::Value, String> {
        let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
        serde_json::from_str(&text).map_err(|e| e.to_string())
    };
    let saved = written(&file)?;
    let expected = serde_json::json!({
        "id": "late-payer",
        "title": "Late payer",
        "who": "A customer whose card was declined twice this month.",
        "facts": {"customer_name": "Ann Lee", "issue_type": "billing"},
        "behaviour": ["terse"],
        "max_turns": 6,
        "expect": {"visits": ["customer-intake"], "deliverables": {"customer_name": "Ann Lee"}}
    });
    ensure!(
        saved == expected,
        "the file says what the form said: {saved}"
    )?;
    // Edited again: a question for the judge.
    click(
        ctx,
        "[data-testid=sim-persona][data-id=late-payer] [data-testid=sim-edit-persona]",
    )?;
    ctx.session().wait_for(hooks::PERSONA_FORM, SHORT)?;
    let title = value_of(ctx, hooks::PERSONA_TITLE)?;
    ensure!(
        title == "Late payer",
        "the form opens on the file: {title:?}"
    )?;
    click(ctx, hooks::PERSONA_ADD_QUESTION)?;
    type_text(ctx, hooks::PERSONA_QUESTION, "Was the agent polite?")?;
    click(ctx, hooks::PERSONA_SAVE)?;
    ctx.session()
        .wait_until("the form to close", WAIT, || {
            Ok(count(ctx, hooks::PERSONA_FORM)? == 0)
        })
        .map_err(|e| e.to_string())?;
    let saved = written(&file)?;
    ensure!(
        saved["judge"] == serde_json::json!([{"id": "q1", "question": "Was the agent polite?"}]),
        "the question is kept: {saved}"
    )?;
    // It runs with the others.
    set_value(ctx, hooks::SIM_CALLER_URL, &server.base_url)?;
    set_value(ctx, hooks::SIM_CALLER_MODEL, "test-model")?;
    set_value(ctx, hooks::SIM_CONVERSATIONS, "1")?;
    click(ctx, hooks::SIM_RUN)?;
    wait_text(ctx, hooks::SIM_SUMMARY, "3 passed, 0 failed")?;
    ctx.screenshot("persona-run").map(drop)
}
