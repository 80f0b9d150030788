//! The panels under load: the versions list of 500, the test chat and a suite of 200 cases on 1,000 states, explore and a simulation running while the canvas is panned.

use super::*;

/// A plan with 500 versions: the shell's answer to the list (the IPC round trip, every version
/// file read and verified), and the Versions tab drawn from it.
pub(crate) fn versions_list(ctx: &Ctx) -> Outcome {
    let ws = Workspace::at(ctx.workspace());
    let mut plan = ws
        .read_draft("customer-support")
        .map_err(|e| e.to_string())?;
    plan.id = "many-versions".into();
    plan.title = "A plan with 500 versions".into();
    ws.create(&plan.id, plan.clone(), "2026-01-01T00:00:00Z")
        .map_err(|e| e.to_string())?;
    for i in 0..500 {
        plan.description = format!("version {i}");
        ws.publish_plan(
            &plan.id,
            &plan,
            &format!("edit {i}"),
            "2026-01-01T00:00:00Z",
        )
        .map_err(|e| e.to_string())?;
    }
    ctx.relaunch()?;
    plan_tests::page::open_plan(ctx, "many-versions")?;
    let v = run_probe(
        ctx,
        "(async () => {
            const frame = () => new Promise(r => requestAnimationFrame(r));
            const asked = [];
            for (let i = 0; i < 7; i++) {
                const t0 = performance.now();
                const list = await window.__TAURI__.core.invoke('list_versions', {id: 'many-versions'});
                if (list.length !== 500) throw new Error(`${list.length} versions listed`);
                asked.push(performance.now() - t0);
            }
            asked.sort((a, b) => a - b);
            const t0 = performance.now();
            document.querySelector('[data-testid=tab-versions]').click();
            let first = null;
            for (;;) {
                await frame();
                const rows = document.querySelectorAll('[data-testid=version]').length;
                if (first === null && rows > 0) first = performance.now() - t0;
                if (rows === 500) break;
                if (performance.now() - t0 > 20000) throw new Error('the list never showed');
            }
            await frame();
            return {asked: Math.round(asked[3]), first: Math.round(first), shown: Math.round(performance.now() - t0)};
        })()",
    )?;
    println!(
        "versions list of 500 versions: the shell's answer {} ms (median of 7 round trips); the tab shows its newest versions {} ms after its click, all 500 after {} ms",
        v["asked"], v["first"], v["shown"]
    );
    ctx.screenshot("probe-versions-list").map(drop)
}

/// The message that moves a conversation on in the generated plan from an even state `s{i}`:
/// its topic, which takes the branch two states on at priority 1 (the score is for a loose odd
/// state; a strict one records only its current task's).
fn moving_message(i: usize) -> String {
    format!("/set topic_{i} billing\n/set score_{i} 9")
}

