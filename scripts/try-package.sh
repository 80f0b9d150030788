#!/usr/bin/env bash
# Checks the Debian package that scripts/package.sh built, as CI does: lintian (no errors and
# no warnings), desktop-file-validate on its desktop entry, then
# installs it (apt, as root), runs the end-to-end test of the installed app (tests/installed.rs),
# and removes it again, leaving the machine as it was. Needs root or sudo.
#
#   scripts/try-package.sh [target/package/plan-builder_<version>_<arch>.deb]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

package="${1:-$(ls target/package/plan-builder_*.deb | head -n1)}"
package="$(realpath "$package")"

say "lintian $(basename "$package")"
lintian --fail-on error "$package"

say "desktop-file-validate"
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
dpkg-deb -x "$package" "$unpacked"
desktop-file-validate "$unpacked/usr/share/applications/plan-builder.desktop"

say "installing it (apt-get install ./…deb)"
if dpkg-query -W -f='${Status}' plan-builder 2>/dev/null | grep -q "install ok installed"; then
  $sudo apt-get remove -y -qq plan-builder >/dev/null
fi
remove() { $sudo apt-get remove -y -qq plan-builder >/dev/null || true; rm -rf "$unpacked"; }
trap remove EXIT
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$package" >/dev/null

say "the installed app, end to end"
PLAN_BUILDER_APP=/usr/bin/plan-builder timeout 600 cargo test -p plan-tests --test installed < /dev/null

say "removing it"
$sudo apt-get remove -y -qq plan-builder >/dev/null
trap 'rm -rf "$unpacked"' EXIT
if [ -e /usr/bin/plan-builder ] || [ -e /usr/bin/plan ]; then
  echo "scripts/try-package.sh: the package left its binaries behind" >&2
  exit 1
fi
# The plans the installed app made (in the test's data folder) are the user's: still there.
if [ ! -f target/e2e/data/plan-builder/plans/customer-support/versions/1.json ]; then
  echo "scripts/try-package.sh: removing the package took the user's plans with it" >&2
  exit 1
fi
