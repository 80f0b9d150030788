//! Benchmark: the canvas in the real app, measured with `bench/probe.js` (frame times of
//! pan, zoom and drag driven through DOM events) on generated plans of 1,000, 5,000 and 10,000
//! states (1.5 transitions a state): open time, then pan, zoom and drag at an
//! editing zoom (about 40 states on screen), then pan and zoom with the whole plan in view, then
//! typing into a state's description in the inspector (time from a keystroke to the next frames).
//! The test chat on the 1,000-state plan: a turn from the message sent to the reply shown and the
//! state lit, pan and zoom while the conversation is drawn, and a suite of 200 saved cases of 10
//! turns each from the click to its results.
//!
//! `scripts/bench-app.sh` builds the release app and runs this (`PLAN_BUILDER_APP` names the
//! binary); it prints one line per phase, and what the page's own timed parts took
//! (`timeline::timed` in the UI). The figures to compare with are React Flow's in docs/performance.md's
//! performance table, measured with the same probe (`bench/probe.js`) in the same engine on this
//! kind of machine. `scripts/test.sh` runs the 5,000-state probe and fails on a freeze
//! ([`Freezes`]).

use std::path::Path;
use std::time::Duration;

use plan_core::plan::Plan;
use plan_core::store::Workspace;
use plan_tests::page::{text_of, Outcome};
use plan_tests::{Ctx, Harness, Test};
use serde_json::{json, Value};

fn main() -> std::process::ExitCode {
    Harness::run(&[
        Test {
            name: "probe_1000_states",
            run: |ctx| probe(ctx, 1_000),
        },
        Test {
            name: "probe_5000_states",
            run: |ctx| probe(ctx, 5_000),
        },
        Test {
            name: "probe_10000_states",
            run: |ctx| probe(ctx, 10_000),
        },
        Test {
            name: "probe_versions_list_of_500",
            run: versions_list,
        },
        Test {
            name: "probe_test_chat_1000_states",
            run: test_chat,
        },
        Test {
            name: "probe_explore_1000_states",
            run: explore_running,
        },
        Test {
            name: "probe_simulate_1000_states",
            run: simulate_running,
        },
    ])
}

/// A plan-like plan of `states` states with 1.5 transitions per state.
fn generated(states: usize) -> Plan {
    let mut p = plan_core::synthetic::plan(states);
    for (i, s) in p.states_mut().enumerate() {
        // Keep the forward arrow everywhere and the branch on every other state.
        let keep = if i % 2 == 0 { 2 } else { 1 };
        s.transitions.truncate(keep);
    }
    p.id = format!("big-{states}");
    // Sorted first in the plan list, so the app opens it at start.
    p.title = format!("A generated plan of {states} states");
    p
}

fn probe_js() -> Result<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/probe.js");
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Our zoom per wheel pixel, for the probe's open-loop zoom (1.2× per 100 px).
fn zoom_log2_per_delta() -> f64 {
    1.2f64.log2() / 100.0
}

/// For the traces: `churn(selector)` makes a counter that, called once a frame, says how many
/// elements match now and how many of them are new and gone since its last call.
const CHURN_JS: &str = "const churn = sel => {
    let seen = new WeakSet(), count = 0;
    return () => {
        const now = [...document.querySelectorAll(sel)];
        const added = now.filter(n => !seen.has(n)).length;
        const gone = count - (now.length - added);
        seen = new WeakSet(now);
        count = now.length;
        return {count: now.length, added, gone};
    };
};";

fn run_probe(ctx: &Ctx, call: &str) -> Result<Value, String> {
    let script = format!(
        "{}\n{CHURN_JS}\nconst done = arguments[arguments.length - 1];\n{call}.then(r => done(r), e => done({{error: String(e)}}));",
        probe_js()?
    );
    let v = ctx.session().execute_async(&script, json!([]))?;
    if let Some(e) = v.get("error") {
        return Err(format!("probe: {e}"));
    }
    Ok(v)
}

