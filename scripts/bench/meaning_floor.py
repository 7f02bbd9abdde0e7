"""Where meaning search's absolute floor comes from: e5-small's cosine similarities of answers and of non-answers.

    PYTHONPATH=scripts /usr/bin/python3 -m bench.meaning_floor [OUT]      (default OUT: bench-out/meaning-floor)

Meaning search keeps a neighbour only if it is close enough to the question in absolute terms, so that a subject
no memory mentions ("axolotl") or nonsense finds nothing instead of the least unrelated memories. The floor is read
from data, with the model Engram ships (.build/model/e5-small-q4.bin), texts embedded as Engram embeds them:
  - judged answers: each sample question's best judged memory (scripts/bench/meaning_questions.jsonl over
    Samples/memories.jsonl, content and tags as MeaningIndexer embeds them), and each Debian query's own
    description (the meaning bench's known-item set: the seeded 3,000 descriptions and 500 synopses, vectors from
    its cache when it has them);
  - absent subjects: absent_questions.txt, questions on subjects none of the sample memories mentions (checked
    here: none of their content words appears in a memory), and each one's nearest memory;
  - unrelated pairs: every sample question against the memories not judged to answer it.
It prints the distributions' quantiles and, for candidate floors, the share of judged answers kept and of absent
questions answered with nothing, and writes OUT/results.md and results.json.
"""
import argparse
import json
import os
import re
import sys

import numpy as np

from bench.meaning_bench import E5, MAIN, VectorCache, embed_passages, debian_set, sha256_file
from engramtest.report import write_results

HERE = os.path.dirname(os.path.abspath(__file__))


def memory_texts(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        if line.strip():
            m = json.loads(line)
            if m.get("kind") == "memory":
                tags = m.get("tags") or []
                out[m["id"]] = m["content"] + ("\n" + ", ".join(tags) if tags else "")
    return out


def quantiles(xs):
    xs = np.sort(np.asarray(xs))
    return {p: round(float(np.quantile(xs, p / 100)), 4) for p in (0, 1, 5, 10, 50, 90, 95, 99, 100)}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default=os.path.join(MAIN, "bench-out", "meaning-floor"))
    ap.add_argument("--docs", type=int, default=3000, help="the first N named Debian documents (a smoke run: few)")
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--meaning-out", default=os.path.join(MAIN, "bench-out", "meaning"),
                    help="meaning_bench's folder: its vector cache and its copy of the lists")
    args = ap.parse_args(argv)
    out = os.path.abspath(args.out)
    model_dir = os.path.join(MAIN, ".build", "model")
    model = os.path.join(model_dir, "e5-small-q4.bin")
    e5 = E5(os.path.join(model_dir, "libe5.so"), model)
    cache = VectorCache(os.path.join(args.meaning_out, "cache"), sha256_file(model), os.path.join(model_dir, "libe5.so"))

    mems = memory_texts(os.path.join(MAIN, "Samples", "memories.jsonl"))
    ids = sorted(mems)


    mv = np.stack([e5.embed(mems[i], False) for i in ids])
    questions = [json.loads(l) for l in open(os.path.join(HERE, "meaning_questions.jsonl")) if l.strip()]
    qv = np.stack([e5.embed(q["q"], True) for q in questions])
    sims = qv @ mv.T
    judged, unrelated = [], []
    for qi, q in enumerate(questions):
        answers = {ids.index(a) for a in q["answers"]}
        judged.append(max(sims[qi, a] for a in answers))
        unrelated += [sims[qi, j] for j in range(len(ids)) if j not in answers]

    words = set(re.findall(r"[a-z]+", " ".join(mems.values()).lower()))
    absent = [l.strip() for l in open(os.path.join(HERE, "absent_questions.txt")) if l.strip() and not l.startswith("#")]
    stop = set("a an the of in on at to for how do does is are what why when which my i can best with and or from "
               "about should get make long much you your it its be".split())
    shared = {q: sorted(w for w in re.findall(r"[a-z]+", q.lower()) if w not in stop and len(w) > 3 and w in words)
              for q in absent}
    av = np.stack([e5.embed(q, True) for q in absent])
    absent_top = (av @ mv.T).max(axis=1)

    debian = []
    # The Debian set is make bench's (install-deps.sh --bench fetches its lists): a missing one is a failure here,
    # not a silently shorter table.
    docs, queries, _ = debian_set("/var/lib/apt/lists", args.docs, args.queries, 12,
                                  os.path.join(args.meaning_out, "debian-translation"))
    dv = embed_passages(e5, cache, [d["text"] for d in docs], "debian")
    dv = dv[0] if isinstance(dv, tuple) else dv
    index = {d["id"]: i for i, d in enumerate(docs)}
    dq = np.stack([e5.embed(q["q"], True) for q in queries])
    for qi, q in enumerate(queries):
        debian.append(float(dq[qi] @ dv[index[q["answers"][0]]]))

    rows, data = [], {"judged_samples": quantiles(judged), "unrelated_samples": quantiles(unrelated),
                      "absent_top": quantiles(absent_top), "judged_debian": quantiles(debian) if debian else None,
                      "absent": [{"q": q, "top": round(float(t), 4), "shared_words": shared[q]}
                                 for q, t in zip(absent, absent_top)], "candidates": []}
    for floor in np.arange(0.76, 0.84, 0.005):
        c = {"floor": round(float(floor), 3),
             "judged_samples_kept": round(float(np.mean(np.asarray(judged) >= floor)), 3),
             "judged_debian_kept": round(float(np.mean(np.asarray(debian) >= floor)), 3) if debian else None,
             "absent_empty": round(float(np.mean(absent_top < floor)), 3),
             "unrelated_passing": round(float(np.mean(np.asarray(unrelated) >= floor)), 4)}
        data["candidates"].append(c)
        rows.append(f"| {c['floor']:.3f} | {c['judged_samples_kept']:.3f} | {c['judged_debian_kept']} | "
                    f"{c['absent_empty']:.3f} | {c['unrelated_passing']:.4f} |")
    md = ["# Meaning search's absolute floor: the similarities it is read from", "",
          f"{len(questions)} sample questions, {len(ids)} memories, {len(debian)} Debian known-item queries, "
          f"{len(absent)} absent-subject questions (e5-small-q4, cosine).", "",
          "| distribution | min | 1% | 5% | 10% | 50% | 90% | 95% | 99% | max |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, key in [("judged answer (samples)", "judged_samples"), ("judged answer (Debian)", "judged_debian"),
                      ("absent subject's nearest memory", "absent_top"), ("unrelated pair (samples)", "unrelated_samples")]:
        if data[key]:
            md.append(f"| {name} | " + " | ".join(f"{v:.3f}" for v in data[key].values()) + " |")
    md += ["", "| floor | judged kept (samples) | judged kept (Debian) | absent answered with nothing | unrelated pairs above |",
           "|---:|---:|---:|---:|---:|", *rows, "",
           "Absent questions and their nearest memory's similarity:", ""]
    md += [f"- {a['top']:.3f} {a['q']}" + (f" (words also in a memory: {', '.join(a['shared_words'])})" if a["shared_words"] else "")
           for a in sorted(data["absent"], key=lambda a: -a["top"])]
    write_results(out, md, data)
    print("\n".join(md))


if __name__ == "__main__":
    main(sys.argv[1:])
