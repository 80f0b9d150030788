//! `plan simulate` as an author runs it (simulate.md), against the OpenAI-compatible test server
//! of 127.0.0.1 playing the caller and the judge: every sample plan's personas pass with the
//! simulator as the plan's side; a run keeps its conversations, settings and recording and no
//! key; a replay sends nothing and writes the same conversations, and after an edit names where
//! it diverged; caller failures are counted apart; the judge's doubt is shown; an evaluation
//! limited to a session state is asked only of the turns in which it was active.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use plan_tests::cli::{command, exits, scratch};
use plan_tests::model_server::{stating_caller, text, ModelServer};
use serde_json::{json, Value};

// The judge and whole runs, in files of their own.
#[path = "simulate/judging.rs"]
mod judging;
#[path = "simulate/runs.rs"]
mod runs;

/// `plan --workspace WS simulate ARGS --format json` with none of the user's model variables.
fn simulate(ws: &Path, args: &[&str]) -> Output {
    simulate_command(ws, args).output().expect("plan runs")
}

/// [`simulate`], not yet run.
fn simulate_command(ws: &Path, args: &[&str]) -> std::process::Command {
    let mut c = simulate_text(ws, args);
    c.args(["--format", "json"]);
    c
}

/// `plan --workspace WS simulate ARGS` with its text output and none of the user's model
/// variables, not yet run.
fn simulate_text(ws: &Path, args: &[&str]) -> std::process::Command {
    let mut c = command();
    for role in ["LLM", "CALLER", "JUDGE"] {
        for field in ["BASE_URL", "MODEL", "API_KEY"] {
            c.env_remove(format!("PLAN_BUILDER_{role}_{field}"));
        }
    }
    c.env("XDG_CONFIG_HOME", ws.join(".config"))
        .arg("--workspace")
        .arg(ws)
        .arg("simulate")
        .args(args);
    c
}

fn report(o: &Output, code: i32) -> Value {
    let (out, err) = exits(o, code);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}\n{err}"))
}

fn live<'a>(server: &'a ModelServer, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "--caller-base-url",
        server.base_url.as_str(),
        "--caller-model",
        "test-model",
    ];
    args.extend_from_slice(more);
    args
}

/// The workspace `ws`, made with its sample plans by a first command.
fn make_workspace(ws: &Path) {
    exits(
        &command()
            .arg("--workspace")
            .arg(ws)
            .arg("list")
            .output()
            .unwrap(),
        0,
    );
}

/// One conversation of the daily routine's "not today" persona, the caller (and judge) played by
/// `server`: the JSON report, the run exiting `code`.
fn not_today_once(ws: &Path, server: &ModelServer, code: i32) -> Value {
    report(&simulate(ws, &live(server, &NOT_TODAY_ONCE)), code)
}

/// One conversation of the daily routine's "not today" persona.
const NOT_TODAY_ONCE: [&str; 6] = [
    "--plan",
    "daily-routine",
    "--persona",
    "not-today",
    "--conversations",
    "1",
];

/// `plan simulate --plan PLAN --replay RUN`.
fn replay(ws: &Path, plan: &str, run: &Value, code: i32) -> Value {
    let run = run.as_str().expect("a run id");
    report(&simulate(ws, &["--plan", plan, "--replay", run]), code)
}

/// `plan simulate ARGS`, which must be refused with exit 2: what it said.
fn refused(ws: &Path, args: &[&str]) -> (String, String) {
    exits(&simulate(ws, args), 2)
}

/// The judge's requests the server received, in order.
fn judged(server: &ModelServer) -> Vec<Value> {
    server
        .completions()
        .into_iter()
        .map(|r| r.body)
        .filter(|b| b.get("response_format").is_some())
        .collect()
}

fn run_dir(ws: &Path, plan: &str, run: &Value) -> PathBuf {
    ws.join(plan).join("runs").join(run.as_str().unwrap())
}

