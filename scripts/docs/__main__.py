"""The manual's generated references, and `make test`'s check that they are current.

    PYTHONPATH=scripts python3 -m docs [--check] [BINARIES]

- docs/dbus.md, between its `generated: dbus` markers: every method, signal and property of the interfaces in
  Desktop/dbus-1/interfaces/*.xml (the contracts the daemon's own introspection is tested against), with the
  comment above each in the XML.
- docs/assistants.md, between its `generated: mcp-tools` markers: every tool `engram-mcp` lists (its name, title,
  arguments from its input schema, what it does, and its annotations), asked over MCP itself (stdio, JSON-RPC).
- docs/configuration.md, between its `generated: config` markers: every key of every section of config.toml, as
  `engram config keys --markdown` prints it from the section types (EngramRules/Config).

Without --check it rewrites those parts; with it, it changes nothing and fails, naming the file and the command,
when a part differs from what it would write (a method, argument, property, tool or description changed without
its reference). BINARIES is the folder with engram and engram-mcp (default: .build/debug).
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INTERFACES = os.path.join(ROOT, "Desktop", "dbus-1", "interfaces")
COMMAND = "PYTHONPATH=scripts python3 -m docs"


def words(comment):
    """An XML comment as one paragraph (its line breaks and indentation folded)."""
    return " ".join((comment or "").split())


def cell(text):
    return text.replace("|", "\\|")


def dbus_reference():
    out = []
    for name in sorted(os.listdir(INTERFACES)):
        if not name.endswith(".xml"):
            continue
        parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
        root = ET.parse(os.path.join(INTERFACES, name), parser).getroot()
        for iface in root.iter("interface"):
            out += [f"### `{iface.get('name')}`", "", f"From `Desktop/dbus-1/interfaces/{name}`.", ""]
            rows = {"method": [], "signal": [], "property": []}
            comment = ""
            for node in iface:
                if node.tag is ET.Comment:
                    comment = words(node.text)
                    continue
                if node.tag == "method":
                    ins = [f"{a.get('type')} {a.get('name')}" for a in node.iter("arg") if a.get("direction", "in") == "in"]
                    outs = [f"{a.get('type')} {a.get('name')}" for a in node.iter("arg") if a.get("direction") == "out"]
                    sig = f"`{node.get('name')}({', '.join(ins)})" + (f" → ({', '.join(outs)})`" if outs else "`")
                    rows["method"].append(f"| {cell(sig)} | {cell(comment)} |")
                elif node.tag == "signal":
                    args = [f"{a.get('type')} {a.get('name')}" for a in node.iter("arg")]
                    rows["signal"].append(f"| `{node.get('name')}({', '.join(args)})` | {cell(comment)} |")
                elif node.tag == "property":
                    rows["property"].append(f"| `{node.get('name')}` | `{node.get('type')}` | {node.get('access')} | {cell(comment)} |")
                comment = ""
            if rows["method"]:
                out += ["| method | what it does |", "|---|---|"] + rows["method"] + [""]
            if rows["signal"]:
                out += ["| signal | when |", "|---|---|"] + rows["signal"] + [""]
            if rows["property"]:
                out += ["| property | type | access | value |", "|---|---|---|---|"] + rows["property"] + [""]
    return "\n".join(out).rstrip() + "\n"


def mcp_tools(engram_mcp):
    """tools/list from engram-mcp over stdio, as Markdown."""
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "docs", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    data = "".join(json.dumps(r) + "\n" for r in requests).encode()
    env = dict(os.environ, ENGRAM_MODEL_DIR="none")
    import tempfile
    with tempfile.TemporaryDirectory() as folder:  # a data folder of its own: listing tools reads no memory
        env.update(ENGRAM_DATA_DIR=os.path.join(folder, "data"), ENGRAM_CONFIG_DIR=os.path.join(folder, "config"),
                   XDG_RUNTIME_DIR=folder)
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        p = subprocess.run([engram_mcp], input=data, capture_output=True, env=env, timeout=60)
    replies = []
    for line in p.stdout.splitlines():
        try:
            replies.append(json.loads(line))
        except ValueError:
            pass  # not a reply: said below if no list comes
    tools = next((r["result"]["tools"] for r in replies if r.get("id") == 2 and "result" in r), None)
    if tools is None:
        sys.exit(f"docs: {engram_mcp} did not list its tools (exit status {p.returncode}): "
                 f"{p.stderr.decode(errors='replace')[-300:]}")
    out = ["| tool | arguments | what it does | kind |", "|---|---|---|---|"]
    for t in tools:
        schema = t.get("inputSchema", {})
        required = set(schema.get("required", []))
        args = []
        # required first, then the rest, each by name (a schema's properties are an object: no order of their own)
        for name, s in sorted(schema.get("properties", {}).items(), key=lambda kv: (kv[0] not in required, kv[0])):
            kind = s.get("type", "")
            if "enum" in s:
                kind = " \\| ".join(s["enum"])
            args.append(f"`{name}`{'' if name in required else '?'} ({kind})")
        a = t.get("annotations", {})
        kinds = ["read-only" if a.get("readOnlyHint") else "changes things"]
        if a.get("destructiveHint"):
            kinds.append("destructive")
        if a.get("idempotentHint"):
            kinds.append("idempotent")
        out.append(f"| `{t['name']}` | {', '.join(args) or '—'} | {cell(t.get('description', ''))} | {', '.join(kinds)} |")
    return "\n".join(out) + "\n"


def config_reference(engram):
    p = subprocess.run([engram, "config", "keys", "--markdown"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, NO_COLOR="1"))
    if p.returncode != 0 or not p.stdout.startswith("### "):
        sys.exit(f"docs: `{engram} config keys --markdown` failed: {p.stderr.strip()[-300:]}")
    return p.stdout


def replace(path, name, body, check):
    """The file with the part between its markers for name replaced by body; True if it was already so."""
    begin, end = f"<!-- generated: {name} (`{COMMAND}`) -->", f"<!-- end of generated: {name} -->"
    text = open(path, encoding="utf-8").read()
    match = re.search(re.escape(begin) + r"\n(.*?)" + re.escape(end), text, re.S)
    if not match:
        sys.exit(f"docs: {os.path.relpath(path, ROOT)} has no '{begin}' … '{end}' markers")
    if match.group(1) == body:
        return True
    if not check:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text[:match.start(1)] + body + text[match.end(1):])
    return False


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv
    binaries = args[0] if args else os.path.join(ROOT, ".build", "debug")
    parts = [(os.path.join(ROOT, "docs", "dbus.md"), "dbus", dbus_reference()),
             (os.path.join(ROOT, "docs", "assistants.md"), "mcp-tools", mcp_tools(os.path.join(binaries, "engram-mcp"))),
             (os.path.join(ROOT, "docs", "configuration.md"), "config", config_reference(os.path.join(binaries, "engram")))]
    stale = [os.path.relpath(p, ROOT) + f" ({n})" for p, n, body in parts if not replace(p, n, body, check)]
    if check and stale:
        print(f"docs: the generated references differ from the code: {', '.join(stale)}; run `{COMMAND}` and commit",
              file=sys.stderr)
        return 1
    print(("docs: the references are current: " if check else "docs: wrote ") + ", ".join(
        os.path.relpath(p, ROOT) + f" ({n})" for p, n, _ in parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
