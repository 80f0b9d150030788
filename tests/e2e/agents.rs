//! End-to-end tests of the language-model agent (issue 19) in the real app, pointed at the
//! OpenAI-compatible test server this process starts on 127.0.0.1: the author sets the model up
//! in the Chat tab (Test connection lists the server's models), chats through the support plan to
//! billing with the model's calls folded under its replies, one turn failing (the window stays
//! responsive while the model thinks), retried, and answered by the simulator. And once against a
//! real server and model (`harness/llama.rs`): the cost of each turn, and a model that calls no
//! functions said so.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`.
//! Screenshots land in `target/e2e/`.

use std::time::{Duration, Instant};

use plan_tests::chat::{agent_lines, is_in, say, start_chat, LONG};
use plan_tests::ensure;
use plan_tests::hooks;
use plan_tests::llama::{LlamaServer, Template, MODEL};
use plan_tests::model_server::{calls, ModelServer, Scripted};
use plan_tests::page::{click, count, ensure_count, open_plan, set_value, text_of, texts, Outcome};
use plan_tests::{Ctx, Test, SHORT};
use serde_json::json;

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] = plan_tests::tests![
    the_app_chats_with_a_language_model_to_billing_and_a_failed_turn_is_answered_by_the_simulator,
    a_real_model_that_calls_no_functions_is_said_once_and_every_turn_says_its_cost,
];

/// The app against a real server and model (llama-cpp-python's server with SmolLM2, started with
/// the model's own template, which calls no functions): Test connection says that function
/// calling does not work and what to do; two turns answered, each saying its tokens and time; the
/// notice under the second reply, once; the conversation's total at the foot.
fn a_real_model_that_calls_no_functions_is_said_once_and_every_turn_says_its_cost(
    ctx: &Ctx,
) -> Outcome {
    let server = LlamaServer::start(Template::Model)?;
    language_model_at(ctx, &server.base_url)?;
    set_value(ctx, hooks::AGENT_MODEL, MODEL)?;
    click(ctx, hooks::AGENT_TEST)?;
    wait_text(ctx, "agent-note", "--jinja")?;
    ctx.screenshot("real-model-settings")?;
    click(ctx, hooks::AGENT_SAVE)?;
    wait_text(ctx, "agent-note", "Saved: smollm2")?;
    start_chat(ctx)?;
    say(ctx, "Hi, I was charged twice on my last bill.")?;
    ensure!(
        count(ctx, hooks::CHAT_NO_FUNCTIONS)? == 0,
        "the notice came after one turn: a model may greet first"
    )?;
    say(ctx, "My name is Ann Lee, account 12345.")?;
    is_in(ctx, "greeting")?;
    ensure!(
        count(ctx, hooks::CHAT_NO_FUNCTIONS)? == 1,
        "the chat does not say, once, that the model calls no functions"
    )?;
    let notice = text_of(ctx, hooks::CHAT_NO_FUNCTIONS)?;
    ensure!(notice.contains("--jinja"), "the notice says {notice:?}")?;
    let costs = texts(ctx, hooks::CHAT_TURN_COST)?;
    ensure!(
        costs.len() == 2
            && costs
                .iter()
                .all(|c| c.contains(" tokens, ") && c.ends_with(" s")),
        "each model turn should say its cost: {costs:?}"
    )?;
    wait_text(ctx, "chat-cost", "Language model: 2 turns, ")?;
    ctx.screenshot("real-model-chat").map(drop)
}

/// Waits until the element `testid` says `contains`.
fn wait_text(ctx: &Ctx, testid: &str, contains: &str) -> Outcome {
    let mut seen = String::new();
    ctx.session()
        .wait_until(&format!("{testid} to say {contains:?}"), LONG, || {
            seen = text_of(ctx, &format!("[data-testid={testid}]")).unwrap_or_default();
            Ok(seen.contains(contains))
        })
        .map_err(|e| format!("{e} (it says {seen:?})"))
}

