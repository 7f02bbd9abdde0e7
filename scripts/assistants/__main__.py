"""`engram mcp` as an assistant meets it: the official MCP Python SDK (PyPI `mcp`, a client nobody here wrote) over
stdio, on a world with the sample collection and curricula.

    env PYTHONPATH=scripts .build/mcp-client/bin/python -m assistants .build/debug/engram [OUT]

Checks: initialize; every catalog intent listed as a tool with a valid JSON Schema and annotations from its effect;
every tool called; a capture with a request id stored once; memories listed page by page and read; bad arguments
answered with JSON-RPC errors; forget only with confirm, and then gone from search and resources; malformed,
oversized and non-UTF-8 input on stdin never crashes the server and writes nothing; hostile text given back as
written; the same with a daemon holding the index writer on a private bus (the capture searchable through it).
"""
import asyncio
import hashlib
import json
import os
import subprocess
import sys
import time

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

from engramtest import ROOT
from engramtest.bus import SessionBus, wait_for_name, NAME
from engramtest.daemon import Daemon
from engramtest.engram import Engram
from engramtest.report import Failed, Report, expect
from engramtest.world import World

HOSTILE = "<b>bold</b> &amp; ${exec rm -rf ~} %{F#f00}red%{F-} \u202eevil\u202c row\x1fsep"


def tool_names_from_catalog(engram):
    """The intents `engram ask --list --markdown` prints, as the snake-case tool names the server must list."""
    names = []
    for line in engram("ask", "--list", "--markdown", check=True).stdout.splitlines()[2:]:
        name = line.split("|")[1].strip()
        names.append("".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(name)))
    return names


def store_digest(engram):
    """A digest of everything the store holds, as `engram export` writes it (the files' bytes change when SQLite
    merely checkpoints its log, so they cannot tell a write)."""
    return hashlib.sha256(engram("export", check=True, text=False).stdout).hexdigest()


