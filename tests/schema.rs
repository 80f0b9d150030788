//! The JSON Schema that `plan schema` prints accepts every sample plan and refuses a bad one.
//!
//! It lives here, outside the default workspace members, because its JSON Schema validator
//! (boon) would change the features of crates the app shares, and make every test run build the
//! Tauri tree twice.

use std::process::Command;

use plan_tests::cli::root;
use serde_json::Value;

#[test]
fn every_sample_plan_validates_against_the_printed_schema() {
    // The schema printed by the command is the one checked.
    let plan = plan_tests::binary("plan").unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(plan)
        .arg("schema")
        .output()
        .expect("plan schema runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("urn:plan-schema", schema)
        .expect("the schema loads");
    let id = compiler
        .compile("urn:plan-schema", &mut schemas)
        .expect("the schema compiles");
    let mut checked = 0;
    for entry in std::fs::read_dir(root().join("plans")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if let Err(e) = schemas.validate(&doc, id) {
            panic!("{} does not match the schema: {e}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 4);
    // And the schema does constrain: a bad plan id and an unknown field are refused.
    for bad in [
        serde_json::json!({"id": "Bad Id", "title": "x", "states": []}),
        serde_json::json!({"id": "ok", "title": "x", "states": [], "colour": 1}),
    ] {
        assert!(schemas.validate(&bad, id).is_err(), "{bad}");
    }
}

/// The schema `plan schema --persona` prints, compiled by the standard validator.
fn persona_schema() -> (boon::Schemas, boon::SchemaIndex) {
    let plan = plan_tests::binary("plan").unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(plan)
        .args(["schema", "--persona"])
        .output()
        .expect("plan schema --persona runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["title"], "Plan Builder persona");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("urn:persona-schema", schema)
        .expect("the schema loads");
    let id = compiler
        .compile("urn:persona-schema", &mut schemas)
        .expect("the schema compiles");
    (schemas, id)
}

#[test]
fn every_sample_persona_validates_against_the_persona_schema() {
    let (schemas, id) = persona_schema();
    let mut checked = 0;
    for plan in std::fs::read_dir(root().join("plans/personas")).unwrap() {
        for entry in std::fs::read_dir(plan.unwrap().path()).unwrap() {
            let path = entry.unwrap().path();
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if let Err(e) = schemas.validate(&doc, id) {
                panic!("{} does not match the persona schema: {e}", path.display());
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 12, "two personas for each of the six sample plans");
    for bad in [
        serde_json::json!({"id": "p"}),
        serde_json::json!({"id": "p", "who": "x", "behaviour": ["grumpy"]}),
        serde_json::json!({"id": "p", "who": "x", "facts": {"age": [1]}}),
        serde_json::json!({"id": "p", "who": "x", "expect": {"ending": "maybe"}}),
    ] {
        assert!(schemas.validate(&bad, id).is_err(), "{bad}");
    }
}
