"""Headless GNOME Shell 43 for tests: start it on private buses, type into the overview, read what it draws.

GnomeShell(world).start() runs, all stopped by pid in stop():
  - a session bus (its activation folders are the world's XDG_DATA_DIRS, so `org.engram.Engram` is started from
    the installed D-Bus service file) and a private "system" bus (the shell needs one where logind exists);
  - a stand-in systemd user manager plus an LD_PRELOAD, so the shell never spawns ibus-daemon (that spawn can hang);
  - `gnome-shell --headless --wayland --no-x11 --unsafe-mode --virtual-monitor 1280x800`.
Reading back uses org.gnome.Shell.Eval (unsafe mode): the rows of the remote providers as drawn, the texts of
their labels, the clipboard; typing uses a Clutter virtual keyboard, as a person's keys arrive.
"""

import json
import os
import shutil
import subprocess
import time

from gi.repository import Gio, GLib

from shells import shellkit
from shells.shellkit import Failed, eventually

HERE = os.path.dirname(os.path.abspath(__file__))
PROVIDER = "org.engram.Engram.desktop"

# The remote providers' sections as drawn: visible rows only (display._content; _resultDisplays caches old queries).
ROWS_JS = """(() => {
  const sr = Main.overview._overview.controls._searchController._searchResults;
  return JSON.stringify(sr._providers.filter(p => p.isRemoteProvider).map(p => ({
    provider: p.id, visible: p.display.visible && p.display.mapped,
    rows: p.display._content.get_children().filter(a => a.visible && a.metaInfo).map(a => {
      const icon = a.metaInfo.createIcon ? a.metaInfo.createIcon(32) : null;
      const gicon = icon && icon.gicon;
      return {id: a.metaInfo.id, name: a.metaInfo.name, description: a.metaInfo.description || '',
              icon: gicon ? (gicon.get_names ? gicon.get_names() : [gicon.to_string()]) : [],
              mapped: a.mapped};
    })})));
})()"""

# The St.Label texts of Engram's section, row by row, exactly as the shell draws them (after its highlighting).
LABELS_JS = """(() => {
  const St = imports.gi.St;
  const sr = Main.overview._overview.controls._searchController._searchResults;
  const p = sr._providers.find(p => p.id === '%s');
  if (!p) return JSON.stringify(null);
  const texts = a => { const out = []; const walk = x => { if (x instanceof St.Label && x.visible)
    out.push({text: x.get_text(), markup: x.clutter_text.use_markup}); x.get_children().forEach(walk); }; walk(a); return out; };
  return JSON.stringify(p.display._content.get_children().filter(a => a.visible && a.metaInfo).map(texts));
})()""" % PROVIDER

TYPE_JS = """(() => {
  const {Clutter, GLib} = imports.gi;
  if (!global._engramKeyboard)
    global._engramKeyboard = Clutter.get_default_backend().get_default_seat()
      .create_virtual_device(Clutter.InputDeviceType.KEYBOARD_DEVICE);
  const kb = global._engramKeyboard;
  let t = GLib.get_monotonic_time();
  for (const key of %s) {
    const keyval = key === '\\b' ? Clutter.KEY_BackSpace : Clutter.unicode_to_keysym(key.codePointAt(0));
    kb.notify_keyval(t++, keyval, Clutter.KeyState.PRESSED);
    kb.notify_keyval(t++, keyval, Clutter.KeyState.RELEASED);
  }
  return 'typed';
})()"""



# The provider object that made the last search, marked (a reload replaces it with a new, unmarked one).
MARK_PROVIDER_JS = """(() => { const sr = Main.overview._overview.controls._searchController._searchResults;
  const p = sr._providers.find(p => p.id === '%s'); if (p) p._engramSearched = true; return 'marked'; })()""" % PROVIDER

WATCH_RELOADS_JS = """(() => { if (global._engramReloads) return 'watching';
  global._engramReloads = [];
  const note = why => global._engramReloads.push(`${why} at ${new Date().toISOString().substring(11, 23)}`);
  imports.gi.Shell.AppSystem.get_default().connect('installed-changed', () => note('installed-changed'));
  const sr = Main.overview._overview.controls._searchController._searchResults;
  if (sr._searchSettings) sr._searchSettings.connect('changed', (s, key) => note(`search setting ${key}`));
  return 'watching'; })()"""

