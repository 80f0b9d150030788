//! A persona written from the Simulate tab's form (`save_persona`): checked against the draft as a
//! run checks it, refused with every problem in `plan simulate`'s words and nothing written;
//! renamed by a new id; never over another persona.

use plan_api::messages::SavePersonaArgs;
use plan_api::simulate::{personas, runs};
use plan_api::{Context, ErrorCode};
use plan_core::simulate::persona::Persona;

fn workspace(name: &str) -> Context {
    let root = std::env::temp_dir().join(format!("api-personas-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    Context::open(&root, || "2026-12-06T10:00:00Z".into()).unwrap()
}

fn persona(id: &str, json: serde_json::Value) -> Persona {
    let mut value = json;
    value["id"] = id.into();
    serde_json::from_value(value).unwrap()
}

fn save(ctx: &Context, persona: Persona, was: Option<&str>) -> Result<(), plan_api::ApiError> {
    let args = SavePersonaArgs {
        id: "customer-support".into(),
        persona,
        was: was.map(String::from),
    };
    personas::save(ctx, &args).map(|_| ())
}

fn files(ctx: &Context) -> Vec<String> {
    let dir = ctx.root().join("customer-support/personas");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_persona_from_the_form_is_written_listed_and_renamed() {
    let ctx = workspace("written");
    let before = files(&ctx);
    let new = persona(
        "late-payer",
        serde_json::json!({"title": "Late payer", "who": "A customer whose card was declined.",
            "facts": {"customer_name": "Ann Lee", "amount": 42.5, "has_receipt": true},
            "behaviour": ["terse", "refuses_once"],
            "expect": {"visits": ["customer-intake"], "ending": "complete"},
            "judge": [{"id": "q1", "question": "Was the agent polite?"}]}),
    );
    save(&ctx, new.clone(), None).unwrap();
    let overview = runs::overview(&ctx, "customer-support").unwrap();
    let row = overview
        .personas
        .iter()
        .find(|p| p.id == "late-payer")
        .expect("listed");
    assert_eq!(row.persona.as_ref(), Some(&new), "read back as written");
    assert!(row.problems.is_empty(), "{:?}", row.problems);
    // A new name renames the file: one persona still, under its new name.
    let mut renamed = new.clone();
    renamed.id = "declined-card".into();
    save(&ctx, renamed, Some("late-payer")).unwrap();
    let mut expected = before.clone();
    expected.push("declined-card.json".into());
    expected.sort();
    assert_eq!(files(&ctx), expected);
}

#[test]
fn a_persona_with_an_error_or_another_ones_name_is_refused_and_nothing_is_written() {
    let ctx = workspace("refused");
    let before = files(&ctx);
    let broken = persona(
        "wanderer",
        serde_json::json!({"who": "Someone.", "expect": {"visits": ["nowhere"]}}),
    );
    let e = save(&ctx, broken, None).unwrap_err();
    assert_eq!(e.code, ErrorCode::Schema);
    assert!(
        e.message
            .contains("personas/wanderer.json: /expect/visits/0:")
            && e.message.contains("(unknown-state)")
            && e.message.contains("nothing was saved"),
        "{}",
        e.message
    );
    assert_eq!(e.diagnostics.len(), 1);
    // A name another persona has: refused, that one untouched.
    let taken = before[0].trim_end_matches(".json").to_string();
    let text = std::fs::read(
        ctx.root()
            .join("customer-support/personas")
            .join(&before[0]),
    )
    .unwrap();
    let e = save(&ctx, persona(&taken, serde_json::json!({"who": "x"})), None).unwrap_err();
    assert_eq!(e.code, ErrorCode::Refused);
    assert!(e.message.contains("exists already"), "{}", e.message);
    // A name that cannot be a file's.
    let e = save(
        &ctx,
        persona("../out", serde_json::json!({"who": "x"})),
        None,
    )
    .unwrap_err();
    assert!(e.message.contains("../out"), "{}", e.message);
    assert_eq!(files(&ctx), before, "nothing written");
    assert_eq!(
        std::fs::read(
            ctx.root()
                .join("customer-support/personas")
                .join(&before[0])
        )
        .unwrap(),
        text
    );
    assert!(!ctx.root().join("customer-support/out.json").exists());
}
