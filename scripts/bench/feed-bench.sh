#!/usr/bin/env bash
# How fast a bar gets `motd --format waybar`: engram-feed vs engram feed vs the same feed in Python vs cat.
#
#   scripts/bench/feed-bench.sh [runs]      (default 300 runs each, after 30 warm-up runs)
#
# Each run is a fresh process (what a bar does every few seconds), on the 300-memory sample collection,
# with the page cache warm. Builds release binaries first; writes bench-out/feed-bench.{json,md}.
# Wall-clock times swell on a busy machine; the CPU column (user + system) moves much less.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
runs=${1:-300}
scripts/install-deps.sh --bench >/dev/null

echo "==> Building release binaries (engram-feed links the Swift runtime in, see Package.swift)" >&2
swift build -c release --static-swift-stdlib --product engram >/dev/null
swift build -c release --static-swift-stdlib --product engram-feed >/dev/null
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"

out="$root/bench-out"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
mkdir -p "$out"
export ENGRAM_DATA_DIR="$data/data" ENGRAM_CONFIG_DIR="$data/config" TZ="${TZ:-Europe/Paris}"
"$bin/engram" import Samples/memories.jsonl Samples/curricula/swift-concurrency.toml Samples/curricula/spanish-b1.yaml >/dev/null

# The Python baseline must choose and print exactly what engram-feed does, or the comparison means nothing.
for now in 2026-11-22T10:00:00Z 2026-11-23T23:30:00Z 2026-12-05T06:00:00Z 2027-02-01T12:00:00Z; do
    a=$(ENGRAM_NOW=$now "$bin/engram-feed" motd --format waybar)
    b=$(ENGRAM_NOW=$now /usr/bin/python3 scripts/bench/motd.py)
    if [ "$a" != "$b" ]; then
        echo "feed-bench: the Python baseline differs from engram-feed at $now:" >&2
        printf '  engram-feed: %s\n  python:      %s\n' "$a" "$b" >&2
        exit 1
    fi
done
"$bin/engram-feed" motd --format waybar > "$data/motd.json"

load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "==> hyperfine: $runs runs each (static engram-feed: $(du -h "$bin/engram-feed" | cut -f1), engram: $(du -h "$bin/engram" | cut -f1))" >&2
hyperfine -N --warmup 30 --runs "$runs" --export-json "$out/feed-bench.json" \
    -n "engram-feed motd --format waybar" "$bin/engram-feed motd --format waybar" \
    -n "engram feed motd --format waybar" "$bin/engram feed motd --format waybar" \
    -n "python3 scripts/bench/motd.py" "/usr/bin/python3 $root/scripts/bench/motd.py" \
    -n "cat motd.json" "cat $data/motd.json" >/dev/null

{
    echo "load average before the run: $load"
    echo
    echo "| command | median ms | mean ms | min ms | CPU ms (user+sys, mean) |"
    echo "|---|---:|---:|---:|---:|"
    jq -r '.results[] | "| `\(.command)` | \(.median * 1000 * 100 | round / 100) | \(.mean * 1000 * 100 | round / 100) | \(.min * 1000 * 100 | round / 100) | \((.user + .system) * 1000 * 100 | round / 100) |"' "$out/feed-bench.json"
} | tee "$out/feed-bench.md"
