#!/usr/bin/python3
"""Recall by meaning: a quality benchmark for words, meaning and both (issue 12).

Two sets, one run, the same documents for every row:

* debian: documents are Debian's long package descriptions (the unique ones, by Description-md5, without their
  synopsis line), the 3,000 named in debian_corpus.txt; queries are the synopses of the 500 it marks, and the
  written questions in debian_questions.jsonl; the judged answer to a query is its own description. MRR@10 and
  Recall@10. A named description missing from this machine's lists is left out with its queries, and said.
* samples: the natural questions in meaning_questions.jsonl over Samples/memories.jsonl, each with every memory
  that answers it. success@5 and MRR@10 (rank of the first judged memory).

Rows: python3-xapian BM25 over OR (English stemmer, stopwords), SQLite FTS5 bm25 (OR of the query words), the
e5-small model alone (brute-force cosine; each model file), naive reciprocal rank fusion of the two (a reference
point, k=60), and the `engram` command with meaning off ("Engram today") and on ("Engram hybrid").

Usage: meaning_bench.py [OUT] [--docs N] [--queries N] [--seed S] [--only debian|samples] [--skip-engram] ...
Exits non-zero, saying why, when a row's output is malformed or the model's vectors are wrong.
"""
import argparse
import ctypes
import glob
import gzip
import hashlib
import json
import lzma
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

import numpy as np
import xapian

from bench.timing import release_date
from engramtest.report import write_results

from engramtest import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))


def build_root():
    """The checkout whose .build/ holds the engram binary and the model: this one, else git's main worktree."""
    if os.path.isdir(os.path.join(ROOT, ".build")):
        return ROOT
    try:
        out = subprocess.run(["git", "-C", ROOT, "worktree", "list", "--porcelain"], capture_output=True, text=True).stdout
        first = next((l[len("worktree "):] for l in out.splitlines() if l.startswith("worktree ")), None)
        if first and os.path.isdir(os.path.join(first, ".build")):
            return first
    except OSError:
        pass
    return ROOT


MAIN = build_root()
DIM = 384
RRF_K = 60

# Snowball's English stop word list (the one Xapian's own examples use), lower case.
STOPWORDS = set("""
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it
its itself they them their theirs themselves what which who whom this that these those am is are was were be been
being have has had having do does did doing would should could ought i'm you're he's she's it's we're they're i've
you've we've they've i'd you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll they'll isn't aren't wasn't
weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't shan't shouldn't can't cannot couldn't mustn't
let's that's who's what's here's there's when's where's why's how's a an the and but if or because as until while of
at by for with about against between into through during before after above below to from up down in out on off over
under again further then once here there when where why how all any both each few more most other some such no nor
not only own same so than too very
""".split())


class BenchError(Exception):
    """A row's output is malformed or a check failed: the run fails with this reason."""


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def pct(values, p):
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100.0 * len(s) + 0.5)) - 1))]


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_text(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------------------------
# Debian descriptions

def translation_files(lists_dir):
    files = []
    for p in sorted(glob.glob(os.path.join(lists_dir, "*_i18n_Translation-en*"))):
        if p.endswith((".lz4", ".gz", ".xz")) or re.search(r"Translation-en$", p):
            files.append(p)
    return files


def read_compressed(path):
    if path.endswith(".lz4"):
        try:
            import lz4.frame  # python3-lz4, if present
            with open(path, "rb") as f:
                return lz4.frame.decompress(f.read()).decode("utf-8", "replace")
        except ImportError:
            pass
        if not shutil.which("lz4"):
            raise BenchError("%s is lz4-compressed and neither the lz4 command (Debian package lz4) nor python3-lz4 "
                             "is installed" % path)
        r = subprocess.run(["lz4", "-dc", path], capture_output=True)
        if r.returncode != 0:
            raise BenchError("lz4 -dc %s failed: %s" % (path, r.stderr.decode(errors="replace").strip()))
        return r.stdout.decode("utf-8", "replace")
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    if path.endswith(".xz"):
        with lzma.open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "replace")


def parse_translation(text):
    """(package, md5, synopsis, long description) for each stanza with a long description."""
    out = []
    for stanza in text.split("\n\n"):
        pkg = md5 = syn = None
        body = []
        in_desc = False
        for line in stanza.split("\n"):
            if not line:
                continue
            if line[0] in " \t":
                if in_desc:
                    t = line[1:].rstrip()
                    body.append("" if t.strip() == "." else t)
                continue
            key, _, value = line.partition(":")
            in_desc = key.startswith("Description-")
            if key == "Package":
                pkg = value.strip()
            elif key == "Description-md5":
                md5 = value.strip()
            elif in_desc:
                syn = value.strip()
        long_text = "\n".join(body).strip()
        if pkg and md5 and syn and long_text:
            out.append((pkg, md5, syn, long_text))
    return out


CORPUS = os.path.join(HERE, "debian_corpus.txt")
CORPUS_HEAD = """\
# The Debian quality set of make bench, named by content: one document per line, its Description-md5 (the md5 of the
# description as Debian's Translation-en files carry it), its package, and "q" when its synopsis is one of the
# queries. The bench builds the texts from the apt lists it finds; a description gone from them (a point release
# changed or dropped it) is left out, with every query and written question that needs it, and both counts are
# reported beside the figures. Written once by `meaning_bench.py --write-corpus` (seed %d, %d documents, %d
# synopsis queries, every package debian_questions.jsonl names); never rewritten to follow apt.
"""


