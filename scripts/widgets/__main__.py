"""`make test-widgets`: Engram's feeds in the real programs, headless (Waybar in sway, i3blocks, Conky, polybar, rofi,
fuzzel, wofi, dunst, the systemd units) and `make install` into a temporary prefix.

    PYTHONPATH=scripts /usr/bin/python3 -m widgets [--screenshots] [ENGRAM_BIN [ENGRAM_FEED_BIN]]

e2e.sh drives the programs (see its header: the user it runs them as, ENGRAM_E2E_ONLY); each check it makes is a
line `PASS|FAIL|SKIP  program: what a user would see`, collected here into bench-out/widgets/results.md. Fails when
a check failed, or when the driver itself stopped with an error.
"""
import os
import re
import subprocess
import sys

from engramtest import ROOT, child_env
from engramtest.report import Report

LINE = re.compile(r"^(PASS|FAIL|SKIP)  ([^:]+): (.*)$")


def main(argv):
    out = os.path.join(ROOT, "bench-out", "widgets")
    report = Report("widgets", out, columns=("program", "what was shown"), prefix="")
    driver = subprocess.Popen(["bash", os.path.join(os.path.dirname(os.path.abspath(__file__)), "e2e.sh"), *argv],
                              cwd=ROOT, env=child_env(), stdout=subprocess.PIPE, text=True, errors="replace")
    for line in driver.stdout:
        m = LINE.match(line.rstrip("\n"))
        if m:
            report.add(*m.groups())
        else:
            print(line, end="", flush=True)
    status = driver.wait()
    if status != 0:
        report.add("FAIL", "widgets-e2e", f"the driver stopped with exit status {status} (see its output above)")
    print()
    report.write()
    print(open(os.path.join(out, "results.md")).read())
    if report.failures:
        print(f"widgets-e2e: {len(report.failures)} check(s) failed; logs in {out}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
