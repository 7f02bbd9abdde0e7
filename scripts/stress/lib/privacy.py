#!/usr/bin/python3
"""Part 7 of `make stress`: privacy and security checks, on a private session bus (dbus-run-session).

1. A full workout (CLI, daemon over D-Bus, feeds, links, sessions, capture, forget, rebuild) in a fresh HOME with
   every XDG folder set and a permissive umask; then every folder under the XDG data, config, cache, state and
   runtime folders' `engram` is 0700 and every file 0600.
2. Nothing of the daemon listens on a network socket (`ss -lntupw` by pid).
3. Links (`engram open` and D-Bus Open) and every D-Bus method run no program and write nothing outside Engram's
   folders: the daemon and the CLI run under `strace -f`, and every execve and every file opened for writing,
   created, renamed or removed is checked; ActivateResult/LaunchSearch may start only Engram's window (`engram-app`
   beside `engram`, with `--data-dir DATA engram://…` and nothing else; what it writes is checked too) or the
   configured terminal with `engram show|search|open …`.
   ExportProgress(format, path) over D-Bus writes only into exports/ in the data folder: a path with a folder in it
   is refused, nothing written.
4. Forgetting a memory leaves no trace: not in the index's terms (xapian-delve) or spelling data (python3-xapian),
   not in the daemon's result cache (GetResultMetas), not in the activity log, not in the bytes of any file in
   the data folder (SQLite free pages, WAL, Xapian tables and their free blocks: the daemon compacts the index
   within index.compact_after_forget_seconds, 10 s, of a forget, which is checked while it runs).
"""
import glob
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

import dbus
import samples

from stress.lib.stresslib import DEADLINE, fail, figure, finish, require_name, stop

ENGRAM = os.environ["ENGRAM"]
FEED = os.environ.get("ENGRAM_FEED", "")
from engramtest import ROOT  # noqa: E402
OUT = os.environ.get("STRESS_OUT") or tempfile.mkdtemp(prefix="stress-7-")
NAME = "org.engram.Engram"


os.umask(0o022)
tmp = tempfile.mkdtemp(prefix="engram-stress7-")
home = f"{tmp}/home"
os.makedirs(home)
xdg = {"XDG_DATA_HOME": f"{home}/.local/share", "XDG_CONFIG_HOME": f"{home}/.config", "XDG_CACHE_HOME": f"{home}/.cache",
       "XDG_STATE_HOME": f"{home}/.local/state", "XDG_RUNTIME_DIR": f"{tmp}/run"}
