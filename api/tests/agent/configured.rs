//! The agent's settings: the key only in its header and written nowhere, the config file and a broken one named, the server's models listed.

use super::*;

#[test]
fn the_key_goes_only_in_the_authorization_header_and_is_written_nowhere() {
    let server = ModelServer::start();
    let (ctx, c) = parked_conversation("key");
    let config = ctx.root().join("config/plan-builder/agent.json");
    let mut s = settings_for(&server);
    s.api_key_env = Some("PLAN_TEST_AGENT_KEY".into());
    settings::save(&config, &s).unwrap();
    let secret = "sk-test-5ecret-not-to-be-written";
    // SAFETY of the test: no other test reads this variable.
    std::env::set_var("PLAN_TEST_AGENT_KEY", secret);
    server.answer([text("Is that by car?")]);
    let request = said(&c, AgentKind::LanguageModel, None);
    let view = conversations::say_as(&ctx, &request, Some(&config)).unwrap();
    assert_eq!(view.turns.last().unwrap().by, AgentKind::LanguageModel);
    let r = &server.completions()[0];
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {secret}").as_str())
    );
    assert!(!r.body.to_string().contains(secret));
    // Kept as a test case too, then every file is searched.
    conversations::save_case(
        &ctx,
        "vehicle-viewing",
        "with-the-model",
        &conversations::case_of(&view),
    )
    .unwrap();
    // Grep every file under the workspace (sessions, logs, the settings) for the key.
    let mut stack = vec![ctx.root().to_path_buf()];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files += 1;
                let bytes = std::fs::read(&path).unwrap();
                let hit = bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
                assert!(!hit, "the key was written into {}", path.display());
            }
        }
    }
    assert!(
        files > 5,
        "sessions, their logs and the settings were searched"
    );
}

#[test]
fn settings_are_kept_in_the_config_file_and_a_broken_one_is_named() {
    let dir = std::env::temp_dir().join(format!("api-agent-settings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("plan-builder/agent.json");
    assert_eq!(settings::load(&file).unwrap(), None);
    let s = AgentSettings {
        base_url: " http://localhost:11434/v1/ ".into(),
        model: "llama3.1".into(),
        ..AgentSettings::default()
    };
    let kept = settings::save(&file, &s).unwrap();
    assert_eq!(kept.base_url, "http://localhost:11434/v1");
    assert_eq!(settings::load(&file).unwrap(), Some(kept.clone()));
    let bad = AgentSettings {
        model: String::new(),
        ..kept.clone()
    };
    assert!(settings::save(&file, &bad).is_err());
    assert_eq!(
        settings::load(&file).unwrap(),
        Some(kept),
        "a refused save changes nothing"
    );
    std::fs::write(&file, "{\"base_url\": \"x\",\n \"modle\": 1}").unwrap();
    let e = settings::load(&file).unwrap_err();
    assert!(
        e.message
            .starts_with(&format!("{}: line 2", file.display())),
        "{}",
        e.message
    );
}

#[test]
fn test_connection_lists_the_servers_models() {
    let server = ModelServer::start();
    let report = model(&server).test_connection().unwrap();
    assert_eq!(report.models, ["test-model"]);
    assert!(
        report.message.contains("test-model among them"),
        "{}",
        report.message
    );
    let e = match Chat::open(
        &plan("customer-support"),
        &model(&server),
        plan_ref(&plan("customer-support")),
    ) {
        Ok((mut chat, _)) => chat.say("hi").unwrap_err(),
        Err(e) => e,
    };
    // No answer was queued: the server's 500 is said in words.
    assert!(
        matches!(&e, RunError::Agent(a) if a.0.contains("answered HTTP 500")),
        "{e}"
    );
}
