//! End-to-end: an author builds the support flow from an empty plan with the mouse and keyboard, and the draft on disk follows each step.

use super::*;
use plan_tests::ensure;
use plan_tests::page::attributes;

/// This suite's tests, in the order they run.
pub const TESTS: &[Test] =
    plan_tests::tests![an_author_builds_the_support_flow_from_an_empty_plan,];

/// Drags from a card's connection handle to the middle of another card.
fn connect(ctx: &Ctx, from: &str, to: &str) -> Outcome {
    let before = plan_in_app_transitions(ctx, from)?;
    // Hovering the card shows its handle.
    let card = centre(ctx, &hooks::state(from))?;
    ctx.session().actions(json!([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [{"type": "pointerMove", "duration": 0, "x": card.0, "y": card.1, "origin": "viewport"}]}]))?;
    // Points a press really reaches: an arrow or a label over part of a card must not eat the drag.
    let handle = reachable_point(ctx, &format!("{} .handle", hooks::state(from)))?;
    let target = reachable_point(ctx, &hooks::state(to))?;
    ctx.session().drag(handle, target, 8)?;
    let made = ctx
        .session()
        .wait_until(&format!("an arrow from {from} to {to}"), SHORT, || {
            Ok(plan_in_app_transitions(ctx, from)? == before + 1)
        });
    if let Err(e) = made {
        ctx.screenshot(&format!("connect-{from}-{to}-failed"))?;
        let now = reachable_point(ctx, &hooks::state(to)).map(|p| format!("{p:?}"));
        return Err(format!(
            "{e}; dragged from the handle at {handle:?} to {target:?}; {to} is now reachable at {now:?}"
        ));
    }
    let n = count(ctx, hooks::STATE)?;
    let stray = count(ctx, &hooks::state("new-state"))?;
    ensure!(stray == 0, "connecting {from} to {to} (from {handle:?} to {target:?}) left {n} states, a stray among them")
}

/// Fails unless the canvas shows only states among `known` (a stray state made by a click is a bug).
fn states_are(ctx: &Ctx, after: &str, known: &[&str]) -> Outcome {
    let ids = attributes(ctx, hooks::STATE, "data-state-id")?;
    ensure!(
        ids.iter().all(|i| known.contains(&i.as_str())),
        "after {after} the canvas shows states {ids:?}"
    )
}

fn plan_in_app_transitions(ctx: &Ctx, from: &str) -> Result<usize, String> {
    count(
        ctx,
        &format!("[data-testid=transition][data-from='{from}']"),
    )
}

/// Sets state `id`'s id, title and mode in the inspector (the state is selected).
fn name_state(ctx: &Ctx, from: &str, id: &str, title: &str, mode: &str) -> Outcome {
    select_state(ctx, from)?;
    set_value(ctx, &field("type"), mode)?;
    // The id first, under Advanced: a state titled first takes its id from the title.
    open_advanced(ctx)?;
    type_text(ctx, &field("id"), id)?;
    ctx.session()
        .wait_until(&format!("state {id}"), SHORT, || {
            Ok(count(ctx, &hooks::state(id))? == 1 && count(ctx, hooks::ADVANCED_TOGGLE)? == 1)
        })?;
    type_text(ctx, &field("title"), title)?;
    ctx.session()
        .wait_until(&format!("state {id} titled"), SHORT, || {
            Ok(text_of(ctx, &format!("{} .card-title", hooks::state(id)))? == title)
        })
}

/// Adds a task with one deliverable to the selected state.
fn add_task(ctx: &Ctx, index: usize, task: &str, keys: &[(&str, &str)]) -> Outcome {
    click(ctx, hooks::ADD_TASK)?;
    let task_css = format!("[data-testid=task][data-task-index='{index}']");
    ctx.session().wait_for(&task_css, SHORT)?;
    type_text(ctx, &format!("{task_css} {}", field("task-id")), task)?;
    for (i, (key, kind)) in keys.iter().enumerate() {
        click(ctx, &format!("{task_css} [data-testid=add-deliverable]"))?;
        let d = format!("{task_css} [data-testid=deliverable][data-deliverable-index='{i}']");
        ctx.session().wait_for(&d, SHORT)?;
        type_text(ctx, &format!("{d} {}", field("deliverable-key")), key)?;
        if let Some(values) = kind.strip_prefix("enum:") {
            set_value(ctx, &format!("{d} {}", field("deliverable-type")), "enum")?;
            set_value(ctx, &format!("{d} {}", field("enum-values")), values)?;
        } else {
            set_value(ctx, &format!("{d} {}", field("deliverable-type")), kind)?;
        }
    }
    Ok(())
}

/// How many times the page has asked the shell for a plan since it loaded.
fn plan_loads(ctx: &Ctx) -> Result<u64, String> {
    let v = ctx.session().execute(
        "return performance.getEntriesByName('load-plan-start').length;",
        json!([]),
    )?;
    v.as_u64().ok_or(format!("load marks: {v}"))
}

