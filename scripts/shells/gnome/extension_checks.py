"""The extension's checks: each a function of an indicator.Context, returning what it saw (a sentence) or raising
Failed with what was wrong. INSTALLED run before the shell starts (on what scripts/install.sh or the package
installed); CHECKS in order on the started shell, the daemon not running at first (the third check starts it).
They name no host path: files are reached through ctx.host(), programs through ctx.run() (inside a root, if any).
"""

import importlib.util
import json
import os
import re
import shutil
import time
from datetime import datetime, timedelta, timezone

from shells import shellkit
from shells.gnome.indicator import (LEGACY_UUID, MODERN_UUID, RETURN_JS, STATES, all_labels, elapsed_seconds,
                                   enable)
from shells.shellkit import Failed, eventually, expect

CURRICULUM = "swift-concurrency"
HOSTILE_MOTD = "Motd <b>not bold</b> & <i>x</i> ${exec touch /tmp/engram-ext-pwned} %{F#f00}red%{F-} zebrahostile"
HOSTILE_FADING = 'Fading <span foreground="red">red</span> &amp; ${exec touch /tmp/engram-ext-pwned} %{B#00f}blue zebrahostile'
HOSTILE_CAPTURE = "Typed <b>bold</b> & ${exec touch /tmp/engram-ext-pwned} %{F#f00} zebracapture"


