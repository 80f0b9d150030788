#!/usr/bin/env bash
# Installs what is missing, then runs every test: formatting and lints, the unit and integration
# tests of every crate, and the end-to-end tests of the real app under Xvfb (screenshots in
# target/e2e/). Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

say "formatting"
cargo fmt --all -- --check
say "building the UI and the app"
bash scripts/build.sh
say "lints"
cargo clippy --workspace --all-targets -- -D warnings
say "unit and integration tests"
cargo test < /dev/null  # the default members: all but the end-to-end package
say "end-to-end tests of the real app"
timeout 900 cargo test -p plan-e2e < /dev/null
