"""Shared by the python parts of `make stress`: failures, figures, and starting and stopping helpers."""
import signal
import subprocess
import sys
import time

FAILURES = []
DEADLINE = 120  # seconds: generous, other builds share the cores


def fail(message):
    FAILURES.append(message)
    print("FAIL: " + message, flush=True)


def figure(key, value):
    print(f"FIGURE {key}: {value}", flush=True)


def wait_for_name(bus, name, proc, what):
    """Polls until `name` has an owner on `bus`; exits if `proc` ends or the deadline passes first."""
    deadline = time.monotonic() + DEADLINE
    while not bus.name_has_owner(name):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{what} did not take {name} (exit {proc.poll()})")
        time.sleep(0.05)


def stop(proc, what):
    """SIGTERM, then wait; a process that does not stop in time is a failure (and is killed)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(DEADLINE)
        except subprocess.TimeoutExpired:
            fail(f"{what} did not stop within {DEADLINE} s of SIGTERM")
            proc.kill()
            proc.wait()
    return proc.returncode


def finish():
    if FAILURES:
        print(f"{len(FAILURES)} failure(s)")
        sys.exit(1)
