#!/usr/bin/env bash
# Runs every executable part in scripts/stress/parts/ (sorted), each on its own private session bus, and
# writes stress-out/results.md and results.json. Exits 1 if any part fails. See scripts/stress/README.md.
#
#   scripts/stress/run.sh          (ENGRAM, ENGRAM_FEED, STRESS_OUT, STRESS_ONLY, STRESS_QUICK override)
set -uo pipefail
umask 077
root="$(cd "$(dirname "$0")/../.." && pwd)"
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }

ENGRAM="${ENGRAM:-$root/.build/release/engram}"
ENGRAM_FEED="${ENGRAM_FEED:-$root/.build/release/engram-feed}"
STRESS_OUT="${STRESS_OUT:-$root/stress-out}"
STRESS_QUICK="${STRESS_QUICK:-0}"
STRESS_PART_TIMEOUT="${STRESS_PART_TIMEOUT:-900}"
for bin in "$ENGRAM" "$ENGRAM_FEED"; do
  [ -x "$bin" ] || { echo "stress: $bin is not built (make stress builds it)" >&2; exit 2; }
done
ENGRAM="$(abs "$ENGRAM")"; ENGRAM_FEED="$(abs "$ENGRAM_FEED")"
mkdir -p "$STRESS_OUT" && chmod 700 "$STRESS_OUT"
STRESS_OUT="$(cd "$STRESS_OUT" && pwd)"
export ENGRAM ENGRAM_FEED STRESS_OUT STRESS_QUICK
export STRESS_ROOT="$root" STRESS_LIB="$root/scripts/stress/lib" PYTHON=/usr/bin/python3
unset ENGRAM_DATA_DIR ENGRAM_CONFIG_DIR ENGRAM_NOW ENGRAM_TEST_CRASH_AT ENGRAM_TEST_NO_INOTIFY \
  DBUS_STARTER_ADDRESS DBUS_STARTER_BUS_TYPE INVOCATION_ID

started=$(date +%s%N)
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"

# The Debian corpus, once per run.
export STRESS_CORPUS="$STRESS_OUT/debian.jsonl"
echo "==> stress: writing the Debian corpus to $STRESS_CORPUS"
if ! "$root/scripts/bench/debian-corpus.sh" "$STRESS_CORPUS.tmp"; then
  echo "stress: could not build the Debian corpus" >&2; exit 2
fi
mv -f "$STRESS_CORPUS.tmp" "$STRESS_CORPUS"
chmod 400 "$STRESS_CORPUS"
echo "    $(wc -l < "$STRESS_CORPUS") memories"

# Which parts: executable files, sorted; STRESS_ONLY filters by substrings (comma-separated).
parts=()
for f in "$root"/scripts/stress/parts/*; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  name="$(basename "$f")"
  if [ -n "${STRESS_ONLY:-}" ]; then
    keep=0; IFS=',' read -ra wanted <<< "$STRESS_ONLY"
    for w in "${wanted[@]}"; do [[ "$name" == *"$w"* ]] && keep=1; done
    [ $keep = 1 ] || continue
  fi
  parts+=("$f")
done
[ ${#parts[@]} -gt 0 ] || { echo "stress: no parts to run" >&2; exit 2; }

summary="$STRESS_OUT/summary.tsv"
: > "$summary"
for part in "${parts[@]}"; do
  name="$(basename "$part")"
  work="$STRESS_OUT/work/$name"
  rm -rf "$work"
  mkdir -p "$work"/{config,home,xdg/config,xdg/data,xdg/state,xdg/cache,runtime,bus/services}
  chmod -R go-rwx "$work"
  cat > "$work/bus/services/org.engram.Engram.service" <<SERVICE
[D-BUS Service]
Name=org.engram.Engram
Exec=$ENGRAM daemon --verbose
SERVICE
  cat > "$work/bus/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$work/bus/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
  <limit name="max_message_size">268435456</limit>
  <limit name="max_incoming_bytes">1000000000</limit>
  <limit name="max_outgoing_bytes">1000000000</limit>
  <limit name="service_start_timeout">60000</limit>
  <limit name="reply_timeout">300000</limit>
</busconfig>
CONF
  log="$STRESS_OUT/$name.log"
  # A part may declare a longer limit in a line `# stress-timeout: SECONDS` (part 4: the sanitizer build is slow).
  limit=$(sed -n 's/^# stress-timeout: *\([0-9][0-9]*\)$/\1/p' "$part" | head -1)
  limit=${limit:-$STRESS_PART_TIMEOUT}
  [ "$limit" -ge "$STRESS_PART_TIMEOUT" ] || limit=$STRESS_PART_TIMEOUT
  echo "==> stress: $name (log: $log)"
  t0=$(date +%s%N)
  # timeout runs the part in its own process group and signals the whole group when time is up.
  env STRESS_WORK="$work" STRESS_PART="$name" STRESS_BUS_CONFIG="$work/bus/session.conf" \
    ENGRAM_DATA_DIR="$work/data" ENGRAM_CONFIG_DIR="$work/config" HOME="$work/home" \
    XDG_CONFIG_HOME="$work/xdg/config" XDG_DATA_HOME="$work/xdg/data" XDG_STATE_HOME="$work/xdg/state" \
    XDG_CACHE_HOME="$work/xdg/cache" XDG_RUNTIME_DIR="$work/runtime" \
    timeout --kill-after=20 "$limit" \
    dbus-run-session --config-file="$work/bus/session.conf" -- "$part" > "$log" 2>&1 < /dev/null &
  pid=$!
  # Show the part's figures and verdict lines as they come.
  tail -n +1 -F --pid=$pid "$log" 2>/dev/null | grep --line-buffered -E '^(FIGURE|NOTE|FAIL|PASS|==)' | sed -u "s/^/    /" &
  tailer=$!
  wait $pid; status=$?
  wait $tailer 2>/dev/null
  ms=$(( ($(date +%s%N) - t0) / 1000000 )); seconds=$(printf "%d.%03d" $((ms / 1000)) $((ms % 1000)))
  [ $status = 124 ] && echo "FAIL: timed out after $limit s" >> "$log"
  printf '%s\t%s\t%s\n' "$name" "$status" "$seconds" >> "$summary"
  if [ $status = 0 ]; then echo "    passed in ${seconds%.*} s"; else echo "    FAILED (exit $status) in ${seconds%.*} s; see $log"; fi
done

"$PYTHON" "$root/scripts/stress/lib/report.py" "$STRESS_OUT" "$started" "$load_before"