#[test]
fn every_sample_plans_personas_pass_with_the_simulator_as_the_plans_side() {
    let ws = scratch("samples").join("ws");
    let server = ModelServer::start();
    stating_caller(&server);
    for plan in [
        "customer-support",
        "account-care",
        "vehicle-viewing",
        "medical-intake",
        "daily-routine",
        "collections",
    ] {
        let r = report(
            &simulate(
                &ws,
                &live(
                    &server,
                    &["--plan", plan, "--conversations", "2", "--seed", "7"],
                ),
            ),
            0,
        );
        let personas = r["personas"].as_array().unwrap();
        assert_eq!(personas.len(), 2, "{plan}: {r}");
        for p in personas {
            assert_eq!(
                (p["passed"].as_u64(), p["failed"].as_u64()),
                (Some(2), Some(0)),
                "{plan}: {r}"
            );
        }
        for c in r["conversations"].as_array().unwrap() {
            assert_eq!(c["status"], "passed", "{plan}: {c}");
            assert!(
                c["checks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|k| k["ok"] == true),
                "{c}"
            );
            let verdict = &c["verdicts"][0];
            assert_eq!(
                (verdict["verdict"].as_str(), verdict["agreement"].as_str()),
                (Some("yes"), Some("3/3")),
                "{c}"
            );
        }
        assert_eq!(r["plan"]["id"], plan);
        assert_eq!(r["plan"]["draft"], true);
        assert!(r["plan"]["hash"].as_str().unwrap().starts_with("sha256:"));
        assert_eq!(r["seed"], 7);
        // The heat map counts every conversation in the start state.
        let start = r["heat"]["states"]
            .as_object()
            .unwrap()
            .values()
            .filter_map(Value::as_u64)
            .max();
        assert_eq!(start, Some(4), "{plan}: {}", r["heat"]);
    }
}

#[test]
fn a_run_keeps_its_files_and_never_a_key_and_its_replay_sends_nothing() {
    let ws = scratch("replay").join("ws");
    let server = ModelServer::start();
    stating_caller(&server);
    let secret = "sk-test-5f1d2a77c0";
    let mut c = command();
    let o = c
        .env("PLAN_BUILDER_CALLER_API_KEY", secret)
        .env("XDG_CONFIG_HOME", ws.join(".config"))
        .arg("--workspace")
        .arg(&ws)
        .args([
            "simulate",
            "--plan",
            "customer-support",
            "--conversations",
            "2",
            "--format",
            "json",
        ])
        .args(live(&server, &[]))
        .output()
        .unwrap();
    let first = report(&o, 0);
    let sent = server.completions();
    assert!(sent
        .iter()
        .all(|r| r.header("authorization") == Some(&format!("Bearer {secret}"))));
    let dir = run_dir(&ws, "customer-support", &first["run"]);
    // The run's files, and not a trace of the key in any of them.
    let mut files = vec![dir.join("run.json"), dir.join("recording.jsonl")];
    for entry in fs::read_dir(dir.join("conversations")).unwrap() {
        files.push(entry.unwrap().path());
    }
    assert_eq!(files.len(), 2 + 4, "{files:?}");
    for f in &files {
        assert!(
            !fs::read_to_string(f).unwrap().contains(secret),
            "{} holds the key",
            f.display()
        );
    }
    let recording = fs::read_to_string(dir.join("recording.jsonl")).unwrap();
    let lines: Vec<Value> = recording
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), sent.len(), "one line per request sent");
    for (line, received) in lines.iter().zip(&sent) {
        assert_eq!(line["request"], received.body, "the body is kept whole");
        assert_eq!(line["request_sha256"].as_str().unwrap().len(), 64);
        assert!(
            ["caller", "judge"].contains(&line["role"].as_str().unwrap()),
            "{line}"
        );
    }
    let run: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["seed"], first["seed"]);
    assert_eq!(run["personas"].as_array().unwrap().len(), 2);
    assert_eq!(run["settings"]["votes"], 3);
    assert!(run["started"].as_str().unwrap().ends_with('Z'));
    // What it cost, by role: the requests the server got, counted in the run and its report.
    let judge = judged(&server).len() as u64;
    assert_eq!(run["cost"], first["cost"]);
    assert_eq!(first["cost"]["judge"]["requests"], judge);
    assert_eq!(
        first["cost"]["caller"]["requests"],
        sent.len() as u64 - judge
    );
    assert_eq!(
        first["cost"]["agent"]["requests"], 0,
        "the simulator sends nothing"
    );

    // The replay: nothing sent, the same conversations byte for byte, kept as a run of its own.
    let again = replay(&ws, "customer-support", &first["run"], 0);
    assert_eq!(
        server.completions().len(),
        sent.len(),
        "a replay sends nothing"
    );
    assert_ne!(again["run"], first["run"]);
    assert_eq!(again["replay_of"], first["run"]);
    let replayed = run_dir(&ws, "customer-support", &again["run"]);
    for name in [
        "billing-refund-1",
        "billing-refund-2",
        "router-fault-1",
        "router-fault-2",
    ] {
        let file =
            |d: &Path| fs::read(d.join("conversations").join(format!("{name}.json"))).unwrap();
        assert_eq!(file(&dir), file(&replayed), "{name} replays byte for byte");
    }

    // After an edit of a persona: that persona's conversations diverge where its prompt changed,
    // nothing is sent, and the run fails.
    let persona = ws.join("customer-support/personas/billing-refund.json");
    let edited = fs::read_to_string(&persona)
        .unwrap()
        .replace("charged twice", "charged three times");
    fs::write(&persona, edited).unwrap();
    let diverged = replay(&ws, "customer-support", &first["run"], 1);
    assert_eq!(
        server.completions().len(),
        sent.len(),
        "a diverged replay sends nothing"
    );
    for c in diverged["conversations"].as_array().unwrap() {
        if c["persona"] == "billing-refund" {
            assert_eq!(c["status"], "diverged", "{c}");
            assert_eq!(
                c["diverged"],
                json!({"turn": 1, "role": "caller", "what": "the system prompt"})
            );
        } else {
            assert_eq!(c["status"], "passed", "{c}");
        }
    }
    // --record-missing sends what differs, into a new recording.
    let recorded = report(
        &simulate(
            &ws,
            &live(
                &server,
                &[
                    "--plan",
                    "customer-support",
                    "--replay",
                    first["run"].as_str().unwrap(),
                    "--record-missing",
                ],
            ),
        ),
        0,
    );
    assert!(server.completions().len() > sent.len());
    assert!(recorded["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["status"] == "passed"));

    // A run that does not exist is a reading problem.
    let (_, err) = refused(
        &ws,
        &["--plan", "customer-support", "--replay", "20990101-000000"],
    );
    assert!(err.contains("has no run \"20990101-000000\""), "{err}");
}

#[test]
fn a_caller_that_fails_its_part_is_counted_apart_and_fails_nothing() {
    let ws = scratch("caller-failed").join("ws");
    let server = ModelServer::start();
    // The caller hangs up before saying anything.
    server.answer([text("[END]")]);
    let r = not_today_once(&ws, &server, 0);
    let c = &r["conversations"][0];
    assert_eq!(c["status"], "caller_failed");
    assert!(
        c["reason"]
            .as_str()
            .unwrap()
            .contains("hung up before saying anything"),
        "{c}"
    );
    assert_eq!(r["personas"][0]["caller_failed"], 1);
    server.answer([text("")]);
    let o = simulate_text(&ws, &live(&server, &NOT_TODAY_ONCE))
        .output()
        .unwrap();
    let (out, err) = exits(&o, 0);
    assert!(out.contains("not-today/1  caller_failed"), "{out}");
    // The progress on stderr counts the models' time as the recording grows.
    assert!(
        err.contains("simulate: 1/1 conversations done, 0 turns, ")
            && err.contains(" s of model time"),
        "{err}"
    );
    assert!(
        out.trim_end()
            .ends_with("0 passed, 0 failed, 1 caller failed"),
        "{out}"
    );
}

#[test]
fn persona_problems_name_the_file_and_the_field_and_nothing_runs() {
    let ws = scratch("problems").join("ws");
    let server = ModelServer::start();
    // The workspace is made (with its samples) by a first command.
    make_workspace(&ws);
    fs::write(
        ws.join("customer-support/personas/broken.json"),
        json!({"id": "broken", "who": "Someone.", "max_turns": 500,
               "expect": {"visits": ["greeting", "nowhere"], "deliverables": {"colour": "red"}}})
        .to_string(),
    )
    .unwrap();
    let (_, err) = refused(&ws, &live(&server, &["--plan", "customer-support"]));
    for said in [
        "personas/broken.json: /max_turns:",
        "personas/broken.json: /expect/visits/1: The persona names the state 'nowhere'",
        "(unknown-state)",
        "personas/broken.json: /expect/deliverables/colour:",
        "(unknown-deliverable-key)",
    ] {
        assert!(err.contains(said), "{said} in {err}");
    }
    assert!(
        server.completions().is_empty(),
        "a persona with an error does not run"
    );
    assert!(
        !ws.join("customer-support/runs").exists()
            || fs::read_dir(ws.join("customer-support/runs"))
                .unwrap()
                .count()
                == 0
    );
    fs::write(
        ws.join("customer-support/personas/broken.json"),
        "{\"id\": \"broken\",\n \"who\": }",
    )
    .unwrap();
    let (_, err) = refused(
        &ws,
        &live(
            &server,
            &["--plan", "customer-support", "--persona", "broken"],
        ),
    );
    assert!(
        err.contains("personas/broken.json: Line 2, column 9"),
        "{err}"
    );
    let (_, err) = refused(
        &ws,
        &live(
            &server,
            &["--plan", "customer-support", "--persona", "ghost"],
        ),
    );
    assert!(err.contains("has no persona \"ghost\""), "{err}");
    let (_, err) = refused(
        &ws,
        &["--plan", "customer-support", "--persona", "billing-refund"],
    );
    assert!(err.contains("needs a model to play the caller"), "{err}");
}
