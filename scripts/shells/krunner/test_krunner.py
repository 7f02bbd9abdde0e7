"""Engram through KRunner's own machinery: KF5's RunnerManager, as KRunner's window (Milou) and RunnerModel use it.

    PYTHONPATH=scripts /usr/bin/python3 -m shells.krunner.test_krunner [--screenshots] [--root ROOT --deb DEB]

With --root, the same session runs on KDE Frameworks 6 inside a Debian 13 root (scripts/trixie/root.sh): KF6's
RunnerManager through Milou 6's ResultsModel under Qt 6's `qml6` (KF6 has no RunnerModel module; its checks are
left out), with Engram installed there from its Debian package; results go to bench-out/shells/krunner-6/.

Installs the built engram into a temporary prefix with scripts/install.sh (so the plugin file KF5 finds is the
installed share/krunner/dbusplugins/org.engram.Engram.desktop), starts a private session bus whose activation
folders hold the installed D-Bus service, and runs krunner_client.qml under qmlscene offscreen: it types queries
into Milou's ResultsModel (what KRunner's window lists) and KF5's RunnerModel, runs matches and actions, ends the
match session as KRunner does when its window closes, and draws the list with Milou's own ResultsView. dbus-monitor
records every org.kde.krunner1 call the manager made. Results and logs go to bench-out/shells/krunner/; with
--screenshots the drawn list is also copied to Integrations/krunner/screenshot.png. Exit status 1 on a failure.
"""

import json
import os
import shutil
import subprocess
import sys
import time

from shells import shellkit
from shells.shellkit import expect, eventually

HERE = os.path.dirname(os.path.abspath(__file__))

OUT = os.path.join(shellkit.ROOT, "bench-out", "shells", "krunner")
RUNNER_ID = "engram"  # X-KDE-PluginInfo-Name: KF5 prefixes match ids with it


