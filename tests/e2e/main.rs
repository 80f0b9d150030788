//! The end-to-end tests of the real app, one binary: the harness starts Xvfb and tauri-driver
//! once, and every test gets a fresh app on its own workspace (see `plan_tests::Harness`). A test
//! is registered once, in its suite's `TESTS`; a suite is a module here.
//!
//! Run by `scripts/test.sh`, or alone with `cargo test -p plan-tests --test e2e [-- NAME]`, with
//! cargo test's own options (`--exact`, `--list`, `--skip`; libtest-mimic runs them).
//! Screenshots land in `target/e2e/`.

mod accessibility;
mod agents;
mod answers;
mod app;
mod conditions;
mod detours;
mod editor;
mod explore_tab;
mod first_hour;
mod keyboard;
mod lifecycle;
mod pizza;
mod readable;
mod rules;
mod sharing;
mod simulate_tab;
mod testchat;

fn main() -> std::process::ExitCode {
    // Viewing, editing, the first hour, then a plan's lifecycle, the test chat and explore.
    let suites = [
        app::TESTS,
        app::files::TESTS,
        editor::building::TESTS,
        editor::TESTS,
        editor::mistakes::TESTS,
        editor::recovery::TESTS,
        conditions::TESTS,
        first_hour::TESTS,
        first_hour::pointer_and_keys::TESTS,
        readable::TESTS,
        lifecycle::TESTS,
        lifecycle::files::TESTS,
        testchat::TESTS,
        testchat::sessions::TESTS,
        detours::TESTS,
        rules::TESTS,
        answers::TESTS,
        pizza::TESTS,
        explore_tab::TESTS,
        agents::TESTS,
        simulate_tab::TESTS,
        keyboard::TESTS,
        accessibility::TESTS,
        sharing::TESTS,
    ];
    plan_tests::Harness::run(&suites.concat())
}
