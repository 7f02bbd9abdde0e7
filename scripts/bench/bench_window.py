"""The window's figures for run.py, on the bench's full collection (63,666 memories): engram-app on a virtual X
display under mutter, as a person starts it and types into it.

- Launch to a drawn window with results: from before the process is started to the first frame painted with the
  results of a search link (the app reports the painted frame's CLOCK_MONOTONIC time, the clock time.monotonic()
  reads). Baseline, taking turns with it: the same binary's bare window (ENGRAM_APP_BARE=1: toolkit, header bar,
  entry and list, no library, no search), so the ratio is what Engram adds to GTK's own start-up.
- A keystroke to the updated list: words typed one key at a time (xdotool, a pause after each), the app reporting
  for each keystroke the time from the entry's change to the new list painted, and the search's own share in it
  (the baseline: the same search, timed inside the same process).
- RSS after the typing, against the bare window's.

Checks before any figure counts: the bare window printed its frame; Engram's first row for the link's query is the
first hit `engram search --json` gives for it; each keystroke's list is non-empty for a query with hits.
"""
import os
import signal
import subprocess
import sys
import time

from bench.timing import pct
from engramtest.bus import SessionBus
from engramtest.system import free_display, rss_kb
from engramtest.world import World

QUERY = "network"
TYPED = ["python library", "gnome shell", "text editor", "backup tool"]


class Desktop:
    def __init__(self, bench):
        self.world = World(base=os.path.join(bench.work, "window-world"), engram_dirs=False)
        self.bus = SessionBus(self.world.path("bus"), env=self.world.env)
        self.world.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus.start()
        n = free_display(150, 200)
        self.procs = [subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]
        deadline = time.monotonic() + 20
        while not os.path.exists(f"/tmp/.X11-unix/X{n}") and time.monotonic() < deadline:
            time.sleep(0.05)
        self.env = dict(self.world.env, DISPLAY=f":{n}", GDK_BACKEND="x11", ENGRAM_MODEL_DIR="none", ENGRAM_APP_TIMING="1",
                        ENGRAM_DATA_DIR=bench.data, NO_AT_BRIDGE="1")
        self.procs.append(subprocess.Popen(["mutter", "--x11", "--replace", "--sm-disable"], env=self.env,
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        time.sleep(1.5)

    def close(self):
        for p in reversed(self.procs):
            try:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                p.kill()
        self.bus.stop()


def read_until(proc, prefix, timeout=60):
    """The first stderr line of proc starting with prefix."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            raise SystemExit(f"bench: engram-app ended (status {proc.poll()}) before reporting {prefix!r}")
        if line.startswith(prefix):
            return line.strip()
    raise SystemExit(f"bench: engram-app did not report {prefix!r} in {timeout} s")


def fields(line):
    return dict(part.split("=", 1) for part in line.split()[1:] if "=" in part)


def measure(bench):
    app = os.path.join(os.path.dirname(bench.engram), "engram-app")
    if not os.path.exists(app):
        if bench.smoke:
            raise SystemExit(f"bench: no {app}, so the window's part would be skipped")
        bench.r["notes"].append("window: not measured (engram-app is not built)")
        return
    import json
    first_hit = json.loads(subprocess.run([bench.engram, "search", "--json", "--limit", "1", QUERY, "--data-dir", bench.data],
                                          capture_output=True, text=True, env=bench.env).stdout)["results"][0]["id"]
    desk = Desktop(bench)
    try:
        launches = {"engram": [], "bare": []}
        rss = {}
        rounds = 1 if bench.smoke else 3 if bench.quick else 7
        for r in range(rounds):
            order = ["engram", "bare"] if r % 2 == 0 else ["bare", "engram"]
            for name in order:
                env = dict(desk.env, ENGRAM_APP_BARE="1") if name == "bare" else desk.env
                args = [app] if name == "bare" else [app, f"engram://search?q={QUERY}"]
                t0 = time.monotonic() * 1000
                p = subprocess.Popen(args, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
                line = read_until(p, "painted")
                f = fields(line)
                if name == "engram" and (int(f["rows"]) == 0 or f["first"] != first_hit):
                    raise SystemExit(f"bench: the window's first row for {QUERY!r} is {f['first']!r}, engram search's {first_hit!r}")
                launches[name].append(float(f["t"]) - t0)
                if r == rounds - 1:
                    time.sleep(0.5)
                    rss[name] = rss_kb(p.pid)
                if name == "engram" and r == rounds - 1:
                    keystrokes, searches = type_into(desk, p, TYPED[:1] if bench.smoke else TYPED)
                p.terminate()
                p.wait(10)
        res = {
            "first_keystroke_ms": round(type_into.first[0], 1),
            "launch_p50_ms": round(pct(launches["engram"], 50), 1), "launch_bare_p50_ms": round(pct(launches["bare"], 50), 1),
            "launch_ratio": round(pct(launches["engram"], 50) / pct(launches["bare"], 50), 2),
            "keystroke_p50_ms": round(pct(keystrokes, 50), 2), "keystroke_p99_ms": round(pct(keystrokes, 99), 2),
            "search_p50_ms": round(pct(searches, 50), 2), "search_p99_ms": round(pct(searches, 99), 2),
            "keystroke_ratio": round(pct(keystrokes, 50) / pct(searches, 50), 2),
            "rss_mb": round(rss["engram"] / 1024, 1), "rss_bare_mb": round(rss["bare"] / 1024, 1),
            "launches": rounds, "keystrokes": len(keystrokes), "memories": bench.docs,
            "targets": {"launch_p50_ms": 400, "keystroke_p50_ms": 30, "keystroke_p99_ms": 60, "rss_mb": 150},
        }
        res["met"] = {"launch": res["launch_p50_ms"] <= 400, "keystroke": res["keystroke_p50_ms"] <= 30 and res["keystroke_p99_ms"] <= 60,
                      "rss": res["rss_mb"] <= 150}
        bench.r["window"] = res
        print("bench: window launch %.0f ms (bare %.0f, %.2f×), keystroke p50 %.1f / p99 %.1f ms (search %.1f), RSS %.0f MB (bare %.0f)" % (
            res["launch_p50_ms"], res["launch_bare_p50_ms"], res["launch_ratio"], res["keystroke_p50_ms"], res["keystroke_p99_ms"],
            res["search_p50_ms"], res["rss_mb"], res["rss_bare_mb"]), file=sys.stderr)
    finally:
        desk.close()


def type_into(desk, proc, phrases):  # noqa: E302 (type_into.first: the first keystroke after launch, reported apart too)
    """Types each phrase a key at a time into the open window; the keystroke and search times it reports."""
    keystrokes, searches = [], []
    first_key = type_into.first
    subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+f", "ctrl+a", "BackSpace"], env=desk.env, check=True)
    time.sleep(0.3)
    for phrase in phrases:
        for ch in phrase:
            subprocess.run(["xdotool", "type", "--", ch], env=desk.env, check=True)
            f = fields(read_until(proc, "keystroke"))
            keystrokes.append(float(f["ms"]))
            if len(keystrokes) == 1:
                first_key[0] = float(f["ms"])
            if os.environ.get("BENCH_WINDOW_VERBOSE"): print(repr(ch), f["ms"], f["search"], f["rows"], file=sys.stderr)
            searches.append(float(f["search"]))
            time.sleep(0.15)
        subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+a", "BackSpace"], env=desk.env, check=True)
        time.sleep(0.3)
    return keystrokes, searches


type_into.first = [0.0]
