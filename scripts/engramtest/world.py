"""A temporary user for a test: HOME, the XDG folders and Engram's own folders under one base, and their env.

    world = World("engram-stress1")         # a new folder under $TMPDIR, removed by close() unless keep
    world = World(base="/some/work")        # or a given folder (emptied first)
    subprocess.run([...], env=world.env)

Every folder is made 0700. env is the caller's environment (or the one given) with HOME, XDG_DATA_HOME,
XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_STATE_HOME and XDG_RUNTIME_DIR pointing here; with engram_dirs,
ENGRAM_DATA_DIR and ENGRAM_CONFIG_DIR too (base/data, base/config). Variables starting with a prefix in drop are
left out first (a suite that must not reach the tester's bus or display drops DBUS_, WAYLAND_ and the like).

The world's clock is the one Engram's processes run on: the system's, moved by ENGRAM_TEST_CLOCK_SKEW_S when the
suite was started with it (the one clock hook, Sources/EngramRules/WallClock.swift). Fixtures are dated from it,
never with a literal date: world.iso(days=-3) for three days ago, world.samples() for the sample collection as of
the world's today.
"""
import datetime
import os
import shutil
import tempfile

import samples as sample_collection

FOLDERS = {"HOME": "home", "XDG_DATA_HOME": "xdg/data", "XDG_CONFIG_HOME": "xdg/config",
           "XDG_CACHE_HOME": "xdg/cache", "XDG_STATE_HOME": "xdg/state", "XDG_RUNTIME_DIR": "runtime"}


class World:
    """One temporary user's folders and the env that points a child at them (see the module's doc)."""

    def __init__(self, name="engram-test", base=None, env=None, drop=(), engram_dirs=True, keep=False, home=True,
                 mode=0o700):
        if base:
            shutil.rmtree(base, ignore_errors=True)
            os.makedirs(base)
            self.base = os.path.abspath(base)
        else:
            self.base = tempfile.mkdtemp(prefix=f"{name}.")
        os.chmod(self.base, mode)
        self.keep = keep
        self.env = {k: v for k, v in (os.environ if env is None else env).items()
                    if not (drop and k.startswith(tuple(drop)))}
        os.makedirs(self.path("xdg"), mode=0o700, exist_ok=True)
        for var, sub in FOLDERS.items():
            if var == "HOME" and not home:
                continue
            self.env[var] = self.path(sub)
            os.makedirs(self.env[var], mode=0o700, exist_ok=True)
        self.data = self.path("data") if engram_dirs else os.path.join(self.env["XDG_DATA_HOME"], "engram")
        self.config = self.path("config") if engram_dirs else os.path.join(self.env["XDG_CONFIG_HOME"], "engram")
        if engram_dirs:
            self.env.update(ENGRAM_DATA_DIR=self.data, ENGRAM_CONFIG_DIR=self.config)
        os.makedirs(self.config, mode=0o700, exist_ok=True)

    def path(self, *parts):
        """A path under the world's base folder."""
        return os.path.join(self.base, *parts)

    @property
    def runtime(self):
        return self.env["XDG_RUNTIME_DIR"]

    @property
    def home(self):
        return self.env.get("HOME")

    def now(self):
        """Now on the world's clock, in seconds since 1970."""
        return sample_collection.engram_now(self.env)

    def iso(self, days=0, seconds=0):
        """The instant days (and seconds) from now on the world's clock, as Engram writes it (UTC, ISO 8601)."""
        t = self.now() + days * 86400 + seconds
        return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def samples(self):
        """The sample collection as of the world's today (scripts/samples.py), copied into the world once."""
        path = self.path("samples")
        if not os.path.isdir(path):
            sample_collection.copy(path, env=self.env)
        return path

    def write_config(self, text):
        """Writes Engram's config.toml (in its config folder) and returns its path."""
        path = os.path.join(self.config, "config.toml")
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(text)
        return path

    def close(self):
        """Removes the folders, unless the world is kept (then says where it is)."""
        if self.keep:
            print("kept", self.base, flush=True)
        else:
            shutil.rmtree(self.base, ignore_errors=True)
