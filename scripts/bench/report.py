"""Writes the bench results as JSON, a Markdown table and an SVG chart (no third-party modules)."""
import os

from engramtest.report import write_results


def ratio(a, b):
    return None if not a or not b else a / b


def fmt(x, digits=1):
    if x is None:
        return "—"
    return ("%." + str(digits) + "f") % x


def targets(r):
    """(target, figure, met?) rows; None when not measured in this run."""
    rows = []
    imp, q = r["import"], r["query"]
    if "engram_rebuild" in imp and "native_cxx" in imp:
        x = imp["engram_rebuild"]["docs_per_s"] / imp["native_cxx"]["docs_per_s"]
        rows.append(("index throughput ≥ 1.0× native C++", "%.2f×" % x, x >= 1.0))
    if "engram_import" in imp and "native_cxx" in imp:
        x = imp["engram_import"]["docs_per_s"] / imp["native_cxx"]["docs_per_s"]
        rows.append(("import (store + index) ≥ 1.0× native C++", "%.2f×" % x, x >= 1.0))
    if "engram_import" in imp and "python_xapian" in imp:
        x = imp["engram_import"]["docs_per_s"] / imp["python_xapian"]["docs_per_s"]
        rows.append(("import of 63k (store + index) ≥ 1.0× the python3-xapian script", "%.2f×" % x, x >= 1.0))
    if "first_10k" in imp:
        t = imp["first_10k"]
        x = t["python_xapian"]["seconds"] / t["engram_import"]["seconds"]
        rows.append(("import of 10k (store + index) ≥ 1.0× the python3-xapian script", "%.2f× (%.2f vs %.2f s)" % (
            x, t["engram_import"]["seconds"], t["python_xapian"]["seconds"]), x >= 1.0))
    if "engram_rebuild" in imp and "native_cxx" in imp and imp["native_cxx"].get("docs_per_cpu_s"):
        x = imp["engram_rebuild"]["docs_per_cpu_s"] / imp["native_cxx"]["docs_per_cpu_s"]
        rows.append(("index throughput per CPU-second ≥ 1.0× native C++", "%.2f×" % x, x >= 1.0))
    if "engram_rebuild" in imp and "fts5" in imp:
        x = imp["engram_rebuild"]["docs_per_s"] / imp["fts5"]["docs_per_s"]
        rows.append(("stretch: index ≥ FTS5 rate", "%.2f×" % x, x >= 1.0))
    if "in_process_reader" in q:
        rows.append(("query p99 ≤ 5 ms (in process)", "%.2f ms" % q["in_process_reader"]["p99_ms"], q["in_process_reader"]["p99_ms"] <= 5))
    p = r.get("provider")
    if p:
        rows.append(("provider round trip p99 ≤ 10 ms", "%.2f ms" % p["engram"]["p99_ms"], p["engram"]["p99_ms"] <= 10))
        x = p["python"]["p50_ms"] / p["engram"]["p50_ms"]
        rows.append(("provider ≥ 2× python provider (p50)", "%.2f×" % x, x >= 2))
        rows.append(("provider round trip p99 ≤ 5 ms", "%.2f ms" % p["engram"]["p99_ms"], p["engram"]["p99_ms"] <= 5))
    f = r.get("feeds")
    if f:
        for k in ("engram", "engram_feed"):
            if k in f:
                label = "engram feed" if k == "engram" else "engram-feed"
                rows.append(("feed cold start ≤ 10 ms median (%s)" % label, "%.2f ms" % f[k]["p50_ms"], f[k]["p50_ms"] <= 10))
                if "python" in f:
                    x = f["python"]["p50_ms"] / f[k]["p50_ms"]
                    rows.append(("feed ≥ 5× python script (%s)" % label, "%.1f×" % x, x >= 5))
    w = r.get("window")
    if w:
        rows.append(("window: launch to results drawn p50 ≤ 400 ms", "%.0f ms (bare GTK window %.0f ms, %.2f×)" % (
            w["launch_p50_ms"], w["launch_bare_p50_ms"], w["launch_ratio"]), w["launch_p50_ms"] <= 400))
        rows.append(("window: keystroke to list drawn p50 / p99 ≤ 30 / 60 ms", "%.1f / %.1f ms (search %.1f / %.1f; first after launch %.0f)" % (
            w["keystroke_p50_ms"], w["keystroke_p99_ms"], w["search_p50_ms"], w["search_p99_ms"], w["first_keystroke_ms"]),
            w["keystroke_p50_ms"] <= 30 and w["keystroke_p99_ms"] <= 60))
        rows.append(("window: RSS ≤ 150 MB", "%.0f MB (bare GTK window %.0f MB)" % (w["rss_mb"], w["rss_bare_mb"]), w["rss_mb"] <= 150))
    c = r.get("capture")
    if c:
        rows.append(("capture-to-searchable ≤ 100 ms (D-Bus Remember)", "%.0f ms p50 / %.0f ms max" % (c["p50_ms"], c["max_ms"]), c["p50_ms"] <= 100))
        if "cli" in c:
            rows.append(("capture-to-searchable ≤ 100 ms (`engram remember` process)", "%.0f ms p50 / %.0f ms max" % (
                c["cli"]["p50_ms"], c["cli"]["max_ms"]), c["cli"]["p50_ms"] <= 100))
    d = r.get("daemon_rss")
    if d:
        rows.append(("daemon idle RSS ≤ 60 MB", "%.1f MB" % d["idle_mb"], d["idle_mb"] <= 60))
    return rows


