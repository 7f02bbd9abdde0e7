"""The voice part of `make bench`: push-to-talk through the headless audio server (scripts/voice/fakeaudio.py) on
1-3 s spoken requests, Engram's own recogniser against whisper tiny.en through a real Wyoming server on the same
clips, the two alternated clip by clip.

    dbus-run-session -- env PYTHONPATH=scripts /usr/bin/python3 -m voice.bench .build/release/engram [OUT] [ROUNDS]

Printed and written to OUT/results.md (and results.json):
- from the end of speech (the last sound the microphone was fed) to the result printed, p50 / p99: that includes the
  pause that ends a recording (`silence_seconds`, 0.8 s), during which recognition has already begun; and from the
  end of the recording to the result (`seconds_to_result`): what is left of recognising, understanding and running;
- the same for Engram's recogniser with recognition begun only when the recording ends (ENGRAM_TEST_LATE_RECOGNITION: how
  Engram listened before it recognised in the pause), in turn with the others: what beginning early gains;
- the recogniser's real-time factor (seconds to recognise / seconds of sound), p50;
- the listening process's peak resident memory, and the daemon's before listening and a minute after the last
  time (listening runs in its own process, so the daemon's must not grow).
Each recording must read as its request with both engines (the baseline's output is checked too): when more than
a fifth of an engine's readings are wrong, its figures measure failures, and the bench fails.
"""
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time

from engramtest import ROOT
from engramtest.daemon import Daemon
from engramtest.report import machine, write_results
from engramtest.world import World
from voice.fakeaudio import FakeAudio
from voice.heldout import PEERS, SPEECH, whisper_server

REQUESTS = [("search for sourdough", "QueryMemory"), ("what do I know about git rebase", "QueryMemory"),
            ("daily review", "DailyReview"), ("show my stats", "MemoryStats"),
            ("what do I know about the subjunctive", "QueryMemory"), ("how many memories do I have", "MemoryStats"),
            ("search for marathon training", "QueryMemory"), ("session history", "ShowHistory")]


def pct(values, q):
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float("nan")


