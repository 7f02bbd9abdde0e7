#!/usr/bin/python3
"""Engram's word ranking against plain BM25 on the Debian known-item set, query by query: where Engram ranks a
synopsis's own description lower than python3-xapian's BM25 over OR does, and where higher. A quick loop for
ranking work (about 15 s after a release build); `make bench`'s meaning_bench gives the figures of record.

    PYTHONPATH=scripts /usr/bin/python3 -m bench.words_vs_bm25 [--engram BIN] [--config 'decay_weight = 0']

--config lines go under [search] in the world's config.toml (meaning search is off: words only). Fails when the
engram command fails on a query, or when BM25 finds nothing for every query.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from bench.meaning_bench import BenchError, MAIN, debian_set, engram_jsonl, score, xapian_bm25


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engram", default=os.path.join(MAIN, ".build/release/engram"))
    ap.add_argument("--config", default="", help="lines for [search] in config.toml")
    ap.add_argument("--docs", type=int, default=3000)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--lists", default="/var/lib/apt/lists")
    ap.add_argument("--snapshot", default=os.path.join(MAIN, "bench-out/meaning/debian-translation"))
    args = ap.parse_args()
    docs, queries, _ = debian_set(args.lists, args.docs, args.queries, args.seed, args.snapshot)
    bm25, _ = xapian_bm25(docs, queries, 10)
    work = tempfile.mkdtemp(prefix="engram-words-vs-bm25.")
    try:
        env = dict(os.environ, ENGRAM_DATA_DIR=os.path.join(work, "data"), ENGRAM_CONFIG_DIR=os.path.join(work, "config"),
                   ENGRAM_MODEL_DIR="none", TZ="UTC")
        os.makedirs(env["ENGRAM_CONFIG_DIR"])
        with open(os.path.join(env["ENGRAM_CONFIG_DIR"], "config.toml"), "w") as f:
            f.write("[search]\nsemantic = false\n" + args.config.replace("\\n", "\n") + "\n")
        corpus = os.path.join(work, "debian.jsonl")
        engram_jsonl(docs, corpus)
        subprocess.run([args.engram, "import", corpus], env=env, check=True, capture_output=True)
        engram = {}
        for q in queries:
            out = subprocess.run([args.engram, "search", "--json", "--all", "--kind", "memory", "--limit", "10", "--", q["q"]],
                                 env=env, capture_output=True, text=True)
            if out.returncode != 0:
                raise BenchError("engram search failed for %r: %s" % (q["q"], out.stderr.strip()))
            engram[q["qid"]] = [h["id"] for h in json.loads(out.stdout)["results"]]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    e, b = score(engram, queries), score(bm25, queries)
    if b["recall10"] == 0:
        raise BenchError("BM25 found nothing for every query")
    by_id = {q["qid"]: q for q in queries}
    behind = [qid for qid in e["ranks"] if (e["ranks"][qid] or 99) > (b["ranks"][qid] or 99)]
    ahead = [qid for qid in e["ranks"] if (e["ranks"][qid] or 99) < (b["ranks"][qid] or 99)]
    print("Engram words (%s): MRR@10 %.3f, Recall@10 %.3f, empty %d; BM25 over OR: MRR@10 %.3f, Recall@10 %.3f"
          % (args.config or "config as shipped", e["mrr10"], e["recall10"], e["empty"], b["mrr10"], b["recall10"]))
    print("Engram ranks the answer lower on %d queries, higher on %d:" % (len(behind), len(ahead)))
    for qid in behind:
        print("  %s  Engram %s, BM25 %s  %s" % (qid, e["ranks"][qid] or "-", b["ranks"][qid] or "-", by_id[qid]["q"]))


if __name__ == "__main__":
    try:
        main()
    except BenchError as err:
        sys.exit("words_vs_bm25: %s" % err)
