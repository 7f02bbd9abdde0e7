#!/usr/bin/python3
"""How much of each text meaning search must embed (part of `make bench`): vectors-only quality (MRR@10, Recall@10)
and embedding speed with every passage cut to its first 64, 128, 256 or 512 tokens (e5-small reads at most 512),
and to its lead (first line and sentence), on both quality sets: the sample memories with their natural
questions, and Debian's long descriptions with their synopses as known-item queries.

    PYTHONPATH=scripts /usr/bin/python3 -m bench.passage_length OUT_DIR [--docs 3000] [--queries 500]

Every cut is embedded with the engine's batch call (16 texts a call, as Engram's background pass does) and cached by
text in OUT_DIR/cache (shared with bench.meaning_bench when OUT_DIR is its folder). Speed is measured on the same 300
documents for every cut, embedded again (never from the cache), cuts alternating over two rounds. The full-text row
is the baseline: a cut is acceptable when it loses at most 0.01 MRR@10 on both sets against it.

Fails when a set has no questions, when a cut text is not a prefix of its document, when a cut has more tokens than
asked, or when the baseline row finds nothing.
"""
import argparse
import ctypes
import json
import os
import re
import sys
import time

import numpy as np

from bench.meaning_bench import (E5, BenchError, VectorCache, debian_set, embed_passages, log, samples_set, score,
                                 sha256_file, vector_search, MAIN, ROOT, HERE)

CUTS = [64, 128, 256, 512]
# e5-small's arithmetic per token: 12 layers of Q, K, V, output (384 x 384 each) and the feed-forward pair
# (384 x 1536 twice), a multiply and an add per weight (attention's share, under 3% at these lengths, is left out).
FLOPS_PER_TOKEN = 2 * 12 * (4 * 384 * 384 + 2 * 384 * 1536)


def machine_peak_gflops():
    """These cores' fp32 peak: per core two 8-wide FMA units (AVX2), 32 FLOP a cycle, at /proc/cpuinfo's clock.
    The engine multiplies int8 (vpmaddubsw: 32 multiply-adds an instruction), so its own ceiling is higher."""
    mhz = [float(l.split(":")[1]) for l in open("/proc/cpuinfo") if l.startswith("cpu MHz")]
    return round(len(mhz) * max(mhz) * 1e6 * 32 / 1e9, 1) if mhz else None


def token_count(e5, text):
    return e5.lib.e5_token_count(e5.m, text.encode("utf-8"), 0)


def cut_to_tokens(e5, text, limit):
    """The longest prefix of text, ending at a word boundary, whose passage has at most `limit` tokens
    (specials and the "passage: " prefix included)."""
    if token_count(e5, text) <= limit:
        return text
    ends = [m.start() for m in re.finditer(r"\s+", text)] + [len(text)]
    lo, hi = 0, len(ends) - 1  # ends[lo] fits (or lo = 0 and nothing fits but the first word)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if token_count(e5, text[:ends[mid]]) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return text[:ends[lo]]