def markdown(r):
    m = r["machine"]
    out = ["# Engram benchmark", "",
           "Machine: %d cores, %s, %d MB RAM, Linux %s; load average %s at start, %s at end. Corpus: %d memories (%s). "
           "Total run %.0f s." % (m["nproc"], m["cpu"], m["mem_mb"], m["kernel"], "/".join("%.1f" % x for x in m["load_start"]),
                                  "/".join("%.1f" % x for x in m.get("load_end", [0, 0, 0])), r["corpus"]["documents"],
                                  r["corpus"]["source"], r.get("total_seconds", 0))]
    if m.get("load_phases"):
        out += ["Load average (1/5/15 min) as each part began: " + "; ".join(
            "%s %s" % (k, "/".join("%.1f" % x for x in v)) for k, v in m["load_phases"].items()) + ". "
            "Other builds and tests shared the 2 cores, so wall times are inflated; ratios within one part and CPU "
            "times are the steadier figures."]
    code = r.get("code") or {}
    measured = "Code measured: commit %s%s." % (code.get("commit"), ", with uncommitted changes to %s" % ", ".join(
        code["dirty_files"][:5]) if code.get("dirty") else ", clean")
    if code.get("marker"):
        out += ["", measured + " docs/performance.md carries this line above the figures copied from this run "
                "(`make check-figures` reads it):", "", "    %s" % code["marker"]]
    else:
        out += ["", measured + " " + code.get("note", "No marker: these figures are not docs/performance.md's.")]
    out += [""]
    smp = r.get("sample")
    if smp:
        out += ["## Sample collection (Samples/: %s memories, the vault, 2 curricula; %d documents indexed)" % (
                    smp.get("memories"), smp.get("documents", 0)), "",
                "| | p50 ms | p99 / max ms | CPU p50 ms | samples |", "|---|---:|---:|---:|---:|",
                "| `engram import` into an empty data folder | %.0f | %.0f | %.0f | %d |" % (
                    smp["import"]["p50_ms"], smp["import"]["max_ms"], smp["import"]["cpu_p50_ms"], smp["import"]["n"]),
                "| search in process (open reader), 16 queries | %.3f | %.3f | — | %d |" % (
                    smp["in_process_reader"]["p50_ms"], smp["in_process_reader"]["p99_ms"], smp["in_process_reader"]["n"]),
                "| `engram search` process | %.1f | %.1f | %.1f | %d |" % (
                    smp["process_search"]["p50_ms"], smp["process_search"]["p99_ms"], smp["process_search"]["cpu_p50_ms"],
                    smp["process_search"]["n"]), ""]
    imp = r["import"]
    nat = imp.get("native_cxx", {})
    out += [] if not imp else ["## Bulk import and index", "",
            "Each indexer ran %s times, taking turns; medians, with the fastest and slowest wall time." % (
                imp.get("native_cxx", {}).get("runs", 1)), "",
            "| indexer | wall s (median) | min–max s | docs/s | vs native C++ | CPU s | docs/CPU-s | vs native (CPU) | size MB |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for k, label in (("native_cxx", "native C++ (libxapian)"), ("python_xapian", "python3-xapian"), ("fts5", "SQLite FTS5 (python3)"),
                     ("engram_rebuild", "**engram index rebuild**"), ("engram_import", "**engram import** (store + index)")):
        if k in imp:
            e = imp[k]
            out.append("| %s | %.1f | %s | %d | %s× | %.1f | %s | %s× | %.0f |" % (
                label, e["seconds"], "–".join("%.1f" % x for x in e.get("wall_min_max", [e["seconds"]] * 2)), e["docs_per_s"], fmt(ratio(e["docs_per_s"], nat.get("docs_per_s")), 2), e["cpu_seconds"],
                e["docs_per_cpu_s"], fmt(ratio(e["docs_per_cpu_s"], nat.get("docs_per_cpu_s")), 2), e["bytes"] / 1e6))
    ten = imp.get("first_10k")
    if ten:
        e, p = ten["engram_import"], ten["python_xapian"]
        out += ["", "The first 10,000 memories, taking turns (%d runs each, medians): `engram import` (store, outbox, index, "
                "auto-links) %.2f s wall (%.2f–%.2f), %.2f s CPU; the python3-xapian script (index only) %.2f s wall "
                "(%.2f–%.2f), %.2f s CPU: %.2f× the script." % (e["runs"], e["seconds"], *e["wall_min_max"], e["cpu_seconds"],
                                                                 p["seconds"], *p["wall_min_max"], p["cpu_seconds"],
                                                                 p["seconds"] / e["seconds"])]
    same = imp.get("same_index")
    if same:
        out += ["", "Engram's index and the native one: %d and %d documents (xapian-delve), %d and %d terms, none only in "
                "one, every term's frequency the same." % (same["documents"]["engram"], same["documents"]["native"],
                                                          same["terms"]["engram"], same["terms"]["native"])]
    q = r["query"]
    if q:
        out += ["", "## Query latency (%d documents, 50 fixed queries)" % q.get("documents", 0), "",
                "| path | p50 ms | p99 ms | CPU p50 ms | CPU p99 ms | samples |", "|---|---:|---:|---:|---:|---:|"]
        for k, label in (("in_process_reader", "in process: open reader (daemon, providers)"),
                         ("in_process_library", "in process: Library.search (CLI path after start-up)"),
                         ("mcp_recall", "`engram mcp`: query_memory over stdio (an assistant's recall; one server process)"),
                         ("process_search", "`engram search` process"), ("process_version", "`engram --version` process (start-up alone)")):
            if k in q:
                d = 3 if "in_" in k else 1
                out.append("| %s | %s | %s | %s | %s | %d |" % (label, fmt(q[k]["p50_ms"], d), fmt(q[k]["p99_ms"], d),
                                                               fmt(q[k].get("cpu_p50_ms"), d), fmt(q[k].get("cpu_p99_ms"), d), q[k]["n"]))
        key = "readerCpuMedianMs" if any("readerCpuMedianMs" in x for x in q.get("per_query", [])) else "readerMedianMs"
        slow = sorted(q.get("per_query", []), key=lambda x: -x[key])[:5]
        if slow:
            out += ["", "Slowest queries (in-process median, %s): " % ("CPU" if key.endswith("CpuMedianMs") else "wall") + "; ".join(
                "`%s` %.2f ms (%d matches)" % (x["q"], x[key], x["estimated"]) for x in slow) + "."]
    for key, title in (("provider", "GNOME provider round trip (GetInitialResultSet + GetResultMetas)"),
                       ("feeds", "Feed cold start (`engram feed motd --format waybar`)")):
        if r.get(key):
            out += ["", "## " + title, "", "| | p50 ms | p99 ms | CPU p50 ms | p50 vs engram |", "|---|---:|---:|---:|---:|"]
            base = r[key]["engram"]["p50_ms"]
            for name, e in r[key].items():
                if isinstance(e, dict) and "p50_ms" in e:
                    out.append("| %s | %.2f | %.2f | %s | %.2f× |" % (name, e["p50_ms"], e["p99_ms"], fmt(e.get("cpu_p50_ms"), 2),
                                                                  e["p50_ms"] / base))
            if r[key].get("note"):
                out += ["", r[key]["note"]]
    if r.get("capture"):
        c = r["capture"]
        out += ["", "## Capture to searchable (daemon running)", "",
                "D-Bus `Remember` until the provider finds the new word: p50 %.0f ms, max %.0f ms over %d captures." % (c["p50_ms"], c["max_ms"], c["n"])]
        if "cli" in c:
            out.append("`engram remember` process until the provider finds it: p50 %.0f ms, max %.0f ms over %d." % (
                c["cli"]["p50_ms"], c["cli"]["max_ms"], c["cli"]["n"]))
    if r.get("daemon_rss"):
        d = r["daemon_rss"]
        out += ["", "## Daemon resident memory", "", "idle %.1f MB, under query load %.1f MB." % (d["idle_mb"], d["load_mb"])]
    out += ["", "## Targets", "", "| target | this run | |", "|---|---|---|"]
    for t, v, ok in targets(r):
        out.append("| %s | %s | %s |" % (t, v, "met" if ok else "**missed**"))
    if r["notes"]:
        out += ["", "Notes:", ""] + ["- " + n for n in r["notes"]]
    return "\n".join(out) + "\n"