/// The probe's zoom again (the same trajectory: 0.5×–1.5× of the start, 2 s), each frame with
/// the zoom it showed, the cards then on the page and how many of them were new; the eight
/// slowest, to say what they cost.
fn zoom_trace(ctx: &Ctx) -> Result<String, String> {
    let v = run_probe(
        ctx,
        &format!(
            "(async () => {{
            const c = document.querySelector('[data-testid=canvas]');
            const r = c.getBoundingClientRect();
            const k = {k};
            const zoomOf = () => new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.cards')).transform).a;
            const wheel = dy => c.dispatchEvent(new WheelEvent('wheel', {{bubbles: true, cancelable: true,
                clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, deltaY: dy, ctrlKey: true}}));
            const frames = [];
            const cards = churn('[data-testid=state]');
            let prev = 0, start = null, last = null;
            await new Promise(done => {{
                const tick = now => {{
                    if (start === null) {{ start = now; last = now; }}
                    const el = now - start;
                    const n = cards();
                    if (el > 0) frames.push({{ms: Math.round(now - last), zoom: +zoomOf().toFixed(3),
                        cards: n.count, added: n.added, gone: n.gone, overview: c.classList.contains('overview')}});
                    last = now;
                    if (el >= 2000) {{ wheel(prev / k); return done(); }}
                    const target = Math.log2(1 + 0.5 * Math.sin(2 * Math.PI * el / 1000));
                    wheel(-(target - prev) / k);
                    prev = target;
                    requestAnimationFrame(tick);
                }};
                requestAnimationFrame(tick);
            }});
            await new Promise(r => setTimeout(r, 400));
            return frames.sort((a, b) => b.ms - a.ms).slice(0, 8)
                .map(f => `${{f.ms}} ms at ${{f.zoom}} with ${{f.cards}} cards (+${{f.added}} −${{f.gone}})${{f.overview ? ' (overview style)' : ''}}`).join('; ');
        }})()",
            k = zoom_log2_per_delta()
        ),
    )?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// The probe's pan again (drag the background 4 px a frame for 2 s), each frame with the time its
/// pointer move took in script (the event and the reactive work it queued, measured to the end of
/// a chain of microtasks) and how many card elements it made and dropped; the eight slowest, and
/// the medians, to say which part of a frame is ours and which the engine's.
fn pan_trace(ctx: &Ctx) -> Result<String, String> {
    let v = run_probe(
        ctx,
        "(async () => {
            const c = document.querySelector('[data-testid=canvas]');
            const r = c.getBoundingClientRect();
            let x = r.left + r.width * 0.5, y = r.top + r.height * 0.5;
            const fire = (kind, x, y) => {
                const o = {bubbles: true, cancelable: true, composed: true, view: window, clientX: x, clientY: y,
                    button: 0, buttons: kind === 'up' ? 0 : 1, pointerId: 1, pointerType: 'mouse', isPrimary: true};
                c.dispatchEvent(new PointerEvent('pointer' + kind, o));
                c.dispatchEvent(new MouseEvent('mouse' + kind, o));
            };
            const settle = async () => { for (let i = 0; i < 40; i++) await Promise.resolve(); };
            fire('down', x, y);
            const frames = [];
            const cards = churn('[data-testid=state]'), labels = churn('[data-testid=transition-label]');
            let start = null, last = null, script = 0, dir = -1;
            await new Promise(done => {
                const tick = async now => {
                    if (start === null) { start = now; last = now; }
                    const el = now - start;
                    const n = cards(), arrows = labels();
                    if (el > 0) frames.push({ms: now - last, script, cards: n.count, added: n.added, gone: n.gone,
                        labels_added: arrows.added});
                    last = now;
                    if (el >= 2000) { fire('up', x, y); return done(); }
                    requestAnimationFrame(tick);
                    const t = performance.now();
                    x += 4 * dir;
                    if (x < r.left + 20 || x > r.right - 20) dir = -dir;
                    fire('move', x, y);
                    await settle();
                    script = performance.now() - t;
                };
                requestAnimationFrame(tick);
            });
            await new Promise(r => setTimeout(r, 400));
            const med = a => a.slice().sort((p, q) => p - q)[Math.floor(a.length / 2)];
            const slow = frames.slice().sort((a, b) => b.ms - a.ms).slice(0, 8)
                .map(f => `${Math.round(f.ms)} ms (script ${f.script.toFixed(1)}) with ${f.cards} cards (+${f.added} −${f.gone}), +${f.labels_added} arrows`);
            return `median frame ${med(frames.map(f => f.ms)).toFixed(1)} ms, script ${med(frames.map(f => f.script)).toFixed(1)} ms; slowest: ` + slow.join('; ');
        })()",
    )?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// Where the page's time went since the last call: the parts the page times itself