def rss_kb(pid, field="VmRSS"):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def main(engram, out, rounds, smoke=False):
    """smoke (make test): two requests, one round, no minute's wait before the daemon's memory is read again; every
    reading must then be right."""
    requests = [REQUESTS[2], REQUESTS[3]] if smoke else REQUESTS
    world = World("engram-voice-bench")
    world.env.update(ENGRAM_MODEL_DIR="none", NO_COLOR="1", ENGRAM_SPEECH_DIR=SPEECH)
    audio = FakeAudio(world.path("pulse"), world.env)
    env = audio.env
    samples = world.samples()
    run = lambda *a: subprocess.run([engram, *a], env=env, capture_output=True, text=True, check=True)
    run("import", os.path.join(samples, "memories.jsonl"))
    for c in ("swift-concurrency.toml", "spanish-b1.yaml"):
        run("import", os.path.join(samples, "curricula", c))
    clips = world.path("clips")
    os.makedirs(clips)
    listing = world.path("clips.json")
    json.dump([[text, os.path.join(clips, f"{i}.wav"), 1.0] for i, (text, _) in enumerate(requests)], open(listing, "w"))
    subprocess.run([os.path.join(PEERS, "bin", "python"), os.path.join(ROOT, "scripts", "voice", "speak.py"), listing], check=True)
    durations = [float(subprocess.run(["soxi", "-D", os.path.join(clips, f"{i}.wav")], capture_output=True, text=True).stdout)
                 for i in range(len(requests))]
    server, port = whisper_server(world)
    daemon = Daemon(engram, env, world.path("daemon.log"))
    if not daemon.start(env["DBUS_SESSION_BUS_ADDRESS"], timeout=60):
        server.terminate()
        sys.exit(f"voice bench: the daemon did not start; see {world.path('daemon.log')}")
    daemon_before = rss_kb(daemon.proc.pid)
    # No notification server runs here (one started on demand would be tried and fail at every listen); they are
    # shown off the answer's path anyway.
    quiet = '[privacy]\nnotifications = false\n'
    # A request misheard as a question counts as a wrong reading; nobody answers it.
    engines = {"moonshine": 'tts = "none"\nanswer_seconds = 0\n',
               "moonshine-after-recording": 'tts = "none"\nanswer_seconds = 0\n',
               "whisper-wyoming": f'tts = "none"\nanswer_seconds = 0\nstt = "tcp://127.0.0.1:{port}"\n'}
    engine_env = {"moonshine-after-recording": {"ENGRAM_TEST_LATE_RECOGNITION": "1"}}
    runs = {e: [] for e in engines}
    wrong = []
    try:
        for r in range(rounds):
            for i, (text, intent) in enumerate(requests):
                turn = (r + i) % len(engines)
                for engine in list(engines)[turn:] + list(engines)[:turn]:
                    with open(os.path.join(world.config, "config.toml"), "w") as f:
                        f.write("[voice]\n" + engines[engine] + quiet)
                    audio.clear()
                    p = subprocess.Popen([engram, "listen", "--json"], env=dict(env, **engine_env.get(engine, {})),
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                    if not audio.wait_for_recorder():
                        p.kill()
                        raise RuntimeError(f"engram listen never recorded: {p.communicate()[1][-300:]}")
                    fed = audio.say(os.path.join(clips, f"{i}.wav"))
                    speech_end = time.monotonic() + fed
                    peak = 0
                    while p.poll() is None:
                        try:
                            peak = max(peak, rss_kb(p.pid, "VmHWM"))
                        except OSError:
                            break
                        time.sleep(0.05)
                    stdout, stderr = p.communicate()
                    shown = time.monotonic()
                    try:
                        res = json.loads(stdout)
                    except json.JSONDecodeError:
                        wrong.append(f"{engine} “{text}”: no JSON ({stderr.strip()[-200:]})")
                        continue
                    if res.get("ran") != intent:
                        wrong.append(f"{engine} “{text}” heard “{res.get('transcript')}” → {res.get('ran') or res.get('understood')}")
                    runs[engine].append({"text": text, "speech_to_result": shown - speech_end, "recording_to_result": res.get("seconds_to_result"),
                                         "recognition": res.get("recognition_seconds"), "audio": res.get("audio_seconds"),
                                         "rtf": (res.get("recognition_seconds") or 0) / max(0.1, res.get("audio_seconds") or 0.1),
                                         "peak_kb": peak, "transcript": res.get("transcript"),
                                         "recognised_in_pause": res.get("recognised_in_pause")})
        time.sleep(0 if smoke else 60)
        daemon_after = rss_kb(daemon.proc.pid)
    finally:
        server.terminate()
        server.wait(10)
        daemon.stop(timeout=30)
        audio.stop()
    md = [f"# Voice: push-to-talk on {len(requests)} requests of {min(durations):.1f}-{max(durations):.1f} s, {rounds} rounds, engines alternated",
          "", "| engine | end of speech → result p50 / p99 | end of recording → result p50 / p99 | recognition p50 | real-time factor p50 | peak memory while listening | recognised in the pause |",
          "|---|---|---|---|---|---|---|"]
    summary = {}
    for engine, rows in runs.items():
        s2r = [r["speech_to_result"] for r in rows]
        r2r = [r["recording_to_result"] or 0 for r in rows]
        summary[engine] = {"speech_to_result_p50": pct(s2r, .5), "speech_to_result_p99": pct(s2r, .99),
                           "recording_to_result_p50": pct(r2r, .5), "recording_to_result_p99": pct(r2r, .99),
                           "recognition_p50": pct([r["recognition"] or 0 for r in rows], .5), "rtf_p50": pct([r["rtf"] for r in rows], .5),
                           "peak_mb": max([r["peak_kb"] for r in rows] or [0]) / 1024, "n": len(rows),
                           "recognised_in_pause": sum(1 for r in rows if r["recognised_in_pause"])}
        m = summary[engine]
        md.append(f"| {engine} | {1000 * m['speech_to_result_p50']:.0f} / {1000 * m['speech_to_result_p99']:.0f} ms | "
                  f"{1000 * m['recording_to_result_p50']:.0f} / {1000 * m['recording_to_result_p99']:.0f} ms | "
                  f"{1000 * m['recognition_p50']:.0f} ms | {m['rtf_p50']:.2f} | {m['peak_mb']:.0f} MB | {m['recognised_in_pause']}/{m['n']} |")
    ratio = summary["moonshine"]["speech_to_result_p50"] / max(1e-9, summary["whisper-wyoming"]["speech_to_result_p50"])
    early = summary["moonshine"]["speech_to_result_p50"] / max(1e-9, summary["moonshine-after-recording"]["speech_to_result_p50"])
    md += ["", f"Engram's recogniser against the Wyoming whisper baseline, end of speech to result p50: {ratio:.2f}×.",
           f"Recognition begun in the pause against begun after the recording, end of speech to result p50: {early:.2f}×.",
           f"The daemon's resident memory: {daemon_before / 1024:.0f} MB before listening, {daemon_after / 1024:.0f} MB {'right' if smoke else 'a minute'} after the last time.",
           f"Target: end of recording to result p50 ≤ 500 ms: {1000 * summary['moonshine']['recording_to_result_p50']:.0f} ms "
           + ("(met)" if summary["moonshine"]["recording_to_result_p50"] <= 0.5 else "(missed)")]
    if wrong:
        md += ["", "Readings that were wrong:", ""] + [f"- {w}" for w in wrong]
    write_results(out, md, {"machine": machine(), "summary": summary, "runs": runs, "wrong": wrong,
                            "daemon_rss_kb": [daemon_before, daemon_after]})
    print("\n".join(md))
    world.close()
    # Every engine must read its clips, or its figures measure failures.
    failing = [e for e in engines if sum(1 for w in wrong if w.startswith(e + " ")) > len(requests) * rounds // 5]
    for e in failing:
        print(f"voice bench: {e} read too many requests wrong; its figures measure failures", file=sys.stderr)
    return 1 if failing else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    smoke = "--smoke" in sys.argv
    argv = [a for a in sys.argv if a != "--smoke"]
    out = argv[2] if len(argv) > 2 else os.path.join(ROOT, "bench-out", "voice")
    sys.exit(main(os.path.abspath(argv[1]), out, 1 if smoke else int(argv[3]) if len(argv) > 3 else 3, smoke))
