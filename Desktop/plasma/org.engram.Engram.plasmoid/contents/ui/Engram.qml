// What the widget knows about Engram and what it can ask of it, shared by both generations' roots. `source` is the
// root's "executable" data source (PlasmaCore.DataSource in Plasma 5, Plasma5Support.DataSource in Plasma 6: the
// same connectSource / newData API). Every command runs through /bin/sh -c; see engram.js.
import QtQuick 2.15
import "engram.js" as Logic

Item {
    id: engram
    visible: false

    property var source: null

    // The feeds' last JSON objects (FEEDS-SCHEMA.md), or null.
    property var session: null
    property var motd: null
    property var stats: null
    property var review: null
    property bool loaded: false
    property bool installed: true        // engram-feed found on PATH
    property string daemon: "unknown"    // yes | no | unknown (no dbus-send)
    property bool listening: false       // the daemon's Listening: push-to-talk records, started from anywhere
    property bool listenRunning: false   // this widget's own `engram listen` has not ended yet
    property bool listenStopped: false   // Stop listening was clicked: what remains is understanding and answering
    readonly property bool micLit: listening || (listenRunning && !listenStopped)
    property string actionMessage: ""    // what the last action printed
    property bool actionFailed: false
    property int refreshes: 0

    // Seconds between the watcher's re-reads: the daemon's PropertiesChanged wakes it at once; without a daemon the
    // timer is all there is.
    readonly property int watchInterval: daemon === "yes" ? 600 : 60

    // The live session: elapsed time ticks here between feed reads.
    readonly property var live: session && session.session ? session.session : null
    readonly property bool sessionRunning: live !== null && live.state === "running"
    property real now: Date.now()
    readonly property int elapsed: {
        if (!live) return 0;
        var e = live.elapsedSeconds || 0;
        if (sessionRunning && session.generated) e += Math.max(0, (now - Date.parse(session.generated)) / 1000);
        return Math.floor(e);
    }

    // The sentence the widget shows instead of, or above, its content; "" when all is well.
    readonly property string problem: {
        if (!installed)
            return "Engram is not installed: engram-feed was not found on PATH. Install Engram (make install), then reopen this widget.";
        if (!loaded) return "";
        var feeds = [session, motd, stats, review];
        for (var i = 0; i < feeds.length; i++) {
            var f = feeds[i];
            if (f && f.failed !== undefined)
                return "Engram could not read its feeds (engram-feed " + f.feed + " exited with status " + f.failed + ").";
            if (f && (f.state === "missing" || f.state === "error" || f.state === "disabled"))
                return Logic.clean(f.message || ("Engram's " + f.feed + " feed is " + f.state + "."), true);
        }
        if (daemon === "no")
            return "Engram's daemon is not running: this widget refreshes every minute and live notifications are off. Start it: systemctl --user enable --now engram.service";
        return "";
    }
    readonly property bool sleeping: stats !== null && stats.state === "sleep"

    // One line for the panel's tooltip.
    readonly property string summary: {
        if (live) return Logic.clean(live.title, true) + " · " + (sessionRunning ? "running " : "paused ") + Logic.clock(elapsed);
        if (stats && stats.stats)
            return stats.stats.today + " today · " + stats.stats.expiringSoon + " about to fade";
        return "";
    }

    property var pending: ({})
    property int serial: 0
    property bool watching: false
    property double watchStarted: 0

    function run(command, done) {
        serial += 1;
        // A unique name: the executable engine runs a source once while it is connected.
        var name = command + "\n# engram-widget " + serial;
        pending[name] = done;
        source.connectSource(name);
    }

    function finished(name, data) {
        var done = pending[name];
        // The engine may announce a source before its process ends; only an exit code means it ran.
        if (done === undefined || data["exit code"] === undefined) return;
        console.log("engram-widget: ran " + JSON.stringify(name.split("\n")[0].substring(0, 60)) + ", exit " + data["exit code"]);
        delete pending[name];
        source.disconnectSource(name);
        done(data["stdout"] || "", data["exit code"], data["stderr"] || "");
    }

    function refresh() {
        run(Logic.snapshotCommand(), function (stdout, code) {
            var snap = Logic.parseSnapshot(stdout);
            installed = !snap.missing && code !== 127;
            daemon = snap.daemon;
            listening = snap.listening;
            session = snap.feeds.session || null;
            motd = snap.feeds.motd || null;
            stats = snap.feeds.stats || null;
            review = snap.feeds.review || null;
            loaded = true;
            refreshes += 1;
            now = Date.now();
            console.log("engram-widget: refreshed (" + refreshes + "), daemon " + daemon + ", installed " + installed);
        });
    }

    // Waits for the next change (watchCommand), refreshes, and waits again. A watcher that ends at once (no
    // engram-feed, no store) is retried after a pause instead of spinning.
    function watch() {
        if (watching) return;
        watching = true;
        watchStarted = Date.now();
        run(Logic.watchCommand(watchInterval), function () {
            watching = false;
            refresh();
            if (Date.now() - watchStarted < 2000) retry.start();
            else watch();
        });
    }

    function act(command) {
        actionMessage = "";
        run(command, function (stdout, code) {
            actionFailed = code !== 0;
            actionMessage = Logic.clean(stdout.trim(), true);
            refresh();
        });
    }

    function pause() { act(Logic.sessionCommand("pause")); }
    function resume() { act(Logic.sessionCommand("resume")); }
    function stop() { act(Logic.sessionCommand("stop")); }
    function remember(text) {
        if (String(text).trim() === "") return false;
        act(Logic.rememberCommand(text));
        return true;
    }
    // Push-to-talk: starts `engram listen` (it ends on a pause, and its output is what it heard and did), or, while
    // anything listens, stops it as a second press of the key does.
    function listen() {
        if (micLit) {
            listenStopped = true;
            act(Logic.listenCommand(true));
            return;
        }
        listenRunning = true;
        listenStopped = false;
        actionMessage = "Listening…";
        actionFailed = false;
        run(Logic.listenCommand(false), function (stdout, code) {
            listenRunning = false;
            actionFailed = code !== 0;
            actionMessage = Logic.clean(stdout.trim(), true);
            refresh();
        });
    }
    function open(memoryID) {
        run(Logic.openCommand(memoryID), function (stdout, code) {
            if (code !== 0) { actionFailed = true; actionMessage = Logic.clean(stdout.trim(), true); }
        });
    }

    Connections {
        target: engram.source
        function onNewData(sourceName, data) { engram.finished(sourceName, data); }
    }

    Timer {
        id: retry
        interval: 30000
        onTriggered: engram.watch()
    }

    Timer {   // the elapsed time of a running session
        interval: 1000
        repeat: true
        running: engram.sessionRunning
        onTriggered: engram.now = Date.now()
    }

    Component.onCompleted: {
        refresh();
        watch();
    }
}
