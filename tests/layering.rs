//! The layers ARCHITECTURE.md draws, checked: which crate of the workspace may use which (read from
//! `cargo metadata`), which outside crates each must never use, and what the sources of the pure
//! layers must not do (core reads no clock and touches no file outside its `fs` store; only the UI's
//! `ipc.rs` talks to the shell; the CLI and the shell run conversations only through the API). A new
//! import that breaks a layer fails here, naming it; so does a module ARCHITECTURE.md does not name,
//! or a file it cites that is gone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use plan_tests::cli::root;
use serde_json::Value;

/// Each workspace package's dependencies: name → the features asked for (`default` among them
/// when the dependency's default features are on).
fn dependencies() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata says JSON");
    v["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                // What the package itself uses, not its tests' and benches' tools.
                .filter(|d| d["kind"].is_null())
                .map(|d| {
                    let mut features: BTreeSet<String> = d["features"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|f| f.as_str().unwrap().to_string())
                        .collect();
                    if d["uses_default_features"] == true {
                        features.insert("default".into());
                    }
                    (d["name"].as_str().unwrap().to_string(), features)
                })
                .collect();
            (p["name"].as_str().unwrap().to_string(), deps)
        })
        .collect()
}

#[test]
fn each_crate_uses_only_the_layers_below_it() {
    let deps = dependencies();
    let ours = [
        "plan-core",
        "plan-api",
        "plan-cli",
        "plan-builder",
        "plan-ui",
    ];
    // ARCHITECTURE.md: ui → api (messages) → core; src-tauri → api → core; cli → api → core.
    let allowed: BTreeMap<&str, &[&str]> = BTreeMap::from([
        ("plan-core", &[][..]),
        ("plan-api", &["plan-core"][..]),
        ("plan-cli", &["plan-api", "plan-core"][..]),
        ("plan-builder", &["plan-api", "plan-core"][..]),
        ("plan-ui", &["plan-api", "plan-core"][..]),
    ]);
    let never: BTreeMap<&str, &[&str]> = BTreeMap::from([
        (
            "plan-core",
            &[
                "tauri", "leptos", "tokio", "clap", "ureq", "notify", "rfd", "rand",
            ][..],
        ),
        (
            "plan-api",
            &["tauri", "leptos", "clap", "notify", "rfd", "tokio"][..],
        ),
        ("plan-cli", &["tauri", "leptos", "notify", "rfd"][..]),
        ("plan-builder", &["leptos", "clap"][..]),
        (
            "plan-ui",
            &["tauri", "tokio", "ureq", "notify", "rfd", "clap"][..],
        ),
    ]);
    let mut wrong = Vec::new();
    for (name, allowed) in &allowed {
        let Some(uses) = deps.get(*name) else {
            wrong.push(format!("{name} is not in the workspace"));
            continue;
        };
        for dep in uses.keys() {
            if ours.contains(&dep.as_str()) && !allowed.contains(&dep.as_str()) {
                wrong.push(format!("{name} uses {dep}"));
            }
            if never[name].contains(&dep.as_str()) {
                wrong.push(format!("{name} uses {dep}, which it must never use"));
            }
        }
    }
    // The page compiles the API's messages only: no store, no HTTP client, no files.
    if deps["plan-ui"]
        .get("plan-api")
        .is_some_and(|f| f.contains("store"))
    {
        wrong.push("plan-ui uses plan-api with its `store` feature".into());
    }
    for (dep, feature) in [
        ("plan-core", "fs"),
        ("plan-core", "default"),
        ("plan-api", "default"),
    ] {
        if deps["plan-ui"]
            .get(dep)
            .is_some_and(|f| f.contains(feature))
        {
            wrong.push(format!("plan-ui uses {dep} with its `{feature}` feature"));
        }
    }
    assert!(wrong.is_empty(), "layers broken:\n{}", wrong.join("\n"));
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path, text));
            }
        }
    }
    out
}

