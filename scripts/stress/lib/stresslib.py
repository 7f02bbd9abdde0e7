"""Helpers shared by the stress parts (`from stress.lib.stresslib import *`, scripts/ on PYTHONPATH).

Reading the store (sqlite3) and the index (python3-xapian, Xapian's `quest`), driving the daemon on the
part's private bus (python3-dbus), and printing figures.
"""
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time

from engramtest.bus import (APP_IFACE, APP_PATH, DEADLINE, NAME as BUS_NAME, PROVIDER_IFACE,  # noqa: F401
                            PROVIDER_PATH, require_name)
from engramtest.engram import Engram

ENGRAM = os.environ.get("ENGRAM", "engram")
DATA = os.environ.get("ENGRAM_DATA_DIR", "")
QUICK = os.environ.get("STRESS_QUICK", "0") == "1"

_failures = []


def figure(key, value):
    """Prints `FIGURE key: value` (python3 -m stress collects these); the key must not contain a colon."""
    print(f"FIGURE {key.replace(':', ' -')}: {value}", flush=True)


def note(text):
    print(f"NOTE {text}", flush=True)


def say(text):
    print(text, flush=True)


def fail(text):
    """Records a failure (the part goes on, and exits 1 at the end through finish())."""
    _failures.append(text)
    print(f"FAIL: {text}", flush=True)


def check(condition, text):
    if not condition:
        fail(text)
    return condition


def finish(name=None):
    """Exits 1 when a check failed; else, given the part's name, says PASS and exits 0 (without it, returns)."""
    if _failures:
        print(f"FAIL: {name or 'this part'}: {len(_failures)} check(s) failed", flush=True)
        sys.exit(1)
    if name:
        print(f"PASS: {name}", flush=True)
        sys.exit(0)


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


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds

    def __bool__(self):
        return time.monotonic() < self.end


