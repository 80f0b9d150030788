//! Several authors, one plan, through real git (issue 45): a bare repository and two clones in a
//! fresh folder, Ann and Bob, each with `plan share` as an author runs it. Different states edited
//! merge cleanly; one title edited on both sides is one conflict, chosen through the command
//! line, and the plan not published meanwhile; both publishing version 3 gives 3 and 4, the live
//! marker following; a file git merged as text, without the driver, is refused with words that
//! say what to do; a workspace below the repository's top is shared without the files beside it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use plan_tests::cli::{command, scratch};
use serde_json::Value;

/// `git ARGS` in `dir`, which must succeed; its output.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `plan ARGS --workspace DIR`.
fn plan(dir: &Path, args: &[&str]) -> Output {
    command()
        .args(args)
        .arg("--workspace")
        .arg(dir)
        .output()
        .expect("plan runs")
}

/// `plan ARGS` in `dir`, which must exit with `code`; its standard output.
fn plan_exits(dir: &Path, args: &[&str], code: i32) -> String {
    let out = plan(dir, args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "plan {args:?}: stdout {} stderr {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A shared repository with the support sample sent by Ann, and Bob's clone of it.
struct Team {
    ann: PathBuf,
    bob: PathBuf,
}

fn team(name: &str) -> Team {
    let root = scratch(name);
    git(
        &root,
        &["init", "--quiet", "--bare", "-b", "main", "shared.git"],
    );
    git(&root, &["clone", "--quiet", "shared.git", "ann"]);
    let ann = root.join("ann");
    let sample = plan_tests::cli::root().join("plans/customer-support.json");
    plan_exits(&ann, &["import", "support", sample.to_str().unwrap()], 0);
    plan_exits(
        &ann,
        &[
            "share",
            "checkpoint",
            "-m",
            "The support plan",
            "--name",
            "Ann",
            "--email",
            "ann@example.com",
        ],
        0,
    );
    let sent = plan_exits(&ann, &["share", "send"], 0);
    assert!(sent.contains("support"), "{sent}");
    git(&root, &["clone", "--quiet", "shared.git", "bob"]);
    let bob = root.join("bob");
    git(&bob, &["config", "user.name", "Bob"]);
    git(&bob, &["config", "user.email", "bob@example.com"]);
    plan_exits(&bob, &["share", "init"], 0);
    Team { ann, bob }
}

/// How many files the support plan's `versions/` holds (none before a first publish).
fn versions_of(dir: &Path) -> usize {
    fs::read_dir(dir.join("support/versions")).map_or(0, |d| d.count())
}

fn draft(dir: &Path) -> Value {
    let text = fs::read_to_string(dir.join("support/draft.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The draft of `dir` with `edit` made, saved as the app saves it.
fn edit_draft(dir: &Path, edit: impl FnOnce(&mut Value)) {
    let mut value = draft(dir);
    edit(&mut value);
    let mut text = serde_json::to_string_pretty(&value).unwrap();
    text.push('\n');
    fs::write(dir.join("support/draft.json"), text).unwrap();
}

/// The conflict on Billing's title in `dir` chosen through the command line (`--mine`,
/// `--theirs`).
fn choose_billing_title(dir: &Path, choice: &str) {
    plan_exits(
        dir,
        &[
            "share",
            "resolve",
            "support",
            "/states/billing-support/title",
            choice,
        ],
        0,
    );
}

fn state_mut<'v>(plan: &'v mut Value, id: &str) -> &'v mut Value {
    plan["states"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|s| s["id"] == id)
        .unwrap_or_else(|| panic!("no state {id}"))
}

fn title(plan: &Value, id: &str) -> String {
    plan["states"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .map(|s| s["title"].as_str().unwrap().to_string())
        .unwrap()
}

#[test]
fn init_is_idempotent_and_names_the_driver() {
    let team = team("init");
    let again = plan_exits(&team.bob, &["share", "init"], 0);
    assert!(again.contains("already set up"), "{again}");
    let driver = git(&team.bob, &["config", "merge.plan-builder.driver"]);
    assert!(driver.contains("merge %O %A %B --path %P"), "{driver}");
    let attributes = fs::read_to_string(team.bob.join(".gitattributes")).unwrap();
    assert!(attributes.contains("*/draft.json merge=plan-builder"));
    assert_eq!(attributes.matches("merge=plan-builder").count(), 2);
}

#[test]
fn two_authors_editing_different_states_merge_cleanly() {
    let team = team("different");
    edit_draft(&team.ann, |p| {
        state_mut(p, "billing-support")["title"] = "Billing and refunds".into()
    });
    plan_exits(
        &team.ann,
        &["share", "checkpoint", "-m", "Billing renamed"],
        0,
    );
    plan_exits(&team.ann, &["share", "send"], 0);
    edit_draft(&team.bob, |p| {
        state_mut(p, "technical-support")["instructions"] = "Ask for the error message.".into()
    });
    plan_exits(
        &team.bob,
        &["share", "checkpoint", "-m", "Tech asks for errors"],
        0,
    );

    // Ann sent first: Bob is told to get her changes.
    let refused = plan(&team.bob, &["share", "send"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("others sent changes first: get them, then send"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let got = plan_exits(&team.bob, &["share", "get"], 0);
    assert!(got.contains("states changed: Billing and refunds"), "{got}");
    let merged = draft(&team.bob);
    assert_eq!(title(&merged, "billing-support"), "Billing and refunds");
    assert_eq!(
        state_mut(&mut merged.clone(), "technical-support")["instructions"],
        "Ask for the error message."
    );
    assert!(!team.bob.join("support/draft.conflicts.json").exists());
    plan_exits(&team.bob, &["check", "--plan", "support"], 0);
    plan_exits(&team.bob, &["share", "send"], 0);
    let back = plan_exits(&team.ann, &["share", "get"], 0);
    assert!(back.contains("Technical"), "{back}");
}

#[test]
fn the_same_title_edited_on_both_sides_is_one_conflict_chosen_through_the_command_line() {
    let team = team("conflict");
    edit_draft(&team.ann, |p| {
        state_mut(p, "billing-support")["title"] = "Bills".into()
    });
    plan_exits(&team.ann, &["share", "checkpoint", "-m", "Bills"], 0);
    plan_exits(&team.ann, &["share", "send"], 0);
    edit_draft(&team.bob, |p| {
        state_mut(p, "billing-support")["title"] = "Payments".into()
    });
    plan_exits(&team.bob, &["share", "checkpoint", "-m", "Payments"], 0);

    let got = plan_exits(&team.bob, &["share", "get"], 1);
    assert!(
        got.contains("1 conflict to choose")
            && got.contains("/states/billing-support/title: yours \"Payments\", theirs \"Bills\""),
        "{got}"
    );
    // Ours is kept in a draft that reads and checks as any; no git marker anywhere.
    assert_eq!(title(&draft(&team.bob), "billing-support"), "Payments");
    let text = fs::read_to_string(team.bob.join("support/draft.json")).unwrap();
    assert!(!text.contains("<<<<<<<"));
    let conflicts: Value = serde_json::from_str(
        &fs::read_to_string(team.bob.join("support/draft.conflicts.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        conflicts["conflicts"][0],
        serde_json::json!({"path": "/states/billing-support/title",
            "base": "Billing support", "ours": "Payments", "theirs": "Bills"})
    );
    let status: Value = serde_json::from_str(&plan_exits(
        &team.bob,
        &["share", "status", "--format", "json"],
        0,
    ))
    .unwrap();
    assert_eq!(status["conflicts"][0]["count"], 1);

    // Not sent, nor published, while a conflict is left (ours stands in for a choice not made);
    // nothing on disk changes. Taken theirs, then published and sent.
    let refused = plan(&team.bob, &["share", "send"]);
    assert_eq!(refused.status.code(), Some(2));
    let versions_before = versions_of(&team.bob);
    let refused = plan(&team.bob, &["publish", "support", "-m", "too soon"]);
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&refused.stderr),
        "plan: This draft still has a conflict from a merge to choose: keep yours or take theirs, then publish.\n"
    );
    let json: Value = serde_json::from_str(&plan_exits(
        &team.bob,
        &["publish", "support", "--format", "json"],
        1,
    ))
    .unwrap();
    assert_eq!(
        json["error"]["message"],
        "This draft still has a conflict from a merge to choose: keep yours or take theirs, then publish."
    );
    assert_eq!(
        versions_of(&team.bob),
        versions_before,
        "a refused publish wrote a version"
    );
    choose_billing_title(&team.bob, "--theirs");
    assert_eq!(title(&draft(&team.bob), "billing-support"), "Bills");
    assert!(!team.bob.join("support/draft.conflicts.json").exists());
    plan_exits(&team.bob, &["publish", "support", "-m", "Bills it is"], 0);
    plan_exits(&team.bob, &["share", "checkpoint", "-m", "Bills it is"], 0);
    plan_exits(&team.bob, &["share", "send"], 0);
}

#[test]
fn both_publishing_version_3_gives_3_and_4_and_the_live_marker_follows() {
    let team = team("versions");
    for (who, title) in [(&team.ann, "Ann's billing"), (&team.bob, "Bob's billing")] {
        for n in 1..=2 {
            edit_draft(who, |p| {
                state_mut(p, "billing-support")["title"] = format!("{title} {n}").into()
            });
            if who == &team.ann {
                plan_exits(who, &["publish", "support", "-m", &format!("v{n}")], 0);
            }
        }
    }
    // Ann: versions 1 and 2 sent; Bob gets them, then both publish a third.
    plan_exits(&team.ann, &["share", "checkpoint", "-m", "Two versions"], 0);
    plan_exits(&team.ann, &["share", "send"], 0);
    plan_exits(&team.bob, &["share", "checkpoint", "-m", "Draft"], 0);
    plan_exits(&team.bob, &["share", "get"], 1);
    choose_billing_title(&team.bob, "--mine");
    edit_draft(&team.ann, |p| {
        state_mut(p, "billing-support")["title"] = "Ann's own".into()
    });
    plan_exits(&team.ann, &["publish", "support", "-m", "Ann's third"], 0);
    plan_exits(&team.ann, &["share", "checkpoint", "-m", "Ann's v3"], 0);
    plan_exits(&team.ann, &["share", "send"], 0);
    edit_draft(&team.bob, |p| {
        state_mut(p, "billing-support")["title"] = "Bob's own".into()
    });
    plan_exits(&team.bob, &["publish", "support", "-m", "Bob's third"], 0);
    plan_exits(&team.bob, &["live", "support", "3"], 0);
    plan_exits(&team.bob, &["share", "checkpoint", "-m", "Bob's v3"], 0);
    let bob_v3 = fs::read_to_string(team.bob.join("support/versions/3.json")).unwrap();

    let got = plan(&team.bob, &["share", "get"]);
    let said = String::from_utf8_lossy(&got.stdout);
    assert!(
        said.contains("your version 3 is now version 4: others published 3 first"),
        "{said} {}",
        String::from_utf8_lossy(&got.stderr)
    );
    let versions: Value = serde_json::from_str(&plan_exits(
        &team.bob,
        &["versions", "support", "--format", "json"],
        0,
    ))
    .unwrap();
    let notes: Vec<(u64, String)> = versions["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["version"].as_u64().unwrap(),
                v["note"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        notes,
        [
            (1, "v1".to_string()),
            (2, "v2".to_string()),
            (3, "Ann's third".to_string()),
            (4, "Bob's third".to_string())
        ]
    );
    let bob_v4: Value = serde_json::from_str(
        &fs::read_to_string(team.bob.join("support/versions/4.json")).unwrap(),
    )
    .unwrap();
    let was: Value = serde_json::from_str(&bob_v3).unwrap();
    assert_eq!(bob_v4["content_hash"], was["content_hash"]);
    assert_eq!(bob_v4["based_on"], was["based_on"]);
    let live: Value =
        serde_json::from_str(&fs::read_to_string(team.bob.join("support/live.json")).unwrap())
            .unwrap();
    assert_eq!(live["version"], 4, "the live marker followed Bob's version");
}

#[test]
fn a_draft_git_merged_as_text_is_refused_with_words_that_say_what_to_do() {
    let team = team("markers");
    let path = team.bob.join("support/draft.json");
    let text = fs::read_to_string(&path).unwrap();
    // As git leaves a file it merged as text: the markers at the start of their lines.
    let marked: String = text
        .lines()
        .map(|line| {
            if line.contains("\"title\": \"Billing support\"") {
                format!(
                    "<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> origin/main\n",
                    line.replace("Billing support", "Payments"),
                    line.replace("Billing support", "Bills")
                )
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    fs::write(&path, marked).unwrap();
    let out = plan(&team.bob, &["check", "--plan", "support"]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains("git's conflict markers") && said.contains("plan share init"),
        "{said}"
    );
    // The format's code stays the one for a file that is not JSON.
    let out = plan(
        &team.bob,
        &["check", "--plan", "support", "--format", "json"],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["diagnostics"][0]["code"], "invalid-json", "{report}");
    // The app's list says what happened, not "Not valid JSON" (the API's code of its own).
    let ctx = plan_api::Context::open(&team.bob, || "2026-12-07T00:00:00Z".into()).unwrap();
    let listed = plan_api::workspace::plans(&ctx).unwrap();
    let support = listed.iter().find(|p| p.id == "support").unwrap();
    assert_eq!(
        support.error.as_ref().map(|e| e.code),
        Some(plan_api::ErrorCode::MergedAsText),
        "{support:?}"
    );
}

#[test]
fn a_workspace_a_repository_ignores_is_not_shared_and_the_repository_is_left_alone() {
    let root = scratch("ignored");
    git(&root, &["init", "--quiet", "-b", "main"]);
    fs::write(root.join(".gitignore"), "build/\n").unwrap();
    let ws = root.join("build/plans");
    fs::create_dir_all(&ws).unwrap();
    let out = plan(&ws, &["share", "init"]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("ignored by it"), "{said}");
    let config = fs::read_to_string(root.join(".git/config")).unwrap();
    assert!(!config.contains("plan-builder"), "{config}");
    assert!(!ws.join(".gitattributes").exists());
}

#[test]
fn a_workspace_below_the_repositorys_top_is_shared_and_the_files_beside_it_are_left_alone() {
    // The team's project: a README at the top, the plans in `plans/`.
    let root = scratch("below");
    git(
        &root,
        &["init", "--quiet", "--bare", "-b", "main", "shared.git"],
    );
    git(&root, &["clone", "--quiet", "shared.git", "ann"]);
    let ann = root.join("ann");
    fs::write(ann.join("README.md"), "The team's project\n").unwrap();
    let ann_ws = ann.join("plans");
    fs::create_dir_all(&ann_ws).unwrap();
    let sample = plan_tests::cli::root().join("plans/customer-support.json");
    plan_exits(&ann_ws, &["import", "support", sample.to_str().unwrap()], 0);
    let who = ["--name", "Ann", "--email", "ann@example.com"];
    let first = [&["share", "checkpoint", "-m", "The plans"][..], &who[..]].concat();
    plan_exits(&ann_ws, &first, 0);
    // The checkpoint holds the workspace, not the README beside it.
    let committed = git(&ann, &["show", "--name-only", "--format=", "HEAD"]);
    assert!(
        committed.contains("plans/support/draft.json") && !committed.contains("README.md"),
        "{committed}"
    );
    git(&ann, &["add", "README.md"]);
    git(
        &ann,
        &[
            "-c",
            "user.name=Ann",
            "-c",
            "user.email=ann@example.com",
            "commit",
            "--quiet",
            "-m",
            "README",
        ],
    );
    plan_exits(&ann_ws, &["share", "send"], 0);
    git(&root, &["clone", "--quiet", "shared.git", "bob"]);
    let bob = root.join("bob");
    git(&bob, &["config", "user.name", "Bob"]);
    git(&bob, &["config", "user.email", "bob@example.com"]);
    let bob_ws = bob.join("plans");
    plan_exits(&bob_ws, &["share", "init"], 0);

    // The same title on both sides: one conflict, in Bob's workspace, said with the plan's id.
    let retitle = |ws: &Path, to: &str| {
        edit_draft(ws, |p| state_mut(p, "billing-support")["title"] = to.into())
    };
    retitle(&ann_ws, "Bills");
    plan_exits(&ann_ws, &["share", "checkpoint", "-m", "Bills"], 0);
    plan_exits(&ann_ws, &["share", "send"], 0);
    retitle(&bob_ws, "Payments");
    // Bob's own change beside the workspace stays his, uncommitted.
    fs::write(bob.join("README.md"), "Bob's notes\n").unwrap();
    plan_exits(&bob_ws, &["share", "checkpoint", "-m", "Payments"], 0);
    let got = plan_exits(&bob_ws, &["share", "get"], 1);
    assert!(got.contains("1 conflict to choose"), "{got}");
    assert!(bob_ws.join("support/draft.conflicts.json").exists());
    let status: Value = serde_json::from_str(&plan_exits(
        &bob_ws,
        &["share", "status", "--format", "json"],
        0,
    ))
    .unwrap();
    assert_eq!(status["conflicts"][0]["id"], "support", "{status}");
    choose_billing_title(&bob_ws, "--theirs");
    plan_exits(&bob_ws, &["share", "checkpoint", "-m", "Bills it is"], 0);
    plan_exits(&bob_ws, &["share", "send"], 0);
    assert_eq!(
        fs::read_to_string(bob.join("README.md")).unwrap(),
        "Bob's notes\n"
    );
    let modified = git(&bob, &["status", "--porcelain"]);
    assert_eq!(modified.trim(), "M README.md", "{modified}");
}
