#!/usr/bin/python3
"""`make bench`: Engram against its baselines, measured side by side in one run.

Usage: PYTHONPATH=scripts /usr/bin/python3 -m bench.run ENGRAM ENGRAM_BENCH OUTDIR [--quick | --smoke] [--sample-only]
Writes OUTDIR/results.json, OUTDIR/results.md and OUTDIR/chart.svg. Every ratio compares
figures measured in this run, on this machine, under the load recorded beside them.
--quick: 5,000 memories and fewer rounds, for working on a part. --smoke: every part once on 300 memories, each
check still made (make test runs it, so a part that can no longer run fails there); a part that would be skipped
is a failure. Neither run's figures are docs/performance.md's: their results carry no marker.
"""
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

from bench import bench_daemon, bench_feeds, bench_window, mcp_recall
from bench.report import write_outputs
from bench.timing import release_date, check_indexed, checked_searches, du, log, pct, shield_from_realtime_signals, time_runs, timed
from engramtest import PYTHON as PY, ROOT
from engramtest.report import machine
from engramtest.version import code_version
from engramtest.world import World

HERE = os.path.dirname(os.path.abspath(__file__))


class Bench:
    def __init__(self, engram, engram_bench, out, quick, smoke=False):
        self.engram, self.engram_bench, self.out = engram, engram_bench, out
        self.quick, self.smoke = quick or smoke, smoke
        self.work = os.path.join(out, "work")
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.data = os.path.join(self.work, "engram-data")
        # The XDG folders of a world of its own; Engram's data folder is named on each command (--data-dir).
        self.env = World(base=os.path.join(self.work, "world"), engram_dirs=False, home=False).env
        self.env["NO_COLOR"] = "1"
        self.r = {"machine": machine(), "code": code_version("bench"), "import": {}, "query": {}, "notes": []}
        if self.quick:
            self.r["code"].update(marker=None, note="a %s run: its figures are not docs/performance.md's, so no marker"
                                  % ("smoke" if smoke else "quick"))

    def eng(self, *args):
        return [self.engram] + list(args) + ["--data-dir", self.data]

    # 1. corpus
    def corpus(self):
        self.corpus_path = os.path.join(self.work, "corpus.jsonl")
        subprocess.run([os.path.join(ROOT, "scripts/bench/debian-corpus.sh"), self.corpus_path], check=True)
        if self.quick:
            with open(self.corpus_path) as f:
                lines = f.readlines()[:300 if self.smoke else 5000]
            with open(self.corpus_path, "w") as f:
                f.writelines(lines)
        with open(self.corpus_path) as f:
            self.docs = sum(1 for _ in f)
        # Debian's package lists change with every point release: the count and the lists' dates say which corpus
        # the figures are of (the quality set, scripts/bench/debian_corpus.txt, is named by content instead).
        dates = sorted({d for d in map(release_date, glob.glob("/var/lib/apt/lists/*_InRelease")) if d})
        self.r["corpus"] = {"documents": self.docs, "bytes": os.path.getsize(self.corpus_path), "lists_dates": dates,
                            "source": "apt-cache dumpavail, one memory per package, Section as tag; apt lists dated "
                                      + (" / ".join(dates) or "unknown")}
        log("corpus: %d memories (apt lists dated %s)" % (self.docs, " / ".join(dates) or "unknown"))

    # 2. import and index throughput
    def imports(self, rounds=None):
        """Each indexer `rounds` times, taking turns (the order rotates each round, so none always runs first or
        after the same neighbour); medians with the spread, wall and CPU. Engram's import goes into a fresh folder
        each round (the last one is kept for the later parts) and its rebuild follows it. Then the indexes are
        compared: Engram's and the native one must hold the same documents and the same terms."""
        rounds = rounds or (1 if self.smoke else 3)
        imp = self.r["import"]
        native = os.path.join(self.work, "native_indexer")
        subprocess.run(["g++", "-O2", "-std=c++17", os.path.join(HERE, "native_indexer.cc"), "-o", native, "-lxapian"], check=True)
        what = {"native_cxx": "C++ over libxapian, same terms, values, spelling; index only",
                "python_xapian": "python3-xapian, same documents; index only",
                "fts5": "python3 sqlite3 FTS5 (porter), row + FTS row per memory; store and index",
                "engram_import": "engram import: store (SQLite/GRDB) + outbox + index + auto-links",
                "engram_rebuild": "engram index rebuild: store snapshot -> fresh index"}
        runs = {k: [] for k in what}
        sizes = {}

        def native_run(r):
            db = os.path.join(self.work, "native.db")
            shutil.rmtree(db, ignore_errors=True)
            wall, cpu, _ = timed([native, self.corpus_path, db])
            sizes["native_cxx"] = du(db)
            return wall, cpu

        def python_run(r):
            db = os.path.join(self.work, "pyxapian.db")
            shutil.rmtree(db, ignore_errors=True)
            wall, cpu, p = timed([PY, os.path.join(HERE, "py_xapian_indexer.py"), self.corpus_path, db], stdout=subprocess.PIPE)
            check_indexed("python3-xapian", p.stdout, self.docs)
            sizes["python_xapian"] = du(db)
            return wall, cpu

        def fts5_run(r):
            db = os.path.join(self.work, "fts5.sqlite")
            if os.path.exists(db):
                os.remove(db)
            wall, cpu, _ = timed([PY, os.path.join(HERE, "fts5_indexer.py"), self.corpus_path, db])
            sizes["fts5"] = du(db)
            return wall, cpu

        def engram_run(r):
            shutil.rmtree(self.data, ignore_errors=True)
            wall, cpu, _ = timed(self.eng("import", self.corpus_path), env=self.env)
            sizes["engram_import"] = du(self.data)
            runs["engram_import"].append((wall, cpu))
            wall, cpu, _ = timed(self.eng("index", "rebuild"), env=self.env)
            sizes["engram_rebuild"] = du(os.path.join(self.data, "index.d"))
            return wall, cpu

        order = [("native_cxx", native_run), ("python_xapian", python_run), ("fts5", fts5_run), ("engram_rebuild", engram_run)]
        for r in range(rounds):
            for name, fn in order[r % len(order):] + order[:r % len(order)]:
                wall, cpu = fn(r)
                runs[name].append((wall, cpu))
                log("round %d %-16s %7.1f s wall %7.1f s CPU" % (r + 1, name, wall, cpu))
        for name, xs in runs.items():
            walls, cpus = [w for w, _ in xs], [c for _, c in xs]
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            imp[name] = {"seconds": round(wall, 2), "cpu_seconds": round(cpu, 2), "docs_per_s": round(self.docs / wall),
                         "docs_per_cpu_s": round(self.docs / cpu) if cpu > 0 else None, "bytes": sizes.get(name, 0),
                         "what": what[name], "runs": len(xs), "wall_min_max": [round(min(walls), 2), round(max(walls), 2)],
                         "cpu_min_max": [round(min(cpus), 2), round(max(cpus), 2)]}
            log("%-22s median %7.1f s wall (%.1f–%.1f) %7.1f s CPU  %6d docs/s" % (
                name, wall, min(walls), max(walls), cpu, self.docs / wall))
        imp["same_index"] = self.compare_indexes(os.path.join(self.work, "native.db"), os.path.join(self.data, "index"))
        self.import_10k(rounds)

    def import_10k(self, rounds):
        """The first 10,000 memories (all of a smaller corpus): `engram import` (store, outbox, index, auto-links) against the python3-xapian
        script (index only), taking turns, medians of `rounds` each: a first import of a modest collection."""
        corpus = os.path.join(self.work, "corpus-10k.jsonl")
        n = min(10000, self.docs)
        with open(self.corpus_path, encoding="utf-8") as src, open(corpus, "w", encoding="utf-8") as dst:
            for i, line in enumerate(src):
                if i == n:
                    break
                dst.write(line)
        runs = {"engram_import": [], "python_xapian": []}
        for r in range(rounds):
            for name in (("engram_import", "python_xapian") if r % 2 == 0 else ("python_xapian", "engram_import")):
                if name == "engram_import":
                    data = os.path.join(self.work, "data-10k")
                    shutil.rmtree(data, ignore_errors=True)
                    wall, cpu, _ = timed([self.engram, "import", corpus, "--data-dir", data], env=self.env)
                    _, _, st = timed([self.engram, "stats", "--json", "--data-dir", data], env=self.env, stdout=subprocess.PIPE)
                    if json.loads(st.stdout).get("total") != n:
                        raise SystemExit("bench: engram import of the first %d stored %s memories" % (n, json.loads(st.stdout).get("total")))
                else:
                    db = os.path.join(self.work, "pyxapian-10k.db")
                    shutil.rmtree(db, ignore_errors=True)
                    wall, cpu, p = timed([PY, os.path.join(HERE, "py_xapian_indexer.py"), corpus, db], stdout=subprocess.PIPE)
                    check_indexed("python3-xapian (10k)", p.stdout, n)
                runs[name].append((wall, cpu))
                log("10k round %d %-16s %6.2f s wall %6.2f s CPU" % (r + 1, name, wall, cpu))
        out = {}
        for name, xs in runs.items():
            walls, cpus = [w for w, _ in xs], [c for _, c in xs]
            out[name] = {"seconds": round(statistics.median(walls), 3), "cpu_seconds": round(statistics.median(cpus), 3),
                         "wall_min_max": [round(min(walls), 2), round(max(walls), 2)], "runs": len(xs)}
        self.r["import"]["first_10k"] = out

    def compare_indexes(self, native_db, engram_stub):
        """xapian-delve's document counts of both, and their term lists (python3-xapian): they must be equal."""
        import xapian

        def delve_count(path):
            out = subprocess.run(["xapian-delve", path], capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                if line.startswith("number of documents = "):
                    return int(line.split("=")[1])
            raise SystemExit("bench: xapian-delve printed no document count for %s" % path)

        counts = {"native": delve_count(native_db), "engram": delve_count(engram_stub)}
        terms = {}
        for name, path in (("native", native_db), ("engram", engram_stub)):
            db = xapian.Database(path)
            terms[name] = {t.term: t.termfreq for t in db.allterms()}
            db.close()
        only_native = sorted(set(terms["native"]) - set(terms["engram"]))
        only_engram = sorted(set(terms["engram"]) - set(terms["native"]))
        freq_differ = [t for t in terms["native"] if t in terms["engram"] and terms["native"][t] != terms["engram"][t]]
        res = {"documents": counts, "terms": {k: len(v) for k, v in terms.items()}, "only_native": len(only_native),
               "only_engram": len(only_engram), "termfreq_differs": len(freq_differ)}
        log("indexes: documents %s; terms %s; only native %d, only engram %d, frequency differs %d" % (
            counts, res["terms"], len(only_native), len(only_engram), len(freq_differ)))
        if counts["native"] != counts["engram"] or counts["engram"] != self.docs or only_native or only_engram or freq_differ:
            raise SystemExit("bench: Engram's index and the native one differ: %s; e.g. only native %s, only engram %s, "
                             "frequency %s" % (res, only_native[:5], only_engram[:5], freq_differ[:5]))
        return res

    # 3. query latency
    def queries(self):
        q = self.r["query"]
        qfile = os.path.join(HERE, "queries.jsonl")
        rounds = "1" if self.smoke else "5" if self.quick else "20"
        _, _, p = timed([self.engram_bench, "--data-dir", self.data, "--queries", qfile, "--rounds", rounds],
                        env=self.env, stdout=subprocess.PIPE)
        res = json.loads(p.stdout)
        for key, name in (("readerMs", "in_process_reader"), ("libraryMs", "in_process_library")):
            xs = res[key]
            q[name] = {"p50_ms": round(pct(xs, 50), 3), "p99_ms": round(pct(xs, 99), 3), "max_ms": round(max(xs), 3), "n": len(xs)}
        cpu = res.get("readerCpuMs")
        if cpu:
            q["in_process_reader"]["cpu_p50_ms"] = round(pct(cpu, 50), 3)
            q["in_process_reader"]["cpu_p99_ms"] = round(pct(cpu, 99), 3)
        q["per_query"] = res["queries"]
        q["documents"] = res["documents"]
        with open(qfile) as f:
            specs = [json.loads(l) for l in f if l.strip()]
        # engram search as a process, as rofi and scripts run it
        cmds = [("q%d" % i, self.eng("search") + (["--partial"] if s["partial"] else []) + ["--", s["q"]])
                for i, s in enumerate(specs)]
        runs = 1 if self.smoke else 2 if self.quick else 5
        nothing = checked_searches(cmds, self.env)
        q["process_search_found_nothing"] = len(nothing)
        times, interrupted = time_runs(cmds, self.env, warmup=1, runs=runs, may_find_nothing=nothing)
        wall = [t for ms, _ in times.values() for t in ms]
        cpu = [t for _, c in times.values() for t in c]
        q["process_search"] = {"p50_ms": round(pct(wall, 50), 2), "p99_ms": round(pct(wall, 99), 2),
                               "cpu_p50_ms": round(pct(cpu, 50), 2), "n": len(wall)}
        # An assistant's recall: the same queries through `engram mcp` (words only here), answers checked against
        # `engram search --json`.
        if self.needs(self.engram, "mcp"):
            env = dict(self.env, ENGRAM_DATA_DIR=self.data)
            m = mcp_recall.measure(self.engram, env, [s["q"] for s in specs], rounds=1 if self.smoke else 2 if self.quick else 5)
            if m["answers_unlike_engram_search"]:
                raise SystemExit("bench: engram mcp answered %d queries unlike engram search: %s" % (m["answers_unlike_engram_search"], m["unlike"]))
            q["mcp_recall"] = m
            log("mcp recall over stdio p50 %.2f p99 %.2f ms" % (m["p50_ms"], m["p99_ms"]))
        times, more = time_runs([("version", [self.engram, "--version"])], self.env, warmup=1 if self.smoke else 2,
                                runs=3 if self.smoke else 20)
        wall, cpu = times["version"]
        q["process_version"] = {"p50_ms": round(pct(wall, 50), 2), "p99_ms": round(pct(wall, 99), 2),
                                "cpu_p50_ms": round(pct(cpu, 50), 2), "n": len(wall)}
        if interrupted + more:
            self.r["notes"].append("queries: %d `engram` runs were ended by a signal from another process and run again"
                                   % (interrupted + more))
        log("query in-process p50 %.3f p99 %.3f ms; process p50 %.1f ms (--version %.1f)" % (
            q["in_process_reader"]["p50_ms"], q["in_process_reader"]["p99_ms"], q["process_search"]["p50_ms"], q["process_version"]["p50_ms"]))

    # 0. the sample collection (Samples/): import and search as a new user first meets them
    def sample(self):
        samples = os.path.join(ROOT, "Samples")
        sources = [os.path.join(samples, "memories.jsonl"), os.path.join(samples, "vault"),
                   os.path.join(samples, "curricula", "swift-concurrency.toml"), os.path.join(samples, "curricula", "spanish-b1.yaml")]
        runs = 1 if self.smoke else 3 if self.quick else 7
        walls, cpus = [], []
        for i in range(runs):
            data = os.path.join(self.work, "sample-%d" % i)
            wall, cpu, _ = timed([self.engram, "import"] + sources + ["--data-dir", data], env=self.env)
            walls.append(wall * 1000)
            cpus.append(cpu * 1000)
        data = os.path.join(self.work, "sample-0")
        _, _, p = timed([self.engram, "stats", "--json", "--data-dir", data], env=self.env, stdout=subprocess.PIPE)
        stats = json.loads(p.stdout)
        s = self.r["sample"] = {"memories": stats.get("total"),
                                "import": {"p50_ms": round(pct(walls, 50), 1), "max_ms": round(max(walls), 1),
                                           "cpu_p50_ms": round(pct(cpus, 50), 1), "n": runs}}
        qfile = os.path.join(HERE, "sample_queries.jsonl")
        _, _, p = timed([self.engram_bench, "--data-dir", data, "--queries", qfile, "--rounds", "1" if self.smoke else "5" if self.quick else "20"],
                        env=self.env, stdout=subprocess.PIPE)
        res = json.loads(p.stdout)
        s["in_process_reader"] = {"p50_ms": round(pct(res["readerMs"], 50), 3), "p99_ms": round(pct(res["readerMs"], 99), 3),
                                  "n": len(res["readerMs"])}
        s["documents"] = res["documents"]
        with open(qfile) as f:
            specs = [json.loads(l) for l in f if l.strip()]
        cmds = [("q%d" % i, [self.engram, "search"] + (["--partial"] if q["partial"] else []) + ["--data-dir", data, "--", q["q"]])
                for i, q in enumerate(specs)]
        nothing = checked_searches(cmds, self.env)
        s["process_search_found_nothing"] = len(nothing)
        times, _ = time_runs(cmds, self.env, warmup=1, runs=1 if self.smoke else 2 if self.quick else 5,
                             may_find_nothing=nothing)
        wall = [t for ms, _ in times.values() for t in ms]
        cpu = [t for _, c in times.values() for t in c]
        s["process_search"] = {"p50_ms": round(pct(wall, 50), 1), "p99_ms": round(pct(wall, 99), 1),
                               "cpu_p50_ms": round(pct(cpu, 50), 1), "n": len(wall)}
        log("sample: import p50 %.0f ms; search in process p50 %.3f ms, process p50 %.1f ms" % (
            s["import"]["p50_ms"], s["in_process_reader"]["p50_ms"], s["process_search"]["p50_ms"]))

    def run(self, sample_only=False):
        shield_from_realtime_signals()
        t = time.monotonic()
        self.r["machine"]["load_phases"] = {"sample": os.getloadavg()}
        self.sample()
        if sample_only:
            self.r["machine"]["load_end"] = os.getloadavg()
            self.r["total_seconds"] = round(time.monotonic() - t, 1)
            self.r["corpus"] = {"documents": 0, "bytes": 0, "source": "not built (--sample-only)"}
            write_outputs(self.r, self.out)
            return
        phases = self.r["machine"]["load_phases"]
        phases["corpus"] = os.getloadavg()
        self.corpus()
        phases["import"] = os.getloadavg()
        self.imports()
        phases["queries"] = os.getloadavg()
        self.queries()
        phases["daemon"] = os.getloadavg()
        if self.needs(self.engram, "daemon"):
            bench_daemon.measure(self)
        else:
            self.r["notes"].append("provider round trip, capture to searchable, daemon RSS: not measured "
                                   "(`engram daemon` is not on this branch yet)")
        phases["window"] = os.getloadavg()
        bench_window.measure(self)
        phases["feeds"] = os.getloadavg()
        if self.needs(self.engram, "feed"):
            bench_feeds.measure(self)
        else:
            self.r["notes"].append("feed cold start: not measured (`engram feed` is not on this branch yet)")
        self.r["machine"]["load_end"] = os.getloadavg()
        self.r["total_seconds"] = round(time.monotonic() - t, 1)
        write_outputs(self.r, self.out)


    def needs(self, engram, command):
        """engram_has; in a smoke run a part that would be skipped is a failure."""
        if engram_has(engram, command):
            return True
        if self.smoke:
            raise SystemExit("bench: %s has no `%s` command, so its part would be skipped" % (engram, command))
        return False


def engram_has(engram, command):
    """Whether this engram build has a subcommand (the daemon and feeds arrive by merge)."""
    text = subprocess.run([engram, "--help"], capture_output=True, text=True).stdout
    return any(line.split()[:1] == [command] for line in text.splitlines() if line.startswith("  "))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 3:
        sys.exit(__doc__)
    Bench(args[0], args[1], args[2], "--quick" in sys.argv, "--smoke" in sys.argv).run(sample_only="--sample-only" in sys.argv)
