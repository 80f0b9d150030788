//! What the tests of the `plan` command share: the repository's root, a fresh folder for one
//! test, and the command run as a user runs it (from the repository's root, with no workspace
//! taken from the environment and nothing on its input unless the test gives it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository's root: where `plans/` and the docs are.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The built `plan` command (`target/debug/plan`); a clear panic when it is not built.
pub fn bin() -> PathBuf {
    crate::binary("plan").unwrap_or_else(|e| panic!("{e}"))
}

/// A fresh, empty folder for test `name` of this test binary, under the target directory.
pub fn scratch(name: &str) -> PathBuf {
    let group = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .map(|stem| match stem.rsplit_once('-') {
            Some((test, _hash)) => test.to_string(),
            None => stem,
        })
        .unwrap_or_else(|| "tests".into());
    let dir = crate::target_dir()
        .join(format!("{group}-tests"))
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `plan` ready to run: from the repository's root, no workspace from the environment, nothing
/// on its input.
pub fn command() -> Command {
    let mut command = Command::new(bin());
    command
        .current_dir(root())
        .env_remove("PLAN_BUILDER_WORKSPACE")
        .stdin(Stdio::null());
    command
}

/// `plan ARGS`, run to the end.
pub fn plan(args: &[&str]) -> Output {
    command().args(args).output().expect("the plan binary runs")
}

/// `plan --workspace WS ARGS`, run to the end.
pub fn plan_in(ws: &Path, args: &[&str]) -> Output {
    command()
        .arg("--workspace")
        .arg(ws)
        .args(args)
        .output()
        .expect("the plan binary runs")
}

/// `plan ARGS` with `input` on its standard input.
pub fn plan_with_input(args: &[&str], input: &str) -> Output {
    let mut child = command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the plan binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// What it wrote to its standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What it wrote to its standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `plan chat PLAN --script FILE EXTRA…`, run to the end, after writing `script` to a file of
/// the scratch folder `test` (see [`scratch`]).
pub fn chat_script(
    plan_file: &str,
    test: &str,
    script: &serde_json::Value,
    extra: &[&str],
) -> Output {
    let file = scratch(test).join("script.json");
    std::fs::write(&file, script.to_string()).unwrap();
    let file = file.to_str().expect("a scratch path is UTF-8");
    let mut args = vec!["chat", plan_file, "--script", file];
    args.extend_from_slice(extra);
    plan(&args)
}

/// Its standard output and error, after checking that it exited with `expected` (both shown
/// when it did not).
pub fn exits(o: &Output, expected: i32) -> (String, String) {
    let (out, err) = (stdout(o), stderr(o));
    assert_eq!(
        o.status.code(),
        Some(expected),
        "stdout: {out}\nstderr: {err}"
    );
    (out, err)
}

/// `plan ARGS --format json`, which must exit with `expected`: the one JSON document it printed.
pub fn plan_json(args: &[&str], expected: i32) -> serde_json::Value {
    let mut args = args.to_vec();
    args.extend_from_slice(&["--format", "json"]);
    let (out, err) = exits(&plan(&args), expected);
    serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("not one JSON document ({e}): {out}\n{err}"))
}