# After a reload: why, and a search with the same terms (what the shell does at the next keystroke); null if the
# provider that searched is still there.
RESEARCH_JS = """(() => { const sr = Main.overview._overview.controls._searchController._searchResults;
  const p = sr._providers.find(p => p.id === '%s');
  if (!p || p._engramSearched || sr._terms.length === 0) return JSON.stringify(null);
  sr._doSearch(); p._engramSearched = true;
  return JSON.stringify((global._engramReloads || []).slice(-3).join(', ') || 'no signal recorded'); })()""" % PROVIDER

class GnomeShell:
    """One headless gnome-shell 43 in a World; see the module's doc."""

    def __init__(self, world):
        self.world, self.env, self.conn, self.shell = world, dict(world.env), None, None
        self.system_socket = os.path.join(world.base, "system_bus")
        self._version = None

    # ------------------------------------------------------------------ start and stop

    def start(self, timeout=60.0):
        """Starts buses, the stand-in systemd and the shell; returns the seconds until the shell was ready."""
        w = self.world
        t0 = time.monotonic()
        try:
            bus = w.start_bus()
        except RuntimeError as error:
            raise Failed(f"the private session bus did not start: {error}; see session-bus.log")
        conf = os.path.join(w.base, "system-bus.conf")
        with open(os.path.join(HERE, "system-bus.conf.in")) as f:
            open(conf, "w").write(f.read().replace("@SOCKET@", self.system_socket))
        w.start(["dbus-daemon", f"--config-file={conf}", "--nofork", "--nopidfile"], "system-bus.log")
        if not eventually(lambda: os.path.exists(self.system_socket), 10):
            raise Failed(f"the private buses did not start (session bus exited: {bus.proc.poll()}); see system-bus.log")
        self.env.update({
            "DBUS_SESSION_BUS_ADDRESS": w.env["DBUS_SESSION_BUS_ADDRESS"],
            "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={self.system_socket}",
            "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME",
        })
        w.env.update({k: self.env[k] for k in ("DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS")})
        self.conn = Gio.DBusConnection.new_for_address_sync(
            self.env["DBUS_SESSION_BUS_ADDRESS"],
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        # As root the shell shows "logged in as a privileged user" in a banner over the search entry.
        self.gsettings("set", "org.gnome.desktop.notifications", "show-banners", "false")
        stand_in = os.path.join(w.base, "fake_systemd.py")  # a copy: inside a root the harness's folder is not there
        shutil.copy(os.path.join(HERE, "fake_systemd.py"), stand_in)
        w.start([shellkit.PYTHON, stand_in], "fake-systemd.log", env=self.env)
        if not eventually(lambda: self.name_has_owner("org.freedesktop.systemd1"), 10):
            raise Failed("the stand-in systemd did not take its name; see fake-systemd.log")
        shim = os.path.join(w.base, "no-ibus-spawn.so")
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", f"-Wl,--version-script={HERE}/no-ibus-spawn.map",
                        "-o", shim, os.path.join(HERE, "no-ibus-spawn.c")], check=True)
        # 43 needs --wayland to run headless; 48 is Wayland only (the flag is gone) and starts XWayland unless told not to.
        wayland = ["--wayland"] if self.version() < 45 else []
        self.shell = w.start(["gnome-shell", "--headless", *wayland, "--no-x11", "--unsafe-mode",
                              "--virtual-monitor", "1280x800", "--wayland-display", "engram-test-wayland"],
                             "gnome-shell.log", env=dict(self.env, LD_PRELOAD=shim))
        ready = eventually(lambda: self.shell.poll() is None and self.eval_quiet(
            "Main.layoutManager._startingUp === false && !!Main.overview._overview") is True, timeout, 0.2)
        if not ready:
            raise Failed(f"gnome-shell was not ready within {timeout:.0f} s (exit status {self.shell.poll()}); "
                         "see gnome-shell.log")
        return time.monotonic() - t0

    def version(self):
        """The major version of the gnome-shell that runs (in the world's root when it has one)."""
        if self._version is None:
            out = self.world.run(["gnome-shell", "--version"], capture_output=True, text=True, timeout=30)
            self._version = int(out.stdout.split()[-1].split(".")[0]) if out.returncode == 0 else 0
        return self._version

    def stop(self):
        """Stops the shell (43 exits with SIGSEGV on SIGTERM; that status means nothing) and the rest, by pid."""
        if self.conn:
            self.conn.close_sync(None)
            self.conn = None
        self.world.stop_all()

    @property
    def alive(self):
        return self.shell is not None and self.shell.poll() is None

    # ------------------------------------------------------------------ the bus

    def call(self, dest, path, iface, method, args, reply, timeout_ms=5000):
        """One D-Bus call on the test session bus; returns the unpacked reply."""
        result = self.conn.call_sync(dest, path, iface, method, args, GLib.VariantType(reply) if reply else None,
                                     Gio.DBusCallFlags.NONE, timeout_ms, None)
        return result.unpack() if result else None

    def name_has_owner(self, name):
        return self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                         GLib.Variant("(s)", (name,)), "(b)")[0]

    def gsettings(self, *args):
        out = self.world.run(["gsettings", *args], env=self.env, capture_output=True, text=True, timeout=20)
        if out.returncode != 0:
            raise Failed(f"gsettings {' '.join(args)}: {out.stderr.strip()}")
        return out.stdout.strip()

    def eval(self, js, timeout_ms=5000):
        """Runs JavaScript in the shell; returns its value (JSON-decoded), or raises Failed with the shell's error."""
        ok, value = self.call("org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "Eval",
                              GLib.Variant("(s)", (js,)), "(bs)", timeout_ms)
        if not ok:
            raise Failed(f"the shell could not evaluate {js[:60]!r}: {value}")
        try:
            decoded = json.loads(value) if value else None  # JSON.stringify(undefined) is empty
            return json.loads(decoded) if isinstance(decoded, str) and decoded[:1] in ("[", "{") else decoded
        except ValueError as error:
            raise Failed(f"the shell answered {value[:200]!r} to {js[:60]!r}: {error}")

    def eval_quiet(self, js):
        try:
            return self.eval(js, 2000)
        except Exception:
            return None

    # ------------------------------------------------------------------ the overview

    def show_overview(self):
        self.eval("Main.overview.show(); 'shown'")
        if not eventually(lambda: self.eval("Main.overview.visible && !Main.overview.animationInProgress"), 10):
            raise Failed("the overview did not open")

    def hide_overview(self):
        self.eval("Main.overview.hide(); 'hidden'")
        eventually(lambda: self.eval("!Main.overview.visible && !Main.overview.animationInProgress"), 10)

    def entry_text(self):
        return self.eval("Main.overview.searchEntry.get_text()")

    def clear_entry(self):
        self.eval("Main.overview.searchEntry.set_text(''); 'cleared'")
        eventually(lambda: self.entry_text() == "", 5)

    def type(self, text, pause=0.0):
        """Types text with the virtual keyboard ("\\b" is Backspace), one key at a time when pause > 0."""
        keys = list(text)
        if pause <= 0:
            self.eval(TYPE_JS % json.dumps(keys))
            return
        for key in keys:
            self.eval(TYPE_JS % json.dumps([key]))
            time.sleep(pause)

    def wait_for_entry(self, text, timeout=10):
        if eventually(lambda: self.entry_text() == text, timeout) is not True and self.entry_text() != text:
            raise Failed(f"the search entry shows {self.entry_text()!r}, not the typed {text!r}")

    def wait_for_search(self, text, timeout=10):
        """Waits until the shell has searched for text (its 150 ms typing delay over, the terms its own); marks the
        provider object that searched, so that a reload of the providers after it can be told (`reloaded`)."""
        js = ("(() => { const sr = Main.overview._overview.controls._searchController._searchResults;"
              " return sr._terms.join(' ') + (sr._searchTimeoutId ? ' (pending)' : ''); })()")
        want = " ".join(text.split())
        if not eventually(lambda: self.eval(js) == want, timeout):
            raise Failed(f"the shell searched for {self.eval(js)!r}, not the typed {want!r}")
        self.eval(MARK_PROVIDER_JS)

    def watch_reloads(self):
        """Records why the shell reloads its remote search providers (the signals that make it: an app installed or
        removed, the search-providers settings), with the time, in global._engramReloads."""
        self.eval(WATCH_RELOADS_JS)

    def settle(self, timeout=10.0):
        """Waits for the reload a starting shell makes of its own: its app cache's first refresh ends in
        installed-changed a few seconds after the shell is ready (seen 4–7 s in both 43 and 48, with nothing
        installed and no search made), and that reload drops whatever search is on screen. Returns the seconds
        waited and whether it came; a shell that makes none is waited for timeout seconds."""
        began = time.monotonic()
        came = eventually(lambda: any(r.startswith("installed-changed") for r in self.reload_reasons()), timeout, 0.2)
        return time.monotonic() - began, came is True

    def reload_reasons(self):
        """Why and when the shell reloaded its providers so far (after `watch_reloads`), oldest first."""
        return self.eval_quiet("JSON.stringify(global._engramReloads || [])") or []

    def reload_count(self):
        return len(self.reload_reasons())

    def provider_replaced(self):
        """True when the shell replaced Engram's provider object since the last search (a reload)."""
        return self.eval(f"""(() => {{ const sr = Main.overview._overview.controls._searchController._searchResults;
          const p = sr._providers.find(p => p.id === '{PROVIDER}'); return !p || !p._engramSearched ? 'yes' : 'no'; }})()""") == "yes"

    def reloaded(self):
        """If the shell replaced Engram's provider (and its section, hidden) since the last search, searches again
        as the next keystroke would and returns why it reloaded; else None. GNOME Shell reloads every remote
        provider when an app is installed or a search setting changes (search.js `_reloadRemoteProviders`), and
        does not search again until the text changes: a person would see every remote section vanish."""
        return self.eval(RESEARCH_JS)

    def sections(self):
        """Every remote provider's drawn section: {provider: {visible, rows}}."""
        return {s["provider"]: s for s in self.eval(ROWS_JS)}

    def engram_rows(self):
        """Engram's drawn rows ([] when its section is hidden), or None when Engram is not a provider at all."""
        section = self.sections().get(PROVIDER)
        if section is None:
            return None
        return section["rows"] if section["visible"] else []

    def labels(self):
        return self.eval(LABELS_JS)

    def providers(self):
        return self.eval("JSON.stringify(Main.overview._overview.controls._searchController._searchResults"
                         "._providers.map(p => p.id))")

    def wait_for_rows(self, want, timeout=10):
        """Polls Engram's rows until want(rows) holds; returns the rows, or raises Failed with the last seen."""
        seen = []

        def probe():
            nonlocal seen
            seen = self.engram_rows()
            return seen is not None and want(seen)
        if not eventually(probe, timeout, 0.1):
            why = self.reloaded()
            if why is None or not eventually(probe, timeout, 0.1):
                raise Failed(f"Engram's rows never came right; last drawn: {describe(seen)}"
                             + (f" (the shell reloaded its providers after the search: {why}, and searched again)" if why else ""))
            print(f"note: gnome-shell reloaded its search providers after the search ({why}); searched again, as the "
                  f"next keystroke would, and Engram's rows came", flush=True)
        return seen

    def activate_row(self, index):
        """Clicks the row (its activate(), what a click or Enter does)."""
        return self.eval(f"""(() => {{
          const sr = Main.overview._overview.controls._searchController._searchResults;
          const p = sr._providers.find(p => p.id === '{PROVIDER}');
          const rows = p.display._content.get_children().filter(a => a.visible && a.metaInfo);
          rows[{index}].activate(); return rows[{index}].metaInfo.id; }})()""")

    def click_provider_icon(self):
        """Clicks Engram's icon at the left of its section (the shell then calls LaunchSearch)."""
        return self.eval(f"""(() => {{
          const sr = Main.overview._overview.controls._searchController._searchResults;
          const p = sr._providers.find(p => p.id === '{PROVIDER}');
          p.display.providerInfo.emit('clicked', 1); return 'clicked'; }})()""")

    def clipboard(self):
        """The clipboard's text (read asynchronously in the shell, then fetched)."""
        self.eval("global._engramClip = undefined; imports.gi.St.Clipboard.get_default().get_text("
                  "imports.gi.St.ClipboardType.CLIPBOARD, (c, t) => { global._engramClip = t === null ? '' : t; }); 'asked'")
        got = eventually(lambda: self.eval("global._engramClip === undefined ? null : "
                                           "JSON.stringify({t: global._engramClip})"), 5)
        return got["t"] if got else None

    def screenshot(self, path):
        """org.gnome.Shell.Screenshot.Screenshot into path; True when the file was written."""
        # The shell writes it where it runs: in the world's folder (inside its root, if any), then moved to path.
        there = os.path.join(self.world.base, "screenshot.png")
        try:
            ok, written = self.call("org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot",
                                    "org.gnome.Shell.Screenshot", "Screenshot",
                                    GLib.Variant("(bbs)", (False, False, there)), "(bs)", 10000)
            if not (ok and os.path.exists(self.world.host_path(written))):
                return False
            shutil.move(self.world.host_path(written), path)
            return True
        except GLib.Error:
            return False


def check_while_alive(report, shell, checks, evidence):
    """Runs each (name, check) in order, keeping evidence of a failure; stops, as a failure, once gnome-shell exited."""
    for name, fn in checks:
        report.check(name, fn, evidence)
        if not shell.alive:
            report.record(False, "the shell keeps running", "gnome-shell exited; see gnome-shell.log")
            break


def describe(rows):
    """Rows in one line, for failure messages."""
    if rows is None:
        return "no Engram section at all"
    if not rows:
        return "Engram's section hidden"
    return "; ".join(f"{r['id']} “{r['name']}”" for r in rows)
