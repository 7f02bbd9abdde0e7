#!/usr/bin/env python3
"""`engram-feed motd --format waybar` in Python with engram-feed's own algorithm: the fair baseline.

motd.py reads every memory and works out each one's expiry by bisection; engram-feed walks the store's
`memory_fading` index (migration v4) group by group (type, uses, pinned), oldest first, and reads only the
memories that can be among the 20 most faded (Sources/Feeds/Feeds/MemoryOfTheDay.swift, `candidates`). This
script does the same walk, with the same SQL, in Python, and prints the same line (motd.render). Environment as
motd.py: ENGRAM_DATA_DIR (or XDG_DATA_HOME), ENGRAM_NOW (ISO 8601) to pin the clock, TZ.
"""
import json
import os
import sqlite3
import sys
import time

import motd as M

FADING = "memory_fading"
COLUMNS = "id, type, tags, context, created, lastReinforced, useCount, pinned"
_durations = {}


def duration(kind, uses):
    """Seconds from the last reinforcement to leaving search, for unpinned memories of a type and use count."""
    key = (kind, uses)
    if key not in _durations:
        _durations[key] = M.expiry({"kind": kind, "uses": uses, "pinned": False, "last": 0.0})
    return _durations[key]


def expired(m, t):
    return not m["pinned"] and m["last"] + duration(m["kind"], m["uses"]) <= t


def fact(row, links=0):
    i, kind, tags, ctx, created, last, uses, pinned = row[:8]
    c = M.parse(created)
    return {"id": i, "kind": kind, "tags": [], "context": ctx, "created": c, "last": M.parse(last) or c,
            "uses": uses, "pinned": bool(pinned), "links": links}


def fading_groups(db):
    select = "SELECT type, useCount, pinned FROM memory INDEXED BY %s WHERE " % FADING
    order = " ORDER BY type, useCount, pinned LIMIT 1"
    groups = []
    g = db.execute(select + "1" + order).fetchone()
    while g:
        groups.append(g)
        t, u, p = g
        g = (db.execute(select + "type = ? AND useCount = ? AND pinned > ?" + order, (t, u, p)).fetchone()
             or db.execute(select + "type = ? AND useCount > ?" + order, (t, u)).fetchone()
             or db.execute(select + "type > ?" + order, (t,)).fetchone())
    return groups


def scan(db, g, context, created_before, start, before, after):
    sql = ("SELECT id, type, '[]', context, created, lastReinforced, useCount, pinned FROM memory INDEXED BY %s "
           "WHERE type = ? AND useCount = ? AND pinned = ? AND lastReinforced < ?" % FADING)
    args = [g[0], g[1], g[2], M.store_text(before)]
    if after is not None:
        sql += " AND lastReinforced > ?"
        args.append(M.store_text(after))
    elif start is not None:
        sql += " AND lastReinforced >= ?"
        args.append(M.store_text(start))
    if created_before is not None:
        sql += " AND created < ?"
        args.append(M.store_text(created_before))
    if context:
        sql += " AND context = ?"
        args.append(context)
    for row in db.execute(sql + " ORDER BY lastReinforced, id", args):
        yield fact(row)


def memory_facts(db, ids):
    out = []
    for i in ids:
        row = db.execute("SELECT %s, (SELECT count(*) FROM link WHERE fromID = memory.id) + (SELECT count(*) FROM link "
                         "WHERE toID = memory.id) FROM memory WHERE id = ?" % COLUMNS, (i,)).fetchone()
        if row:
            out.append(fact(row, row[8]))
    return out