os.makedirs(xdg["XDG_RUNTIME_DIR"], mode=0o700)
env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_") and not k.startswith("XDG_")}
env.update(xdg)
env["HOME"] = home
spawn_log = f"{tmp}/terminal.log"
terminal = f"{tmp}/terminal.sh"
with open(terminal, "w") as f:
    f.write(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{spawn_log}"\n')
os.chmod(terminal, 0o755)
env["TERMINAL"] = terminal
DATA = f"{xdg['XDG_DATA_HOME']}/engram"
ALLOWED_WRITE = [f"{xdg[k]}/engram" for k in xdg] + ["/dev/null", "/dev/tty", "/dev/pts/", "/proc/self/", "/proc/thread-self/"]
MARKER = "zqvortexmarker"  # unique words of the memory that is forgotten
SEARCHED = "doorcodeqx"  # what the person searches for: kept in the search log by design, so not the marker
SECRET = f"The {MARKER} {SEARCHED} is {MARKER}plinth and Xylophagous{MARKER}"


def engram(*args, stdin=None, check=True, strace=None):
    cmd = [ENGRAM, *args]
    if strace:
        cmd = ["strace", "-f", "-qq", "-e", "trace=execve,openat,open,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,symlink,symlinkat,link,linkat,truncate",
               "-o", strace, *cmd]
    p = subprocess.run(cmd, input=stdin, capture_output=True, env=env, timeout=DEADLINE)
    if check and p.returncode != 0:
        fail(f"engram {' '.join(args)[:80]} exited {p.returncode}: {p.stderr.decode(errors='replace')[:300]}")
    return p


WRITE_FLAGS = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC")


WINDOW = os.path.join(os.path.realpath(os.path.dirname(ENGRAM)), "engram-app")
window_argvs = []  # the argv of every start of Engram's window, from the daemon's trace


def check_trace(path, what, allow_exec=(), own=()):
    """Every program started and every path written by the traced processes, against what is allowed: the programs
    in allow_exec do what they like (a recorder standing in for the terminal); Engram's own programs in `own` may be
    started, and what they write is checked like the rest."""
    execs, writes = [], []
    if not os.path.exists(path):
        fail(f"{what}: no strace log")
        return execs, writes
    allowed_pids = set()
    for line in open(path, errors="replace"):
        m = re.match(r"(\d+)\s+(\w+)\((.*)", line)
        if not m or "= -1" in line or "resumed>" in line and "execve" not in line:
            continue
        pid, call, rest = m.groups()
        if pid in allowed_pids:
            continue  # the configured terminal (a recorder here) does what it likes
        paths = re.findall(r'"((?:[^"\\]|\\.)*)"', rest)
        if call == "execve":
            execs.append(paths[0] if paths else rest)
            if paths and paths[0] in allow_exec:
                allowed_pids.add(pid)
            if paths and paths[0] in own and paths[0] == WINDOW:
                window_argvs.append(paths[2:])
            continue
        if call in ("open", "openat"):
            if not WRITE_FLAGS.search(rest):
                continue
            targets = paths[:1]
        else:
            targets = paths
        for t in targets:
            if not t.startswith("/"):
                continue  # relative to a folder fd: *at calls inside the data folder (checked by the fd's path below)
            writes.append(t)
    first = True
    for e in execs:
        if first and e == ENGRAM:
            first = False
            continue
        if not any(e == a or e.endswith(a) for a in (*allow_exec, *own)):
            fail(f"{what}: ran a program: {e}")
    for w in writes:
        if not any(w.startswith(a) for a in ALLOWED_WRITE):
            fail(f"{what}: wrote outside Engram's folders: {w}")
    return execs, writes


def files_with_bytes(marker):
    """The data folder's files holding marker's bytes anywhere (live or free pages and blocks), as data/…"""
    found = []
    for path in glob.glob(f"{DATA}/**", recursive=True):
        if os.path.isfile(path):
            try:
                with open(path, "rb") as f:
                    if marker.encode() in f.read():
                        found.append(path.replace(DATA, "data"))
            except OSError:
                pass  # removed meanwhile (an old index generation)
    return found


def check_modes():
    bad, count = [], 0
    for key, base in xdg.items():
        top = f"{base}/engram"
        if not os.path.exists(top):
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            for name in [dirpath] + [os.path.join(dirpath, f) for f in filenames]:
                st = os.lstat(name)
                count += 1
                mode = stat.S_IMODE(st.st_mode)
                want = 0o700 if stat.S_ISDIR(st.st_mode) else 0o600
                if stat.S_ISLNK(st.st_mode):
                    continue
                if mode != want:
                    bad.append(f"{oct(mode)} {name.replace(tmp, '$TMP')}")
    figure("private_paths_checked", count)
    figure("paths_not_private", len(bad))
    for b in bad[:20]:
        fail(f"not private: {b}")


def main():
    # ---------------------------------------------------------------- workout, CLI side
    # The samples dated from today, copied outside the private folders this part checks.
    s = samples.copy(os.path.join(tempfile.mkdtemp(prefix="engram-samples-"), "samples"))
    engram("import", f"{s}/memories.jsonl", f"{s}/curricula/swift-concurrency.toml", f"{s}/curricula/spanish-b1.yaml",
           f"{s}/vault")
    engram("remember", "--type", "idea", "--tag", "privacy", "A note about privacy checks")
    engram("remember", stdin=b"Text from standard input about sourdough starters\n")
    ids = json.loads(engram("search", "--json", "sourdough").stdout)["results"]
    first = ids[0]["id"]
    engram("show", first)
    engram("tag", first, "checked")
    engram("pin", first)
    engram("related", first)
    engram("stats")
    engram("index", "rebuild")
    engram("index", "status")
    engram("context", "set", "work")
    engram("context", "clear")
    engram("session", "start", "--curriculum", "swift-concurrency", check=False)
    engram("session", "stop", check=False)
    engram("ask", "what do i know about sourdough", check=False)
    engram("ask", "remember that the privacy workout ran", check=False)
    engram("capture", "--no-notification", stdin=b"captured line one\ncaptured line two\n", check=False)
    engram("export", "-o", f"{tmp}/export.jsonl")
    for name in ("motd", "stats", "recent", "review", "session"):
        engram("feed", name, "--format", "json")
        if FEED:
            subprocess.run([FEED, name, "--format", "waybar"], env=env, capture_output=True, timeout=DEADLINE)
    engram("analytics", check=False)

    # ---------------------------------------------------------------- the daemon, traced
    trace = f"{OUT}/7-daemon.strace"
    daemon_cwd = f"{tmp}/cwd/a/b"
    os.makedirs(daemon_cwd)
    os.makedirs(f"{tmp}/etc")
    daemon_log = open(f"{OUT}/7-daemon.log", "w")
    daemon = subprocess.Popen(["strace", "-f", "-qq", "-s", "4096", "-e",
                               "trace=execve,openat,open,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,symlink,symlinkat,link,linkat,truncate",
                               "-o", trace, ENGRAM, "daemon"], env=env, stdout=daemon_log, stderr=subprocess.STDOUT, cwd=daemon_cwd)
    bus = dbus.SessionBus()
    pid = None
    try:
        require_name(bus, NAME, daemon, "the daemon")
        pid = int(bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                    "GetConnectionUnixProcessID", "s", [NAME]))
        engram_obj = bus.get_object(NAME, "/org/engram/Engram")
        provider = bus.get_object(NAME, "/org/engram/Engram/SearchProvider")
        runner = bus.get_object(NAME, "/runner")
        E1, SP, KR = "org.engram.Engram1", "org.gnome.Shell.SearchProvider2", "org.kde.krunner1"
        engram_obj.Remember("Remembered over D-Bus for the privacy run", "note", ["dbus"], "", "req-1", dbus_interface=E1, timeout=DEADLINE)
        engram_obj.Search("sourdough", dbus.UInt32(5), dbus_interface=E1, timeout=DEADLINE)
        engram_obj.Stats(dbus_interface=E1, timeout=DEADLINE)
        engram_obj.Sync(dbus_interface=E1, timeout=DEADLINE)

        # -------------------------------------------------------------- ExportProgress: only into exports/
        written = engram_obj.ExportProgress("markdown", "", dbus_interface=E1, timeout=DEADLINE)
        if not os.path.exists(f"{DATA}/exports") or not os.listdir(f"{DATA}/exports"):
            fail(f"ExportProgress with no path wrote nothing into exports/: {written}")
        engram_obj.ExportProgress("json", "mine.json", dbus_interface=E1, timeout=DEADLINE)
        if not os.path.isfile(f"{DATA}/exports/mine.json"):
            fail("ExportProgress with a plain file name did not write exports/mine.json")
        # Every target lies in this part's scratch folder (relative ones resolve from the daemon's folder there), so a
        # daemon that wrote where it was told would not touch the machine.
        elsewhere = [f"{tmp}/outside.md", f"{home}/.bashrc", "../../outside.md", "exports/../../outside.md", "..", ".hidden",
                     f"{DATA}/engram.sqlite", f"{tmp}/etc/engram-pwned", "sub/dir.md"]
        refused = 0
        for path in elsewhere:
            try:
                engram_obj.ExportProgress("markdown", path, dbus_interface=E1, timeout=DEADLINE)
                fail(f"ExportProgress wrote to {path!r}; over D-Bus it may write only into exports/")
            except dbus.DBusException as e:
                refused += 1
                if "exports folder" not in str(e):
                    fail(f"ExportProgress refused {path!r} without saying why: {e}")
        for path in (f"{tmp}/outside.md", f"{home}/.bashrc", f"{tmp}/cwd/outside.md", f"{tmp}/cwd/a/b/.hidden", f"{tmp}/etc/engram-pwned"):
            if os.path.exists(path):
                fail(f"ExportProgress created {path}")
        figure("export_progress_paths_refused", f"{refused} of {len(elsewhere)}")

        # -------------------------------------------------------------- sockets
        ss = subprocess.run(["ss", "-H", "-lntupw"], capture_output=True, text=True).stdout
        net = [l for l in ss.splitlines() if f"pid={pid}," in l]
        ssx = subprocess.run(["ss", "-H", "-lxp"], capture_output=True, text=True).stdout
        unix = [l for l in ssx.splitlines() if f"pid={pid}," in l]
        figure("daemon_network_listeners", len(net))
        figure("daemon_unix_listeners", len(unix))
        for l in net + unix:
            fail(f"the daemon listens: {l.strip()}")

        # -------------------------------------------------------------- hostile links and ids over D-Bus
        odd_urls = ["engram://open?path=/etc/passwd", "engram://memory/../../etc/passwd", "engram://memory/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
                    "file:///etc/passwd", "/etc/passwd", "../../../../etc/passwd", "engram://search?q=$(touch%20/tmp/pwned-engram)",
                    "engram://remember?text=%60touch%20/tmp/pwned-engram%60", "engram://remember?text=$(id)&tag=;rm%20-rf%20~",
                    "http://127.0.0.1:1/", "javascript:alert(1)", "engram://memory/x;touch /tmp/pwned-engram",
                    "engram://session/start?curriculum=../../etc", "engram://context/..", "engram://context/%2fetc%2fpasswd",
                    "engram:///etc/passwd", "engram://curriculum/..%2f..%2f", "engram://stats?exec=/bin/sh", "engram://review#`id`",
                    "sh -c 'touch /tmp/pwned-engram'", "engram://memory/" + "a" * 5000, "engram://search?q=" + "%" * 200,
                    "engram://remember?text=" + "%00" + "x", "engram://remember?text=x&type=../../bin/sh"]
        answered = 0
        for url in odd_urls:
            try:
                engram_obj.Open(url, dbus_interface=E1, timeout=DEADLINE)
            except dbus.DBusException:
                pass
            answered += 1
            for obj, iface, method, args in ((provider, SP, "ActivateResult", (url, [url], dbus.UInt32(0))),
                                             (provider, SP, "LaunchSearch", ([url, "; touch /tmp/pwned-engram"], dbus.UInt32(0))),
                                             (runner, KR, "Run", (url, "")), (runner, KR, "Run", (url, "copy")),
                                             (provider, SP, "GetResultMetas", ([url],))):
                try:
                    getattr(obj, method)(*args, dbus_interface=iface, timeout=DEADLINE)
                except dbus.DBusException:
                    pass
        figure("odd_links_tried", answered)
        # A real result activated: the terminal gets `engram show ID` as argv words.
        ids = provider.GetInitialResultSet(["sourdough"], dbus_interface=SP, timeout=DEADLINE)
        provider.ActivateResult(ids[0], ["sourdough"], dbus.UInt32(0), dbus_interface=SP, timeout=DEADLINE)
        provider.LaunchSearch(["sourdough", "$(touch /tmp/pwned-engram)"], dbus.UInt32(0), dbus_interface=SP, timeout=DEADLINE)

        # -------------------------------------------------------------- forget leaves no trace
        secret_id = engram_obj.Remember(SECRET, "note", ["vault"], "", "", dbus_interface=E1, timeout=DEADLINE)[0]
        engram_obj.Sync(dbus_interface=E1, timeout=DEADLINE)
        found = provider.GetInitialResultSet([MARKER], dbus_interface=SP, timeout=DEADLINE)
        if f"engram://memory/{secret_id}" not in found:
            fail("the secret memory was not found before forgetting it")
        metas = provider.GetResultMetas(found, dbus_interface=SP, timeout=DEADLINE)
        runner.Match(MARKER, dbus_interface=KR, timeout=DEADLINE)
        engram("show", secret_id)
        engram("search", SEARCHED)
        engram("open", f"engram://memory/{secret_id}")
        engram("forget", "--yes", secret_id)
        engram_obj.Sync(dbus_interface=E1, timeout=DEADLINE)
        metas = provider.GetResultMetas([f"engram://memory/{secret_id}"], dbus_interface=SP, timeout=DEADLINE)
        shown = json.dumps([{k: str(v) for k, v in m.items()} for m in metas])
        if MARKER in shown:
            fail(f"after forget, GetResultMetas still shows the memory: {shown[:200]}")
        if provider.GetInitialResultSet([MARKER], dbus_interface=SP, timeout=DEADLINE):
            fail("after forget, GNOME Shell still finds the memory")
        if runner.Match(MARKER, dbus_interface=KR, timeout=DEADLINE):
            fail("after forget, KRunner still matches the memory")
        engram_obj.Search(MARKER, dbus.UInt32(5), dbus_interface=E1, timeout=DEADLINE)
        # While the daemon runs: its compaction takes the bytes out of the index's free blocks within its delay.
        forgot = time.monotonic()
        while time.monotonic() - forgot < 60 and files_with_bytes(MARKER):
            time.sleep(0.5)
        left = files_with_bytes(MARKER)
        figure("seconds_until_no_file_holds_its_bytes_daemon_running", f"{time.monotonic() - forgot:.1f}")
        for t in left:
            fail(f"60 s after the forget, with the daemon running, {t} still holds the forgotten memory's bytes")

        # -------------------------------------------------------------- CLI links, traced
        for n, url in enumerate(odd_urls):
            engram("open", url, check=False, strace=f"{tmp}/open-{n}.strace")
            check_trace(f"{tmp}/open-{n}.strace", f"engram open {url[:50]}")
    finally:
        if pid:
            os.kill(pid, signal.SIGTERM)  # the daemon itself: SIGTERM to strace would not reach it
        stop(daemon, "the daemon")
    execs, writes = check_trace(trace, "engram daemon", allow_exec=(terminal,), own=(WINDOW,))
    figure("window_launches", len(window_argvs))
    for argv in window_argvs:
        if len(argv) != 3 or argv[:2] != ["--data-dir", DATA] or not argv[2].startswith("engram://"):
            fail(f"Engram's window was started with: {argv}")
    launched = open(spawn_log).read().splitlines() if os.path.exists(spawn_log) else []
    figure("terminal_launches", len(launched))
    for line in launched:
        words = line.split(" ")
        if words and words[0] == "-e":  # $TERMINAL -e COMMAND…
            words = words[1:]
        if len(words) < 2 or os.path.realpath(words[0]) != os.path.realpath(ENGRAM) or words[1] not in ("show", "search", "open"):
            fail(f"the terminal was asked to run: {line[:200]}")
    figure("daemon_programs_started", max(0, len(execs) - 1))
    if os.path.exists("/tmp/pwned-engram"):
        fail("/tmp/pwned-engram exists: something ran a command from a link")

    # ---------------------------------------------------------------- traces after forget
    stub = f"{DATA}/index"
    terms = subprocess.run(["xapian-delve", "-a", stub], capture_output=True, text=True, errors="replace").stdout
    hits = [t for t in terms.splitlines() if MARKER in t.lower()]
    figure("index_terms_with_marker", len(hits))
    if hits:
        fail(f"the index still holds terms of the forgotten memory: {hits[:5]}")
    try:
        import xapian
        spell = [w for w in xapian.Database(stub).spellings() if MARKER in w.term.decode(errors="replace")]
    except Exception as e:  # noqa: BLE001
        spell = []
        print(f"note: spelling data not read ({e})")
    figure("spelling_words_with_marker", len(spell))
    if spell:
        fail(f"the spelling data still holds words of the forgotten memory: {[w.term for w in spell][:5]}")
    store = f"{DATA}/engram.sqlite"
    import sqlite3
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    n = db.execute("SELECT count(*) FROM activity WHERE memoryID = ? OR (detail LIKE ? AND action != 'search')",
                   (secret_id, f"%{MARKER}%")).fetchone()[0]
    searches = db.execute("SELECT count(*) FROM activity WHERE action = 'search' AND detail LIKE ?", (f"%{MARKER}%",)).fetchone()[0]
    db.close()
    figure("activity_rows_about_forgotten", n)
    figure("search_log_rows_with_its_words", searches)  # the person's own queries: `engram privacy clear-activity` empties them
    if n:
        fail(f"the activity log still holds {n} rows about the forgotten memory")
    traces = files_with_bytes(MARKER)
    store_traces = [t for t in traces if "/index.d/" not in t]
    index_traces = [t for t in traces if "/index.d/" in t]
    figure("store_files_with_its_bytes", len(store_traces))
    figure("index_files_with_its_bytes_in_free_blocks", len(index_traces))
    for t in traces:
        fail(f"the bytes of the forgotten memory are still in {t}")

    check_modes()


try:
    main()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
