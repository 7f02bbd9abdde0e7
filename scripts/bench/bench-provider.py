#!/usr/bin/python3
"""Measures the desktop search the way GNOME Shell and KRunner use it, against a running bus.

Run by scripts/bench/bench-provider.sh inside a private bus whose service folder starts `engram daemon`
on the benchmark collection. Prints a small report:
  - the first call (D-Bus activation of the daemon, opening the index),
  - GetInitialResultSet + GetResultMetas round trips while "typing" words of the collection
    (prefixes of 3 letters and more, then the whole word, as the shell sends them),
  - KRunner Match round trips for the same queries,
  - capture-to-searchable: `engram remember` (nudging the daemon) and a capture the daemon only
    notices through the store's WAL file (no session bus for the CLI).
"""
import json
import os
import random
import re
import subprocess
import sys
import time

import dbus

ENGRAM = sys.argv[1]
CORPUS = sys.argv[2]
ROUNDS = int(os.environ.get("BENCH_QUERIES", "300"))
CAPTURES = int(os.environ.get("BENCH_CAPTURES", "20"))

bus = dbus.SessionBus()
NAME = "org.engram.Engram"


class Remote:
    """Calls one interface by the well-known name, as GNOME Shell and KRunner do (the first call activates)."""

    def __init__(self, path, interface):
        self.path, self.interface = path, interface

    def call(self, method, signature, *args):
        return bus.call_blocking(NAME, self.path, self.interface, method, signature, args, timeout=60)


shell_provider = Remote("/org/engram/Engram/SearchProvider", "org.gnome.Shell.SearchProvider2")
krunner = Remote("/runner", "org.kde.krunner1")


def initial_result_set(terms):
    return shell_provider.call("GetInitialResultSet", "as", terms)


def result_metas(ids):
    return shell_provider.call("GetResultMetas", "as", ids)


def match(query):
    return krunner.call("Match", "s", query)


def ms(seconds):
    return seconds * 1000.0


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100.0
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summary(label, samples):
    print(f"  {label:<44} n={len(samples):<5} p50 {percentile(samples, 50):7.2f} ms   "
          f"p99 {percentile(samples, 99):7.2f} ms   max {max(samples):7.2f} ms")


def typed_queries(words, rounds):
    """What the shell sends while a person types: each prefix from 3 letters on (150 ms debounce aside)."""
    queries = []
    for word in words:
        for n in range(3, len(word) + 1):
            queries.append([word[:n]])
        if len(queries) >= rounds:
            break
    return queries[:rounds]


# Words from the collection, so searches find something, as real ones do.
random.seed(42)
vocabulary = []
with open(CORPUS, encoding="utf-8") as corpus:
    for line in corpus:
        content = json.loads(line)["content"]
        vocabulary.extend(w.lower() for w in re.findall(r"[A-Za-z]{5,12}", content.split(":", 1)[-1]))
words = random.sample(sorted(set(vocabulary)), 400)
queries = typed_queries(words, ROUNDS)

print("Engram desktop search benchmark")
print(f"  collection: {sum(1 for _ in open(CORPUS))} memories from {os.path.basename(CORPUS)}")

assert not bus.name_has_owner(NAME), "a daemon already runs on this bus"
start = time.perf_counter()
initial_result_set(["warmup"])
print(f"  first call (D-Bus activation, store and index opened): {ms(time.perf_counter() - start):.0f} ms")

shell, initial, metas, matches, hits = [], [], [], [], 0
for terms in queries:
    t0 = time.perf_counter()
    ids = initial_result_set(terms)
    t1 = time.perf_counter()
    shown = list(ids[:5])
    if shown:
        got = result_metas(shown)
        assert len(got) == len(shown), "metas must match the ids asked"
    t2 = time.perf_counter()
    hits += 1 if ids else 0
    initial.append(ms(t1 - t0))
    metas.append(ms(t2 - t1))
    shell.append(ms(t2 - t0))
    t3 = time.perf_counter()
    match(" ".join(terms))
    matches.append(ms(time.perf_counter() - t3))

print(f"  queries: {len(queries)} typed prefixes of {len(set(q[0][:3] for q in queries))} words; {hits} found something")
summary("GetInitialResultSet + GetResultMetas (5 ids)", shell)
summary("  GetInitialResultSet alone", initial)
summary("  GetResultMetas alone", metas)
summary("KRunner Match", matches)

env_nudge = dict(os.environ)
env_quiet = {k: v for k, v in os.environ.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")}


def capture(word, env):
    """Runs `engram remember` and returns (process ms, exit-to-listed ms, start-to-listed ms)."""
    t0 = time.perf_counter()
    out = subprocess.run([ENGRAM, "remember", f"Bench capture {word} in the collection"], env=env,
                         capture_output=True, text=True, check=True)
    t1 = time.perf_counter()
    memory_id = out.stdout.split()[1]
    while True:
        ids = initial_result_set([word])
        if f"engram://memory/{memory_id}" in ids:
            t2 = time.perf_counter()
            return ms(t1 - t0), ms(t2 - t1), ms(t2 - t0)
        if time.perf_counter() - t1 > 10:
            raise SystemExit(f"capture {word} never became searchable")
        time.sleep(0.001)


for label, env in (("engram remember, daemon nudged over D-Bus", env_nudge),
                   ("engram remember without a session bus (WAL watch)", env_quiet)):
    runs = [capture(f"zq{label[:3]}{i}x{random.randint(0, 10**6)}", env) for i in range(CAPTURES)]
    print(f"  {label}:")
    summary("    the command itself (start to exit)", [r[0] for r in runs])
    summary("    exit to listed by GetInitialResultSet", [r[1] for r in runs])
    summary("    start to listed (capture-to-searchable)", [r[2] for r in runs])
