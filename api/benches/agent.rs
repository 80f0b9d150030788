//! Benchmark: the language-model agent's own time per turn (issue 19), against the local
//! OpenAI-compatible test server answering at once, so what is measured is ours: building the
//! request (system message, transcript, the functions with their enums), the HTTP round trip on
//! 127.0.0.1, reading the answer and mapping its calls to actions, and the runtime's step.
//!
//! `cargo bench -p plan-api --bench agent` prints, for the support sample (a short chat) and for
//! account-care after 30 turns (a longer transcript, session states, gated tools):
//! - building the first request alone and reading an answer with two calls alone, in µs;
//! - a whole turn with two calls and a reply, p50 and p95, in ms (one request);
//! - a whole turn with calls and no text (two requests).
//!
//! Target: ≤ 2 ms of our own time per turn beyond the model's answer.

use std::time::{Duration, Instant};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[allow(dead_code)]
#[path = "../../tests/harness/model_server.rs"]
mod model_server;

use model_server::{calls, ModelServer, Scripted};
use plan_api::agent::model::LanguageModel;
use plan_api::agent::{answer, request, AgentSettings};
use plan_core::runtime::{Chat, PlanRef, PlanVersion, Session, Start, ToolResults};
use plan_core::Plan;
use serde_json::json;

#[path = "../../tests/harness/timing.rs"]
mod timing;
use timing::ms;

fn plan(name: &str) -> Plan {
    let path = format!("{}/../plans/{name}.json", env!("CARGO_MANIFEST_DIR"));
    plan_core::parse_plan(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn percentile(runs: &mut [Duration], p: f64) -> Duration {
    runs.sort();
    runs[((runs.len() as f64 * p) as usize).min(runs.len() - 1)]
}

fn us(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

/// A session of `plan` in `state`, `turns` simulator turns in.
fn session(plan: &Plan, state: &str, turns: usize) -> Session {
    let r = PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    let start = Start {
        state: Some(state.into()),
        ..Start::default()
    };
    let (mut chat, _) = Chat::open_from(plan, &plan_core::runtime::Simulator, r, &start).unwrap();
    for i in 0..turns {
        chat.say(&format!("/insight note {i}\nsomething to say"))
            .unwrap();
    }
    chat.session
}

fn two_calls(key_a: &str, key_b: &str, text: &str) -> Scripted {
    calls(
        text,
        &[
            (
                "record_deliverable",
                json!({"key": key_a, "value": "x", "quote": "x"}),
            ),
            ("record_deliverable", json!({"key": key_b, "value": "y"})),
        ],
    )
}

fn bench(name: &str, plan: &Plan, before: &Session, keys: (&str, &str), server: &ModelServer) {
    let settings = AgentSettings {
        base_url: server.base_url.clone(),
        model: "test-model".into(),
        ..AgentSettings::default()
    };
    let n = 300;
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(request::first(&settings, plan, before, "hello").to_string());
    }
    let build = t.elapsed() / n;
    let Scripted::Body(body) = two_calls(keys.0, keys.1, "Thanks.") else {
        unreachable!()
    };
    let body = body.to_string();
    let t = Instant::now();
    for _ in 0..n {
        let a = answer::read(&body).unwrap();
        for c in &a.calls {
            let args = answer::arguments(c).unwrap();
            std::hint::black_box(answer::action(plan, c, &args, &ToolResults::new()).unwrap());
        }
    }
    let read = t.elapsed() / n;
    let model = LanguageModel::new(settings, None);
    let turn = |answers: Vec<Scripted>| {
        let mut runs = Vec::new();
        for _ in 0..200 {
            server.answer(answers.clone());
            let mut chat = Chat::resume(plan, &model, before.clone());
            let t = Instant::now();
            chat.say("hello").expect("a turn");
            runs.push(t.elapsed());
        }
        (percentile(&mut runs, 0.5), percentile(&mut runs, 0.95))
    };
    let (p50, p95) = turn(vec![two_calls(keys.0, keys.1, "Thanks.")]);
    let (q50, q95) = turn(vec![
        two_calls(keys.0, keys.1, ""),
        model_server::text("Thanks."),
    ]);
    println!(
        "{name} ({} transcript lines): request built {}, answer read and mapped {}; a turn p50 {} p95 {}; with a second request p50 {} p95 {}",
        before.transcript.len(),
        us(build),
        us(read),
        ms(p50),
        ms(p95),
        ms(q50),
        ms(q95)
    );
}

fn main() {
    let server = ModelServer::start();
    let support = plan("customer-support");
    let intake = session(&support, "billing-support", 2);
    bench(
        "customer-support",
        &support,
        &intake,
        ("billing_topic", "invoice_number"),
        &server,
    );
    let care = plan("account-care");
    let long = session(&care, "billing", 30);
    bench(
        "account-care",
        &care,
        &long,
        ("overcharge", "line_problem"),
        &server,
    );
}
