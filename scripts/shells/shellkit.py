"""What both real-shell suites share: a user's world with Engram installed, processes we stop, and checks.

A World is one person's desktop session in a temporary folder: Engram installed by `scripts/install.sh` into a
prefix (so the shell reads the real `.ini`, desktop file, D-Bus service and KRunner plugin), XDG folders of its
own, the sample collection imported, and `[desktop] terminal` pointed at a recorder that writes the argv it was
given to `launches/` instead of opening a window. Every process a suite starts is registered here and stopped by
its pid (never by name), its group first with SIGTERM, then SIGKILL.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
PYTHON = "/usr/bin/python3"  # Debian's, with gi and dbus (the python3 first on PATH is another one)

RECORDER = r'''
import json, os, sys, time
path = os.path.join(os.environ["ENGRAM_SHELLS_LAUNCHES"], "%d-%d.json" % (time.time_ns(), os.getpid()))
with open(path + ".tmp", "w") as f:
    json.dump({"argv": sys.argv[1:], "startup_id": os.environ.get("DESKTOP_STARTUP_ID")}, f)
os.rename(path + ".tmp", path)
'''


class Failed(Exception):
    """A check a user would notice failed; the message says what was expected and what was seen."""


class Report:
    """Collects PASS/FAIL lines, prints each as it comes and writes results.md at the end."""

    def __init__(self, suite, out_dir):
        self.suite, self.out_dir, self.lines, self.started = suite, out_dir, [], time.monotonic()

    def record(self, ok, name, detail):
        line = ("PASS" if ok else "FAIL", name, detail)
        self.lines.append(line)
        print(f"{line[0]}  {self.suite}: {name}: {detail}", flush=True)

    def check(self, name, fn, on_fail=None):
        """Runs one check; its return value (a sentence) is the PASS detail, a Failed its FAIL detail."""
        t0 = time.monotonic()
        try:
            detail = fn() or "ok"
            self.record(True, name, f"{detail} ({time.monotonic() - t0:.1f} s)")
            return True
        except Failed as error:
            self.record(False, name, str(error))
        except Exception as error:  # a broken harness step is a failure too, with what broke
            self.record(False, name, f"{type(error).__name__}: {error}")
        if on_fail:
            try:
                on_fail(name)
            except Exception as error:
                print(f"  (could not keep evidence: {error})", flush=True)
        return False

    @property
    def failures(self):
        return [l for l in self.lines if l[0] == "FAIL"]

    def write(self):
        os.makedirs(self.out_dir, exist_ok=True)
        took = time.monotonic() - self.started
        with open(os.path.join(self.out_dir, "results.md"), "w") as f:
            f.write(f"# {self.suite}: {len(self.lines) - len(self.failures)}/{len(self.lines)} passed in {took:.0f} s\n\n")
            f.write("| result | check | detail |\n|---|---|---|\n")
            for status, name, detail in self.lines:
                f.write(f"| {status} | {name} | {detail.replace('|', '/')} |\n")
        print(f"{self.suite}: {len(self.lines) - len(self.failures)}/{len(self.lines)} checks passed in {took:.0f} s; "
              f"results and logs in {self.out_dir}", flush=True)


def expect(condition, message):
    """Raises Failed with the message unless the condition holds."""
    if not condition:
        raise Failed(message)


def eventually(fn, timeout=10.0, interval=0.1):
    """Polls fn until it returns something truthy; returns that, or the last value after the timeout."""
    deadline = time.monotonic() + timeout
    value = fn()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = fn()
    return value


class World:
    """A temporary user session with Engram installed into a prefix and the sample collection imported."""

    def __init__(self, name, engram_build, out_dir, keep=False):
        self.base = tempfile.mkdtemp(prefix=f"engram-{name}.")
        os.chmod(self.base, 0o755)
        self.out_dir, self.keep, self.procs = out_dir, keep, []
        self.prefix = os.path.join(self.base, "prefix")
        self.runtime = os.path.join(self.base, "run")
        self.launches = os.path.join(self.base, "launches")
        home = os.path.join(self.base, "home")
        for d in (self.runtime, self.launches, home):
            os.makedirs(d, mode=0o700, exist_ok=True)
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("DBUS_", "XDG_", "WAYLAND_", "DESKTOP_STARTUP", "ENGRAM_"))
                    and k not in ("DISPLAY", "LD_PRELOAD")}
        self.env.update({
            "HOME": home,
            "XDG_RUNTIME_DIR": self.runtime,
            "XDG_DATA_HOME": os.path.join(self.base, "data"),
            "XDG_CONFIG_HOME": os.path.join(self.base, "config"),
            "XDG_CACHE_HOME": os.path.join(self.base, "cache"),
            "XDG_DATA_DIRS": f"{self.prefix}/share:/usr/local/share:/usr/share",
            "PATH": f"{self.prefix}/bin:" + os.environ.get("PATH", "/usr/bin:/bin"),
            "ENGRAM_SHELLS_LAUNCHES": self.launches,
            "LANG": "C.UTF-8",
        })
        self.data_dir = os.path.join(self.env["XDG_DATA_HOME"], "engram")
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
        config_dir = os.path.join(self.env["XDG_CONFIG_HOME"], "engram")
        os.makedirs(config_dir, mode=0o700, exist_ok=True)
        with open(os.path.join(config_dir, "config.toml"), "w") as f:
            f.write(f'[desktop]\nterminal = ["{PYTHON}", "{recorder}"]\n')
        samples = os.path.join(ROOT, "Samples")
        self.run_engram("import", f"{samples}/memories.jsonl", f"{samples}/curricula/swift-concurrency.toml",
                        f"{samples}/curricula/spanish-b1.yaml")

    def run_engram(self, *args, check=True, env=None):
        """Runs the installed engram as this user; returns the completed process."""
        out = subprocess.run([self.engram, *args], env=env or self.env, capture_output=True, text=True, timeout=60)
        if check and out.returncode != 0:
            raise Failed(f"engram {' '.join(args)} exited {out.returncode}: {out.stderr.strip()}")
        return out

    def memory(self, memory_id):
        """The stored memory as `engram show --peek --json` prints it, or None."""
        out = self.run_engram("show", "--peek", "--json", memory_id, check=False)
        return json.loads(out.stdout) if out.returncode == 0 else None

    def launches_seen(self):
        """The argv of each terminal the daemon started, oldest first."""
        names = sorted(n for n in os.listdir(self.launches) if n.endswith(".json"))
        return [json.load(open(os.path.join(self.launches, n))) for n in names]

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
        if not self.keep:
            shutil.rmtree(self.base, ignore_errors=True)


def engram_build():
    """The engram binary to install: $ENGRAM_BIN or the debug build."""
    path = os.environ.get("ENGRAM_BIN", os.path.join(ROOT, ".build", "debug", "engram"))
    if not os.access(path, os.X_OK):
        sys.exit(f"shells: {path} is not built; run `swift build` (make test-shells builds it)")
    return path