def poll(predicate, timeout, interval=0.1):
    """Calls predicate until it returns a true value or timeout seconds pass; returns its last value."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() >= end:
            return value
        time.sleep(interval)


# ------------------------------------------------------------------ the store

def store_path(data=None):
    return os.path.join(data or DATA, "engram.sqlite")


def store_connect(data=None):
    db = sqlite3.connect(store_path(data), timeout=30)
    db.execute("PRAGMA busy_timeout = 30000")
    return db


def store_query(sql, args=(), data=None):
    db = store_connect(data)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def store_memory_ids(data=None):
    return {r[0] for r in store_query("SELECT id FROM memory", data=data)}


def store_memory_count(data=None):
    return store_query("SELECT count(*) FROM memory", data=data)[0][0]


def store_integrity(data=None):
    return store_query("PRAGMA quick_check", data=data)[0][0]


def store_latest_seq(data=None):
    rows = store_query("SELECT (SELECT coalesce(max(seq),0) FROM sqlite_sequence WHERE name='outbox'),"
                       " (SELECT coalesce(max(seq),0) FROM outbox)", data=data)
    return max(rows[0])


# ------------------------------------------------------------------ the index

def index_path(data=None):
    return os.path.join(data or DATA, "index")


def index_open(data=None):
    import xapian
    return xapian.Database(index_path(data))


def index_memory_ids(data=None):
    """The ids of the memory documents in the index, read from their unique terms (Qmemory:<id>)."""
    db = index_open(data)
    ids = set()
    prefix = b"Qmemory:"
    for t in db.allterms(prefix):
        ids.add(t.term[len(prefix):].decode())
    count = db.get_doccount()
    db.close()
    return ids, count


def index_last_seq(data=None):
    db = index_open(data)
    try:
        v = db.get_metadata("engram.last_seq")
        return int(v) if v else 0
    finally:
        db.close()


def quest_ids(query, data=None, extra=()):
    """The memory ids `quest` (Xapian's own tool) finds for query, read from the document data it prints."""
    out = subprocess.run(["/usr/bin/quest", "-d", index_path(data), "-m", "100000", "-s", "english", *extra, query],
                         capture_output=True, text=True, errors="replace", timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"quest failed: {out.stderr.strip()}")
    ids, kind = set(), ""
    for line in out.stdout.splitlines():
        line = line.strip()
        if line.startswith("kind="):
            kind = line[5:]
        elif line.startswith("id=") and kind == "memory":
            ids.add(line[3:])
    return ids


# Whole words of letters only, as Xapian's term generator splits them ("libfoo2" is one term, not "libfoo").
WORD = re.compile(r"^[a-z]{5,}$")


def store_text_terms(content):
    """The plain-word terms the store's current text must give in the index: Xapian's own TermGenerator, set up
    as the shim sets it up (english stemmer, STEM_SOME), over the text read from the store, not from the index.
    Only words of letters, so `quest`'s parser turns each back into the same term."""
    import xapian
    gen = xapian.TermGenerator()
    gen.set_stemmer(xapian.Stem("english"))
    gen.set_stemming_strategy(xapian.TermGenerator.STEM_SOME)
    doc = xapian.Document()
    gen.set_document(doc)
    gen.index_text(content)
    return sorted({t.term.decode() for t in doc.termlist() if WORD.match(t.term.decode(errors="replace"))})


def quest_spot_check(ids, count, data=None, rng=random):
    """For `count` random memories: quest finds each by the three rarest words of its *store* text.

    The words come from the store's current text (Xapian's term generator over it), never from the index, so a
    document indexed from stale text, or missing, is not found and counts as missing. A memory whose text gives
    no plain word cannot be checked this way: it is passed over and another one drawn, so `checked` counts only
    memories that were looked up. Returns (checked, missing, passed_over)."""
    db = index_open(data)
    pool = sorted(ids)
    rng.shuffle(pool)
    missing, checked, passed_over = [], 0, 0
    for mid in pool:
        if checked >= count:
            break
        content = store_query("SELECT content FROM memory WHERE id = ?", (mid,), data=data)[0][0]
        words = store_text_terms(content)
        if not words:
            passed_over += 1
            continue
        # Rarest first by the index's frequencies (a word the index lacks has 0 and comes first: it must fail).
        words = sorted(words, key=lambda w: (db.get_termfreq(w.encode()), w))[:3]
        checked += 1
        found = quest_ids(" AND ".join(words), data=data)
        if mid not in found:
            missing.append((mid, words))
    db.close()
    return checked, missing, passed_over


def index_domain_count(kind, data=None):
    """Documents of a kind (memory, curriculum, topic) in the index, by their domain term."""
    db = index_open(data)
    try:
        return db.get_termfreq(("XDOM" + kind).encode())
    finally:
        db.close()


def converged(data=None):
    """(ok, detail): the index holds exactly the store's memories, curricula and topics (ids and counts) and has
    applied every store change (its last applied change is the store's latest)."""
    store_ids = store_memory_ids(data)
    idx_ids, doccount = index_memory_ids(data)
    if store_ids != idx_ids:
        return False, f"store {len(store_ids)} vs index {len(idx_ids)} memories ({len(store_ids - idx_ids)} missing from the index, {len(idx_ids - store_ids)} extra)"
    memories = index_domain_count("memory", data)
    if memories != len(store_ids):
        return False, f"the index holds {memories} memory documents for {len(store_ids)} memory ids"
    others = store_query("SELECT (SELECT count(*) FROM curriculum), (SELECT count(*) FROM topic)", data=data)[0]
    want = len(store_ids) + others[0] + others[1]
    if doccount != want:
        return False, f"index doccount {doccount} vs store {want} ({len(store_ids)} memories, {others[0]} curricula, {others[1]} topics)"
    last, latest = index_last_seq(data), store_latest_seq(data)
    if last < latest:
        return False, f"the index has applied store changes up to {last} of {latest}"
    return True, f"{len(store_ids)} memories in both, {doccount} documents, changes applied through {last}"


# ------------------------------------------------------------------ corpus

def load_corpus(path=None):
    path = path or os.environ["STRESS_CORPUS"]
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def write_jsonl(path, records):
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


# ------------------------------------------------------------------ processes

def engram(*args, input=None, timeout=300, env=None, check_ok=False):
    """Runs the engram binary; returns CompletedProcess (text); check_ok raises EngramFailed (a RuntimeError)."""
    return Engram(ENGRAM, env, timeout)(*args, input=input, check=check_ok)


def pids_of(pattern_args):
    """Pids of live processes whose argv equals or starts with pattern_args (read from /proc; no pkill)."""
    found = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")[:-1]
        except OSError:
            continue
        if [a.decode(errors="replace") for a in argv[:len(pattern_args)]] == list(pattern_args):
            found.append(int(d))
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


# ------------------------------------------------------------------ the bus

class Bus:
    """The part's session bus through python3-dbus."""

    def __init__(self):
        import dbus
        self.dbus = dbus
        self.conn = dbus.SessionBus(private=True)
        self.bus = self.conn.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus")

    def daemon_pid(self):
        """The pid owning org.engram.Engram, or None."""
        try:
            return int(self.bus.GetConnectionUnixProcessID(BUS_NAME, dbus_interface="org.freedesktop.DBus"))
        except self.dbus.DBusException:
            return None

    def activate(self, timeout=120):
        """D-Bus-activates the daemon (StartServiceByName) and returns its pid."""
        self.bus.StartServiceByName(BUS_NAME, self.dbus.UInt32(0), dbus_interface="org.freedesktop.DBus", timeout=timeout)
        return poll(self.daemon_pid, timeout)

    def app(self):
        return self.dbus.Interface(self.conn.get_object(BUS_NAME, APP_PATH, introspect=False), APP_IFACE)

    def provider(self):
        return self.dbus.Interface(self.conn.get_object(BUS_NAME, PROVIDER_PATH, introspect=False), PROVIDER_IFACE)

    def prop(self, name, timeout=30):
        obj = self.conn.get_object(BUS_NAME, APP_PATH, introspect=False)
        return obj.Get(APP_IFACE, name, dbus_interface="org.freedesktop.DBus.Properties", timeout=timeout)

    def sync(self, timeout=300):
        return int(self.app().Sync(timeout=timeout))

    def kill_daemon(self, sig=signal.SIGKILL, timeout=30):
        """Kills the daemon owning the name and waits for the name to be released; returns its pid or None."""
        pid = self.daemon_pid()
        if pid is None:
            return None
        os.kill(pid, sig)
        poll(lambda: not alive(pid), timeout)
        poll(lambda: self.daemon_pid() is None, timeout)
        return pid

    def close(self):
        self.conn.close()
