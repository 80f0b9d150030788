//! The explorer against plans built to explode (issue 46): many tasks, a big enum, many numeric
//! constants. A search holds what it measures and stops as `explore-incomplete`, saying which
//! ceiling, before passing its memory or work ceiling; a strict state offers its current task
//! only; a key's values are one per way the conditions tell them apart; a configuration's packed
//! size does not grow with a state's tasks as JSON would.
//!
//! One test at a time in this binary: the memory test reads the process's peak resident size.

use std::sync::Mutex;

use plan_core::explore::{explore, moves, Bounds, Domains, Explored, Stopped};
use plan_core::plan::Plan;
use plan_core::runtime::{Chat, PlanRef, PlanVersion, Simulator, Start};
use serde_json::{json, Value};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn plan_of(v: &Value) -> Plan {
    let plan = plan_core::parse::parse_plan(&v.to_string()).expect("a plan");
    let report = plan_core::validate::validate(&plan);
    assert!(!report.has_errors(), "{:?}", report.diagnostics);
    plan
}

/// One state of `kind` with `n` tasks of one text value each, then an ending.
fn many_tasks(kind: &str, n: usize) -> Plan {
    let tasks: Vec<Value> = (0..n)
        .map(|i| {
            json!({"id": format!("t{i}"), "description": format!("Task {i}"),
                   "deliverables": [{"key": format!("k{i}"), "type": "string"}]})
        })
        .collect();
    plan_of(&json!({
        "schema_version": 1, "id": "many-tasks", "title": "Many tasks", "start_state_id": "intake",
        "states": [
            {"id": "intake", "title": "Intake", "type": kind, "tasks": tasks,
             "transitions": [{"target_state_id": "done", "condition_type": "all_tasks_complete"}]},
            {"id": "done", "title": "Done", "type": "loose", "instructions": "Bye",
             "ending": {"kind": "complete"}}
        ]
    }))
}

/// Three states; one enum key of `n` values, read by `conditions` equality tests.
fn big_enum(n: usize, conditions: usize) -> Plan {
    let values: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    let transitions: Vec<Value> = (0..conditions)
        .map(|i| {
            json!({"target_state_id": if i == 0 { "b" } else { "c" },
                   "condition_type": "deliverable_value",
                   "condition_config": {"key": "pick", "value": values[i]}, "priority": i + 1})
        })
        .collect();
    enum_plan(n, transitions)
}

/// Three states; one enum key of `n` values, read by `transitions` from the first.
fn enum_plan(n: usize, transitions: Vec<Value>) -> Plan {
    let values: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    plan_of(&json!({
        "schema_version": 1, "id": "big-enum", "title": "Big enum", "start_state_id": "a",
        "states": [
            {"id": "a", "title": "A", "type": "loose", "tasks": [{"id": "ask", "description": "Ask",
              "deliverables": [{"key": "pick", "type": "enum", "enum_values": values}]}],
             "transitions": transitions},
            {"id": "b", "title": "B", "type": "loose", "instructions": "b", "ending": {"kind": "complete"}},
            {"id": "c", "title": "C", "type": "loose", "instructions": "c", "ending": {"kind": "complete"}}
        ]
    }))
}

/// A number key compared with `n` constants, each leading elsewhere.
fn many_constants(n: usize) -> Plan {
    let transitions: Vec<Value> = (0..n)
        .map(|i| {
            json!({"target_state_id": "done", "condition_type": "deliverable_value_numeric",
                   "condition_config": {"key": "amount", "operator": "eq", "value": i * 10},
                   "priority": i + 1})
        })
        .collect();
    plan_of(&json!({
        "schema_version": 1, "id": "constants", "title": "Constants", "start_state_id": "ask",
        "states": [
            {"id": "ask", "title": "Ask", "type": "loose", "tasks": [{"id": "amount", "description": "Amount",
              "deliverables": [{"key": "amount", "type": "number"}]}],
             "transitions": transitions},
            {"id": "done", "title": "Done", "type": "loose", "instructions": "Bye", "ending": {"kind": "complete"}}
        ]
    }))
}

fn search(plan: &Plan, bounds: Bounds) -> Explored {
    explore(plan, &Start::default(), bounds, &|| false, &mut |_| {})
}

fn incomplete_message(e: &Explored) -> String {
    let f = e
        .findings
        .iter()
        .find(|f| f.code.as_str() == "explore-incomplete")
        .expect("an explore-incomplete finding");
    f.message.clone()
}

/// The moves offered at the start of `plan`.
fn opening_moves(plan: &Plan) -> Vec<String> {
    let plan_ref = PlanRef {
        id: plan.id.clone(),
        version: PlanVersion::File,
        content_hash: String::new(),
    };
    let (chat, _) =
        Chat::open_from(plan, &Simulator, plan_ref, &Start::default()).expect("it opens");
    moves(plan, &Domains::of(plan), &chat.session)
}

/// This process's resident size now and at its peak since the last reset, in bytes (Linux).
fn resident() -> Option<(usize, usize)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = |name: &str| -> Option<usize> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let n: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(n * 1024)
    };
    Some((kb("VmRSS:")?, kb("VmHWM:")?))
}

