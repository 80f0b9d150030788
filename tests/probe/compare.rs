//! Comparing two versions of a large plan: the overlay drawn, panned and zoomed.

use super::*;

/// Two versions of the plan that differ in every nineteenth state's title (19 and the generated
/// plan's 40 columns share no factor, so some changed cards are in any view: with every twentieth,
/// all were in two columns, and a view between them never coloured) and in 50 states added,
/// compared on the canvas (the Versions tab's Compare): the time from the click to the coloured
/// cards, then pan and zoom of the coloured canvas at an editing zoom and with the whole plan in
/// view.
pub(crate) fn compare(
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
    plan_tests::page::click(ctx, hooks::TAB_VERSIONS)?;
    ctx.session()
        .wait_until("version 2 listed", Duration::from_secs(20), || {
            Ok(plan_tests::page::count(ctx, "[data-testid=version][data-version='2']")? == 1)
        })?;
    plan_tests::page::set_value(ctx, hooks::COMPARE_WITH, "2")?;
    plan_tests::page::click(ctx, hooks::FIT_VIEW)?;
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
    plan_tests::page::click(ctx, hooks::FIT_VIEW)?;
    std::thread::sleep(Duration::from_millis(1_500));
    let pan = run_probe(ctx, &format!("canvasProbe.pan({options})"))?;
    let zoom = run_probe(ctx, &format!("canvasProbe.zoom({options})"))?;
    println!("{}", line("  pan, compared (whole plan)", &pan));
    println!("{}", line("  zoom, compared (whole plan)", &zoom));
    ctx.screenshot(&format!("probe-{}-compare-whole", plan.states.len()))
        .map(drop)
}
