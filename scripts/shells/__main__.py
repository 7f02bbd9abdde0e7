"""`make test-shells`: Engram inside the real GNOME Shell 43 and 48 and KRunner's own KF5 and KF6 machinery, headless.

    PYTHONPATH=scripts /usr/bin/python3 -m shells [--screenshots] [--deb DEB] [ENGRAM_BIN]

Installs what the two suites need (scripts/install-deps.sh --shells), then runs
    shells.gnome.test_gnome_shell   headless gnome-shell, typed into with a virtual keyboard
    shells.krunner.test_krunner     KF5's RunnerManager through Milou (KRunner's list) under qmlscene
each against ENGRAM_BIN (default .build/debug/engram) installed into a temporary prefix by scripts/install.sh.
Then, given the Debian package (--deb, `make deb`), the same suites run again inside a Debian 13 root (GNOME Shell 48,
KDE Frameworks 6.13 with Milou 6.3 under Qt 6's qml; scripts/trixie/root.sh builds it once into a cache folder outside
the clone) on Engram installed there from the package.
Results, logs and screenshots go to bench-out/shells/; --screenshots also refreshes Integrations/gnome-shell/
and Integrations/krunner/screenshot.png. Fails if any suite has a failed check, and says which.
"""
import os
import subprocess
import sys
import time

from engramtest import PYTHON, ROOT, child_env


def main(argv):
    flags = ["--screenshots"] if argv[:1] == ["--screenshots"] else []
    argv = argv[len(flags):]
    deb = None
    if argv[:1] == ["--deb"]:
        deb, argv = os.path.abspath(argv[1]), argv[2:]
    engram = os.path.abspath(argv[0]) if argv else os.path.join(ROOT, ".build", "debug", "engram")
    os.chdir(ROOT)
    # The daemons log every search (debug level), so a failed check's log says what each search found.
    env = child_env(dict(os.environ, ENGRAM_BIN=engram, ENGRAM_VERBOSE="1"))
    if subprocess.run(["scripts/install-deps.sh", "--shells"]).returncode != 0:
        sys.exit("shells: cannot install gnome-shell and the KRunner QML modules")
    for tool in ("generate-manual", "engram-feed"):
        path = os.path.join(os.path.dirname(engram), tool)
        if not os.access(path, os.X_OK):
            sys.exit(f"shells: {path} is not built (scripts/install.sh needs it)")
    started, failed = time.monotonic(), []
    suites = [("shells.gnome.test_gnome_shell", "GNOME Shell 43", []), ("shells.gnome.test_extension", "GNOME Shell 43 extension", []),
              ("shells.krunner.test_krunner", "KF5 KRunner", []), ("shells.plasma.test_plasmoid", "Plasma 5.27 widget", [])]
    if deb:
        if not os.path.exists(deb):
            sys.exit(f"shells: {deb} is not built (make deb)")
        t0 = time.monotonic()
        out = subprocess.run(["scripts/trixie/root.sh"], stdout=subprocess.PIPE, text=True)
        if out.returncode != 0:
            sys.exit("shells: the Debian 13 root could not be built (scripts/trixie/root.sh)")
        root = out.stdout.strip().splitlines()[-1]
        print(f"shells: the Debian 13 root {root} ready after {time.monotonic() - t0:.0f} s", flush=True)
        inside = ["--root", root, "--deb", deb]
        suites += [("shells.gnome.test_gnome_shell", "GNOME Shell 48", inside),
                   ("shells.gnome.test_extension", "GNOME Shell 48 extension", inside),
                   ("shells.krunner.test_krunner", "KF6 KRunner", inside),
                   ("shells.plasma.test_plasmoid", "Plasma 6.3 widget", inside)]
    try:
        for suite, name, extra in suites:
            t0 = time.monotonic()
            if subprocess.run([PYTHON, "-m", suite, *flags, *extra], env=env).returncode != 0:
                failed.append(name)
            print(f"shells: {name}: {time.monotonic() - t0:.0f} s", flush=True)
    finally:
        if deb:
            subprocess.run(["scripts/trixie/inroot.sh", "--umount", root])
    print(f"shells: {len(suites)} suites took {time.monotonic() - started:.0f} s"
          + (f"; FAILED: {', '.join(failed)} (logs in bench-out/shells/)" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
