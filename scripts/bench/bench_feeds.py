"""Feed cold start for run.py: `engram feed motd --format waybar` (and the lean `engram-feed` when built)
vs the same feed as python3 scripts over the same SQLite file vs `cat`: motd_fair.py walks the store's
`memory_fading` index as engram-feed does (the fair baseline: same algorithm, same index); motd.py reads every
memory and bisects each one's expiry (a naive script, kept as a labelled extra row). Before timing, every
command runs once on the same pinned clock and must print the very same line.

Every run is a fresh process, as a bar runs it, over the bench's full-corpus store. The timing loop is
our own (not hyperfine): the commands take turns, so load from other processes falls on all of them
alike; real-time signals (bars' refresh signals, which other programs on the machine may send to
everything in reach) are caught by this process instead of ending it, and a run ended by a signal is
run again. Each figure is the wall time from spawn to exit; the children's CPU time is recorded too.
"""
import os
import subprocess
import sys
import time

from bench.timing import pct, time_runs

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(bench):
    env = dict(bench.env, ENGRAM_DATA_DIR=bench.data)
    bindir = os.path.dirname(bench.engram)
    cmds = [("engram", [bench.engram, "feed", "motd", "--format", "waybar"])]
    lean = os.path.join(bindir, "engram-feed")
    if os.path.exists(lean):
        cmds.append(("engram_feed", [lean, "motd", "--format", "waybar"]))
    cmds.append(("python", ["/usr/bin/python3", os.path.join(HERE, "motd_fair.py")]))
    cmds.append(("python_naive", ["/usr/bin/python3", os.path.join(HERE, "motd.py")]))
    # One clock for every run (the day's draw and the strength shown depend on it), then the same line from all.
    env["ENGRAM_NOW"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    outputs = {}
    for name, argv in cmds:
        p = subprocess.run(argv, env=env, capture_output=True, text=True)
        if p.returncode != 0 or not p.stdout.strip():
            raise SystemExit("bench: feed %s exited %d: %s" % (name, p.returncode, p.stderr[-1500:]))
        outputs[name] = p.stdout
    first = outputs[cmds[0][0]]
    differ = [name for name, out in outputs.items() if out != first]
    if differ:
        raise SystemExit("bench: the motd feeds do not print the same line: %s" % "; ".join(
            "%s: %s" % (name, outputs[name][:200]) for name in [cmds[0][0]] + differ))
    bench.r["feeds_same_output"] = {"commands": [name for name, _ in cmds], "memories": bench.docs, "now": env["ENGRAM_NOW"]}
    out = first
    cached = os.path.join(bench.work, "motd.json")
    with open(cached, "w") as f:
        f.write(out)
    cmds.append(("cat", ["cat", cached]))
    runs = 3 if bench.smoke else 20 if bench.quick else 60
    times, interrupted = time_runs(cmds, env, warmup=1 if bench.smoke else 10, runs=runs)
    res = {}
    for name, (ms, cpu) in times.items():
        res[name] = {"p50_ms": round(pct(ms, 50), 3), "p99_ms": round(pct(ms, 99), 3), "cpu_p50_ms": round(pct(cpu, 50), 3),
                     "n": len(ms)}
    if interrupted:
        bench.r["notes"].append("feeds: %d runs were ended by a signal from another process and run again" % interrupted)
    bench.r["feeds"] = res
    print("bench: feed cold start " + ", ".join("%s %.2f ms" % (k, v["p50_ms"]) for k, v in res.items()), file=sys.stderr)
