#!/usr/bin/env bash
# Installs what is missing, builds Plan Builder (release), and opens it on the default workspace
# (~/.local/share/plan-builder/plans), which is seeded with the sample plans the first time.
# Needs a display (a desktop session). Arguments go to the app, e.g. `--workspace DIR`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "scripts/app.sh: no display to open the window on. Run it in a desktop session (or, on a server: xvfb-run -a scripts/app.sh)." >&2
  exit 2
fi

# The release build, as the package ships it (the first build takes longer than a debug one;
# later runs rebuild only what changed). The tests use the debug build.
bash scripts/build.sh --release
exec target/release/plan-builder "$@"