/// (`timeline::timed`), the costliest first; the rest of a frame is the engine's (layout, paint)
/// and the UI framework's (making and changing elements).
fn where_time_went(ctx: &Ctx) -> Result<String, String> {
    let v = ctx.session().execute(
        "const b = window.wasmBindings; return b && b.plan_timings ? b.plan_timings() : '';",
        json!([]),
    )?;
    let lines: Vec<&str> = v.as_str().unwrap_or_default().lines().take(8).collect();
    Ok(if lines.is_empty() {
        "nothing timed".to_string()
    } else {
        lines.join("; ")
    })
}

fn line(phase: &str, v: &Value) -> String {
    // A zoom says the scales it went through, so a zoom that did not move is seen as such.
    let scales = match (v.get("scale_min"), v.get("scale_max")) {
        (Some(lo), Some(hi)) => format!(" (scale {lo}–{hi})"),
        _ => String::new(),
    };
    format!(
        "{phase:<34} p50 {:>6} ms  p95 {:>6} ms  max {:>6} ms  fps {:>5}  frames {:>4}  moved {}{scales}",
        v["p50"], v["p95"], v["max"], v["fps"], v["frames"], v["moved"]
    )
}

/// Starts the app afresh on `plan` and returns its open time (navigation start to the plan's
/// first frame), printing it with the page's marks.
fn open(ctx: &Ctx, plan: &Plan) -> Result<u64, String> {
    ctx.relaunch()?;
    ctx.session().script_timeout(300_000)?;
    ctx.session()
        .wait_until("the plan drawn", Duration::from_secs(120), || {
            Ok(ctx.session().execute(
                "return document.querySelector('[data-testid=canvas]').dataset.openedMs || null;",
                json!([]),
            )? != Value::Null)
        })?;
    let opened = ctx.session().execute(
        "return Number(document.querySelector('[data-testid=canvas]').dataset.openedMs);",
        json!([]),
    )?;
    let panic = ctx
        .session()
        .execute("return document.body.dataset.panic || null;", json!([]))?;
    if panic != Value::Null {
        return Err(format!("the page panicked while opening: {panic}"));
    }
    let marks = ctx.session().execute(
        "const n = performance.getEntriesByType('navigation')[0];
         const loaded = performance.getEntriesByType('resource')
             .filter(r => /\\.(wasm|js)$/.test(r.name))
             .map(r => r.name.split('.').pop() + ' fetched ' + Math.round(r.responseEnd));
         return [`page ${Math.round(n ? n.responseEnd : 0)}`, ...loaded,
             ...performance.getEntriesByType('mark').map(m => m.name + ' ' + Math.round(m.startTime))].join(', ');",
        json!([]),
    )?;
    let drawn = ctx.session().execute(
        "return [document.querySelectorAll('*').length, document.querySelectorAll('[data-testid=state]').length,
                 document.querySelectorAll('[data-testid=transition-label]').length];",
        json!([]),
    )?;
    println!(
        "\n{} states, {} transitions: open {} ms (navigation start to the plan's first frame; marks: {}); \
         {} elements on the page, {} cards, {} arrow labels; where the time went: {}",
        plan.states.len(),
        plan.transition_count(),
        opened,
        marks.as_str().unwrap_or_default(),
        drawn[0],
        drawn[1],
        drawn[2],
        where_time_went(ctx)?
    );
    opened
        .as_f64()
        .map(|ms| ms as u64)
        .ok_or_else(|| format!("no open time: {opened}"))
}

