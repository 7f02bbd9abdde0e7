"""`engram daemon` in a world on a bus: started, its name awaited, stopped cleanly.

    d = Daemon(binary, world.env, log_path)       # env carries DBUS_SESSION_BUS_ADDRESS, or the caller's bus counts
    d.start(bus)                                  # bus: a python-dbus connection or an address; False if no name came
    d.stop()                                      # SIGTERM, then its exit status (None: it had to be killed)
"""
import signal
import subprocess

from engramtest.bus import DEADLINE, NAME, wait_for_name


class Daemon:
    """One `engram daemon` process (see the module's doc); log is a path (appended to) or an open file; wrap runs it
    under another program (strace)."""

    def __init__(self, binary, env=None, log=None, args=(), wrap=(), cwd=None, new_session=False):
        self.argv = [*wrap, binary, "daemon", *args]
        self.env, self.log_path, self.cwd, self.new_session = env, log, cwd, new_session
        self.proc = None

    @property
    def pid(self):
        return self.proc.pid if self.proc else None

    def spawn(self):
        """Starts the process (its output to the log, appended) without waiting for its name."""
        log = self.log_path or subprocess.DEVNULL
        if isinstance(log, str):
            log = open(log, "a")
        self.proc = subprocess.Popen(self.argv, env=self.env, stdout=log, stderr=subprocess.STDOUT, cwd=self.cwd,
                                     start_new_session=self.new_session)
        return self.proc

    def start(self, bus, timeout=DEADLINE):
        """spawn(), then waits until it owns org.engram.Engram on bus; False when it exited or timed out first."""
        self.spawn()
        return wait_for_name(bus, NAME, self.proc, timeout)

    def stop(self, timeout=DEADLINE, sig=signal.SIGTERM):
        """Signals it (SIGTERM) and waits; one that does not end in time is killed and None returned."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return None
        return self.proc.returncode