class Suite:
    def __init__(self, update_screenshots, root=None):
        global OUT
        if root:
            OUT = os.path.join(shellkit.ROOT, "bench-out", "shells", "krunner-6")
        shutil.rmtree(OUT, ignore_errors=True)
        os.makedirs(OUT)
        self.kf6 = root is not None
        self.update_screenshots = update_screenshots
        self.world = shellkit.World("krunner", shellkit.engram_build(), OUT, root=root)
        self.report = shellkit.Report("krunner KF6 (Debian 13)" if root else "krunner", OUT)
        self.steps, self.seen = [], {}

    def step(self, name, **step):
        self.steps.append(dict(step, name=name))

    def start_bus(self):
        w = self.world
        try:
            w.start_bus()
        except RuntimeError as error:
            expect(False, f"the private session bus did not start: {error}")
        w.start(["stdbuf", "-oL", "dbus-monitor", "--address", w.env["DBUS_SESSION_BUS_ADDRESS"],
                 "type='method_call',interface='org.kde.krunner1'"], "krunner1-calls.log")
        time.sleep(0.3)

    def calls(self):
        """(member, [string args]) of every org.kde.krunner1 call, in order."""
        out = []
        for line in open(os.path.join(OUT, "krunner1-calls.log"), errors="replace"):
            if line.startswith("method call") and "member=" in line:
                out.append((line.split("member=")[-1].strip(), []))
            elif line.strip().startswith("string ") and out:
                out[-1][1].append(json.loads(line.strip()[len("string "):]))
        return out

    def daemon_match(self, query):
        """The match ids Engram itself answers, for comparison (a direct call, as the unit tests make)."""
        from gi.repository import Gio, GLib
        conn = Gio.DBusConnection.new_for_address_sync(
            self.world.env["DBUS_SESSION_BUS_ADDRESS"],
            Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
        try:
            reply = conn.call_sync("org.engram.Engram", "/runner", "org.kde.krunner1", "Match", GLib.Variant("(s)", (query,)),
                                   GLib.VariantType("(a(sssida{sv}))"), Gio.DBusCallFlags.NONE, 20000, None)
            return [m[0] for m in reply.unpack()[0]]
        finally:
            conn.close_sync(None)

    def drive(self):
        """Runs every step in one qmlscene; returns {step name: what the models held}."""
        qml = open(os.path.join(HERE, "krunner_client.qml")).read().replace("__STEPS__", json.dumps(self.steps))
        if self.kf6:
            # KF6 has no org.kde.runnermodel: the lines marked "KF5 only" give way to an empty stand-in model.
            qml = "\n".join(l.split("//")[0].replace("RM.RunnerModel { id: plain }", "ListModel { id: plain; property string query }")
                            if "KF5 only" in l else l for l in qml.splitlines())
            qml = qml.replace("import org.kde.runnermodel 2.0 as RM", "")
        path = os.path.join(self.world.base, "client.qml")
        open(path, "w").write(qml)
        env = dict(self.world.env, QT_QPA_PLATFORM="offscreen", QT_QUICK_BACKEND="software", XDG_CURRENT_DESKTOP="KDE",
                   QT_PLUGIN_PATH=self.help_runner())
        t0 = time.monotonic()
        out = self.world.run(["qml6" if self.kf6 else "qmlscene", path], env=env, capture_output=True, text=True,
                             timeout=180)
        took = time.monotonic() - t0
        log = out.stdout + out.stderr
        open(os.path.join(OUT, "qmlscene.log"), "w").write(log)
        lines = [json.loads(l.split("STEP ", 1)[1]) for l in log.splitlines() if "STEP {" in l]
        expect("DONE" in log, f"qmlscene stopped before the last step ({len(lines)} of {len(self.steps)}); see qmlscene.log")
        return {self.steps[l["step"]]["name"]: l for l in lines}, took

    def help_runner(self):
        """A plugin folder holding only Plasma's own help runner (what KRunner lists for "?"), from this generation's
        plasma-workspace package (shellkit.plasma_workspace)."""
        kf, qt = ("kf6", "qt6") if self.kf6 else ("kf5", "qt5")
        plugins = os.path.join(self.world.base, "plugins")
        dest = os.path.join(plugins, kf, "krunner", "helprunner.so")
        source = os.path.join(shellkit.plasma_workspace(self.world), "usr", "lib", "x86_64-linux-gnu", qt, "plugins", kf,
                              "krunner", "helprunner.so")
        expect(os.path.exists(source), f"plasma-workspace's package has no {kf}/krunner/helprunner.so")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy(source, dest)
        return plugins

    # ------------------------------------------------------------------ the session

    def plan(self):
        self.step("too short", op="query", text="so", plain=True)
        self.step("sourdough", op="query", text="sourdough", plain=True)
        self.step("curriculum", op="query", text="swift concurrency")
        self.step("command", op="query", text="remember buy oat milk")
        self.step("run command", op="run", index=0, wait=1500)
        self.step("focaccia", op="query", text="focaccia")
        self.step("run match", op="run", index=0, wait=1500)
        self.step("to pin", op="query", text="marathon")
        self.step("meaning", op="query", text="why does my container keep rebooting")
        # Drawn where qmlscene runs (inside the root, if any), then moved to OUT by the check.
        self.step("shot", op="shot", path=os.path.join(self.world.base, "krunner-sourdough.png"), query="sourdough")
        self.step("help", op="query", text="?engram")
        self.step("teardown", op="teardown", wait=1500)

    def run(self):
        r = self.report
        try:
            self.start_bus()
            self.plan()
            # The pin action is chosen once the matches are known: a second session runs it (see pin_action).
            self.world.run_engram("remember", "Kubernetes pods restart when the liveness probe fails too often.")
            out = self.world.run_engram("index", "embed", check=False)
            expect(out.returncode == 0, f"`engram index embed` failed: {out.stderr.strip()} (is the model installed?)")
            top = self.world.run_engram("search", "focaccia").stdout.split()[0]
            self.uses_before = (top, self.world.memory(top)["useCount"])
            self.seen, took = self.drive()
            r.record(True, f"{'KF6' if self.kf6 else 'KF5'}'s RunnerManager ran the session",
                     f"{len(self.seen)} steps in {took:.1f} s")
            for name, fn in [
                ("the installed plugin is found and asked, as Plasma finds it", self.plugin_found),
                ("min-letters: two letters never reach Engram", self.min_letters),
                ("matches in Engram's order, strictly decreasing relevance, categories, subtexts", self.matches),
                ("curricula and topics in their own categories", self.categories),
                ("every memory match offers Copy and Pin/Unpin", self.actions_offered),
                ("“remember buy oat milk” is a command match; running it stores the memory", self.command),
                ("running a match strengthens it and opens the window on it", self.run_match),
                ("running the Pin action pins the memory", self.pin_action),
                ("a memory found by meaning alone is matched, saying so", self.meaning),
                ("KRunner's help (“?engram”) lists Engram's three syntaxes, each with its own description", self.help),
                ("closing the session tears Engram down", self.teardown),
                ("KRunner's own list (Milou's ResultsView) draws the matches", self.screenshot),
            ]:
                r.check(name, fn)
        except Exception as error:
            r.record(False, "the KRunner session", f"{type(error).__name__}: {error}")
        finally:
            self.world.close()
            r.write()
        return not r.failures

    # ------------------------------------------------------------------ checks

    def plugin_found(self):
        rows = self.seen["sourdough"]["milou"]
        expect(rows, "KRunner listed no match for 'sourdough': the plugin was not found or not asked")
        expect(all(m["id"].startswith(RUNNER_ID + "_") for m in rows), f"matches from another runner: {rows[:2]}")
        plain = self.seen["sourdough"]["plain"]
        expect(self.kf6 or (plain and all(p["runnerid"] == RUNNER_ID for p in plain)), f"RunnerModel shows {plain[:2]}")
        members = [c[0] for c in self.calls()]
        expect("Config" in members and "Actions" in members, f"the manager called {sorted(set(members))}")
        return f"runner '{RUNNER_ID}' from the installed .desktop; calls: {', '.join(sorted(set(members)))}"

    def min_letters(self):
        queries = [c[1][0] for c in self.calls() if c[0] == "Match"]
        expect("so" not in queries, "KRunner asked Engram to match 'so' (min letters is 3)")
        expect(not self.seen["too short"]["milou"], f"matches for 'so': {self.seen['too short']['milou']}")
        expect("sourdough" in queries, f"'sourdough' never reached Engram: {queries}")
        return f"Match calls: {queries}"

    def matches(self):
        rows = self.seen["sourdough"]["milou"]
        ids = [m["id"][len(RUNNER_ID) + 1:] for m in rows]
        expected = self.daemon_match("sourdough")
        expect(ids == expected, f"KRunner lists {ids}, Engram answered {expected}")
        plain_ids = [m["id"][len(RUNNER_ID) + 1:] for m in self.seen["sourdough"]["plain"]]
        expect(self.kf6 or plain_ids == expected, f"RunnerModel lists {plain_ids}, Engram answered {expected}")
        rel = [m["relevance"] for m in rows]
        expect(all(a > b for a, b in zip(rel, rel[1:])), f"relevance not strictly decreasing: {rel}")
        for m in rows:
            expect(m["category"] == "Memories", f"{m['id']} is in category {m['category']!r}")
            # Milou gives the text the row, eliding its middle: a long text leaves no room for the subtext.
            expect(len(m["display"]) <= 48, f"{m['id']}'s text is {len(m['display'])} characters: {m['display']!r}")
            expect(m["subtext"] and "\n" not in m["subtext"] and m["subtext"] != m["display"],
                   f"{m['id']} has subtext {m['subtext']!r}")
        return f"{len(ids)} matches, relevance {rel[0]:.2f} … {rel[-1]:.2f}, first {ids[0]}"

    def categories(self):
        rows = self.seen["curriculum"]["milou"]
        cats = [m["category"] for m in rows]
        expect("Curricula" in cats, f"'swift concurrency' shows categories {cats}, no Curricula")
        # Milou keeps each category's matches together, the best category first.
        firsts = [c for i, c in enumerate(cats) if i == 0 or c != cats[i - 1]]
        expect(len(firsts) == len(set(cats)), f"a category is split: {cats}")
        return f"categories in order: {firsts}"

    def actions_offered(self):
        rows = self.seen["sourdough"]["milou"]
        for m in rows:
            memory = self.world.memory(m["id"].rsplit("/", 1)[-1])
            want = ["Copy text", "Unpin: fade again with disuse" if memory["pinned"] else "Pin: never fade from search"]
            expect(m["actions"] == want, f"{m['id']} offers {m['actions']}, not {want} (pinned: {memory['pinned']})")
        return f"{len(rows)} matches with their actions, e.g. {rows[0]['actions']}"

    def command(self):
        rows = self.seen["command"]["milou"]
        expect(rows and rows[0]["category"] == "Commands" and "oat milk" in rows[0]["display"],
               f"the first match for 'remember buy oat milk' is {rows[:1]}")
        calls = [c for c in self.calls() if c[0] == "Run"]
        expect(any(c[1][0].startswith("intent:StoreMemory") for c in calls), f"Run calls: {calls}")
        found = eventually(lambda: "buy oat milk" in self.world.run_engram("search", "oat milk", check=False).stdout, 10)
        expect(found, "after running the command, `engram search 'oat milk'` does not find the memory")
        return f"“{rows[0]['display']}” ran and stored the memory"

    def run_match(self):
        row = self.seen["focaccia"]["milou"][0]
        memory_id = row["id"].rsplit("/", 1)[-1]
        launches = self.world.launches_seen()
        expect(launches, "running the focaccia match did not open the window")
        argv = launches[-1]["argv"]
        expect(argv[-1] == f"engram://memory/{memory_id}", f"engram-app was started with {argv}")
        expect(self.seen["run match"].get("ran") is True, "Milou's run() refused the match")
        top, before = self.uses_before
        expect(top == memory_id, f"KRunner's first focaccia match is {memory_id}, `engram search` says {top}")
        uses = self.world.memory(memory_id)["useCount"]
        expect(uses == before + 1, f"{memory_id} was used {before} times before the run and {uses} after")
        return f"{row['display'][:40]}…: window `engram-app {argv[-1]}`"

    def pin_action(self):
        rows = self.seen["to pin"]["milou"]
        index = next((i for i, m in enumerate(rows) if m["actions"][1:] == ["Pin: never fade from search"]), None)
        expect(index is not None, f"no unpinned memory among the 'marathon' matches: {[m['actions'] for m in rows]}")
        memory_id = rows[index]["id"].rsplit("/", 1)[-1]
        expect(not self.world.memory(memory_id)["pinned"], f"{memory_id} is pinned already")
        # A second, short session: the same query, then that match's second action (Pin).
        self.steps = []
        self.step("to pin", op="query", text="marathon")
        self.step("pin", op="action", index=index, action=1, wait=1500)
        seen, _ = self.drive()
        expect([m["id"] for m in seen["to pin"]["milou"]] == [m["id"] for m in rows], "the matches changed between sessions")
        expect(seen["pin"].get("ran") is True, "Milou's runAction refused the action")
        expect(eventually(lambda: self.world.memory(memory_id)["pinned"], 5), f"{memory_id} is not pinned after the action")
        runs = [c[1] for c in self.calls() if c[0] == "Run"]
        expect([f"engram://memory/{memory_id}", "pin"] in runs, f"Run calls: {runs}")
        return f"Run('engram://memory/{memory_id}', 'pin') → pinned"

    def meaning(self):
        rows = self.seen["meaning"]["milou"]
        # Among the first five (the sample collection also has "containers" and "contains" by words), saying why.
        found = [m for m in rows[:5] if m["display"].startswith("Kubernetes pods restart")]
        expect(found, f"'why does my container keep rebooting' lists {[m['display'] for m in rows[:5]]}")
        expect(found[0]["subtext"].startswith("By meaning · "), f"its subtext is {found[0]['subtext']!r}")
        return f"match {rows.index(found[0]) + 1}: {found[0]['display']} — {found[0]['subtext']}"

    def help(self):
        """Plasma's help runner reads X-Plasma-Runner-Syntaxes as KConfig lists them (split on commas): each syntax
        is its own match, its example in bold over its own description. With ';' between them all three arrived as
        one syntax with one description."""
        rows = [m for m in self.seen["help"]["milou"] if m["category"] == "Engram"]
        want = [("&lt;search term&gt;", "Searches your memories, curricula and topics for what you type"),
                ("tag:NAME &lt;search term&gt;", "Memories tagged NAME"),
                ("type:idea &lt;search term&gt;", "Only ideas (or notes, tasks, quotes, learnings)")]
        got = [m["display"] for m in rows]
        expect(len(rows) == 3, f"KRunner's help lists {len(rows)} Engram syntaxes, not 3: {got}")
        # Each example over its own description (KF6 keeps the file's order, KF5's list may sort them otherwise).
        expect(sorted(got) == sorted(f"<b>{example}<br></b>{description}" for example, description in want),
               f"the syntaxes read {got}, not each example over its own description: {want}")
        return f"{len(rows)} syntaxes: " + "; ".join(t.split("<br>")[0].removeprefix("<b>") for t in got)

    def teardown(self):
        calls = [c[0] for c in self.calls()]
        expect("Teardown" in calls, "closing the match session never called Teardown")
        return f"Teardown after {calls.index('Teardown')} calls"

    def screenshot(self):
        shot = self.seen.get("shot", {})
        path = os.path.join(OUT, "krunner-sourdough.png")
        drawn = os.path.join(self.world.base, "krunner-sourdough.png")
        if os.path.exists(drawn):
            shutil.move(drawn, path)
        expect(shot.get("saved") is True and os.path.exists(path) and os.path.getsize(path) > 5000, "Milou's ResultsView was not drawn")
        if self.update_screenshots:
            dest = os.path.join(shellkit.ROOT, "Integrations", "krunner", "screenshot-kf6.png" if self.kf6 else "screenshot.png")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copy(path, dest)
        return f"{path} ({os.path.getsize(path)} bytes)"


if __name__ == "__main__":
    ok = Suite("--screenshots" in sys.argv, shellkit.root_from_argv(sys.argv)).run()
    sys.exit(0 if ok else 1)
