#!/usr/bin/env python3
"""Writes the GNOME Shell 43–44 variant of an ES-module (45+) extension: `imports.*`, `var`, and init().

    scripts/gnome-extension-legacy.py SOURCE_DIR DEST_DIR

GNOME Shell 45 loads extensions as ES modules (`import St from 'gi://St'`, `export default class extends
Extension`); 43 and 44 load them with the legacy importer (`imports.gi.St`, `imports.ui.main`, a top-level
init() returning an object with enable() and disable()). One folder can hold only one extension.js, so
scripts/install.sh installs both: the source as is, and this script's output under the uuid NAME-legacy@DOMAIN
with shell-version ["43", "44"]. Each shell loads only the one its version is listed in.

The source keeps to what this script understands, and anything else at the start of a line that says
import or export stops it with an error (so a new form is noticed, never passed through):
    import X from 'gi://X';                                   const X = imports.gi.X;
    import * as Main from 'resource:///org/gnome/shell/ui/main.js';
                                                              const Main = imports.ui.main;
    import {A, B} from 'resource:///org/gnome/shell/ui/popupMenu.js';
                                                              const {A, B} = imports.ui.popupMenu;
    import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
                                                              a small Extension base class (metadata, uuid, dir, path)
    import {A} from './client.js';   import * as S from './session.js';
                                                              const {A} = Me.imports.client;  const S = Me.imports.session;
    export const / export let                                 var
    export function f                                         function f
    export class X … }                                        var X = class X … };   (the class ends at a line "}")
    export default class X extends Extension … }              var X = class X … };  function init(extension) { … }
The legacy importer exports a module's top-level `var`s and functions, which is why `const` becomes `var`.
"""
import json
import os
import re
import shutil
import sys

GI = re.compile(r"^import (\w+) from 'gi://(\w+)(?:\?version=[\d.]+)?';$")
SHELL = re.compile(r"^import (\* as (\w+)|\{([\w\s,]+)\}) from 'resource:///org/gnome/shell/(ui|misc)/(\w+)\.js';$")
EXTENSION = re.compile(r"^import \{\s*Extension\s*\} from 'resource:///org/gnome/shell/extensions/extension\.js';$")
LOCAL = re.compile(r"^import (\* as (\w+)|\{([\w\s,]+)\}) from '\./(\w+)\.js';$")
DEFAULT_CLASS = re.compile(r"^export default class (\w+)( extends \w+)? \{$")
CLASS = re.compile(r"^export class (\w+)((?: extends [\w.]+)?) \{$")

EXTENSION_SHIM = """\
// GNOME 45's Extension base class, as much of it as this extension uses (written for 43–44).
class Extension {
    constructor(metadata) {
        this.metadata = metadata;
    }

    get uuid() {
        return this.metadata.uuid;
    }

    get dir() {
        return this.metadata.dir;
    }

    get path() {
        return this.metadata.path;
    }
}"""

INIT = """
// GNOME 43–44 call init() with the extension object and enable()/disable() on what it returns.
function init(extension) {
    return new %s({...extension.metadata, dir: extension.dir, path: extension.path});
}
"""

ME = "imports.misc.extensionUtils.getCurrentExtension().imports"


class Unsupported(Exception):
    pass


def convert(source, name="extension.js"):
    """The legacy form of one ES-module file (its text); raises Unsupported on a form it does not know."""
    out, closing, default_class = [], None, None
    for number, line in enumerate(source.split("\n"), 1):
        where = f"{name}:{number}"
        if closing and line == "}":
            out.append("};")
            closing = None
            continue
        if not re.match(r"^(import|export)\b", line):
            out.append(line)
            continue
        if m := GI.match(line):
            out.append(f"const {m.group(1)} = imports.gi.{m.group(2)};")
        elif EXTENSION.match(line):
            out.append(EXTENSION_SHIM)
        elif m := SHELL.match(line):
            module = f"imports.{m.group(4)}.{m.group(5)}"
            out.append(f"const {m.group(2)} = {module};" if m.group(2) else f"const {{{m.group(3)}}} = {module};")
        elif m := LOCAL.match(line):
            module = f"{ME}.{m.group(4)}"
            out.append(f"const {m.group(2)} = {module};" if m.group(2) else f"const {{{m.group(3)}}} = {module};")
        elif m := DEFAULT_CLASS.match(line):
            default_class = m.group(1)
            out.append(f"var {m.group(1)} = class {m.group(1)}{m.group(2) or ''} {{")
            closing = where
        elif m := CLASS.match(line):
            out.append(f"var {m.group(1)} = class {m.group(1)}{m.group(2)} {{")
            closing = where
        elif line.startswith(("export const ", "export let ")):
            out.append("var " + line.split(" ", 2)[2])
        elif line.startswith(("export function ", "export async function ")):
            out.append(line[len("export "):])
        else:
            raise Unsupported(f"{where}: no legacy form for {line.strip()!r}")
    if closing:
        raise Unsupported(f"{closing}: the exported class never ends with a line '}}'")
    text = "\n".join(out)
    if default_class:
        text = text.rstrip("\n") + "\n" + INIT % default_class
    return text


def legacy_uuid(uuid):
    name, _, domain = uuid.partition("@")
    return f"{name}-legacy@{domain}"


def write_variant(src, dest):
    """Writes the legacy variant of the extension in src into dest; returns its metadata."""
    with open(os.path.join(src, "metadata.json")) as f:
        meta = json.load(f)
    meta["uuid"] = legacy_uuid(meta["uuid"])
    meta["shell-version"] = ["43", "44"]
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(src)):
        path = os.path.join(src, name)
        if name.endswith(".js"):
            with open(path) as f:
                text = convert(f.read(), name)
            with open(os.path.join(dest, name), "w") as f:
                f.write(text)
        elif name.endswith(".css"):
            shutil.copyfile(path, os.path.join(dest, name))
    with open(os.path.join(dest, "metadata.json"), "w") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return meta


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    try:
        meta = write_variant(argv[0], argv[1])
    except Unsupported as error:
        sys.exit(f"gnome-extension-legacy: {error}")
    print(f"  {argv[1]} ({meta['uuid']}, GNOME Shell {' and '.join(meta['shell-version'])})")


if __name__ == "__main__":
    main(sys.argv[1:])
