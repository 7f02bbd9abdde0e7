#!/usr/bin/python3
"""Two builds of Engram side by side, taking turns: start-up (`engram --version`), the lean feed's cold start
(`engram-feed motd --format waybar` on the bench's 63,666-memory store) and `engram import` of the first 10,000
memories of the bench's corpus into a fresh folder. For telling a change's cost from the machine's: `make bench`
gives each build's figures against baselines; this gives the two builds against each other.

Usage: PYTHONPATH=scripts /usr/bin/python3 -m probe.build_ab OLD_BIN_DIR NEW_BIN_DIR [ROUNDS]
(each BIN_DIR holds engram and engram-feed, e.g. .build/release). Needs bench-out/work from `make bench`.
Every command's output must be the same for both builds (the feed's line, the import's count), or it stops.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

from bench.timing import pct
from engramtest import ROOT

WORK = os.path.join(ROOT, "bench-out", "work")


def timed(argv, env):
    t = time.monotonic()
    p = subprocess.run(argv, env=env, capture_output=True, text=True)
    ms = (time.monotonic() - t) * 1000
    if p.returncode != 0:
        raise SystemExit(f"build_ab: {' '.join(argv[:3])} exited {p.returncode}: {p.stderr[-300:]}")
    return ms, p.stdout


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = (os.path.abspath(a) for a in sys.argv[1:3])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    data = os.path.join(WORK, "engram-data")
    corpus = os.path.join(WORK, "corpus.jsonl")
    if not os.path.exists(corpus):
        sys.exit("build_ab: no bench-out/work/corpus.jsonl; run make bench first")
    scratch = tempfile.mkdtemp(prefix="engram-build-ab.")
    first = os.path.join(scratch, "first-10k.jsonl")
    with open(corpus) as src, open(first, "w") as dst:
        for i, line in enumerate(src):
            if i == 10_000:
                break
            dst.write(line)
    env = dict(os.environ, ENGRAM_MODEL_DIR="none", NO_COLOR="1", TZ="UTC", ENGRAM_DATA_DIR=data,
               ENGRAM_CONFIG_DIR=os.path.join(scratch, "config"), XDG_RUNTIME_DIR=scratch)
    results = {b: {"version": [], "feed": [], "import": []} for b in ("old", "new")}
    outputs = {b: {} for b in ("old", "new")}
    for r in range(rounds):
        for label, bin_dir in (("old", old), ("new", new)) if r % 2 == 0 else (("new", new), ("old", old)):
            for _ in range(10):
                results[label]["version"].append(timed([f"{bin_dir}/engram", "--version"], env)[0])
                ms, out = timed([f"{bin_dir}/engram-feed", "motd", "--format", "waybar"], env)
                results[label]["feed"].append(ms)
                outputs[label]["feed"] = out
            target = os.path.join(scratch, f"import-{label}-{r}")
            ms, out = timed([f"{bin_dir}/engram", "import", first, "--data-dir", target], env)
            results[label]["import"].append(ms)
            outputs[label]["import"] = out.strip().splitlines()[-1] if out.strip() else ""
            shutil.rmtree(target, ignore_errors=True)
    for what in ("feed", "import"):
        if outputs["old"][what] != outputs["new"][what]:
            sys.exit(f"build_ab: the builds' {what} output differs:\n  old {outputs['old'][what]!r}\n  new {outputs['new'][what]!r}")
    print("| measurement (p50, taking turns) | old build | new build | new ÷ old |")
    print("|---|---:|---:|---:|")
    for what, label in (("version", "`engram --version`"), ("feed", "`engram-feed motd --format waybar`, 63,666 memories"),
                        ("import", "`engram import` of 10,000 into a new folder")):
        o, n = pct(results["old"][what], 50), pct(results["new"][what], 50)
        print(f"| {label} | {o:.1f} ms | {n:.1f} ms | {n / o:.2f} |")
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
