"""What both real-shell suites share: a user's world with Engram installed, processes we stop, and checks.

A World is one person's desktop session in a temporary folder: Engram installed by `scripts/install.sh` into a
prefix (so the shell reads the real `.ini`, desktop file, D-Bus service and KRunner plugin), XDG folders of its
own, the sample collection imported, and `[desktop] terminal` pointed at a recorder that writes the argv it was
given to `launches/` instead of opening a window. Every process a suite starts is registered here and stopped by
its pid (never by name), its group first with SIGTERM, then SIGKILL.
"""

import json
import os
import signal
import subprocess
import sys

from engramtest import PYTHON, ROOT
from engramtest.bus import SessionBus
from engramtest.engram import Engram, EngramFailed
from engramtest.report import Failed, Report, eventually, expect  # noqa: F401 (the suites take them from here)
from engramtest.world import World as Folders

RECORDER = r'''
import json, os, sys, time
path = os.path.join(os.environ["ENGRAM_SHELLS_LAUNCHES"], "%d-%d.json" % (time.time_ns(), os.getpid()))
with open(path + ".tmp", "w") as f:
    json.dump({"argv": sys.argv[1:], "startup_id": os.environ.get("DESKTOP_STARTUP_ID"),
               "activation_token": os.environ.get("XDG_ACTIVATION_TOKEN")}, f)
os.rename(path + ".tmp", path)
'''


class World:
    """A temporary user session with Engram installed into a prefix and the sample collection imported."""

    def __init__(self, name, engram_build, out_dir, keep=False):
        # Nothing of the tester's session: no bus, display, XDG folder or Engram setting of theirs reaches it.
        self.folders = Folders(f"engram-{name}", engram_dirs=False, keep=keep, mode=0o755,
                               drop=("DBUS_", "XDG_", "WAYLAND_", "DESKTOP_STARTUP", "ENGRAM_", "DISPLAY", "LD_PRELOAD"))
        self.base, self.env = self.folders.base, self.folders.env
        self.out_dir, self.keep, self.procs = out_dir, keep, []
        self.prefix = os.path.join(self.base, "prefix")
        self.runtime = self.folders.runtime
        self.launches = os.path.join(self.base, "launches")
        os.makedirs(self.launches, mode=0o700, exist_ok=True)
        self.env.update({
            "XDG_DATA_DIRS": f"{self.prefix}/share:/usr/local/share:/usr/share",
            "PATH": f"{self.prefix}/bin:" + os.environ.get("PATH", "/usr/bin:/bin"),
            "ENGRAM_SHELLS_LAUNCHES": self.launches,
            "LANG": "C.UTF-8",
        })
        self.data_dir = self.folders.data
        self.engram = os.path.join(self.prefix, "bin", "engram")
        self._install(engram_build)

    def _install(self, engram_build):
        """`scripts/install.sh` into the prefix, the recorder as the terminal, and the samples imported."""
        out = subprocess.run(["scripts/install.sh", engram_build, self.prefix], cwd=ROOT, env=self.env,
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise Failed(f"scripts/install.sh failed: {out.stderr.strip()}")
        recorder = os.path.join(self.base, "record-terminal.py")
        with open(recorder, "w") as f:
            f.write(RECORDER)
        # What a click opens is Engram's window (open = "app", the default): the installed engram-app is swapped for
        # the recorder, so the checks read the argv and startup id the daemon started it with (the window itself is
        # driven by `make test-window`); the terminal, the fallback, records too.
        app = os.path.join(self.prefix, "bin", "engram-app")
        with open(app, "w") as f:
            f.write(f"#!{PYTHON}\n" + RECORDER)
        os.chmod(app, 0o755)
        self.folders.write_config(f'[desktop]\nopen = "app"\nterminal = ["{PYTHON}", "{recorder}"]\n')
        samples = os.path.join(ROOT, "Samples")
        self.run_engram("import", f"{samples}/memories.jsonl", f"{samples}/curricula/swift-concurrency.toml",
                        f"{samples}/curricula/spanish-b1.yaml")

    def run_engram(self, *args, check=True, env=None):
        """Runs the installed engram as this user; returns the completed process."""
        try:
            return Engram(self.engram, env or self.env, timeout=60)(*args, check=check)
        except EngramFailed as error:
            raise Failed(str(error))

    def memory(self, memory_id):
        """The stored memory as `engram show --peek --json` prints it, or None."""
        out = self.run_engram("show", "--peek", "--json", memory_id, check=False)
        return json.loads(out.stdout) if out.returncode == 0 else None

    def launches_seen(self):
        """The argv of each terminal the daemon started, oldest first."""
        names = sorted(n for n in os.listdir(self.launches) if n.endswith(".json"))
        return [json.load(open(os.path.join(self.launches, n))) for n in names]

    def start_bus(self, log_name="session-bus.log"):
        """This session's own bus (activation from the world's XDG_DATA_DIRS, so from the installed prefix), its
        address in env; stopped by stop_all."""
        bus = SessionBus(os.path.join(self.base, "bus"), env=self.env, log=os.path.join(self.out_dir, log_name))
        try:
            self.env["DBUS_SESSION_BUS_ADDRESS"] = bus.start()
        finally:
            if bus.proc:
                self.procs.append(bus.proc)
        return bus

    def start(self, argv, log_name, env=None, **kwargs):
        """Starts a process in its own group, logging to out_dir/log_name; it is stopped by stop_all."""
        log = open(os.path.join(self.out_dir, log_name), "ab")
        proc = subprocess.Popen(argv, env=env or self.env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True, **kwargs)
        self.procs.append(proc)
        return proc

    def stop(self, proc, grace=5.0):
        """SIGTERM to the process's group, SIGKILL after the grace period."""
        if proc.poll() is not None:
            return proc.returncode
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            return proc.wait(grace)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            return proc.wait(5)

    def stop_all(self):
        """Stops every process started here, the newest first."""
        for proc in reversed(self.procs):
            self.stop(proc)
        self.procs.clear()

    def daemon_pids(self):
        """Pids of `engram daemon` processes running this world's installed binary."""
        pids = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
            except OSError:
                continue
            if cmd and cmd[0].decode(errors="replace") == self.engram and b"daemon" in cmd[1:]:
                pids.append(int(pid))
        return pids

    def close(self):
        self.stop_all()
        for pid in self.daemon_pids():  # activated by the bus, not started by us: end it with the bus
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        self.folders.close()


def engram_build():
    """The engram binary to install: $ENGRAM_BIN or the debug build."""
    path = os.environ.get("ENGRAM_BIN", os.path.join(ROOT, ".build", "debug", "engram"))
    if not os.access(path, os.X_OK):
        sys.exit(f"shells: {path} is not built; run `swift build` (make test-shells builds it)")
    return path
