"""Engram's Plasma widget in plasmoidviewer 5.27 (this machine) and plasmoidviewer 6.3 (a Debian 13 root).

    PYTHONPATH=scripts /usr/bin/python3 -m shells.plasma.test_plasmoid [--screenshots] [--break NAME] [--root ROOT --deb DEB]

Plasma 5.27: installs the built engram into a temporary prefix with scripts/install.sh (which installs the widget into
PREFIX/share/plasma/plasmoids/org.engram.Engram.plasmoid, its root QML chosen for Plasma 5), imports the sample
collection, and runs `plasmoidviewer -a org.engram.Engram.plasmoid` under its own Xvfb on a private session bus, with
XDG_DATA_DIRS pointing at the prefix's share. The widget is read back from screenshots by OCR (tesseract).
plasmoidviewer needs a containment and Debian has none without all of plasma-desktop: a bare one
(containment5/, containment6/) fills the window with the applet. The "executable" data engine the widget runs its
commands through is part of plasma-workspace, which a Plasma desktop always has; this machine has no Plasma desktop
(plasma-workspace would bring systemd-sysv and KRunner's and Plasma's notification services into the other suites'
buses), so the engine alone is taken from plasma-workspace's Debian package (`apt-get download`, cached in
$ENGRAM_ROOT_CACHE, default /var/cache/engram-tests) and found through QT_PLUGIN_PATH.

Plasma 6.3 (--root ROOT --deb DEB, scripts/trixie/root.sh): the same checks inside the Debian 13 root, on Engram
installed there from its Debian package (whose postinst made the widget for Plasma 6), plasmoidviewer 6 inside the
root drawing on this machine's Xvfb, the engine from plasma-workspace 6's package; results in bench-out/shells/plasma-6/.

--break NAME changes the installed widget on purpose (see BREAKS) to show that a check fails; results and logs in
bench-out/shells/plasma/; --screenshots copies the screenshots to Desktop/screenshots/plasma-{5,6}-widget.png.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

from shells import shellkit
from voice.fakeaudio import FakeAudio
from shells.shellkit import expect, eventually
from engramtest.bus import wait_for_name
from engramtest.system import free_display

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(shellkit.ROOT, "bench-out", "shells", "plasma")
APPLET = "org.engram.Engram.plasmoid"
SOURCE = os.path.join(shellkit.ROOT, "Desktop", "plasma", APPLET)
QML_ERROR = re.compile(r"Error|TypeError|ReferenceError|Unable to assign|Binding loop|is not a type|requires a version|"
                       r"is not installed|Cannot|undefined")

# Text a person could have stored, drawn as typed (no markup, no Conky or polybar codes). Short, so it is not elided.
HOSTILE = "<b>Hostile</b> ${exec rm} %{F#f00}red"

# Typed into the capture field (PWNED becomes a path in the suite's folder: it must never be created).
CAPTURE = "Plasma capture: it's $(touch PWNED) & <i>x</i> `id`"

# Deliberate breakages of the installed widget: (file, text, replacement). Each makes one check fail.
BREAKS = {
    "qml-error": ("FullView.qml", "text: engram.problem", "text: engram.nosuch.problem"),
    "markup": ("FullView.qml", 'text: "• " + Logic.clean(modelData.title, true) + " — " + Logic.fades(modelData.daysLeft)\n'
               '                textFormat: Text.PlainText', 'text: "• " + Logic.clean(modelData.title, true) + " — " + '
               'Logic.fades(modelData.daysLeft)\n                textFormat: Text.StyledText'),
    "today": ("FullView.qml", 'Logic.plural(full.counts.today, "memory", "memories")',
              'Logic.plural(full.counts.total, "memory", "memories")'),
    "no-watch": ("Engram.qml", "        if (watching) return;", "        return;"),
    "no-daemon-message": ("Engram.qml", 'if (daemon === "no")', 'if (daemon === "never")'),
    "capture-unquoted": ("engram.js", 'return "engram remember -- " + sq(text) + " 2>&1";',
                         'return "engram remember -- " + text + " 2>&1";'),
    "open-no-link": ("engram.js", 'link = " " + sq("engram://memory/" + memoryID);', 'link = "";'),
    "no-missing-message": ("Engram.qml", "return \"Engram is not installed:", "return \"\" + \""),
}


def ocr(png):
    """The text tesseract reads in a screenshot, twice: grey and scaled up 4× (buttons, the focused one too), and black
    and white at 3× (the red warning); both readings, one after the other."""
    texts = []
    for name, args in (("grey", ["-resize", "400%", "-normalize"]), ("bw", ["-resize", "300%", "-threshold", "70%"])):
        big = f"{png}.{name}.png"
        subprocess.run(["convert", png, "-colorspace", "Gray"] + args + [big], check=True)
        texts.append(subprocess.run(["tesseract", big, "-"], capture_output=True, text=True).stdout)
    text = "\n".join(texts)
    with open(png + ".txt", "w") as f:
        f.write(text)
    return text


def squash(text):
    """Lower case, no spaces: OCR splits and joins words freely."""
    return re.sub(r"\s+", "", text).lower()


def executable_engine(world, generation):
    """The QT_PLUGIN_PATH entry holding the "executable" data engine of plasma-workspace's package for this generation
    (shellkit.plasma_workspace), or None when the system has the engine installed (a Plasma desktop)."""
    qt, engines = ("qt6", "plasma5support/dataengine") if generation == 6 else ("qt5", "plasma/dataengine")
    if not world.root and glob.glob(f"/usr/lib/*/{qt}/plugins/{engines}/plasma_engine_executable.so"):
        return None
    found = glob.glob(os.path.join(shellkit.plasma_workspace(world), "usr", "lib", "*", qt, "plugins", engines,
                                   "plasma_engine_executable.so"))
    expect(found, f"no {engines}/plasma_engine_executable.so in plasma-workspace's package")
    return os.path.dirname(os.path.dirname(os.path.dirname(found[0])))


class Viewer:
    """One plasmoidviewer run on the suite's Xvfb: started, screenshotted, stopped; its output kept."""

    def __init__(self, suite, name, argv, env):
        self.suite, self.name = suite, name
        self.log = os.path.join(OUT, f"plasmoidviewer-{name}.log")
        self.proc = suite.world.start(argv, os.path.basename(self.log), env=env)
        self.shots = 0

    def output(self):
        return open(self.log, errors="replace").read()

    def shot(self, label):
        self.shots += 1
        path = os.path.join(OUT, f"{self.name}-{self.shots}-{label}.png")
        # The widget's part of the screen (the applet fills the viewer's 560×740 window at 0,0; below it the viewer's
        # own buttons, beside it any notification the daemon shows).
        subprocess.run(["import", "-display", self.suite.display, "-window", "root", "-crop", "560x690+0+0", "+repage",
                        path], check=True, env=self.suite.world.env, capture_output=True)
        return path

    def read(self, label):
        """(screenshot path, OCR text) now."""
        path = self.shot(label)
        return path, ocr(path)

    def wait_text(self, label, words, timeout=30):
        """Screenshots until every one of words (squashed) is read, or timeout; returns (path, text, when the shot
        that showed them was taken, time.monotonic())."""
        deadline = time.monotonic() + timeout
        while True:
            taken = time.monotonic()
            path, text = self.read(label)
            if all(squash(w) in squash(text) for w in words) or time.monotonic() > deadline:
                return path, text, taken
            time.sleep(0.5)

    def refreshed(self, count):
        return len(re.findall(r"engram-widget: refreshed", self.output())) >= count

    def qml_errors(self):
        return [l for l in self.output().splitlines() if APPLET + "/" in l and QML_ERROR.search(l)]

    def stop(self):
        self.suite.world.stop(self.proc)


