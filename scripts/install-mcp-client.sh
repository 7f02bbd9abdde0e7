#!/usr/bin/env bash
# The MCP client the assistant tests speak to `engram mcp` with: the official Python SDK from PyPI at a pinned
# version, in a virtual environment of the build's own (nothing installed system-wide; nothing fetched at run time).
set -euo pipefail
venv="${1:?usage: install-mcp-client.sh VENV}"
version="2.3.0"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$version')" 2>/dev/null; then
  exit 0
fi
rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
echo "engram: installing the MCP client for the tests (PyPI mcp $version) into $venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "mcp==$version"
