#!/usr/bin/env bash
# Builds the UI (wasm, into ui/dist) and the desktop app with that UI embedded: target/debug/plan-builder.
# Debug builds, one target directory: the app embeds ui/dist at compile time, so the UI comes first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

(cd ui && trunk build --quiet)
# All default members, not just the app: `cargo test` then finds every dependency already built
# with the same features, instead of building the Tauri tree a second time.
cargo build
