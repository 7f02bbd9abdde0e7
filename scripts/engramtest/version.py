"""The code a `make bench` or `make stress` run measured: the commit, and whether a measured file differed from it.

    /usr/bin/python3 -m engramtest.version SUITE          JSON {"commit", "dirty", "dirty_files", "marker"}
    /usr/bin/python3 -m engramtest.version --paths SUITE  the paths SUITE measures, one a line (check-figures.sh)

The marker is the line docs/performance.md (bench) or docs/reliability.md (stress) carries above the suite's figures; `make check-figures` (scripts/check-figures.sh)
compares it with these same paths. Markdown under them is not measured code.
"""
import json
import subprocess
import sys

from engramtest import ROOT

# What every suite's figures depend on: the code, the package the suites stand on and the corpus both build.
MEASURED = ["Sources", "Package.swift", "scripts/engramtest", "Tests/EngramTestSupport/session-bus.conf",
            "scripts/bench/debian-corpus.sh"]
SUITES = ("bench", "stress")


def measured(suite):
    """The paths a suite's figures come from: MEASURED and the suite's own folder."""
    if suite not in SUITES:
        raise ValueError(f"no figures come from {suite!r} (only {', '.join(SUITES)})")
    return [*MEASURED, f"scripts/{suite}"]


def code_version(suite, root=ROOT):
    """The commit measured, whether a measured file differed from it, and the marker line the docs carry."""
    def git(*args):
        p = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)
        return p.stdout if p.returncode == 0 else None
    commit = (git("rev-parse", "HEAD") or "").strip()
    if not commit:
        return {"commit": None, "dirty": True, "dirty_files": [], "marker": None,
                "note": "not a git checkout: the run cannot be tied to a commit"}
    changed = git("status", "--porcelain", "--", *measured(suite), ":(exclude)*.md") or ""
    files = [l[3:] for l in changed.splitlines() if l.strip()]
    state = "dirty" if files else "clean"
    return {"commit": commit, "dirty": bool(files), "dirty_files": files[:50],
            "marker": f"<!-- figures: {suite} {commit} {state} -->"}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--paths"] and len(sys.argv) == 3:
        print("\n".join(measured(sys.argv[2])))
    elif len(sys.argv) == 2:
        print(json.dumps(code_version(sys.argv[1])))
    else:
        sys.exit(__doc__)