fn probe(ctx: &Ctx, states: usize) -> Outcome {
    // The generated plan joins the test's workspace; its title sorts first, so the restarted app
    // opens it at start.
    let ws = Workspace::at(ctx.workspace());
    let plan = generated(states);
    ws.create(&plan.id, plan.clone(), "2026-01-01T00:00:00Z")
        .map_err(|e| e.to_string())?;
    // Open time is noisy here (two cores shared by the shell, the web process and the tests):
    // PROBE_OPENS=N opens the plan N times on a fresh app and prints each and the median;
    // PROBE_OPEN_ONLY=1 stops after that.
    let opens: usize = std::env::var("PROBE_OPENS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut times = Vec::new();
    for _ in 0..opens {
        times.push(open(ctx, &plan)?);
    }
    times.sort_unstable();
    if opens > 1 {
        println!(
            "open at {states} states over {opens} launches: median {} ms, min {} ms, max {} ms",
            times[opens / 2],
            times[0],
            times[opens - 1]
        );
    }
    // PROBE_JS runs an asynchronous script in the opened page and prints what it answers (its
    // last argument is the callback): to time something in the page without rebuilding the app.
    if let Ok(js) = std::env::var("PROBE_JS") {
        let v = ctx.session().execute_async(&js, json!([]))?;
        println!("PROBE_JS: {v}");
    }
    if std::env::var_os("PROBE_OPEN_ONLY").is_some() {
        return Ok(());
    }
    // Experiments: PROBE_CSS adds a style sheet to the page before the probe runs, to try a
    // drawing change without rebuilding the app.
    if let Ok(css) = std::env::var("PROBE_CSS") {
        ctx.session().execute(
            "const s = document.createElement('style'); s.textContent = arguments[0]; document.head.append(s);",
            json!([css]),
        )?;
    }
    let title = text_of(ctx, "[data-testid=plan-title]")?;
    if title != plan.title {
        return Err(format!("the app opened {title:?}"));
    }

    // An editing zoom: about 40 states on screen, full cards.
    let zoom_to = |target: f64| -> Result<(), String> {
        ctx.session().execute(
            "const c = document.querySelector('[data-testid=canvas]');
             const r = c.getBoundingClientRect();
             const m = new DOMMatrixReadOnly(getComputedStyle(document.querySelector('.cards')).transform);
             const dy = -100 * Math.log(arguments[0] / m.a) / Math.log(1.2);
             c.dispatchEvent(new WheelEvent('wheel', {bubbles: true, cancelable: true, clientX: r.left + r.width / 2,
                 clientY: r.top + r.height / 2, deltaY: dy, ctrlKey: true}));",
            json!([target]),
        )?;
        std::thread::sleep(Duration::from_millis(600));
        Ok(())
    };
    // A plan this large opens on its start state: from the whole plan, zoomed in on its middle.
    plan_tests::page::click(ctx, "[data-testid=fit-view]")?;
    std::thread::sleep(Duration::from_millis(600));
    zoom_to(0.42)?;
    // Empty background is the canvas element itself (an arrow's label is part of the arrow).
    let options = json!({"viewport": "[data-testid=canvas]", "node": "[data-testid=state]", "transform": ".cards",
        "background": "[data-testid=canvas], [data-testid=overview]",
        "zoomLog2PerDeltaY": zoom_log2_per_delta()});
    let visible = |ctx: &Ctx| -> Result<Value, String> {
        ctx.session().execute(
            "const c = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
             return [...document.querySelectorAll('[data-testid=state]')].filter(n => {
                 const b = n.getBoundingClientRect();
                 return b.width > 0 && b.right > c.left && b.left < c.right && b.bottom > c.top && b.top < c.bottom;
             }).length;",
            json!([]),
        )
    };
    println!("editing zoom: {} states on screen", visible(ctx)?);
    let mut freezes = Freezes::default();
    let pan = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    freezes.frames("pan at an editing zoom", &pan);
    println!("{}", line("  pan (drag the background)", &pan));
    println!("  pan's frames: {}", pan_trace(ctx)?);
    let zoom = run_probe(ctx, &format!("canvasProbe.zoom({options})"))?;
    println!("{}", line("  zoom (ctrl+wheel)", &zoom));
    println!("  zoom's slowest frames: {}", zoom_trace(ctx)?);
    // Back to where the view was, so the drag finds the cards it was meant for.
    zoom_to(0.42)?;
    println!("  before the drag: {} states on screen", visible(ctx)?);
    where_time_went(ctx)?;
    let drag = run_probe(ctx, &format!("canvasProbe.drag({options})"))?;
    freezes.frames("drag a state", &drag);
    println!("{}", line("  drag a state", &drag));
    println!("    where the time went: {}", where_time_went(ctx)?);
    ctx.screenshot(&format!("probe-{states}-editing"))?;

    // The whole plan in view.
    plan_tests::page::click(ctx, "[data-testid=fit-view]")?;
    std::thread::sleep(Duration::from_millis(1_500));
    where_time_went(ctx)?;
    let pan = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    freezes.frames("pan with the whole plan in view", &pan);
    let pan_went = where_time_went(ctx)?;
    let zoom = run_probe(ctx, &format!("canvasProbe.zoom({options})"))?;
    println!("whole plan in view:");
    println!("{}", line("  pan (drag the background)", &pan));
    println!("    where the time went: {pan_went}");
    println!("{}", line("  zoom (ctrl+wheel)", &zoom));
    ctx.screenshot(&format!("probe-{states}-whole"))?;

    // Typing in the inspector: a card picked at an editing zoom, then 60 characters into its
    // description, one per event; the time from each to the next frame and to the one after.
    // Sixty, so that the p95 is the 58th time, not the longest (with 20 it was the 20th).
    // The whole-plan pan may have left the plan off centre: fit it first.
    plan_tests::page::click(ctx, "[data-testid=fit-view]")?;
    std::thread::sleep(Duration::from_millis(600));
    zoom_to(0.42)?;
    let at = ctx.session().execute(
        "const c = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
         const b = [...document.querySelectorAll('[data-testid=state]')].map(n => n.getBoundingClientRect())
             .find(b => b.left > c.left + 20 && b.right < c.right - 20 && b.top > c.top + 20 && b.bottom < c.bottom - 20);
         return b ? [Math.round(b.left + b.width / 2), Math.round(b.top + b.height / 2)] : null;",
        json!([]),
    )?;
    let (Some(x), Some(y)) = (at[0].as_i64(), at[1].as_i64()) else {
        return Err("no whole card in view to type into".into());
    };
    plan_tests::page::click_at(ctx, (x, y))?;
    std::thread::sleep(Duration::from_millis(1_500));
    let elements = ctx.session().execute(
        "return [document.querySelectorAll('.panel *').length, document.querySelectorAll('.panel option').length];",
        json!([]),
    )?;
    println!(
        "the state's inspector: {} elements, {} of them choices in lists",
        elements[0], elements[1]
    );
    where_time_went(ctx)?;
    let typing = run_probe(
        ctx,
        "(async () => {
            const el = document.querySelector('[data-testid=field-description]');
            if (!el) throw new Error('no description field');
            el.focus();
            const frame = () => new Promise(r => requestAnimationFrame(() => r()));
            const first = [], second = [];
            for (let i = 0; i < 60; i++) {
                const t = performance.now();
                el.value += 'x';
                el.dispatchEvent(new Event('input', {bubbles: true}));
                await frame(); first.push(performance.now() - t);
                await frame(); second.push(performance.now() - t);
            }
            const pct = (a, q) => Math.round(a.sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * q))]);
            return {p50: pct(first, 0.5), p95: pct(first, 0.95), max: pct(first, 1), second_p50: pct(second, 0.5), second_p95: pct(second, 0.95)};
        })()",
    )?;
    println!(
        "typing in the inspector: next frame p50 {} ms  p95 {} ms;  the frame after p50 {} ms  p95 {} ms",
        typing["p50"], typing["p95"], typing["second_p50"], typing["second_p95"]
    );
    println!("    where the time went: {}", where_time_went(ctx)?);
    freezes.typing(&typing);
    println!(
        "memory with the plan open, dragged and typed into: {}",
        memory()
    );
    compare(ctx, &plan, &options, &zoom_to)?;
    freezes.outcome(states)
}

