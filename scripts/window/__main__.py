"""Engram's window as a person uses it: engram-app in a real compositor (mutter, on a virtual X display), driven by
the keyboard (xdotool) and by its accessibility tree (AT-SPI through pyatspi, as a screen reader reads it), against
the sample collection, with the daemon on a private session bus.

    env PYTHONPATH=scripts /usr/bin/python3 -m window .build/debug/engram .build/debug/engram-app [OUT]

Checks: typing a query lists the rows every surface ranks first; arrows and Enter open a memory (strengthened);
pin, tag and untag, edit in place (found by search after), forget after confirming (gone everywhere); start and
pause a session; follow a link and a connection; hostile text shown as written and nothing run; a capture from the
CLI shows at once (no polling); GNOME Shell's ActivateResult and LaunchSearch (as gdbus sends them) open the window
on the memory and the search; a flood of them with no window open starts one window; the window survives the
daemon stopping and coming back. A failure keeps a screenshot and the tree in OUT.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

from engramtest import ROOT
from engramtest.bus import NAME, PROVIDER_IFACE, PROVIDER_PATH, SessionBus, wait_for_name, wait_for_no_name
from engramtest.daemon import Daemon
from engramtest.engram import Engram
from engramtest.report import Failed, Report, eventually, expect
from engramtest.system import free_display
from engramtest.world import World
from voice.fakeaudio import FakeAudio

APP_NAME = "org.engram.Engram.App"
HOSTILE = ('<b>bold</b> &amp; <span foreground="red">red</span> ${exec touch PWNED} %{F#f00}x%{F-} '
           '\u202eRTL override\u202c [gone](engram://memory/nope404)')


class Window:
    """The accessibility tree of the running engram-app, and the keyboard."""

    def __init__(self, suite):
        self.suite = suite
        import pyatspi  # after the suite's bus and display are in os.environ
        self.at = pyatspi

    def app(self):
        for a in self.at.Registry.getDesktop(0):
            if a is not None and a.name == "engram-app":
                # Read the tree live: libatspi's cache follows the app's change events, which this harness (with no
                # main loop running) never receives, so a cached tree keeps pages that are long gone.
                from gi.repository import Atspi
                a.set_cache_mask(Atspi.Cache.NONE)
                a.clear_cache()
                return a
        return None

    def frames(self):
        app = self.app()
        return [] if app is None else [c for c in app if c is not None and c.getRoleName() == "frame"]

    def walk(self, root=None):
        root = root or self.app()
        if root is None:
            return
        stack = [root]
        while stack:
            a = stack.pop()
            if a is None:
                continue
            yield a
            try:
                stack.extend(reversed([c for c in a]))
            except Exception:
                continue

    def find(self, role, name=None, contains=None, timeout=15.0, root=None):
        """The first node with this role and name (or a name containing `contains`), waiting for it to appear."""
        def look():
            for a in self.walk(root):
                try:
                    if a.getRoleName() != role:
                        continue
                    if name is not None and a.name != name:
                        continue
                    if contains is not None and contains not in a.name:
                        continue
                    return a
                except Exception:
                    continue
            return None
        found = eventually(look, timeout=timeout)
        if not found:
            raise Failed(f"no {role} named {name or contains!r} in the window")
        return found

    def all(self, role, root=None):
        out = []
        for a in self.walk(root):
            try:
                if a.getRoleName() == role:
                    out.append(a)
            except Exception:
                continue
        return out

    def text(self, node):
        t = node.queryText()
        return t.getText(0, t.characterCount)

    def page(self, wait=5.0):
        """The open memory's text as drawn, or "" while no memory page is there: a check waits for the page with
        `eventually` and its own, longer, timeout (a window started cold, or a 100 KB note laid out, on a loaded
        machine answers the accessibility tree only after several seconds)."""
        try:
            return self.text(self.find("label", "Memory text", timeout=wait))
        except Failed:
            return ""

    def click(self, role, name=None, contains=None):
        node = self.find(role, name=name, contains=contains)
        node.queryAction().doAction(0)
        return node

    def rows(self, list_name="Results"):
        lst = self.find("list", list_name)
        return [c.name for c in lst if c is not None and c.getRoleName() == "list item"]

    def set_text(self, role, name, text):
        """Types into an entry or text view as an assistive technology does (AT-SPI EditableText)."""
        node = self.find(role, name)
        expect(node.queryEditableText().setTextContents(text), f"{name} did not take the text")
        return node

    def activate(self, node):
        """The node's own action (an entry's activate: Enter)."""
        action = node.queryAction()
        names = [action.getName(i) for i in range(action.nActions)]
        action.doAction(names.index("activate") if "activate" in names else 0)

    def keys(self, *keys):
        subprocess.run(["xdotool", "key", "--clearmodifiers", "--delay", "40", *keys], env=self.suite.xenv, check=True)

    def type(self, text):
        subprocess.run(["xdotool", "type", "--delay", "15", "--", text], env=self.suite.xenv, check=True)


class Suite:
    def __init__(self, engram_bin, app_bin, out):
        self.out = os.path.abspath(out)
        os.makedirs(self.out, exist_ok=True)
        # Each window this run starts appends its output to app.log; one left by an earlier run would be read as this
        # run's (a GTK critical from the day before failed the check on every later run in a kept bench-out/).
        if os.path.exists(os.path.join(self.out, "app.log")):
            os.remove(os.path.join(self.out, "app.log"))
        self.engram_bin, self.app_bin = os.path.abspath(engram_bin), os.path.abspath(app_bin)
        self.world = World("engram-window", drop=("DBUS_", "WAYLAND_", "DISPLAY", "XAUTHORITY", "AT_SPI"))
        self.world.env.update(ENGRAM_MODEL_DIR="none", NO_COLOR="1")
        self.shared = self.world.path("sync-folder")
        os.makedirs(self.shared, mode=0o700)
        self.world.write_config(f'[desktop]\nopen = "app"\n\n[sync]\nfolder = "{self.shared}"\n')
        self.engram = Engram(self.engram_bin, self.world.env)
        self.report = Report("window", self.out)
        self.procs = []
        self.app = None
        self.daemon = None

    # ---- the desktop

    def start(self):
        samples = self.world.samples()
        self.engram("import", os.path.join(samples, "memories.jsonl"), check=True)
        for c in ("swift-concurrency.toml", "spanish-b1.yaml"):
            self.engram("import", os.path.join(samples, "curricula", c), check=True)
        # A headless audio server whose microphone the microphone check feeds (scripts/voice/fakeaudio.py).
        self.audio = FakeAudio(self.world.path("pulse"), self.world.env)
        self.world.env.update(PULSE_SERVER=self.audio.env["PULSE_SERVER"],
                              ENGRAM_SPEECH_DIR=os.environ.get("ENGRAM_SPEECH_DIR", os.path.join(ROOT, ".build", "speech")))
        self.world.write_config(f'[desktop]\nopen = "app"\n\n[sync]\nfolder = "{self.shared}"\n\n[voice]\ntts = "none"\n')
        self.bus = SessionBus(self.world.path("bus"), env=self.world.env)
        address = self.bus.start()
        self.world.env["DBUS_SESSION_BUS_ADDRESS"] = address
        n = free_display(90, 140)
        self.display = f":{n}"
        self.procs.append(subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1280x900x24", "-nolisten", "tcp", "-noreset"],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        expect(eventually(lambda: os.path.exists(f"/tmp/.X11-unix/X{n}"), timeout=20), "Xvfb did not start")
        self.xenv = dict(self.world.env, DISPLAY=self.display, GDK_BACKEND="x11")
        log = open(os.path.join(self.out, "mutter.log"), "w")
        self.procs.append(subprocess.Popen(["mutter", "--x11", "--replace", "--sm-disable"], env=self.xenv,
                                           stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        time.sleep(1.5)
        # pyatspi finds the accessibility bus through this session bus (and the display's root window).
        os.environ.update(DBUS_SESSION_BUS_ADDRESS=address, DISPLAY=self.display)
        for var in ("AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY"):
            os.environ.pop(var, None)
        self.start_daemon()
        self.w = Window(self)

    def start_daemon(self):
        # As in a desktop session, the daemon has the display in its environment (systemd's and D-Bus's activation
        # environment), so a window it starts can show.
        self.daemon = Daemon(self.engram_bin, self.xenv, os.path.join(self.out, "daemon.log"))
        expect(self.daemon.start(self.world.env["DBUS_SESSION_BUS_ADDRESS"]), "the daemon did not take its name")

    def launch(self, *args):
        log = open(os.path.join(self.out, "app.log"), "a")
        p = subprocess.Popen([self.app_bin, *args], env=self.xenv, stdout=log, stderr=subprocess.STDOUT)
        self.procs.append(p)
        return p

    def stop(self):
        if self.daemon:
            self.daemon.stop()
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM) if p.pid == os.getpgid(p.pid) else p.terminate()
                except (ProcessLookupError, PermissionError):
                    pass
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
        self.bus.stop()
        if getattr(self, "audio", None):
            self.audio.stop()

    def evidence(self, name):
        safe = "".join(c if c.isalnum() else "-" for c in name)
        subprocess.run(["import", "-window", "root", os.path.join(self.out, f"{safe}.png")], env=self.xenv)
        with open(os.path.join(self.out, f"{safe}.tree.txt"), "w") as f:
            for a in self.w.walk():
                try:
                    f.write(f"{a.getRoleName()} {a.name!r}\n")
                except Exception:
                    pass

    def show(self, memory_id):
        return json.loads(self.engram("show", "--json", "--peek", memory_id, check=True).stdout)

    def search_ids(self, query):
        r = self.engram("search", "--json", query)
        return [h["id"] for h in json.loads(r.stdout)["results"]] if r.returncode == 0 else []

    def app_processes(self):
        """The engram-app processes running this build (however they were started: by the suite or the daemon)."""
        real = os.path.realpath(self.app_bin)
        out = []
        for pid in subprocess.run(["pgrep", "engram-app"], capture_output=True, text=True).stdout.split():
            try:
                if os.path.realpath(f"/proc/{pid}/exe") == real:
                    out.append(int(pid))
            except OSError:
                continue
        return out

    # ---- the checks

    def typing_lists_what_every_surface_ranks(self):
        self.app = self.launch()
        self.w.find("frame", "Engram", timeout=30)
        self.w.keys("ctrl+f")
        self.w.type("sourdough")
        cli = json.loads(self.engram("search", "--json", "--limit", "50", "sourdough", check=True).stdout)["results"]
        titles = [h["title"] for h in cli]
        expect(eventually(lambda: self.w.rows()[:3] == titles[:3], timeout=15),
               f"the window lists {self.w.rows()[:3]}, engram search {titles[:3]}")
        return f"{len(self.w.rows())} rows; the first three as engram search ranks them"

    def arrows_and_enter_open_a_memory(self):
        cli = json.loads(self.engram("search", "--json", "sourdough", check=True).stdout)["results"]
        second = cli[1]["id"]
        before = self.show(second)["useCount"]
        self.w.keys("ctrl+f", "Down", "Return")
        content = self.show(second)["content"]
        expect(eventually(lambda: self.w.page() == content, timeout=45),
               f"the page shows {self.w.page()[:80]!r}, not {second}")
        expect(eventually(lambda: self.show(second)["useCount"] == before + 1), "opening the page did not strengthen it")
        self.memory = second
        return f"{second} opened with the second row and strengthened ({before} → {before + 1} uses)"

    def pin_tag_untag(self):
        m = self.memory
        was = self.show(m)["pinned"]
        self.w.click("push button", "Unpin" if was else "Pin")
        expect(eventually(lambda: self.show(m)["pinned"] != was), "the Pin button did not change the store")
        self.w.find("push button", "Pin" if was else "Unpin")
        self.w.set_text("text", "Add a tag", "windowtest")
        self.w.click("push button", "Add tag")
        expect(eventually(lambda: "windowtest" in self.show(m)["tags"]), "the tag was not added")
        self.w.click("push button", contains="Remove tag windowtest")
        expect(eventually(lambda: "windowtest" not in self.show(m)["tags"]), "the tag was not removed")
        return f"pinned {not was}, tag added and removed in the store"

    def edit_in_place_then_find_it(self):
        m = self.memory
        self.w.click("push button", "Edit")
        self.w.set_text("text", "Edit memory text", "Edited in the window: zanzibar quokka")
        self.w.click("push button", "Save edit")
        expect(eventually(lambda: self.show(m)["content"] == "Edited in the window: zanzibar quokka"), "the edit was not saved")
        expect(eventually(lambda: m in self.search_ids("quokka"), timeout=20), "engram search does not find the edit")
        expect(eventually(lambda: self.w.page() == "Edited in the window: zanzibar quokka", timeout=45),
               "the page does not show the edit")
        return "saved through the store; engram search finds “quokka”"

    def forget_after_confirming(self):
        m = self.memory
        self.w.click("push button", "Forget")
        dialog = self.w.find("dialog", "Forget this memory?", timeout=10)
        self.w.find("push button", contains="Keep", root=dialog).queryAction().doAction(0)
        time.sleep(0.5)
        expect(self.engram("show", "--json", "--peek", m).returncode == 0, "Keep forgot the memory")
        self.w.click("push button", "Forget")
        dialog = self.w.find("dialog", "Forget this memory?", timeout=10)
        self.w.find("push button", contains="Forget", root=dialog).queryAction().doAction(0)
        expect(eventually(lambda: self.engram("show", "--json", "--peek", m).returncode != 0), "the memory is still in the store")
        expect(eventually(lambda: self.search_ids("quokka") == []), "engram search still finds it")
        return "Keep kept it; Forget erased it from the store and the index"

    def start_and_pause_a_session(self):
        self.w.click("page tab", "Learning")
        self.w.click("push button", "Start studying Swift Concurrency")
        status = lambda: json.loads(self.engram("session", "status", "--json", check=True).stdout)
        expect(eventually(lambda: (status() or {}).get("state") == "running"), f"no running session: {status()}")
        self.w.find("label", contains="Session: Swift Concurrency")
        self.w.click("push button", "Pause")
        expect(eventually(lambda: (status() or {}).get("state") == "paused"), f"not paused: {status()}")
        expect(eventually(lambda: bool(self.w.find("label", "Paused"))), "the window does not say Paused")
        self.engram("session", "stop", check=True)
        return "started from the curriculum's row, paused from the window; the store agrees"

    def follow_a_link_and_a_connection(self):
        self.launch("engram://memory/s227")
        # The page draws Markdown: compare the first line as drawn (no backticks or asterisks).
        first_line = lambda m: self.show(m)["content"].split("\n")[0].replace("`", "").replace("**", "")
        page = self.w.page
        expect(eventually(lambda: page().startswith(first_line("s227")), timeout=45), f"s227 did not open: {page()[:80]!r}")
        target = self.show("s231")
        self.w.click("push button", contains="Open " + target["title"][:40])
        expect(eventually(lambda: page().startswith(first_line("s231")), timeout=45), f"following the link did not open s231: {page()[:80]!r}")
        self.w.click("push button", "Show connections")
        node = self.w.find("push button", contains="Open " + self.show("s227")["title"][:40])
        node.queryAction().doAction(0)
        expect(eventually(lambda: page().startswith(first_line("s227")), timeout=45), f"the connection did not open s227: {page()[:80]!r}")
        return "s227 → its link s231 → the graph → back to s227"

    def hostile_text_is_shown_as_written(self):
        r = self.engram("remember", "--json", HOSTILE, check=True)
        mid = json.loads(r.stdout)["id"]
        self.launch(f"engram://memory/{mid}")
        label = self.w.page
        expect(eventually(lambda: "<b>bold</b>" in label(), timeout=20), f"the page shows {label()!r}")
        shown = label()
        for piece in ('<span foreground="red">red</span>', "${exec touch PWNED}", "%{F#f00}x%{F-}", "&amp;", "\u202eRTL override"):
            expect(piece in shown, f"{piece!r} is not shown as written: {shown!r}")
        expect(not os.path.exists(os.path.join(self.world.base, "PWNED")) and not os.path.exists("PWNED"), "something ran")
        big = "x" * 50 + " " + ("long line of a long note " * 4200)
        big_id = json.loads(self.engram("remember", "--json", big, check=True).stdout)["id"]
        self.launch(f"engram://memory/{big_id}")
        expect(eventually(lambda: len(label(wait=5)) > 100_000, timeout=90),
               f"a 100 KB note is not shown whole: the page shows {len(label(wait=5))} characters")
        expect(len(self.w.frames()) == 1, f"{len(self.w.frames())} windows")
        return "markup, ${exec}, %{…}, RTL shown literally; a 100 KB note drawn; one window"

    def changes_elsewhere_show_at_once(self):
        # A session paused elsewhere (the notification's button, another machine, the CLI) shows as paused.
        self.engram("session", "start", "--curriculum", "spanish-b1", check=True)
        self.w.click("page tab", "Learning")
        self.w.find("label", contains="Session: Spanish to B1", timeout=15)
        self.engram("session", "pause", check=True)
        expect(eventually(lambda: self.w.find("label", "Paused", timeout=1) is not None, timeout=15),
               "a pause from the CLI did not show in the window")
        self.engram("session", "stop", check=True)
        expect(eventually(lambda: self.w.find("label", "No session running", timeout=1) is not None, timeout=15),
               "a stop from the CLI did not show in the window")
        # A memory forgotten elsewhere while its page is open: the page closes and says so.
        mid = json.loads(self.engram("remember", "--json", "Forget me from the command line", check=True).stdout)["id"]
        self.launch(f"engram://memory/{mid}")
        page = self.w.page
        expect(eventually(lambda: page() == "Forget me from the command line", timeout=45), "the memory did not open")
        self.engram("forget", "--yes", mid, check=True)
        expect(eventually(lambda: [f.name for f in self.w.frames()] == ["Engram"], timeout=15),
               f"the forgotten memory's page stayed open: {[f.name for f in self.w.frames()]}")
        return "a CLI pause and stop showed in Learning; a CLI forget closed the memory's page"

    def a_narrow_window_moves_the_switcher_down(self):
        ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Engram"], env=self.xenv,
                             capture_output=True, text=True).stdout.split()
        expect(ids, "no window to resize")
        bars = lambda: [a for a in self.w.all("page tab list")]
        subprocess.run(["xdotool", "windowsize", ids[-1], "360", "640"], env=self.xenv, check=True)
        # The header's switcher gives way to the bar at the bottom: its tabs are then the ones on screen.
        def bottom_bar_shown():
            for tabs in bars():
                try:
                    ext = tabs.queryComponent().getExtents(self.w.at.WINDOW_COORDS)
                    if ext.y > 400 and ext.height > 0:
                        return True
                except Exception:
                    continue
            return False
        expect(eventually(bottom_bar_shown, timeout=10), "at 360 px wide the view switcher did not move to the bottom")
        subprocess.run(["xdotool", "windowsize", ids[-1], "900", "700"], env=self.xenv, check=True)
        return "360 px wide: the view switcher moves to a bar at the bottom"

    def another_machines_memory_is_offered(self):
        # A second device (its own data and config folders) shares the sync folder and opens a memory there.
        other = World("engram-window-laptop", drop=("DBUS_", "WAYLAND_", "DISPLAY"))
        other.env.update(ENGRAM_MODEL_DIR="none")
        other.write_config(f'[sync]\nfolder = "{self.shared}"\n')
        laptop = Engram(self.engram_bin, other.env)
        try:
            self.engram("sync", "now", check=True)
            laptop("import", os.path.join(self.world.samples(), "memories.jsonl"), check=True)
            laptop("sync", "now", check=True)
            laptop("show", "s050", check=True)
            self.engram("remember", "a change, so the window reads its offers again", check=True)
            banner = lambda: next((a for a in self.w.all("label") if a.name.startswith("Continue from")), None)
            expect(eventually(lambda: banner() is not None, timeout=20), "no handoff banner")
            title = self.show("s050")["title"]
            expect(title[:30] in banner().name, f"the banner offers {banner().name!r}, not s050")
            self.w.click("push button", "Continue here")
            page = self.w.page
            want = self.show("s050")["content"].split("\n")[0].replace("`", "")
            expect(eventually(lambda: page().startswith(want), timeout=45), f"Continue opened {page()[:60]!r}, not s050")
            return f"“{banner().name[:70]}”; Continue opened s050"
        finally:
            other.close()

    def todays_review_marks_reviewed(self):
        due = json.loads(self.engram("ask", "--json", "--intent", "DailyReview", check=True).stdout)["result"]["items"]
        expect(due, "the sample collection has nothing due for review")
        first = due[0]
        before = self.show(first["id"])["useCount"]
        self.w.click("page tab", "Review")
        self.w.click("push button", contains="Mark reviewed: " + first["title"][:40])
        expect(eventually(lambda: self.show(first["id"])["useCount"] == before + 1), "marking it reviewed did not strengthen it")
        expect(eventually(lambda: not any(b.name.startswith("Mark reviewed: " + first["title"][:40]) for b in self.w.all("push button"))),
               "the reviewed memory is still listed as due")
        return f"{len(due)} due; the weakest marked reviewed from the window, strengthened and off the list"

    def a_capture_elsewhere_shows_at_once(self):
        self.w.click("page tab", "Search")
        self.w.keys("Escape")
        self.w.set_text("entry", "Search memories", "axolotlwindow")
        expect(eventually(lambda: self.w.find("panel", "No results", timeout=2) is not None, timeout=15), "no empty state")
        self.engram("remember", "Saw an axolotlwindow at the aquarium", check=True)
        expect(eventually(lambda: any("axolotlwindow" in r for r in self.w.rows()), timeout=15),
               "the capture from the CLI did not show in the open window")
        return "the row appeared without typing (the daemon's PropertiesChanged)"

    def gdbus(self, method, *args):
        return subprocess.Popen(["gdbus", "call", "--address", self.world.env["DBUS_SESSION_BUS_ADDRESS"], "--dest", NAME,
                                 "--object-path", PROVIDER_PATH, "--method", f"{PROVIDER_IFACE}.{method}", *args],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def a_gnome_click_opens_the_window_on_it(self):
        # As GNOME Shell activates a result: the open window is asked (org.freedesktop.Application.Open) to show it.
        want = self.show("s012")["content"].split("\n")[0].replace("`", "")
        expect(self.gdbus("ActivateResult", "engram://memory/s012", "['s012']", "4242").wait(30) == 0, "ActivateResult failed")
        page = self.w.page
        expect(eventually(lambda: page().startswith(want), timeout=45), f"the window shows {page()[:60]!r}, not s012")
        # As KRunner runs a match: the window opens on it too.
        want_k = self.show("s013")["content"].split("\n")[0].replace("`", "")
        krunner = subprocess.run(["gdbus", "call", "--address", self.world.env["DBUS_SESSION_BUS_ADDRESS"], "--dest", NAME,
                                  "--object-path", "/runner", "--method", "org.kde.krunner1.Run", "engram://memory/s013", ""],
                                 capture_output=True, text=True, timeout=30)
        expect(krunner.returncode == 0, f"KRunner's Run failed: {krunner.stderr}")
        expect(eventually(lambda: page().startswith(want_k), timeout=45), f"after Run the window shows {page()[:60]!r}, not s013")
        self.gdbus("LaunchSearch", "['sourdough', 'starter']", "4243").wait(30)
        entry = lambda: self.w.text(self.w.find("entry", "Search memories"))
        expect(eventually(lambda: entry() == "sourdough starter", timeout=20), f"LaunchSearch left the entry at {entry()!r}")
        return "ActivateResult opened s012, KRunner's Run s013, in the open window; LaunchSearch put the terms in its search"

    def a_flood_of_clicks_starts_one_window(self):
        for pid in self.app_processes():
            os.kill(pid, signal.SIGTERM)
        expect(eventually(lambda: not self.app_processes(), timeout=20), "the window did not close")
        calls = [self.gdbus("ActivateResult", "engram://memory/s00%d" % (i % 9 + 1), "[]", str(1000 + i)) for i in range(30)]
        calls += [self.gdbus("LaunchSearch", "['sourdough']", str(2000 + i)) for i in range(10)]
        for c in calls:
            c.wait(60)
        time.sleep(3)
        expect(eventually(lambda: len(self.app_processes()) == 1, timeout=20), f"{len(self.app_processes())} engram-app processes")
        expect(eventually(lambda: len(self.w.frames()) == 1, timeout=20), f"{len(self.w.frames())} windows")
        page = self.w.page
        entry = lambda: self.w.text(self.w.find("entry", "Search memories"))
        expect(eventually(lambda: entry() == "sourdough" or page() != "", timeout=45), "the window shows none of the clicks")
        return "30 ActivateResult and 10 LaunchSearch with no window open: the daemon started one engram-app, one window"

    def the_microphone_listens_and_acts(self):
        self.engram("session", "stop")
        self.engram("session", "start", "--curriculum", "swift-concurrency", check=True)
        clip = self.world.path("pause.wav")
        listing = self.world.path("clip.json")
        json.dump([["pause my session", clip, 1.0]], open(listing, "w"))
        peers = os.environ.get("ENGRAM_VOICE_PEERS", "/var/cache/engram-tests/voice")
        subprocess.run([os.path.join(peers, "bin", "python"), os.path.join(ROOT, "scripts", "voice", "speak.py"), listing], check=True)
        def button(name):
            try:
                return self.w.find("push button", name, timeout=1)
            except Failed:
                return None
        self.w.click("push button", "Listen")
        expect(eventually(lambda: button("Stop listening"), timeout=10), "the microphone button does not show that it listens")
        expect(self.audio.wait_for_recorder(), "engram listen, started by the button, never recorded from the microphone")
        self.audio.say(clip)
        status = lambda: (json.loads(self.engram("session", "status", "--json", check=True).stdout or "null") or {}).get("state")
        expect(eventually(lambda: status() == "paused", timeout=30), f"“pause my session” said to the window left the session {status()}")
        expect(eventually(lambda: button("Listen"), timeout=15), "the microphone button stayed lit")
        self.engram("session", "stop")
        return "the button lit while it listened; “pause my session” paused the session; the button went out"

    def survives_the_daemon_going_and_coming(self):
        self.daemon.stop()
        wait_for_no_name(self.world.env["DBUS_SESSION_BUS_ADDRESS"], NAME)
        time.sleep(1)
        expect(len(self.w.frames()) == 1, "the window went away with the daemon")
        self.w.click("page tab", "Search")
        self.w.set_text("entry", "Search memories", "meditations")
        expect(eventually(lambda: len(self.w.rows()) > 0, timeout=15), "searching without the daemon shows nothing")
        self.start_daemon()
        self.w.set_text("entry", "Search memories", "flamingowindow")
        self.engram("remember", "A flamingowindow stands on one leg", check=True)
        expect(eventually(lambda: any("flamingowindow" in r for r in self.w.rows()), timeout=20),
               "after the daemon came back, a capture did not show")
        return "searched with the daemon gone; live again when it came back"

    def no_gtk_complaints(self):
        """Everything the windows the suite started printed: a GTK or GLib critical or warning is a bug in the window."""
        with open(os.path.join(self.out, "app.log"), errors="replace") as f:
            bad = [line.strip() for line in f if "-CRITICAL **" in line or "-WARNING **" in line
                   and "Screen coordinates not supported" not in line]
        expect(not bad, f"{len(bad)} complaint(s), the first: {bad[0] if bad else ''}")
        return "app.log holds no Gtk/GLib critical or warning"

    def run(self):
        try:
            self.start()
        except Exception as error:
            self.report.record(False, "start", f"{type(error).__name__}: {error}")
            self.report.write()
            return 1
        checks = [self.typing_lists_what_every_surface_ranks, self.arrows_and_enter_open_a_memory, self.pin_tag_untag,
                  self.edit_in_place_then_find_it, self.forget_after_confirming, self.start_and_pause_a_session,
                  self.follow_a_link_and_a_connection, self.hostile_text_is_shown_as_written,
                  self.todays_review_marks_reviewed, self.a_capture_elsewhere_shows_at_once,
                  self.changes_elsewhere_show_at_once, self.a_narrow_window_moves_the_switcher_down,
                  self.another_machines_memory_is_offered, self.a_gnome_click_opens_the_window_on_it,
                  self.a_flood_of_clicks_starts_one_window, self.the_microphone_listens_and_acts,
                  self.survives_the_daemon_going_and_coming]
        try:
            for check in checks:
                self.report.check(check.__name__.replace("_", " "), check, on_fail=self.evidence)
            self.report.check("GTK reported no critical or warning", self.no_gtk_complaints)
        finally:
            self.stop()
            self.report.write()
            if not self.report.failures:
                self.world.close()
        return 1 if self.report.failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python3 -m window ENGRAM ENGRAM_APP [OUT]")
    out = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "bench-out", "window")
    sys.exit(Suite(sys.argv[1], sys.argv[2], out).run())