def candidates(db, groups, t, created_before, excluding, context):
    """The 20 lowest-scored memories at t not faded from search (or pinned), leaving out `excluding`."""
    kept = []  # (score, id, facts), kept sorted

    def keep(m):
        if m["id"] in excluding or (created_before is not None and m["created"] >= created_before):
            return "skipped"
        if expired(m, t):
            return "skipped"
        entry = (M.score(m, t, pinned=False), m["id"], m)
        if len(kept) == 20:
            worst = kept[-1]
            if entry[0] > worst[0]:
                return "worse"
            if not entry[:2] < worst[:2]:
                return "tie"
            kept.pop()
        at = next((n for n, k in enumerate(kept) if entry[:2] < k[:2]), len(kept))
        kept.insert(at, entry)
        return "kept"

    for g in groups:
        start = None if g[2] else t - duration(g[0], g[1]) - M.DAY
        after = None
        while True:
            resume, after = after, None
            for m in scan(db, g, context, created_before, start, t, resume):
                r = keep(m)
                if r == "worse":
                    break
                if r == "tie":
                    after = m["last"]
                    break
            if after is None:
                break
    if len(kept) < 20 or kept[-1][0] > 0.999:
        if created_before is not None:
            sql = "SELECT %s FROM memory INDEXED BY memory_created WHERE created < ? AND lastReinforced >= ?" % COLUMNS
            args = [M.store_text(created_before), M.store_text(t)]
        else:
            sql = "SELECT %s FROM memory INDEXED BY memory_lastReinforced WHERE lastReinforced >= ?" % COLUMNS
            args = [M.store_text(t)]
        if context:
            sql += " AND context = ?"
            args.append(context)
        for row in db.execute(sql, args):
            keep(fact(row))
    return memory_facts(db, [k[1] for k in kept])


def uses_since(db, instant):
    since = {}
    for mid, action in db.execute("SELECT memoryID, action FROM activity WHERE at >= ? AND memoryID IS NOT NULL AND action IN %s "
                                  "ORDER BY at, id" % (M.USES,), (M.store_text(instant),)):
        since.setdefault(mid, []).append(action)
    return since


def rewind(db, facts, instant, since):
    out = []
    for m in facts:
        uses = since.get(m["id"])
        if uses:
            m = dict(m)
            m["uses"] = max(0, m["uses"] - sum(1 for a in uses if a != "pin"))
            if sum(1 for a in uses if a == "pin") % 2:
                m["pinned"] = not m["pinned"]
            if m["last"] >= instant:
                row = db.execute("SELECT max(at) FROM activity WHERE memoryID = ? AND at < ? AND action IN %s" % (M.USES,),
                                 (m["id"], M.store_text(instant))).fetchone()
                m["last"] = max(m["created"], M.parse(row[0]) or m["created"])
        out.append(m)
    return out


def seed(t, context):
    lt = time.localtime(t)
    return "engram-motd|%04d-%02d-%02d|%s" % (lt.tm_year, lt.tm_mon, lt.tm_mday, context or "")


def ranking(db, groups, day, context):
    midnight = M.start_of_day(day)
    sql = "SELECT 1 FROM memory WHERE created < ?" + (" AND context = ?" if context else "") + " LIMIT 1"
    if not db.execute(sql, [M.store_text(midnight)] + ([context] if context else [])).fetchone():
        return []
    since = uses_since(db, midnight)
    touched = [m for m in memory_facts(db, sorted(since)) if m["created"] < midnight and (not context or m["context"] == context)]
    others = candidates(db, groups, midnight, midnight, set(since), context)
    return M.draw(rewind(db, touched, midnight, since) + others, midnight, seed(midnight, context))


def main():
    data = os.environ.get("ENGRAM_DATA_DIR") or (os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")) + "/engram"
    now = M.parse(os.environ["ENGRAM_NOW"]) if os.environ.get("ENGRAM_NOW") else time.time()
    db = sqlite3.connect("file:%s/engram.sqlite?mode=ro" % data, uri=True)
    db.text_factory = lambda b: b.decode("utf-8", "replace")
    row = db.execute("SELECT value FROM setting WHERE key = 'context'").fetchone()
    context = row[0] if row and row[0] else None
    if context == "sleep":
        print(json.dumps({"text": "", "alt": "sleep", "tooltip": "", "class": ["sleep"], "percentage": 0}, ensure_ascii=False))
        return
    groups = fading_groups(db)
    today = M.day_number(now)
    first = ranking(db, groups, today, context)
    if not first:
        first = M.draw(candidates(db, groups, now, None, set(), context), now, seed(now, context))[:1]
    elif len(first) > 1 and ranking(db, groups, today - 1, context)[:1] == first[:1]:
        first = first[1:]
    if not first:
        print(json.dumps({"text": "", "alt": "empty", "tooltip": "", "class": ["empty"], "percentage": 0}, ensure_ascii=False))
        return
    n = db.execute("SELECT (SELECT count(*) FROM link WHERE fromID = ?) + (SELECT count(*) FROM link WHERE toID = ?)",
                   (first[0], first[0])).fetchone()[0]
    M.render(db, first[0], now, {first[0]: n})


if __name__ == "__main__":
    sys.stdout.reconfigure(errors="replace")
    main()