class Suite:
    def __init__(self, update_screenshots, breakage, root=None):
        global OUT
        self.generation = 6 if root else 5
        if root:
            OUT = os.path.join(shellkit.ROOT, "bench-out", "shells", "plasma-6")
        shutil.rmtree(OUT, ignore_errors=True)
        os.makedirs(OUT)
        self.update_screenshots, self.breakage = update_screenshots, breakage
        if not root:
            os.environ["PLASMA_GENERATION"] = "5"   # install.sh: the widget for this machine's Plasma 5.27
        self.world = shellkit.World("plasma", shellkit.engram_build(), OUT, root=root)
        self.report = shellkit.Report("plasma 6.3 (Debian 13)" if root else "plasma", OUT)
        self.package = self.world.host_path(os.path.join(self.world.prefix, "share", "plasma", "plasmoids", APPLET))
        self.seen = {}
        self.pwned = os.path.join(self.world.base, "PWNED")

    # ------------------------------------------------------------------ set-up

    def prepare(self):
        w = self.world
        self.apply_break(self.package)
        # The test containment, in a data folder of its own (not the prefix: it is not Engram's).
        testdata = os.path.join(w.base, "testdata", "share")
        os.makedirs(os.path.join(testdata, "plasma", "plasmoids"))
        containment = f"containment{self.generation}"
        shutil.copytree(os.path.join(HERE, containment),
                        os.path.join(testdata, "plasma", "plasmoids", f"org.engram.test.{containment}"))
        w.env["XDG_DATA_DIRS"] = f"{testdata}:{w.env['XDG_DATA_DIRS']}"
        plugins = executable_engine(w, self.generation)
        if plugins:
            w.env["QT_PLUGIN_PATH"] = plugins
        n = free_display(140, 200)
        self.display = f":{n}"
        # The X server runs here (programs inside a root reach it through /tmp/.X11-unix, bound in).
        w.start(["Xvfb", self.display, "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"], "xvfb.log", host=True)
        expect(eventually(lambda: os.path.exists(f"/tmp/.X11-unix/X{n}"), 20), "Xvfb did not start")
        w.env.update(DISPLAY=self.display, QT_QUICK_BACKEND="software", XDG_CURRENT_DESKTOP="KDE", LANG="C.UTF-8")
        # A headless audio server whose microphone the widget's push-to-talk records from (its socket in the world's
        # folder, which a root's programs see under their own /tmp).
        self.audio = FakeAudio(os.path.join(w.base, "pulse"), w.env)
        w.env["PULSE_SERVER"] = "unix:" + (self.audio.socket[len(w.root.path):] if w.root else self.audio.socket)
        # Push-to-talk records until the second click, however long reading the screen takes: it waits 60 s for
        # speech (not 5) and records up to 90 s (not 10).
        config = os.path.join(w.folders.config, "config.toml")
        w.folders.write_config(open(config).read() + '\n[voice]\nmax_seconds = 90\nlead_seconds = 60\n')
        w.start_bus()
        # A memory about to fade, with text that is markup and code elsewhere: it leads today's review (memories due
        # within a week, oldest first). Dated from the world's clock: a quote never used leaves search 152 days after
        # its last use (half-life 120 days, DecayModel.standard), so this one has three days left, whatever the day.
        hostile = os.path.join(w.base, "hostile.jsonl")
        with open(hostile, "w") as f:
            f.write(json.dumps({"kind": "memory", "id": "hostile1", "content": HOSTILE, "type": "quote", "tags": [],
                                "created": w.folders.iso(days=-1000), "updated": w.folders.iso(days=-1000),
                                "lastReinforced": w.folders.iso(days=-149), "useCount": 0, "pinned": False}) + "\n")
        w.run_engram("import", hostile)
        w.run_engram("remember", "Plasma widget check: first memory of today")
        w.run_engram("remember", "Plasma widget check: second memory of today")
        # The CLI's nudges start the daemon by D-Bus activation; the first viewer runs without it.
        for pid in w.daemon_pids():
            os.kill(pid, 15)
        expect(eventually(lambda: not w.daemon_pids(), 15), "the activated engram daemon did not stop")

    def apply_break(self, package):
        """--break NAME: changes the installed widget in package on purpose."""
        if not self.breakage:
            return
        name, old, new = (self.breakage,) + BREAKS[self.breakage][1:]
        path = os.path.join(package, "contents", "ui", BREAKS[self.breakage][0])
        text = open(path).read()
        expect(old in text, f"--break {name}: the text to change is not in {path}")
        open(path, "w").write(text.replace(old, new, 1))
        print(f"plasma: the widget in {package} is broken on purpose ({name})", flush=True)

    def viewer(self, name, env=None, formfactor=None):
        argv = ["plasmoidviewer", "-c", f"org.engram.test.containment{self.generation}", "-a", APPLET, "-s", "560x740"]
        if formfactor:
            argv += ["-f", formfactor]
        return Viewer(self, name, argv, env or self.world.env)

    def feed(self, name):
        out = self.world.run([os.path.join(self.world.prefix, "bin", "engram-feed"), name, "--format", "json",
                              "--size", "large", "--limit", "3"], capture_output=True, text=True)
        return json.loads(out.stdout)

    # ------------------------------------------------------------------ the session

    def run(self):
        r = self.report
        try:
            self.prepare()
            r.check("the package's postinst made the widget for Plasma 6 (PlasmoidItem as its root)" if self.generation == 6
                    else "install.sh installed the widget for Plasma 5 (main5.qml as its root)", self.installed)
            # 1. Without the daemon: the feeds read the store; the widget says the daemon is not running.
            v = self.viewer("no-daemon")
            try:
                ok = eventually(lambda: v.refreshed(1), 40)
                time.sleep(2)
                self.seen["no-daemon"] = v.read("loaded")
                self.seen["no-daemon-errors"] = v.qml_errors()
                self.seen["no-daemon-ok"] = ok
            finally:
                v.stop()
            r.check("the widget cleans text by the feeds' rule (the cases DisplayText.clean is held to)", self.display_text_rule)
            r.check(f"plasmoidviewer {'6.3' if self.generation == 6 else '5.27'} loads the widget without QML errors", self.loads)
            r.check("today's count and the memory of the day are shown", self.content)
            r.check("hostile memory text is drawn literally (markup, ${exec}, %{F})", self.hostile)
            r.check("no daemon: the widget says so", self.no_daemon)
            # 2. With the daemon: a session started from the CLI appears at once (engram-feed --watch wakes on its
            #    PropertiesChanged), and the widget's Pause button pauses it.
            daemon = self.world.start([self.world.engram, "daemon"], "daemon.log")
            expect(wait_for_name(self.world.env["DBUS_SESSION_BUS_ADDRESS"], "org.engram.Engram", daemon, 30),
                   "engram daemon did not take its bus name")
            v = self.viewer("daemon")
            try:
                expect(eventually(lambda: v.refreshed(1), 40), "the widget never read the feeds")
                time.sleep(3)
                self.seen["daemon-start"] = v.read("before-session")
                before = v.output().count("engram-widget: refreshed")
                t0 = time.monotonic()
                self.world.run_engram("session", "start", "--curriculum", "swift-concurrency")
                # When the widget read the feeds again (its log), then what it drew.
                eventually(lambda: v.output().count("engram-widget: refreshed") > before, 30, 0.05)
                self.seen["session-after"] = time.monotonic() - t0
                path, text, taken = v.wait_text("session", ["Swift Concurrency", "Running", "Pause", "Stop"], 30)
                self.seen["session"] = (path, text)
                self.seen["session-refreshes"] = v.output().count("engram-widget: refreshed")
                self.seen["pause"] = self.click_pause(v)
                self.seen["capture"] = self.capture(v)
                self.seen["open"] = self.open_engram(v)
                self.seen["open-motd"] = self.open_motd(v)
                self.seen["listen"] = self.push_to_talk(v)
                self.seen["daemon-errors"] = v.qml_errors()
            finally:
                v.stop()
            r.check("a session started with `engram session start` appears in the widget (event-driven)", self.session)
            r.check("the widget's Pause button pauses the session", self.paused)
            r.check("the capture field stores what was typed, as typed (quotes, $( ), markup)", self.captured)
            r.check("“Open Engram” starts engram-app", self.opened)
            r.check("a click on the memory of the day opens it in Engram's window", self.opened_motd)
            r.check("Listen records from the microphone, shows Stop listening, and a second click ends it", self.listened)
            r.check("with the daemon running the widget shows no daemon warning", self.daemon_quiet)
            # 3. The panel: the compact view shows the session's time.
            v = self.viewer("panel", formfactor="horizontal")
            try:
                eventually(lambda: v.refreshed(1), 40)
                time.sleep(2)
                self.seen["panel"] = v.read("compact")
            finally:
                v.stop()
            r.check("in a panel the compact view shows the session's time", self.compact)
            self.world.run_engram("session", "stop")
            # 4. No engram on PATH: the widget says Engram is not installed. (In a root the package's engram-feed is
            #    in /usr/bin with everything else: it is moved aside for this run and put back.)
            feed = self.world.host_path("/usr/bin/engram-feed") if self.world.root else None
            env = self.world.env if feed else dict(self.world.env, PATH="/usr/local/bin:/usr/bin:/bin")
            if feed:
                os.rename(feed, feed + ".aside")
            try:
                v = self.viewer("no-engram", env=env)
                try:
                    eventually(lambda: v.refreshed(1), 40)
                    time.sleep(2)
                    self.seen["no-engram"] = v.read("missing")
                    self.seen["no-engram-errors"] = v.qml_errors()
                finally:
                    v.stop()
            finally:
                if feed:
                    os.rename(feed + ".aside", feed)
            r.check("engram not installed: a clear message, not a broken widget", self.missing)
        except Exception as error:
            r.record(False, "the Plasma session", f"{type(error).__name__}: {error}")
        finally:
            if getattr(self, "audio", None):
                self.audio.stop()
            self.world.close()
            r.write()
        return not r.failures

    def find_word(self, v, word, label, last=False):
        """Screen coordinates of the centre of word as tesseract finds it (in a 4× grey copy; the last one found with
        last), or None."""
        path = v.shot(label)
        big = path + ".find.png"
        subprocess.run(["convert", path, "-colorspace", "Gray", "-resize", "400%", "-normalize", big], check=True)
        rows = subprocess.run(["tesseract", big, "-", "tsv"], capture_output=True, text=True).stdout.splitlines()
        found = [((int(cols[6]) + int(cols[8]) // 2) // 4, (int(cols[7]) + int(cols[9]) // 2) // 4)
                 for cols in (line.split("\t") for line in rows[1:]) if len(cols) == 12 and word in cols[11]]
        return (found[-1] if last else found[0]) if found else None

    def click(self, spot):
        subprocess.run(["xdotool", "mousemove", str(spot[0]), str(spot[1]), "click", "1"], env=self.world.env, check=True)

    def display_text_rule(self):
        """The installed widget's clean() (engram.js, under gjs) against Tests/FeedsTests/Golden/display-text.json, the
        cases Swift's DisplayText.clean passes: one rule for display text on every surface."""
        cases_path = os.path.join(shellkit.ROOT, "Tests", "FeedsTests", "Golden", "display-text.json")
        cases = json.load(open(cases_path))
        source = open(os.path.join(self.package, "contents", "ui", "engram.js")).read().replace(".pragma library", "")
        script = os.path.join(OUT, "display-text-check.js")
        with open(script, "w") as f:
            f.write(source + "\nconst cases = " + json.dumps(cases) + ";\n"
                    "print(JSON.stringify(cases.map(c => clean(c.text, !c.keepNewlines))));\n")
        out = subprocess.run(["gjs", script], capture_output=True, text=True, timeout=60)
        expect(out.returncode == 0, f"gjs could not run the widget's engram.js: {out.stderr.strip()[-300:]}")
        got = json.loads(out.stdout)
        wrong = [f"{c['text']!r} → {g!r}, not {c['clean']!r}" for c, g in zip(cases, got) if g != c["clean"]]
        expect(len(got) == len(cases) and not wrong, f"{len(wrong)} of {len(cases)} cases differ: " + "; ".join(wrong[:3]))
        return f"{len(cases)} cases (C0 and C1 controls, DEL, VT, FF, NEL, CR LF, U+2028/9, tabs, bidi controls, markup) as Swift cleans them"

    def push_to_talk(self, v):
        """Clicks Listen, waits for `engram listen` to record from the microphone and the button to say Stop
        listening, then clicks it; returns what was seen at each step."""
        seen = {}
        spot = self.find_word(v, "Listen", "before-listen", last=True)
        if spot is None:
            return {"failed": "OCR found no Listen button"}
        self.click(spot)
        seen["recording"] = self.audio.wait_for_recorder(30)
        self.audio.say(b"", then_silence=60.0)  # a quiet room: nothing ends the recording but the second click
        _, text, _ = v.wait_text("listening", ["Stop listening"], 20)
        seen["lit"] = "stoplistening" in squash(text)
        stop = self.find_word(v, "listening", "stop-listening", last=True)  # the button's (the message says "Listening…")
        if stop is None:
            return dict(seen, failed=f"OCR found no Stop listening button: {text[:200]!r}")
        self.click(stop)
        seen["stopped"] = eventually(lambda: not self.audio.wait_for_recorder(0.2), 20)
        self.audio.clear()
        def out():
            seen["after"] = v.read("listened")[1]
            return "stoplistening" not in squash(seen["after"]) and "listen" in squash(seen["after"])
        eventually(out, 20, 0.5)
        seen["session"] = (self.feed("session").get("session") or {}).get("state")
        return seen

    def listened(self):
        seen = self.seen.get("listen") or {}
        expect("failed" not in seen, seen.get("failed", ""))
        expect(seen.get("recording"), "nothing recorded from the microphone after Listen was clicked (engram listen)")
        expect(seen.get("lit"), "while it recorded, the button did not say Stop listening")
        expect(seen.get("stopped"), "the second click did not end the recording")
        expect("stoplistening" not in squash(seen.get("after", "")), f"the button still says Stop listening: {seen.get('after', '')[:200]!r}")
        expect(seen.get("session") == "paused", f"listening to a quiet room left the session {seen.get('session')!r}, not paused")
        return "Listen → engram listen recorded from the microphone, the button said Stop listening → clicked → it stopped"

    def click_pause(self, v):
        """Clicks the Pause button where OCR found it; returns (session state after, screenshot, text)."""
        spot = self.find_word(v, "Pause", "before-pause")
        if spot is None:
            return None, None, ""
        before = len(re.findall(r"engram-widget: refreshed", v.output()))
        clicked = time.monotonic()
        self.click(spot)
        state = eventually(lambda: json.loads(self.world.run_engram("session", "status", "--json").stdout).get("state")
                           == "paused", 10)
        # The widget reads its feeds again when the command ends; under load that read can take a while.
        shot, text, taken = v.wait_text("paused", ["Paused", "Resume"], 30)
        after = len(re.findall(r"engram-widget: refreshed", v.output()))
        self.seen["pause-timing"] = (f"{taken - clicked:.1f} s after the click; the widget read its feeds "
                                     f"{after - before} times since")
        return state, shot, text

    def capture(self, v):
        """Types CAPTURE into the capture field and presses Enter; returns the newest memory's content (or None)."""
        spot = self.find_word(v, "Remember", "before-capture")
        if spot is None:
            return None
        self.click(spot)
        time.sleep(0.5)
        subprocess.run(["xdotool", "type", "--delay", "30", CAPTURE.replace("PWNED", self.pwned)], env=self.world.env,
                       check=True)
        subprocess.run(["xdotool", "key", "Return"], env=self.world.env, check=True)

        def newest():
            out = self.world.run([os.path.join(self.world.prefix, "bin", "engram-feed"), "recent", "--format", "json",
                                  "--limit", "1"], capture_output=True, text=True).stdout
            memories = json.loads(out).get("memories") or []
            content = memories[0]["content"] if memories else ""
            return content if content.startswith("Plasma capture") else None
        content = eventually(newest, 15)
        # What `engram remember` printed, under the field (the line moves the buttons below it: wait for it).
        _, text, _ = v.wait_text("remembered", ["Remembered", "Plasma capture"], 15)
        return content, text

    def open_engram(self, v):
        """Clicks "Open Engram"; returns the argv engram-app (the world's recorder) was started with, or None."""
        before = len(self.world.launches_seen())
        spot = self.find_word(v, "Open", "before-open")
        if spot is None:
            return "no button"
        self.click(spot)
        ok = eventually(lambda: len(self.world.launches_seen()) > before, 10)
        return self.world.launches_seen()[-1]["argv"] if ok else None

    def open_motd(self, v):
        """Clicks the memory of the day's first word; returns engram-app's argv, or None."""
        memory = self.feed("motd")["memory"]
        word = re.findall(r"[A-Za-z]{4,}", memory["content"])[0]
        before = len(self.world.launches_seen())
        spot = self.find_word(v, word, "before-motd")
        if spot is None:
            return "no word"
        self.click(spot)
        ok = eventually(lambda: len(self.world.launches_seen()) > before, 10)
        return (memory["id"], self.world.launches_seen()[-1]["argv"] if ok else None)

    # ------------------------------------------------------------------ checks

    def installed(self):
        if self.generation == 6:
            main = open(os.path.join(self.package, "contents", "ui", "main.qml")).read()
            expect(main == open(os.path.join(SOURCE, "contents", "ui", "main.qml")).read() and "PlasmoidItem {" in main,
                   "the package's postinst did not install main.qml (PlasmoidItem) for Plasma 6")
            return f"{self.package} (Plasma 6 root, made by the package's postinst)"
        main = open(os.path.join(self.package, "contents", "ui", "main.qml")).read()
        want = open(os.path.join(SOURCE, "contents", "ui", "main5.qml")).read()
        expect(main == want, "the installed contents/ui/main.qml is not main5.qml")
        expect(not os.path.exists(os.path.join(self.package, "contents", "ui", "main5.qml")), "main5.qml installed too")
        meta = json.load(open(os.path.join(self.package, "metadata.json")))
        expect(meta["KPlugin"]["Id"] == APPLET and meta["KPackageStructure"] == "Plasma/Applet", f"metadata: {meta}")
        # The generator's other branch: Plasma 6 keeps main.qml (PlasmoidItem).
        six = os.path.join(self.world.base, "plasma6-package")
        out = subprocess.run([os.path.join(shellkit.ROOT, "Desktop", "plasma", "install-plasmoid.sh"), SOURCE, six, "6"],
                             capture_output=True, text=True)
        expect(out.returncode == 0 and out.stdout.strip() == "6", f"install-plasmoid.sh 6: {out.stderr.strip()}")
        expect("PlasmoidItem {" in open(os.path.join(six, "contents", "ui", "main.qml")).read(),
               "the Plasma 6 package's main.qml is not the PlasmoidItem root")
        return f"{self.package} (Plasma 5 root); the Plasma 6 variant keeps PlasmoidItem"

    def loads(self):
        expect(self.seen.get("no-daemon-ok"), "the widget never printed that it read the feeds (see plasmoidviewer-no-daemon.log)")
        errors = self.seen["no-daemon-errors"]
        expect(not errors, f"QML errors about the widget: {errors[:3]}")
        return "no QML error mentions the widget's files; it read the feeds"

    def content(self):
        path, text = self.seen["no-daemon"]
        stats = self.feed("stats")["stats"]
        today = f"{stats['today']} memories captured today"
        lines = [l for l in text.splitlines() if "captured today" in l]   # OCR may misread "memories"
        expect(lines and all(l.strip().startswith(f"{stats['today']} ") for l in lines),
               f"OCR did not read {today!r}: {lines or text[:300]!r}")
        memory = self.feed("motd")["memory"]
        words = [w for w in re.findall(r"[A-Za-z]{4,}", memory["content"])][:4]
        expect(words and all(squash(w) in squash(text) for w in words),
               f"the memory of the day ({memory['content'][:60]!r}) is not read back: {words}")
        expect("memoryoftheday" in squash(text), "no 'Memory of the day' heading")
        return f"“{today}”; memory of the day {memory['id']}: {' '.join(words)} …"

    def hostile(self):
        path, text = self.seen["no-daemon"]
        line = next((l for l in text.splitlines() if "Hostile" in l or "exec" in l), "")
        for piece in ["<b>Hostile</b>", "${exec", "%{F#f00}red"]:
            expect(squash(piece) in squash(line), f"{piece!r} not read in the line {line!r}")
        return f"read: {line.strip()!r}"

    def no_daemon(self):
        path, text = self.seen["no-daemon"]
        expect("daemonisnotrunning" in squash(text), f"no daemon message read: {text[:200]!r}")
        return "“Engram's daemon is not running: … Start it: systemctl --user enable --now engram.service”"

    def session(self):
        path, text = self.seen["session"]
        for w in ["Swift Concurrency", "Running", "Pause", "Stop"]:
            expect(squash(w) in squash(text), f"{w!r} not read {self.seen['session-after']:.0f} s after "
                                              f"`engram session start`: {text[:300]!r}")
        title = self.feed("session")["session"]["title"]
        expect(squash(title) in squash(text), f"the session's title {title!r} is not read")
        # The watcher's timer is 600 s with the daemon: only the daemon's PropertiesChanged can bring it this soon.
        expect(self.seen["session-after"] < 10, f"the widget read the feeds again only {self.seen['session-after']:.0f} s later")
        if self.update_screenshots:
            dest = os.path.join(shellkit.ROOT, "Desktop", "screenshots", f"plasma-{self.generation}-widget.png")
            shutil.copy(path, dest)
        return f"“{title}” running; the widget re-read the feeds {self.seen['session-after']:.1f} s after the command (its watcher's timer is 600 s)"

    def paused(self):
        state, path, text = self.seen["pause"]
        expect(state is not None, "OCR found no Pause button to click")
        expect(state, "`engram session status` does not say paused after the click")
        expect("paused" in squash(text) and "resume" in squash(text),
               f"the widget does not show Paused/Resume ({self.seen.get('pause-timing')}): {text[:200]!r}")
        return f"clicked Pause → `engram session pause` → the widget shows ‖ Paused and Resume ({self.seen.get('pause-timing')})"

    def captured(self):
        content, text = self.seen["capture"] or (None, "")
        want = CAPTURE.replace("PWNED", self.pwned)
        expect(content is not None, "no memory starting 'Plasma capture' was stored after typing into the field")
        expect(content == want, f"stored {content!r}, typed {want!r}")
        expect(not os.path.exists(self.pwned), f"{self.pwned} exists: the typed $( ) ran")
        line = next((l for l in text.splitlines() if "Remembered" in l), None)
        expect(line, f"the widget does not show what `engram remember` said: {text[:200]!r}")
        return f"stored {content!r}; the widget says {line.strip()!r}"

    def opened(self):
        argv = self.seen["open"]
        expect(argv != "no button", "OCR found no Open Engram button")
        expect(argv is not None, "engram-app was not started")
        expect(argv == [], f"engram-app was started with {argv}")
        return "engram-app started (no arguments: the window)"

    def opened_motd(self):
        seen = self.seen["open-motd"]
        expect(seen != "no word", "OCR did not find the memory of the day to click")
        memory_id, argv = seen
        expect(argv == [f"engram://memory/{memory_id}"], f"engram-app was started with {argv}")
        return f"engram-app engram://memory/{memory_id}"

    def daemon_quiet(self):
        path, text = self.seen["daemon-start"]
        expect("daemonisnotrunning" not in squash(text), "the daemon runs but the widget says it does not")
        errors = self.seen["daemon-errors"]
        expect(not errors, f"QML errors: {errors[:3]}")
        return "no warning, no QML error"

    def compact(self):
        path, text = self.seen["panel"]
        expect(re.search(r"\d+:\d\d", text), f"no time read in the panel: {text!r}")
        return f"read {text.strip()!r}"

    def missing(self):
        path, text = self.seen["no-engram"]
        expect("engramisnotinstalled" in squash(text), f"no 'Engram is not installed' message: {text[:200]!r}")
        expect("learningsession" not in squash(text), "the empty sections are drawn anyway")
        expect(not self.seen["no-engram-errors"], f"QML errors: {self.seen['no-engram-errors'][:3]}")
        return f"read: {' '.join(text.split())[:90]!r}"


if __name__ == "__main__":
    args = sys.argv[1:]
    breakage = args[args.index("--break") + 1] if "--break" in args else None
    if breakage and breakage not in BREAKS:
        sys.exit(f"--break: one of {', '.join(BREAKS)}")
    ok = Suite("--screenshots" in args, breakage, shellkit.root_from_argv(args)).run()
    sys.exit(0 if ok else 1)
