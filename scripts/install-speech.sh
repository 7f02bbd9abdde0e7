#!/usr/bin/env bash
# Installs Engram's speech recogniser into a folder: Moonshine base-en (English, MIT) from the PyPI package
# moonshine-cpp, run by sherpa-onnx's C library from the PyPI package sherpa-onnx-core (Apache-2.0), both at pinned
# versions whose wheels' sha256 are checked; Engram's own four-function wrapper (scripts/speech/engram-stt.c) is
# compiled here against that wheel's c-api.h. Nothing is downloaded at run time; nothing of either is committed.
#
#   scripts/install-speech.sh DEST          (default .build/speech, where a built engram looks first)
#
# Does nothing when DEST already holds these versions. Without network or pip it says so and fails; Engram then
# works without voice and `engram listen` says why.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:-$root/.build/speech}"
sherpa=sherpa_onnx_core-2.0.1-py3-none-manylinux2014_x86_64.whl
sherpa_sha=f4ee0ab91c4ae596e0e49d7de32522a946295e038a652f1c1884d89014ee4ec2
moonshine=moonshine_cpp-0.1.4-py3-none-manylinux2014_x86_64.whl
moonshine_sha=f7afc662bdd3ef98815ee3b940438b456e77d5a77cea5396ed9c572785412ebd
wrapper="$root/scripts/speech/engram-stt.c"
stamp="$dest/speech.installed"
expected="$sherpa $sherpa_sha, $moonshine $moonshine_sha, wrapper sha256 $(sha256sum "$wrapper" | cut -d' ' -f1)"
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$expected" ] && [ -f "$dest/libengram-stt.so" ] && exit 0

. "$root/scripts/pinned-wheel.sh"
fetch_wheel sherpa-onnx-core==2.0.1 "$sherpa" "$sherpa_sha" "the speech engine (sherpa-onnx, 11 MB)" "voice stays off"
fetch_wheel moonshine-cpp==0.1.4 "$moonshine" "$moonshine_sha" "the speech model (Moonshine base-en, 55 MB)" "voice stays off"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$python" - "$cache/$sherpa" "$cache/$moonshine" "$work" <<'PY'
import base64, os, sys, zipfile
sherpa, moonshine, work = sys.argv[1:]
with zipfile.ZipFile(sherpa) as z:
    for name in ("lib/libsherpa-onnx-c-api.so", "lib/libonnxruntime.so", "include/sherpa-onnx/c-api/c-api.h"):
        z.extract("sherpa_onnx/" + name, work)
base = "moonshine_cpp-0.1.4.data/purelib/moonshine_cpp/"
with zipfile.ZipFile(moonshine) as z:
    for name in ("models/base-en/encoder_model.ort", "models/base-en/decoder_model_merged.ort",
                 "models/base-en/tokenizer.bin", "LICENSE"):
        z.extract(base + name, work)
# sherpa-onnx reads the tokens as text, "<base64 of the token's bytes> <id>" a line; Moonshine's tokenizer.bin holds
# them as bytes, each after a one- or two-byte length (7 bits a byte, the high bit saying a second byte follows).
data = open(os.path.join(work, base, "models/base-en/tokenizer.bin"), "rb").read()
tokens, i = [], 0
while i < len(data):
    n = data[i]; i += 1
    if n >= 128:
        n = data[i] * 128 + (n - 128); i += 1
    tokens.append(data[i:i + n]); i += n
if len(tokens) != 32000:
    sys.exit(f"engram: Moonshine's tokenizer.bin holds {len(tokens)} tokens, not 32000; not installed")
with open(os.path.join(work, "tokens.txt"), "w") as f:
    for k, t in enumerate(tokens):
        f.write(f"{base64.b64encode(t).decode()} {k}\n")
PY
lib="$work/sherpa_onnx/lib"
gcc -O2 -fPIC -shared -I"$work/sherpa_onnx/include" -o "$work/libengram-stt.so" "$wrapper" \
  -L"$lib" -lsherpa-onnx-c-api -Wl,-rpath,'$ORIGIN' -lm
model="$work/moonshine_cpp-0.1.4.data/purelib/moonshine_cpp"
mkdir -p "$dest"
install -m 0755 "$lib/libsherpa-onnx-c-api.so" "$lib/libonnxruntime.so" "$work/libengram-stt.so" "$dest/"
install -m 0644 "$model/models/base-en/encoder_model.ort" "$model/models/base-en/decoder_model_merged.ort" \
  "$work/tokens.txt" "$dest/"
install -m 0644 "$model/LICENSE" "$dest/LICENSE.moonshine"
echo "$expected" > "$stamp"
echo "engram: speech recogniser installed in $dest" >&2
