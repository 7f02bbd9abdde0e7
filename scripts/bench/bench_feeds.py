"""Feed cold start for run.py: `engram feed motd --format waybar` (and the lean `engram-feed` when built)
vs the same feed as a python3 script over the same SQLite file (the feeds engineer's motd.py) vs `cat`.

Every run is a fresh process, as a bar runs it, over the bench's full-corpus store.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(bench):
    from run import pct
    env = dict(bench.env, ENGRAM_DATA_DIR=bench.data)
    bindir = os.path.dirname(bench.engram)
    cmds = [("engram", bench.engram + " feed motd --format waybar")]
    lean = os.path.join(bindir, "engram-feed")
    if os.path.exists(lean):
        cmds.append(("engram_feed", lean + " motd --format waybar"))
    motd = os.path.join(HERE, "motd.py")
    if os.path.exists(motd):
        cmds.append(("python", "/usr/bin/python3 " + motd))
    out = subprocess.run(cmds[0][1].split(), env=env, capture_output=True, text=True, check=True).stdout
    cached = os.path.join(bench.work, "motd.json")
    with open(cached, "w") as f:
        f.write(out)
    cmds.append(("cat", "cat " + cached))
    hf = os.path.join(bench.work, "hyperfine-feeds.json")
    runs = "20" if bench.quick else "60"
    args = ["hyperfine", "-N", "--warmup", "10", "--runs", runs, "--style", "none", "--export-json", hf]
    for name, cmd in cmds:
        args += ["-n", name, cmd]
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL)
    res = {}
    for (name, _), r in zip(cmds, json.load(open(hf))["results"]):
        ms = [t * 1000 for t in r["times"]]
        res[name] = {"p50_ms": round(pct(ms, 50), 3), "p99_ms": round(pct(ms, 99), 3), "n": len(ms)}
    if "python" not in res:
        bench.r["notes"].append("feeds: scripts/bench/motd.py (the python baseline) is missing")
    bench.r["feeds"] = res
    print("bench: feed cold start " + ", ".join("%s %.2f ms" % (k, v["p50_ms"]) for k, v in res.items()), file=sys.stderr)
