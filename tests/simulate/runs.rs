//! Runs as a whole: replaying a hundred conversations quickly, two runs compared, Ctrl+C keeping a run as stopped.

use super::*;

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

/// simulate.md, "Speed": replaying 100 conversations of 10 turns takes under 1 s in the release
/// build (`scripts/test.sh` prints the figure); here, in any build, it must not freeze.
#[test]
fn replaying_a_hundred_conversations_of_ten_turns_is_quick() {
    let ws = scratch("speed").join("ws");
    let server = ModelServer::start();
    server.respond_with(|_| text("I would like to talk about my balance."));
    make_workspace(&ws);
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