def debian_pool(lists_dir, snapshot_dir):
    """Every unique Debian description in the Translation-en files found, by Description-md5: {md5: (package, md5,
    synopsis, long text)}, with the files' record. The files are copied into snapshot_dir, and that copy is used when
    apt's lists no longer have them (a plain `apt-get update` removes them)."""
    files = translation_files(lists_dir)
    source = "apt lists"
    if files:
        os.makedirs(snapshot_dir, exist_ok=True)
        for old in glob.glob(os.path.join(snapshot_dir, "*")):
            os.remove(old)
        for p in files:
            shutil.copy2(p, snapshot_dir)
            if os.path.exists(release_file(p)):
                shutil.copy2(release_file(p), snapshot_dir)
    else:
        files = translation_files(snapshot_dir)
        source = "copy in %s (apt's lists have none now)" % snapshot_dir
        if files:
            log("meaning_bench: no Translation-en files in %s; using the copy from an earlier run in %s" % (lists_dir, snapshot_dir))
    if not files:
        raise BenchError("no Translation-en files in %s: run `apt-get update -o Acquire::Languages=en` first" % lists_dir)
    records = []
    for p in files:
        records += parse_translation(read_compressed(p))
    # Unique by Description-md5 (the same description under several packages counts once: the lowest package
    # name speaks for it), then unique by the long text itself (two synopses over one identical body could not
    # be told apart by any ranking; the lowest md5 keeps it).
    by_md5 = {}
    for pkg, md5, syn, body in sorted(records):
        by_md5.setdefault(md5, (pkg, md5, syn, body))
    by_text = {}
    for md5 in sorted(by_md5):
        r = by_md5[md5]
        by_text.setdefault(r[3], r)
    pool = {r[1]: r for r in by_text.values()}
    meta = {"files": [{"path": p, "sha256": sha256_file(p), "date": release_date(release_file(p))} for p in files], "source": source,
            "stanzas": len(records), "unique_md5": len(by_md5), "unique_text": len(pool)}
    return pool, meta


def release_file(path):
    """The Release file a Translation file came with (apt keeps it beside it, as …_InRelease)."""
    return os.path.join(os.path.dirname(path),
                        re.sub(r"_[^_]+_i18n_Translation-en.*$", "_InRelease", os.path.basename(path)))


