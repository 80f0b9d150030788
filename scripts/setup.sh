#!/usr/bin/env bash
# Installs what building, running and testing Plan Builder needs on Debian 12 or Ubuntu, and
# nothing that is already there: a second run takes a second or two.
#
#   apt packages   WebKitGTK and GTK headers, WebKitWebDriver, Xvfb, ImageMagick (screenshots),
#                  xdotool (end-to-end tests type into the native file dialogs), procps and
#                  util-linux (pgrep and flock, which end-to-end tests use), lintian and
#                  desktop-file-utils (the Debian package's checks)
#   Rust           the wasm32 target; trunk; wasm-bindgen-cli at Cargo.lock's version; tauri-driver;
#                  leptosfmt (the view macros' formatting, which the test command checks)
#   axe-core       the accessibility rules the end-to-end tests run (npm registry, one file)
#   sccache        a compile cache for this machine (Debian's package; see the end of this file)
#
# Sourced by scripts/app.sh and scripts/test.sh; it can also be run on its own.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

# Each phase's line says when it began (minutes:seconds since the script started): a run's log tells
# what each phase cost.
say() { printf '\033[1m==> [%d:%02d] %s\033[0m\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }

apt_packages=(
  build-essential pkg-config file curl ca-certificates
  libwebkit2gtk-4.1-dev libgtk-3-dev librsvg2-dev libxdo-dev libssl-dev
  webkit2gtk-driver xvfb xauth x11-utils imagemagick xdotool
  procps util-linux lintian desktop-file-utils fonts-dejavu-extra
)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if ! command -v cargo >/dev/null; then
  say "installing Rust (rustup)"
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
fi
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32 target"
  rustup target add wasm32-unknown-unknown
fi

installed="$(cargo install --list)"
# cargo_tool CRATE VERSION [extra cargo install flags]
cargo_tool() {
  local crate="$1" version="$2"
  shift 2
  if ! grep -qx "$crate v$version:" <<<"$installed"; then
    say "installing $crate $version (once; about 10 minutes for trunk, 2 for wasm-bindgen-cli and for leptosfmt, under 1 for tauri-driver)"
    cargo install "$crate" --version "$version" "$@"
  fi
}
cargo_tool trunk 0.21.14 --locked
# wasm-bindgen's CLI must match the library version in Cargo.lock exactly. `--locked` fails for
# this crate (a pinned dependency is missing from the registry), so it resolves fresh.
wasm_bindgen_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$root/Cargo.lock")"
cargo_tool wasm-bindgen-cli "$wasm_bindgen_version"
cargo_tool tauri-driver 2.1.0 --locked
cargo_tool leptosfmt 0.1.33 --locked

# axe-core (npm registry), the accessibility rule engine the end-to-end tests run in the app's
# page: one file, fetched once at a pinned version and checked against its hash.
axe_version=4.14.1
axe_sha256=e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745
axe_dir="${XDG_CACHE_HOME:-$HOME/.cache}/plan-builder/axe-core-$axe_version"
if [ ! -f "$axe_dir/axe.min.js" ]; then
  say "fetching axe-core $axe_version from the npm registry (once; a second)"
  axe_tgz="$(mktemp)"
  curl -sSfL -o "$axe_tgz" "https://registry.npmjs.org/axe-core/-/axe-core-$axe_version.tgz"
  echo "$axe_sha256  $axe_tgz" | sha256sum -c --quiet
  mkdir -p "$axe_dir"
  tar xzf "$axe_tgz" -C "$axe_dir" --strip-components=1 package/axe.min.js package/LICENSE
  rm -f "$axe_tgz"
fi
export PLAN_BUILDER_AXE="$axe_dir/axe.min.js"

# A compile cache for this machine (sccache, keyed by each compilation's inputs and kept in
# ~/.cache/plan-builder/sccache, 10 GB at most): a fresh clone compiles its dependencies once per
# machine, not once per clone. Its server runs at the lowest priority, so the compilations beside
# the end-to-end tests leave the app the CPU it asks for (the release build has the machine to
# itself). PLAN_BUILDER_COMPILE_CACHE=0, a RUSTC_WRAPPER of your own, or a system without the
# sccache package: cargo compiles everything itself, as without it.
if [ "${PLAN_BUILDER_COMPILE_CACHE:-1}" != 0 ] && [ -z "${RUSTC_WRAPPER:-}" ]; then
  if ! command -v sccache >/dev/null; then
    say "installing sccache, a compile cache for this machine (once; seconds)"
    { $sudo apt-get update -qq \
      && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends sccache >/dev/null; } \
      || say "no sccache package here: building without a compile cache"
  fi
  if command -v sccache >/dev/null; then
    # A server of its own (its own port), so that one the user runs for other work is left alone.
    export SCCACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/plan-builder/sccache" SCCACHE_CACHE_SIZE=10G \
      SCCACHE_SERVER_PORT=4242
    sccache --stop-server >/dev/null 2>&1 || true
    if nice -n 19 sccache --start-server >/dev/null 2>&1; then
      export RUSTC_WRAPPER=sccache
      # The server leaves this session, and the kernel shares the CPU between sessions before it
      # weighs their processes' priorities (autogroups): its session is given the lowest too.
      for pid in $(pgrep -x sccache); do
        if tr '\0' '\n' 2>/dev/null <"/proc/$pid/environ" | grep -qx SCCACHE_SERVER_PORT=4242; then
          echo 19 >"/proc/$pid/autogroup" 2>/dev/null || true
        fi
      done
    else
      say "the compile cache did not start: building without it"
    fi
  fi
fi
