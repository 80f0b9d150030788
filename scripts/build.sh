#!/usr/bin/env bash
# Builds the UI (wasm, into ui/dist) and the desktop app with that UI embedded. The app embeds
# ui/dist at compile time, so the UI comes first.
#
#   scripts/build.sh             debug builds, what the tests use: target/debug/plan-builder
#   scripts/build.sh --release   the optimised UI and app an author runs, and the plan command:
#                                target/release/plan-builder, target/release/plan
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

if [ "${1:-}" = "--release" ]; then
  (cd ui && trunk build --release --quiet)
  cargo build --release -p plan-builder -p plan-cli
  exit 0
fi
(cd ui && trunk build --quiet)
# All default members, not just the app: `cargo test` then finds every dependency already built
# with the same features, instead of building the Tauri tree a second time.
cargo build