class Suite:
    def __init__(self, engram_bin, out):
        self.bin = os.path.abspath(engram_bin)
        self.world = World("engram-assistants")
        self.world.env.update(ENGRAM_MODEL_DIR="none", NO_COLOR="1")
        for var in ("DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS"):
            self.world.env.pop(var, None)  # no daemon unless a test starts one on its own bus
        self.engram = Engram(self.bin, self.world.env)
        self.report = Report("assistants", out)
        samples = self.world.samples()
        self.engram("import", os.path.join(samples, "memories.jsonl"), check=True)
        for c in ("swift-concurrency.toml", "spanish-b1.yaml"):
            self.engram("import", os.path.join(samples, "curricula", c), check=True)

    def params(self, env=None):
        return StdioServerParameters(command=self.bin, args=["mcp"], env=env or self.world.env)

    async def session(self, body, env=None):
        """Runs body(session, initialize result) in one client session; a failed check comes out as itself (the
        SDK's task group would wrap it in an ExceptionGroup)."""
        try:
            async with stdio_client(self.params(env)) as (r, w):
                async with ClientSession(r, w) as s:
                    init = await s.initialize()
                    return await body(s, init)
        except BaseExceptionGroup as group:
            leaf = group
            while isinstance(leaf, BaseExceptionGroup):
                leaf = leaf.exceptions[0]
            raise leaf

    # The checks, each one session (or raw stdin) against the same world.

    async def tools_listed(self, s, init):
        expect(init.server_info.name == "engram", f"server name {init.server_info.name!r}")
        tools = {t.name: t for t in (await s.list_tools()).tools}
        catalog = tool_names_from_catalog(self.engram) + ["ask"]
        missing = [n for n in catalog if n not in tools]
        expect(not missing and len(tools) == len(catalog), f"tools {sorted(tools)} against the catalog's {catalog} and ask")
        for t in tools.values():
            jsonschema.Draft202012Validator.check_schema(t.input_schema)
            expect(t.input_schema.get("type") == "object" and t.description, f"{t.name}: schema or description missing")
        a = {n: tools[n].annotations for n in tools}
        expect(a["query_memory"].read_only_hint is True and a["query_memory"].destructive_hint is False, "query_memory is read-only")
        expect(a["store_memory"].read_only_hint is False and a["store_memory"].idempotent_hint is False, "store_memory changes things")
        expect(a["forget_memory"].destructive_hint is True, "forget_memory is destructive")
        expect("confirm" in tools["forget_memory"].input_schema["required"], "forget_memory must require confirm")
        return f"{len(tools)} tools, each schema valid (Draft 2020-12), annotations from each intent's effect"

    async def every_tool(self, s, init):
        calls = {
            "store_memory": {"content": "Kombucha second fermentation: 3 days with ginger", "type": "learning"},
            "query_memory": {"query": "sourdough", "limit": 3, "includeRelated": True},
            "summarize_topic": {"topic": "sourdough", "range": "all"},
            "show_connections": {"memory": "s004", "depth": 2},
            "daily_review": {"limit": 5},
            "memory_stats": {},
            "start_session": {"curriculum": "swift-concurrency"},
            "pause_session": {}, "resume_session": {}, "stop_session": {},
            "open_curriculum": {"curriculum": "swift-concurrency"},
            "open_topic": {"topic": "swift-concurrency-async-await"},
            "show_analytics": {"range": "all"},
            "show_history": {"limit": 5},
            "export_progress": {"format": "json"},
            "related_memories": {"memory": "s004", "limit": 3},
            "tag_memory": {"memory": "s004", "add": "mcp-tagged, second", "remove": ""},
            "pin_memory": {"memory": "s004", "pinned": True},
        }
        listed = {t.name for t in (await s.list_tools()).tools}
        expect(set(calls) | {"forget_memory", "ask"} == listed, f"calls cover {sorted(set(calls))}, tools are {sorted(listed)}")
        for name, args in calls.items():
            r = await s.call_tool(name, args)
            text = " ".join(c.text for c in r.content if getattr(c, "text", None))
            expect(not r.is_error, f"{name}: error {text}")
            sc = r.structured_content or {}
            expect(sc.get("sentence") and sc.get("sentence") in text, f"{name}: structured sentence {sc.get('sentence')!r} not in text {text!r}")
        found = await s.call_tool("query_memory", {"query": "kombucha ginger"})
        hits = [i for i in found.structured_content["items"] if "Kombucha" in i["title"]]
        expect(hits, f"the capture is not found: {found.structured_content}")
        expect(all(k in hits[0] for k in ("id", "url", "created", "tags", "byMeaning", "links")), f"a hit lacks its facts: {hits[0]}")
        linked = await s.call_tool("query_memory", {"query": "impediment to action"})
        s002 = [i for i in linked.structured_content["items"] if i["id"] == "s002"]
        expect(s002 and s002[0]["links"] >= 1 and "stoicism" in s002[0]["tags"], f"s002's links and tags: {s002}")
        tagged = json.loads(self.engram("show", "--peek", "--json", "s004", check=True).stdout)
        expect("mcp-tagged" in json.dumps(tagged) and tagged.get("pinned", tagged.get("memory", {}).get("pinned")) is True,
               f"s004 not tagged and pinned: {tagged}")
        status = self.engram("session", "status").stdout
        expect("no learning session is running" in status.lower(), f"the session is not stopped: {status}")
        exports = os.listdir(os.path.join(self.world.data, "exports"))
        expect(any(e.endswith(".json") for e in exports), f"no JSON export in the data folder: {exports}")
        return f"{len(calls)} tools called, each answered with text and structured content; their changes are in the store"

    async def ask_in_words(self, s, init):
        """The ask tool runs what is clear and answers a question, running nothing, for what is not."""
        before = store_digest(self.engram)
        stop = await s.call_tool("ask", {"phrase": "stop"})
        c = (stop.structured_content or {}).get("clarification")
        expect(c and c["question"] == "Stop the session?" and c["options"][0]["intent"] == "StopSession", f"stop: {stop.structured_content}")
        empty = await s.call_tool("ask", {"phrase": "remember"})
        expect(empty.structured_content["clarification"]["missing"] == "content", f"remember: {empty.structured_content}")
        forget = await s.call_tool("ask", {"phrase": "forget memory s002"})
        expect("clarification" in forget.structured_content, f"forget by words: {forget.structured_content}")
        expect(store_digest(self.engram) == before, "a question changed the store")
        found = await s.call_tool("ask", {"phrase": "what do I know about sourdough"})
        expect(found.structured_content["intent"] == "QueryMemory" and found.structured_content["items"], f"{found.structured_content}")
        return "a bare “stop” and an empty “remember” asked, “forget memory s002” only explained, nothing written; a clear question ran"

    async def request_id(self, s, init):
        before = json.loads(self.engram("stats", "--json", check=True).stdout)["total"]
        args = {"content": "Idempotent capture through MCP", "requestId": "assistant-42"}
        first = await s.call_tool("store_memory", args)
        second = await s.call_tool("store_memory", args)
        ids = [r.structured_content["items"][0]["id"] for r in (first, second)]
        after = json.loads(self.engram("stats", "--json", check=True).stdout)["total"]
        expect(ids[0] == ids[1] and after == before + 1, f"ids {ids}, {before} → {after} memories")
        return f"two calls with requestId assistant-42 stored one memory ({ids[0]})"

    async def resources(self, s, init):
        from mcp import types
        exported = [json.loads(l) for l in self.engram("export", check=True).stdout.splitlines() if l.strip()]
        listed_before = {r["id"] for r in exported if r.get("kind") == "memory"}
        first = await s.list_resources()
        expect(len(first.resources) == 100 and first.next_cursor, f"first page: {len(first.resources)}, cursor {first.next_cursor!r}")
        seen = [str(r.uri) for r in first.resources]
        cursor, captured = first.next_cursor, 0
        while cursor:
            # a capture between two pages: newer than every page given, so it shifts nothing after the cursor
            made = await s.call_tool("store_memory", {"content": f"Captured between two pages of resources, number {captured}"})
            expect(not made.is_error, f"{made.content}")
            captured += 1
            page = await s.list_resources(params=types.PaginatedRequestParams(cursor=cursor))
            seen += [str(r.uri) for r in page.resources]
            cursor = page.next_cursor
        expected = {f"engram://memory/{i}" for i in listed_before}
        expect(len(seen) == len(set(seen)) and set(seen) == expected,
               f"listed {len(seen)} ({len(set(seen))} distinct) of {len(expected)} present at the first page; "
               f"missing {sorted(expected - set(seen))[:3]}, extra {sorted(set(seen) - expected)[:3]}")
        for bad in ["100", "bm90IG91cnM", "%%%", "x" * 2000]:
            try:
                await s.list_resources(params=types.PaginatedRequestParams(cursor=bad))
                raise Failed(f"the cursor {bad[:20]!r} was taken")
            except MCPError as e:
                expect(e.error.code == -32602 and "cursor" in e.error.message, f"cursor {bad[:20]!r}: {e.error.code} {e.error.message}")
        body = await s.read_resource("engram://memory/s001")
        text = body.contents[0].text
        shown = json.loads(self.engram("show", "--peek", "--json", "s001", check=True).stdout)
        content = shown.get("content") or shown.get("memory", {}).get("content")
        expect(text.startswith(content), f"resource text does not start with the memory: {text[:80]!r}")
        return f"{len(seen)} memories listed in pages of 100 with {captured} captures between pages (none missed, none twice), 4 bad cursors refused, s001 read whole"

    async def bad_arguments(self, s, init):
        """A tool's own failure is its result (isError) with a sentence the assistant can act on, and the session goes
        on; only a tool that does not exist is a JSON-RPC error."""
        cases = [
            ("query_memory", {}, "query"), ("query_memory", {"query": "x", "limit": "ten"}, "whole number"),
            ("query_memory", {"query": "x", "nonsense": 1}, "no argument"), ("query_memory", {"query": 7}, "string"),
            ("store_memory", {"content": "x", "type": "poem"}, "poem"), ("forget_memory", {"memory": "s002"}, "confirm"),
            ("forget_memory", {"memory": "s002", "confirm": False}, "confirm"),
            ("show_connections", {"memory": "no-such-id"}, "query_memory finds"),
            ("pin_memory", {"memory": "no-such-id", "pinned": True}, "no-such-id"),
            ("query_memory", {"query": "x" * 9000}, "bytes"), ("store_memory", {"content": "x\u0000y"}, "NUL"),
            ("ask", {"phrase": ""}, "phrase"), ("ask", {}, "phrase"),
        ]
        before = store_digest(self.engram)
        for name, args, words in cases:
            r = await s.call_tool(name, args)
            text = " ".join(c.text for c in r.content if getattr(c, "text", None))
            expect(r.is_error, f"{name} {str(args)[:60]}: answered as a success: {text[:120]}")
            expect(words.lower() in text.lower() and len(text) > 20, f"{name} {str(args)[:60]}: the sentence does not say what to change: {text!r}")
            after = await s.call_tool("memory_stats", {})
            expect(not after.is_error, f"the session did not go on after {name}: {after.content}")
        try:
            await s.call_tool("no_such_tool", {})
            raise Failed("a tool that does not exist was answered")
        except MCPError as e:
            expect(e.error.code == -32602 and "no_such_tool" in e.error.message, f"no_such_tool: {e.error.code} {e.error.message}")
        expect(store_digest(self.engram) == before, "a refused call changed the store")
        expect(self.engram("show", "--peek", "s002").returncode == 0, "s002 was forgotten without confirm")
        return f"{len(cases)} failing calls answered with isError and a sentence naming what to change, each followed by a working call; an unknown tool is JSON-RPC error -32602; the store unchanged"

    async def forget(self, s, init):
        word = "zyxwvforgetme"
        made = await s.call_tool("store_memory", {"content": f"A secret to forget: {word}"})
        mid = made.structured_content["items"][0]["id"]
        expect((await s.call_tool("query_memory", {"query": word})).structured_content["items"], "not found before the forget")
        r = await s.call_tool("forget_memory", {"memory": mid, "confirm": True})
        expect(not r.is_error, f"forget failed: {r.content}")
        expect(not (await s.call_tool("query_memory", {"query": word})).structured_content["items"], "found after the forget")
        try:
            await s.read_resource(f"engram://memory/{mid}")
            raise Failed("the forgotten memory is still a readable resource")
        except MCPError as e:
            expect(e.error.code == -32002, f"code {e.error.code} for a forgotten resource")
        delve = subprocess.run(["xapian-delve", "-t", word.lower(), os.path.join(self.world.data, "index")],
                               capture_output=True, text=True)
        expect("Term" not in delve.stdout or "not found" in (delve.stdout + delve.stderr).lower(),
               f"xapian-delve still finds the word: {delve.stdout[:200]}")
        return f"{mid} forgotten with confirm: gone from search, resources and the index's terms"

    async def hostile(self, s, init):
        made = await s.call_tool("store_memory", {"content": HOSTILE})
        mid = made.structured_content["items"][0]["id"]
        body = (await s.read_resource(f"engram://memory/{mid}")).contents[0].text
        expect(body.startswith(HOSTILE), f"read back {body[:120]!r}")
        expect(not os.path.exists(os.path.expanduser("~/rm")), "something ran")
        return "markup, ${exec …}, %{…}, RTL override and a unit separator stored and read back as written"

    def raw_stdin(self):
        """Malformed, oversized and non-UTF-8 input, then a valid request: the server answers it and writes nothing."""
        before = store_digest(self.engram)
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
        junk = [b"not json\n", b"{}\n", b"[]\n", b'{"jsonrpc":"2.0","id":2,"method":"tools/call"}\n',
                b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"store_memory","arguments":{"content":"\xff\xfe"}}}\n',
                b"\xff\xfe\xfd\n", b'{"jsonrpc":"2.0","id":4,"method":"nope"}\n',
                b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"store_memory","arguments":{"content":"' + b"A" * (12 << 20) + b'"}}}\n',
                b'{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"engram://memory/' + b"%" * 5000 + b'"}}\n']
        last = {"jsonrpc": "2.0", "id": 99, "method": "tools/call",
                "params": {"name": "memory_stats", "arguments": {}}}
        data = json.dumps(init).encode() + b"\n" + b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n' \
            + b"".join(junk) + json.dumps(last).encode() + b"\n"
        p = subprocess.run([self.bin, "mcp"], input=data, capture_output=True, env=self.world.env, timeout=120)
        expect(p.returncode == 0 and p.returncode >= 0, f"the server died: status {p.returncode}, {p.stderr[-300:]!r}")
        replies = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        final = [r for r in replies if r.get("id") == 99]
        expect(final and "result" in final[0], f"no answer to the valid request after the junk: {replies[-3:]}")
        errors = [r for r in replies if "error" in r]
        expect(len(errors) >= 5, f"only {len(errors)} errors for {len(junk)} bad lines")
        expect(store_digest(self.engram) == before, "junk on stdin wrote the store")
        return f"{len(junk)} bad lines (12 MB, not UTF-8, not JSON, unknown method) → {len(errors)} JSON-RPC errors, then a valid answer; store unchanged"

    async def with_daemon(self):
        bus = SessionBus(self.world.path("bus"))
        address = bus.start()
        env = dict(self.world.env, DBUS_SESSION_BUS_ADDRESS=address)
        daemon = Daemon(self.bin, env, self.world.path("daemon.log"))
        try:
            expect(daemon.start(address, timeout=60), "the daemon did not take its name")
            holder = self.engram.with_env(env)("index", "status").stdout
            async def body(s, init):
                r = await s.call_tool("store_memory", {"content": "Captured while the daemon writes: quokkaword"})
                expect(not r.is_error, f"{r.content}")
                found = await s.call_tool("query_memory", {"query": "quokkaword"})
                return found.structured_content["items"]
            items = await self.session(body, env)
            expect(items, "the capture is not searchable through the daemon's index")
            cli = self.engram.with_env(env)("search", "--json", "quokkaword").stdout
            expect("quokkaword" in cli.lower() or "Captured while" in cli, f"engram search does not find it: {cli[:200]}")
            return "with the daemon holding the writer, a capture through MCP is searchable at once"
        finally:
            daemon.stop(timeout=30)
            bus.stop()

    def run(self):
        r = self.report
        for name, body in [("initialize and list tools", self.tools_listed), ("every tool called", self.every_tool),
                           ("ask clarifies before it acts", self.ask_in_words), ("a request id stores once", self.request_id), ("resources listed and read", self.resources),
                           ("a tool's failure is its result", self.bad_arguments), ("forget needs confirm, then nothing is left", self.forget),
                           ("hostile text comes back as written", self.hostile)]:
            r.check(name, lambda body=body: asyncio.run(self.session(body)))
        r.check("malformed and oversized stdin", self.raw_stdin)
        r.check("with the daemon running", lambda: asyncio.run(self.with_daemon()))
        r.write()
        self.world.close()
        return 1 if r.failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "bench-out", "assistants")
    sys.exit(Suite(sys.argv[1], out).run())
