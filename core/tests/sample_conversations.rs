//! The saved test cases of the sample plans (`plans/tests/<plan>/`): every one passes, together
//! they take every transition of every sample plan at least once, and a new workspace is seeded
//! with all of them (issue 5).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use plan_core::runtime::script::{self, Script};
use plan_core::runtime::{PlanRef, PlanVersion, Simulator, What};
use plan_core::{parse_plan, validate, Plan};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sample_plans() -> Vec<(String, Plan)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(repo().join("plans")).expect("plans/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let id = path
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&path).expect("reads");
            out.push((id, parse_plan(&text).expect("parses")));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn tests_of(id: &str) -> Vec<(PathBuf, Script)> {
    let dir = repo().join("plans/tests").join(id);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let script: Script = serde_json::from_str(&std::fs::read_to_string(&f).expect("reads"))
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (f, script)
        })
        .collect()
}

#[test]
fn every_sample_test_case_passes_and_every_transition_is_walked() {
    for (id, plan) in sample_plans() {
        assert!(!validate(&plan).has_errors(), "{id} validates");
        let mut walked = BTreeSet::new();
        let tests = tests_of(&id);
        assert!(tests.len() >= 2, "{id} ships test cases");
        for (file, script) in tests {
            assert!(script.is_test_case(), "{} has expectations", file.display());
            assert_eq!(
                script.plan.as_deref(),
                Some(format!("../../{id}.json").as_str()),
                "{} names its plan",
                file.display()
            );
            let r = PlanRef {
                id: id.clone(),
                version: PlanVersion::File,
                content_hash: plan_core::hash::content_hash(&plan),
            };
            let run =
                script::run(&plan, &Simulator, r, None, &script, &mut |_| Ok(())).expect("runs");
            assert!(
                run.failures.is_empty(),
                "{}: {:?}",
                file.display(),
                run.failures
            );
            for t in &run.record.turns {
                for e in &t.turn.events {
                    if let What::Transition(m) = &e.what {
                        walked.insert((m.from.clone(), m.index));
                    }
                }
            }
        }
        for state in &plan.states {
            for i in 0..state.transitions.len() {
                assert!(
                    walked.contains(&(state.id.clone(), Some(i))),
                    "{id}: no test takes transition {i} of '{}'",
                    state.id
                );
            }
        }
    }
}

#[test]
fn a_new_workspace_is_seeded_with_every_sample_test_case() {
    let root = std::env::temp_dir().join(format!("plan-seed-tests-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let ws = plan_core::store::Workspace::open(&root, "2026-11-30T12:00:00Z").expect("opens");
    for (id, _) in sample_plans() {
        let seeded: Vec<String> = ws
            .test_cases(&id)
            .expect("tests")
            .iter()
            .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
            .collect();
        let shipped: Vec<String> = tests_of(&id)
            .iter()
            .map(|(p, _)| p.file_name().expect("name").to_string_lossy().into_owned())
            .collect();
        assert_eq!(seeded, shipped, "{id}");
        for file in ws.test_cases(&id).expect("tests") {
            let s: Script = serde_json::from_str(&std::fs::read_to_string(&file).expect("reads"))
                .expect("a script");
            assert_eq!(
                s.plan, None,
                "in a workspace a test runs on its plan's folder"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}
