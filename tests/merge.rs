//! The merge's properties (issue 45), over the sample plans edited at random on both sides many
//! times: a change merged with an unchanged side is the change, with no conflict; merging is
//! symmetric up to which side is ours (the same conflicts, ours and theirs swapped; without
//! conflicts the same plan, list order and card positions aside); the merged plan always reads
//! back as a plan, unchanged by a round trip, and validates without a panic.

use plan_core::merge::{merge, Conflict};
use plan_core::plan::Plan;
use plan_core::{parse_plan, validate};
use plan_tests::random::Lcg;
use serde_json::{json, Value};

fn samples() -> Vec<Plan> {
    let dir = plan_tests::cli::root().join("plans");
    let mut plans: Vec<Plan> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| parse_plan(&std::fs::read_to_string(e.path()).unwrap()).unwrap())
        .collect();
    plans.sort_by(|a, b| a.id.cmp(&b.id));
    assert!(plans.len() >= 6, "the six samples");
    plans
}

/// The list in `field` of `state`, if it has one (indexing would add a `null`).
fn list<'v>(state: &'v mut Value, field: &str) -> Option<&'v mut Vec<Value>> {
    state.get_mut(field)?.as_array_mut()
}

fn states(v: &mut Value) -> &mut Vec<Value> {
    v["states"].as_array_mut().unwrap()
}

/// One random edit of an author's, on the plan's JSON: a title or instructions retyped, a state
/// added or deleted, an arrow added, deleted, re-prioritised or sent elsewhere, the states
/// reordered, a card moved, a task's description changed, a tool's codes changed.
fn edit(v: &mut Value, rng: &mut Lcg, tag: &str) {
    let n = states(v).len() as u64;
    if n == 0 {
        return;
    }
    let i = rng.next(n) as usize;
    let id = states(v)[i]["id"].as_str().unwrap().to_string();
    let other = states(v)[rng.next(n) as usize]["id"]
        .as_str()
        .unwrap()
        .to_string();
    match rng.next(11) {
        0 => states(v)[i]["title"] = json!(format!("{tag} title {}", rng.next(3))),
        1 => states(v)[i]["instructions"] = json!(format!("{tag} says {}", rng.next(3))),
        2 => {
            let new_id = format!("{tag}-{}", rng.next(1000));
            states(v).push(json!({"id": new_id, "title": "Added", "type": "loose",
                "instructions": "Added.", "transitions": [{"target_state_id": id}]}));
        }
        3 if n > 1 => {
            states(v).remove(i);
        }
        4 => {
            let t = &mut states(v)[i]["transitions"];
            if !t.is_array() {
                *t = json!([]);
            }
            t.as_array_mut()
                .unwrap()
                .push(json!({"target_state_id": other, "priority": rng.next(5)}));
        }
        5 => {
            if let Some(t) = list(&mut states(v)[i], "transitions") {
                if !t.is_empty() {
                    let k = rng.next(t.len() as u64) as usize;
                    t.remove(k);
                }
            }
        }
        6 => {
            if let Some(t) = list(&mut states(v)[i], "transitions") {
                if let Some(first) = t.first_mut() {
                    first["priority"] = json!(rng.next(9));
                }
            }
        }
        7 => {
            let j = rng.next(n) as usize;
            states(v).swap(i, j);
        }
        8 => {
            v["layout"][id.as_str()] =
                json!({"x": rng.next(900) as f64, "y": rng.next(900) as f64});
        }
        9 => {
            if let Some(tasks) = list(&mut states(v)[i], "tasks") {
                if let Some(task) = tasks.first_mut() {
                    task["description"] = json!(format!("{tag} task {}", rng.next(3)));
                }
            }
        }
        _ => {
            if let Some(t) = list(&mut states(v)[i], "transitions") {
                if let Some(first) = t.first_mut() {
                    first["target_state_id"] = json!(other);
                }
            }
        }
    }
}

fn edited(base: &Plan, rng: &mut Lcg, tag: &str, edits: u64) -> Plan {
    let mut v = serde_json::to_value(base).unwrap();
    for _ in 0..edits {
        edit(&mut v, rng, tag);
    }
    serde_json::from_value(v).unwrap()
}

/// The plan as JSON with its positions left out and every list sorted: what does not depend on
/// which side was ours.
fn unordered(plan: &Plan) -> Value {
    fn sort(v: &mut Value) {
        match v {
            Value::Array(items) => {
                items.iter_mut().for_each(sort);
                items.sort_by_key(|x| x.to_string());
            }
            Value::Object(fields) => fields.values_mut().for_each(sort),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(plan).unwrap();
    v.as_object_mut().unwrap().remove("layout");
    sort(&mut v);
    v
}

fn swapped(c: &Conflict) -> Conflict {
    Conflict {
        path: c.path.clone(),
        base: c.base.clone(),
        ours: c.theirs.clone(),
        theirs: c.ours.clone(),
    }
}

#[test]
fn a_change_merged_with_an_unchanged_side_is_the_change() {
    let mut rng = Lcg(7);
    for base in samples() {
        for _ in 0..20 {
            let edits = 1 + rng.next(4);
            let changed = edited(&base, &mut rng, "ann", edits);
            let theirs_only = merge(Some(&base), &base, &changed);
            assert!(
                theirs_only.conflicts.is_empty(),
                "{:?}",
                theirs_only.conflicts
            );
            assert_eq!(theirs_only.plan, changed, "{}", base.id);
            let ours_only = merge(Some(&base), &changed, &base);
            assert!(ours_only.conflicts.is_empty());
            assert_eq!(ours_only.plan, changed, "{}", base.id);
        }
    }
}

#[test]
fn the_samples_edited_at_random_on_both_sides_always_merge_into_a_plan_and_symmetrically() {
    let mut rng = Lcg(2026);
    let mut conflicts_seen = 0;
    for base in samples() {
        for _ in 0..60 {
            let (ann, bob) = (1 + rng.next(5), 1 + rng.next(5));
            let ours = edited(&base, &mut rng, "ann", ann);
            let theirs = edited(&base, &mut rng, "bob", bob);
            let one = merge(Some(&base), &ours, &theirs);
            // Reads back as a plan, unchanged by a round trip; validates without a panic.
            let text = serde_json::to_string_pretty(&one.plan).unwrap();
            let again = parse_plan(&text)
                .or_else(|_| plan_core::parse::parse_draft(&text))
                .unwrap_or_else(|e| panic!("{}: the merged plan does not read: {e:?}", base.id));
            assert_eq!(again, one.plan);
            let _ = validate(&one.plan);
            // Symmetric up to which side is ours.
            let other = merge(Some(&base), &theirs, &ours);
            let mut paths: Vec<Conflict> = one.conflicts.iter().map(swapped).collect();
            let mut other_paths = other.conflicts.clone();
            paths.sort_by(|a, b| a.path.cmp(&b.path));
            other_paths.sort_by(|a, b| a.path.cmp(&b.path));
            assert_eq!(paths, other_paths, "{}", base.id);
            if one.conflicts.is_empty() {
                assert_eq!(unordered(&one.plan), unordered(&other.plan), "{}", base.id);
            }
            conflicts_seen += one.conflicts.len();
        }
    }
    assert!(
        conflicts_seen > 0,
        "the edits never met: a test that tests nothing"
    );
}
