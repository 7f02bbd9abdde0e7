#!/usr/bin/python3
"""The code a `make bench` or `make stress` run measured: the commit, and whether a measured file differed from it.

Usage: code-version.py SUITE   (bench or stress; prints JSON {"commit", "dirty", "dirty_files", "marker"})
As a module: code_version(root, suite). The marker is the line README carries above the suite's figures, which
`make check-figures` (scripts/check-figures.sh) reads; the measured paths are the same as there.
"""
import json
import os
import subprocess
import sys

MEASURED = ["Sources", "Package.swift", "scripts/debian-corpus.sh"]


def code_version(root, suite):
    def git(*args):
        p = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)
        return p.stdout if p.returncode == 0 else None
    commit = (git("rev-parse", "HEAD") or "").strip()
    if not commit:
        return {"commit": None, "dirty": True, "dirty_files": [], "marker": None,
                "note": "not a git checkout: the run cannot be tied to a commit"}
    changed = git("status", "--porcelain", "--", *MEASURED, f"scripts/{suite}", ":(exclude)*.md") or ""
    files = [l[3:] for l in changed.splitlines() if l.strip()]
    state = "dirty" if files else "clean"
    return {"commit": commit, "dirty": bool(files), "dirty_files": files[:50],
            "marker": f"<!-- figures: {suite} {commit} {state} -->"}


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    print(json.dumps(code_version(os.path.dirname(here), sys.argv[1])))
