#!/usr/bin/python3
"""python3-xapian baseline: the same documents native_indexer.cc writes, through the Python bindings.

Usage: py_xapian_indexer.py CORPUS.jsonl DBDIR   (prints {"docs": N, "seconds": S})
"""
import json
import sys
import time

import xapian


def term(prefix, value):
    return prefix + (":" if value and (value[0].isupper() and value[0].isascii() or value[0] == ":") else "") + value


def main(corpus, path):
    start = time.monotonic()
    db = xapian.WritableDatabase(path, xapian.DB_CREATE_OR_OVERWRITE)
    gen = xapian.TermGenerator()
    gen.set_stemmer(xapian.Stem("english"))
    gen.set_stemming_strategy(xapian.TermGenerator.STEM_SOME)
    created = xapian.sortable_serialise(1.7e9)
    never = xapian.sortable_serialise(1e300)
    db.begin_transaction(False)
    n = 0
    with open(corpus, encoding="utf-8") as f:
        for line in f:
            m = json.loads(line)
            content = m["content"]
            title = content.split("\n", 1)[0]
            doc = xapian.Document()
            data = "engram-doc 1\nkind=memory\nid=%s\ntitle=%s\ntype=%s\n" % (m["id"], title, m["type"])
            data += "".join("tag=%s\n" % t for t in m["tags"]) + "created=1700000000.0\n\n" + content
            doc.set_data(data)
            gen.set_document(doc)
            gen.index_text(title, 0, "S")
            gen.index_text(content)
            unique = term("Q", "memory:" + m["id"])
            doc.add_boolean_term(unique)
            doc.add_boolean_term("XDOMmemory")
            for t in m["tags"]:
                doc.add_boolean_term(term("K", t.lower()))
            doc.add_boolean_term(term("XTYPE", m["type"].lower()))
            doc.add_boolean_term("XNOCTX")
            doc.add_value(0, created)
            doc.add_value(1, "20231114")
            doc.add_value(2, never)
            doc.add_value(3, "memory:" + m["id"])
            db.replace_document(unique, doc)
            for t in doc.termlist():
                w = t.term
                if w and not (65 <= w[0] <= 90):
                    db.add_spelling(w, 1)
            n += 1
    db.set_metadata("engram.last_seq", str(n))
    db.commit_transaction()
    db.commit()
    print(json.dumps({"docs": n, "seconds": round(time.monotonic() - start, 3)}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