/// The proportional set size (PSS) of the app's processes (the shell, WebKit's web and network
/// processes), summed from `/proc/*/smaps_rollup`: what the app takes from the machine.
fn memory() -> String {
    // Process names as `/proc/*/comm` has them (cut at 15 bytes).
    let parts = [
        ("app", "plan-builder"),
        ("web", "WebKitWebProces"),
        ("network", "WebKitNetworkPr"),
    ];
    let mut kb = [0u64; 3];
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let dir = entry.path();
        let Ok(comm) = std::fs::read_to_string(dir.join("comm")) else {
            continue;
        };
        // The app's binary may be a copy with a longer name (`plan-builder-before`).
        let Some(i) = parts
            .iter()
            .position(|(_, name)| comm.trim().starts_with(name))
        else {
            continue;
        };
        let rollup = std::fs::read_to_string(dir.join("smaps_rollup")).unwrap_or_default();
        kb[i] += rollup
            .lines()
            .find_map(|l| l.strip_prefix("Pss:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0);
    }
    let mb = |k: u64| k as f64 / 1024.0;
    format!(
        "{} {:.0} MB, {} {:.0} MB, {} {:.0} MB; together {:.0} MB (PSS)",
        parts[0].0,
        mb(kb[0]),
        parts[1].0,
        mb(kb[1]),
        parts[2].0,
        mb(kb[2]),
        mb(kb.iter().sum())
    )
}

/// What no figure may ever show, whatever the machine's noise: ten times the targets (a frame of
/// a drag or a pan at most 100 ms, typing's p95 at most 25–50 ms), so a slow machine never trips
/// them and a freeze (a keystroke or a drop doing work that grows with the plan on its frame)
/// always does. The test command runs the 5,000-state probe, so CI fails on a freeze.
const FRAME_CEILING_MS: f64 = 1_000.0;
const TYPING_P95_CEILING_MS: f64 = 250.0;

#[derive(Default)]
struct Freezes(Vec<String>);

impl Freezes {
    /// A probe's frames (`max`, ms).
    fn frames(&mut self, phase: &str, v: &Value) {
        let max = v["max"].as_f64().unwrap_or(f64::INFINITY);
        if max > FRAME_CEILING_MS {
            self.0.push(format!("{phase}: a frame of {max} ms"));
        }
    }

    /// Typing's key-to-next-frame times (`p95`, `max`, ms).
    fn typing(&mut self, v: &Value) {
        self.frames("typing in the inspector", v);
        let p95 = v["p95"].as_f64().unwrap_or(f64::INFINITY);
        if p95 > TYPING_P95_CEILING_MS {
            self.0
                .push(format!("typing in the inspector: p95 {p95} ms"));
        }
    }

    fn outcome(self, states: usize) -> Outcome {
        if self.0.is_empty() {
            return Ok(());
        }
        Err(format!(
            "the canvas froze at {states} states (ceilings: any frame {FRAME_CEILING_MS} ms, typing p95 {TYPING_P95_CEILING_MS} ms): {}",
            self.0.join("; ")
        ))
    }
}

/// Two versions of the plan that differ in every nineteenth state's title (19 and the generated
/// plan's 40 columns share no factor, so some changed cards are in any view: with every twentieth,
/// all were in two columns, and a view between them never coloured) and in 50 states added,
/// compared on the canvas (the Versions tab's Compare): the time from the click to the coloured
/// cards, then pan and zoom of the coloured canvas at an editing zoom and with the whole plan in
/// view.
fn compare(
    ctx: &Ctx,
    plan: &Plan,
    options: &Value,
    zoom_to: &dyn Fn(f64) -> Result<(), String>,
) -> Outcome {
    let ws = Workspace::at(ctx.workspace());
    let now = "2026-01-01T00:00:00Z";
    // The typing above is saved before the versions are written beside it.
    plan_tests::page::wait_saved(ctx)?;
    let draft = ws.read_draft(&plan.id).map_err(|e| e.to_string())?;
    ws.publish_plan(&plan.id, &draft, "before", now)
        .map_err(|e| e.to_string())?;
    let mut changed = draft.clone();
    for (i, s) in changed
        .states_mut()
        .enumerate()
        .filter(|(i, _)| i % 19 == 0)
    {
        s.title = format!("{} (changed {i})", s.title);
    }
    for n in 0..50 {
        let mut added = plan_core::State::clone(&changed.states[n]);
        added.id = format!("added-{n}");
        added.transitions.clear();
        changed.states.push(added.into());
    }
    ws.publish_plan(&plan.id, &changed, "after", now)
        .map_err(|e| e.to_string())?;
    plan_tests::page::click(ctx, "[data-testid=tab-versions]")?;
    ctx.session()
        .wait_until("version 2 listed", Duration::from_secs(20), || {
            Ok(plan_tests::page::count(ctx, "[data-testid=version][data-version='2']")? == 1)
        })?;
    plan_tests::page::set_value(ctx, "[data-testid=compare-with]", "2")?;
    plan_tests::page::click(ctx, "[data-testid=fit-view]")?;
    std::thread::sleep(Duration::from_millis(600));
    zoom_to(0.42)?;
    let took = run_probe(
        ctx,
        "(async () => {
            const button = document.querySelector('[data-testid=version][data-version=\"1\"] [data-testid=version-compare]');
            const frame = () => new Promise(r => requestAnimationFrame(r));
            const t0 = performance.now();
            button.click();
            for (;;) {
                await frame();
                const mode = document.querySelector('[data-testid=mode]').textContent;
                if (mode.startsWith('Comparing') && document.querySelector('[data-testid=state][data-diff]')) break;
                if (performance.now() - t0 > 20000) {
                    const said = (id) => (document.querySelector(`[data-testid=${id}]`) || {}).textContent;
                    throw new Error(`the comparison never showed: mode '${mode}', notice '${said('notice')}', save '${said('save-status')}', `
                        + `${document.querySelectorAll('[data-testid=state]').length} cards drawn, `
                        + `${document.querySelectorAll('[data-testid=diff-change]').length} changes listed`);
                }
            }
            await frame();
            return {ms: Math.round(performance.now() - t0), coloured: document.querySelectorAll('[data-testid=state][data-diff]').length,
                changes: document.querySelectorAll('[data-testid=diff-change]').length};
        })()",
    )?;
    println!(
        "compare version 1 with version 2 ({} changes listed): {} ms from the click to the coloured canvas ({} coloured cards in view)",
        took["changes"], took["ms"], took["coloured"]
    );
    let pan = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    println!("{}", line("  pan, compared (editing zoom)", &pan));
    let zoom = run_probe(ctx, &format!("canvasProbe.zoom({options})"))?;
    println!("{}", line("  zoom, compared (editing zoom)", &zoom));
    ctx.screenshot(&format!("probe-{}-compare", plan.states.len()))?;
    plan_tests::page::click(ctx, "[data-testid=fit-view]")?;
    std::thread::sleep(Duration::from_millis(1_500));
    let pan = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    let zoom = run_probe(ctx, &format!("canvasProbe.zoom({options})"))?;
    println!("{}", line("  pan, compared (whole plan)", &pan));
    println!("{}", line("  zoom, compared (whole plan)", &zoom));
    ctx.screenshot(&format!("probe-{}-compare-whole", plan.states.len()))
        .map(drop)
}

