#!/usr/bin/env bash
# Builds the Debian package an author installs: the release UI and app, the `plan` command, a
# desktop entry, icons, the plan file type, made by Tauri's own bundler (tauri-cli, installed
# once: about 9 minutes on 2 cores). Prints where the package is:
#
#   target/package/plan-builder_<version>_<arch>.deb
#
# Install it with `sudo apt install ./target/package/plan-builder_*.deb` (apt pulls in WebKitGTK
# and GTK), remove it with `sudo apt remove plan-builder` (your plans stay where they are).
#
#   scripts/package.sh --built   bundles the release build already made (scripts/build.sh
#                                --release), without building again: what the test command does
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh
cargo_tool tauri-cli 2.12.4 --locked

if [ "${1:-}" != "--built" ]; then
  say "building the release UI, app and plan command"
  bash scripts/build.sh --release
fi
say "bundling the Debian package"
# The manual pages, compressed as Debian wants them (the bundler copies them from here).
mkdir -p target/package/man
for page in plan-builder.1 plan.1; do
  gzip -9 -n -c "packaging/$page" > "target/package/man/$page.gz"
done
rm -rf target/release/bundle/deb
# Bundles what was just built, without building again (the app embeds ui/dist already).
(cd src-tauri && cargo tauri bundle --bundles deb --ci)
built=(target/release/bundle/deb/*.deb)
mkdir -p target/package
rm -f target/package/*.deb
cp "${built[0]}" target/package/
package="target/package/$(basename "${built[0]}")"
echo "$package ($(du -h "$package" | cut -f1))"
