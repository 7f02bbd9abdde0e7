"""Engram inside the real GNOME Shell 43: what a person sees in the overview, checked where they see it.

    PYTHONPATH=scripts /usr/bin/python3 -m shells.gnome.test_gnome_shell [--screenshots] [--root ROOT --deb DEB]

With --root, the same checks run on the gnome-shell of a Debian 13 root (48; scripts/trixie/root.sh), with Engram
installed there from its Debian package (make deb); results then go to bench-out/shells/gnome-48/.

Installs the built engram into a temporary prefix with scripts/install.sh, imports the sample collection, starts a
headless gnome-shell (gnome_shell.py) and types into its overview with a virtual keyboard. Every check reads back
what the shell drew (its rows, labels, clipboard) and what the daemon did (the window it opened, the store).
Results, the shell's log and a screenshot of each failure go to bench-out/shells/gnome/; with --screenshots the
overview screenshot is also copied to Integrations/gnome-shell/screenshot.png. Exit status 1 if any check failed.
"""

import os
import shutil
import subprocess
import sys
import time

from gi.repository import GLib

from shells import shellkit
from shells.gnome.gnome_shell import GnomeShell, PROVIDER, check_while_alive, describe
from shells.shellkit import Failed, expect, eventually

OUT = os.path.join(shellkit.ROOT, "bench-out", "shells", "gnome")
ICONS = {"note": "text-x-generic", "idea": "dialog-information", "task": "task-due",
         "quote": "format-text-italic", "learning": "accessories-dictionary"}
HOSTILE = "Pango test <b>not bold</b> & <i>x</i> &amp; ${exec touch /tmp/engram-pwned} zebraquill"


