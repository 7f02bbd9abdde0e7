"""Feed cold start for run.py: `engram feed motd --format waybar` (and the lean `engram-feed` when built)
vs the same feed as a python3 script over the same SQLite file (the feeds engineer's motd.py) vs `cat`.

Every run is a fresh process, as a bar runs it, over the bench's full-corpus store. The timing loop is
our own (not hyperfine): the commands take turns, so load from other processes falls on all of them
alike; real-time signals (bars' refresh signals, which other programs on the machine may send to
everything in reach) are caught by this process instead of ending it, and a run ended by a signal is
run again. Each figure is the wall time from spawn to exit; the children's CPU time is recorded too.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(bench):
    from run import pct, time_runs
    env = dict(bench.env, ENGRAM_DATA_DIR=bench.data)
    bindir = os.path.dirname(bench.engram)
    cmds = [("engram", [bench.engram, "feed", "motd", "--format", "waybar"])]
    lean = os.path.join(bindir, "engram-feed")
    if os.path.exists(lean):
        cmds.append(("engram_feed", [lean, "motd", "--format", "waybar"]))
    motd = os.path.join(HERE, "motd.py")
    if os.path.exists(motd):
        cmds.append(("python", ["/usr/bin/python3", motd]))
    out = subprocess.run(cmds[0][1], env=env, capture_output=True, text=True, check=True).stdout
    cached = os.path.join(bench.work, "motd.json")
    with open(cached, "w") as f:
        f.write(out)
    cmds.append(("cat", ["cat", cached]))
    runs = 20 if bench.quick else 60
    times, interrupted = time_runs(cmds, env, warmup=10, runs=runs)
    res = {}
    for name, (ms, cpu) in times.items():
        res[name] = {"p50_ms": round(pct(ms, 50), 3), "p99_ms": round(pct(ms, 99), 3), "cpu_p50_ms": round(pct(cpu, 50), 3),
                     "n": len(ms)}
    if interrupted:
        bench.r["notes"].append("feeds: %d runs were ended by a signal from another process and run again" % interrupted)
    if "python" not in res:
        bench.r["notes"].append("feeds: scripts/bench/motd.py (the python baseline) is missing")
    bench.r["feeds"] = res
    print("bench: feed cold start " + ", ".join("%s %.2f ms" % (k, v["p50_ms"]) for k, v in res.items()), file=sys.stderr)
