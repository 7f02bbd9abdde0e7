#!/usr/bin/env python3
"""`engram-feed motd --format waybar`, written in Python over the same SQLite file: the benchmark's baseline.

Same selection (decay at local midnight, today's uses undone, 20 most faded, weighted race seeded by the
date, yesterday's winner passed over) and the same Waybar line for the medium size. Reads the store
read-only. Environment: ENGRAM_DATA_DIR (or XDG_DATA_HOME), ENGRAM_NOW (ISO 8601) to pin the clock, TZ.
"""
import json
import math
import os
import sqlite3
import sys
import time
from datetime import datetime, timezone

HALF_LIFE = {"note": 30, "idea": 45, "task": 14, "quote": 120, "learning": 60}
FACTOR, MAX_USES, YEAR, DAY = 1.8, 8, 365 * 86400.0, 86400.0
IMPORTANCE = {"learning": 1.3, "idea": 1.2, "quote": 1.1, "note": 1.0, "task": 0.9}
SYMBOL = {"note": "✎", "idea": "✦", "task": "☐", "quote": "❝", "learning": "✧"}
USES = ("open", "activate", "review", "pin")
M64 = (1 << 64) - 1


def parse(text):
    if text is None:
        return None
    if isinstance(text, (int, float)):
        return float(text)
    d = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return (d if d.tzinfo else d.replace(tzinfo=timezone.utc)).timestamp()


