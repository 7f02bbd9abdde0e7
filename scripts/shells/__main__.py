"""`make test-shells`: Engram inside the real GNOME Shell 43 and KRunner's own KF5 machinery, headless.

    PYTHONPATH=scripts /usr/bin/python3 -m shells [--screenshots] [ENGRAM_BIN]

Installs what the two suites need (scripts/install-deps.sh --shells), then runs
    shells.gnome.test_gnome_shell   headless gnome-shell, typed into with a virtual keyboard
    shells.krunner.test_krunner     KF5's RunnerManager through Milou (KRunner's list) under qmlscene
each against ENGRAM_BIN (default .build/debug/engram) installed into a temporary prefix by scripts/install.sh.
Results, logs and screenshots go to bench-out/shells/; --screenshots also refreshes Integrations/gnome-shell/
and Integrations/krunner/screenshot.png. Fails if either suite has a failed check.
"""
import os
import subprocess
import sys
import time

from engramtest import PYTHON, ROOT, child_env


def main(argv):
    flags = ["--screenshots"] if argv[:1] == ["--screenshots"] else []
    argv = argv[len(flags):]
    engram = os.path.abspath(argv[0]) if argv else os.path.join(ROOT, ".build", "debug", "engram")
    os.chdir(ROOT)
    env = child_env(dict(os.environ, ENGRAM_BIN=engram))
    if subprocess.run(["scripts/install-deps.sh", "--shells"]).returncode != 0:
        sys.exit("shells: cannot install gnome-shell and the KRunner QML modules")
    for tool in ("generate-manual", "engram-feed"):
        path = os.path.join(os.path.dirname(engram), tool)
        if not os.access(path, os.X_OK):
            sys.exit(f"shells: {path} is not built (scripts/install.sh needs it)")
    started, status = time.monotonic(), 0
    for suite in ("shells.gnome.test_gnome_shell", "shells.gnome.test_extension", "shells.krunner.test_krunner"):
        if subprocess.run([PYTHON, "-m", suite, *flags], env=env).returncode != 0:
            status = 1
    print(f"shells: both suites took {time.monotonic() - started:.0f} s")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
