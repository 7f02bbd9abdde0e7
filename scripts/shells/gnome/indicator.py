"""Engram's top-bar indicator as a running gnome-shell shows it: the Context every extension check receives.

A Context holds the started shell (gnome_shell.GnomeShell, or another harness with its eval/call/type/screenshot/
name_has_owner), its world (shellkit.World: env, prefix, start/stop, run_engram, and run/host_path inside a root),
the installed engram CLI and the uuid this shell loads. It reads the indicator back through org.gnome.Shell.Eval
with snippets that use only `Main`, `global` and `imports.gi`: 43's Eval runs in the legacy context where all three
exist; 45+'s is a direct eval inside js/ui/shellDBus.js (an ES module that imports Main and Config), where
`imports.gi` is still global but `imports.ui.*` and `imports.misc.*` are gone.
"""

import json
import os
import re
import subprocess
from dataclasses import dataclass, field

from gi.repository import GLib

from shells import shellkit
from shells.gnome.gnome_shell import GnomeShell
from shells.shellkit import Failed, eventually, expect

MODERN_UUID, LEGACY_UUID = "engram@engram.org", "engram-legacy@engram.org"
ENGRAM = ("org.engram.Engram", "/org/engram/Engram", "org.engram.Engram1")
# The extension states both generations share (43: ENABLED 1, 45+: ACTIVE 1).
STATES = {1: "ENABLED", 2: "DISABLED", 3: "ERROR", 4: "OUT_OF_DATE", 6: "INITIALIZED", 99: "UNINSTALLED"}

# The indicator as drawn: its named rows (engram-*), their labels as St.Labels hold them, and the button.
INDICATOR_JS = """(() => {
  const St = imports.gi.St;
  const b = Main.panel.statusArea['%(uuid)s'];
  if (!b) return JSON.stringify(null);
  const shown = (a, top) => { for (let x = a; x && x !== top; x = x.get_parent()) if (!x.visible) return false; return true; };
  const labels = a => { const out = []; const walk = x => { if (x instanceof St.Label && !x.has_style_class_name('popup-menu-ornament'))
    out.push({text: x.get_text(), markup: x.clutter_text.use_markup}); x.get_children().forEach(walk); }; walk(a); return out; };
  const rows = []; const walk = x => { if (x.name && x.name.startsWith('engram-'))
    rows.push({name: x.name, visible: shown(x, b.menu.box), labels: labels(x),
               entry: x instanceof St.Entry ? x.get_text() : null});
    x.get_children().forEach(walk); };
  walk(b.menu.box);
  const find = (a, name) => a.name === name ? a : a.get_children().map(c => find(c, name)).find(c => c) || null;
  const elapsed = find(b, 'engram-elapsed'); const icon = b.first_child.first_child;
  return JSON.stringify({rows, open: b.menu.isOpen, offline: b.has_style_class_name('engram-offline'),
    iconOpacity: icon.opacity, iconNames: icon.gicon && icon.gicon.get_names ? icon.gicon.get_names() : [],
    elapsed: {text: elapsed.get_text(), visible: elapsed.visible, markup: elapsed.clutter_text.use_markup},
    ticking: !!b._tickId, paused: find(b, 'engram-paused').visible, listening: find(b, 'engram-listening').visible,
    mappedInPanel: b.container.mapped});
})()"""

# Finds a named actor in the indicator's menu and does something with it (%(js)s sees it as `a`).
ACTOR_JS = """(() => {
  const b = Main.panel.statusArea['%(uuid)s'];
  const find = (a, name) => a.name === name ? a : a.get_children().map(c => find(c, name)).find(c => c) || null;
  const a = find(b.menu.box, '%(name)s');
  if (!a) return 'no actor named %(name)s';
  %(js)s
})()"""

RETURN_JS = """(() => {
  const {Clutter, GLib} = imports.gi;
  // 48 has only global.stage.context.get_backend(); 43 has no stage context (Clutter.get_default_backend()).
  const backend = global.stage.context ? global.stage.context.get_backend() : Clutter.get_default_backend();
  const kb = global._engramKeyboard || (global._engramKeyboard = backend.get_default_seat()
      .create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE));
  const t = GLib.get_monotonic_time();
  kb.notify_keyval(t, Clutter.KEY_Return, Clutter.KeyState.PRESSED);
  kb.notify_keyval(t + 1, Clutter.KEY_Return, Clutter.KeyState.RELEASED);
  return 'pressed';
})()"""


