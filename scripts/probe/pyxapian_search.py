#!/usr/bin/python3
"""python3-xapian doing the python provider's matching (scripts/bench/py_provider.py) in a warm loop: parse with
a partial last word, get_mset of twenty, and the twenty documents' data; the baseline for shim_search.cc.

Usage: pyxapian_search.py INDEX QUERIES.txt   (scripts/probe/shim-search.sh runs both)
"""
import sys
import time

import xapian


def main(index, queries_path):
    db = xapian.Database(index)
    qp = xapian.QueryParser()
    qp.set_stemmer(xapian.Stem("english"))
    qp.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
    qp.set_default_op(xapian.Query.OP_AND)
    qp.set_database(db)
    flags = xapian.QueryParser.FLAG_DEFAULT | xapian.QueryParser.FLAG_PARTIAL
    queries = [l.strip() for l in open(queries_path) if l.strip()]
    for label, read_data in (("parse + get_mset", False), ("parse + get_mset + 20 documents' data", True)):
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for q in queries:
                db.reopen()
                enquire = xapian.Enquire(db)
                enquire.set_query(qp.parse_query(q, flags))
                mset = enquire.get_mset(0, 20)
                if read_data:
                    for m in mset:
                        m.document.get_data()
            best = min(best, (time.perf_counter() - start) / len(queries) * 1000)
        print("python3-xapian: %s: %.3f ms per query (best of 5 passes over %d queries)" % (label, best, len(queries)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
