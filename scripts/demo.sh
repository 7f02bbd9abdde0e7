#!/usr/bin/env bash
# `make demo`: the command-line demo, no daemon: a demo data folder with the sample collection, a search and the stats.
set -euo pipefail
engram="$1"
demo="$2"
root="$(cd "$(dirname "$0")/.." && pwd)"
export ENGRAM_DATA_DIR="$demo"
if [ ! -s "$demo/engram.sqlite" ] || [ "$("$engram" stats --json | sed -n 's/.*"total":\([0-9]*\).*/\1/p')" = "0" ]; then
  echo "==> Importing the sample collection into $demo"
  # A copy dated from today, so the collection is as fresh as on its own "today" whenever it is imported.
  samples="$(/usr/bin/python3 "$root/scripts/samples.py" "$(mktemp -d)/samples")"
  "$engram" import "$samples/memories.jsonl" "$samples/curricula/swift-concurrency.toml" \
    "$samples/curricula/spanish-b1.yaml" "$samples/vault"
  rm -rf "$(dirname "$samples")"
fi
echo
echo "==> engram search sourdough"
"$engram" search sourdough || true
echo
echo "==> engram stats"
"$engram" stats
echo
cat <<MSG
Try it yourself (the demo data lives in $demo):
  export ENGRAM_DATA_DIR="$demo"
  $engram search 'tag:swift actors'
  $engram remember --type idea "Index my reading notes too"
  $engram show <id>      # opening a memory strengthens it
MSG
