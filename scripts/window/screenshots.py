"""The window's pictures (README.md, docs/window.md), made as the window suite runs it (the sample collection, the
daemon, mutter on a virtual display): search, a memory's page, its connections and a learning session, light and dark.

    env PYTHONPATH=scripts /usr/bin/python3 -m window.screenshots .build/debug/engram .build/debug/engram-app DIR

Each picture is the window alone (xdotool finds it, ImageMagick's import takes it); `make screenshots` writes them
into Desktop/screenshots/.
"""
import os
import signal
import subprocess
import sys
import time

from engramtest.report import eventually, expect
from window.__main__ import Suite


def shoot(suite, path):
    ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Engram"], env=suite.xenv,
                         capture_output=True, text=True).stdout.split()
    expect(ids, "no Engram window to photograph")
    time.sleep(0.8)  # transitions finish
    subprocess.run(["import", "-window", ids[-1], "-frame", path], env=suite.xenv, check=True)
    print("screenshot:", path, flush=True)


def main(engram, app, out):
    out = os.path.abspath(out)
    os.makedirs(out, exist_ok=True)
    suite = Suite(engram, app, os.path.join(os.path.dirname(out), ".screenshots-work"))
    suite.start()
    try:
        suite.engram("session", "start", "--curriculum", "swift-concurrency", check=True)
        w = suite.w
        for scheme in ("light", "dark"):
            for pid in suite.app_processes():
                os.kill(pid, signal.SIGTERM)
            expect(eventually(lambda: not suite.app_processes(), timeout=20), "the window did not close")
            suite.xenv["ENGRAM_APP_DARK"] = "1" if scheme == "dark" else "0"
            suite.launch("engram://search?q=sourdough")
            expect(eventually(lambda: len(w.rows()) >= 3, timeout=30), "no results to show")
            shoot(suite, os.path.join(out, f"window-search-{scheme}.png"))
            suite.launch("engram://memory/s227")
            expect(eventually(lambda: w.text(w.find("label", "Memory text")).startswith("Notes from Ana")), "s227 did not open")
            shoot(suite, os.path.join(out, f"window-memory-{scheme}.png"))
            w.click("push button", "Show connections")
            w.find("list", "Connected memories")
            shoot(suite, os.path.join(out, f"window-connections-{scheme}.png"))
            w.click("page tab", "Learning")
            w.find("label", contains="Session: Swift Concurrency")
            shoot(suite, os.path.join(out, f"window-learning-{scheme}.png"))
    finally:
        suite.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
