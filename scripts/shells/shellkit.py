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


class Root:
    """A Debian 13 root (scripts/trixie/root.sh) that a suite's processes run inside, with Engram installed from its
    Debian package (make deb). The harness stays outside: it reaches the root's buses through their sockets.

    Inside the root, the root's own path is a link to "/", so every path under it means the same file inside and
    outside: a world made under ROOT/tmp passes its folders to programs inside unchanged."""

    INROOT = os.path.join(ROOT, "scripts", "trixie", "inroot.sh")
    PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"

    def __init__(self, path, deb):
        self.path, self.deb = os.path.realpath(path), os.path.realpath(deb)
        self.name = "Debian 13"

    def prepare(self):
        """The path link, and the package installed (its dependencies from the mirror the first time)."""
        link = self.path + self.path
        os.makedirs(os.path.dirname(link), exist_ok=True)
        if not os.path.islink(link):
            os.symlink("/", link)
        copy = os.path.join(self.path, "tmp", os.path.basename(self.deb))
        subprocess.run(["cp", self.deb, copy], check=True)
        install = ("apt-get install -y -q --reinstall --no-install-recommends /tmp/" + os.path.basename(self.deb))
        # The dependencies come from the mirror the first time; lists older than a day are fetched again first.
        out = subprocess.run(self.wrap(["sh", "-c", "{ find /var/lib/apt/lists -name '*Packages*' -mtime -1 | grep -q . "
                                        "|| apt-get update -qq; } && " + install], {"DEBIAN_FRONTEND": "noninteractive"}),
                             capture_output=True, text=True, timeout=900)
        os.unlink(copy)
        if out.returncode != 0:
            raise Failed(f"apt install ./{os.path.basename(self.deb)} in the {self.name} root failed: "
                         f"{(out.stdout + out.stderr).strip()[-800:]}")

    def wrap(self, argv, env=None):
        """argv run inside the root with exactly env (PATH the root's; nothing of the host's python)."""
        pairs = [f"{k}={v}" for k, v in (env or {}).items()
                 if k not in ("PATH", "PYTHONPATH", "PYTHONHOME") and "\n" not in v]
        return [self.INROOT, self.path, f"PATH={self.PATH}", *pairs, *argv]

    def run(self, argv, env=None, **kwargs):
        return subprocess.run(self.wrap(argv, env), **kwargs)

    def owns(self, pid):
        """Whether the process runs inside this root."""
        try:
            return os.path.realpath(f"/proc/{pid}/root") == self.path
        except OSError:
            return False


