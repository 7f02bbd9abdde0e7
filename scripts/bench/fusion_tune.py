#!/usr/bin/python3
"""Fusion weights tuned on tuning halves only, reported on held-out halves (issue 26, "honest tuning").

Runs after meaning_bench (part of `make bench`), on the Engram worlds it left in OUT (the Debian documents and the
samples, embedded): every question set (Debian synopses, the written Debian questions, the sample questions) is split
into a tuning and a held-out half by a hash of each question (`meaning_bench.half`). Each weight setting of a small
grid (`ENGRAM_BENCH_FUSION`: k, words' weight) searches the tuning halves through the `engram` command; the setting
with the best mean MRR@10 over the tuning halves is then run on the held-out halves, beside the shipped weights.
Nothing here reads a held-out answer before the choice is made.

    PYTHONPATH=scripts /usr/bin/python3 -m bench.fusion_tune [OUT] [--engram BIN]

Writes OUT/fusion-tune.json and prints a Markdown table. Fails when a world is missing or not fully embedded, when
a search fails, or when every setting scores 0 on a tuning half (a broken run, not a ranking).
"""
import argparse
import json
import os
import sys
import time

from bench.meaning_bench import (BenchError, Engram, HERE, MAIN, ROOT, debian_questions, debian_set, half,
                                 samples_set, score)

SHIPPED = (30.0, 1.4)
# The weights before this tuning (k = 15, words at 0.6, tuned on all 56 sample questions), reported beside them.
BEFORE = (15.0, 0.6)
GRID = [(k, w) for k in (30.0, 60.0, 120.0) for w in (0.8, 1.0, 1.4)]


def world(out, name, binary):
    folder = os.path.join(out, name)
    if not os.path.isdir(os.path.join(folder, "data")):
        raise BenchError("no Engram world in %s: run bench.meaning_bench first" % folder)
    e = Engram.__new__(Engram)  # the world as meaning_bench left it (the constructor would empty it)
    e.binary, e.folder = binary, folder
    e.data, e.cfg = os.path.join(folder, "data"), os.path.join(folder, "config")
    e.env = dict(os.environ, ENGRAM_DATA_DIR=e.data, ENGRAM_CONFIG_DIR=e.cfg)
    e.by_meaning = e.results = 0
    meaning = [l for l in e.status().splitlines() if l.startswith("Meaning")]
    if not meaning or "up to date" not in meaning[0]:
        raise BenchError("%s is not fully embedded: %s" % (folder, meaning[0] if meaning else "no meaning line in status"))
    return e


def run(e, queries, known, fusion):
    e.env["ENGRAM_BENCH_FUSION"] = "%g,%g,1,0.07" % fusion
    out = {}
    for q in queries:
        ids, _ = e.search(q["q"], "fusion %s" % (fusion,), known)
        out[q["qid"]] = ids
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default=os.path.join(MAIN, "bench-out/meaning"))
    ap.add_argument("--engram", default=None, help="default: OUT/engram-under-test, the binary meaning_bench measured")
    ap.add_argument("--lists", default="/var/lib/apt/lists")
    ap.add_argument("--docs", type=int, default=3000, help="as meaning_bench was run (its worlds hold these documents)")
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--grid", choices=["all", "shipped"], default="all", help="shipped: the shipped weights only (a smoke run)")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    binary = args.engram or os.path.join(out, "engram-under-test")
    if not os.path.exists(binary):
        raise BenchError("no engram binary at %s" % binary)
    started = time.monotonic()
    docs, syn, meta = debian_set(args.lists, args.docs, args.queries, 12, os.path.join(out, "debian-translation"))
    deb_q = syn + debian_questions(docs, os.path.join(HERE, "debian_questions.jsonl"), missing=meta["missing"])[0]
    s_docs, s_q, _ = samples_set(os.path.join(ROOT, "Samples/memories.jsonl"), os.path.join(HERE, "meaning_questions.jsonl"))
    sets = [("debian", world(out, "engram-debian-e5-small-q4", binary), {d["id"] for d in docs}, deb_q),
            ("samples", world(out, "engram-samples-e5-small-q4", binary), {d["id"] for d in s_docs}, s_q)]

    def halves(which):
        return [(name, e, known, [q for q in qs if half(q) == which]) for name, e, known, qs in sets]

    def groups(queries):
        return sorted({q["group"] for q in queries})

    def mrr_by_group(which, fusion):
        per = {}
        for name, e, known, qs in halves(which):
            ranked = run(e, qs, known, fusion)
            for g in groups(qs):
                per[g] = score(ranked, [q for q in qs if q["group"] == g])["mrr10"]
        return per

    grid = [SHIPPED] if args.grid == "shipped" else GRID
    tuning = {}
    for fusion in grid:
        per = tuning[fusion] = mrr_by_group("tuning", fusion)
        print("tuning k=%g words=%g: %s" % (fusion + ({g: round(v, 3) for g, v in per.items()},)), file=sys.stderr, flush=True)
    names = sorted(next(iter(tuning.values())))
    for g in names:
        if all(tuning[f][g] == 0 for f in grid):
            raise BenchError("every setting scores 0 on %s/tuning: a broken run" % g)
    best = max(grid, key=lambda f: (sum(tuning[f].values()) / len(names), f == SHIPPED))
    held = {fusion: mrr_by_group("held-out", fusion) for fusion in sorted({best, SHIPPED, BEFORE})}
    result = {"grid": [{"k": f[0], "words": f[1], "tuning": tuning[f]} for f in grid],
              "best": {"k": best[0], "words": best[1]}, "shipped": {"k": SHIPPED[0], "words": SHIPPED[1]},
              "held_out": [{"k": f[0], "words": f[1], "held_out": held[f]} for f in held],
              "seconds": round(time.monotonic() - started, 1), "engram": binary}
    with open(os.path.join(out, "fusion-tune.json"), "w") as f:
        json.dump(result, f, indent=1)
    lines = ["| weights (k, words : meaning 1) | " + " | ".join("%s tuning" % g for g in names) + " | mean |",
             "|---|" + "---:|" * (len(names) + 1)]
    for f in grid:
        mark = " **best**" if f == best else (" (shipped)" if f == SHIPPED else "")
        lines.append("| %g, %g%s | " % (f[0], f[1], mark) + " | ".join("%.3f" % tuning[f][g] for g in names)
                     + " | %.3f |" % (sum(tuning[f].values()) / len(names)))
    lines += ["", "| weights | " + " | ".join("%s held-out" % g for g in names) + " |", "|---|" + "---:|" * len(names)]
    for f in held:
        lines.append("| %g, %g%s | " % (f[0], f[1], ", ".join(x for x, y in ((" best on tuning", best), (" shipped", SHIPPED),
                                                                              (" before", BEFORE)) if f == y))
                     + " | ".join("%.3f" % held[f][g] for g in names) + " |")
    print("\n".join(lines))
    print("fusion_tune: %.0f s; wrote %s/fusion-tune.json" % (result["seconds"], out), file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except BenchError as err:
        sys.exit("fusion_tune: FAILED: %s" % err)
