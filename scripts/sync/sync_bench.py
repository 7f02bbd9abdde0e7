#!/usr/bin/python3
"""Sync's figures (docs/performance.md, "Sync"): two Engram devices through two real Syncthings on loopback, set up as
`make test-sync` sets them up (sync/syncthing.py: 127.0.0.1 / 127.0.0.2 only, discovery, relays and
reporting off).

Usage: PYTHONPATH=scripts /usr/bin/python3 -m sync.sync_bench PATH/TO/engram CORPUS.jsonl [N]   (N memories of the corpus, default 10000)

Measures, through the `engram` CLI (no daemon; a daemon's SyncService applies within a second of the files
arriving, and Syncthing's own file watcher waits `fsWatcherDelayS` before it notices a change, so this script asks
both Syncthings to scan at once, as the figures are about Engram's part):
- initial sync of N memories to a new device: from A's first `engram sync now` (turning sync on writes an operation
  per field of every memory) until B's `engram search` finds the last memory, with the parts (A's export, Syncthing's
  transfer, B's `sync now` applying and indexing);
- the operations log's size per 1,000 memories, and B's apply throughput (changes per second of its `sync now`);
- steady state, 10 captures: `engram remember` on A, `sync now` on A, scans, `sync now` on B, until B's search finds
  the new word; p50 and max.
Every figure's run is checked: B must hold the same sync digest as A, and find each memory it is timed on.
"""
import json, os, statistics, sys, time

from sync import syncthing as ts

if len(sys.argv) < 3 or not ts.setup(sys.argv[1]):
    sys.exit(__doc__)
CORPUS, N = sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 10000


def du(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def scan_and_wait(a, b):
    for s in (a, b):
        s.rest("POST", "/rest/db/scan?folder=engram")
    ts.wait_in_sync(a, b, timeout=600)


def found(side, word, memory_id=None):
    ids = ts.ids_of(side, word)
    return bool(ids) if memory_id is None else memory_id in ids


def main():
    a, b = ts.pair()
    for s, other in ((a, b), (b, a)):
        s.engram("sync", "setup")
        s.engram("sync", "add-device", other.id, "--name", other.name)
    corpus = os.path.join(ts.RUN.root, "corpus.jsonl")
    last = None
    with open(CORPUS, encoding="utf-8") as src, open(corpus, "w", encoding="utf-8") as dst:
        for i, line in enumerate(src):
            if i == N:
                break
            dst.write(line)
            last = json.loads(line)
    a.engram("import", corpus)
    word = last["id"]  # Debian ids are unique words ("deb-<package>"); searched as a phrase of their parts
    probe = last["content"].split(":", 1)[0]

    t0 = time.monotonic()
    a.engram("sync", "now")
    t_export = time.monotonic() - t0
    log_bytes = du(os.path.join(a.folder, "devices"))
    t1 = time.monotonic()
    scan_and_wait(a, b)
    t_transfer = time.monotonic() - t1
    t2 = time.monotonic()
    out = b.engram("sync", "now").stdout
    t_apply = time.monotonic() - t2
    applied = ts.applied(out)
    if not found(b, '"%s"' % probe, last["id"]):
        ts.fail("B does not find the last memory (%s) after the initial sync" % last["id"])
    t_searchable = time.monotonic() - t0
    da, db = (s.engram("sync", "status", "--digest").stdout.strip() for s in (a, b))
    if da != db:
        ts.fail("the two devices differ after the initial sync: %s / %s" % (da, db))

    latencies = []
    for i in range(10):
        token = "syncbench%dq%d" % (os.getpid(), i)
        start = time.monotonic()
        a.engram("remember", "Steady state capture %s" % token)
        a.engram("sync", "now")
        scan_and_wait(a, b)
        b.engram("sync", "now")
        if not found(b, token):
            ts.fail("B does not find %s after syncing" % token)
        latencies.append((time.monotonic() - start) * 1000)

    r = {"memories": N, "initial_searchable_s": round(t_searchable, 2), "export_s": round(t_export, 2),
         "transfer_s": round(t_transfer, 2), "apply_s": round(t_apply, 2), "applied_changes": applied,
         "apply_changes_per_s": round(applied / t_apply) if t_apply > 0 else None,
         "log_bytes": log_bytes, "log_bytes_per_1000": round(log_bytes * 1000 / N),
         "steady_ms_p50": round(statistics.median(latencies)), "steady_ms_max": round(max(latencies)),
         "load_average": os.getloadavg()}
    print(json.dumps(r))
    print("sync-bench: %d memories searchable on the new device %.1f s after the first `sync now` (export %.1f s, "
          "Syncthing %.1f s, apply and index %.1f s: %d changes, %s/s); log %.2f MB (%.0f KB per 1,000); "
          "capture on A to searchable on B p50 %d ms, max %d ms" % (
              N, t_searchable, t_export, t_transfer, t_apply, applied, r["apply_changes_per_s"], log_bytes / 1e6,
              r["log_bytes_per_1000"] / 1e3, r["steady_ms_p50"], r["steady_ms_max"]))


try:
    main()
finally:
    ts.cleanup()