class World:
    """A temporary user session with Engram installed into a prefix and the sample collection imported.

    With a Root, the session lives inside it: its folders under ROOT/tmp, Engram the root's /usr/bin/engram from the
    Debian package, and every process started through start() runs inside the root."""

    def __init__(self, name, engram_build, out_dir, keep=False, root=None):
        self.root = root
        if root:
            root.prepare()
        base = os.path.join(root.path, "tmp", f"engram-{name}.{os.getpid()}") if root else None
        # Nothing of the tester's session: no bus, display, XDG folder or Engram setting of theirs reaches it.
        self.folders = Folders(f"engram-{name}", base=base, engram_dirs=False, keep=keep, mode=0o755,
                               drop=("DBUS_", "XDG_", "WAYLAND_", "DESKTOP_STARTUP", "ENGRAM_", "DISPLAY", "LD_PRELOAD"))
        self.base, self.env = self.folders.base, self.folders.env
        self.out_dir, self.keep, self.procs = out_dir, keep, []
        self.prefix = os.path.join(self.base, "prefix") if not root else "/usr"
        self.runtime = self.folders.runtime
        self.launches = os.path.join(self.base, "launches")
        os.makedirs(self.launches, mode=0o700, exist_ok=True)
        self.env.update({
            "XDG_DATA_DIRS": f"{self.prefix}/share:/usr/local/share:/usr/share" if not root else "/usr/local/share:/usr/share",
            "PATH": f"{self.prefix}/bin:" + os.environ.get("PATH", "/usr/bin:/bin") if not root else Root.PATH,
            "ENGRAM_SHELLS_LAUNCHES": self.launches,
            "LANG": "C.UTF-8",
        })
        if os.environ.get("ENGRAM_VERBOSE") == "1":  # the daemon logs every search to the session bus's log
            self.env["ENGRAM_VERBOSE"] = "1"
        self.data_dir = self.folders.data
        self.engram = os.path.join(self.prefix, "bin", "engram")
        self._install(engram_build)

    def host_path(self, path):
        """Where a path inside the world's root is seen from the harness."""
        return self.root.path + path if self.root and not path.startswith(self.root.path) else path

    def _install(self, engram_build):
        """`scripts/install.sh` into the prefix (in a root: the package, installed already), the recorder as the
        terminal, and the samples imported."""
        if not self.root:
            out = subprocess.run(["scripts/install.sh", engram_build, self.prefix], cwd=ROOT, env=self.env,
                                 capture_output=True, text=True)
            if out.returncode != 0:
                raise Failed(f"scripts/install.sh failed: {out.stderr.strip()}")
        recorder = os.path.join(self.base, "record-terminal.py")
        with open(recorder, "w") as f:
            f.write(RECORDER)
        # What a click opens is Engram's window (open = "app", the default): the installed engram-app is swapped for
        # the recorder, so the checks read the argv and startup id the daemon started it with (the window itself is
        # driven by `make test-window`); the terminal, the fallback, records too. (In a root, the next suite's
        # package install puts the real one back.)
        app = self.host_path(os.path.join(self.prefix, "bin", "engram-app"))
        if os.path.exists(app):
            os.unlink(app)
        with open(app, "w") as f:
            f.write(f"#!{PYTHON}\n" + RECORDER)
        os.chmod(app, 0o755)
        self.folders.write_config(f'[desktop]\nopen = "app"\nterminal = ["{PYTHON}", "{recorder}"]\n')
        samples = self.folders.samples()  # dated from today, under the world's base (inside the root when it has one)
        self.run_engram("import", f"{samples}/memories.jsonl", f"{samples}/curricula/swift-concurrency.toml",
                        f"{samples}/curricula/spanish-b1.yaml")

    def wrap(self, argv, env=None):
        """argv as it must be run for this world (inside its root when it has one)."""
        return self.root.wrap(argv, env if env is not None else self.env) if self.root else list(argv)

    def run(self, argv, env=None, **kwargs):
        """subprocess.run of argv in this world (inside its root when it has one), with its env by default."""
        env = env if env is not None else self.env
        return subprocess.run(self.wrap(argv, env), env=env, **kwargs)

    def run_engram(self, *args, check=True, env=None):
        """Runs the installed engram as this user; returns the completed process."""
        env = env or self.env
        try:
            return Engram(self.engram, env, timeout=60)(*args, check=check, wrap=self.wrap([], env))
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
        bus = SessionBus(os.path.join(self.base, "bus"), env=self.env, log=os.path.join(self.out_dir, log_name),
                         wrap=self.wrap if self.root else None)
        try:
            self.env["DBUS_SESSION_BUS_ADDRESS"] = bus.start()
        finally:
            if bus.proc:
                self.procs.append(bus.proc)
        return bus

    def start(self, argv, log_name, env=None, host=False, **kwargs):
        """Starts a process in its own group, logging to out_dir/log_name; it is stopped by stop_all. In a root
        unless host (an X server the root's programs reach through the bound /tmp/.X11-unix)."""
        log = open(os.path.join(self.out_dir, log_name), "ab")
        argv = list(argv) if host else self.wrap(argv, env or self.env)
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
            if cmd and cmd[0].decode(errors="replace") == self.engram and b"daemon" in cmd[1:] \
                    and (self.root is None or self.root.owns(pid)):
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


CACHE = os.environ.get("ENGRAM_ROOT_CACHE", "/var/cache/engram-tests")


def plasma_workspace(world):
    """plasma-workspace's Debian package unpacked, not installed (its help runner and its "executable" data engine,
    without the Plasma session services it would bring into every suite's bus), for the Plasma the world runs: the
    host's (5.27) in CACHE/plasma-workspace-5, a root's (6.3) in the root's /var/cache/engram-plasma-workspace, where
    it stays with the root. Downloaded once; returns the unpacked tree's path as the harness sees it."""
    folder = (os.path.join(world.root.path, "var", "cache", "engram-plasma-workspace") if world.root
              else os.path.join(CACHE, "plasma-workspace-5"))
    tree = os.path.join(folder, "x")
    if os.path.isdir(os.path.join(tree, "usr")):
        return tree
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        if old.endswith(".deb"):
            os.remove(os.path.join(folder, old))
    # A root may have package lists older than its mirror's: fetched again when the download needs them.
    out = world.run(["sh", "-c", f"cd '{folder}' && {{ apt-get download plasma-workspace || "
                     f"{{ apt-get update -qq && apt-get download plasma-workspace; }}; }}"],
                    capture_output=True, text=True, timeout=600)
    debs = [n for n in os.listdir(folder) if n.endswith(".deb")]
    expect(out.returncode == 0 and debs, f"apt-get download plasma-workspace failed: {out.stderr.strip()[-300:]}")
    shutil.rmtree(tree + ".tmp", ignore_errors=True)
    subprocess.run(["dpkg-deb", "-x", os.path.join(folder, debs[0]), tree + ".tmp"], check=True)
    os.rename(tree + ".tmp", tree)
    return tree


def root_from_argv(argv):
    """The Root named by `--root ROOT --deb DEB` in argv, or None."""
    if "--root" not in argv:
        return None
    try:
        return Root(argv[argv.index("--root") + 1], argv[argv.index("--deb") + 1])
    except (ValueError, IndexError):
        sys.exit("shells: --root ROOT needs --deb DEB (make deb builds it)")


def engram_build():
    """The engram binary to install: $ENGRAM_BIN or the debug build."""
    path = os.environ.get("ENGRAM_BIN", os.path.join(ROOT, ".build", "debug", "engram"))
    if not os.access(path, os.X_OK):
        sys.exit(f"shells: {path} is not built; run `swift build` (make test-shells builds it)")
    return path
