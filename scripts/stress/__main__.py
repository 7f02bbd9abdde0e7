"""`make stress`: runs every executable part in scripts/stress/parts/ (sorted), each in a world of its own on its own
private session bus, and writes stress-out/results.md and results.json. Exits 1 if any part fails, 2 when it cannot
start. See scripts/stress/README.md.

    PYTHONPATH=scripts /usr/bin/python3 -m stress      (ENGRAM, ENGRAM_FEED, STRESS_OUT, STRESS_ONLY, STRESS_QUICK override)
"""
import os
import re
import subprocess
import sys
import time

from engramtest import PYTHON, ROOT, child_env
from engramtest.bus import run_session, service_file, write_config
from engramtest.world import World
from stress.report import report

HERE = os.path.dirname(os.path.abspath(__file__))
SHOWN = re.compile(r"^(FIGURE|NOTE|FAIL|PASS|==)")  # the lines of a part's log shown as they come
UNSET = ("ENGRAM_DATA_DIR", "ENGRAM_CONFIG_DIR", "ENGRAM_NOW", "ENGRAM_TEST_CRASH_AT", "ENGRAM_TEST_NO_INOTIFY",
         "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE", "INVOCATION_ID")


def selected_parts():
    """Executable files in parts/, sorted; STRESS_ONLY keeps those whose name holds one of its comma-separated words."""
    wanted = [w for w in os.environ.get("STRESS_ONLY", "").split(",") if w]
    folder = os.path.join(HERE, "parts")
    return [os.path.join(folder, n) for n in sorted(os.listdir(folder))
            if os.path.isfile(os.path.join(folder, n)) and os.access(os.path.join(folder, n), os.X_OK)
            and (not wanted or any(w in n for w in wanted))]


def part_limit(part, default):
    """A part may declare a longer limit in a line `# stress-timeout: SECONDS` (part 4: the sanitizer build is slow)."""
    for line in open(part, errors="replace"):
        m = re.match(r"^# stress-timeout: *([0-9]+)$", line.rstrip("\n"))
        if m:
            return max(int(m.group(1)), default)
    return default


def run_part(part, env, out, limit):
    """Runs one part in its world on its bus, showing its figure and verdict lines; returns (exit status, seconds)."""
    name = os.path.basename(part)
    world = World(base=os.path.join(out, "work", name), env=env)
    bus = os.path.join(world.base, "bus")
    service_file(os.path.join(bus, "services"), f"{env['ENGRAM']} daemon --verbose")
    config = write_config(bus, os.path.join(bus, "services"))
    log = os.path.join(out, f"{name}.log")
    print(f"==> stress: {name} (log: {log})", flush=True)
    t0 = time.monotonic_ns()
    with open(log, "wb") as sink:
        # timeout runs the part in its own process group and signals the whole group when time is up.
        proc = subprocess.Popen(["timeout", "--kill-after=20", str(limit), *run_session(config), part],
                                env=dict(world.env, STRESS_WORK=world.base, STRESS_PART=name, STRESS_BUS_CONFIG=config),
                                stdout=sink, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        with open(log, errors="replace") as follow:
            while True:
                done = proc.poll() is not None
                for line in follow.readlines():
                    if SHOWN.match(line):
                        print("    " + line.rstrip("\n"), flush=True)
                if done:
                    break
                time.sleep(0.2)
    status = proc.returncode
    ms = (time.monotonic_ns() - t0) // 1_000_000
    if status == 124:
        with open(log, "a") as f:
            f.write(f"FAIL: timed out after {limit} s\n")
    return status, ms


def main():
    os.umask(0o077)
    env = child_env({k: v for k, v in os.environ.items() if k not in UNSET})
    engram = env.get("ENGRAM", os.path.join(ROOT, ".build/release/engram"))
    feed = env.get("ENGRAM_FEED", os.path.join(ROOT, ".build/release/engram-feed"))
    out = env.get("STRESS_OUT", os.path.join(ROOT, "stress-out"))
    default_limit = int(env.get("STRESS_PART_TIMEOUT", "900"))
    for binary in (engram, feed):
        if not os.access(binary, os.X_OK):
            print(f"stress: {binary} is not built (make stress builds it)", file=sys.stderr)
            return 2
    os.makedirs(out, exist_ok=True)
    os.chmod(out, 0o700)
    out = os.path.abspath(out)
    if env.get("STRESS_SMOKE") == "1":
        # make test's smoke run: every part but crash safety at its smallest scale, each check still made (a part
        # that can no longer run fails CI); a quick run, so its figures carry no marker. Set values win. Crash
        # safety is left to whole runs: at this scale its kills cannot be sure to land in both of its phases.
        for key, value in (("STRESS_ONLY", "2-,3-,4-,5-,6-,7-"), ("STRESS_QUICK", "1"), ("STRESS_CORPUS_N", "600"),
                           ("STRESS_CAPTURES", "10"), ("DBUS_STRESS_CALLS", "2000"), ("QUERY_RUNS", "2000"),
                           ("QUERY_RUNS_LARGE", "300")):
            env.setdefault(key, value)
        os.environ.setdefault("STRESS_ONLY", env["STRESS_ONLY"])  # read by selected_parts and the report
    env.update(ENGRAM=os.path.abspath(engram), ENGRAM_FEED=os.path.abspath(feed), STRESS_OUT=out,
               STRESS_QUICK=env.get("STRESS_QUICK", "0"), STRESS_ROOT=ROOT, STRESS_LIB=os.path.join(HERE, "lib"),
               PYTHON=PYTHON)
    started = time.time_ns()
    load_before = " ".join(open("/proc/loadavg").read().split()[:3])

    # The Debian corpus, once per run.
    corpus = os.path.join(out, "debian.jsonl")
    env["STRESS_CORPUS"] = corpus
    print(f"==> stress: writing the Debian corpus to {corpus}", flush=True)
    if subprocess.run([os.path.join(ROOT, "scripts/bench/debian-corpus.sh"), corpus + ".tmp"], env=env).returncode != 0:
        print("stress: could not build the Debian corpus", file=sys.stderr)
        return 2
    os.replace(corpus + ".tmp", corpus)
    os.chmod(corpus, 0o400)
    if env.get("STRESS_CORPUS_N"):
        # The parts read its first N memories; crash safety keeps the whole one (its kills need an import that
        # lasts: at QUICK scale it takes the first 6,000 itself).
        env["STRESS_CORPUS_FULL"], env["STRESS_CORPUS"] = corpus, os.path.join(out, "debian-first.jsonl")
        with open(corpus, encoding="utf-8") as f:
            lines = [line for _, line in zip(range(int(env["STRESS_CORPUS_N"])), f)]
        with open(os.open(env["STRESS_CORPUS"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as f:
            f.writelines(lines)
    print(f"    {sum(1 for _ in open(corpus, 'rb'))} memories", flush=True)

    parts = selected_parts()
    if not parts:
        print("stress: no parts to run", file=sys.stderr)
        return 2
    with open(os.path.join(out, "summary.tsv"), "w") as summary:
        for part in parts:
            name = os.path.basename(part)
            limit = part_limit(part, default_limit)
            status, ms = run_part(part, env, out, limit)
            summary.write(f"{name}\t{status}\t{ms // 1000}.{ms % 1000:03d}\n")
            summary.flush()
            if status == 0:
                print(f"    passed in {ms // 1000} s", flush=True)
            else:
                print(f"    FAILED (exit {status}) in {ms // 1000} s; see {out}/{name}.log", flush=True)
    return 0 if report(out, started, load_before) else 1


if __name__ == "__main__":
    sys.exit(main())
