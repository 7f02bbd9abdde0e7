#!/usr/bin/python3
"""Part 5 of `make stress`: one corpus of hostile memories through every sink, on a private session bus.

The corpus: Pango markup, entities, Conky `${exec …}` and `$var`, `#`, polybar `%{A1:…:}`, control characters
(\\x1f, ESC, CR, and NUL and invalid UTF-8, which must be refused), rofi separators, newlines, very long text, RTL
overrides, emoji, shell metacharacters, JSON breakers. It goes in through `engram import`, `engram remember`, D-Bus
Remember, `engram capture` and engram://remember links, and out through every feed format of `engram-feed` and
`engram feed`, notification bodies (python-dbusmock's notification daemon), GNOME Shell metas, KRunner matches,
the rofi script mode, links, and export/import. Checks: no marker file was created (nothing ran); each consumer's
syntax holds (JSON parses, one line per record, Pango markup parses and carries no injected element, Conky's `$`
and `#` escaped, polybar has no `%{`, rofi rows have one `\\0` and known keys, no ESC reaches a terminal); the text
is shown literally; export → import → export gives the same bytes.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import xml.etree.ElementTree as ET

import samples

import dbus

from stress.lib.stresslib import DEADLINE, fail, figure, finish, require_name, stop

ENGRAM = os.environ["ENGRAM"]
FEED = os.environ.get("ENGRAM_FEED") or os.path.join(os.path.dirname(ENGRAM), "engram-feed")
from engramtest import ROOT  # noqa: E402
OUT = os.environ.get("STRESS_OUT") or tempfile.mkdtemp(prefix="stress-5-")
counts = {}

tmp = tempfile.mkdtemp(prefix="engram-stress5-")
PWN = f"{tmp}/pwned"  # every payload tries to create a file here


def count(key, n=1):
    counts[key] = counts.get(key, 0) + n


HOSTILE = [
    "<b>HB1 bold</b> &amp; & <span foreground='red' size='99999'>HS1 span</span> <i>unclosed",
    f"Conky ${{exec touch {PWN}-conky}} and ${{execi 1 touch {PWN}-conkyi}} $HOME $var ${{color red}}HC1 # not a comment",
    f"polybar %{{A1:touch {PWN}-polybar:}}HP1 click%{{A}} %{{F#f00}}red%{{F-}} %%{{T2}}",
    "Unit separator \x1f and record separator \x1e and bell \x07 and vertical tab \x0b HU1",
    "Terminal \x1b[31mred\x1b[0m \x1b]0;owned title\x07 \x1b[2J HE1",
    "rofi row\x00icon\x1fdialog-warning\x1finfo\x1f:pin:s001 HR1",
    "Line one HN1\nline two\n\nline four\r\nline five\u2028line six\u2029end",
    "RTL \u202eexe.txt\u202c and Hebrew שלום and Arabic مرحبا HT1",
    "Emoji 🧠👩‍👩‍👧‍👦🏳️‍🌈 and combining e\u0301\u0301 and ZWJ \u200d HJ1",
    f"Shell `touch {PWN}-backtick`; $(touch {PWN}-dollar) | rm -rf ~ && echo > {PWN}-redirect 'q' \"dq\" \\ HM1",
    '"}, {"text": "injected", "class": "x"} ] HJSON1 \\" \\\\ \u2028',
    "i3blocks\nsecond line as short_text\n#FF0000\nHI1",
    "Long " + "HL1 lorem ipsum dolor sit amet " * 4000,
    "&lt;already escaped&gt; &amp;amp; &#60;b&#62; &nbsp; &bogus; HA1",
    "tabs\tand\tspaces   HX1   \t",
]
NUL_TEXT = "nul\x00inside"
INVALID_UTF8 = b"bad \xff\xfe \xc0\x80 bytes"


def env_with(**extra):
    e = dict(os.environ)
    e.update({"ENGRAM_DATA_DIR": f"{tmp}/data", "ENGRAM_CONFIG_DIR": f"{tmp}/config", "HOME": f"{tmp}/home",
              "ENGRAM": ENGRAM, "ENGRAM_FEED": FEED})
    e.update(extra)
    return e


ENV = env_with()


def run(cmd, stdin=None, env=None, check=True):
    p = subprocess.run(cmd, input=stdin, capture_output=True, env=env or ENV, timeout=DEADLINE)
    if check and p.returncode not in (0, 1):
        fail(f"{' '.join(map(str, cmd))[:100]} exited {p.returncode}: {p.stderr[:300]!r}")
    return p


# ------------------------------------------------------------------- consumer checks

HOSTILE_TAGS = {"b", "span", "i", "u", "s", "big", "small", "tt", "sub", "sup"}
TOKENS = re.compile(r"H[A-Z]+\d")


def pango_ok(text, where):
    """Parses like Pango markup (XML with Pango's entities); no element may wrap a hostile token."""
    count("pango_checked")
    try:
        tree = ET.fromstring("<markup>" + text + "</markup>")
    except ET.ParseError as e:
        fail(f"{where}: not valid Pango markup ({e}): {text[:160]!r}")
        return ""
    for el in tree.iter():
        if el.tag == "markup":
            continue
        if el.tag not in HOSTILE_TAGS:
            fail(f"{where}: unknown markup element <{el.tag}>")
        inner = "".join(el.itertext())
        if re.search(r"H[BSI]1|HS1", inner) and el.tag in ("b", "span") and "HB1 bold" in inner or "HS1 span" == inner.strip():
            fail(f"{where}: markup from a memory became an element: <{el.tag}>{inner[:60]}")
    return "".join(tree.itertext())


def plain_ok(text, where, allow_newlines=False):
    bad = [c for c in text if (ord(c) < 0x20 and not (allow_newlines and c == "\n")) or ord(c) == 0x7F]
    if bad:
        fail(f"{where}: control characters {sorted(set(map(hex, map(ord, bad))))} reach the consumer: {text[:120]!r}")
    count("plain_checked")


def check_feed(kind, fmt, out, where, n_memories):
    text = out.decode("utf-8", errors="strict")
    if "\x1b" in text:
        fail(f"{where}: ESC reaches the consumer")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    if fmt in ("json", "waybar"):
        if len(lines) != 1:
            fail(f"{where}: {len(lines)} lines; a bar reads one JSON object per line")
        for line in lines:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                fail(f"{where}: not JSON ({e})")
                continue
            count("json_lines_parsed")
            if fmt == "waybar":
                for key in ("text", "tooltip"):
                    if isinstance(obj.get(key), str):
                        pango_ok(obj[key], f"{where} {key}")
    elif fmt == "conky-parsed" or (fmt == "conky" and "--parsed" in where):
        stripped = text.replace("$$", "").replace("\\#", "")
        if "$" in stripped or "#" in stripped:
            fail(f"{where}: an unescaped $ or # reaches Conky's parser: {stripped[stripped.find('$') - 20:][:80]!r}")
    elif fmt == "polybar":
        if "%{" in text:
            fail(f"{where}: '%{{' reaches polybar: {text[text.find('%{') - 20:][:80]!r}")
        if len(lines) > 1:
            fail(f"{where}: {len(lines)} lines; polybar shows one")
    elif fmt == "i3blocks":
        # i3blocks passes full_text to the bar as plain text unless a block sets markup=pango, which Engram's blocks
        # (Integrations/i3blocks) do not: the bar shows these lines literally, so they must stay as written (escaped,
        # "&" would show as "&amp;") with no control character and no extra line. A check that demanded Pango here
        # passed only on days whose memory of the day held no markup.
        if len(lines) > 3:
            fail(f"{where}: {len(lines)} lines; i3blocks reads full_text, short_text, color")
        for line in lines[:2]:
            plain_ok(line, f"{where} line")
    elif fmt == "notify":
        plain_ok(lines[0] if lines else "", f"{where} summary")
        pango_ok("\n".join(lines[1:]), f"{where} body")
    elif fmt == "rofi":
        rows = [l for l in lines if l]
        for row in rows:
            parts = row.split("\0")
            if len(parts) > 2:
                fail(f"{where}: a row holds {len(parts) - 1} NULs: {row[:80]!r}")
                continue
            if len(parts) == 2:
                fields = parts[1].split("\x1f")
                keys = fields[0::2]
                if len(fields) % 2 or any(k not in ("icon", "info", "meta", "nonselectable", "urgent", "active", "permanent", "display") for k in keys):
                    fail(f"{where}: a row's options are forged: {parts[1][:80]!r}")
            plain_ok(parts[0], f"{where} row")
        if kind == "recent" and len(rows) != n_memories:
            fail(f"{where}: {len(rows)} rows for {n_memories} memories")
    elif fmt == "dmenu":
        rows = [l for l in lines if l]
        if kind == "recent" and len(rows) != n_memories:
            fail(f"{where}: {len(rows)} lines for {n_memories} memories")
        for row in rows:
            plain_ok(row, f"{where} line")
            if kind == "recent" and not re.search(r"⟨[A-Za-z0-9._-]+⟩$", row):
                fail(f"{where}: a line does not end with its id: {row[-60:]!r}")
    elif fmt in ("text", "conky"):
        for line in lines:
            plain_ok(line, f"{where} line")
    return text


def literal(shown, where):
    """The hostile markers that reached a sink must be shown as text: the `<b>` and `${exec` survive as characters."""
    if "HB1" in shown and "<b>HB1" not in shown:
        fail(f"{where}: the markup memory is not shown literally")
    if "HC1" in shown and "${exec" not in shown and "…" not in shown[:shown.find("HC1")][-200:]:
        fail(f"{where}: the Conky memory is not shown literally")


def conky_run(outputs):
    """Feeds every `conky-parsed` output to the real Conky through `${execp cat FILE}` (what a user's conkyrc does),
    console only, two updates. A positive control goes first in the same run: an unescaped `${exec touch …}` must
    create its marker, or this check could not fail and says so."""
    control = f"{tmp}/control-ran"
    files = []
    with open(f"{tmp}/conky-control.txt", "w") as f:
        f.write(f"control ${{exec touch {control}}} end\n")
    files.append(f"{tmp}/conky-control.txt")
    for n, (where, out) in enumerate(outputs):
        path = f"{tmp}/conky-{n}.txt"
        with open(path, "wb") as f:
            f.write(out)
        files.append(path)
    conf = f"{tmp}/conky.conf"
    with open(conf, "w") as f:
        f.write("conky.config = { out_to_x = false, out_to_console = true, update_interval = 0.5, total_run_times = 2,"
                " background = false, max_text_width = 0, text_buffer_size = 200000 }\nconky.text = [[\n")
        f.write("".join(f"${{execp cat {p}}}\n" for p in files))
        f.write("]]\n")
    p = subprocess.run(["conky", "-c", conf], capture_output=True, timeout=120, env=ENV, cwd=tmp)  # what a payload runs, runs in tmp
    shown = p.stdout.decode(errors="replace")
    with open(f"{OUT}/5-conky-console.txt", "w") as f:
        f.write(shown)
    if not os.path.exists(control):
        fail(f"the positive control did not run: Conky did not execute an unescaped ${{exec}} (exit {p.returncode}: "
             f"{p.stderr.decode(errors='replace')[:200]}), so the marker check below proves nothing")
    figure("conky_positive_control_ran", "yes" if os.path.exists(control) else "no")
    figure("conky_parsed_outputs_run_through_conky", len(outputs))
    # Conky showed the outputs, literally: the Conky memory's `${exec touch …}` as text (its `$$` became `$`).
    if "control  end" not in shown:
        fail(f"Conky did not show the positive control's line (see {OUT}/5-conky-console.txt)")
    if "Conky ${exec touch " + tmp not in shown:
        fail(f"Conky did not show the Conky memory's ${{exec …}} as text from the parsed outputs (see {OUT}/5-conky-console.txt)")


def main():
    # ------------------------------------------------------------- capture: import, remember, D-Bus, links
    os.makedirs(f"{tmp}/config", mode=0o700)
    os.makedirs(f"{tmp}/home")
    with open(f"{tmp}/config/config.toml", "w") as f:
        f.write('[desktop]\nopen = "none"\n')
    records = []
    # Fresh on the Engram clock, so nothing has faded from search.
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(samples.engram_now() - 7200))
    for i, text in enumerate(HOSTILE):
        if "\x00" in text:
            continue
        records.append({"kind": "memory", "id": f"h{i:03d}", "content": text, "type": "note", "tags": ["hostile", f"<b>t{i}</b>"],
                        "created": now, "updated": now, "lastReinforced": now, "useCount": 0, "pinned": False, "source": "stress"})
    with open(f"{tmp}/hostile.jsonl", "w") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    run([ENGRAM, "import", f"{tmp}/hostile.jsonl"])
    stored = {r["id"] for r in records}
    p = run([ENGRAM, "remember"], stdin=NUL_TEXT.encode(), check=False)
    if p.returncode not in (64, 65):
        fail(f"a memory with a NUL byte was not refused as bad input (exit {p.returncode})")
    p = run([ENGRAM, "remember"], stdin=INVALID_UTF8, check=False)
    if p.returncode != 65:
        fail(f"invalid UTF-8 was not refused as bad input (exit {p.returncode})")
    for text in HOSTILE[:12]:
        if "\x00" in text:
            continue
        p = run([ENGRAM, "remember", "--tag", "viacli"], stdin=text.encode())
        link = "engram://remember?" + urllib.parse.urlencode({"text": text, "tag": "vialink"}, quote_via=urllib.parse.quote)
        p = run([ENGRAM, "open", link], check=False)
        if "\x1b" in p.stdout.decode(errors="replace"):
            fail("engram open printed an ESC from a link to the terminal")
        if len(link) <= 8192 and p.returncode != 0:
            fail(f"engram open refused a remember link ({p.returncode}): {p.stderr[:200]!r}")
        count("links_followed")
    for n, text in enumerate(["x\x00y", "$(touch " + PWN + "-search)", "<b>", "%{A1:x:}", "engram://memory/h000"]):
        run([ENGRAM, "open", "engram://search?q=" + urllib.parse.quote(text)], check=False)

    # ------------------------------------------------------------- feeds, both binaries, every format
    n_total = int(json.loads(run([ENGRAM, "stats", "--json"]).stdout)["total"])
    # One pinned clock for both binaries, so every feed (motd included) must come out byte for byte the same.
    feed_env = env_with(ENGRAM_NOW=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(samples.engram_now())))
    parsed_outputs = []  # what Conky's execp would parse: run through the real Conky below
    formats = ["json", "waybar", "conky", "conky-parsed", "i3blocks", "polybar", "text", "notify", "rofi", "dmenu"]
    for kind in ("recent", "motd", "review", "stats"):
        for fmt in formats:
            for size in ("small", "large"):
                outs = []
                for binary in ([FEED] if os.path.exists(FEED) else []) + [ENGRAM]:
                    cmd = ([binary] if binary == FEED else [binary, "feed"]) + [kind, "--format", fmt, "--size", size, "--limit", "500"]
                    if kind in ("motd", "stats"):
                        cmd = cmd[:-2]
                    p = run(cmd, env=feed_env, check=False)
                    if p.returncode != 0:
                        fail(f"{' '.join(cmd[1:])} exited {p.returncode}: {p.stderr[:200]!r}")
                        continue
                    where = f"{os.path.basename(binary)} {kind} --format {fmt} --size {size}"
                    shown = check_feed(kind, fmt, p.stdout, where, n_total)
                    if fmt == "json":
                        literal(json.dumps(json.loads(shown), ensure_ascii=False), where)
                    outs.append(p.stdout)
                    if fmt == "conky-parsed":
                        parsed_outputs.append((where, p.stdout))
                    count("feed_outputs_checked")
                if fmt == "json":  # the time it was generated differs
                    outs = [re.sub(rb'"generated":"[^"]*"', b"", o) for o in outs]
                if len(outs) == 2:
                    count("feed_pairs_compared")
                    if outs[0] != outs[1]:
                        fail(f"engram-feed and engram feed differ for {kind} --format {fmt} --size {size}")

    # ------------------------------------------------------------- the outputs, run: Conky's execp parses them
    conky_run(parsed_outputs)

    # ------------------------------------------------------------- rofi script mode
    rofi = f"{ROOT}/Integrations/bin/engram-rofi"
    for retv, info, choice in (("0", "", ""), ("1", "h000", ""), ("1", "h001", ""), ("1", "h005", ""), ("1", ":back", ""),
                               ("2", "", "/<b>HB1</b> $(touch " + PWN + "-rofi)"), ("2", "", "/%{A1:x:}"),
                               ("2", "", "<span>rofi capture</span> `touch " + PWN + "-rofi2` ${exec touch " + PWN + "-rofi3}")):
        p = run(["bash", rofi, choice] if choice else ["bash", rofi], env=env_with(ROFI_RETV=retv, ROFI_INFO=info), check=False)
        out = p.stdout.decode("utf-8", errors="replace")
        for line in out.split("\n"):
            if line.startswith("\0"):
                key, _, value = line[1:].partition("\x1f")
                if "\x1f" in value or "\0" in value:
                    fail(f"rofi retv={retv} {info}: option {key} is forged: {value[:80]!r}")
                if key == "message":
                    pango_ok(value, f"rofi retv={retv} {info} message")
                count("rofi_options_checked")
            elif line:
                parts = line.split("\0")
                if len(parts) > 2:
                    fail(f"rofi retv={retv}: a row holds {len(parts) - 1} NULs")
                plain_ok(parts[0], f"rofi retv={retv} {info} row")
                count("rofi_rows_checked")

    # ------------------------------------------------------------- export → import → export
    run([ENGRAM, "export", "-o", f"{tmp}/export1.jsonl"])
    env2 = env_with(ENGRAM_DATA_DIR=f"{tmp}/data2")
    run([ENGRAM, "import", f"{tmp}/export1.jsonl"], env=env2)
    run([ENGRAM, "export", "-o", f"{tmp}/export2.jsonl"], env=env2)
    a, b = open(f"{tmp}/export1.jsonl", "rb").read(), open(f"{tmp}/export2.jsonl", "rb").read()
    figure("export_bytes", len(a))
    if a != b:
        fail(f"export → import → export changed the bytes ({len(a)} → {len(b)})")
    exported = {}
    for line in a.decode().split("\n"):
        if not line:
            continue
        r = json.loads(line)
        if r.get("kind") == "memory":
            exported[r["id"]] = r["content"]
    for r in records:
        if exported.get(r["id"]) != r["content"]:
            fail(f"memory {r['id']} did not come back unchanged: {exported.get(r['id'], '')[:60]!r}")
    cli_texts = set(exported.values())
    for text in HOSTILE[:12]:
        if "\x00" not in text and text not in cli_texts:
            fail(f"a hostile text captured by CLI or link was changed: {text[:60]!r}")

    # ------------------------------------------------------------- the daemon: GNOME metas, KRunner, D-Bus, notifications
    mock = subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--session", "-t", "notification_daemon"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    bus = dbus.SessionBus()
    require_name(bus, "org.freedesktop.Notifications", mock, "python-dbusmock's notification daemon")
    daemon = subprocess.Popen([ENGRAM, "daemon"], env=ENV, stdout=open(f"{OUT}/5-daemon.log", "w"), stderr=subprocess.STDOUT)
    try:
        require_name(bus, "org.engram.Engram", daemon, "the daemon")
        provider = bus.get_object("org.engram.Engram", "/org/engram/Engram/SearchProvider")
        runner = bus.get_object("org.engram.Engram", "/runner")
        engram_obj = bus.get_object("org.engram.Engram", "/org/engram/Engram")
        SP, KR, E1 = "org.gnome.Shell.SearchProvider2", "org.kde.krunner1", "org.engram.Engram1"
        for text in (t for t in HOSTILE[:12] if "\x00" not in t):  # D-Bus strings cannot hold NUL
            engram_obj.Remember(text, "idea", ["<i>viadbus</i>"], "", "", dbus_interface=E1, timeout=DEADLINE)
        for token in sorted(set(TOKENS.findall(" ".join(t for t in HOSTILE if "\x00" not in t)))):
            ids = provider.GetInitialResultSet([token.lower()], dbus_interface=SP, timeout=DEADLINE)
            if not ids:
                fail(f"GNOME Shell finds nothing for {token}")
                continue
            metas = provider.GetResultMetas(ids, dbus_interface=SP, timeout=DEADLINE)
            if len(metas) != len(ids):
                fail(f"GetResultMetas answered {len(metas)} metas for {len(ids)} ids")
            for m in metas:
                plain_ok(str(m["name"]), f"GNOME meta name ({token})")
                plain_ok(str(m["description"]), f"GNOME meta description ({token})")
                count("gnome_metas_checked")
            g = subprocess.run(["gdbus", "call", "--session", "--dest", "org.engram.Engram", "--object-path",
                                "/org/engram/Engram/SearchProvider", "--method", f"{SP}.GetResultMetas", str([str(i) for i in ids])],
                               capture_output=True, timeout=DEADLINE)
            if g.returncode != 0:
                fail(f"gdbus GetResultMetas for {token} failed: {g.stderr[:200]!r}")
            matches = runner.Match(token.lower(), dbus_interface=KR, timeout=DEADLINE)
            if not matches:
                fail(f"KRunner matches nothing for {token}")
            for (mid, text, icon, mtype, relevance, props) in matches:
                plain_ok(str(text), f"KRunner text ({token})")
                if "subtext" in props:
                    plain_ok(str(props["subtext"]), f"KRunner subtext ({token})")
                count("krunner_matches_checked")
        # Notification bodies: a capture session with a hostile line each.
        lines = "\n".join(t.replace("\n", " ").replace("\r", " ").replace("\u2028", " ").replace("\u2029", " ")
                          for t in HOSTILE if "\x00" not in t) + "\n"
        p = run([ENGRAM, "capture", "--dismiss-after", "1", "--title", "<b>HB1 capture</b> ${exec touch " + PWN + "-title}"],
                stdin=lines.encode(), env=env_with(DBUS_SESSION_BUS_ADDRESS=os.environ["DBUS_SESSION_BUS_ADDRESS"]), check=False)
        if p.returncode != 0:
            fail(f"engram capture exited {p.returncode}: {p.stderr[:300]!r}")
        mock_obj = bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
        calls = mock_obj.GetMethodCalls("Notify", dbus_interface="org.freedesktop.DBus.Mock")
        figure("notifications_captured", len(calls))
        if not calls:
            fail("no notification reached the notification daemon")
        for _, args in calls:
            summary, body = str(args[3]), str(args[4])
            plain_ok(summary, "notification summary")
            pango_ok(body, "notification body")
            count("notifications_checked")
    finally:
        stop(daemon, "the daemon")
        stop(mock, "the notification daemon")

    # ------------------------------------------------------------- nothing ran
    pwned = [f for f in os.listdir(tmp) if f.startswith("pwned")]
    figure("marker_files_created", len(pwned))
    for f in pwned:
        fail(f"{f} exists: a payload was executed")
    for key in sorted(counts):
        figure(key, counts[key])


try:
    main()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
finish()
