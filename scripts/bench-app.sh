#!/usr/bin/env bash
# Benchmark of the canvas in the real app (issue 6): builds the release UI and app, then runs
# the shared probe.js in it on generated plans of 1,000, 5,000 and 10,000 states and prints the
# figures (open time; pan, zoom and drag frame times at an editing zoom and with the whole plan in
# view; typing; where the page's time went). Needs what scripts/test.sh needs; the release build
# takes a while the first time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

say "building the release UI and app"
bash scripts/build.sh --release
say "probing the canvas"
PLAN_BUILDER_APP="$PWD/target/release/plan-builder" timeout 1200 cargo test -p plan-tests --test probe -- --nocapture < /dev/null
# The debug UI again, for the debug app that the tests use.
(cd ui && trunk build --quiet)
