#!/usr/bin/env bash
# `make run`: `engram daemon` in the foreground on the demo collection, on the session bus, or on a
# private bus (dbus-run-session) when there is none or PRIVATE_BUS=1, and Engram's window when there is a display.
# Ctrl+C stops the daemon.
set -euo pipefail
engram="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
demo="$2"
root="$(cd "$(dirname "$0")/.." && pwd)"
export ENGRAM_DATA_DIR="$demo"

have_bus() {
  if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && [ -S "${XDG_RUNTIME_DIR:-/nonexistent}/bus" ]; then
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
  fi
  [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && gdbus call --session --dest org.freedesktop.DBus \
    --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.GetId >/dev/null 2>&1
}

if [ -z "${ENGRAM_RUN_INNER:-}" ] && { [ -n "${PRIVATE_BUS:-}" ] || ! have_bus; }; then
  echo "==> No session bus here (or PRIVATE_BUS set): starting a private one with dbus-run-session"
  exec dbus-run-session -- env ENGRAM_RUN_INNER=1 "$0" "$@"
fi

if [ ! -s "$demo/engram.sqlite" ] || [ "$("$engram" stats --json | sed -n 's/.*"total":\([0-9]*\).*/\1/p')" = "0" ]; then
  echo "==> Importing the sample collection into $demo"
  # A copy dated from today, so the collection is as fresh as on its own "today" whenever it is imported.
  samples="$(/usr/bin/python3 "$root/scripts/samples.py" "$(mktemp -d)/samples")"
  "$engram" import "$samples/memories.jsonl" "$samples/curricula/swift-concurrency.toml" \
    "$samples/curricula/spanish-b1.yaml" "$samples/vault"
  rm -rf "$(dirname "$samples")"
fi

if gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
     --method org.freedesktop.DBus.NameHasOwner org.engram.Engram 2>/dev/null | grep -q true; then
  echo "engram: a daemon already owns org.engram.Engram on this bus (an installed one?)." >&2
  echo "        Stop it (systemctl --user stop engram) or run on a private bus: make run PRIVATE_BUS=1" >&2
  exit 1
fi

dest="--session --dest org.engram.Engram"
cat <<MSG

==> Starting engram daemon on the demo collection ($demo). Ctrl+C stops it.
From another terminal:
  export DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS' ENGRAM_DATA_DIR='$demo'
  # GNOME Shell's calls:
  gdbus call $dest --object-path /org/engram/Engram/SearchProvider --method org.gnome.Shell.SearchProvider2.GetInitialResultSet "['sourd']"
  gdbus call $dest --object-path /org/engram/Engram/SearchProvider --method org.gnome.Shell.SearchProvider2.GetResultMetas "['engram://memory/s050']"
  # KRunner's:
  gdbus call $dest --object-path /runner --method org.kde.krunner1.Match 'swift actors'
  # Engram's own interface and its properties:
  gdbus call $dest --object-path /org/engram/Engram --method org.engram.Engram1.Remember 'Try the daemon' idea "['demo']" '' 'demo-1'
  gdbus call $dest --object-path /org/engram/Engram --method org.freedesktop.DBus.Properties.GetAll org.engram.Engram1
  gdbus monitor $dest --object-path /org/engram/Engram
  # The CLI nudges the daemon, so a capture is searchable at once:
  $engram remember 'Captured while the daemon runs'
  $engram search captured
The previous demo (search and stats, no daemon) is still there: make demo

MSG
# With a display, Engram's window opens on the demo collection too (engram-app beside engram; one window however
# often it is started). Without one (a console, CI), only the daemon runs.
app="$(dirname "$engram")/engram-app"
if [ -x "$app" ] && { [ -n "${WAYLAND_DISPLAY:-}" ] || [ -n "${DISPLAY:-}" ]; }; then
  echo "==> Opening Engram's window (engram-app); closing it leaves the daemon running"
  ( sleep 1; exec "$app" >/dev/null 2>&1 ) &
fi
exec "$engram" daemon
