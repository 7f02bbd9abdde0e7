"""An assistant's recall through `engram mcp`: one server process, JSON-RPC over its stdin and stdout as MCP clients
speak it, `query_memory` for each question; each answer checked against `engram search --json` for the same query
(the same memories, the same order, or the figure is refused). Used by bench.run (words, the 63,666-memory collection)
and bench.meaning_speed (meaning on, the embedded sample collection).
"""
import json
import subprocess
import time

from bench.timing import pct


class MCPClient:
    """A raw JSON-RPC client over a server's pipes (no SDK in the timed path)."""

    def __init__(self, engram, env):
        self.proc = subprocess.Popen([engram, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.next_id = 0
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        self.notify("notifications/initialized")

    def notify(self, method):
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}).encode() + b"\n")
        self.proc.stdin.flush()

    def call(self, method, params):
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engram mcp ended (status {self.proc.poll()})")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(30)


def measure(engram, env, queries, rounds=5, limit=10):
    """p50/p99 of a query_memory round trip over stdio for each query, after one warm-up pass; the ids of each answer
    are checked against `engram search --json` (the baseline's output)."""
    client = MCPClient(engram, env)
    times, mismatched = [], []
    try:
        for r in range(rounds + 1):
            for q in queries:
                t = time.monotonic()
                result = client.call("tools/call", {"name": "query_memory", "arguments": {"query": q, "limit": limit}})
                ms = (time.monotonic() - t) * 1000
                if r == 0:
                    got = [i["id"] for i in result["structuredContent"]["items"]]
                    cli = subprocess.run([engram, "search", "--json", "--kind", "memory", "--limit", str(limit), "--", q],
                                         env=env, capture_output=True, text=True)
                    want = [h["id"] for h in json.loads(cli.stdout)["results"]] if cli.returncode == 0 else []
                    if got != want:
                        mismatched.append(q)
                else:
                    times.append(ms)
    finally:
        client.close()
    return {"p50_ms": round(pct(times, 50), 2), "p99_ms": round(pct(times, 99), 2), "n": len(times),
            "queries": len(queries), "answers_unlike_engram_search": len(mismatched), "unlike": mismatched[:5]}