fn the_app_chats_with_a_language_model_to_billing_and_a_failed_turn_is_answered_by_the_simulator(
    ctx: &Ctx,
) -> Outcome {
    let server = ModelServer::start();
    language_model_at(ctx, &server.base_url)?;
    set_value(ctx, hooks::AGENT_MODEL, "test-model")?;
    // A short timeout, so that the turn the server sits on fails within the test.
    set_value(ctx, hooks::AGENT_TIMEOUT, "2")?;
    click(ctx, hooks::AGENT_TEST)?;
    wait_text(
        ctx,
        "agent-note",
        "it has 1 model(s), test-model among them",
    )?;
    ctx.screenshot("agent-settings")?;
    click(ctx, hooks::AGENT_SAVE)?;
    wait_text(ctx, "agent-note", "Saved: test-model")?;
    let kept = std::fs::read_to_string(ctx.harness.config_dir().join("plan-builder/agent.json"))
        .map_err(|e| format!("the settings were not kept: {e}"))?;
    ensure!(
        kept.contains(&server.base_url) && kept.contains("\"timeout_s\": 2"),
        "agent.json holds {kept}"
    )?;

    start_chat(ctx)?;
    server.answer([
        calls(
            "Hello Chloe! Before we start, what's your full name and account number?",
            &[(
                "record_deliverable",
                json!({"key": "first_name", "value": "Chloe", "quote": "I'm Chloe"}),
            )],
        ),
        calls(
            "Thank you. What is it about?",
            &[
                (
                    "record_deliverable",
                    json!({"key": "customer_name", "value": "Chloe Martin"}),
                ),
                (
                    "record_deliverable",
                    json!({"key": "account_number", "value": "CM-1"}),
                ),
            ],
        ),
    ]);
    say(ctx, "Hi, I'm Chloe")?;
    is_in(ctx, "customer-intake")?;
    say(ctx, "Chloe Martin, account CM-1")?;
    // The first request of the chat (Test connection's check of function calling came before).
    let first = server
        .completions()
        .into_iter()
        .find(|r| !r.system().starts_with("You are testing a connection"))
        .ok_or("the chat sent no request")?;
    ensure!(
        first.system().contains("Greet the customer warmly"),
        "the system prompt is {:?}",
        first.system()
    )?;
    ensure_count(
        ctx,
        "[data-testid=chat-call][data-function=record_deliverable][data-accepted=true]",
        3,
        "the model's three accepted calls are not folded under its replies",
    )?;
    ensure_count(
        ctx,
        "[data-testid=chat-message][data-by='Language model']",
        2,
        "the model's replies do not say who wrote them",
    )?;
    let opening = text_of(
        ctx,
        "[data-testid=chat-message][data-turn='0'] [data-testid=chat-by]",
    )?;
    ensure!(
        opening == "Simulator (the opening)",
        "the opening says it was written by {opening:?}"
    )?;

    // The server sits on the next turn past the timeout: the page stays responsive meanwhile.
    server.answer([
        Scripted::Hang(Duration::from_secs(4)),
        Scripted::Status(503, r#"{"error":{"message":"model is loading"}}"#.into()),
    ]);
    let lines = agent_lines(ctx)?;
    let el = ctx.session().wait_for(hooks::CHAT_INPUT, SHORT)?;
    ctx.session().click(&el)?;
    ctx.session().send_keys(&el, "it is about billing")?;
    ctx.session().send_keys(&el, "\u{E007}")?;
    let asked = Instant::now();
    // The frames the page draws meanwhile: the longest gap between two animation frames.
    ctx.session().execute(
        "window.__gaps = []; let last = performance.now();
         const tick = (t) => { window.__gaps.push(t - last); last = t; if (window.__gaps.length < 600) requestAnimationFrame(tick); };
         requestAnimationFrame(tick); return true;",
        json!([]),
    )?;
    let mut slowest = Duration::ZERO;
    while asked.elapsed() < Duration::from_millis(1500) {
        let t = Instant::now();
        ctx.session().execute(
            "return document.querySelectorAll('[data-testid=state]').length;",
            json!([]),
        )?;
        slowest = slowest.max(t.elapsed());
    }
    let frames = ctx.session().execute(
        "const g = window.__gaps.slice(1); return [g.length, Math.max(...g)];",
        json!([]),
    )?;
    let (drawn, longest) = (
        frames[0].as_u64().unwrap_or(0),
        frames[1].as_f64().unwrap_or(f64::MAX),
    );
    eprintln!(
        "while the model was thinking the page answered within {slowest:?} at worst and drew {drawn} frames, the longest gap {longest:.0} ms"
    );
    ensure!(
        drawn >= 30 && longest < 250.0,
        "the page drew {drawn} frames with a gap of {longest:.0} ms while the model was thinking"
    )?;
    ensure!(
        slowest < Duration::from_millis(500),
        "the page took {slowest:?} to answer while the model was thinking"
    )?;
    wait_text(ctx, "chat-failed", "did not answer within 2 s")?;
    ensure!(
        text_of(ctx, hooks::CHAT_FAILED)?.contains("it is about billing"),
        "the failed turn does not keep the message"
    )?;
    ensure!(agent_lines(ctx)? == lines, "a failed turn added a reply")?;
    is_in(ctx, "customer-intake")?;
    click(ctx, hooks::CHAT_RETRY)?;
    wait_text(ctx, "chat-failed", "answered HTTP 503 (model is loading)")?;
    ctx.screenshot("agent-failed-turn")?;
    click(ctx, hooks::CHAT_FALLBACK)?;
    ctx.session()
        .wait_until("the simulator's reply", LONG, || {
            Ok(agent_lines(ctx)? == lines + 1)
        })?;
    is_in(ctx, "billing-support")?;
    ensure!(
        count(ctx, hooks::CHAT_FAILED)? == 0,
        "the failed turn is still shown"
    )?;
    let by = text_of(
        ctx,
        "[data-testid=chat-message][data-role=agent]:last-child [data-testid=chat-by]",
    )?;
    ensure!(
        by == "Simulator, for the model",
        "the last reply says {by:?}"
    )?;
    click(
        ctx,
        "[data-testid=chat-message][data-role=agent]:last-child [data-testid=chat-trace] summary",
    )?;
    let trace = text_of(
        ctx,
        "[data-testid=chat-message][data-role=agent]:last-child [data-testid=chat-trace]",
    )?;
    ensure!(
        trace.contains("the simulator answered this turn: the language model failed"),
        "the trace says {trace:?}"
    )?;
    // The newest line stays in view, its trace unfolded included, as in any chat window.
    ctx.session()
        .wait_until("the transcript at its newest line", SHORT, || {
            let v = ctx.session().execute(
                "const t = document.querySelector('[data-testid=chat-transcript]'); \
                 return t.scrollHeight - t.scrollTop - t.clientHeight;",
                json!([]),
            )?;
            Ok(v.as_f64().is_some_and(|gap| gap <= 2.0))
        })?;
    // The model's calls of turn 2, as the author unfolds them.
    click(ctx, "[data-testid=chat-message][data-turn='2'][data-role=agent] [data-testid=chat-calls] summary")?;
    let calls = text_of(
        ctx,
        "[data-testid=chat-message][data-turn='2'][data-role=agent] [data-testid=chat-calls]",
    )?;
    ensure!(
        calls.contains("record_deliverable(key \"account_number\", value \"CM-1\") → accepted"),
        "the calls say {calls:?}"
    )?;
    // Test connection's check of function calling, then the chat's four.
    ensure!(
        server.completions().len() == 5,
        "{} completion requests",
        server.completions().len()
    )?;
    ctx.screenshot("agent-chat").map(drop)
}

/// Opens the support sample's test chat with the language model chosen, its settings unset (the
/// welcome's mark beside them stays) and then pointed at `base_url`.
fn language_model_at(ctx: &Ctx, base_url: &str) -> Outcome {
    let _ = std::fs::remove_file(ctx.harness.config_dir().join("plan-builder/agent.json"));
    open_plan(ctx, "customer-support")?;
    click(ctx, hooks::TAB_CHAT)?;
    click(ctx, "[data-testid=chat-agent][data-agent=llm]")?;
    ctx.session()
        .wait_for("[data-testid=agent-settings][open]", SHORT)?;
    set_value(ctx, hooks::AGENT_BASE_URL, base_url)
}