#[test]
fn a_search_stops_before_its_memory_ceiling_and_says_so() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // A loose state of 400 tasks: every order of completing them is a configuration.
    let plan = many_tasks("loose", 400);
    let ceiling = 40_000_000;
    let bounds = Bounds {
        max_memory: ceiling,
        ..Bounds::default()
    };
    // The peak resident size is reset, so that it is this search's (Linux: "5" to clear_refs).
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let before = resident();
    let e = search(&plan, bounds);
    let after = resident();
    assert!(!e.complete);
    assert_eq!(e.stopped, Some(Stopped::MaxMemory));
    let message = incomplete_message(&e);
    assert!(message.contains("memory ceiling (40 MB"), "{message}");
    assert!(
        message.contains(&plan_core::explore::thousands(e.configurations)),
        "{message}"
    );
    assert!(e.cost.held_bytes <= ceiling, "{:?}", e.cost);
    assert!(
        e.cost.held_bytes > ceiling / 2,
        "stopped far too soon: {:?}",
        e.cost
    );
    // Nothing claimed of what it did not see: no dead end, no "never".
    assert!(e
        .findings
        .iter()
        .all(|f| f.code.as_str() == "explore-incomplete"));
    if let (true, Some((rss, _)), Some((_, peak))) = (reset, before, after) {
        let grew = peak.saturating_sub(rss);
        assert!(
            grew <= ceiling,
            "the search's resident size grew by {grew} bytes, past its ceiling of {ceiling}"
        );
    }
    // Where a ceiling stops it does not depend on the threads: the same answer on three.
    let parallel = plan_core::explore::explore_parallel(
        &plan,
        &Start::default(),
        bounds,
        3,
        &|| false,
        &mut |_| {},
    );
    assert_eq!(parallel, e);
    let work = Bounds {
        max_moves: 40_000,
        ..Bounds::default()
    };
    let one = search(&plan, work);
    assert_eq!(one.stopped, Some(Stopped::MaxMoves));
    let three = plan_core::explore::explore_parallel(
        &plan,
        &Start::default(),
        work,
        3,
        &|| false,
        &mut |_| {},
    );
    assert_eq!(three, one);
    // A larger ceiling sees more.
    let larger = search(
        &plan,
        Bounds {
            max_memory: 2 * ceiling,
            ..Bounds::default()
        },
    );
    assert!(larger.configurations > e.configurations);
}

#[test]
fn a_search_stops_at_its_work_ceiling_and_weighs_large_sessions_more() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let plan = many_tasks("loose", 2_000);
    let bounds = Bounds {
        max_moves: 300_000,
        ..Bounds::default()
    };
    let e = search(&plan, bounds);
    assert_eq!(e.stopped, Some(Stopped::MaxMoves));
    assert!(incomplete_message(&e).contains("work ceiling (300,000 moves"));
    assert!(e.cost.work <= bounds.max_moves, "{:?}", e.cost);
    // A session of 2,000 tasks weighs 63 moves a move: 4,000 moves a configuration.
    assert!(e.cost.moves * 20 < e.cost.work, "{:?}", e.cost);
    assert!(e.cost.moves < 10_000, "{:?}", e.cost);
}

#[test]
fn a_strict_state_offers_its_current_task_only() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let plan = many_tasks("strict", 2_000);
    let offered = opening_moves(&plan);
    assert_eq!(
        offered,
        vec![
            "/set k0 other-than-k0".to_string(),
            "/complete t0".to_string(),
            "/insight nothing new".to_string()
        ]
    );
    // Ten turns into 2,000 tasks: a configuration holds its tasks' statuses, not their JSON.
    let e = search(
        &plan,
        Bounds {
            max_turns: 10,
            ..Bounds::default()
        },
    );
    assert_eq!(e.stopped, Some(Stopped::MaxTurns));
    let each = e.cost.held_bytes / e.configurations;
    assert!(
        each < 1_000,
        "{each} bytes a configuration ({} configurations, {:?})",
        e.configurations,
        e.cost
    );
}

#[test]
fn a_big_enum_is_tried_once_per_way_its_conditions_tell_values_apart() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for (conditions, expected) in [(2, vec!["v0", "v1", "v2"]), (1, vec!["v0", "v1"])] {
        let plan = big_enum(2_000, conditions);
        let sets: Vec<String> = opening_moves(&plan)
            .into_iter()
            .filter(|m| m.starts_with("/set pick "))
            .collect();
        let expected: Vec<String> = expected.iter().map(|v| format!("/set pick {v}")).collect();
        assert_eq!(sets, expected);
        let started = std::time::Instant::now();
        let e = search(&plan, Bounds::default());
        assert!(e.complete, "{:?}", e.findings);
        assert!(e
            .findings
            .iter()
            .all(|f| f.severity != plan_core::Severity::Error));
        assert!(e.configurations < 100, "{}", e.configurations);
        assert!(
            started.elapsed().as_secs_f64() < 2.0,
            "{:?}",
            started.elapsed()
        );
    }
}

#[test]
fn values_in_the_same_lists_are_one_value_and_numbers_keep_their_constants() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // `in [v0..v99]` and `= v5`: v5, the other 99 listed, and the rest: three values.
    let listed: Vec<String> = (0..100).map(|i| format!("v{i}")).collect();
    let plan = enum_plan(
        2_000,
        vec![
            json!({"target_state_id": "b", "condition_type": "deliverable_value",
                   "condition_config": {"key": "pick", "value": "v5"}}),
            json!({"target_state_id": "c", "condition_type": "deliverable_value_in",
                   "condition_config": {"key": "pick", "values": listed}, "priority": 2}),
        ],
    );
    let sets: Vec<String> = opening_moves(&plan)
        .into_iter()
        .filter(|m| m.starts_with("/set pick "))
        .collect();
    assert_eq!(
        sets,
        ["/set pick v0", "/set pick v5", "/set pick v100"].map(String::from)
    );
    // Numbers: every constant and either side of it (a range test reads them all).
    let plan = many_constants(50);
    let sets = opening_moves(&plan)
        .into_iter()
        .filter(|m| m.starts_with("/set amount "))
        .count();
    assert_eq!(sets, 150);
    let e = search(&plan, Bounds::default());
    assert!(e.complete);
}
