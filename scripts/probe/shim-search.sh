#!/bin/sh
# Builds shim_search.cc against Sources/CXapian and times Engram's search with and without the decay blend and
# snippets, then python3-xapian's same matching (pyxapian_search.py), over bench-out/work's index.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
index=${1:-$root/bench-out/work/engram-data/index}
[ -e "$index" ] || { echo "shim-search: no index at $index; run make bench first (it leaves one)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
/usr/bin/python3 - "$root/scripts/bench/queries.jsonl" > "$out/queries.txt" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    if line.strip():
        words = [w for w in json.loads(line)["q"].replace('"', "").split() if ":" not in w] or ["debian"]
        print(" ".join(words))  # as the shell sends them: plain words
PY
g++ -O2 -std=c++17 -I"$root/Sources/CXapian/include" -I"$root/Sources/CXapian" "$root/scripts/probe/shim_search.cc" \
    "$root"/Sources/CXapian/*.cc -lxapian -o "$out/shim_search"
for args in "1 5" "0 5" "1 0" "0 0"; do
    # shellcheck disable=SC2086
    "$out/shim_search" "$index" "$out/queries.txt" $args 20
done
/usr/bin/python3 "$root/scripts/probe/pyxapian_search.py" "$index" "$out/queries.txt"
