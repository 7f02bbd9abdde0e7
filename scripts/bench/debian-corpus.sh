#!/usr/bin/env bash
# Writes the Debian package descriptions as Engram JSON Lines: one memory per package, Section as tag.
# Usage: scripts/bench/debian-corpus.sh [OUT.jsonl]   (default: stdout). Needs `apt-get update` to have run once.
set -euo pipefail
out="${1:-/dev/stdout}"
n=$(apt-cache stats 2>/dev/null | sed -n 's/^Total package names: \([0-9]*\).*/\1/p')
if [ "${n:-0}" -lt 100 ]; then
  echo "debian-corpus: apt-cache knows no packages; run 'apt-get update' first" >&2
  exit 1
fi
apt-cache dumpavail | /usr/bin/python3 -c '
import json, sys
seen = set()
def emit(p):
    name = p.get("Package")
    if not name or name in seen or "Description" not in p:
        return
    seen.add(name)
    section = p.get("Section", "misc").split("/")[-1].lower()
    body = "\n".join([name + ": " + p["Description"]] + p.get("_more", []))
    sys.stdout.write(json.dumps({"kind": "memory", "id": "deb-" + "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60],
                                 "content": body, "type": "learning", "tags": [section], "source": "debian"},
                                ensure_ascii=False) + "\n")
pkg, last = {}, None
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line:
        emit(pkg); pkg, last = {}, None
    elif line[0] in " \t":
        if last == "Description":
            t = line.strip()
            pkg.setdefault("_more", []).append("" if t == "." else t)
    else:
        k, _, v = line.partition(":")
        pkg[k] = v.strip(); last = k
emit(pkg)
' > "$out"
