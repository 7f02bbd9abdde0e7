"""Collects each part's verdict and FIGURE/NOTE lines into results.md and results.json; exits 1 if a part failed.

Usage: report.py STRESS_OUT STARTED_NS "LOAD BEFORE"   (run.sh calls it).
"""
import json
import os
import platform
import re
import sys
import time

out, started_ns, load_before = sys.argv[1], int(sys.argv[2]), sys.argv[3]
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

def cpu_model():
    try:
        for l in open("/proc/cpuinfo"):
            if l.startswith("model name"):
                return l.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()

passed = all(p["passed"] for p in parts)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from importlib import import_module  # noqa: E402
code = import_module("code-version").code_version(os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..")), "stress")
whole = not os.environ.get("STRESS_ONLY") and os.environ.get("STRESS_QUICK", "0") != "1"
if not whole:
    code["note"] = "a partial or quick run (STRESS_ONLY / STRESS_QUICK): its figures are not README's, so no marker"
    code["marker"] = None
result = {
    "code": code,
    "passed": passed,
    "seconds": round((time.time_ns() - started_ns) / 1e9, 1),
    "machine": f"{os.cpu_count()} cores, {cpu_model()}",
    "load_average_before": load_before,
    "load_average_after": " ".join(open("/proc/loadavg").read().split()[:3]),
    "finished": time.strftime("%Y-%m-%d %H:%M:%S %z"),
    "parts": parts,
}
with open(os.path.join(out, "results.json"), "w") as f:
    json.dump(result, f, indent=2, ensure_ascii=False)
    f.write("\n")

md = [f"# make stress: {'PASSED' if passed else 'FAILED'}", "",
      f"{result['finished']} · {result['machine']} · load average {load_before} → {result['load_average_after']}"
      f" · {result['seconds']:.0f} s in all", "",
      f"Code measured: commit {code['commit']}" + (f", with uncommitted changes to {', '.join(code['dirty_files'][:5])}" if code['dirty'] else ", clean")
      + (f". README carries this line above the figures copied from this run (`make check-figures` reads it):\n\n    {code['marker']}"
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
with open(os.path.join(out, "results.md"), "w") as f:
    f.write("\n".join(md) + "\n")
print(f"==> stress: {'PASSED' if passed else 'FAILED'}; results in {out}/results.md and results.json")
for p in parts:
    print(f"    {p['part']:<24} {'pass' if p['passed'] else 'FAIL'}  {p['seconds']:.0f} s")
sys.exit(0 if passed else 1)
