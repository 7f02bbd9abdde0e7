#!/usr/bin/python3
"""`make test`'s check that Package.swift says what the code imports: each Swift target's declared dependencies
(targets and products, from `swift package dump-package`) equal the modules its files import, beyond the
toolchain's own (Foundation, Glibc, Testing …). Prints each difference (declared and never imported; imported and
not declared) and fails on any.

    scripts/check-imports.py [SWIFT]     # SWIFT: the swift driver (default: swift on PATH)
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Darwin", "Dispatch", "Synchronization",
          "Testing", "XCTest", "_Concurrency", "Swift", "os"}
# `import X`, `@testable import X`, `internal import X`, `import struct X.Y`; a module's name starts with a capital
# letter or an underscore (a line of Python inside a Swift string, "import json", is not an import).
# Products a target names only so that Package.swift pins the package they come from (the MCP SDK's and
# service-lifecycle's own dependencies, which Engram's code never imports; Package.swift says so beside them).
PINS = {"SystemPackage", "AsyncAlgorithms", "DequeModule"}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
                    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Z_]\w*)", re.MULTILINE)


def imports(folder):
    found = {}
    for base, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".swift"):
                path = os.path.join(base, name)
                for module in IMPORT.findall(open(path, encoding="utf-8").read()):
                    found.setdefault(module, os.path.relpath(path, ROOT))
    return found


def main():
    swift = sys.argv[1] if len(sys.argv) > 1 else "swift"
    dump = json.loads(subprocess.run([swift, "package", "dump-package"], cwd=ROOT, check=True,
                                     capture_output=True, text=True).stdout)
    problems = []
    checked = 0
    for target in dump["targets"]:
        if target["type"] == "system":
            continue
        folder = os.path.join(ROOT, target.get("path") or ("Tests" if target["type"] == "test" else "Sources"),
                              "" if target.get("path") else target["name"])
        seen = imports(folder)
        if not any(f.endswith(".swift") for _, _, fs in os.walk(folder) for f in fs):
            continue  # a C target
        checked += 1
        declared = set()
        for dep in target["dependencies"]:
            kind, value = next(iter(dep.items()))
            declared.add(value[0])
        used = set(seen) - SYSTEM - {target["name"]}
        for module in sorted(declared - used - PINS):
            problems.append(f"{target['name']}: depends on {module} in Package.swift but no file imports it")
        for module in sorted(used - declared):
            problems.append(f"{target['name']}: {seen[module]} imports {module}, which Package.swift does not list")
    for p in problems:
        print("check-imports: " + p, file=sys.stderr)
    if problems:
        print(f"check-imports: Package.swift and the imports differ in {len(problems)} place(s); make them equal", file=sys.stderr)
        return 1
    print(f"check-imports: {checked} Swift targets, each depends on exactly what its files import")
    return 0


if __name__ == "__main__":
    sys.exit(main())