def store_text(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % round((t % 1) * 1000)


def half_life(m):
    return HALF_LIFE.get(m["kind"], 30) * DAY * FACTOR ** min(max(m["uses"], 0), MAX_USES)


def score(m, now, pinned=None):
    if (m["pinned"] if pinned is None else pinned):
        return 1.0
    return max(0.5 ** (max(0.0, now - m["last"]) / half_life(m)), 5e-324)


def expiry(m):
    if m["pinned"]:
        return None
    h, lo, hi = half_life(m), 0.0, YEAR
    for _ in range(64):
        mid = (lo + hi) / 2
        if mid - YEAR * 0.5 ** (mid / h) < 0:
            lo = mid
        else:
            hi = mid
    return m["last"] + (lo + hi) / 2


def expired(m, now):
    e = expiry(m)
    return e is not None and e <= now


def unit_hash(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001B3) & M64
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & M64
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & M64
    h ^= h >> 31
    return ((h >> 11) + 0.5) / 9007199254740992


def importance(m):
    return IMPORTANCE.get(m["kind"], 1.0) * (1 + math.log(1 + max(0, m["uses"]))) * \
        (1 + 0.2 * min(max(0, m["links"]), 10)) * (1.5 if m["pinned"] else 1)


def draw(facts, t, seed):
    scored = sorted(((score(m, t, pinned=False), m["id"], m) for m in facts), key=lambda x: (x[0], x[1]))[:20]
    keyed = sorted((-math.log(unit_hash(seed + "|" + i)) / (importance(m) * max(1 - s, 0.001)), i) for s, i, m in scored)
    return [i for _, i in keyed[:2]]


def day_number(t):
    lt = time.localtime(t)
    return datetime(lt.tm_year, lt.tm_mon, lt.tm_mday).toordinal() - 719163


def start_of_day(day):
    d = datetime.fromordinal(day + 719163)
    return time.mktime((d.year, d.month, d.day, 0, 0, 0, 0, 0, -1))


def ranking(db, facts, day, context):
    midnight = start_of_day(day)
    older = [m for m in facts if m["created"] < midnight]
    if not older:
        return []
    since = {}
    for mid, action in db.execute(
            "SELECT memoryID, action FROM activity WHERE at >= ? AND memoryID IS NOT NULL AND action IN %s ORDER BY at, id"
            % (USES,), (store_text(midnight),)):
        since.setdefault(mid, []).append(action)
    rewound = []
    for m in older:
        uses = since.get(m["id"])
        if uses:
            m = dict(m)
            m["uses"] = max(0, m["uses"] - sum(1 for a in uses if a != "pin"))
            if sum(1 for a in uses if a == "pin") % 2:
                m["pinned"] = not m["pinned"]
            if m["last"] >= midnight:
                row = db.execute("SELECT max(at) FROM activity WHERE memoryID = ? AND at < ? AND action IN %s" % (USES,),
                                 (m["id"], store_text(midnight))).fetchone()
                m["last"] = max(m["created"], parse(row[0]) or m["created"])
        rewound.append(m)
    live = [m for m in rewound if m["pinned"] or m["id"] in since or not expired(m, midnight)]
    lt = time.localtime(midnight)
    return draw(live, midnight, "engram-motd|%04d-%02d-%02d|%s" % (lt.tm_year, lt.tm_mon, lt.tm_mday, context or ""))


def clean(text, keep_newlines=False):
    out, prev_cr = [], False
    for ch in text:
        v = ord(ch)
        if v == 0x0A:
            out.append("" if keep_newlines and prev_cr else ("\n" if keep_newlines else " "))
        elif v == 0x0D:
            out.append("\n" if keep_newlines else " ")
        elif v in (0x09, 0x0B, 0x0C, 0x85, 0x2028, 0x2029):
            out.append("\n" if keep_newlines and v != 0x09 else " ")
        elif v < 0x20:
            out.append(chr(0x2400 + v))
        elif v == 0x7F:
            out.append("\u2421")
        elif 0x80 <= v < 0xA0:
            out.append("\ufffd")
        elif 0x202A <= v <= 0x202E or 0x2066 <= v <= 0x2069:
            pass
        else:
            out.append(ch)
        prev_cr = v == 0x0D
    return "".join(out)


def keep_ltr(s):
    rtl = any(0x0590 <= o <= 0x08FF or 0xFB1D <= o <= 0xFDFF or 0xFE70 <= o <= 0xFEFF or 0x10800 <= o <= 0x10FFF
              or 0x1E800 <= o <= 0x1EFFF for o in map(ord, s))
    return "\u200e" + s if rtl else s


def line(text, limit):
    return truncate(keep_ltr(" ".join(w for w in clean(text[:limit * 4 + 16]).split(" ") if w)), limit)


def truncate(text, limit):
    if len(text) <= limit:
        return text
    return text[:limit - 1].rstrip(" ") + "…"


def wrap(text, width, max_lines):
    lines = []
    for paragraph in (p for p in clean(text[:width * (max_lines + 1) * 2], True).split("\n") if p):
        current = ""
        for w in (w for w in paragraph.split(" ") if w):
            while len(w) > width:
                if current:
                    lines.append(current)
                    current = ""
                lines.append(w[:width])
                w = w[width:]
            if not current:
                current = w
            elif len(current) + 1 + len(w) <= width:
                current += " " + w
            else:
                lines.append(current)
                current = w
        if current:
            lines.append(current)
        if len(lines) > max_lines:
            break
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines.pop()
        lines.append(last + "…" if len(last) < width else last[:width - 1] + "…")
    return [keep_ltr(s) for s in lines]


def title(content):
    for raw in content.splitlines():
        if raw.strip():
            t = raw.strip(" \t\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000")
            return t.lstrip("#").strip(" \t")
    return content.strip(" \t").lstrip("#").strip(" \t")


def pango(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")


def main():
    data = os.environ.get("ENGRAM_DATA_DIR") or (os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")) + "/engram"
    now = parse(os.environ["ENGRAM_NOW"]) if os.environ.get("ENGRAM_NOW") else time.time()
    db = sqlite3.connect("file:%s/engram.sqlite?mode=ro" % data, uri=True)
    db.text_factory = lambda b: b.decode("utf-8", "replace")
    row = db.execute("SELECT value FROM setting WHERE key = 'context'").fetchone()
    context = row[0] if row and row[0] else None
    if context == "sleep":
        print(json.dumps({"text": "", "alt": "sleep", "tooltip": "", "class": ["sleep"], "percentage": 0}, ensure_ascii=False))
        return
    links = dict(db.execute("SELECT id, count(*) FROM (SELECT fromID AS id FROM link UNION ALL SELECT toID FROM link) GROUP BY id"))
    facts = []
    for i, kind, tags, ctx, created, last, uses, pinned in db.execute(
            "SELECT id, type, tags, context, created, lastReinforced, useCount, pinned FROM memory ORDER BY created, id"):
        if context and ctx != context:
            continue
        try:
            tags = json.loads(tags)
        except ValueError:
            tags = []
        facts.append({"id": i, "kind": kind, "tags": tags, "created": parse(created), "last": parse(last) or parse(created),
                      "uses": uses, "pinned": bool(pinned), "links": links.get(i, 0)})
    today = day_number(now)
    first = ranking(db, facts, today, context)
    if not first:
        live = [m for m in facts if m["pinned"] or not expired(m, now)]
        first = draw(live, now, "engram-motd|%s|%s" % (time.strftime("%Y-%m-%d", time.localtime(now)), context or ""))[:1]
    elif len(first) > 1 and ranking(db, facts, today - 1, context)[:1] == first[:1]:
        first = first[1:]
    if not first:
        print(json.dumps({"text": "", "alt": "empty", "tooltip": "", "class": ["empty"], "percentage": 0}, ensure_ascii=False))
        return
    render(db, first[0], now, links)


def render(db, memory_id, now, links):
    """Prints the Waybar line for memory_id (the medium size), as engram-feed does."""
    i, kind, tags, created, last, uses, pinned, content = db.execute(
        "SELECT id, type, tags, created, lastReinforced, useCount, pinned, content FROM memory WHERE id = ?", (memory_id,)).fetchone()
    m = {"kind": kind, "last": parse(last), "uses": uses, "pinned": bool(pinned)}
    strength = math.floor(score(m, now) * 100 + 0.5)
    exp = expiry(m)
    days = None if exp is None else math.floor((exp - now) / DAY)
    fading = "pinned" if days is None else "faded from search" if exp <= now else \
        {0: "fades today", 1: "fades tomorrow"}.get(days, "fades in %d days" % days)
    tag_text = " ".join("#" + line(t, 40) for t in json.loads(tags))
    t = line(title(content), 120)
    n = links.get(i, 0)
    history = "Captured %s · %s" % (time.strftime("%Y-%m-%d", time.localtime(parse(created))),
                                    "never used" if uses <= 0 else "used once" if uses == 1 else "used %d times" % uses)
    if n:
        history += " · %d link%s" % (n, "" if n == 1 else "s")
    tooltip = wrap(content, 72, 12) + ["", " · ".join(x for x in (kind, tag_text) if x), "Strength %d%% · %s" % (strength, fading), history]
    soon = days is not None and days <= 7
    print(json.dumps({"text": pango(SYMBOL.get(kind, "✎") + " " + truncate(t, 60)), "alt": kind, "tooltip": pango("\n".join(tooltip)),
                      "class": ["ready", kind] + (["fading"] if soon else []), "percentage": strength},
                     ensure_ascii=False, separators=(",", ":")))


if __name__ == "__main__":
    sys.stdout.reconfigure(errors="replace")
    main()
