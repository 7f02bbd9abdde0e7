"""Collects each part's verdict and FIGURE/NOTE lines into results.md and results.json (python3 -m stress calls it)."""
import os
import re
import time

from engramtest.report import cpu_model, load_average, write_results
from engramtest.version import code_version


def report(out, started_ns, load_before):
    """Writes out/results.md and results.json from out/summary.tsv and each part's log; returns whether all passed."""
    parts = []
    with open(os.path.join(out, "summary.tsv")) as f:
        for line in f:
            name, status, seconds = line.rstrip("\n").split("\t")
            figures, notes, fails = {}, [], []
            try:
                with open(os.path.join(out, name + ".log"), errors="replace") as log:
                    for l in log:
                        m = re.match(r"^FIGURE ([^:]+):\s?(.*)$", l.rstrip("\n"))
                        if m:
                            key = m.group(1).strip()
                            while key in figures:  # a key printed twice keeps both values
                                key += " (again)"
                            figures[key] = m.group(2).strip()
                        elif l.startswith("NOTE "):
                            notes.append(l[5:].strip())
                        elif l.startswith("FAIL"):
                            fails.append(l.rstrip("\n"))
            except FileNotFoundError:
                pass
            parts.append({"part": name, "passed": status == "0", "exit": int(status), "seconds": float(seconds),
                          "figures": figures, "notes": notes, "failures": fails[:20]})

    passed = all(p["passed"] for p in parts)
    code = code_version("stress")
    whole = not os.environ.get("STRESS_ONLY") and os.environ.get("STRESS_QUICK", "0") != "1"
    if not whole:
        code["note"] = "a partial or quick run (STRESS_ONLY / STRESS_QUICK): its figures are not docs/reliability.md's, so no marker"
        code["marker"] = None
    result = {
        "code": code,
        "passed": passed,
        "seconds": round((time.time_ns() - started_ns) / 1e9, 1),
        "machine": f"{os.cpu_count()} cores, {cpu_model()}",
        "load_average_before": load_before,
        "load_average_after": load_average(),
        "finished": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "parts": parts,
    }

    md = [f"# make stress: {'PASSED' if passed else 'FAILED'}", "",
          f"{result['finished']} · {result['machine']} · load average {load_before} → {result['load_average_after']}"
          f" · {result['seconds']:.0f} s in all", "",
          f"Code measured: commit {code['commit']}" + (f", with uncommitted changes to {', '.join(code['dirty_files'][:5])}" if code['dirty'] else ", clean")
          + (f". docs/reliability.md carries this line above the figures copied from this run (`make check-figures` reads it):\n\n    {code['marker']}"
             if code.get("marker") else f". {code.get('note', '')}"), "",
          "| part | verdict | seconds |", "|---|---|---:|"]
    for p in parts:
        md.append(f"| {p['part']} | {'pass' if p['passed'] else 'FAIL (exit %d)' % p['exit']} | {p['seconds']:.0f} |")
    for p in parts:
        md += ["", f"## {p['part']}", ""]
        if p["figures"]:
            md += ["| figure | value |", "|---|---|"]
            md += [f"| {k} | {v} |" for k, v in p["figures"].items()]
        for n in p["notes"]:
            md.append(f"- note: {n}")
        for x in p["failures"]:
            md.append(f"- {x}")
    write_results(out, md, result)
    print(f"==> stress: {'PASSED' if passed else 'FAILED'}; results in {out}/results.md and results.json")
    for p in parts:
        print(f"    {p['part']:<24} {'pass' if p['passed'] else 'FAIL'}  {p['seconds']:.0f} s")
    return passed
