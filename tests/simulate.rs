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
    let r = report(
        &simulate(
            &ws,
            &live(
                &server,
                &[
                    "--plan",
                    "daily-routine",
                    "--persona",
                    "not-today",
                    "--conversations",
                    "1",
                ],
            ),
        ),
        0,
    );
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
    let mut cmd = command();
    server.answer([text("")]);
    let o = cmd
        .arg("--workspace")
        .arg(&ws)
        .args([
            "simulate",
            "--plan",
            "daily-routine",
            "--persona",
            "not-today",
            "--conversations",
            "1",
        ])
        .args(live(&server, &[]))
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

/// Ctrl-C stops a run as the app's Stop does: no request after it, what finished kept in
/// `runs/` with the rest `stopped`, listed as any run; exit 130, never read as a pass.
#[test]
fn ctrl_c_stops_a_run_and_keeps_it_as_stopped() {
    let ws = scratch("ctrl-c").join("ws");
    let server = ModelServer::start();
    // A slow caller: each answer takes a fifth of a second.
    server.respond_with(|_| {
        std::thread::sleep(std::time::Duration::from_millis(200));
        text("I would like a refund, please.")
    });
    let args = live(
        &server,
        &[
            "--plan",
            "customer-support",
            "--persona",
            "billing-refund",
            "--conversations",
            "20",
        ],
    );
    let child = simulate_command(&ws, &args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    while server.completions().len() < 3 {
        assert!(
            waited.elapsed().as_secs() < 30,
            "the run never asked the caller"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let o = child.wait_with_output().unwrap();
    let (out, err) = exits(&o, 130);
    assert!(err.contains("stopping"), "{err}");
    let r: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let statuses: Vec<&str> = r["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses.len(), 20, "every conversation is accounted for");
    assert!(statuses.contains(&"stopped"), "{statuses:?}");
    let sent = server.completions().len();
    let dir = run_dir(&ws, "customer-support", &r["run"]);
    let kept: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(kept["stopped"], true, "{kept}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        server.completions().len(),
        sent,
        "nothing sent after the stop"
    );
    // Kept as any run: its replay sends nothing, stops where it stopped, and writes the same
    // conversation files.
    let again = replay(&ws, "customer-support", &r["run"], 0);
    assert_eq!(server.completions().len(), sent);
    let replayed = run_dir(&ws, "customer-support", &again["run"]);
    for k in 1..=20 {
        let file = format!("conversations/billing-refund-{k}.json");
        assert_eq!(
            fs::read_to_string(dir.join(&file)).unwrap(),
            fs::read_to_string(replayed.join(&file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn the_judges_doubt_is_shown_and_an_unparsable_vote_is_invalid() {
    let ws = scratch("judge").join("ws");
    let server = ModelServer::start();
    // not-today: one caller turn ("ready_to_start: false" ends the plan), then three votes.
    server.answer([
        text("ready_to_start: false"),
        text(r#"{"verdict": "yes", "reason": "kind"}"#),
        text(r#"{"verdict": "no", "reason": "abrupt"}"#),
        text("Yes, it was kind."),
    ]);
    let r = report(
        &simulate(
            &ws,
            &live(
                &server,
                &[
                    "--plan",
                    "daily-routine",
                    "--persona",
                    "not-today",
                    "--conversations",
                    "1",
                ],
            ),
        ),
        1,
    );
    let v = &r["conversations"][0]["verdicts"][0];
    assert_eq!(v["votes"], json!(["yes", "no", "invalid"]));
    assert_eq!(
        (v["verdict"].as_str(), v["agreement"].as_str()),
        (Some("unsure"), Some("1/3"))
    );
    assert_eq!(r["conversations"][0]["status"], "unsure");
    // The judge's request asks for the verdict's shape, and each vote has its own seed.
    let judged = judged(&server);
    assert_eq!(judged.len(), 3);
    assert_eq!(judged[0]["response_format"]["type"], "json_schema");
    let seeds: Vec<&Value> = judged.iter().map(|b| &b["seed"]).collect();
    assert!(seeds[0] != seeds[1] && seeds[1] != seeds[2], "{seeds:?}");
    assert_eq!(judged[0]["temperature"], 0.7);
}

/// A plan whose `escalated` session state is switched on by the arrow to Escalated, with one
/// evaluation limited to it and one limited to a state never active.
fn escalating_plan() -> Value {
    json!({"id": "esc", "title": "Escalation", "states": [
        {"id": "intake", "title": "Intake", "type": "loose", "instructions": "Ask what is wrong.",
         "tasks": [{"id": "t", "deliverables": [{"key": "angry", "type": "boolean"}]}],
         "transitions": [{"target_state_id": "escalated", "condition_type": "deliverable_value",
            "condition_config": {"key": "angry", "value": true},
            "effects": [{"session_state": "escalated", "active": true}]}]},
        {"id": "escalated", "title": "Escalated", "type": "loose", "instructions": "Calm the caller.",
         "tasks": [{"id": "u", "deliverables": [{"key": "calm", "type": "boolean"}]}],
         "transitions": [{"target_state_id": "done", "condition_type": "deliverable_value",
            "condition_config": {"key": "calm", "value": true}}]},
        {"id": "done", "title": "Done", "ending": {"kind": "complete"}}
    ], "session_states": [
        {"id": "escalated", "type": "boolean"},
        {"id": "vip", "type": "boolean"}
    ], "evaluations": [
        {"id": "calm-while-escalated", "question": "While escalated, did the assistant stay calm?", "only_while_active": ["escalated"]},
        {"id": "vip-care", "question": "Was the VIP offered the lounge?", "only_while_active": ["vip"]}
    ]})
}

#[test]
fn an_evaluation_limited_to_a_session_state_is_asked_only_of_the_turns_it_was_active() {
    let ws = scratch("evaluations").join("ws");
    let server = ModelServer::start();
    let file = ws.with_file_name("esc.json");
    fs::write(&file, escalating_plan().to_string()).unwrap();
    let mut new = command();
    let o = new
        .arg("--workspace")
        .arg(&ws)
        .args(["new", "esc", "--from"])
        .arg(&file)
        .output()
        .unwrap();
    exits(&o, 0);
    fs::create_dir_all(ws.join("esc/personas")).unwrap();
    fs::write(
        ws.join("esc/personas/upset.json"),
        json!({"id": "upset", "who": "You are upset about a late delivery.", "max_turns": 5,
               "expect": {"ending": "complete", "visits": ["escalated"]}})
        .to_string(),
    )
    .unwrap();
    server.answer([
        text("I'm fine, just asking."),
        text("angry: true"),
        text("calm: true"),
        text(r#"{"verdict": "yes", "reason": "calm"}"#),
    ]);
    let r = report(
        &simulate(
            &ws,
            &live(
                &server,
                &["--plan", "esc", "--conversations", "1", "--votes", "1"],
            ),
        ),
        0,
    );
    let c = &r["conversations"][0];
    assert_eq!(
        (c["status"].as_str(), c["turns"].as_u64()),
        (Some("passed"), Some(3)),
        "{c}"
    );
    let limited = &c["verdicts"][0];
    assert_eq!(limited["id"], "calm-while-escalated");
    // Switched on in turn 2, active through turn 3.
    assert_eq!(limited["turns_shown"], json!([2, 3]));
    assert_eq!(c["verdicts"][1]["verdict"], "not_asked");
    assert_eq!(c["verdicts"][1]["votes"], json!([]));
    let judged = judged(&server);
    assert_eq!(judged.len(), 1, "no request for an evaluation not asked");
    let shown = judged[0]["messages"][1]["content"].as_str().unwrap();
    assert!(shown.starts_with("Excerpts of the conversation"), "{shown}");
    assert!(
        !shown.contains("just asking") && shown.contains("angry: true"),
        "{shown}"
    );
}

#[test]
fn persona_problems_name_the_file_and_the_field_and_nothing_runs() {
    let ws = scratch("problems").join("ws");
    let server = ModelServer::start();
    // The workspace is made (with its samples) by a first command.
    exits(
        &command()
            .arg("--workspace")
            .arg(&ws)
            .arg("list")
            .output()
            .unwrap(),
        0,
    );
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

#[test]
fn a_judge_server_that_refuses_the_json_schema_format_is_asked_in_the_next_and_the_replay_knows() {
    let ws = scratch("judge-format").join("ws");
    let server = ModelServer::start();
    let refused = r#"{"error":{"message":"1 validation error: ('body', 'response_format', 'type') Input should be 'text' or 'json_object'"}}"#;
    server.answer([
        text("ready_to_start: false"),
        plan_tests::model_server::Scripted::Status(500, refused.into()),
        text(r#"{"verdict": "yes", "reason": "kind"}"#),
    ]);
    let r = report(
        &simulate(
            &ws,
            &live(
                &server,
                &[
                    "--plan",
                    "daily-routine",
                    "--persona",
                    "not-today",
                    "--conversations",
                    "1",
                    "--votes",
                    "1",
                ],
            ),
        ),
        0,
    );
    assert_eq!(r["conversations"][0]["verdicts"][0]["verdict"], "yes");
    let judged = judged(&server);
    assert_eq!(judged[0]["response_format"]["type"], "json_schema");
    assert_eq!(judged[1]["response_format"]["type"], "json_object");
    assert_eq!(
        judged[1]["response_format"]["schema"]["required"],
        json!(["verdict", "reason"])
    );
    let dir = run_dir(&ws, "daily-routine", &r["run"]);
    let run: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["judge_format"], "json_object");
    let sent = server.completions().len();
    let again = report(
        &simulate(
            &ws,
            &[
                "--plan",
                "daily-routine",
                "--replay",
                r["run"].as_str().unwrap(),
            ],
        ),
        0,
    );
    assert_eq!(again["conversations"][0]["status"], "passed");
    assert_eq!(server.completions().len(), sent);
}

/// simulate.md, "Speed": replaying 100 conversations of 10 turns takes under 1 s in the release
/// build (`scripts/test.sh` prints the figure); here, in any build, it must not freeze.
#[test]
fn replaying_a_hundred_conversations_of_ten_turns_is_quick() {
    let ws = scratch("speed").join("ws");
    let server = ModelServer::start();
    server.respond_with(|_| text("I would like to talk about my balance."));
    exits(
        &command()
            .arg("--workspace")
            .arg(&ws)
            .arg("list")
            .output()
            .unwrap(),
        0,
    );
    fs::write(
        ws.join("collections/personas/talker.json"),
        json!({"id": "talker", "who": "You talk about your balance.", "max_turns": 10}).to_string(),
    )
    .unwrap();
    let args = [
        "--plan",
        "collections",
        "--persona",
        "talker",
        "--conversations",
        "100",
    ];
    let first = report(&simulate(&ws, &live(&server, &args)), 0);
    assert!(first["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["turns"] == 10));
    let started = std::time::Instant::now();
    let again = report(
        &simulate(
            &ws,
            &[
                "--plan",
                "collections",
                "--replay",
                first["run"].as_str().unwrap(),
            ],
        ),
        0,
    );
    let took = started.elapsed();
    println!(
        "replaying 100 conversations of 10 turns: {} ms",
        took.as_millis()
    );
    assert_eq!(again["conversations"].as_array().unwrap().len(), 100);
    assert!(took.as_secs() < 20, "{took:?}");
}

/// Two runs of a plan compared (`--compare`, as the app's Compare does): a run whose callers hung
/// up at once against one in which they passed, in either order the earlier first; per persona
/// what passed (the caller failures apart), per ending, the turns; the same run twice, or a run
/// that does not exist, refused with exit 2.
#[test]
fn two_runs_compared_say_per_persona_and_ending_what_changed_the_earlier_first() {
    let ws = scratch("compare").join("ws");
    let server = ModelServer::start();
    let plan = [
        "--plan",
        "daily-routine",
        "--conversations",
        "2",
        "--seed",
        "3",
    ];
    server.answer([text("[END]"), text("[END]"), text("[END]"), text("[END]")]);
    let hung_up = report(&simulate(&ws, &live(&server, &plan)), 0);
    // Run ids are read to the second: the second run is a second later.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    stating_caller(&server);
    let passed = report(&simulate(&ws, &live(&server, &plan)), 0);
    let (first, second) = (
        hung_up["run"].as_str().unwrap(),
        passed["run"].as_str().unwrap(),
    );
    assert!(first < second, "{first} {second}");

    let compared = report(
        &simulate(
            &ws,
            &["--plan", "daily-routine", "--compare", second, first],
        ),
        0,
    );
    assert_eq!(compared["before"]["run"], first, "{compared}");
    assert_eq!(compared["after"]["run"], second);
    let personas = compared["comparison"]["personas"].as_array().unwrap();
    assert_eq!(personas.len(), 2, "{compared}");
    for p in personas {
        assert_eq!(
            p["before"],
            json!({"passed": 0, "of": 0, "apart": 2}),
            "{p}"
        );
        assert_eq!(p["after"], json!({"passed": 2, "of": 2, "apart": 0}), "{p}");
    }
    let endings = &compared["comparison"]["endings"];
    let none = endings
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "none")
        .unwrap_or_else(|| panic!("{endings}"));
    assert_eq!(
        (none["before"].as_u64(), none["after"].as_u64()),
        (Some(4), None)
    );
    assert_eq!(compared["comparison"]["turns"][0], json!(0.0));

    // The text says the same, one line per persona.
    let o = simulate_text(
        &ws,
        &["--plan", "daily-routine", "--compare", first, second],
    )
    .output()
    .unwrap();
    let (out, _) = exits(&o, 0);
    assert!(
        out.starts_with(&format!(
            "runs {first} (draft) → {second} (draft) of daily-routine\n"
        )),
        "{out}"
    );
    assert!(
        out.contains(": 0/0 passed (2 apart) → 2/2 passed\n"),
        "{out}"
    );
    assert!(out.contains("ended none: 4 → 0\n"), "{out}");

    let (_, err) = refused(&ws, &["--plan", "daily-routine", "--compare", first, first]);
    assert!(err.contains("the same run"), "{err}");
    let (_, err) = refused(
        &ws,
        &[
            "--plan",
            "daily-routine",
            "--compare",
            first,
            "20200101-000000",
        ],
    );
    assert!(err.contains("20200101-000000"), "{err}");
}