/// A plan with 500 versions: the shell's answer to the list (the IPC round trip, every version
/// file read and verified), and the Versions tab drawn from it.
fn versions_list(ctx: &Ctx) -> Outcome {
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
fn explore_running(ctx: &Ctx) -> Outcome {
    let ws = Workspace::at(ctx.workspace());
    let mut plan = plan_core::synthetic::plan(1_000);
    // Its title sorts first, so the restarted app opens it at start.
    plan.title = "A synthetic plan of 1,000 states".into();
    ws.create(&plan.id, plan.clone(), "2026-01-01T00:00:00Z")
        .map_err(|e| e.to_string())?;
    open(ctx, &plan)?;
    let options = json!({"viewport": "[data-testid=canvas]", "node": "[data-testid=state]", "transform": ".cards",
        "background": "[data-testid=canvas], [data-testid=overview]",
        "zoomLog2PerDeltaY": zoom_log2_per_delta()});
    let before = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    println!("{}", line("pan, nothing running (1,000 states)", &before));
    plan_tests::page::click(ctx, "[data-testid=tab-explore]")?;
    let progress = || text_of(ctx, "[data-testid=explore-progress]").unwrap_or_default();
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
        let summary = text_of(ctx, "[data-testid=explore-summary]").unwrap_or_default();
        return Err(format!("{e}: the tab shows {:?}, {summary:?}", progress()));
    }
    let at_start = progress();
    let during = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    let at_end = progress();
    println!("{}", line("pan while exploring", &during));
    println!("  the search when the pan began: {at_start}; when it ended: {at_end:?}");
    if !at_start.starts_with("Exploring…") {
        ctx.screenshot("probe-explore-1000")?;
        let summary = text_of(ctx, "[data-testid=explore-summary]").unwrap_or_default();
        return Err(format!(
            "no search when the pan began: {at_start:?} ({summary:?})"
        ));
    }
    if !at_end.starts_with("Exploring…") {
        // The search reached the window's bound during the pan: the frames after it are idle.
        let summary = text_of(ctx, "[data-testid=explore-summary]").unwrap_or_default();
        println!("  it ended during the pan: {summary}");
        return Ok(());
    }
    plan_tests::page::click(ctx, "[data-testid=explore-stop]")?;
    Ok(())
}

