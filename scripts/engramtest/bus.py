"""A private D-Bus session bus for a test world, and waiting for a name on a bus.

SessionBus(folder).start() runs `dbus-daemon` on a config written into folder (its socket there too) and reads its
address; stop() ends it by its pid. A suite that wraps a whole process in a bus instead (each stress part) runs
run_session(config) + argv: `dbus-run-session` on the same config, so the bus ends with the process.
Activation: with a services folder, the bus starts `org.engram.Engram` from the .service files there
(service_file writes one); without, from the standard session folders, i.e. the world's XDG_DATA_DIRS.

    /usr/bin/python3 -m engramtest.bus config FOLDER [SERVICES]   prints a config (for shell scripts)
"""
import os
import signal
import subprocess
import sys
import time

from engramtest import ROOT

NAME = "org.engram.Engram"
APP_PATH = "/org/engram/Engram"
APP_IFACE = "org.engram.Engram1"
PROVIDER_PATH = "/org/engram/Engram/SearchProvider"
PROVIDER_IFACE = "org.gnome.Shell.SearchProvider2"
DEADLINE = 120  # seconds: generous, other builds share the cores

# The one private session bus config, shared with the Swift tests' PrivateBus.
CONFIG_TEMPLATE = os.path.join(ROOT, "Tests", "EngramTestSupport", "session-bus.conf")


def config_text(folder, services=None):
    """A session bus config listening in folder; activation from services, else the standard session folders."""
    where = f"<servicedir>{services}</servicedir>" if services else "<standard_session_servicedirs/>"
    with open(CONFIG_TEMPLATE, encoding="utf-8") as f:
        return f.read().replace("@SOCKET_DIR@", str(folder)).replace("@SERVICE_DIRS@", where)


def write_config(folder, services=None):
    """Writes folder/session.conf (config_text) and returns its path."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    path = os.path.join(folder, "session.conf")
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        f.write(config_text(folder, services))
    return path


def service_file(services, exec_line, name=NAME):
    """Writes the D-Bus activation file for name into the services folder; returns its path."""
    os.makedirs(services, mode=0o700, exist_ok=True)
    path = os.path.join(services, f"{name}.service")
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
        f.write(f"[D-BUS Service]\nName={name}\nExec={exec_line}\n")
    return path


def run_session(config):
    """The argv prefix that runs a command on its own bus made from config, ended with the command."""
    return ["dbus-run-session", f"--config-file={config}", "--"]


class SessionBus:
    """One private session bus: start() returns its address, stop() ends it (by its pid, its group first)."""

    def __init__(self, folder, services=None, env=None, log=None, wrap=None):
        # wrap(argv, env): how to run the bus elsewhere (inside a root); its socket path must mean the same there.
        self.folder, self.services, self.env, self.log, self.wrap = folder, services, env, log, wrap
        self.config = write_config(folder, services)
        self.proc, self.address = None, None

    def start(self):
        err = open(self.log, "ab") if self.log else subprocess.DEVNULL  # by default only its "fd limit" notice
        argv = ["dbus-daemon", f"--config-file={self.config}", "--nofork", "--nopidfile", "--print-address=1"]
        self.proc = subprocess.Popen(self.wrap(argv, self.env) if self.wrap else argv, stdout=subprocess.PIPE, stderr=err, env=self.env,
                                     text=True, start_new_session=True)
        self.address = self.proc.stdout.readline().strip()
        if not self.address.startswith("unix:"):
            raise RuntimeError(f"dbus-daemon printed no address (exit {self.proc.poll()}); config {self.config}")
        return self.address

    def stop(self, grace=5.0):
        """SIGTERM to the bus's group, SIGKILL after grace; returns its exit status."""
        if self.proc is None or self.proc.poll() is not None:
            return None if self.proc is None else self.proc.returncode
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                pass
            try:
                return self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                continue
        return self.proc.wait()


def name_has_owner(bus, name):
    """Whether name has an owner on bus: a python-dbus connection, or a bus address (asked with gdbus)."""
    if not isinstance(bus, str):
        return bool(bus.name_has_owner(name))
    r = subprocess.run(["gdbus", "call", "--address", bus, "--dest", "org.freedesktop.DBus", "--object-path",
                        "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", name],
                       capture_output=True, text=True)
    return "true" in r.stdout


def wait_for_name(bus, name, proc=None, timeout=DEADLINE, interval=0.05):
    """Polls until name has an owner on bus; False when proc (the process meant to take it) ends or timeout passes."""
    deadline = time.monotonic() + timeout
    while not name_has_owner(bus, name):
        if (proc is not None and proc.poll() is not None) or time.monotonic() > deadline:
            return False
        time.sleep(interval)
    return True


def wait_for_no_name(bus, name, timeout=DEADLINE, interval=0.05):
    """Polls until name has no owner on bus; False when timeout passes first."""
    deadline = time.monotonic() + timeout
    while name_has_owner(bus, name):
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)
    return True


def require_name(bus, name, proc, what, timeout=DEADLINE):
    """wait_for_name, or the run stops saying who did not take the name."""
    if not wait_for_name(bus, name, proc, timeout):
        raise SystemExit(f"{what} did not take {name} (exit {proc.poll() if proc else None})")


if __name__ == "__main__":
    if len(sys.argv) in (3, 4) and sys.argv[1] == "config":
        sys.stdout.write(config_text(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None))
    else:
        sys.exit(__doc__)