/// While billing's key is edited, the plan's other keys that contain what is typed are offered;
/// once the field is left, nothing is (the list is not kept in every deliverable row).
fn key_suggestions_follow_typing(ctx: &Ctx) -> Outcome {
    let css = format!(
        "[data-testid=task][data-task-index='0'] [data-testid=deliverable][data-deliverable-index='0'] {}",
        field("deliverable-key")
    );
    let offered = || -> Result<Vec<String>, String> {
        let v = ctx.session().execute(
            "const el = document.querySelector(arguments[0]);
             return el && el.list ? [...el.list.options].map(o => o.value) : null;",
            json!([css]),
        )?;
        serde_json::from_value(v).map_err(|e| format!("the key field's suggestions: {e}"))
    };
    let el = ctx.session().wait_for(&css, SHORT)?;
    ctx.session().click(&el)?;
    ctx.session().chord(&[CTRL, "a"])?;
    ctx.session().send_keys(&el, "i")?;
    let mut seen = Vec::new();
    ctx.session()
        .wait_until("keys containing \"i\" offered", SHORT, || {
            seen = offered()?;
            Ok(seen == ["first_name", "issue_type"])
        })
        .map_err(|e| format!("{e}; offered {seen:?}"))?;
    type_text(ctx, &css, "resolution")?;
    ctx.session()
        .wait_until("no suggestions after leaving the field", SHORT, || {
            Ok(offered()?.is_empty())
        })
}

