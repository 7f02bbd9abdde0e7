#!/usr/bin/env bash
# Desktop search benchmark: GNOME Shell / KRunner round trips and capture-to-searchable latency, on the
# Debian package descriptions (~60k memories), against a D-Bus-activated `engram daemon` on a private bus.
#
#   scripts/bench/bench-provider.sh [ENGRAM_BINARY]     (default: a release build, made if missing)
#
# BENCH_QUERIES (300) and BENCH_CAPTURES (20) set the sample sizes; BENCH_DIR (bench-out/provider)
# keeps the corpus and the imported collection between runs (delete it to re-import).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
engram="${1:-$root/.build/release/engram}"
if [ ! -x "$engram" ]; then
  echo "==> Building a release engram" >&2
  (cd "$root" && swift build -c release --static-swift-stdlib >&2)
fi
engram="$(cd "$(dirname "$engram")" && pwd)/$(basename "$engram")"
work="${BENCH_DIR:-$root/bench-out/provider}"
mkdir -p "$work"
corpus="$work/debian.jsonl"
data="$work/data"

if [ ! -s "$corpus" ]; then
  echo "==> Writing the Debian package descriptions to $corpus" >&2
  "$root/scripts/bench/debian-corpus.sh" "$corpus"
fi
if [ ! -s "$data/engram.sqlite" ]; then
  echo "==> Importing $(wc -l < "$corpus") memories (and building the index)" >&2
  start=$(date +%s%N)
  ENGRAM_DATA_DIR="$data" ENGRAM_CONFIG_DIR="$work/config" DBUS_SESSION_BUS_ADDRESS= "$engram" import "$corpus" >&2
  echo "    import and index: $(( ($(date +%s%N) - start) / 1000000 )) ms" >&2
fi

# A private session bus that D-Bus-activates the daemon on the benchmark collection.
bus="$(mktemp -d)"
trap 'rm -rf "$bus"' EXIT
mkdir -p "$bus/services" "$work/config"
export PYTHONPATH="$root/scripts"
/usr/bin/python3 -c 'import sys; from engramtest.bus import service_file; service_file(sys.argv[1], sys.argv[2])' \
  "$bus/services" "/usr/bin/env ENGRAM_DATA_DIR=$data ENGRAM_CONFIG_DIR=$work/config $engram daemon --verbose"
/usr/bin/python3 -m engramtest.bus config "$bus" "$bus/services" > "$bus/session.conf"

export ENGRAM_DATA_DIR="$data" ENGRAM_CONFIG_DIR="$work/config"
dbus-run-session --config-file="$bus/session.conf" -- bash -c '
  /usr/bin/python3 "$1" "$2" "$3" 2>&3; status=$?
  gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetConnectionUnixProcessID org.engram.Engram 2>/dev/null \
    | sed -n "s/.*uint32 \([0-9]*\).*/\1/p" | xargs -r kill -TERM
  sleep 1
  exit $status' bench "$root/scripts/bench/bench-provider.py" "$engram" "$corpus" 3>&2 2> "$work/daemon.log"
echo "(the daemon's log: $work/daemon.log)"