def read_corpus(path=CORPUS):
    """The named documents: [(md5, package, is_query)] in the file's order."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split()
            if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "q") or not re.fullmatch(r"[0-9a-f]{32}", parts[0]):
                raise BenchError("%s:%d: expected \"MD5 PACKAGE [q]\", read %r" % (path, n, line.rstrip("\n")))
            out.append((parts[0], parts[1], len(parts) == 3))
    return out


def debian_set(lists_dir, n_docs, n_queries, seed, snapshot_dir, corpus=CORPUS):
    """The documents and queries: the corpus file's named descriptions found in the lists (the first n_docs of
    them when n_docs is smaller, for a smoke run) and the synopses of those marked "q" (at most n_queries). The
    meta says how many were named and how many found, and names the first that were not. seed only matters to
    --write-corpus."""
    pool, meta = debian_pool(lists_dir, snapshot_dir)
    named = read_corpus(corpus)
    if 0 < n_docs < len(named):
        named = named[:n_docs]
    found = [(pool[m], q) for m, _, q in named if m in pool]
    missing = [p for m, p, _ in named if m not in pool]
    found.sort(key=lambda r: r[0][1])
    docs = [{"id": "d%05d" % (i + 1), "package": r[0], "md5": r[1], "synopsis": r[2], "text": r[3]}
            for i, (r, _) in enumerate(found)]
    queries = [{"qid": "q%03d" % (i + 1), "q": d["synopsis"], "answers": [d["id"]], "package": d["package"],
                "group": "synopses"} for i, d in enumerate(d for d, (_, q) in zip(docs, found) if q)][:n_queries]
    named_queries = sum(1 for _, _, q in named if q)
    if not docs:
        raise BenchError("none of the %d descriptions %s names is in the Translation-en files found (%s)"
                         % (len(named), os.path.relpath(corpus, ROOT), meta["source"]))
    meta.update({"corpus": os.path.relpath(corpus, ROOT), "named_docs": len(named), "docs": len(docs),
                 "missing_docs": len(missing), "missing_packages": missing[:20], "missing": missing, "named_queries": min(named_queries, n_queries),
                 "queries": len(queries), "doc_chars_mean": round(statistics.mean(len(d["text"]) for d in docs), 1)})
    if missing:
        log("meaning_bench: %d of the %d named descriptions are not in the lists found (first: %s); they and the "
            "queries that need them are left out" % (len(missing), len(named), ", ".join(missing[:5])))
    return docs, queries, meta


def write_corpus(lists_dir, snapshot_dir, path, n_docs, n_queries, seed, questions_path):
    """Names the Debian set once: a seeded sample of the unique descriptions, every package the written questions
    name, and a seeded sample of them whose synopses are queries."""
    pool, _ = debian_pool(lists_dir, snapshot_dir)
    by_package = {r[0]: r for r in pool.values()}
    wanted = []
    for n, q in read_jsonl(questions_path):
        if q.get("package") not in by_package:
            raise BenchError("%s:%d: package %r has no unique description in the lists" % (questions_path, n, q.get("package")))
        wanted.append(by_package[q["package"]][1])
    rng = random.Random(seed)
    rest = sorted(set(pool) - set(wanted))
    chosen = sorted(set(wanted) | set(rng.sample(rest, n_docs - len(set(wanted)))))
    queries = set(random.Random(seed * 1000003 + 17).sample(chosen, n_queries))
    with open(path, "w", encoding="utf-8") as f:
        f.write(CORPUS_HEAD % (seed, n_docs, n_queries))
        for m in chosen:
            f.write("%s %s%s\n" % (m, pool[m][0], " q" if m in queries else ""))
    log("meaning_bench: named %d documents (%d for the written questions) and %d queries in %s" % (
        len(chosen), len(set(wanted)), len(queries), path))


def debian_availability(meta):
    """One sentence: how much of the named set the lists had, and what was left out."""
    dates = sorted({f["date"] for f in meta.get("files", []) if f.get("date")})
    text = "Of the %d descriptions %s names, %d were in the lists (%s%s); %d of %d synopsis queries" % (
        meta["named_docs"], meta["corpus"], meta["docs"], meta["source"],
        ", dated " + " / ".join(dates) if dates else "", meta["queries"], meta["named_queries"])
    if "written_questions" in meta:
        text += " and %d of %d written questions" % (
            meta["written_questions"], meta["written_questions"] + meta.get("written_questions_left_out", 0))
    text += " could be asked."
    if meta["missing_docs"]:
        text += " Not found: %s%s." % (", ".join(meta["missing_packages"][:10]), "…" if meta["missing_docs"] > 10 else "")
    return text


def debian_questions(docs, path, corpus=CORPUS, missing=()):
    """The written questions over the Debian documents (scripts/bench/debian_questions.jsonl): what a person with a need
    would ask, written by a helper from a package's long description alone, never its name or synopsis, before any
    ranking saw them. The judged answer is the package's description. A question whose package is named in the
    corpus but missing from the lists (debian_set's meta["missing"]) is left out, returned second by package; one
    outside a smaller set (--docs) is not asked; one whose package the corpus does not name is an error."""
    by_package = {d["package"]: d["id"] for d in docs}
    named = {p for _, p, _ in read_corpus(corpus)}
    out, left_out = [], []
    for n, q in read_jsonl(path):
        if not q.get("q") or q.get("package") not in named:
            raise BenchError("%s:%d: needs \"q\" and a \"package\" that %s names" % (path, n, os.path.relpath(corpus, ROOT)))
        if q["package"] not in by_package:
            if q["package"] in missing:
                left_out.append(q["package"])
            continue
        out.append({"qid": "w%03d" % n, "q": q["q"], "answers": [by_package[q["package"]]], "package": q["package"],
                    "group": "questions"})
    return out, left_out


def read_jsonl(path):
    """(line number, object) for each non-blank line of a JSON Lines file."""
    with open(path, encoding="utf-8") as f:
        return [(n, json.loads(line)) for n, line in enumerate(f, 1) if line.strip()]


def half(q):
    """The tuning or held-out half a query belongs to, fixed by its text's hash: tuning happens on one half only, and
    the other half reports."""
    return "tuning" if int(hashlib.sha256(q["q"].encode()).hexdigest(), 16) % 2 == 0 else "held-out"


def group_scores(rankings, queries):
    """MRR@10 (and success@5, Recall@10) per query group and per half of each group."""
    out = {}
    for g in sorted({q.get("group", "all") for q in queries}):
        mine = [q for q in queries if q.get("group", "all") == g]
        for name, subset in ((g, mine), (g + "/tuning", [q for q in mine if half(q) == "tuning"]),
                             (g + "/held-out", [q for q in mine if half(q) == "held-out"])):
            if subset:
                sc = score(rankings, subset)
                del sc["ranks"]
                out[name] = sc
    return out


# ---------------------------------------------------------------------------------------------------------------
# Samples

def samples_set(memories_path, questions_path):
    docs = [{"id": m["id"], "text": m["content"]} for _, m in read_jsonl(memories_path) if m.get("kind") == "memory"]
    known = {d["id"] for d in docs}
    queries = []
    for n, q in read_jsonl(questions_path):
        if not q.get("q") or not q.get("answers"):
            raise BenchError("%s:%d: needs \"q\" and a non-empty \"answers\"" % (questions_path, n))
        unknown = [a for a in q["answers"] if a not in known]
        if unknown:
            raise BenchError("%s:%d: answers %s are not memories in %s" % (questions_path, n, unknown, memories_path))
        queries.append({"qid": "n%02d" % n, "q": q["q"], "answers": list(q["answers"]), "group": "samples"})
    return docs, queries, {"memories": len(docs), "questions": len(queries),
                           "questions_sha256": sha256_file(questions_path)}


# ---------------------------------------------------------------------------------------------------------------
# Baselines: each returns {qid: [doc id, ...]} best first

def xapian_bm25(docs, queries, depth):
    db = xapian.WritableDatabase("", xapian.DB_BACKEND_INMEMORY)
    stem = xapian.Stem("en")
    tg = xapian.TermGenerator()
    tg.set_stemmer(stem)
    for d in docs:
        doc = xapian.Document()
        tg.set_document(doc)
        tg.index_text(d["text"])
        doc.add_boolean_term("Q" + d["id"])
        doc.set_data(d["id"])
        db.add_document(doc)
    stopper = xapian.SimpleStopper()
    for w in sorted(STOPWORDS):
        stopper.add(w)
    qp = xapian.QueryParser()
    qp.set_stemmer(stem)
    qp.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
    qp.set_stopper(stopper)
    qp.set_default_op(xapian.Query.OP_OR)
    qp.set_database(db)
    enquire = xapian.Enquire(db)
    enquire.set_weighting_scheme(xapian.BM25Weight())
    out, times = {}, []
    for q in queries:
        t = time.perf_counter()
        try:
            query = qp.parse_query(q["q"], 0)
        except xapian.QueryParserError:
            query = xapian.Query(xapian.Query.OP_OR, [xapian.Query(w) for w in re.findall(r"\w+", q["q"].lower())])
        enquire.set_query(query)
        out[q["qid"]] = [m.document.get_data().decode() for m in enquire.get_mset(0, depth)]
        times.append(time.perf_counter() - t)
    return out, times


def fts5_bm25(docs, queries, depth):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE d USING fts5(id UNINDEXED, body, tokenize='porter unicode61')")
    db.executemany("INSERT INTO d(rowid, id, body) VALUES (?,?,?)", [(i + 1, d["id"], d["text"]) for i, d in enumerate(docs)])
    out, times = {}, []
    for q in queries:
        words = []
        for w in re.findall(r"\w+", q["q"].lower()):
            if w not in words:
                words.append(w)
        t = time.perf_counter()
        if not words:
            out[q["qid"]] = []
            continue
        match = " OR ".join('"%s"' % w.replace('"', '""') for w in words)
        rows = db.execute("SELECT id FROM d WHERE d MATCH ? ORDER BY bm25(d), rowid LIMIT ?", (match, depth)).fetchall()
        out[q["qid"]] = [r[0] for r in rows]
        times.append(time.perf_counter() - t)
    return out, times


def rrf(lists, depth, k=RRF_K):
    """Naive reciprocal rank fusion of several {qid: ranking}."""
    out = {}
    for qid in lists[0]:
        score = {}
        for ranking in lists:
            for r, doc in enumerate(ranking.get(qid, [])):
                score[doc] = score.get(doc, 0.0) + 1.0 / (k + r + 1)
        out[qid] = [d for d, _ in sorted(score.items(), key=lambda x: (-x[1], x[0]))][:depth]
    return out


# ---------------------------------------------------------------------------------------------------------------
# The e5 engine through ctypes

class E5:
    def __init__(self, lib_path, model_path):
        self.lib = ctypes.CDLL(lib_path)
        L = self.lib
        L.e5_load.restype = ctypes.c_void_p
        L.e5_load.argtypes = [ctypes.c_char_p]
        L.e5_dim.restype = ctypes.c_int
        L.e5_dim.argtypes = [ctypes.c_void_p]
        L.e5_embed.restype = ctypes.c_int
        L.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
        L.e5_embed_batch.restype = ctypes.c_int
        L.e5_embed_batch.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, ctypes.c_int,
                                     ctypes.POINTER(ctypes.c_float)]
        L.e5_free.argtypes = [ctypes.c_void_p]
        self.path = model_path
        t = time.perf_counter()
        self.m = L.e5_load(model_path.encode())
        self.load_ms = (time.perf_counter() - t) * 1000
        if not self.m:
            raise BenchError("e5_load(%s) failed" % model_path)
        self.dim = L.e5_dim(self.m)
        if self.dim != DIM:
            raise BenchError("%s: e5_dim is %d, expected %d" % (model_path, self.dim, DIM))

    @staticmethod
    def check(vecs, what):
        if vecs.ndim != 2 or vecs.shape[1] != DIM:
            raise BenchError("%s: vectors have shape %s, expected (n, %d)" % (what, vecs.shape, DIM))
        if not np.all(np.isfinite(vecs)):
            raise BenchError("%s: a vector has NaN or infinite components" % what)
        norms = np.linalg.norm(vecs, axis=1)
        bad = np.where(np.abs(norms - 1.0) > 1e-3)[0]
        if len(bad):
            raise BenchError("%s: %d vectors are not unit length (e.g. norm %.4f)" % (what, len(bad), norms[bad[0]]))

    def embed(self, text, is_query):
        out = np.zeros(DIM, dtype=np.float32)
        rc = self.lib.e5_embed(self.m, text.encode("utf-8"), 1 if is_query else 0,
                               out.ctypes.data_as(ctypes.POINTER(ctypes.c_float)))
        if rc != 0:
            raise BenchError("e5_embed returned %d for %r" % (rc, text[:60]))
        return out

    def embed_batch(self, texts, is_query):
        n = len(texts)
        out = np.zeros((n, DIM), dtype=np.float32)
        if n == 0:
            return out
        arr = (ctypes.c_char_p * n)(*[t.encode("utf-8") for t in texts])
        rc = self.lib.e5_embed_batch(self.m, arr, n, 1 if is_query else 0,
                                     out.ctypes.data_as(ctypes.POINTER(ctypes.c_float)))
        if rc != 0:
            raise BenchError("e5_embed_batch returned %d" % rc)
        return out


class VectorCache:
    """Passage vectors keyed by (model file sha256, engine sha256, text sha256), kept in
    OUT/cache/e5-passages-<model sha256>-<engine sha256 prefix>.npz: another build of libe5.so (other compiler flags)
    gives vectors that differ in the third decimal, which the re-embedding check would take for a stale cache."""

    def __init__(self, folder, model_sha, engine):
        os.makedirs(folder, exist_ok=True)
        self.path = os.path.join(folder, "e5-passages-%s-%s.npz" % (model_sha, sha256_file(engine)[:16]))
        self.vecs = {}
        if os.path.exists(self.path):
            try:
                z = np.load(self.path)
                for k, v in zip(z["keys"], z["vecs"]):
                    self.vecs[str(k)] = v
            except Exception as e:  # a torn cache is recomputed, not trusted
                log("meaning_bench: ignoring unreadable cache %s (%s)" % (self.path, e))
                self.vecs = {}

    def save(self):
        keys = sorted(self.vecs)
        tmp = self.path + ".tmp.npz"
        np.savez(tmp, keys=np.array(keys), vecs=np.stack([self.vecs[k] for k in keys]).astype(np.float32))
        os.replace(tmp, self.path)


def embed_passages(e5, cache, texts, label, batch=16):
    keys = [sha256_text(t) for t in texts]
    todo = sorted({k: t for k, t in zip(keys, texts) if k not in cache.vecs}.items())
    took = 0.0
    if todo:
        log("meaning_bench: %s: embedding %d passages with %s (cached: %d)" %
            (label, len(todo), os.path.basename(e5.path), len(texts) - len(todo)))
        last_save = time.monotonic()
        for i in range(0, len(todo), batch):
            chunk = todo[i:i + batch]
            t = time.perf_counter()
            vecs = e5.embed_batch([c[1] for c in chunk], False)
            took += time.perf_counter() - t
            E5.check(vecs, label)
            for (k, _), v in zip(chunk, vecs):
                cache.vecs[k] = v
            if time.monotonic() - last_save > 60 or i + batch >= len(todo):
                cache.save()
                last_save = time.monotonic()
                log("meaning_bench: %s: %d/%d (%.1f docs/s)" % (label, min(i + batch, len(todo)), len(todo),
                                                                  min(i + batch, len(todo)) / max(took, 1e-9)))
    mat = np.stack([cache.vecs[k] for k in keys])
    E5.check(mat, label + " (cached)")
    return mat, len(todo), took


def vector_search(doc_ids, doc_mat, qvecs, queries, depth):
    scores = qvecs @ doc_mat.T
    out = {}
    for i, q in enumerate(queries):
        order = np.argsort(-scores[i], kind="stable")[:depth]
        out[q["qid"]] = [doc_ids[j] for j in order]
    return out


# ---------------------------------------------------------------------------------------------------------------
# The engram command

def engram_binary(explicit):
    if explicit:
        return explicit
    rel = os.path.join(MAIN, ".build/release/engram")
    dbg = os.path.join(MAIN, ".build/debug/engram")
    if os.path.exists(rel) and (not os.path.exists(dbg) or os.path.getmtime(rel) >= os.path.getmtime(dbg)):
        return rel
    return dbg if os.path.exists(dbg) else None


def engram_jsonl(docs, path):
    with open(path, "w", encoding="utf-8") as f:
        for d in docs:
            f.write(json.dumps({"kind": "memory", "id": d["id"], "content": d["text"], "type": "note", "tags": [],
                                "context": "", "created": "2026-01-01T00:00:00Z", "updated": "2026-01-01T00:00:00Z",
                                "lastReinforced": "2026-11-20T00:00:00Z", "useCount": 0, "pinned": True,
                                "source": "bench"}, ensure_ascii=False) + "\n")


class Engram:
    def __init__(self, binary, folder, semantic, model=None, model_dir=None):
        self.binary = binary
        self.folder = folder
        if os.path.exists(folder):
            shutil.rmtree(folder)
        self.data = os.path.join(folder, "data")
        self.cfg = os.path.join(folder, "config")
        for p in (self.data, self.cfg):
            os.makedirs(p, mode=0o700)
        with open(os.path.join(self.cfg, "config.toml"), "w") as f:
            f.write("[search]\nsemantic = %s\n" % ("true" if semantic else "false"))
            if model:
                f.write('model = "%s"\n' % model)
            if model_dir:
                f.write('model_dir = "%s"\n' % model_dir)
        self.env = dict(os.environ, ENGRAM_DATA_DIR=self.data, ENGRAM_CONFIG_DIR=self.cfg)
        self.by_meaning = self.results = 0

    def run(self, args, timeout=600):
        t = time.perf_counter()
        r = subprocess.run([self.binary] + args, env=self.env, capture_output=True, timeout=timeout)
        return r, time.perf_counter() - t

    def import_(self, path, label):
        r, took = self.run(["import", "--data-dir", self.data, path], timeout=3600)
        if r.returncode != 0:
            raise BenchError("%s: engram import exited %d: %s" % (label, r.returncode, r.stderr.decode(errors="replace")[-2000:]))
        return took, r.stdout.decode(errors="replace").strip()

    def status(self):
        r, _ = self.run(["index", "status", "--data-dir", self.data], timeout=600)
        if r.returncode != 0:  # older builds may not take --data-dir here; the environment says it too
            r, _ = self.run(["index", "status"], timeout=600)
        return (r.stdout + r.stderr).decode(errors="replace").strip()

    def has_subcommand(self, *path):
        r, _ = self.run(list(path) + ["--help"], timeout=60)
        return r.returncode == 0

    def search(self, q, label, known, depth=10, timeout=120):
        r, took = self.run(["search", "--data-dir", self.data, "--json", "--limit", str(depth), "--all",
                            "--kind", "memory", "--", q], timeout=timeout)
        err = r.stderr.decode(errors="replace")
        if r.returncode not in (0, 1) or "Traceback" in err or "Fatal error" in err:
            raise BenchError("%s: engram search %r exited %d: %s" % (label, q, r.returncode, err[-1500:]))
        try:
            doc = json.loads(r.stdout)
            results = doc["results"]
            ids = [x["id"] for x in results]
        except Exception as e:
            raise BenchError("%s: engram search %r printed no valid JSON (%s): %r" % (label, q, e, r.stdout[:500]))
        if not isinstance(results, list) or any(i not in known for i in ids) or len(ids) > depth:
            raise BenchError("%s: engram search %r returned unknown ids or too many: %r" % (label, q, ids[:20]))
        self.by_meaning += sum(1 for x in results if x.get("byMeaning") is True)
        self.results += len(results)
        return ids, took


def meaning_in_status(text):
    """None when `engram index status` says meaning search is on, else why not."""
    lines = [l.strip() for l in text.splitlines() if re.search(r"meaning|embed|vector|semantic", l, re.I)]
    if not lines:
        return "this engram build has no meaning search (`engram index status` says nothing about meaning/vectors)"
    off = [l for l in lines if re.search(r"\boff\b|not installed|unavailable|disabled|switched off|broken|fail", l, re.I)]
    return ("`engram index status`: " + " / ".join(off)) if off else None


def engram_rows(binary, folder, docs, queries, jsonl, set_name, models, model_dir, info, emit):
    """Engram today (meaning off) and Engram hybrid (meaning on, per model file): each row, with its rankings,
    timings and notes, goes to emit() as soon as it is measured."""
    info.update({"binary": binary, "binary_mtime": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.path.getmtime(binary))),
                 "binary_sha256": sha256_file(binary)[:16]})
    try:
        info["main_head"] = subprocess.run(["git", "-C", MAIN, "log", "--oneline", "-1"], capture_output=True,
                                           text=True).stdout.strip()[:100]
        info["main_dirty"] = bool(subprocess.run(["git", "-C", MAIN, "status", "--porcelain", "--untracked-files=no"],
                                                 capture_output=True, text=True).stdout.strip())
    except OSError:
        pass
    known = {d["id"] for d in docs}
    variants = [("Engram today", False, None)] + [("Engram hybrid", True, m) for m in models]
    for name, semantic, model in variants:
        label = "%s %s%s" % (set_name, name, " (%s)" % model if model else "")
        e = Engram(binary, os.path.join(folder, "engram-%s-%s" % (set_name, (model or "off").replace(".bin", ""))),
                   semantic, model, model_dir if semantic else None)
        imp_s, imp_out = e.import_(jsonl, label)
        v = {"import_s": round(imp_s, 3), "import_output": imp_out}
        if semantic:
            status = e.status()
            why = meaning_in_status(status)
            if why:
                v["status"] = status
                emit({"row": name, "model": model, "available": False, "note": "not available: " + why,
                             "engram": v})
                log("meaning_bench: %s: not available" % label)
                continue
            if e.has_subcommand("index", "embed"):
                r, took = e.run(["index", "embed", "--data-dir", e.data], timeout=7200)
                v["index_embed_s"] = round(took, 3)
                v["index_embed_rc"] = r.returncode
                if r.returncode != 0:
                    raise BenchError("%s: engram index embed exited %d: %s" % (label, r.returncode,
                                                                             r.stderr.decode(errors="replace")[-1500:]))
            # the first search may embed what is missing: do it before timing anything
            _, warm = e.search("warm up", label, known, timeout=7200)
            v["first_search_s"] = round(warm, 3)
            v["status"] = e.status()
        else:
            v["status"] = e.status()
        log("meaning_bench: %s: %d queries through the engram command" % (label, len(queries)))
        e.by_meaning = e.results = 0
        out, times = {}, []
        for q in queries:
            ids, took = e.search(q["q"], label, known)
            out[q["qid"]] = ids
            times.append(took)
        v["results_by_meaning_only"] = "%d of %d" % (e.by_meaning, e.results)
        v["search_process_p50_ms"] = round(pct(times, 50) * 1000, 1)
        v["search_process_p99_ms"] = round(pct(times, 99) * 1000, 1)
        if os.path.exists(os.path.join(e.data, "engram.sqlite")):
            v["data_bytes"] = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(e.data) for f in fs)
        emit({"row": name, "model": model, "available": True, "rankings": out, "engram": v})


# ---------------------------------------------------------------------------------------------------------------
# Scoring and checks

def check_rankings(name, rankings, queries, known, depth):
    missing = [q["qid"] for q in queries if q["qid"] not in rankings]
    if missing:
        raise BenchError("%s: no result list for %d queries (e.g. %s)" % (name, len(missing), missing[0]))
    for qid, ids in rankings.items():
        if not isinstance(ids, list) or len(ids) > max(depth, 10) or any(i not in known for i in ids):
            raise BenchError("%s: malformed result list for %s: %r" % (name, qid, ids[:20] if isinstance(ids, list) else ids))
        if len(set(ids)) != len(ids):
            raise BenchError("%s: duplicate ids in the result list for %s" % (name, qid))
    if queries and all(not rankings[q["qid"]] for q in queries):
        raise BenchError("%s: an empty result list for every query" % name)


def score(rankings, queries):
    rr, hit10, hit5, empty, ranks = [], 0, 0, 0, {}
    for q in queries:
        ids = rankings[q["qid"]][:10]
        if not ids:
            empty += 1
        rank = next((i + 1 for i, d in enumerate(ids) if d in q["answers"]), None)
        ranks[q["qid"]] = rank
        rr.append(1.0 / rank if rank else 0.0)
        hit10 += 1 if rank else 0
        hit5 += 1 if rank and rank <= 5 else 0
    n = len(queries)
    return {"mrr10": round(sum(rr) / n, 4), "recall10": round(hit10 / n, 4), "success5": round(hit5 / n, 4),
            "empty": empty, "n": n, "ranks": ranks}


# ---------------------------------------------------------------------------------------------------------------

def run_set(set_name, docs, queries, args, out_dir, models, binary, res, flush):
    """All rows for one set: {"rows": [...], "timings": {...}}"""
    known = {d["id"] for d in docs}
    depth = 100  # fusion looks deeper than the 10 that are scored
    rows, timings = res["rows"], res["timings"]
    log("meaning_bench: %s: %d documents, %d queries" % (set_name, len(docs), len(queries)))

    # The table's figures are over the set's first group (the synopses, or the sample questions), as before the
    # written questions joined; every group and half is in "groups".
    primary = [q for q in queries if q.get("group") == queries[0].get("group")]

    def add(name, model, rankings, note="", extra=None):
        check_rankings(name + (" (%s)" % model if model else ""), rankings, queries, known, depth)
        row = {"row": name, "model": model, "available": True, **score(rankings, primary), "note": note,
               "groups": group_scores(rankings, queries)}
        if extra:
            row.update(extra)
        rows.append(row)
        flush()
        return row

    t = time.perf_counter()
    bm25, bm25_t = xapian_bm25(docs, queries, depth)
    timings["xapian_bm25"] = {"index_and_search_s": round(time.perf_counter() - t, 3),
                              "query_p50_ms": round(pct(bm25_t, 50) * 1000, 3)}
    add("BM25 OR (python3-xapian)", None, bm25, "English stemmer, STEM_SOME, stopwords, OP_OR, BM25Weight defaults")
    t = time.perf_counter()
    fts, fts_t = fts5_bm25(docs, queries, 10)
    timings["fts5_bm25"] = {"index_and_search_s": round(time.perf_counter() - t, 3),
                            "query_p50_ms": round(pct(fts_t, 50) * 1000, 3) if fts_t else None}
    add("SQLite FTS5 bm25 (OR)", None, fts, "porter unicode61, OR of the query's words")

    doc_ids = [d["id"] for d in docs]
    texts = [d["text"] for d in docs]
    for mf in models:
        path = os.path.join(args.model_dir, mf)
        if not os.path.exists(path):
            rows.append({"row": "e5-small alone", "model": mf, "available": False, "note": "not available: no " + path})
            continue
        msha = sha256_file(path)
        e5 = E5(os.path.join(args.model_dir, "libe5.so"), path)
        mt = {"model_sha256": msha, "model_bytes": os.path.getsize(path), "load_ms": round(e5.load_ms, 2)}
        # query vectors one at a time, as a search would: the p50 is the query embedding latency
        qvecs, qt = [], []
        for q in queries:
            t = time.perf_counter()
            qvecs.append(e5.embed(q["q"], True))
            qt.append(time.perf_counter() - t)
        qvecs = np.stack(qvecs)
        E5.check(qvecs, "%s query vectors" % mf)
        mt["query_embed_p50_ms"] = round(pct(qt, 50) * 1000, 2)
        mt["query_embed_p99_ms"] = round(pct(qt, 99) * 1000, 2)
        if set_name == "samples":
            # the whole sample collection, fresh each run: the time to embed it and the throughput on short memories
            t = time.perf_counter()
            dmat = np.concatenate([e5.embed_batch(texts[i:i + 16], False) for i in range(0, len(texts), 16)])
            took = time.perf_counter() - t
            E5.check(dmat, "%s sample vectors" % mf)
            mt["embed_collection_s"] = round(took, 3)
            mt["docs_per_s"] = round(len(texts) / took, 1)
        else:
            cache = VectorCache(os.path.join(out_dir, "cache"), msha, os.path.join(args.model_dir, "libe5.so"))
            dmat, fresh, took = embed_passages(e5, cache, texts, "%s %s" % (set_name, mf))
            if fresh:
                mt["fresh_docs"] = fresh
                mt["fresh_embed_s"] = round(took, 2)
            # throughput, measured every run on the same 64 documents (cached or not)
            bench_texts = texts[:64]
            t = time.perf_counter()
            bvec = np.concatenate([e5.embed_batch(bench_texts[i:i + 16], False) for i in range(0, len(bench_texts), 16)])
            took = time.perf_counter() - t
            if not np.allclose(bvec, dmat[:len(bench_texts)], atol=2e-3):
                raise BenchError("%s: re-embedding the first documents does not give the cached vectors (stale cache "
                                 "or a non-deterministic engine); delete %s" % (mf, cache.path))
            mt["docs_per_s"] = round(len(bench_texts) / took, 1)
            mt["ms_per_doc"] = round(took / len(bench_texts) * 1000, 1)
        t = time.perf_counter()
        vec = vector_search(doc_ids, dmat, qvecs, queries, depth)
        mt["brute_force_all_queries_ms"] = round((time.perf_counter() - t) * 1000, 2)
        timings[mf] = mt
        add("e5-small alone", mf, vec, "brute-force cosine, passages is_query=0, queries is_query=1")
        add("naive RRF (BM25 OR + e5)", mf, rrf([bm25, vec], 10), "reference: k=%d over the top %d of each" % (RRF_K, depth))
        e5.lib.e5_free(e5.m)

    if args.skip_engram:
        for name in ("Engram today", "Engram hybrid"):
            rows.append({"row": name, "model": None, "available": False, "note": "skipped (--skip-engram)"})
    elif not binary:
        for name in ("Engram today", "Engram hybrid"):
            rows.append({"row": name, "model": None, "available": False, "note": "not available: no engram binary"})
    else:
        jsonl = os.path.join(out_dir, "%s-docs.jsonl" % set_name)
        if set_name == "samples":
            shutil.copyfile(args.samples, jsonl)
        else:
            engram_jsonl(docs, jsonl)
        hybrid_models = [m for m in args.hybrid_models.split(",") if m]
        timings["engram"] = {}

        def emit(r):
            if r["available"]:
                add(r["row"], r["model"], r["rankings"], "engram search --json --all --kind memory",
                    {"engram": r["engram"], "n_docs": len(docs)})
            else:
                rows.append(r)
                flush()

        engram_rows(binary, out_dir, docs, queries, jsonl, set_name, hybrid_models, args.model_dir, timings["engram"], emit)


def fmt(x, d=3):
    return "—" if x is None else ("%." + str(d) + "f") % x


def markdown(results):
    lines = []
    for set_name, res in results["sets"].items():
        meta = res["meta"]
        if set_name == "debian":
            lines.append("### Debian descriptions: %d documents, %d synopses as queries%s" % (
                meta["docs"], meta["queries"],
                ", and %d written questions" % meta["written_questions"] if meta.get("written_questions") else ""))
            lines.append("")
            lines.append(debian_availability(meta))
            lines.append("")
            lines.append("| Row | Model | MRR@10 | Recall@10 | empty | Note |")
            lines.append("|---|---|---:|---:|---:|---|")
            for r in res["rows"]:
                if r["available"]:
                    lines.append("| %s | %s | %s | %s | %d | %s |" % (r["row"], r.get("model") or "", fmt(r["mrr10"]),
                                                                    fmt(r["recall10"]), r["empty"], r.get("note", "")))
                else:
                    lines.append("| %s | %s | — | — | — | %s |" % (r["row"], r.get("model") or "", r["note"]))
        else:
            lines.append("### Natural questions over Samples/: %d memories, %d questions" % (meta["memories"], meta["questions"]))
            lines.append("")
            lines.append("| Row | Model | success@5 | MRR@10 | empty | Note |")
            lines.append("|---|---|---:|---:|---:|---|")
            for r in res["rows"]:
                if r["available"]:
                    lines.append("| %s | %s | %s (%d/%d) | %s | %d | %s |" % (
                        r["row"], r.get("model") or "", fmt(r["success5"]), round(r["success5"] * r["n"]), r["n"],
                        fmt(r["mrr10"]), r["empty"], r.get("note", "")))
                else:
                    lines.append("| %s | %s | — | — | — | %s |" % (r["row"], r.get("model") or "", r["note"]))
        lines.append("")
        groups = sorted({g for r in res["rows"] if r["available"] for g in r.get("groups", {})})
        if groups:
            lines.append("MRR@10 by question set and half (tuning: the half any fusion weight may be tuned on; "
                         "held-out: the half that reports; halves fixed by a hash of each question):")
            lines.append("")
            lines.append("| Row | Model | " + " | ".join("%s (%d)" % (g, next(r["groups"][g]["n"] for r in res["rows"]
                                                                           if r["available"] and g in r.get("groups", {})))
                                                          for g in groups) + " |")
            lines.append("|---|---|" + "---:|" * len(groups))
            for r in res["rows"]:
                if r["available"] and r.get("groups"):
                    lines.append("| %s | %s | " % (r["row"], r.get("model") or "") + " | ".join(
                        fmt(r["groups"][g]["mrr10"]) if g in r["groups"] else "—" for g in groups) + " |")
            lines.append("")
        if set_name == "samples":
            avail = [r for r in res["rows"] if r["available"]]
            lines.append("<details><summary>Rank of the first judged memory per question (— = not in the top 10)</summary>")
            lines.append("")
            lines.append("| Question | " + " | ".join("%s%s" % (r["row"], " " + r["model"].replace(".bin", "") if r.get("model") else "")
                                                    for r in avail) + " |")
            lines.append("|---|" + "---:|" * len(avail))
            for q in res["queries"]:
                lines.append("| %s | " % q["q"].replace("|", "\\|") + " | ".join(
                    str(r["ranks"][q["qid"]] or "—") for r in avail) + " |")
            lines.append("")
            lines.append("</details>")
            lines.append("")
        t = res["timings"]
        models = [k for k in t if k.endswith(".bin")]
        if models:
            lines.append("| Model (%s) | size | load | query embed p50 / p99 | docs/s (passages) | brute force, all queries |" % set_name)
            lines.append("|---|---:|---:|---:|---:|---:|")
            for m in models:
                x = t[m]
                extra = ""
                if "embed_collection_s" in x:
                    extra = " (collection in %.2f s)" % x["embed_collection_s"]
                lines.append("| %s | %.0f MB | %.1f ms | %.1f / %.1f ms | %.1f%s | %.1f ms |" % (
                    m, x["model_bytes"] / 1e6, x["load_ms"], x["query_embed_p50_ms"], x["query_embed_p99_ms"],
                    x["docs_per_s"], extra, x["brute_force_all_queries_ms"]))
            lines.append("")
        er = [r for r in res["rows"] if r["available"] and "engram" in r]
        if er:
            info = t.get("engram", {})
            lines.append("Engram binary: %s, built %s; /work/main at %s%s." % (
                results.get("engram_binary", {}).get("copied_from") or info.get("binary"), info.get("binary_mtime"),
                info.get("main_head", "?")[:7],
                " with uncommitted changes" if info.get("main_dirty") else ""))
            lines.append("")
            lines.append("| Engram (%s) | import | `index embed` | first search | search per process p50 / p99 | results found by meaning only | meaning (index status) |" % set_name)
            lines.append("|---|---:|---:|---:|---:|---:|---|")
            for r in er:
                v = r["engram"]
                meaning = [l for l in v.get("status", "").splitlines() if l.startswith("Meaning")]
                lines.append("| %s %s | %.2f s | %s | %s | %.1f / %.1f ms | %s | %s |" % (
                    r["row"], r.get("model") or "", v["import_s"],
                    ("%.1f s (%.1f docs/s)" % (v["index_embed_s"], r["n_docs"] / v["index_embed_s"]))
                    if "index_embed_s" in v else "—",
                    ("%.2f s" % v["first_search_s"]) if "first_search_s" in v else "—",
                    v["search_process_p50_ms"], v["search_process_p99_ms"], v.get("results_by_meaning_only", "—"),
                    (meaning[0] if meaning else "").replace("|", "/")))
            lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default=os.path.join(MAIN, "bench-out/meaning"))
    ap.add_argument("--docs", type=int, default=3000, help="Debian documents (0: all unique descriptions)")
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--only", choices=["debian", "samples"])
    ap.add_argument("--skip-engram", action="store_true")
    ap.add_argument("--engram", help="the engram binary (default: the newer of .build/{release,debug}/engram in this "
                                     "checkout, else in git's main worktree: %s)" % MAIN)
    ap.add_argument("--no-copy-engram", action="store_true",
                    help="run the engram binary in place instead of a copy taken at the start")
    ap.add_argument("--model-dir", default=os.path.join(MAIN, ".build/model"))
    ap.add_argument("--models", default="e5-small-q4.bin,e5-small-enpt-q4.bin", help="model files measured alone")
    ap.add_argument("--hybrid-models", default="e5-small-q4.bin",
                    help="model files the Engram hybrid row runs with ([search] model), comma-separated")
    ap.add_argument("--lists", default="/var/lib/apt/lists")
    ap.add_argument("--samples", default=os.path.join(ROOT, "Samples/memories.jsonl"))
    ap.add_argument("--questions", default=os.path.join(HERE, "meaning_questions.jsonl"))
    ap.add_argument("--debian-questions", default=os.path.join(HERE, "debian_questions.jsonl"),
                    help="written natural questions over the Debian documents ('' for none)")
    ap.add_argument("--corpus", default=CORPUS, help="the named Debian documents (default: %(default)s)")
    ap.add_argument("--write-corpus", action="store_true",
                    help="name a new Debian set in --corpus from the lists (--docs, --queries, --seed), then stop")
    args = ap.parse_args()

    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    if args.write_corpus:
        try:
            write_corpus(args.lists, os.path.join(out_dir, "debian-translation"), args.corpus, args.docs, args.queries,
                         args.seed, args.debian_questions)
        except BenchError as e:
            print("meaning_bench: FAILED: %s" % e, file=sys.stderr)
            sys.exit(1)
        return
    models = [m for m in args.models.split(",") if m]
    binary = None if args.skip_engram else engram_binary(args.engram)
    if binary and not args.no_copy_engram:
        # one build for the whole run: a copy, so a rebuild during the run cannot mix two builds in one table
        # (the hybrid rows name the model folder in config.toml, so the copy does not need to sit beside it)
        copy = os.path.join(out_dir, "engram-under-test")
        shutil.copy2(binary, copy)
        results_binary = {"copied_from": binary, "sha256": sha256_file(copy)}
        binary = copy
    else:
        results_binary = {}
    if not args.skip_engram and not os.path.exists(os.path.join(args.model_dir, "libe5.so")):
        log("meaning_bench: no %s/libe5.so: scripts/install-model.sh installs it" % args.model_dir)
    results = {"started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "args": vars(args), "sets": {},
               "engram_binary": results_binary,
               "xapian": xapian.version_string(), "sqlite": sqlite3.sqlite_version, "cpus": os.cpu_count()}
    start = time.monotonic()

    def write(final):
        results["seconds"] = round(time.monotonic() - start, 1)
        results["complete"] = final
        md = markdown(results)
        write_results(out_dir, "# Recall by meaning: benchmark (%s)%s\n\n%s\n" % (
            results["started"], "" if final else " — partial, still running", md), results)
        return md

    try:
        # the samples first (a minute or two), then the Debian set; results are written after each
        if args.only in (None, "samples"):
            docs, queries, meta = samples_set(args.samples, args.questions)
            results["sets"]["samples"] = {"rows": [], "timings": {}, "meta": meta, "queries": queries}
            run_set("samples", docs, queries, args, out_dir, models, binary, results["sets"]["samples"],
                    lambda: write(False))
        if args.only in (None, "debian"):
            docs, queries, meta = debian_set(args.lists, args.docs, args.queries, args.seed,
                                             os.path.join(out_dir, "debian-translation"), args.corpus)
            if args.debian_questions:
                written, left_out = debian_questions(docs, args.debian_questions, args.corpus, meta["missing"])
                queries = queries + written
                meta["written_questions"] = len(written)
                meta["written_questions_left_out"] = len(left_out)
                meta["written_questions_sha256"] = sha256_file(args.debian_questions)
            results["sets"] = {"debian": {"rows": [], "timings": {}, "meta": meta}, **results["sets"]}
            run_set("debian", docs, queries, args, out_dir, models, binary, results["sets"]["debian"],
                    lambda: write(False))
    except BenchError as e:
        print("meaning_bench: FAILED: %s" % e, file=sys.stderr)
        sys.exit(1)
    print(write(True))
    log("meaning_bench: wrote %s/results.md and results.json (%.0f s)" % (out_dir, results["seconds"]))

if __name__ == "__main__":
    main()