def first_line(text, limit=160):
    """The row the menu draws for a memory, as session.js's firstLine() writes it: the first line that is not blank,
    and past `limit` characters cut at the last space (when that keeps more than half) with "…". Which memory is the
    memory of the day depends on the day, so the checks must expect the shortened form of a long one. Lengths count
    UTF-16 code units, as JavaScript's do (an emoji is two), so a memory with one is cut where the extension cuts it."""
    line = next((l for l in str(text or "").split("\n") if l.strip()), "")
    units = line.encode("utf-16-le", "surrogatepass")
    if len(units) // 2 <= limit:
        return line
    spaces = [i // 2 for i in range(0, min(len(units), 2 * limit + 2), 2) if units[i:i + 2] == b" \x00"]
    cut = spaces[-1] if spaces else -1
    end = cut if cut > limit / 2 else limit
    return units[:2 * end].decode("utf-16-le", "surrogatepass") + "…"


def legacy_generator(ctx):
    """scripts/gnome-extension-legacy.py: each ES-module form becomes its legacy form, an unknown one stops it,
    and what scripts/install.sh installed for 43–44 is its output with no import or export left."""
    spec = importlib.util.spec_from_file_location("legacy", os.path.join(shellkit.ROOT, "scripts", "gnome-extension-legacy.py"))
    legacy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(legacy)
    source = "\n".join([
        "import St from 'gi://St';",
        "import * as Main from 'resource:///org/gnome/shell/ui/main.js';",
        "import {PopupMenuItem} from 'resource:///org/gnome/shell/ui/popupMenu.js';",
        "import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';",
        "import {EngramClient} from './client.js';",
        "export const A = 1;",
        "export function f() {}",
        "export class C {",
        "    m() {}",
        "}",
        "export default class E extends Extension {",
        "}",
    ])
    out = legacy.convert(source)
    for want in ("const St = imports.gi.St;", "const Main = imports.ui.main;",
                 "const {PopupMenuItem} = imports.ui.popupMenu;", "class Extension {",
                 "const {EngramClient} = imports.misc.extensionUtils.getCurrentExtension().imports.client;",
                 "var A = 1;", "\nfunction f() {}", "var C = class C {\n    m() {}\n};",
                 "var E = class E extends Extension {\n};", "function init(extension) {"):
        expect(want in out, f"the generator's output lacks {want!r}:\n{out}")
    try:
        legacy.convert("export {A};")
        raise Failed("the generator passed `export {A};` through instead of stopping")
    except legacy.Unsupported:
        pass
    folder = ctx.host(ctx.extension_dir(LEGACY_UUID))
    meta = json.load(open(os.path.join(folder, "metadata.json")))
    expect(meta["uuid"] == LEGACY_UUID and meta["shell-version"] == ["43", "44"], f"the legacy metadata is {meta}")
    left = [f"{n}: {l}" for n in os.listdir(folder) if n.endswith(".js")
            for l in open(os.path.join(folder, n)) if re.match(r"(import|export)\b", l)]
    expect(not left, f"the installed legacy variant still has {left}")
    return f"every form converted, `export {{A}}` refused; {LEGACY_UUID} installed for {meta['shell-version']}"


SESSION_JS = """
import {elapsedSeconds, firstLine, formatElapsed, parseSession} from '%s';
const now = Date.parse('2026-11-27T10:00:00Z');
const running = parseSession('{"id":"x","state":"running","elapsed_seconds":60,"resumed":"2026-11-27T09:59:55Z"}');
const paused = parseSession('{"id":"x","state":"paused","elapsed_seconds":3723,"resumed":null}');
print(JSON.stringify([formatElapsed(elapsedSeconds(running, now)), formatElapsed(elapsedSeconds(paused, now)),
    parseSession(''), parseSession('{oops'), formatElapsed(0), firstLine('a\\nb'), firstLine('word '.repeat(50), 20)]));
"""


def modules_parse(ctx):
    """Both variants' files parse under gjs (ES modules with -m, the legacy ones as scripts: imports of the shell's
    own modules cannot resolve outside it, a syntax error can), and session.js's arithmetic holds."""
    broken = []
    for uuid, flags in ((MODERN_UUID, ["-m"]), (LEGACY_UUID, [])):
        for name in sorted(n for n in os.listdir(ctx.host(ctx.extension_dir(uuid))) if n.endswith(".js")):
            out = ctx.run(["gjs", *flags, os.path.join(ctx.extension_dir(uuid), name)])
            if "SyntaxError" in out.stderr or "Failed to parse" in out.stderr:
                broken.append(f"{uuid}/{name}: " + next(l for l in out.stderr.splitlines() if "rror" in l))
    expect(not broken, "gjs cannot parse " + "; ".join(broken))
    script = os.path.join(ctx.world.base, "session-test.mjs")
    with open(script, "w") as f:
        f.write(SESSION_JS % ("file://" + os.path.join(ctx.extension_dir(MODERN_UUID), "session.js")))
    out = ctx.run(["gjs", "-m", script])
    got = json.loads(out.stdout or "null")
    want = ["1:05", "1:02:03", None, None, "0:00", "a", "word word word word…"]
    expect(got == want, f"session.js computes {got}, not {want} ({out.stderr.strip()[:200]})")
    return f"every file of both variants parses; session.js: {got[:2]}"


def enabled_and_in_the_panel(ctx):
    """gnome-extensions enable: this shell's variant ENABLED without error, its button in the top bar; the other
    generation's variant is installed too and left alone (OUT_OF_DATE, no error)."""
    other = MODERN_UUID if ctx.uuid == LEGACY_UUID else LEGACY_UUID
    states = lambda: ctx.shell.eval(f"""(() => JSON.stringify(['{ctx.uuid}', '{other}'].map(u => {{
        const e = Main.extensionManager.lookup(u);
        return e ? {{uuid: u, state: e.state, error: e.error || '', path: e.path}} : {{uuid: u, state: null}}; }})))()""")
    eventually(lambda: states()[0]["state"] == 1, 5)
    mine, theirs = states()
    expect(mine["state"] == 1 and not mine["error"],
           f"{ctx.uuid} is {STATES.get(mine['state'], mine['state'])} with error {mine.get('error')!r}")
    expect(mine["path"].startswith(ctx.world.prefix),
           f"{ctx.uuid} was loaded from {mine['path']}, not the prefix scripts/install.sh wrote")
    expect(theirs["state"] == 4 and not theirs["error"],
           f"{other} (the other generation) is {STATES.get(theirs['state'], theirs['state'])}, "
           f"error {theirs.get('error')!r}; it should be OUT_OF_DATE here")
    ind = ctx.indicator()
    expect(ind is not None, f"Main.panel.statusArea has no '{ctx.uuid}'")
    expect(ind["mappedInPanel"], "the indicator's button is not shown in the top bar")
    expect(ind["iconNames"][:1] == ["org.engram.Engram-symbolic"], f"the button's icon is {ind['iconNames']}")
    return (f"{ctx.uuid} ENABLED from {mine['path']}; {other} OUT_OF_DATE; button in the top bar, "
            f"icon {ind['iconNames'][0]}")


def offline_without_the_daemon(ctx):
    """Before the daemon ever ran: a dimmed icon and one 'not running' row; no timer, no content rows."""
    expect(not ctx.daemon_running(), "the daemon is already running (something started it)")
    ind = ctx.indicator()
    expect(ind["offline"] and ind["iconOpacity"] < 255, f"the icon is not dimmed (opacity {ind['iconOpacity']})")
    expect(not ind["elapsed"]["visible"], f"a timer shows without a session: {ind['elapsed']['text']!r}")
    expect(not ind["ticking"], "a one-second tick runs without a session")
    ctx.open_menu()
    shown = [r["name"] for r in ctx.indicator()["rows"] if r["visible"]]
    ctx.close_menu()
    expect(ctx.text("engram-offline") == "Engram is not running — start it",
           f"the not-running row reads {ctx.text('engram-offline')!r}")
    expect(not any(n in shown for n in ("engram-today", "engram-motd", "engram-capture", "engram-session")),
           f"rows needing the daemon are shown: {shown}")
    expect(not ctx.daemon_running(), "opening the menu started the daemon")
    return f"icon opacity {ind['iconOpacity']}, menu: {shown}"


def comes_alive_when_the_daemon_starts(ctx):
    ctx.start_daemon()
    ind = eventually(lambda: (lambda i: i if not i["offline"] and i["iconOpacity"] == 255 else None)(ctx.indicator()), 5)
    expect(ind, f"the indicator stayed offline after the daemon took its name: {ctx.indicator()}")
    total = ctx.prop("MemoryCount")
    expect(eventually(lambda: f"{total} memories" in (ctx.text("engram-today") or ""), 5),
           f"the today row reads {ctx.text('engram-today')!r}, not MemoryCount {total}")
    return f"alive; today row: {ctx.text('engram-today')!r}"


def menu_reads_back(ctx):
    """Today's count, memory of the day, what fades, the capture entry and Open Engram, as the daemon says them."""
    today, total = ctx.prop("TodayCount"), ctx.prop("MemoryCount")
    motd = ctx.motd()
    _, review = ctx.intent("DailyReview", (3,), "(i)")
    want_fading = [first_line(i["title"]) for i in review["items"]]
    ctx.open_menu()
    want_motd = first_line(motd["memory"]["title"] if motd["memory"] else motd["message"])
    seen = eventually(lambda: ctx.text("engram-motd") == want_motd and
                      [r["labels"][0]["text"] for r in ctx.rows("engram-fading")] == want_fading, 10)
    ind = ctx.indicator()
    texts = {r["name"]: [l["text"] for l in r["labels"]] for r in ind["rows"] if r["visible"]}
    expect(seen, f"the menu shows motd {ctx.text('engram-motd')!r} and fading "
                 f"{[r['labels'][0]['text'] for r in ctx.rows('engram-fading')]}; engram-feed says {want_motd!r}, "
                 f"DailyReview {want_fading}")
    expect(texts.get("engram-today", [""])[0].startswith(f"Today: {today} captured · {total} memories"),
           f"the today row reads {texts.get('engram-today')}, the daemon says {today} today of {total}")
    expect("engram-capture" in texts and "Remember…" in texts["engram-capture"],
           f"no capture entry with its hint: {texts.get('engram-capture')}")
    expect(texts.get("engram-open") == ["Open Engram"], f"the Open row reads {texts.get('engram-open')}")
    expect(not ctx.rows("engram-offline"), "the not-running row still shows")
    launches = len(ctx.world.launches_seen())
    ctx.activate("engram-open")
    expect(eventually(lambda: len(ctx.world.launches_seen()) == launches + 1, 10),
           "Open Engram did not start engram-app")
    return (f"today {texts['engram-today'][0]!r}; motd {want_motd[:40]!r}…; {len(want_fading)} fading; "
            f"entry; Open Engram started engram-app")


def session_timer_ticks(ctx):
    """A session started elsewhere (the CLI) shows its timer within a second, and it ticks."""
    t0 = time.monotonic()
    ctx.run_engram("session", "start", "--curriculum", CURRICULUM)
    started = time.monotonic()

    def timer():
        e = ctx.indicator()["elapsed"]
        return e if e["visible"] and elapsed_seconds(e["text"]) is not None else None
    first = eventually(timer, 5, 0.05)
    shown = time.monotonic() - started
    expect(first, f"no timer in the top bar 5 s after `engram session start`: {ctx.indicator()['elapsed']}")
    expect(shown <= 1.0, f"the timer showed {shown:.2f} s after `engram session start` returned (more than 1 s)")
    a = elapsed_seconds(first["text"])
    time.sleep(2.2)
    b = elapsed_seconds(ctx.indicator()["elapsed"]["text"])
    expect(b is not None and 1 <= b - a <= 4, f"the timer went from {a} to {b} s in 2.2 s")
    expect(ctx.indicator()["ticking"], "no tick source while the session runs")
    session = ctx.session()
    ctx.open_menu()
    title = ctx.text("engram-session")
    rows = {r["name"] for r in ctx.indicator()["rows"] if r["visible"]}
    expect(title == session["title"], f"the menu's session row reads {title!r}, the session is {session['title']!r}")
    expect({"engram-pause", "engram-stop"} <= rows and "engram-resume" not in rows,
           f"a running session's menu shows {sorted(r for r in rows if r.startswith(('engram-p', 'engram-r', 'engram-s')))}")
    path = ctx.screenshot("menu-session.png")
    if ctx.update_screenshots:
        dest = os.path.join(shellkit.ROOT, "Desktop", "screenshots",
                            f"gnome-{ctx.shell_version.split('.')[0]}-extension.png")
        shutil.copy(path, dest)
    ctx.close_menu()
    return (f"timer {first['text']} {shown * 1000:.0f} ms after the CLI returned ({started - t0:.1f} s to run it); "
            f"{a} → {b} s in 2.2 s; row {title!r}")


def pause_resume_stop_from_the_menu(ctx):
    ctx.open_menu()
    ctx.activate("engram-pause")
    expect(eventually(lambda: (ctx.session() or {}).get("state") == "paused", 10),
           f"Pause from the menu left the session {(ctx.session() or {}).get('state')}")
    prop = json.loads(ctx.prop("ActiveSession") or "null")
    expect(prop and prop["state"] == "paused", f"ActiveSession says {prop}")
    expect(eventually(lambda: ctx.indicator()["paused"], 5), "the button does not show the pause icon")
    a = ctx.indicator()["elapsed"]["text"]
    time.sleep(1.5)
    b = ctx.indicator()["elapsed"]["text"]
    expect(a == b, f"the paused timer still moves: {a!r} → {b!r}")
    expect(not ctx.indicator()["ticking"], "the one-second tick still runs while the session is paused")
    ctx.screenshot("button-paused.png")
    ctx.open_menu()
    expect(ctx.rows("engram-resume") and not ctx.rows("engram-pause"), "a paused session's menu offers no Resume")
    ctx.activate("engram-resume")
    expect(eventually(lambda: (ctx.session() or {}).get("state") == "running", 10), "Resume from the menu did not resume")
    expect(eventually(lambda: not ctx.indicator()["paused"] and ctx.indicator()["ticking"], 5),
           "resumed, the button still shows the pause (or does not tick)")
    ctx.open_menu()
    ctx.activate("engram-stop")
    expect(eventually(lambda: ctx.session() is None and ctx.prop("ActiveSession") == "", 10),
           f"Stop from the menu left {ctx.session()}")
    expect(eventually(lambda: not ctx.indicator()["elapsed"]["visible"], 5), "the timer stayed in the top bar")
    expect(not ctx.indicator()["ticking"], "the one-second tick still runs after Stop")
    return f"paused at {a} (held 1.5 s), resumed, stopped; the timer left the top bar"


def hostile_text_is_shown_literally(ctx):
    """Markup, ${exec} and %{…} in the memory of the day, the fading list and a capture: shown as typed."""
    old = lambda days: (datetime.now(timezone.utc) - timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")
    path = os.path.join(ctx.world.base, "hostile.jsonl")
    with open(path, "w") as f:
        for mid, text, kind, days in (("h001", HOSTILE_MOTD, "note", 68), ("h002", HOSTILE_FADING, "idea", 66)):
            f.write(json.dumps({"kind": "memory", "id": mid, "content": text, "type": kind, "tags": [],
                                "context": "hostile", "created": old(days), "updated": old(days),
                                "lastReinforced": old(days), "useCount": 0, "pinned": False, "source": "test"}) + "\n")
    ctx.run_engram("import", path)
    ctx.run_engram("context", "set", "hostile")
    try:
        ctx.open_menu()
        want = {HOSTILE_MOTD, HOSTILE_FADING}
        seen = eventually(lambda: ctx.text("engram-motd") in want and
                          {r["labels"][0]["text"] for r in ctx.rows("engram-fading")} == want, 15)
        fading = [r["labels"][0]["text"] for r in ctx.rows("engram-fading")]
        expect(seen, f"in the hostile context the menu shows motd {ctx.text('engram-motd')!r}, fading {fading}")
        motd = ctx.text("engram-motd")
        capture(ctx, HOSTILE_CAPTURE)
        status = ctx.text("engram-capture-status")
        # The daemon's sentence quotes the start of the memory ("Remembered “Typed <b>bold</b> & ${exec…”.").
        quoted = re.search(r"“(.*?)…?”", status or "")
        expect(quoted and len(quoted.group(1)) >= 40 and HOSTILE_CAPTURE.startswith(quoted.group(1)),
               f"the capture's sentence reads {status!r}, not the typed {HOSTILE_CAPTURE!r}")
        stored = ctx.run_engram("search", "--json", "zebracapture").stdout
        expect(json.dumps(HOSTILE_CAPTURE)[1:-1] in stored, f"the typed text was stored otherwise: {stored[:300]}")
        ind = ctx.indicator()
        marked = [l["text"] for l in all_labels(ind) if l["markup"]]
        expect(not marked, f"labels with markup on: {marked}")
        expect(not os.path.exists(ctx.host("/tmp/engram-ext-pwned")), "something ran the ${exec …} in the text")
        shot = ctx.screenshot("menu-hostile.png")
    finally:
        ctx.close_menu()
        ctx.run_engram("context", "clear")
    return f"motd {motd[:30]!r}…, both fading rows and the capture sentence as typed; no markup ({os.path.basename(shot)})"


def sleep_context_shows_no_memory(ctx):
    """`engram context set sleep`: the menu shows no memory (the memory of the day and the fading list empty)."""
    motd = ctx.motd()["memory"]
    _, review = ctx.intent("DailyReview", (3,), "(i)")
    awake = [first_line(motd["title"])] + [first_line(i["title"]) for i in review["items"]]
    ctx.open_menu()
    expect(eventually(lambda: ctx.text("engram-motd") == awake[0], 10), "the memory of the day is not shown awake")
    ctx.run_engram("context", "set", "sleep")
    try:
        quiet = eventually(lambda: ctx.text("engram-motd") != awake[0] and not ctx.rows("engram-fading"), 10)
        shown = [l["text"] for l in all_labels(ctx.indicator(), visible_only=True) if l["text"]]
        expect(quiet, f"asleep, the menu still shows {shown}")
        leaked = [t for t in shown if any(a[:40] in t for a in awake)]
        expect(not leaked, f"asleep, the menu shows memories: {leaked}")
        detail = f"motd row {ctx.text('engram-motd')!r}, fading {ctx.text('engram-fading-none')!r}"
    finally:
        ctx.run_engram("context", "clear")
    expect(eventually(lambda: ctx.text("engram-motd") == awake[0], 10), "the memory of the day did not come back")
    ctx.close_menu()
    return detail + "; back after `engram context clear`"


def capture(ctx, text):
    """Clicks into the entry, types text with the virtual keyboard and presses Enter; waits for the sentence."""
    ctx.open_menu()
    before = ctx.text("engram-capture-status")
    ctx.actor("engram-capture", "a.grab_key_focus(); return 'focused';")
    ctx.shell.type(text)
    typed = eventually(lambda: (ctx.rows("engram-capture") or [{}])[0].get("entry") == text, 5)
    expect(typed, f"the entry shows {(ctx.rows('engram-capture') or [{}])[0].get('entry')!r}, not the typed {text!r}")
    ctx.shell.eval(RETURN_JS)
    expect(eventually(lambda: ctx.text("engram-capture-status") not in (None, before), 10),
           "no sentence after Enter in the capture entry")
    entry = ctx.rows("engram-capture")[0]["entry"]
    expect(entry == "", f"the entry still holds {entry!r} after the capture")


def capture_stores_a_memory(ctx):
    text = "Kombucha second ferment zebraentry: a thumb of ginger per bottle"
    before = ctx.prop("MemoryCount")
    capture(ctx, text)
    status = ctx.text("engram-capture-status")
    ctx.close_menu()
    found = ctx.run_engram("search", "--json", "zebraentry")
    hits = json.loads(found.stdout)
    items = hits.get("results", hits) if isinstance(hits, dict) else hits
    expect(any(text in json.dumps(i, ensure_ascii=False) for i in items),
           f"`engram search zebraentry` does not find the captured memory: {found.stdout[:300]}")
    expect(eventually(lambda: ctx.prop("MemoryCount") == before + 1, 5), "MemoryCount did not grow by one")
    return f"{status!r}; found by `engram search`"


def daemon_stops_and_restarts(ctx):
    """The daemon stopped: offline, no errors; started again from the menu's own row: alive again."""
    ctx.stop_daemon()
    ind = eventually(lambda: (lambda i: i if i["offline"] else None)(ctx.indicator()), 5)
    expect(ind, "the indicator did not notice the daemon went away")
    expect(ind["iconOpacity"] < 255, f"the icon is not dimmed (opacity {ind['iconOpacity']})")
    dimmed = ind["iconOpacity"]
    ctx.open_menu()
    expect(ctx.rows("engram-offline") and not ctx.rows("engram-today") and not ctx.rows("engram-capture"),
           f"offline, the menu shows {[r['name'] for r in ctx.indicator()['rows'] if r['visible']]}")
    ctx.activate("engram-offline")  # D-Bus activation through the installed service file
    expect(eventually(ctx.daemon_running, 30), "the 'start it' row did not start the daemon")
    ind = eventually(lambda: (lambda i: i if not i["offline"] and i["iconOpacity"] == 255 else None)(ctx.indicator()), 5)
    expect(ind, "the indicator stayed offline after the daemon came back")
    ctx.open_menu()
    expect(eventually(lambda: ctx.rows("engram-today") and ctx.rows("engram-motd") and not ctx.rows("engram-offline"), 5),
           "the menu did not come back with the daemon")
    ctx.close_menu()
    return f"offline (icon opacity {dimmed}, the 'not running' row), started from that row, alive again"


def disabling_removes_the_button(ctx):
    out = ctx.run(["gnome-extensions", "disable", ctx.uuid], env=ctx.shell.env)
    expect(out.returncode == 0, f"gnome-extensions disable: {out.stderr.strip()}")
    expect(eventually(lambda: ctx.shell.eval(f"!Main.panel.statusArea['{ctx.uuid}']"), 5),
           "the button stayed in the top bar after disabling")
    enable(ctx)
    expect(eventually(lambda: ctx.indicator() is not None, 5), "the button did not come back")
    return "gone when disabled, back when enabled"


# Before the shell starts: what scripts/install.sh installed.
INSTALLED = [
    ("the legacy variant is generated from the ES modules", legacy_generator),
    ("both variants parse under gjs; the session's elapsed time is computed right", modules_parse),
]
def push_to_talk_from_the_menu(ctx):
    """Listen in the menu: the daemon starts `engram listen`, which records from the audio server's microphone; the
    top bar's microphone is lit and the row says Stop listening until a second press ends it."""
    audio = ctx.notes["audio"]
    ctx.open_menu()
    expect(eventually(lambda: ctx.text("engram-listen") == "Listen", 5), f"the menu's row reads {ctx.text('engram-listen')!r}, not Listen")
    expect(not ctx.indicator()["listening"], "the top bar's microphone is lit before anything listens")
    ctx.activate("engram-listen")
    expect(audio.wait_for_recorder(20), "nothing recorded from the microphone after Listen (engram listen, started by the daemon)")
    audio.say(b"", then_silence=60.0)  # a quiet room: no speech, nothing to end the recording but the second press
    expect(eventually(lambda: ctx.indicator()["listening"] and ctx.prop("Listening"), 10),
           f"while it records, the top bar's microphone is {'lit' if ctx.indicator()['listening'] else 'out'} and Listening is {ctx.prop('Listening')}")
    ctx.screenshot("button-listening.png")
    ctx.open_menu()
    expect(eventually(lambda: ctx.text("engram-listen") == "Stop listening", 5), f"the row reads {ctx.text('engram-listen')!r} while listening")
    ctx.activate("engram-listen")
    expect(eventually(lambda: not ctx.indicator()["listening"] and not ctx.prop("Listening"), 15),
           "the second press did not end listening: the microphone is still lit")
    expect(eventually(lambda: not audio.wait_for_recorder(0.2), 10), "something still records from the microphone")
    audio.clear()
    ctx.open_menu()
    expect(eventually(lambda: ctx.text("engram-listen") == "Listen", 5), f"after it stopped, the row reads {ctx.text('engram-listen')!r}")
    expect(not ctx.rows("engram-listen-status"), f"the menu shows a refusal: {ctx.text('engram-listen-status')!r}")
    ctx.close_menu()
    return "Listen started engram listen through the daemon (recording from the microphone), the top bar lit; the second press ended it"


CHECKS = [
    ("enabled: its state ENABLED without error, its button in the top bar", enabled_and_in_the_panel),
    ("without the daemon: dimmed, 'not running', nothing broken", offline_without_the_daemon),
    ("the daemon starts: the indicator comes alive", comes_alive_when_the_daemon_starts),
    ("the menu reads back today's count, memory of the day, fading, entry, Open Engram", menu_reads_back),
    ("a session started with the CLI shows its timer within a second, ticking", session_timer_ticks),
    ("Pause, Resume and Stop from the menu act on the session", pause_resume_stop_from_the_menu),
    ("push-to-talk from the menu: lit in the top bar while it listens, ended by a second press", push_to_talk_from_the_menu),
    ("the sleep context shows no memory in the menu", sleep_context_shows_no_memory),
    ("markup, ${exec} and %{…} in memories and captures are shown literally", hostile_text_is_shown_literally),
    ("the capture entry stores a memory (engram search finds it)", capture_stores_a_memory),
    ("the daemon stopped then started again: offline, then alive", daemon_stops_and_restarts),
    ("disabled and enabled again", disabling_removes_the_button),
]