@dataclass
class Context:
    """What every check receives: the started shell (its harness), its world, the engram CLI and the uuid loaded."""
    shell: GnomeShell
    world: shellkit.World
    engram: str
    uuid: str
    out: str
    shell_version: str = ""
    update_screenshots: bool = False
    notes: dict = field(default_factory=dict)

    # ------------------------------------------------------------------ the world's programs and files

    def run(self, argv, env=None, **kwargs):
        """argv run where the shell runs (inside the world's root when it has one), with the world's env by default."""
        kwargs.setdefault("capture_output", True)
        kwargs.setdefault("text", True)
        kwargs.setdefault("timeout", 60)
        if hasattr(self.world, "run"):
            return self.world.run(argv, env=env, **kwargs)
        return subprocess.run(argv, env=env or self.world.env, **kwargs)

    def host(self, path):
        """Where a path of the world (inside its root, if any) is seen from here."""
        return self.world.host_path(path) if hasattr(self.world, "host_path") else path

    def extension_dir(self, uuid):
        return os.path.join(self.world.prefix, "share", "gnome-shell", "extensions", uuid)

    # ------------------------------------------------------------------ reading the indicator back

    def indicator(self):
        return self.shell.eval(INDICATOR_JS % {"uuid": self.uuid})

    def rows(self, name, visible_only=True):
        """The rows named name (engram-today, engram-fading…), visible ones only by default."""
        ind = self.indicator() or {"rows": []}
        return [r for r in ind["rows"] if r["name"] == name and (r["visible"] or not visible_only)]

    def text(self, name):
        """The first label's text of the first visible row named name, or None."""
        rows = self.rows(name)
        return rows[0]["labels"][0]["text"] if rows and rows[0]["labels"] else None

    def actor(self, name, js):
        return self.shell.eval(ACTOR_JS % {"uuid": self.uuid, "name": name, "js": js})

    def open_menu(self):
        self.shell.eval(f"Main.panel.statusArea['{self.uuid}'].menu.open(0); 'opened'")
        expect(eventually(lambda: (self.indicator() or {}).get("open"), 5), "the indicator's menu did not open")

    def close_menu(self):
        self.shell.eval(f"Main.panel.statusArea['{self.uuid}'].menu.close(0); 'closed'")

    def activate(self, name):
        """Activates a menu item as a click does (its activate(); the menu closes)."""
        done = self.actor(name, "a.activate(imports.gi.Clutter.get_current_event()); return 'activated';")
        expect(done == "activated", f"could not activate {name}: {done}")

    # ------------------------------------------------------------------ the daemon and the store

    def prop(self, name):
        return self.shell.call(ENGRAM[0], ENGRAM[1], "org.freedesktop.DBus.Properties", "Get",
                               GLib.Variant("(ss)", (ENGRAM[2], name)), "(v)")[0]

    def intent(self, method, args=None, sig=None):
        sentence, result = self.shell.call(*ENGRAM, method, GLib.Variant(sig, args) if sig else None, "(ss)")
        return sentence, json.loads(result)["result"]

    def run_engram(self, *args, check=True):
        return self.world.run_engram(*args, check=check)

    def session(self):
        out = self.run_engram("session", "status", "--json")
        return json.loads(out.stdout)

    def motd(self):
        """The memory of the day as `engram-feed motd --format json` prints it (what the extension shows)."""
        out = self.run([os.path.join(os.path.dirname(self.engram), "engram-feed"), "motd", "--format", "json"])
        expect(out.returncode == 0, f"engram-feed motd failed: {out.stderr.strip()}")
        return json.loads(out.stdout)

    def daemon_running(self):
        return self.shell.name_has_owner(ENGRAM[0])

    def start_daemon(self):
        """Starts `engram daemon` (stopped by pid with the world) and waits for its name."""
        proc = self.world.start([self.engram, "daemon"], "engram-daemon.log")
        if not eventually(self.daemon_running, 30):
            raise Failed(f"engram daemon did not take {ENGRAM[0]} (exit status {proc.poll()}); see engram-daemon.log")
        self.notes["daemon"] = proc
        return proc

    def stop_daemon(self):
        """Stops the daemon this suite started, or the one the bus activated, by pid; waits until its name is gone."""
        proc = self.notes.pop("daemon", None)
        if proc is not None:
            self.world.stop(proc)
        for pid in self.world.daemon_pids():
            os.kill(pid, 15)
        expect(eventually(lambda: not self.daemon_running(), 15), "the daemon's name stayed on the bus")

    def screenshot(self, name):
        path = os.path.join(self.out, name)
        expect(self.shell.screenshot(path), f"org.gnome.Shell.Screenshot did not write {name}")
        return path


def elapsed_seconds(text):
    """'1:05' → 65, '1:02:03' → 3723 (a trailing '· paused' ignored); None when it is no time."""
    m = re.match(r"^(\d+):(\d\d)(?::(\d\d))?", text or "")
    if not m:
        return None
    a, b, c = int(m.group(1)), int(m.group(2)), m.group(3)
    return a * 3600 + b * 60 + int(c) if c is not None else a * 60 + b


def all_labels(ind, visible_only=False):
    """Every label of the menu's named rows (the visible ones only, if asked) and the button's timer."""
    return [l for r in ind["rows"] if r["visible"] or not visible_only for l in r["labels"]] + \
        [{"text": ind["elapsed"]["text"], "markup": ind["elapsed"]["markup"]}]


def enable(ctx):
    """`gnome-extensions enable` for both generations' uuids, as a person (or a package's default) does."""
    for uuid in (MODERN_UUID, LEGACY_UUID):
        out = ctx.run(["gnome-extensions", "enable", uuid], env=ctx.shell.env)
        if out.returncode != 0:
            raise Failed(f"gnome-extensions enable {uuid}: {out.stderr.strip() or out.stdout.strip()}")


def shell_version(shell):
    return shell.eval("(typeof Config !== 'undefined' ? Config : imports.misc.config).PACKAGE_VERSION")
