// The commands the widget runs (through Plasma's "executable" data engine, which hands each to /bin/sh -c) and
// how it reads their output. Shared by Plasma 5.27 (main5.qml) and Plasma 6 (main.qml); plain JavaScript, no
// QML types, so both Qt 5 and Qt 6 load it.
.pragma library

// Quotes one argument for sh: the text between single quotes is taken literally, a ' is closed, escaped, reopened.
function sq(text) {
    return "'" + String(text).replace(/'/g, "'\\''") + "'";
}

var MISSING = "ENGRAM-WIDGET: engram-feed missing";

// One run prints every feed the widget shows, one JSON object a line (FEEDS-SCHEMA.md), then whether Engram's
// daemon owns its bus name ("daemon yes|no|unknown") and whether push-to-talk records ("listening yes|no"). A feed that fails prints {"feed":NAME,"failed":STATUS}.
function snapshotCommand() {
    return "command -v engram-feed >/dev/null 2>&1 || { echo '" + MISSING + "'; exit 127; }\n" +
        "for f in session motd stats review; do\n" +
        "  engram-feed \"$f\" --format json --size large --limit 3 2>/dev/null || printf '{\"feed\":\"%s\",\"failed\":%d}\\n' \"$f\" $?\n" +
        "done\n" +
        "if command -v dbus-send >/dev/null 2>&1; then\n" +
        "  case \"$(dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus " +
        "org.freedesktop.DBus.NameHasOwner string:org.engram.Engram 2>/dev/null)\" in\n" +
        "    *'boolean true'*) echo 'daemon yes'\n" +
        // asked only of a running daemon: a call to its name would start it
        "      case \"$(dbus-send --session --print-reply --dest=org.engram.Engram /org/engram/Engram " +
        "org.freedesktop.DBus.Properties.Get string:org.engram.Engram1 string:Listening 2>/dev/null)\" in\n" +
        "        *'boolean true'*) echo 'listening yes' ;;\n" +
        "      esac ;;\n" +
        "    *'boolean false'*) echo 'daemon no' ;; *) echo 'daemon unknown' ;;\n" +
        "  esac\n" +
        "else echo 'daemon unknown'; fi";
}

// Ends at the next change: `engram-feed --watch` prints a line at once, then one each time it re-reads the store
// (the moment the daemon announces a change on the session bus, or every `interval` seconds); then the feed is
// stopped by its pid (the sh prints $$, then becomes engram-feed). On a session bus it re-reads once more as it
// starts: a line within 2 s of the first that says the same (but for "generated") is that re-read, not a change.
function watchCommand(interval) {
    return "command -v engram-feed >/dev/null 2>&1 || exit 127\n" +
        "sh -c 'echo $$; exec engram-feed session --format json --watch --interval " + Math.max(1, Math.round(interval)) +
        "' 2>/dev/null | {\n" +
        "  read -r pid; read -r first || exit 0; start=$(date +%s)\n" +
        "  first=$(printf '%s' \"$first\" | sed 's/\"generated\":\"[^\"]*\"//')\n" +
        "  while read -r next; do\n" +
        "    [ \"$(printf '%s' \"$next\" | sed 's/\"generated\":\"[^\"]*\"//')\" != \"$first\" ] && break\n" +
        "    [ $(( $(date +%s) - start )) -ge 2 ] && break\n" +
        "  done\n" +
        "  kill \"$pid\" 2>/dev/null\n" +
        "}";
}

function sessionCommand(action) {   // pause | resume | stop
    if (["pause", "resume", "stop"].indexOf(action) < 0) return "";
    return "engram session " + action + " 2>&1";
}

// Push-to-talk (`engram listen` ends on a pause and prints what it heard and did), or `--stop` for the one listening.
function listenCommand(stop) {
    return stop ? "engram listen --stop 2>&1" : "engram listen 2>&1";
}

function rememberCommand(text) {
    return "engram remember -- " + sq(text) + " 2>&1";
}

// Opens Engram's window (engram-app), on a memory when an id is given; detached, so the command ends at once.
function openCommand(memoryID) {
    var link = "";
    if (memoryID && /^[A-Za-z0-9_-]+$/.test(memoryID)) link = " " + sq("engram://memory/" + memoryID);
    return "command -v engram-app >/dev/null 2>&1 || { echo 'engram-app is not installed'; exit 127; }\n" +
        "engram-app" + link + " </dev/null >/dev/null 2>&1 &";
}

// Stored text made safe to draw, by the rule of Engram's feeds (DisplayText.clean, FEEDS-SCHEMA.md; both are held
// to the same cases, Tests/FeedsTests/Golden/display-text.json): C0 controls become their control pictures, DEL ␡,
// C1 controls �, bidirectional embeddings, overrides and isolates are dropped; a tab becomes a space; line breaks
// (\r\n, \r, \n, VT, FF, NEL, U+2028, U+2029) become "\n", or spaces with `oneLine`. The Labels draw it as plain
// text, so markup stays as typed.
function clean(text, oneLine) {
    var s = String(text === undefined || text === null ? "" : text);
    var out = "", previousCR = false;
    for (var i = 0; i < s.length; i++) {
        var v = s.charCodeAt(i), c = s.charAt(i);
        var cr = previousCR;
        previousCR = v === 0x0D;
        if (v === 0x0A) { if (oneLine) out += " "; else if (!cr) out += "\n"; }
        else if (v === 0x0D) out += oneLine ? " " : "\n";
        else if (v === 0x09) out += " ";
        else if (v === 0x0B || v === 0x0C || v === 0x85 || v === 0x2028 || v === 0x2029) out += oneLine ? " " : "\n";
        else if (v < 0x20) out += String.fromCharCode(0x2400 + v);
        else if (v === 0x7F) out += "\u2421";
        else if (v >= 0x80 && v < 0xA0) out += "\uFFFD";
        else if ((v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)) continue;
        else out += c;
    }
    return out;
}

// Reads a snapshot's output: {feeds: {session, motd, stats, review}, daemon: "yes"|"no"|"unknown", missing: bool}.
function parseSnapshot(stdout) {
    var out = {feeds: {}, daemon: "unknown", listening: false, missing: false};
    var lines = String(stdout || "").split("\n");
    for (var i = 0; i < lines.length; i++) {
        var line = lines[i].trim();
        if (!line) continue;
        if (line === MISSING) { out.missing = true; continue; }
        if (line.indexOf("daemon ") === 0) { out.daemon = line.substring(7); continue; }
        if (line.indexOf("listening ") === 0) { out.listening = line.substring(10) === "yes"; continue; }
        try {
            var obj = JSON.parse(line);
            if (obj && obj.feed) out.feeds[obj.feed] = obj;
        } catch (e) {
            // not a feed line: ignored
        }
    }
    return out;
}

// 754 s → "12:34", 4000 s → "1:06:40".
function clock(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = (h > 0 && m < 10 ? "0" : "") + m, ss = (s < 10 ? "0" : "") + s;
    return (h > 0 ? h + ":" : "") + mm + ":" + ss;
}

function fades(daysLeft) {
    if (daysLeft === null || daysLeft === undefined) return "pinned";
    if (daysLeft <= 0) return "fades today";
    if (daysLeft === 1) return "fades tomorrow";
    return "fades in " + daysLeft + " days";
}

function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
}