def svg(r):
    """A horizontal bar chart of index throughput (docs/s, wall and CPU)."""
    imp = r["import"]
    rows = [(k, imp[k]) for k in ("native_cxx", "python_xapian", "fts5", "engram_rebuild", "engram_import") if k in imp]
    top = max([max(e["docs_per_s"], e["docs_per_cpu_s"] or 0) for _, e in rows] + [1])
    w, bar, left = 760, 16, 150
    h = 50 + len(rows) * (2 * bar + 14)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (w, h),
             '<rect width="100%" height="100%" fill="white"/>',
             '<text x="10" y="20" font-size="14">Index throughput, %d memories (docs/s: dark = wall, light = per CPU-second)</text>'
             % r["corpus"]["documents"]]
    y = 36
    for k, e in rows:
        parts.append('<text x="10" y="%d">%s</text>' % (y + bar + 4, k.replace("_", " ")))
        for val, colour in ((e["docs_per_s"], "#2b6cb0"), (e["docs_per_cpu_s"] or 0, "#90cdf4")):
            bw = (w - left - 90) * val / top
            parts.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' % (left, y, bw, bar, colour))
            parts.append('<text x="%.1f" y="%d">%d</text>' % (left + bw + 4, y + bar - 4, val))
            y += bar
        y += 14
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_outputs(r, out):
    write_results(out, markdown(r), r)
    with open(os.path.join(out, "chart.svg"), "w") as f:
        f.write(svg(r))
    print(markdown(r))