fn an_author_builds_the_support_flow_from_an_empty_plan(ctx: &Ctx) -> Outcome {
    plan_cli(ctx, &["new", "built", "--title", "Support, built by hand"])?;
    ctx.session()
        .wait_until("the new plan in the list", LONG, || {
            Ok(count(ctx, &hooks::plan("built"))? == 1)
        })?;
    open_plan(ctx, "built")?;
    let loads_at_open = plan_loads(ctx)?;

    // The blank start state becomes the greeting.
    name_state(ctx, "start", "greeting", "Greeting", "loose")?;
    add_task(ctx, 0, "welcome", &[("first_name", "string")])?;

    // Four more states from the palette, and one by double-clicking the canvas.
    for (testid, new_id, id, title, mode) in [
        (
            "palette-strict",
            "new-state",
            "intake",
            "Customer intake",
            "strict",
        ),
        (
            "palette-loose",
            "new-state",
            "billing",
            "Billing support",
            "loose",
        ),
        (
            "palette-loose",
            "new-state",
            "general",
            "General support",
            "loose",
        ),
    ] {
        click(ctx, &format!("[data-testid={testid}]"))?;
        ctx.session()
            .wait_until(&format!("{new_id} added"), SHORT, || {
                Ok(count(ctx, &hooks::state(new_id))? == 1)
            })?;
        name_state(ctx, new_id, id, title, mode)?;
        click(ctx, hooks::AUTO_LAYOUT)?;
        states_are(
            ctx,
            &format!("adding {id}"),
            &["greeting", "intake", "billing", "general"],
        )?;
    }
    select_state(ctx, "intake")?;
    add_task(
        ctx,
        0,
        "identify",
        &[("customer_name", "string"), ("account_number", "string")],
    )?;
    add_task(
        ctx,
        1,
        "classify",
        &[("issue_type", "enum:billing, technical, general")],
    )?;
    select_state(ctx, "billing")?;
    add_task(ctx, 0, "resolve", &[("resolution", "string")])?;
    key_suggestions_follow_typing(ctx)?;
    select_state(ctx, "general")?;
    add_task(ctx, 0, "answer", &[("resolution", "string")])?;

    let (cx, cy, cw, ch) = {
        let v = ctx.session().execute("const r = document.querySelector('[data-testid=canvas]').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", json!([]))?;
        let n = |i: usize| v[i].as_f64().unwrap_or(0.0) as i64;
        (n(0), n(1), n(2), n(3))
    };
    // An empty spot: the bottom right of the canvas, above the zoom buttons.
    let spot = (cx + cw - 150, cy + ch - 160);
    ctx.session().actions(
        json!([{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
        "actions": [
            {"type": "pointerMove", "duration": 0, "x": spot.0, "y": spot.1, "origin": "viewport"},
            {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0},
            {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}
        ]}]),
    )?;
    ctx.session()
        .wait_until("a state made by double-click", SHORT, || {
            Ok(count(ctx, &hooks::state("new-state"))? == 1)
        })?;
    name_state(ctx, "new-state", "farewell", "Farewell", "loose")?;
    click(ctx, hooks::AUTO_LAYOUT)?;
    let all = ["greeting", "intake", "billing", "general", "farewell"];
    states_are(ctx, "adding farewell", &all)?;

    connect(ctx, "greeting", "intake")?;
    connect(ctx, "intake", "billing")?;
    connect(ctx, "intake", "general")?;
    connect(ctx, "billing", "farewell")?;
    connect(ctx, "general", "farewell")?;
    states_are(ctx, "connecting", &all)?;
    click(ctx, hooks::AUTO_LAYOUT)?;

    // intake → billing when issue_type = billing, priority 1.
    select_arrow(ctx, "intake", 0)?;
    set_value(ctx, &nested("condition-type", ""), "deliverable_value")?;
    set_value(ctx, &nested("key", ""), "issue_type")?;
    set_value(ctx, &nested("value", ""), "billing")?;
    // intake → general when all tasks are done, priority 10.
    select_arrow(ctx, "intake", 1)?;
    set_value(ctx, &nested("condition-type", ""), "all_tasks_complete")?;
    type_text(ctx, &field("priority"), "10")?;
    // billing → farewell: any of (all tasks done, 8 turns in the state).
    select_arrow(ctx, "billing", 0)?;
    set_value(ctx, &nested("condition-type", ""), "any_of")?;
    set_value(ctx, &nested("condition-type", "0"), "all_tasks_complete")?;
    click(ctx, hooks::ADD_ROOT_CONDITION)?;
    set_value(ctx, &nested("condition-type", "1"), "turn_count_exceeded")?;
    set_value(ctx, &nested("turns", "1"), "8")?;
    set_value(ctx, &nested("scope", "1"), "total")?;
    ctx.screenshot("built-support-flow")?;

    wait_saved(ctx)?;
    let p = wait_for_draft(ctx, "built", "the whole flow", |p| {
        p.state("billing").is_some_and(|s| {
            s.transitions.first().is_some_and(|t| {
                t.condition_config
                    .get("conditions")
                    .and_then(|c| c.as_array())
                    .is_some_and(|c| c.len() == 2 && c[1]["condition_config"]["scope"] == "total")
            })
        })
    })?;
    let ids: Vec<&str> = p.states.iter().map(|s| s.id.as_str()).collect();
    ensure!(
        ids == ["greeting", "intake", "billing", "general", "farewell"],
        "states {ids:?}"
    )?;
    let s = |id: &str| p.state(id).ok_or(format!("no state {id}"));
    ensure!(
        s("intake")?.kind == StateType::Strict,
        "intake is not strict"
    )?;
    ensure!(s("intake")?.title == "Customer intake", "intake's title")?;
    let classify = &s("intake")?.tasks[1];
    ensure!(
        classify.id == "classify" && classify.deliverables[0].key == "issue_type",
        "{classify:?}"
    )?;
    ensure!(
        classify.deliverables[0].kind == DeliverableType::Enum,
        "issue_type is not an enum"
    )?;
    ensure!(
        classify.deliverables[0].enum_values.as_deref()
            == Some(&["billing".to_string(), "technical".into(), "general".into()][..]),
        "{:?}",
        classify.deliverables[0].enum_values
    )?;
    let t = &s("intake")?.transitions;
    ensure!(
        t[0].target_state_id == "billing"
            && t[0].condition_type == Some(ConditionType::DeliverableValue),
        "{:?}",
        t[0]
    )?;
    ensure!(
        t[0].condition_config["key"] == "issue_type" && t[0].condition_config["value"] == "billing",
        "{:?}",
        t[0]
    )?;
    ensure!(
        t[1].target_state_id == "general" && t[1].priority.0 == 10.0,
        "{:?}",
        t[1]
    )?;
    ensure!(
        t[1].condition_type == Some(ConditionType::AllTasksComplete),
        "{:?}",
        t[1]
    )?;
    let any = &s("billing")?.transitions[0];
    ensure!(any.condition_type == Some(ConditionType::AnyOf), "{any:?}")?;
    ensure!(
        s("farewell")?.transitions.is_empty()
            && s("farewell")?.effective_ending() == Some(Ending::Complete {}),
        "farewell ends"
    )?;
    let report = validate(&p);
    ensure!(
        report.count(Severity::Error) == 0,
        "errors: {:#?}",
        report.diagnostics
    )?;
    // Dozens of autosaves, and not one of them came back as a change on disk to load again (each
    // did, and cost a whole load and parse of the plan); the plan list follows the edits anyway.
    std::thread::sleep(Duration::from_millis(600));
    let loads = plan_loads(ctx)?;
    ensure!(
        loads == loads_at_open,
        "the app loaded the plan {} more times while it was edited",
        loads - loads_at_open
    )?;
    let listed = text_of(ctx, "[data-testid=plan][data-plan-id=built] .plan-meta")?;
    ensure!(
        listed == "5 states · 5 transitions",
        "the plan list says {listed:?}"
    )?;
    ensure!(
        text_of(ctx, hooks::PROBLEM_COUNT)?.starts_with("0 errors")
            || text_of(ctx, hooks::PROBLEM_COUNT)? == "No problems",
        "the status bar shows errors"
    )
}