/// 200 saved cases of 10 turns each, beginning in states across the plan.
fn save_cases(ws: &Workspace, id: &str) -> Outcome {
    let dir = ws.root().join(id).join("tests");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    for k in 0..200 {
        // Even states: their topic alone moves them on, strict or not.
        let mut i = 2 * ((k * 7) % 450);
        let start = i;
        let turns: Vec<Value> = (0..10)
            .map(|_| {
                let t =
                    json!({"user": moving_message(i), "expect": {"state": format!("s{}", i + 2)}});
                i += 2;
                t
            })
            .collect();
        let case = json!({"description": format!("from s{start}, ten turns two states on each"),
            "start": {"state": format!("s{start}")}, "turns": turns});
        std::fs::write(dir.join(format!("walk-{k:03}.json")), case.to_string())
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Panning while the Explore tab explores a 1,000-state plan whose conversations reach millions
/// of configurations (the window's search stops at 250,000, seconds on the shell's threads, never
/// on the page's): the same pan before the search and while it runs (it must be running when the
/// pan begins; when it reaches its bound first, the output says so).
pub(crate) fn explore_running(ctx: &Ctx) -> Outcome {
    let ws = Workspace::at(ctx.workspace());
    let mut plan = plan_core::synthetic::plan(1_000);
    // Its title sorts first, so the restarted app opens it at start.
    plan.title = "A synthetic plan of 1,000 states".into();
    ws.create(&plan.id, plan.clone(), "2026-01-01T00:00:00Z")
        .map_err(|e| e.to_string())?;
    open(ctx, &plan)?;
    let options = json!({"viewport": hooks::CANVAS, "node": hooks::STATE, "transform": ".cards",
        "background": "[data-testid=canvas], [data-testid=overview]",
        "zoomLog2PerDeltaY": zoom_log2_per_delta()});
    let before = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    println!("{}", line("pan, nothing running (1,000 states)", &before));
    plan_tests::page::click(ctx, hooks::TAB_EXPLORE)?;
    let progress = || text_of(ctx, hooks::EXPLORE_PROGRESS).unwrap_or_default();
    let reached = |text: &str| -> usize {
        text.strip_prefix("Exploring… ")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.replace(',', "").parse().ok())
            .unwrap_or(0)
    };
    // The tab's first search can be overtaken by a second one (a save right after opening marks
    // it out of date): the pan begins once a search has gone on for a while.
    let waited = ctx
        .session()
        .wait_until("the search under way", Duration::from_secs(30), || {
            Ok(reached(&progress()) >= 3_000)
        });
    if let Err(e) = waited {
        ctx.screenshot("probe-explore-1000")?;
        let summary = text_of(ctx, hooks::EXPLORE_SUMMARY).unwrap_or_default();
        return Err(format!("{e}: the tab shows {:?}, {summary:?}", progress()));
    }
    let at_start = progress();
    let during = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    let at_end = progress();
    println!("{}", line("pan while exploring", &during));
    println!("  the search when the pan began: {at_start}; when it ended: {at_end:?}");
    if !at_start.starts_with("Exploring…") {
        ctx.screenshot("probe-explore-1000")?;
        let summary = text_of(ctx, hooks::EXPLORE_SUMMARY).unwrap_or_default();
        return Err(format!(
            "no search when the pan began: {at_start:?} ({summary:?})"
        ));
    }
    if !at_end.starts_with("Exploring…") {
        // The search reached the window's bound during the pan: the frames after it are idle.
        let summary = text_of(ctx, hooks::EXPLORE_SUMMARY).unwrap_or_default();
        println!("  it ended during the pan: {summary}");
        return Ok(());
    }
    plan_tests::page::click(ctx, hooks::EXPLORE_STOP)?;
    Ok(())
}

/// The 1,000-state plan's canvas panned with nothing running, then while a simulated run goes
/// on in the shell (simulate.md's "pan p95 as with nothing running"): a caller played by the
/// scripted server, which takes 30 ms per answer as a small model would take longer, and the
/// simulator answering for the plan; the progress line moves while the pan is measured.
pub(crate) fn simulate_running(ctx: &Ctx) -> Outcome {
    let ws = Workspace::at(ctx.workspace());
    let mut plan = plan_core::synthetic::plan(1_000);
    plan.title = "A synthetic plan of 1,000 states".into();
    ws.create(&plan.id, plan.clone(), "2026-01-01T00:00:00Z")
        .map_err(|e| e.to_string())?;
    let personas = ctx.workspace().join(&plan.id).join("personas");
    std::fs::create_dir_all(&personas).map_err(|e| e.to_string())?;
    std::fs::write(
        personas.join("probe-caller.json"),
        r#"{"id": "probe-caller", "who": "You call about your order.", "max_turns": 10}"#,
    )
    .map_err(|e| e.to_string())?;
    let server = plan_tests::model_server::ModelServer::start();
    server.respond_with(|_| {
        std::thread::sleep(Duration::from_millis(30));
        plan_tests::model_server::text("I would like to know where my order is.")
    });
    open(ctx, &plan)?;
    let options = json!({"viewport": hooks::CANVAS, "node": hooks::STATE, "transform": ".cards",
        "background": "[data-testid=canvas], [data-testid=overview]",
        "zoomLog2PerDeltaY": zoom_log2_per_delta()});
    plan_tests::page::click(ctx, hooks::TAB_SIMULATE)?;
    ctx.session()
        .wait_for(hooks::SIM_PERSONA, Duration::from_secs(30))
        .map_err(|e| e.to_string())?;
    let before = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    println!("{}", line("pan, nothing running (1,000 states)", &before));
    plan_tests::page::set_value(ctx, hooks::SIM_CALLER_URL, &server.base_url)?;
    plan_tests::page::set_value(ctx, hooks::SIM_CALLER_MODEL, "test-model")?;
    plan_tests::page::set_value(ctx, hooks::SIM_CONVERSATIONS, "200")?;
    plan_tests::page::click(ctx, hooks::SIM_RUN)?;
    let progress = || text_of(ctx, hooks::SIM_PROGRESS).unwrap_or_default();
    ctx.session()
        .wait_until("a conversation done", Duration::from_secs(60), || {
            Ok(progress().contains("conversations done"))
        })
        .map_err(|e| format!("{e}: the tab shows {:?}", progress()))?;
    let at_start = progress();
    let during = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    let at_end = progress();
    println!("{}", line("pan while a simulated run goes on", &during));
    println!("  the run when the pan began: {at_start}; when it ended: {at_end}");
    let p95 = |v: &Value| v["p95"].as_f64().unwrap_or(f64::NAN);
    println!(
        "  pan p95: {} ms running, {} ms idle",
        p95(&during),
        p95(&before)
    );
    if at_end == at_start || !at_end.contains("conversations done") {
        return Err(format!(
            "the run did not move during the pan: {at_start:?} then {at_end:?}"
        ));
    }
    plan_tests::page::click(ctx, hooks::SIM_STOP)?;
    Ok(())
}

/// The test chat on the 1,000-state plan. A turn: the message typed and sent, until the reply is
/// in the transcript and the card of the state named in the live inspector is lit (the canvas
/// following it when it leaves the view), each turn moving the conversation two states on. Then
/// pan and zoom with the conversation drawn and the Chat tab open; then the suite.
pub(crate) fn test_chat(ctx: &Ctx) -> Outcome {
    let ws = Workspace::at(ctx.workspace());
    let plan = generated(1_000);
    ws.create(&plan.id, plan.clone(), "2026-01-01T00:00:00Z")
        .map_err(|e| e.to_string())?;
    save_cases(&ws, &plan.id)?;
    open(ctx, &plan)?;
    plan_tests::page::click(ctx, hooks::TAB_CHAT)?;
    plan_tests::page::click(ctx, hooks::CHAT_START)?;
    ctx.session()
        .wait_until("the opening reply", Duration::from_secs(20), || {
            Ok(ctx.session().find_all(hooks::CHAT_MESSAGE)?.len() == 1)
        })?;
    let turns = run_probe(
        ctx,
        "(async () => {
            const frame = () => new Promise(r => requestAnimationFrame(() => r()));
            const q = s => document.querySelector(s);
            const agents = () => document.querySelectorAll('[data-testid=chat-message][data-role=agent]').length;
            const times = [];
            let moved = 0;
            for (let n = 0; n < 40; n++) {
                const state = q('[data-testid=chat-state]').dataset.stateId;
                const i = Number(state.slice(1));
                const before = agents();
                const input = q('[data-testid=chat-input]');
                const t = performance.now();
                input.value = `/set topic_${i} billing\n/set score_${i} 9`;
                input.dispatchEvent(new Event('input', {bubbles: true}));
                q('[data-testid=chat-send]').click();
                for (;;) {
                    await frame();
                    const named = q('[data-testid=chat-state]').dataset.stateId;
                    const lit = q('[data-testid=state][data-current=true]');
                    if (agents() > before && lit && lit.dataset.stateId === named) break;
                    if (performance.now() - t > 10000) throw new Error(`no reply to turn ${n} in 10 s`);
                }
                times.push(performance.now() - t);
                if (q('[data-testid=chat-state]').dataset.stateId !== state) moved++;
                await frame();
            }
            times.sort((a, b) => a - b);
            const pct = p => Math.round(times[Math.min(times.length - 1, Math.floor(times.length * p))]);
            return {p50: pct(0.5), p95: pct(0.95), max: Math.round(times[times.length - 1]), moved,
                    state: q('[data-testid=chat-state]').dataset.stateId};
        })()",
    )?;
    println!(
        "test chat, 1,000 states: a turn (message sent to reply shown and state lit) p50 {} ms  p95 {} ms  max {} ms over 40 turns; {} moved, now in {}",
        turns["p50"], turns["p95"], turns["max"], turns["moved"], turns["state"]
    );
    if turns["moved"] != json!(40) {
        return Err(format!("the conversation did not move every turn: {turns}"));
    }
    ctx.screenshot("probe-chat-1000")?;

    // Pan and zoom with the conversation drawn (lit, visited, the fired arrow) beside the chat.
    let options = json!({"viewport": hooks::CANVAS, "node": hooks::STATE, "transform": ".cards",
        "background": "[data-testid=canvas], [data-testid=overview]",
        "zoomLog2PerDeltaY": zoom_log2_per_delta()});
    let pan = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    println!("{}", line("  pan while chatting", &pan));
    let zoom = run_probe(ctx, &format!("canvasProbe.zoom({options})"))?;
    println!("{}", line("  zoom while chatting", &zoom));

    let suite = run_probe(
        ctx,
        "(async () => {
            const frame = () => new Promise(r => requestAnimationFrame(() => r()));
            const q = s => document.querySelector(s);
            const progress = new Set();
            const t = performance.now();
            q('[data-testid=chat-run-suite]').click();
            for (;;) {
                await frame();
                const p = q('[data-testid=suite-progress]');
                if (p) progress.add(p.textContent);
                const summary = q('[data-testid=suite-summary]');
                if (summary && document.querySelectorAll('[data-testid=case-result]').length === 200) {
                    return {ms: Math.round(performance.now() - t), summary: summary.textContent,
                            coverage: q('[data-testid=coverage-summary]').textContent,
                            progress: [...progress]};
                }
                if (performance.now() - t > 60000) throw new Error('the suite did not finish in 60 s');
            }
        })()",
    )?;
    println!(
        "suite of 200 cases × 10 turns on 1,000 states: {} ms from the click to the results ({}; {}); progress shown {} times: {}",
        suite["ms"],
        suite["summary"],
        suite["coverage"],
        suite["progress"].as_array().map_or(0, Vec::len),
        suite["progress"]
    );
    if suite["summary"] != json!("200 passed, 0 failed") {
        return Err(format!("the suite did not pass: {suite}"));
    }
    ctx.screenshot("probe-suite-200").map(drop)
}
