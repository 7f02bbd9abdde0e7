#!/usr/bin/env bash
# `make test-shells`: Engram inside the real GNOME Shell 43 and KRunner's own KF5 machinery, headless.
#
#   scripts/shells/run.sh [--screenshots] [ENGRAM_BIN]
#
# Installs what the two suites need (scripts/install-deps.sh --shells), then runs
#   scripts/shells/gnome/test_gnome_shell.py   headless gnome-shell, typed into with a virtual keyboard
#   scripts/shells/krunner/test_krunner.py     KF5's RunnerManager through Milou (KRunner's list) under qmlscene
# each against ENGRAM_BIN (default .build/debug/engram) installed into a temporary prefix by scripts/install.sh.
# Results, logs and screenshots go to bench-out/shells/; --screenshots also refreshes Integrations/gnome-shell/
# and Integrations/krunner/screenshot.png. Fails if either suite has a failed check.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
flags=()
[ "${1:-}" = "--screenshots" ] && { flags+=(--screenshots); shift; }
export ENGRAM_BIN="${1:-$root/.build/debug/engram}"
scripts/install-deps.sh --shells || { echo "shells: cannot install gnome-shell and the KRunner QML modules" >&2; exit 1; }
for tool in generate-manual engram-feed; do
  [ -x "$(dirname "$ENGRAM_BIN")/$tool" ] || { echo "shells: $(dirname "$ENGRAM_BIN")/$tool is not built (scripts/install.sh needs it)" >&2; exit 1; }
done
status=0
SECONDS=0
/usr/bin/python3 scripts/shells/gnome/test_gnome_shell.py "${flags[@]}" || status=1
/usr/bin/python3 scripts/shells/krunner/test_krunner.py "${flags[@]}" || status=1
echo "shells: both suites took ${SECONDS} s"
exit $status
