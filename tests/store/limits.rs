//! Plans at the limits: nested to the documented depth and past it, wide and large imports read back as written.

use super::*;

/// A plan whose condition nests `composites` `all_of` groups deep.
fn deep_plan(composites: usize) -> String {
    let mut config = r#"{"conditions":[{"condition_type":"deliverable_exists","condition_config":{"key":"kind"}}]}"#.to_string();
    for _ in 1..composites {
        config = format!(
            r#"{{"conditions":[{{"condition_type":"all_of","condition_config":{config}}}]}}"#
        );
    }
    format!(
        r#"{{"id":"deep","title":"Deep","states":[
{{"id":"a","title":"Intake","type":"strict","instructions":"Ask.","tasks":[{{"id":"t","deliverables":[{{"key":"kind","type":"string"}}]}}],
 "transitions":[{{"target_state_id":"b","condition_type":"all_of","condition_config":{config}}}]}},
{{"id":"b","title":"Done"}}]}}"#
    )
}

#[test]
fn a_plan_nested_to_the_documented_depth_is_imported_published_and_read_back_and_past_it_is_said_too_deep(
) {
    let dir = scratch("deep");
    let ws = dir.join("ws");
    let file = dir.join("deep.json");
    fs::write(&file, deep_plan(330)).unwrap();
    ok(&plan(&ws, &["check", file.to_str().unwrap()]));
    ok(&plan(&ws, &["import", "deep", file.to_str().unwrap()]));
    ok(&plan(&ws, &["publish", "deep"]));
    let exported = ok(&plan(&ws, &["export", "deep", "--version", "1"]));
    assert_eq!(
        plan_core::deep_json::depth(exported.as_bytes()).0,
        plan_core::deep_json::depth(deep_plan(330).as_bytes()).0
    );
    let too_deep = dir.join("too-deep.json");
    fs::write(&too_deep, deep_plan(400)).unwrap();
    let o = plan(&ws, &["check", too_deep.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("nested too deeply (1206 levels; at most 1000)"),
        "{said}"
    );
    let refused = err(
        &plan(&ws, &["import", "deep", too_deep.to_str().unwrap()]),
        2,
    );
    assert!(refused.contains("nested too deeply"), "{refused}");
}

/// A plan of `transitions` arrows from its first state, each with a condition nested
/// `composites` deep: wide and deep at once (333 KB of JSON was 37.6 MB indented).
fn wide_deep_plan(transitions: usize, composites: usize) -> String {
    let deep = deep_plan(composites);
    let at = deep.find(r#"{"target_state_id":"b""#).unwrap();
    let end = deep.find("]},\n{\"id\":\"b\"").unwrap();
    let arrow = &deep[at..end];
    let arrows = vec![arrow; transitions].join(",");
    format!("{}{arrows}{}", &deep[..at], &deep[end..])
}

/// A plan of about `bytes` bytes: states with long descriptions; or, `inflating`, whose states
/// compare a number with lists of `1e9` (4 bytes read, `1000000000.0,` written: 13).
fn wide_plan(bytes: usize, inflating: bool) -> String {
    let condition = if inflating {
        format!(
            r#""condition_type":"deliverable_value_in","condition_config":{{"key":"n","values":[{}]}}"#,
            vec!["1e9"; 20_000].join(",")
        )
    } else {
        r#""condition_type":"deliverable_exists","condition_config":{"key":"n"}"#.to_string()
    };
    let description = "x".repeat(if inflating { 10 } else { 60_000 });
    let state = |i: usize| {
        format!(
            r#"{{"id":"s{i}","title":"State {i}","type":"loose","description":"{description}","tasks":[{{"id":"t","deliverables":[{{"key":"n","type":"number"}}]}}],"transitions":[{{"target_state_id":"b",{condition}}}]}}"#
        )
    };
    let one = state(0).len();
    let states: Vec<String> = (0..bytes / one).map(state).collect();
    format!(
        r#"{{"id":"wide","title":"Wide","start_state_id":"s0","states":[{},{{"id":"b","title":"Done"}}]}}"#,
        states.join(",")
    )
}

#[test]
fn what_an_import_accepts_is_written_so_that_it_can_be_read_back() {
    let dir = scratch("read-back");
    let ws = dir.join("ws");
    // The deepest the reader takes, twenty times over: indented it would be ~40 MB.
    let file = dir.join("wide-deep.json");
    let text = wide_deep_plan(20, 330);
    assert!(text.len() < 600_000);
    fs::write(&file, &text).unwrap();
    ok(&plan(&ws, &["import", "deep", file.to_str().unwrap()]));
    let draft = ws.join("deep/draft.json");
    let size = fs::metadata(&draft).unwrap().len();
    assert!(size < 1_000_000, "the draft is {size} bytes");
    ok(&plan(&ws, &["check", "--plan", "deep"]));
    assert!(ok(&plan(&ws, &["list"])).contains("deep "));
    ok(&plan(&ws, &["publish", "deep"]));
    let exported = ok(&plan(&ws, &["export", "deep"]));
    assert!(exported.len() < 1_000_000);
    let again = dir.join("exported.json");
    fs::write(&again, &exported).unwrap();
    ok(&plan(
        &ws,
        &["import", "deep-again", again.to_str().unwrap()],
    ));
    ok(&plan(&ws, &["reopen", "deep", "1"]));
    ok(&plan(&ws, &["check", "--plan", "deep"]));

    // The widest: just under 32 MiB, read and written back within it.
    let file = dir.join("wide.json");
    let text = wide_plan(31 * 1024 * 1024, false);
    assert!(text.len() > 30 * 1024 * 1024 && text.len() < 32 * 1024 * 1024);
    fs::write(&file, &text).unwrap();
    ok(&plan(&ws, &["import", "wide", file.to_str().unwrap()]));
    let size = fs::metadata(ws.join("wide/draft.json")).unwrap().len();
    assert!(size <= 32 * 1024 * 1024, "the draft is {size} bytes");
    ok(&plan(&ws, &["check", "--plan", "wide"]));

    // Accepted at the door only if it fits written out: `1e9` is written `1000000000.0`.
    let file = dir.join("inflating.json");
    let text = wide_plan(12 * 1024 * 1024, true);
    fs::write(&file, &text).unwrap();
    let before = snapshot(&ws);
    let said = err(&plan(&ws, &["import", "wide", file.to_str().unwrap()]), 2);
    assert!(
        said.contains("wide/draft.json: this plan would be")
            && said.contains("plans are limited to 32 MiB, so it could not be read back"),
        "{said}"
    );
    let said = err(
        &plan(&ws, &["import", "inflated", file.to_str().unwrap()]),
        2,
    );
    assert!(said.contains("inflated/draft.json"), "{said}");
    assert_eq!(
        snapshot(&ws),
        before,
        "a refused import changed the workspace"
    );
    assert!(
        !ws.join("inflated").exists(),
        "a refused import left a plan folder"
    );
}
