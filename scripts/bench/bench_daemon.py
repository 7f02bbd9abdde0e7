"""Daemon measurements for run.py: GNOME provider round trip vs a python provider, capture to
searchable, and the daemon's resident memory idle and under query load.

Needs a session bus (run.py runs under dbus-run-session) and an `engram daemon` subcommand.
"""
import json
import os
import subprocess
import sys
import threading
import time
import uuid

import dbus

from bench.timing import pct
from engramtest import PYTHON as PY
from engramtest.bus import NAME, PROVIDER_PATH, wait_for_name
from engramtest.daemon import Daemon
from engramtest.system import rss_kb

HERE = os.path.dirname(os.path.abspath(__file__))


def rss_mb(pid):
    return rss_kb(pid) / 1024


def cpu_seconds(pid):
    """User + system CPU seconds a process has used so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summarise(ms):
    return {"p50_ms": round(pct(ms, 50), 3), "p99_ms": round(pct(ms, 99), 3), "max_ms": round(max(ms), 3), "n": len(ms)}


def round_trips(bench, name, rounds):
    p = subprocess.run([PY, os.path.join(HERE, "provider_client.py"), name, os.path.join(HERE, "queries.jsonl"), str(rounds)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("bench: the provider client failed against %s (%d): %s" % (name, p.returncode, p.stderr[-1500:]))
    return json.loads(p.stdout)


def compare_answers(engram_ids, python_ids):
    """Per query: both providers found something, or both nothing; the overlap of their first five ids."""
    one_sided, same_top, overlap = [], 0, []
    for n, (e, p) in enumerate(zip(engram_ids, python_ids)):
        if bool(e) != bool(p):
            one_sided.append((n, len(e), len(p)))
        if e[:5] == p[:5]:
            same_top += 1
        if e and p:
            overlap.append(len(set(e[:5]) & set(p[:5])) / min(5, len(e), len(p)))
    return one_sided, same_top, overlap


def measure(bench):
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        if bench.smoke:
            raise SystemExit("bench: no session bus, so the daemon's part would be skipped (run under dbus-run-session)")
        bench.r["notes"].append("daemon: not measured (no session bus; `make bench` runs the bench under dbus-run-session)")
        return
    rounds = 1 if bench.smoke else 2 if bench.quick else 10
    log = open(os.path.join(bench.work, "daemon.log"), "w")
    daemon = Daemon(bench.engram, bench.env, log, args=("--data-dir", bench.data)).spawn()
    py = None
    try:
        if not wait_for_name(dbus.SessionBus(), NAME, daemon, 60):
            if daemon.poll() is not None:
                raise SystemExit("bench: %s exited (%s) before taking %s" % (daemon.args, daemon.returncode, NAME))
            raise SystemExit("bench: nobody took %s within %d s" % (NAME, 60))
        time.sleep(2)  # let it settle: first index pass, caches
        idle = rss_mb(daemon.pid)
        bus = dbus.SessionBus()

        # provider round trip: the daemon vs a python provider over the same index, taking turns round by round
        # (each turn one warm-up pass over the queries, then one timed pass), so load falls on both alike
        py = subprocess.Popen([PY, os.path.join(HERE, "py_provider.py"), os.path.join(bench.data, "index"), "org.engram.PyBench"],
                              stdout=subprocess.PIPE, stderr=log, text=True)
        py.stdout.readline()
        engram_ms, python_ms, engram_cpu_s, python_cpu_s = [], [], 0.0, 0.0
        engram_ids = python_ids = None
        for r in range(rounds):
            for name, proc in ((NAME, daemon), ("org.engram.PyBench", py)) if r % 2 == 0 else (("org.engram.PyBench", py), (NAME, daemon)):
                cpu0 = cpu_seconds(proc.pid)
                res = round_trips(bench, name, 1)
                used = cpu_seconds(proc.pid) - cpu0
                if name == NAME:
                    engram_ms += res["ms"]
                    engram_cpu_s += used
                    engram_ids = engram_ids or res["ids"]
                else:
                    python_ms += res["ms"]
                    python_cpu_s += used
                    python_ids = python_ids or res["ids"]
        peak = [rss_mb(daemon.pid)]
        trips = 2 * len(engram_ms)  # each turn: a warm-up pass and a timed pass, both on the server's CPU
        engram_cpu = engram_cpu_s * 1000 / trips
        python_cpu = python_cpu_s * 1000 / trips
        one_sided, same_top, overlap = compare_answers(engram_ids, python_ids)
        if one_sided:
            raise SystemExit("bench: the providers disagree on whether %d queries find anything (query, engram ids, python ids): %s"
                             % (len(one_sided), one_sided[:5]))
        bench.r["provider"] = {"engram": summarise(engram_ms), "python": summarise(python_ms),
                               "server_cpu_ms_per_trip": {"engram": round(engram_cpu, 3), "python": round(python_cpu, 3)},
                               "answers": {"queries": len(engram_ids), "both_found_something": sum(1 for e in engram_ids if e),
                                           "same_first_five": same_top,
                                           "first_five_overlap_mean": round(sum(overlap) / len(overlap), 3) if overlap else None},
                               "note": "Taking turns, %d rounds each. Provider CPU per round trip (mean, the provider process alone, "
                                       "clock ticks of 10 ms over %d trips): engram %.2f ms, python %.2f ms. Both found something "
                                       "for the same queries; the first five ids were the same for %d of %d (Engram blends decay "
                                       "into the ranking, the python provider ranks by BM25 alone)." % (
                                           rounds, trips, engram_cpu, python_cpu, same_top, len(engram_ids)),
                               "client": "python-dbus, blocking; GetInitialResultSet + GetResultMetas(first 5) per query; "
                                         "50 queries as the shell sends them (plain words)"}

        # resident memory under query load: two clients at once while sampling
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                peak.append(rss_mb(daemon.pid))
                time.sleep(0.05)
        t = threading.Thread(target=sample)
        t.start()
        loaders = [subprocess.Popen([PY, os.path.join(HERE, "provider_client.py"), NAME, os.path.join(HERE, "queries.jsonl"),
                                     str(rounds)], stdout=subprocess.DEVNULL) for _ in range(2)]
        for l in loaders:
            l.wait()
        stop.set()
        t.join()
        bench.r["daemon_rss"] = {"idle_mb": round(idle, 1), "load_mb": round(max(peak), 1), "corpus": bench.docs}

        # capture to searchable: Remember over D-Bus, then the provider must find the new word
        app = dbus.Interface(bus.get_object(NAME, "/org/engram/Engram", introspect=False), "org.engram.Engram1")
        provider = dbus.Interface(bus.get_object(NAME, PROVIDER_PATH, introspect=False), "org.gnome.Shell.SearchProvider2")
        ms, cli_ms = [], []
        for i in range(2 if bench.smoke else 5 if bench.quick else 20):
            word = "zq" + uuid.uuid4().hex[:10]
            t0 = time.perf_counter()
            app.Remember("bench capture %s" % word, "note", dbus.Array([], signature="s"), "", "", timeout=30)
            while not provider.GetInitialResultSet([word], timeout=30):
                if time.perf_counter() - t0 > 10:
                    raise SystemExit("bench: a captured memory was not searchable after 10 s")
                time.sleep(0.002)
            ms.append((time.perf_counter() - t0) * 1000)
        for i in range(1 if bench.smoke else 3 if bench.quick else 10):
            word = "zq" + uuid.uuid4().hex[:10]
            t0 = time.perf_counter()
            subprocess.run(bench.eng("remember", "bench capture %s" % word), env=bench.env, check=True, stdout=subprocess.DEVNULL)
            while not provider.GetInitialResultSet([word], timeout=30):
                if time.perf_counter() - t0 > 10:
                    raise SystemExit("bench: a memory captured by `engram remember` was not searchable after 10 s")
                time.sleep(0.002)
            cli_ms.append((time.perf_counter() - t0) * 1000)
        c = summarise(ms)
        c["cli"] = summarise(cli_ms)
        bench.r["capture"] = c
        print("bench: provider p50 %.2f ms (python %.2f); capture p50 %.0f ms; RSS idle %.1f MB load %.1f MB" % (
            bench.r["provider"]["engram"]["p50_ms"], bench.r["provider"]["python"]["p50_ms"], c["p50_ms"], idle, max(peak)),
            file=sys.stderr)
    finally:
        if py:
            py.terminate()
            py.wait()
        daemon.terminate()
        daemon.wait(timeout=30)
        log.close()
