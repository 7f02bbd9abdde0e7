"""The bench's timing loop and its checks, shared by run.py and its parts (bench_daemon, bench_feeds)."""
import json
import os
import resource
import signal
import subprocess
import sys
import time


def log(*a):
    print("bench:", *a, file=sys.stderr, flush=True)


def release_date(path):
    """The Date: field of an apt Release file (the day its lists were published), or None."""
    if not os.path.exists(path):
        return None
    with open(path, errors="replace") as f:
        return next((line[5:].strip() for line in f if line.startswith("Date:")), None)


def pct(xs, p):
    s = sorted(xs)
    if not s:
        return None
    k = (len(s) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def timed(cmd, env=None, stdout=subprocess.DEVNULL):
    """Runs cmd; returns (wall seconds, CPU seconds of the child, completed process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit("bench: %s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, p


def check_indexed(name, stdout, docs):
    """A baseline indexer's own report ({"docs": N}) must say it indexed every document it was timed on."""
    try:
        n = json.loads(stdout.strip().splitlines()[-1])["docs"]
    except (ValueError, IndexError, KeyError):
        raise SystemExit("bench: %s printed no document count: %r" % (name, stdout[-300:]))
    if n != docs:
        raise SystemExit("bench: %s indexed %d documents, not %d" % (name, n, docs))


def shield_from_realtime_signals():
    """A no-op handler for SIGRTMIN..SIGRTMAX, so a bar's refresh signal sent by another program on the machine
    to everything in reach no longer ends the bench (children get the default disposition back at exec)."""
    for sig in range(signal.SIGRTMIN, signal.SIGRTMAX + 1):
        try:
            signal.signal(sig, lambda *_: None)
        except (OSError, ValueError):
            pass


def time_runs(cmds, env, warmup, runs, retries=20, may_find_nothing=()):
    """Times fresh processes: each of cmds [(name, argv)] runs warmup times, then runs times, taking turns so
    load from other processes falls on all alike. Returns ({name: ([wall ms], [child CPU ms])}, runs ended by a
    signal, which are run again). Only exit 0 counts as a timing, and exit 1 for the names in may_find_nothing
    (`engram search` finding nothing); any other exit stops the bench with the command's standard error."""
    out = {name: ([], []) for name, _ in cmds}
    interrupted = 0

    def once(name, argv):
        nonlocal interrupted
        for _ in range(retries):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            p = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            wall = (time.perf_counter() - t) * 1000
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if p.returncode == 0 or (p.returncode == 1 and name in may_find_nothing):
                cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
                return wall, cpu
            if p.returncode > 0:
                raise SystemExit("bench: %s failed (%d): %s" % (" ".join(argv), p.returncode, p.stderr.decode(errors="replace")[-1500:]))
            interrupted += 1  # ended by a signal from elsewhere: run it again
        raise SystemExit("bench: %s was ended by signals %d times in a row" % (" ".join(argv), retries))

    for _ in range(warmup):
        for name, argv in cmds:
            once(name, argv)
    for _ in range(runs):
        for name, argv in cmds:
            wall, cpu = once(name, argv)
            out[name][0].append(wall)
            out[name][1].append(cpu)
    return out, interrupted


def checked_searches(cmds, env):
    """Runs each `engram search` once and checks what it printed: exit 0 with results, or exit 1 with engram's
    "No results for …" sentence alone and nothing on standard error. Returns the names that find nothing (the only ones
    whose exit 1 time_runs accepts); anything else stops the bench."""
    nothing = set()
    for name, argv in cmds:
        p = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if p.returncode == 0 and p.stdout.strip():
            continue
        if p.returncode == 1 and p.stdout.startswith("No results for ") and p.stdout.count("\n") <= 2 and not p.stderr.strip():
            nothing.add(name)
            continue
        raise SystemExit("bench: %s: exit %d, not results nor \"found nothing\": %s%s" % (
            " ".join(argv), p.returncode, p.stdout[-500:], p.stderr[-1500:]))
    return nothing


def du(path):
    total = 0
    if os.path.isfile(path):
        return os.path.getsize(path)
    for d, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(d, f))
            except OSError:
                pass
    return total