/// The 1,000-state plan's canvas panned with nothing running, then while a simulated run goes
/// on in the shell (simulate.md's "pan p95 as with nothing running"): a caller played by the
/// scripted server, which takes 30 ms per answer as a small model would take longer, and the
/// simulator answering for the plan; the progress line moves while the pan is measured.
fn simulate_running(ctx: &Ctx) -> Outcome {
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
    let options = json!({"viewport": "[data-testid=canvas]", "node": "[data-testid=state]", "transform": ".cards",
        "background": "[data-testid=canvas], [data-testid=overview]",
        "zoomLog2PerDeltaY": zoom_log2_per_delta()});
    plan_tests::page::click(ctx, "[data-testid=tab-simulate]")?;
    ctx.session()
        .wait_for("[data-testid=sim-persona]", Duration::from_secs(30))
        .map_err(|e| e.to_string())?;
    let before = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    println!("{}", line("pan, nothing running (1,000 states)", &before));
    plan_tests::page::set_value(ctx, "[data-testid=sim-caller-url]", &server.base_url)?;
    plan_tests::page::set_value(ctx, "[data-testid=sim-caller-model]", "test-model")?;
    plan_tests::page::set_value(ctx, "[data-testid=sim-conversations]", "200")?;
    plan_tests::page::click(ctx, "[data-testid=sim-run]")?;
    let progress = || text_of(ctx, "[data-testid=sim-progress]").unwrap_or_default();
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
    plan_tests::page::click(ctx, "[data-testid=sim-stop]")?;
    Ok(())
}

/// The test chat on the 1,000-state plan. A turn: the message typed and sent, until the reply is
/// in the transcript and the card of the state named in the live inspector is lit (the canvas
/// following it when it leaves the view), each turn moving the conversation two states on. Then
/// pan and zoom with the conversation drawn and the Chat tab open; then the suite.
fn test_chat(ctx: &Ctx) -> Outcome {
    let ws = Workspace::at(ctx.workspace());
    let plan = generated(1_000);
    ws.create(&plan.id, plan.clone(), "2026-01-01T00:00:00Z")
        .map_err(|e| e.to_string())?;
    save_cases(&ws, &plan.id)?;
    open(ctx, &plan)?;
    plan_tests::page::click(ctx, "[data-testid=tab-chat]")?;
    plan_tests::page::click(ctx, "[data-testid=chat-start]")?;
    ctx.session()
        .wait_until("the opening reply", Duration::from_secs(20), || {
            Ok(ctx.session().find_all("[data-testid=chat-message]")?.len() == 1)
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
    let options = json!({"viewport": "[data-testid=canvas]", "node": "[data-testid=state]", "transform": ".cards",
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
