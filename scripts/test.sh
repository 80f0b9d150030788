#!/usr/bin/env bash
# Installs what is missing, then runs every test: formatting and lints, the unit and integration
# tests of every crate, the cross-crate tests in tests/ (the plan command as a user runs it, the
# JSON Schema, property tests), the language-model agent against a real model server, the
# end-to-end tests of the release app an author runs, under Xvfb (screenshots in target/e2e/),
# the Debian package made of that same build (checked, installed, tried, removed: needs root or
# sudo), and the canvas probe at 5,000 states (fails on a freeze). Exits non-zero on the first
# failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh
source scripts/setup-model-server.sh
# Every crate is built once per profile here, never edited in between: incremental compilation
# would only write caches nobody reads (slower from a fresh clone).
export CARGO_INCREMENTAL=0

say "formatting (rustfmt, and leptosfmt for the view macros)"
cargo fmt --all -- --check
leptosfmt --check ui/src
mkdir -p target/logs
# What runs in the background is stopped with the script, whatever ends it.
trap 'jobs -p | xargs -r kill 2>/dev/null' EXIT
# Waits for background job $1 (its log $2): the log shown, and the script failed with it.
finish() {
  local status=0
  wait "$1" || status=$?
  cat "$2"
  return "$status"
}

# Beside the release build, sharing both cores with it (the run is work for both from start to
# end): the lints of every crate, and the debug build of the end-to-end tests with the debug plan
# command they run (target/debug/plan).
( cargo clippy --all-targets -- -D warnings \
  && cargo build --quiet -p plan-cli \
  && cargo test --quiet -p plan-tests --test e2e --no-run --message-format=json \
    | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "e2e" and m.get("executable"):
        print(m["executable"])' > target/logs/e2e-binary
) > target/logs/beside-the-build.log 2>&1 < /dev/null &
beside=$!
# One build of the UI and the app, the release one: the end-to-end tests, the package and the
# probe all run what an author installs (a debug UI and app beside it cost 4 more minutes cold and
# a rebuild of each whenever the other was built last).
say "building the release UI, app and plan command; the lints and the end-to-end tests' build beside it"
bash scripts/build.sh --release
say "lints; the end-to-end tests built"
finish "$beside" target/logs/beside-the-build.log
e2e=$(cat target/logs/e2e-binary)
[ -x "$e2e" ] || { echo "the e2e tests' binary was not found (cargo test --no-run)" >&2; exit 1; }

# The end-to-end tests spend most of their time waiting for the app: beside them, at the lowest
# priority (the app and its web view keep the CPU they ask for), the debug tests of every crate are
# built, the shell's tests in release (the Tauri tree is built once, in release, not again in
# debug for 15 unit tests), then the cross-crate tests' lints and the docs' links, which fit in
# what the e2e tests leave of the CPU. The e2e binary is run directly, since cargo would hold the
# build folder.
say "end-to-end tests of the real app: viewing, editing, the first hour, a plan's lifecycle, the test chat, explore (one binary, every test registered once in tests/e2e/); beside them the debug tests built, the cross-crate tests' lints, the docs' links"
crates=(-p plan-core -p plan-api -p plan-cli -p plan-ui)
shell=(--release -p plan-builder -p plan-cli --bin plan-builder)
cross=(--test layering --test cli --test chat --test schema --test store --test model_chat --test properties --test fuzz --test conversation_log --test explore --test simulate --test sharing --test merge)
( nice -n 19 cargo test --no-run "${crates[@]}" \
  && nice -n 19 cargo test --no-run "${shell[@]}" \
  && nice -n 19 cargo test -p plan-tests --no-run "${cross[@]}" --test real_model --test installed --test probe \
  && nice -n 19 cargo clippy -p plan-tests --all-targets -- -D warnings \
  && RUSTDOCFLAGS="-D rustdoc::broken_intra_doc_links -D rustdoc::private_intra_doc_links" \
    nice -n 19 cargo doc --no-deps --quiet -p plan-core -p plan-api -p plan-cli -p plan-ui -p plan-builder
) > target/logs/beside-the-tests.log 2>&1 < /dev/null &
beside_tests=$!
(cd tests && PLAN_BUILDER_APP="$PWD/../target/release/plan-builder" timeout 3000 "$e2e" < /dev/null)
say "the debug tests built; the cross-crate tests' lints; the code's documentation (a link to nothing, or to what a reader cannot see, fails)"
finish "$beside_tests" target/logs/beside-the-tests.log

say "unit and integration tests of every crate"
cargo test "${crates[@]}" < /dev/null
cargo test "${shell[@]}" < /dev/null
say "cross-crate tests: the plan command, its store, chat and test; the JSON Schema; properties; the readers fuzzed; a workspace shared through real git"
cargo test -p plan-tests "${cross[@]}" < /dev/null
say "the language-model agent against a real server and model (llama-cpp-python, SmolLM2-135M)"
timeout 600 cargo test -p plan-tests --test real_model < /dev/null
say "the Debian package: bundled from the release build the tests ran, checked (lintian, desktop-file-validate), installed, tried end to end, removed"
bash scripts/package.sh --built
bash scripts/try-package.sh
say "the canvas at 5,000 states in the release app: fails on a freeze (a frame over 1 s, typing p95 over 250 ms)"
PLAN_BUILDER_APP="$PWD/target/release/plan-builder" timeout 900 cargo test -p plan-tests --test probe -- --nocapture probe_5000_states < /dev/null
if [ "${RUSTC_WRAPPER:-}" = sccache ]; then
  say "done; the compile cache (sccache, hits are compilations a fresh clone did not redo):"
  sccache --show-stats | grep -E '^(Compile requests|Cache hits|Cache misses|Non-cacheable calls) ' || true
fi
