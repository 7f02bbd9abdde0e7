// KRunner's own matching machinery, driven step by step for the real-shell tests (run by qmlscene, offscreen).
//
// Milou's ResultsModel is the model KRunner's window (plasma-workspace 5.27) lists, over KF5's RunnerManager: it
// finds D-Bus runners by their .desktop files, asks Config/Actions/Match, sorts and groups matches by category
// and runs a match or one of its actions. KF5's RunnerModel (org.kde.runnermodel) is the simpler model of the
// same manager. The harness replaces __STEPS__ with a JSON list of steps; each step prints one line
// "STEP <json>" with what the models hold, and the program quits after the last one. With a "shot" step the
// list is also drawn by Milou's ResultsView, KRunner's own list delegate, and saved as a PNG.
import QtQuick 2.15
import org.kde.milou 0.3 as Milou
import org.kde.runnermodel 2.0 as RM

Rectangle {
    id: root
    width: 900; height: 420
    color: "#eff0f1"
    property var steps: __STEPS__
    property int step: -1
    property int stableTicks: 0
    property int lastCount: -1
    property string shotQuery: ""

    Milou.ResultsModel { id: milou; limit: 15 }
    RM.RunnerModel { id: plain }  // KF5 only
    Loader { id: viewLoader; anchors.fill: parent; anchors.margins: 8 }
    Component {
        id: viewComponent
        Milou.ResultsView { queryString: root.shotQuery }
    }

    // Reads every row of a model through a Repeater delegate (roles by name, as QML sees them).
    Repeater { id: milouRows; model: milou
        delegate: Item { property var row: ({display: model.display, id: model.matchId, subtext: model.subtext,
            category: model.category, type: model.type,
            // KF6's ResultsModel names no relevance role: read RelevanceRole (Qt.UserRole + 3) by number.
            relevance: model.relevance !== undefined ? model.relevance : milou.data(milou.index(index, 0), Qt.UserRole + 3),
            actions: (model.actions || []).map(function (a) { return a.text; })}) } }
    Repeater { id: plainRows; model: plain  // KF5 only: empty under KF6
        delegate: Item { property var row: ({display: model.display, id: model.id, description: model.description,
            relevance: model.relevance, runnerid: model.runnerid}) } }

    function rows(rep) { var out = []; for (var i = 0; i < rep.count; i++) out.push(rep.itemAt(i).row); return out; }

    function report(extra) {
        var s = steps[step];
        var line = {step: step, op: s.op, milou: rows(milouRows), plain: rows(plainRows), querying: milou.querying};
        for (var k in extra) line[k] = extra[k];
        console.log("STEP " + JSON.stringify(line));
    }

    function next() {
        step += 1;
        if (step >= steps.length) { console.log("DONE"); Qt.quit(); return; }
        var s = steps[step];
        stableTicks = 0; lastCount = -1;
        if (s.op === "query") {
            milou.queryString = s.text;
            if (s.plain) plain.query = s.text;
            settle.restart();
        } else if (s.op === "run") {
            var ok = milou.run(milou.index(s.index, 0));
            report({ran: ok}); pause.interval = s.wait || 800; pause.restart();
        } else if (s.op === "action") {
            var ok2 = milou.runAction(milou.index(s.index, 0), s.action);
            report({ran: ok2}); pause.interval = s.wait || 800; pause.restart();
        } else if (s.op === "teardown") {
            // What KRunner does when its window closes: the match session ends and runners are torn down.
            milou.queryString = "";
            milou.runnerManager.matchSessionComplete();
            report({}); pause.interval = s.wait || 1500; pause.restart();
        } else if (s.op === "shot") {
            root.shotQuery = s.query;
            viewLoader.sourceComponent = viewComponent;
            shotTimer.restart();
        } else if (s.op === "wait") {
            report({}); pause.interval = s.ms; pause.restart();
        }
    }

    // A query is settled when the manager stopped querying and the count held still for 600 ms.
    Timer { id: settle; interval: 100; repeat: true
        onTriggered: {
            var n = milouRows.count + plainRows.count;
            if (!milou.querying && n === root.lastCount) root.stableTicks += 1; else root.stableTicks = 0;
            root.lastCount = n;
            if (root.stableTicks >= 6) { stop(); report({}); next(); }
        } }
    Timer { id: pause; onTriggered: next() }
    Timer { id: shotTimer; interval: 2500
        onTriggered: root.grabToImage(function (result) {
            var ok = result.saveToFile(root.steps[root.step].path);
            report({saved: ok}); next();
        }) }
    Timer { interval: 60000; running: true; onTriggered: { console.log("TIMEOUT at step " + root.step); Qt.quit(); } }
    Component.onCompleted: startTimer.start()
    Timer { id: startTimer; interval: 200; onTriggered: next() }
}
