"""The `engram` binary run in a world: one runner for every suite.

    eng = Engram(binary, world.env)
    eng("remember", "a thought")            # CompletedProcess (text): stdout, stderr, returncode
    eng("stats", "--json", check=True)      # raises EngramFailed naming the command, its status and stderr
    eng.json("stats", "--json")["total"]    # stdout parsed
"""
import json
import subprocess


class EngramFailed(RuntimeError):
    """`engram ARGS exited N: STDERR` — a run that had to succeed did not."""


class Engram:
    """Runs one engram binary with one env; see the module's doc."""

    def __init__(self, binary, env=None, timeout=300):
        self.binary, self.env, self.timeout = binary, env, timeout

    def __call__(self, *args, input=None, check=False, env=None, timeout=None, text=True, wrap=(), cwd=None):
        """Runs `engram ARGS` (after the wrap argv, e.g. strace); stdin is input or nothing."""
        p = subprocess.run([*wrap, self.binary, *args], input=input, capture_output=True, text=text,
                           env=self.env if env is None else env, timeout=timeout or self.timeout, cwd=cwd,
                           stdin=None if input is not None else subprocess.DEVNULL)
        if check and p.returncode != 0:
            stderr = p.stderr if text else p.stderr.decode(errors="replace")
            raise EngramFailed(f"engram {' '.join(args)} exited {p.returncode}: {stderr.strip()}")
        return p

    def json(self, *args, **kw):
        """The command's stdout as JSON (it must succeed)."""
        return json.loads(self(*args, check=True, **kw).stdout)

    def with_env(self, env):
        """The same binary with another env."""
        return Engram(self.binary, env, self.timeout)
