#!/usr/bin/python3
"""Times GNOME's round trip against a SearchProvider2: GetInitialResultSet, then GetResultMetas of the first 5.

Usage: provider_client.py BUS_NAME QUERIES.jsonl ROUNDS   (prints JSON: per-round-trip milliseconds, and the ids
each query's first round answered, without the engram://memory/ prefix, for comparing providers)
The same client (python-dbus, blocking calls) drives both providers, so its own cost is in both figures.
"""
import json
import sys
import time

import dbus

IFACE = "org.gnome.Shell.SearchProvider2"
PATH = "/org/engram/Engram/SearchProvider"


def main(name, qfile, rounds):
    bus = dbus.SessionBus()
    proxy = bus.get_object(name, PATH, introspect=False)
    provider = dbus.Interface(proxy, IFACE)
    queries = [json.loads(l)["q"].replace('"', "").split() for l in open(qfile) if l.strip()]
    queries = [[w for w in q if ":" not in w] or ["debian"] for q in queries]  # the shell sends plain words
    times, empty, answers = [], 0, []
    for r in range(rounds + 1):
        for terms in queries:
            t = time.perf_counter()
            ids = provider.GetInitialResultSet(terms, timeout=30)
            metas = provider.GetResultMetas(ids[:5], timeout=30) if ids else []
            dt = (time.perf_counter() - t) * 1000
            if len(metas) != min(5, len(ids)):
                raise SystemExit("provider_client: %d metas for %d ids" % (len(metas), min(5, len(ids))))
            if r == 0:
                answers.append([str(i).rsplit("/", 1)[-1] for i in ids])
            if r > 0:  # round 0 warms up
                times.append(dt)
                empty += not ids
    print(json.dumps({"ms": times, "empty": empty, "ids": answers}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
