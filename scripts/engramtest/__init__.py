"""The project's test worlds: what every suite under scripts/ stands on.

    world    a temporary user: HOME and XDG folders (0700), Engram's data and config folders, the env for children
    bus      a private dbus-daemon session bus (its config, started and stopped), and waiting for a name on a bus
    daemon   `engram daemon` in a world on a bus: started, its name awaited, stopped cleanly
    engram   the `engram` binary run in a world: stdout, stderr and exit status, or its JSON
    report   the one writer of results.md / results.json, and the PASS/FAIL checks a suite reports
    version  the code a bench or stress run measured, and the one list of paths that measurement covers

Import with scripts/ on the path: `PYTHONPATH=scripts /usr/bin/python3 -m SUITE` (the Makefile does).
"""
import os

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYTHON = "/usr/bin/python3"  # Debian's, with gi, dbus and xapian (the python3 first on PATH may be another one)
SCRIPTS = os.path.join(ROOT, "scripts")


def child_env(env=None):
    """env (default os.environ) with scripts/ on PYTHONPATH, so a child started as `python3 -m …` finds this package."""
    env = dict(os.environ if env is None else env)
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if SCRIPTS not in paths:
        env["PYTHONPATH"] = os.pathsep.join([SCRIPTS, *paths])
    return env
