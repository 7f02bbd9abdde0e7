#!/usr/bin/python3
"""SQLite FTS5 baseline through Debian's python3 sqlite3: the same memories, one transaction.

Porter stemming over unicode61 (the nearest FTS5 has to Xapian's English stemmer), positions
are FTS5's default, title and body columns, tag and type as columns. Usage:
fts5_indexer.py CORPUS.jsonl DBFILE   (prints {"docs": N, "seconds": S})
"""
import json
import os
import sqlite3
import sys
import time


def main(corpus, path):
    if os.path.exists(path):
        os.remove(path)
    start = time.monotonic()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE memory(id TEXT PRIMARY KEY, content TEXT, type TEXT, tags TEXT, created REAL)")
    db.execute("CREATE VIRTUAL TABLE memory_fts USING fts5(title, body, tags, type UNINDEXED, tokenize='porter unicode61')")
    n = 0
    with db, open(corpus, encoding="utf-8") as f:
        for line in f:
            m = json.loads(line)
            content = m["content"]
            tags = " ".join(m["tags"])
            cur = db.execute("INSERT INTO memory(id, content, type, tags, created) VALUES (?,?,?,?,?)",
                             (m["id"], content, m["type"], tags, 1.7e9))
            db.execute("INSERT INTO memory_fts(rowid, title, body, tags, type) VALUES (?,?,?,?,?)",
                       (cur.lastrowid, content.split("\n", 1)[0], content, tags, m["type"]))
            n += 1
    db.close()
    print(json.dumps({"docs": n, "seconds": round(time.monotonic() - start, 3)}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