#[test]
fn core_is_pure_outside_its_store_only_ipc_talks_to_the_shell_and_conversations_go_through_the_api()
{
    let mut wrong = Vec::new();
    let core = root().join("core/src");
    for (path, text) in sources(&core) {
        let rel = path
            .strip_prefix(&core)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // Behind the `fs` feature: the files and the workspace store.
        if rel.starts_with("store/") || rel == "files.rs" {
            continue;
        }
        for forbidden in [
            "std::fs",
            "std::net",
            "std::process",
            "std::env",
            "Instant::now",
            "SystemTime",
        ] {
            if text.contains(forbidden) {
                wrong.push(format!("core/src/{rel} uses {forbidden}"));
            }
        }
        // Threads only to validate a large plan's states side by side, and to expand a search's
        // configurations side by side (as many as the caller says: core asks nothing of the machine).
        if text.contains("std::thread")
            && !["validate/workers.rs", "explore/search.rs"].contains(&rel.as_str())
        {
            wrong.push(format!("core/src/{rel} starts threads"));
        }
    }
    let ui = root().join("ui/src");
    for (path, text) in sources(&ui) {
        let rel = path
            .strip_prefix(&ui)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if rel != "ipc.rs" && (text.contains("__TAURI__") || text.contains("tauri_invoke")) {
            wrong.push(format!("ui/src/{rel} talks to the shell (only ipc.rs may)"));
        }
    }
    // The command line and the shell run conversations through the API, as the app does: one
    // conversation loop, not a second one beside it.
    for front in ["cli/src", "src-tauri/src"] {
        let dir = root().join(front);
        for (path, text) in sources(&dir) {
            let rel = path
                .strip_prefix(&dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            for loop_part in ["Chat::open", "Chat::resume", ".say_with(", "script::run"] {
                if text.contains(loop_part) {
                    wrong.push(format!(
                        "{front}/{rel} runs a conversation itself ({loop_part})"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "layers broken:\n{}", wrong.join("\n"));
}

/// The module of file `rel` (relative to a crate's `src`): `crate::panels::inspector`.
fn module_of(rel: &str) -> String {
    let path = rel.trim_end_matches(".rs");
    let path = path.strip_suffix("/mod").unwrap_or(path);
    if path == "main" || path == "lib" {
        return "crate".into();
    }
    format!("crate::{}", path.replace('/', "::"))
}

/// The modules of `src` each module's code names (`crate::…`, `super::…`), among `src`'s own.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files: Vec<(String, String)> = sources(src)
        .into_iter()
        .map(|(p, text)| {
            let rel = p.strip_prefix(src).unwrap().to_string_lossy().into_owned();
            (module_of(&rel), text)
        })
        .collect();
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut graph = BTreeMap::new();
    for (module, text) in &files {
        let mut uses = BTreeSet::new();
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .filter(|w| w.starts_with("crate::") || w.starts_with("super::"))
            .collect();
        for word in words {
            let mut parts: Vec<&str> = word.split("::").filter(|p| !p.is_empty()).collect();
            let mut base: Vec<String> = if parts[0] == "crate" {
                parts.remove(0);
                vec!["crate".into()]
            } else {
                module.split("::").map(str::to_string).collect()
            };
            while parts.first() == Some(&"super") {
                base.pop();
                parts.remove(0);
            }
            // The longest prefix that is one of the modules.
            let found = (1..=parts.len()).rev().find_map(|n| {
                let mut path = base.clone();
                path.extend(parts[..n].iter().map(|p| p.to_string()));
                let path = path.join("::");
                modules.contains(&path).then_some(path)
            });
            if let Some(to) = found {
                if &to != module && !module.starts_with(&format!("{to}::")) {
                    uses.insert(to);
                }
            }
        }
        graph.insert(module.clone(), uses);
    }
    graph
}

/// Groups of modules that import each other in a circle (strongly connected, more than one).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(m) = stack.pop() {
            for next in graph.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for (m, r) in &reached {
        if !r.contains(*m) || out.iter().any(|c| c.contains(*m)) {
            continue;
        }
        let circle: BTreeSet<String> = r
            .iter()
            .filter(|other| reached[other].contains(*m))
            .cloned()
            .collect();
        out.push(circle);
    }
    out
}

/// The UI's controllers, views and shared types import one another one way: a module a view and a
/// controller both need lives on its own (`tab`, `focus`, the inspector's `access`, the canvas's
/// `key` and `shown`), so no group of the UI's modules imports itself round in a circle.
#[test]
fn no_modules_of_the_ui_import_each_other_in_a_circle() {
    let mut found = Vec::new();
    for src in ["ui/src"] {
        for circle in circles(&module_graph(&root().join(src))) {
            found.push(format!(
                "{src}: {}",
                circle.into_iter().collect::<Vec<_>>().join(" → ")
            ));
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other in a circle:\n{}",
        found.join("\n")
    );
}

/// Every Rust source file of the five crates, relative to the repository's root.
fn modules() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for krate in ["core", "api", "cli", "src-tauri", "ui"] {
        let src = root().join(krate).join("src");
        for (path, _) in sources(&src) {
            let rel = path.strip_prefix(root()).unwrap_or(&path);
            out.insert(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    out
}

/// ARCHITECTURE.md cannot drift from the code: its Modules section names every module of the five
/// crates (one row each), and every source file it cites anywhere exists.
#[test]
fn the_architecture_names_every_module_and_cites_only_files_that_exist() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let crates = ["core/", "api/", "cli/", "src-tauri/", "ui/"];
    // Every `path.rs` (or `path.rs::item`) it cites, anywhere.
    let cited: BTreeSet<String> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|quoted| quoted.split("::").next().unwrap_or(quoted))
        .filter(|p| crates.iter().any(|c| p.starts_with(c)) && p.ends_with(".rs"))
        .filter(|p| !p.contains('<'))
        .map(str::to_string)
        .collect();
    let gone: Vec<&String> = cited.iter().filter(|p| !root().join(p).is_file()).collect();
    assert!(
        gone.is_empty(),
        "ARCHITECTURE.md cites files that do not exist: {gone:?}"
    );
    // The rows of its module tables: "| `path.rs` | what it is |".
    let rows: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|p| p.ends_with(".rs"))
        .collect();
    let named: BTreeSet<String> = rows.iter().map(|p| p.to_string()).collect();
    assert_eq!(rows.len(), named.len(), "a module is named twice");
    let modules = modules();
    let unnamed: Vec<&String> = modules.difference(&named).collect();
    assert!(
        unnamed.is_empty(),
        "modules ARCHITECTURE.md does not name (add a row: | `path` | what it is |): {unnamed:?}"
    );
    let extra: Vec<&String> = named.difference(&modules).collect();
    assert!(
        extra.is_empty(),
        "ARCHITECTURE.md names modules that do not exist: {extra:?}"
    );
}

/// The project's layout as the card that founded it draws it: the workspace, the shell, the UI, the
/// sample plans, the icons, the tests and the Tauri configuration at the top level. The shell's
/// folder holds only a link to that configuration (Tauri's tools open it there), never a copy.
#[test]
fn the_top_level_holds_the_founding_cards_layout_and_one_tauri_configuration() {
    let top = root();
    for entry in [
        "Cargo.toml",
        "src-tauri",
        "ui",
        "plans",
        "icons",
        "tests",
        "tauri.conf.json",
    ] {
        assert!(
            top.join(entry).exists(),
            "{entry} is missing at the top level"
        );
    }
    let config = top.join("tauri.conf.json");
    assert!(
        config.symlink_metadata().unwrap().file_type().is_file(),
        "tauri.conf.json at the top level is the file itself"
    );
    let beside_shell = top.join("src-tauri/tauri.conf.json");
    let link = std::fs::read_link(&beside_shell)
        .expect("src-tauri/tauri.conf.json is a link to the top level's file, not a copy");
    assert_eq!(
        beside_shell
            .parent()
            .unwrap()
            .join(link)
            .canonicalize()
            .unwrap(),
        config.canonicalize().unwrap()
    );
}