class Suite:
    def __init__(self, update_screenshots, root=None):
        global OUT
        if root:
            OUT = os.path.join(shellkit.ROOT, "bench-out", "shells", "gnome-48")
        shutil.rmtree(OUT, ignore_errors=True)
        os.makedirs(OUT)
        self.update_screenshots = update_screenshots
        self.screenshot_name = "screenshot-48.png" if root else "screenshot.png"
        self.world = shellkit.World("gnome-shell", shellkit.engram_build(), OUT, root=root)
        self.shell = GnomeShell(self.world)
        self.report = shellkit.Report("gnome-shell 48 (Debian 13)" if root else "gnome-shell", OUT)
        self.monitor = None
        self.shots = 0

    # ------------------------------------------------------------------ helpers

    def evidence(self, name):
        """On a failure: a screenshot of what the shell showed, next to its log."""
        if self.shell.alive:
            self.shots += 1
            path = os.path.join(OUT, f"failure-{self.shots:02d}.png")
            if self.shell.screenshot(path):
                print(f"  screenshot of the failure: {path}", flush=True)

    def provider(self, method, *terms_args):
        """Calls Engram's provider directly (as the shell would) for the expected answer."""
        sig = {"GetInitialResultSet": "(as)", "GetResultMetas": "(as)"}[method]
        return self.shell.call("org.engram.Engram", "/org/engram/Engram/SearchProvider",
                               "org.gnome.Shell.SearchProvider2", method, GLib.Variant(sig, terms_args),
                               "(as)" if method != "GetResultMetas" else "(aa{sv})")[0]

    def search_fresh(self, text, pause=0.12):
        """Clears the entry and types text key by key, as a person does; waits for the entry to show it."""
        if not self.shell.eval("Main.overview.visible"):
            self.shell.show_overview()
        self.shell.clear_entry()
        self.shell.type(text, pause)
        self.shell.wait_for_entry(text)
        self.shell.wait_for_search(text)

    def provider_calls(self):
        """The SearchProvider2 method calls the shell made so far (from dbus-monitor), as (member, args)."""
        calls, current = [], None
        for line in open(os.path.join(OUT, "provider-calls.log"), errors="replace"):
            if line.startswith("method call"):
                member = line.split("member=")[-1].strip() if "member=" in line else "?"
                current = [member, line]
                calls.append(current)
            elif current is not None:
                current[1] += line
        return [(m, text) for m, text in calls]

    def memory_type(self, item_id):
        m = self.world.memory(item_id.rsplit("/", 1)[-1])
        return m["type"] if m else None

    def what_the_daemon_and_shell_said(self):
        """The daemon's last searches (its debug log: ENGRAM_VERBOSE) and the shell's provider errors, for a failure."""
        def tail(name, needle, n):
            try:
                return [l.strip() for l in open(os.path.join(OUT, name), errors="replace") if needle in l][-n:]
            except OSError:
                return []
        return (f"the daemon's last searches: {tail('session-bus.log', 'searched', 3) or 'none logged'}; the shell's provider "
                f"errors: {tail('gnome-shell.log', 'search provider', 2) or 'none'}")

    # ------------------------------------------------------------------ checks

    def starts(self):
        took = self.shell.start()
        self.monitor = self.world.start(["stdbuf", "-oL", "dbus-monitor", "--address",
                                         self.shell.env["DBUS_SESSION_BUS_ADDRESS"],
                                         "type='method_call',interface='org.gnome.Shell.SearchProvider2'"],
                                        "provider-calls.log")
        self.replies = self.world.start(["stdbuf", "-oL", "dbus-monitor", "--address",
                                         self.shell.env["DBUS_SESSION_BUS_ADDRESS"],
                                         "type='method_return'", "type='error'"], "provider-replies.log")
        self.shell.watch_reloads()
        settled, reloaded = self.shell.settle()
        providers = self.shell.providers()
        expect(PROVIDER in providers, f"the shell loaded providers {providers}, not Engram's "
                                      f"({self.world.prefix}/share/gnome-shell/search-providers/ was installed)")
        self.shell.show_overview()
        version = self.shell.eval("imports.misc.config.PACKAGE_VERSION") if self.shell.version() < 45 else \
            self.shell.eval("Config.PACKAGE_VERSION")
        return (f"gnome-shell {version} ready {took:.1f} s after launch; the shell read Engram's installed .ini among "
                f"{len(providers)} providers; its own start-up reload of them "
                + (f"came {settled:.1f} s later" if reloaded else f"did not come in {settled:.0f} s"))

    def typing_shows_rows(self):
        """Letter by letter: the section appears, rows in the provider's order, each with its description and icon."""
        query = "sourdough"
        self.search_fresh(query)
        expected = self.provider("GetInitialResultSet", [query])[:5]
        expect(expected, "the provider itself finds nothing for 'sourdough' in the sample collection")
        rows = self.shell.wait_for_rows(lambda r: [x["id"] for x in r] == expected)
        metas = {m["id"]: m for m in self.provider("GetResultMetas", expected)}
        labels = self.shell.labels()
        for i, row in enumerate(rows):
            meta = metas[row["id"]]
            expect(row["name"] == meta["name"], f"row {i + 1} is named {row['name']!r}, the provider said {meta['name']!r}")
            expect(row["description"] and "\n" not in row["description"],
                   f"row {i + 1} ({row['id']}) has no one-line description: {row['description']!r}")
            expect(not row["description"].lstrip("…").startswith(row["name"][:30]),
                   f"row {i + 1} repeats its name in its description: {row['description']!r}")
            kind = self.memory_type(row["id"])
            expect(row["icon"][:1] == [ICONS.get(kind, "?")],
                   f"row {i + 1} ({row['id']}, a {kind}) is drawn with icon {row['icon']}, not {ICONS.get(kind)}")
            drawn = [l["text"] for l in labels[i]]
            expect(row["name"] in drawn and row["description"] in drawn,
                   f"row {i + 1} draws {drawn}, not its name and description")
        shot = os.path.join(OUT, "overview-sourdough.png")
        expect(self.shell.screenshot(shot), "org.gnome.Shell.Screenshot did not write the overview")
        if self.update_screenshots:
            dest = os.path.join(shellkit.ROOT, "Integrations", "gnome-shell", self.screenshot_name)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy(shot, dest)
        return f"'{query}' typed key by key: {describe(rows)}"

    def subsearch_narrows(self):
        """Typing on narrows the rows, and the shell asks Engram's subsearch with the earlier results. A reload of
        the shell's providers in the middle (an app database change; see `reloaded`) throws the earlier results
        away, as it would for a person: then the check starts again once from a fresh search and says so."""
        for attempt in (1, 2):
            replaced = self.shell.provider_replaced()
            reloads = self.shell.reload_count() - (1 if replaced else 0)
            if attempt == 2:
                self.search_fresh("sourdough")
                self.shell.wait_for_rows(lambda r: any(x["id"] == "engram://memory/s106" for x in r))
            before = len(self.provider_calls())
            self.shell.type(" sched", 0.12)
            self.shell.wait_for_entry("sourdough sched")
            rows = self.shell.wait_for_rows(lambda r: r and r[0]["id"] == "engram://memory/s106")
            calls = self.provider_calls()[before:]
            if self.shell.reload_count() != reloads and attempt == 1:
                print(f"note: gnome-shell reloaded its search providers while ' sched' was typed "
                      f"({(self.shell.reload_reasons() or ['no signal recorded'])[-1]}); typing on again from a fresh search", flush=True)
                continue
            break
        wide = self.provider("GetInitialResultSet", ["sourdough"])
        expect(all(r["id"] in wide for r in rows), f"narrowing added rows that 'sourdough' did not find: {describe(rows)}")
        subs = [c for c in calls if c[0] == "GetSubsearchResultSet"]
        expect(subs, f"the shell made no GetSubsearchResultSet call while typing on (calls: {[c[0] for c in calls]})")
        expect("s106" in subs[-1][1], "the last subsearch did not pass the earlier results")
        return (f"{len(rows)} row(s), s106 first; {len(subs)} subsearch call(s) of {len(calls)} while typing ' sched'"
                + (" (after a reload of the shell's providers, from a fresh search)" if attempt == 2 else ""))

    def no_match_hides_the_section(self):
        self.search_fresh("zzqxnothingatall")
        self.shell.wait_for_rows(lambda r: r == [], timeout=10)
        return "Engram's section is hidden"

    def hostile_text_is_shown_literally(self):
        self.world.run_engram("remember", "--type", "note", HOSTILE)
        self.search_fresh("zebraquill")
        try:
            rows = self.shell.wait_for_rows(lambda r: len(r) == 1)
        except Failed as failure:
            raise Failed(f"{failure}; {self.what_the_daemon_and_shell_said()}")
        drawn = [l["text"] for l in self.shell.labels()[0]]
        expect(HOSTILE in drawn, f"the memory is drawn as {drawn}, not literally as {HOSTILE!r}")
        expect(not os.path.exists(self.world.host_path("/tmp/engram-pwned")), "something ran the ${exec …} in the text")
        return f"drawn as typed: {drawn[0][:60]}…"

    def a_capture_appears_while_the_overview_is_open(self):
        self.search_fresh("kombucha")
        self.shell.wait_for_rows(lambda r: r == [])
        self.world.run_engram("remember", "Kombucha second ferment: a thumb of ginger per bottle, three days")
        self.search_fresh("kombucha")
        rows = self.shell.wait_for_rows(lambda r: len(r) == 1 and r[0]["name"].startswith("Kombucha second ferment"))
        return f"typed again after `engram remember`: {describe(rows)}"

    def a_forgotten_memory_never_shows(self):
        self.search_fresh("focaccia")
        self.shell.wait_for_rows(lambda r: "engram://memory/s165" in [x["id"] for x in r])
        self.world.run_engram("forget", "--yes", "s165")
        self.search_fresh("focaccia")
        time.sleep(1.0)  # the shell has had time to show anything it would
        rows = self.shell.engram_rows() or []
        expect("engram://memory/s165" not in [r["id"] for r in rows], f"the forgotten s165 is still drawn: {describe(rows)}")
        self.search_fresh("discard")
        time.sleep(1.0)
        rows = self.shell.engram_rows() or []
        expect("engram://memory/s165" not in [r["id"] for r in rows], f"s165 is drawn for 'discard': {describe(rows)}")
        return f"'focaccia' after forget: {describe(rows) if rows else 'nothing'}"

    def sleep_context_shows_nothing(self):
        self.world.run_engram("context", "set", "sleep")
        try:
            self.search_fresh("sourdough")
            time.sleep(1.0)
            rows = self.shell.engram_rows()
            expect(not rows, f"in the sleep context the shell still shows {describe(rows)}")
        finally:
            self.world.run_engram("context", "clear")
        self.search_fresh("sourdough")
        self.shell.wait_for_rows(lambda r: len(r) > 0)
        return "nothing while asleep; rows again after `engram context clear`"

    def clicking_a_row_copies_strengthens_and_opens(self):
        self.search_fresh("sourdough schedule")
        rows = self.shell.wait_for_rows(lambda r: r and r[0]["id"] == "engram://memory/s106")
        before_uses = self.world.memory("s106")["useCount"]
        launches = len(self.world.launches_seen())
        clicked = self.shell.activate_row(0)
        expect(clicked == "engram://memory/s106", f"clicked {clicked}")
        content = self.world.memory("s106")["content"]
        clip = eventually(lambda: self.shell.clipboard() == content, 5)
        expect(clip, f"the clipboard holds {self.shell.clipboard()!r}, not the memory's text")
        expect(eventually(lambda: len(self.world.launches_seen()) == launches + 1, 10),
               "Engram's window was not opened for the clicked row")
        launch = self.world.launches_seen()[-1]
        argv = launch["argv"]
        expect(argv == ["--data-dir", self.world.data_dir, "engram://memory/s106"],
               f"engram-app was started with {argv}, not on engram://memory/s106")
        # A headless shell's click carries no X server time (0), so no startup id is made from it; one with a time
        # does (StartupEnvironment's unit tests, and the window suite's calls with a timestamp).
        expect(eventually(lambda: self.world.memory("s106")["useCount"] == before_uses + 1, 5),
               f"s106 was not strengthened (uses {self.world.memory('s106')['useCount']}, were {before_uses})")
        expect(eventually(lambda: self.shell.eval("Main.overview.visible") is False, 5), "the overview stayed open")
        expect(self.shell.alive, "gnome-shell died after the click")
        return f"copied {len(content)} characters, uses {before_uses} → {before_uses + 1}, window: engram-app {argv[-1]} (startup id {launch['startup_id']})"

    def clicking_engrams_icon_launches_the_search(self):
        self.shell.show_overview()
        self.search_fresh("sourdough")
        self.shell.wait_for_rows(lambda r: len(r) > 0)
        launches = len(self.world.launches_seen())
        self.shell.click_provider_icon()
        expect(eventually(lambda: len(self.world.launches_seen()) == launches + 1, 15),
               "clicking Engram's icon did not open the window")
        argv = self.world.launches_seen()[-1]["argv"]
        expect(argv[-1] == "engram://search?q=sourdough", f"engram-app was started with {argv}")
        expect(self.shell.alive, "gnome-shell died after LaunchSearch")
        self.shell.show_overview()
        return f"window: engram-app {argv[-1]}"

    def rapid_typing_stalls_nothing(self):
        """200 keys as fast as the virtual keyboard sends them; shell and daemon answer at once after."""
        daemon = self.world.daemon_pids()
        before = len(self.provider_calls())
        self.shell.clear_entry()
        # Kept words, 91 keys of other words, as many Backspaces, then the rest of the query: 200 keys.
        junk = ("starter levain crumb oven " * 4)[:91]
        burst = "sourdough " + junk + "\b" * len(junk) + "schedule"
        final = "sourdough schedule"
        expect(len(burst) == 200, f"the burst has {len(burst)} keys")
        t0 = time.monotonic()
        self.shell.type(burst)
        self.shell.wait_for_entry(final, timeout=20)
        typed = time.monotonic() - t0
        t1 = time.monotonic()
        expect(self.shell.eval("1 + 1") == 2, "the shell does not answer after the burst")
        shell_answer = time.monotonic() - t1
        t2 = time.monotonic()
        self.provider("GetInitialResultSet", ["sourdough"])
        daemon_answer = time.monotonic() - t2
        expect(shell_answer < 2 and daemon_answer < 2,
               f"after the burst the shell took {shell_answer:.2f} s and the daemon {daemon_answer:.2f} s to answer")
        expected = self.provider("GetInitialResultSet", final.split())[:5]
        expect(expected[:1] == ["engram://memory/s106"], f"the provider answers {expected} for {final!r}")
        rows = self.shell.wait_for_rows(lambda r: [x["id"] for x in r] == expected, timeout=15)
        expect(self.world.daemon_pids() == daemon, f"the daemon changed from {daemon} to {self.world.daemon_pids()}")
        calls = len(self.provider_calls()) - before
        return (f"200 keys in {typed:.1f} s; then the shell answered in {shell_answer * 1000:.0f} ms, the daemon in "
                f"{daemon_answer * 1000:.0f} ms; {calls} provider calls; rows for the final text: {len(rows)}")

    def a_meaning_only_match_shows(self):
        """A question sharing no word with a memory finds it (meaning search, the installed model)."""
        self.world.run_engram("remember", "Kubernetes pods restart when the liveness probe fails too often.")
        out = self.world.run_engram("index", "embed", check=False)
        expect(out.returncode == 0, f"`engram index embed` failed: {out.stderr.strip()} (is the model installed?)")
        self.search_fresh("why does my container keep rebooting ")
        # Among the rows (the sample collection also has "containers" and "contains" by words), saying why.
        rows = self.shell.wait_for_rows(lambda r: any(x["name"].startswith("Kubernetes pods restart") for x in r), timeout=15)
        row = next(x for x in rows if x["name"].startswith("Kubernetes pods restart"))
        expect(row["description"].startswith("By meaning · "), f"its description is {row['description']!r}")
        return f"row {rows.index(row) + 1} of {len(rows)}: {describe([row])}: {row['description']}"

    def disabling_the_provider_removes_it(self):
        self.shell.gsettings("set", "org.gnome.desktop.search-providers", "disabled", f"['{PROVIDER}']")
        gone = eventually(lambda: PROVIDER not in self.shell.providers(), 10)
        self.search_fresh("sourdough")
        time.sleep(1.0)
        rows = self.shell.engram_rows()
        self.shell.gsettings("reset", "org.gnome.desktop.search-providers", "disabled")
        expect(gone and rows is None, f"disabled in gsettings, Engram still shows: {describe(rows)}")
        back = eventually(lambda: PROVIDER in self.shell.providers(), 10)
        expect(back, "Engram did not come back when re-enabled")
        self.search_fresh("sourdough")
        self.shell.wait_for_rows(lambda r: len(r) > 0)
        return "gone while disabled, back when re-enabled"

    def run(self):
        r = self.report
        try:
            if not r.check("the shell starts with Engram's installed provider", self.starts, self.evidence):
                return
            checks = [
                ("typing letter by letter shows Engram's rows, in order, described, with icons", self.typing_shows_rows),
                ("typing on narrows through GetSubsearchResultSet", self.subsearch_narrows),
                ("a query with no match hides the section", self.no_match_hides_the_section),
                ("Pango markup and ${exec} in a memory are drawn literally", self.hostile_text_is_shown_literally),
                ("a memory captured while the overview is open appears", self.a_capture_appears_while_the_overview_is_open),
                ("a forgotten memory never shows", self.a_forgotten_memory_never_shows),
                ("the sleep context shows nothing", self.sleep_context_shows_nothing),
                ("clicking a row copies, strengthens and opens it", self.clicking_a_row_copies_strengthens_and_opens),
                ("clicking Engram's icon opens the search (LaunchSearch)", self.clicking_engrams_icon_launches_the_search),
                ("200 rapid keystrokes stall neither shell nor daemon", self.rapid_typing_stalls_nothing),
                ("a memory found by meaning alone shows, saying so", self.a_meaning_only_match_shows),
                ("the provider disabled in gsettings disappears", self.disabling_the_provider_removes_it),
            ]
            check_while_alive(r, self.shell, checks, self.evidence)
        finally:
            # Why the shell reloaded its remote providers during the run (each hides every remote section until the
            # next keystroke): evidence for a hidden section, whoever caused it.
            reloads = self.shell.reload_reasons() if self.shell.alive else None
            if reloads:
                print(f"note: gnome-shell reloaded its search providers during the run: {', '.join(reloads)}", flush=True)
            self.shell.stop()
            self.world.close()
            r.write()
        return not r.failures


if __name__ == "__main__":
    ok = Suite("--screenshots" in sys.argv, shellkit.root_from_argv(sys.argv)).run()
    sys.exit(0 if ok else 1)
