//! Temporary: axe-core's WCAG 2.1 A and AA rules on the Simulate tab and the evaluations.

use plan_tests::hooks;
use plan_tests::model_server::{text, ModelServer};
use plan_tests::page::{click, open_plan, set_value, Outcome};
use plan_tests::{Ctx, Test, SHORT};

pub const TESTS: &[Test] = plan_tests::tests![axe_simulate_and_evaluations,];

fn axe(ctx: &Ctx, what: &str) -> Outcome {
    let path = std::path::Path::new(&std::env::var("HOME").unwrap())
        .join(".cache/plan-builder/axe/node_modules/axe-core/axe.min.js");
    let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    ctx.session().execute(&source, serde_json::json!([]))?;
    let result = ctx.session().execute_async(
        "const done = arguments[arguments.length - 1];
         axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a','wcag2aa','wcag21a','wcag21aa']}})
            .then(r => done(r.violations.map(v => v.id + ' ' + v.impact + ' ' + v.nodes.map(n => n.target.join(' ')).slice(0, 4).join(' | '))))
            .catch(e => done(['error ' + e]));",
        serde_json::json!([]),
    )?;
    println!("axe {what}: {result}");
    Ok(())
}

fn axe_simulate_and_evaluations(ctx: &Ctx) -> Outcome {
    let server = ModelServer::start();
    server.respond_with(|body| {
        if body.get("response_format").is_some() {
            return text(r#"{"verdict": "yes", "reason": "it did"}"#);
        }
        text("first_name: Chloe")
    });
    open_plan(ctx, "customer-support")?;
    click(ctx, hooks::TAB_SIMULATE)?;
    ctx.session().wait_for(hooks::SIM_PERSONA, SHORT)?;
    axe(ctx, "simulate tab")?;
    set_value(ctx, hooks::SIM_CALLER_URL, &server.base_url)?;
    set_value(ctx, hooks::SIM_CALLER_MODEL, "test-model")?;
    set_value(ctx, hooks::SIM_CONVERSATIONS, "1")?;
    click(ctx, hooks::SIM_RUN)?;
    ctx.session()
        .wait_for(hooks::SIM_SUMMARY, std::time::Duration::from_secs(60))?;
    click(ctx, hooks::SIM_OPEN_CONVERSATION)?;
    ctx.session().wait_for(hooks::SIM_TRANSCRIPT, SHORT)?;
    axe(ctx, "simulate run with a conversation and the heat map")?;
    ctx.screenshot("axe-simulate")?;
    open_plan(ctx, "account-care")?;
    click(ctx, hooks::TAB_INSPECT)?;
    ctx.session().wait_for(hooks::PLAN_INSPECTOR, SHORT)?;
    axe(ctx, "plan inspector with evaluations")
}
