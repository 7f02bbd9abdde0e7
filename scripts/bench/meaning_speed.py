#!/usr/bin/python3
"""Meaning search's speed, in one run (part of `make bench`): time to embed the sample collection, query embedding,
brute-force neighbours (the samples and 63,666 random vectors), hybrid search in process, passage throughput, the
GNOME provider round trip with meaning on against words only (alternating, same questions, same daemon build), and
the daemon's RSS with its vectors loaded.

    PYTHONPATH=scripts /usr/bin/python3 -m bench.meaning_speed ENGRAM ENGRAM_BENCH OUT_DIR [QUESTIONS.jsonl]

Runs under dbus-run-session (the daemon is D-Bus-activated from a service file written here). Fails when meaning
search is off (the model is not installed) or when the daemon's answers with meaning on are not Engram's ids.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import dbus

from engramtest import ROOT
from engramtest.bus import NAME, wait_for_no_name
from engramtest.daemon import Daemon
from bench import mcp_recall


def pct(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def fail(msg):
    print(f"meaning_speed: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    # --smoke (make test): 5 questions, 2,000 synthetic vectors, one round each way; every check still made.
    smoke = "--smoke" in sys.argv
    argv = [a for a in sys.argv if a != "--smoke"]
    if len(argv) < 4:
        fail("usage: meaning_speed.py ENGRAM ENGRAM_BENCH OUT_DIR [QUESTIONS.jsonl] [--smoke]")
    engram, bench, out = (os.path.realpath(a) for a in argv[1:4])
    questions_path = argv[4] if len(argv) > 4 else os.path.join(ROOT, "scripts/bench/meaning_questions.jsonl")
    questions = [json.loads(l)["q"] for l in open(questions_path) if l.strip()][:5 if smoke else None]
    synthetic = 2000 if smoke else 63666  # random vectors for the neighbours at the collection's scale
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="engram-meaning-speed.")
    data, config = os.path.join(work, "data"), os.path.join(work, "config")
    os.makedirs(config)
    env = dict(os.environ, ENGRAM_DATA_DIR=data, ENGRAM_CONFIG_DIR=config, TZ="UTC")
    env.pop("ENGRAM_MODEL_DIR", None)
    samples = os.path.join(ROOT, "Samples")
    run = lambda *a: subprocess.run([engram, *a], env=env, capture_output=True, text=True, check=True)
    run("import", f"{samples}/memories.jsonl", f"{samples}/curricula/swift-concurrency.toml", f"{samples}/curricula/spanish-b1.yaml")
    status = json.loads(run("index", "status", "--json").stdout)
    if not status.get("meaning", {}).get("on"):
        fail(f"meaning search is off: {status.get('meaning', {}).get('reason')}")
    t0 = time.monotonic()
    run("index", "embed")
    embed_samples = time.monotonic() - t0
    items = json.loads(run("index", "status", "--json").stdout)["meaning"]["embedded"]

    # The bench collection at scale: its first 10,000 memories (Debian package descriptions, make bench's corpus)
    # embedded by `engram index embed` into a world of their own; 63,666 extrapolated from that rate (each item is
    # embedded on its own; nothing in a pass grows with the collection but the saved batches).
    scale = None
    corpus = os.environ.get("BENCH_CORPUS_10K")
    if corpus and not os.path.exists(corpus):
        fail(f"BENCH_CORPUS_10K names {corpus}, which is not there (bench.run writes it)")
    if corpus:
        expected = sum(1 for l in open(corpus) if l.strip())
        big = os.path.join(work, "big")
        benv = dict(env, ENGRAM_DATA_DIR=os.path.join(big, "data"), ENGRAM_CONFIG_DIR=config)
        subprocess.run([engram, "import", corpus], env=benv, capture_output=True, text=True, check=True)
        t0 = time.monotonic()
        subprocess.run([engram, "index", "embed"], env=benv, capture_output=True, text=True, check=True)
        took = time.monotonic() - t0
        st = json.loads(subprocess.run([engram, "index", "status", "--json"], env=benv, capture_output=True, text=True,
                                       check=True).stdout)["meaning"]
        if st["waiting"] != 0 or st["embedded"] < expected:
            fail(f"engram index embed left some of the {expected:,} unembedded: {st}")
        chars = [len(json.loads(l).get("content", "")) for l in open(corpus) if l.strip()]
        scale = {"items": st["embedded"], "seconds": took, "items_per_s": st["embedded"] / took,
                 "chars_mean": statistics.mean(chars), "long_items": sum(1 for c in chars if c > 2048),
                 "extrapolated_63666_s": 63666 / (st["embedded"] / took)}
        shutil.rmtree(big, ignore_errors=True)

    inproc = json.loads(subprocess.run([bench, "--meaning", "--data-dir", data, "--queries", questions_path,
                                        "--synthetic", str(synthetic)], env=env, capture_output=True, text=True, check=True).stdout)

    # The daemon: D-Bus-activated on this bus, meaning on (the config points at nothing; the built engram finds
    # .build/model) and, for the comparison, the same daemon's words-only answers through [search] semantic = false
    # in a second data folder.
    word_config = os.path.join(work, "config-words")
    os.makedirs(word_config)
    open(os.path.join(word_config, "config.toml"), "w").write("[search]\nsemantic = false\n")
    bus = dbus.SessionBus()
    name = NAME
    times = {"meaning": [], "words": [], "meaning-cold": [], "words-cold": []}
    answers = {"meaning": {}, "words": {}}
    rss = {}
    # One daemon owns the name at a time: rounds alternate between meaning on and words only (same build, same data,
    # same questions), each daemon started fresh, warmed up by one pass, then timed.
    for r in range(1 if smoke else 4):
        for label in (("meaning", "words") if r % 2 == 0 else ("words", "meaning")):
            cfg = config if label == "meaning" else word_config
            daemon = Daemon(engram, dict(env, ENGRAM_CONFIG_DIR=cfg), os.path.join(out, f"daemon-{label}.log"))
            if not daemon.start(bus, timeout=20):
                fail(f"the daemon ({label}) did not take {name}; see daemon-{label}.log")
            proc = daemon.proc
            provider = dbus.Interface(bus.get_object(name, "/org/engram/Engram/SearchProvider"), "org.gnome.Shell.SearchProvider2")
            for timed in (False, True):
                for q in questions:
                    t = time.monotonic()
                    ids = provider.GetInitialResultSet(q.split())
                    provider.GetResultMetas(ids[:5])
                    # The first pass is a new question for this daemon (meaning embeds it); the second is asked again.
                    times[label if timed else label + "-cold"].append((time.monotonic() - t) * 1000)
                    answers[label][q] = [str(i) for i in ids]
            rss[label] = int([l for l in open(f"/proc/{proc.pid}/status") if l.startswith("VmRSS")][0].split()[1]) / 1024
            if daemon.stop(timeout=20) is None:
                fail(f"the daemon ({label}) did not stop on SIGTERM within 20 s")
            wait_for_no_name(bus, name, timeout=10)
    by_meaning = sum(1 for q in questions if answers["meaning"][q] != answers["words"][q])
    # An assistant's recall through `engram mcp` with meaning on (the embedded sample collection), answers checked
    # against `engram search --json`.
    mcp = mcp_recall.measure(engram, env, questions, rounds=1 if smoke else 5)
    if mcp["answers_unlike_engram_search"]:
        fail(f"engram mcp answered {mcp['answers_unlike_engram_search']} questions unlike engram search: {mcp['unlike']}")
    if not any(answers["meaning"].values()):
        fail("the daemon with meaning on answered nothing")

    res = {
        "items": items, "embed_samples_s": embed_samples,
        "query_embed_ms_p50": pct(inproc["queryEmbedMs"], .5),
        "neighbours_ms_p50": pct(inproc["nearestMs"], .5), "neighbours_items": inproc["vectors"],
        "neighbours_63k_ms_p50": pct(inproc["syntheticNearestMs"], .5), "neighbours_63k_ms_p99": pct(inproc["syntheticNearestMs"], .99),
        "vectors_63k_mb": inproc["syntheticMegabytes"],
        "hybrid_ms_p50": pct(inproc["hybridMs"], .5), "hybrid_ms_p99": pct(inproc["hybridMs"], .99),
        "words_ms_p50": pct(inproc["wordsOnlyMs"], .5), "words_ms_p99": pct(inproc["wordsOnlyMs"], .99),
        "passages_per_s": inproc["passagesPerSecond"], "vector_bytes_per_item": inproc["vectorBytesPerItem"],
        "provider_meaning_ms_p50": pct(times["meaning"], .5), "provider_meaning_ms_p99": pct(times["meaning"], .99),
        "provider_words_ms_p50": pct(times["words"], .5), "provider_words_ms_p99": pct(times["words"], .99),
        "provider_meaning_new_ms_p50": pct(times["meaning-cold"], .5), "provider_meaning_new_ms_p99": pct(times["meaning-cold"], .99),
        "provider_words_new_ms_p50": pct(times["words-cold"], .5), "provider_words_new_ms_p99": pct(times["words-cold"], .99),
        "questions": len(questions), "answers_changed_by_meaning": by_meaning,
        "daemon_rss_mb_meaning": rss["meaning"], "daemon_rss_mb_words": rss["words"],
        "mcp_meaning_ms_p50": mcp["p50_ms"], "mcp_meaning_ms_p99": mcp["p99_ms"],
        "load_average": os.getloadavg()[0], "scale": scale,
    }
    json.dump(res, open(os.path.join(out, "meaning-speed.json"), "w"), indent=1)
    lines = [
        "| meaning search (sample collection, release build) | figure |", "|---|---:|",
        f"| time to embed the sample collection ({items} items) | {embed_samples:.1f} s ({items / embed_samples:.0f} items/s) |",
        f"| passage embedding throughput | {res['passages_per_s']:.0f} docs/s |",
    ] + ([
        f"| `engram index embed` of the bench collection's first 10,000 (mean {scale['chars_mean']:.0f} characters, {scale['long_items']} over 2 KB) | {scale['seconds']:.0f} s ({scale['items_per_s']:.1f} items/s) |",
        f"| the whole 63,666-memory collection, extrapolated from that rate | {scale['extrapolated_63666_s'] / 60:.0f} min |",
    ] if scale else []) + [
        f"| query embedding, p50 | {res['query_embed_ms_p50']:.1f} ms |",
        f"| brute-force neighbours, {items} vectors / {synthetic:,} vectors, p50 | {res['neighbours_ms_p50']:.2f} / {res['neighbours_63k_ms_p50']:.1f} ms (p99 {res['neighbours_63k_ms_p99']:.1f}) |",
        f"| hybrid search in process, new question (embedding included), p50 / p99 | {res['hybrid_ms_p50']:.1f} / {res['hybrid_ms_p99']:.1f} ms (words only {res['words_ms_p50']:.2f} / {res['words_ms_p99']:.2f}) |",
        f"| GNOME provider round trip, a new natural question, meaning on, p50 / p99 | {res['provider_meaning_new_ms_p50']:.1f} / {res['provider_meaning_new_ms_p99']:.1f} ms (words only {res['provider_words_new_ms_p50']:.1f} / {res['provider_words_new_ms_p99']:.1f}) |",
        f"| GNOME provider round trip, the question again (its vector kept), p50 / p99 | {res['provider_meaning_ms_p50']:.1f} / {res['provider_meaning_ms_p99']:.1f} ms (words only {res['provider_words_ms_p50']:.1f} / {res['provider_words_ms_p99']:.1f}) |",
        f"| stored vector per item | {res['vector_bytes_per_item']:.0f} bytes ({synthetic:,} in memory: {res['vectors_63k_mb']:.1f} MB) |",
        f"| daemon RSS, vectors loaded / words only | {rss['meaning']:.1f} / {rss['words']:.1f} MB |",
        f"| `engram mcp` query_memory over stdio, meaning on, p50 / p99 | {res['mcp_meaning_ms_p50']:.1f} / {res['mcp_meaning_ms_p99']:.1f} ms |",
        f"| questions whose answer meaning changed | {by_meaning} of {len(questions)} |",
        f"| load average at the end | {res['load_average']:.1f} |",
    ]
    open(os.path.join(out, "meaning-speed.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