def lead(text):
    """The first line, and the first sentence after it when the first line is short (a title)."""
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    if not lines:
        return text
    first = lines[0]
    rest = " ".join(lines[1:])
    sentence = re.split(r"(?<=[.!?])\s", rest, maxsplit=1)[0] if rest else ""
    out = first if len(first) > 80 or not sentence else first + "\n" + sentence
    return re.split(r"(?<=[.!?])\s", out, maxsplit=1)[0] if len(first) > 80 else out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default=os.path.join(MAIN, "bench-out/meaning"))
    ap.add_argument("--docs", type=int, default=3000)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--speed-docs", type=int, default=300)
    ap.add_argument("--model-dir", default=os.path.join(MAIN, ".build/model"))
    ap.add_argument("--lists", default="/var/lib/apt/lists")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    model = os.path.join(args.model_dir, "e5-small-q4.bin")
    e5 = E5(os.path.join(args.model_dir, "libe5.so"), model)
    e5.lib.e5_token_count.restype = ctypes.c_int
    e5.lib.e5_token_count.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    cache = VectorCache(os.path.join(out, "cache"), sha256_file(model), os.path.join(args.model_dir, "libe5.so"))
    sets = {
        "samples": samples_set(os.path.join(ROOT, "Samples/memories.jsonl"), os.path.join(HERE, "meaning_questions.jsonl")),
        "debian": debian_set(args.lists, args.docs, args.queries, args.seed, os.path.join(out, "debian-translation")),
    }
    results = {"model_sha256": sha256_file(model), "sets": {}}
    lines = ["| set | passage | tokens per doc, mean / max | MRR@10 | Recall@10 | Δ MRR@10 vs full | docs/s (same %d docs) "
             "| tokens/s | GFLOP/s |" % args.speed_docs, "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, (docs, queries, meta) in sets.items():
        if not queries:
            raise BenchError("%s: no questions" % name)
        ids = [d["id"] for d in docs]
        full = [d["text"] for d in docs]
        variants = {"whole text (512-token windows averaged)": full}
        for n in CUTS:
            variants["first %d tokens" % n] = [cut_to_tokens(e5, t, n) for t in full]
        variants["lead (first line and sentence)"] = [lead(t) for t in full]
        qvecs = np.stack([e5.embed(q["q"], True) for q in queries])
        rows = {}
        for label, texts in variants.items():
            for t, f in zip(texts, full):
                if not f.startswith(t) and label.startswith("first"):
                    raise BenchError("%s: a cut text is not a prefix of its document: %r" % (name, t[:60]))
            counts = [token_count(e5, t) for t in texts]
            if label.startswith("first") and max(counts) > int(label.split()[1]):
                raise BenchError("%s %s: a passage has %d tokens" % (name, label, max(counts)))
            mat, _, _ = embed_passages(e5, cache, texts, "%s %s" % (name, label))
            s = score(vector_search(ids, mat, qvecs, queries, 10), queries)
            rows[label] = {"mrr10": s["mrr10"], "recall10": s["recall10"], "tokens_mean": round(float(np.mean(counts)), 1),
                           "tokens_max": max(counts)}
        base = rows["whole text (512-token windows averaged)"]
        if base["recall10"] == 0:
            raise BenchError("%s: the full-text row finds nothing" % name)
        # speed: the same documents for every cut, embedded afresh, cuts alternating over two rounds
        pick = list(range(0, len(docs), max(1, len(docs) // args.speed_docs)))[:args.speed_docs]
        took = {label: 0.0 for label in variants}
        for _round in range(2):
            for label, texts in (variants.items() if _round == 0 else reversed(list(variants.items()))):
                chunk = [texts[i] for i in pick]
                t = time.perf_counter()
                for i in range(0, len(chunk), 16):
                    E5.check(e5.embed_batch(chunk[i:i + 16], False), label)
                took[label] += time.perf_counter() - t
        for label, r in rows.items():
            r["docs_per_s"] = round(2 * len(pick) / took[label], 1)
            tokens = sum(token_count(e5, variants[label][i]) for i in pick)
            r["tokens_per_s"] = round(2 * tokens / took[label])
            r["gflops"] = round(FLOPS_PER_TOKEN * r["tokens_per_s"] / 1e9, 1)
            r["delta_mrr10"] = round(r["mrr10"] - base["mrr10"], 4)
            lines.append("| %s | %s | %.0f / %d | %.3f | %.3f | %+.3f | %.1f | %d | %.1f |" % (
                name, label, r["tokens_mean"], r["tokens_max"], r["mrr10"], r["recall10"], r["delta_mrr10"], r["docs_per_s"],
                r["tokens_per_s"], r["gflops"]))
        results["sets"][name] = {"meta": meta, "rows": rows}
        log("passage_length: %s done" % name)
    cache.save()
    ok = [label for label in results["sets"]["samples"]["rows"]
          if all(results["sets"][s]["rows"][label]["delta_mrr10"] >= -0.01 for s in results["sets"])]
    shortest = min(ok, key=lambda l: results["sets"]["debian"]["rows"][l]["tokens_mean"])
    results["shortest_within_0.01"] = shortest
    results["machine_fp32_peak_gflops"] = machine_peak_gflops()
    lines.append("")
    lines.append("GFLOP/s counts %.1f MFLOP per token; these %d cores' fp32 peak (AVX2 FMA at /proc/cpuinfo's clock) is %s "
                 "GFLOP/s." % (FLOPS_PER_TOKEN / 1e6, os.cpu_count(), results["machine_fp32_peak_gflops"]))
    lines.append("Shortest passage losing at most 0.01 MRR@10 on both sets: **%s**." % shortest)
    with open(os.path.join(out, "passage-length.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(out, "passage-length.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    try:
        main()
    except BenchError as e:
        sys.exit("passage_length: %s" % e)
