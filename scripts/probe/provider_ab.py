#!/usr/bin/python3
"""A quick A/B of the GNOME provider round trip: one `engram daemon` build against the python provider
(scripts/bench/py_provider.py) over bench-out/work's index, in alternation, with each process's CPU per round trip.
`make bench` measures the same thing at length; this is for comparing two builds by hand (run it once per build).

Usage: PYTHONPATH=scripts dbus-run-session -- /usr/bin/python3 -m probe.provider_ab PATH/TO/engram [ROUNDS]
Needs the index `make bench` leaves in bench-out/work; words only (ENGRAM_MODEL_DIR=none).
"""
import json
import os
import subprocess
import sys
import time

import dbus

from engramtest.world import World
from engramtest import PYTHON, ROOT
from engramtest.bus import wait_for_name
from engramtest.daemon import Daemon

WORK = os.path.join(ROOT, "bench-out", "work")
BENCH = os.path.join(ROOT, "scripts", "bench")
NAMES = ("org.engram.Engram", "org.engram.PyBench")  # the daemon's, the python provider's


def cpu_seconds(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values, p):
    values = sorted(values)
    return values[int(p * (len(values) - 1))]


def main(engram, rounds):
    if not os.path.isdir(os.path.join(WORK, "engram-data", "index")) and not os.path.exists(os.path.join(WORK, "engram-data", "index")):
        raise SystemExit("provider-ab: no index in %s; run make bench first" % WORK)
    # Folders of its own beside the bench's (the bench's world is emptied by each bench run).
    env = dict(World(base=os.path.join(WORK, "probe-world"), engram_dirs=False, home=False).env,
               NO_COLOR="1", ENGRAM_MODEL_DIR="none")
    log = open(os.path.join(WORK, "provider-ab-daemon.log"), "w")
    daemon = Daemon(engram, env, log, args=("--data-dir", WORK + "/engram-data")).spawn()
    py = subprocess.Popen([PYTHON, BENCH + "/py_provider.py", WORK + "/engram-data/index", NAMES[1]],
                          stdout=subprocess.PIPE, text=True)
    try:
        py.stdout.readline()
        bus = dbus.SessionBus()
        if not wait_for_name(bus, NAMES[0], timeout=30, interval=0.1):
            raise SystemExit("provider-ab: the daemon did not take its name (see %s)" % log.name)
        time.sleep(2)
        ms = {n: [] for n in NAMES}
        cpu = {n: 0.0 for n in NAMES}
        pids = {NAMES[0]: daemon.pid, NAMES[1]: py.pid}
        for r in range(rounds):
            for name in NAMES if r % 2 == 0 else reversed(NAMES):
                before = cpu_seconds(pids[name])
                p = subprocess.run([PYTHON, BENCH + "/provider_client.py", name, BENCH + "/queries.jsonl", "1"],
                                   capture_output=True, text=True, env=env, check=True)
                cpu[name] += cpu_seconds(pids[name]) - before
                ms[name] += json.loads(p.stdout)["ms"]
        e, q = ms[NAMES[0]], ms[NAMES[1]]
        # Each client run is a warm-up pass and a timed pass, both on the server's CPU.
        print("engram p50 %.3f p99 %.3f ms, CPU %.3f ms per round trip | python p50 %.3f p99 %.3f ms, CPU %.3f ms | "
              "engram %.2fx the python provider at p50" % (pct(e, .5), pct(e, .99), cpu[NAMES[0]] * 1000 / (2 * len(e)),
                                                           pct(q, .5), pct(q, .99), cpu[NAMES[1]] * 1000 / (2 * len(q)),
                                                           pct(q, .5) / pct(e, .5)))
    finally:
        daemon.terminate()
        py.terminate()
        daemon.wait()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 6)
