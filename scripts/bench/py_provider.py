#!/usr/bin/python3
"""The python baseline for the GNOME provider: org.gnome.Shell.SearchProvider2 over python3-xapian.

Serves Engram's own index (read-only) the way a straightforward python provider would: terms
ANDed, the last one partial, English stemming, top results with metas from the document data.
Usage: py_provider.py INDEX BUS_NAME   (object path /org/engram/Engram/SearchProvider)
"""
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
import xapian
from gi.repository import GLib

IFACE = "org.gnome.Shell.SearchProvider2"
PATH = "/org/engram/Engram/SearchProvider"


# Engram's query-side stopwords (Sources/CXapian/stopwords.cc), for telling a natural question.
STOPWORDS = set("""a about am an and are as at be been by can could did do does for from had has have how i i'm in is it
its me my of on or our should so that the their them there these they this those to us was we were what when where
which who why will with would you your""".split())


def header(data):
    head, _, body = data.partition("\n\n")
    fields = dict(line.split("=", 1) for line in head.split("\n")[1:] if "=" in line)
    return fields, body


class Provider(dbus.service.Object):
    def __init__(self, bus, index):
        super().__init__(bus, PATH)
        self.index = index
        self.db = xapian.Database(index)
        self.qp = xapian.QueryParser()
        self.qp.set_stemmer(xapian.Stem("english"))
        self.qp.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
        self.qp.set_default_op(xapian.Query.OP_AND)
        self.qp.set_database(self.db)
        self.qp.add_boolean_prefix("tag", "K")
        self.qp.add_boolean_prefix("type", "XTYPE")

    def search(self, terms):
        try:
            self.db.reopen()
        except xapian.DatabaseError:
            self.db = xapian.Database(self.index)
        flags = xapian.QueryParser.FLAG_DEFAULT | xapian.QueryParser.FLAG_PARTIAL
        text = " ".join(terms)
        self.qp.set_default_op(xapian.Query.OP_AND)
        query = self.qp.parse_query(text, flags)
        enquire = xapian.Enquire(self.db)
        enquire.set_query(query)
        mset = enquire.get_mset(0, 20)
        ids = [header(m.document.get_data().decode())[0].get("id", "") for m in mset]
        # The same reading of a natural question as Engram's (docs/searching.md, "How a query is read"): three content words or
        # more with fewer all-words matches than the page holds, the page filled with the documents having some of them.
        words = [w for w in text.lower().split() if w.isalnum() and w not in STOPWORDS]
        if len(words) >= 3 and mset.get_matches_estimated() < 20:
            self.qp.set_default_op(xapian.Query.OP_OR)
            rest = xapian.Query(xapian.Query.OP_AND_NOT, self.qp.parse_query(text, flags), query)
            enquire.set_query(rest)
            ids += [header(m.document.get_data().decode())[0].get("id", "") for m in enquire.get_mset(0, 20 - len(ids))]
        return ids

    @dbus.service.method(IFACE, in_signature="as", out_signature="as")
    def GetInitialResultSet(self, terms):
        return self.search(terms)

    @dbus.service.method(IFACE, in_signature="asas", out_signature="as")
    def GetSubsearchResultSet(self, previous, terms):
        return self.search(terms)

    @dbus.service.method(IFACE, in_signature="as", out_signature="aa{sv}")
    def GetResultMetas(self, ids):
        metas = []
        for i in ids:
            term = "Qmemory:" + i
            doc = None
            for p in self.db.postlist(term):
                doc = self.db.get_document(p.docid)
                break
            fields, body = header(doc.get_data().decode()) if doc else ({}, "")
            title = fields.get("title", i)
            metas.append({"id": i, "name": title, "description": body[len(title):].strip()[:120],
                          "clipboardText": body})
        return metas

    @dbus.service.method(IFACE, in_signature="sasu", out_signature="")
    def ActivateResult(self, id, terms, timestamp):
        pass

    @dbus.service.method(IFACE, in_signature="asu", out_signature="")
    def LaunchSearch(self, terms, timestamp):
        pass


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(sys.argv[2], bus)
    Provider(bus, sys.argv[1])
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name


if __name__ == "__main__":
    main()
