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
    let (schemas, id) = plan_schema();
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

/// The schema `plan schema` prints, compiled by the standard validator.
fn plan_schema() -> (boon::Schemas, boon::SchemaIndex) {
    let out = plan_tests::cli::plan(&["schema"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("urn:plan-schema", schema).unwrap();
    let id = compiler.compile("urn:plan-schema", &mut schemas).unwrap();
    (schemas, id)
}

/// `plan check --format json` of `doc`: each finding's code and path.
fn checked(doc: &Value, dir: &std::path::Path, name: &str) -> Vec<(String, String)> {
    let file = dir.join(format!("{name}.json"));
    std::fs::write(&file, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    let out = plan_tests::cli::plan(&["check", "--format", "json", &file.to_string_lossy()]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let code = d["code"].as_str().unwrap_or_default().to_string();
            let path = d["location"]["path"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            (code, path)
        })
        .collect()
}

fn sample(name: &str) -> Value {
    let text = std::fs::read_to_string(root().join(format!("plans/{name}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// What `plan check` refuses as `schema`, an independent validator reading the published schema
/// refuses too (broken twins of samples it accepts), and the finding points at the field.
#[test]
fn the_published_schema_refuses_what_the_checker_refuses_as_schema() {
    let (schemas, id) = plan_schema();
    let dir = plan_tests::cli::scratch("schema-refusals");
    let session = |i: usize, field: &str, v: Value| {
        let mut p = sample("account-care");
        p["session_states"][i][field] = v;
        p
    };
    // account-care: session state 0 is the prompt state `courtesy`, 2 the number `verify_attempts`;
    // verify's first transition's first effect sets `identity_verified`.
    let effect = |change: Value| {
        let mut p = sample("account-care");
        p["states"][1]["transitions"][0]["effects"][0] = change;
        p
    };
    let ttl = |i: usize, v: Value| {
        let mut p = sample("vehicle-viewing");
        p["interruptions"][i]["ttl_turns"] = v;
        p
    };
    let mut ending = sample("customer-support");
    let farewell = ending["states"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["ending"]["kind"] == "complete")
        .unwrap();
    ending["states"][farewell]["ending"]["reason"] = "because".into();
    let cases: Vec<(&str, Value, String)> = vec![
        (
            "prompt state with a value",
            session(0, "value", "hi".into()),
            "/session_states/0/value".into(),
        ),
        (
            "prompt state as a list",
            session(0, "list", true.into()),
            "/session_states/0/list".into(),
        ),
        (
            "prompt on a number state",
            session(2, "prompt", "x".into()),
            "/session_states/2/prompt".into(),
        ),
        (
            "change without effect",
            effect(serde_json::json!({"session_state": "identity_verified"})),
            "/states/1/transitions/0/effects/0".into(),
        ),
        (
            "value change with add",
            effect(serde_json::json!({"session_state": "verify_attempts", "value": 1, "add": 1})),
            "/states/1/transitions/0/effects/0/add".into(),
        ),
        (
            "ttl_turns on an abandon",
            ttl(1, 3.into()),
            "/interruptions/1/ttl_turns".into(),
        ),
        (
            "negative ttl_turns",
            ttl(0, (-1).into()),
            "/interruptions/0/ttl_turns".into(),
        ),
        (
            "a reason its ending does not take",
            ending,
            format!("/states/{farewell}/ending/reason"),
        ),
    ];
    for (i, (what, doc, path)) in cases.into_iter().enumerate() {
        let found = checked(&doc, &dir, &format!("case-{i}"));
        assert!(
            found.contains(&("schema".to_string(), path.clone())),
            "{what}: the checker says `schema` at {path}; it said {found:?}"
        );
        assert!(
            schemas.validate(&doc, id).is_err(),
            "{what}: the published schema accepts what the checker refuses"
        );
    }
    // The twins that keep the rules pass both.
    for name in ["account-care", "vehicle-viewing", "customer-support"] {
        let doc = sample(name);
        assert!(schemas.validate(&doc, id).is_ok(), "{name}");
        assert!(checked(&doc, &dir, name).iter().all(|(c, _)| c != "schema"));
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
