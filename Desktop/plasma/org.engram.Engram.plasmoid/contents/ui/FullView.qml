// The popup (full representation): the learning session with Pause/Resume/Stop, the memory of the day, today's
// count and what is about to fade, a capture field, push-to-talk ("Listen") and "Open Engram". Shared by Plasma 5.27 and Plasma 6: only
// imports both Qt 5.15 and Qt 6 accept. Every stored text is drawn as plain text.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.kirigami 2.20 as Kirigami
import "engram.js" as Logic

Item {
    id: full
    property var engram

    readonly property var live: engram.live
    readonly property var memory: engram.motd && engram.motd.memory ? engram.motd.memory : null
    readonly property var counts: engram.stats && engram.stats.stats ? engram.stats.stats : null
    readonly property var fading: engram.review && engram.review.memories ? engram.review.memories : []

    Layout.minimumWidth: Kirigami.Units.gridUnit * 22
    Layout.preferredWidth: Kirigami.Units.gridUnit * 26
    Layout.minimumHeight: column.implicitHeight + Kirigami.Units.largeSpacing * 2
    Layout.preferredHeight: column.implicitHeight + Kirigami.Units.largeSpacing * 2

    ColumnLayout {
        id: column
        anchors.fill: parent
        anchors.margins: Kirigami.Units.largeSpacing
        spacing: Kirigami.Units.smallSpacing

        // ---------------------------------------------------------------- what is wrong, if anything
        PlasmaComponents3.Label {
            objectName: "problem"
            Layout.fillWidth: true
            visible: text !== ""
            text: engram.problem
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            font.bold: !engram.installed
            color: Kirigami.Theme.negativeTextColor
        }
        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: engram.installed && !engram.loaded
            text: "Reading Engram…"
            textFormat: Text.PlainText
        }
        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: engram.sleeping
            text: "Sleep context: Engram is quiet."
            textFormat: Text.PlainText
        }

        // ---------------------------------------------------------------- the learning session
        Kirigami.Heading {
            visible: engram.installed && engram.loaded
            level: 4
            text: "Learning session"
            textFormat: Text.PlainText
        }
        PlasmaComponents3.Label {
            objectName: "sessionTitle"
            Layout.fillWidth: true
            visible: engram.installed && engram.loaded
            text: full.live ? Logic.clean(full.live.title, true) : "No learning session running."
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            maximumLineCount: 2
            elide: Text.ElideRight
            font.bold: full.live !== null
        }
        PlasmaComponents3.Label {
            objectName: "sessionState"
            Layout.fillWidth: true
            visible: full.live !== null
            text: full.live ? ((full.live.state === "running" ? "▶ Running" : "‖ Paused") + " · " + Logic.clock(engram.elapsed)
                               + (full.live.progressTotal > 0 ? " · " + full.live.progressDone + " of " + full.live.progressTotal + " topics done" : ""))
                            : ""
            textFormat: Text.PlainText
        }
        PlasmaComponents3.ProgressBar {
            Layout.fillWidth: true
            visible: full.live !== null && full.live.progressTotal > 0
            from: 0
            to: full.live && full.live.progressTotal > 0 ? full.live.progressTotal : 1
            value: full.live ? full.live.progressDone : 0
        }
        RowLayout {
            visible: full.live !== null && full.live.kind === "learning"
            PlasmaComponents3.Button {
                text: full.live && full.live.state === "paused" ? "Resume" : "Pause"
                icon.name: full.live && full.live.state === "paused" ? "media-playback-start" : "media-playback-pause"
                onClicked: full.live.state === "paused" ? engram.resume() : engram.pause()
            }
            PlasmaComponents3.Button {
                text: "Stop"
                icon.name: "media-playback-stop"
                onClicked: engram.stop()
            }
        }

        // ---------------------------------------------------------------- the memory of the day
        Kirigami.Heading {
            visible: engram.installed && engram.loaded && !engram.sleeping
            level: 4
            text: "Memory of the day"
            textFormat: Text.PlainText
        }
        PlasmaComponents3.Label {
            objectName: "motd"
            Layout.fillWidth: true
            visible: engram.installed && engram.loaded && !engram.sleeping
            text: full.memory ? Logic.clean(full.memory.content, false) : "Nothing to show yet."
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            maximumLineCount: 6
            elide: Text.ElideRight
            MouseArea {
                anchors.fill: parent
                enabled: full.memory !== null
                cursorShape: Qt.PointingHandCursor
                onClicked: engram.open(full.memory.id)
            }
        }
        PlasmaComponents3.Label {
            Layout.fillWidth: true
            visible: full.memory !== null && !engram.sleeping
            text: full.memory ? Logic.clean(full.memory.type + (full.memory.tags.length ? " · #" + full.memory.tags.join(" #") : "")
                                            + " · " + Math.round(full.memory.strength * 100) + "% · " + Logic.fades(full.memory.daysLeft), true) : ""
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            opacity: 0.7
        }

        // ---------------------------------------------------------------- today, and what is about to fade
        Kirigami.Heading {
            visible: full.counts !== null
            level: 4
            text: "Today"
            textFormat: Text.PlainText
        }
        PlasmaComponents3.Label {
            objectName: "today"
            Layout.fillWidth: true
            visible: full.counts !== null
            text: full.counts ? (Logic.plural(full.counts.today, "memory", "memories") + " captured today · "
                                 + full.counts.total + " in all · streak " + Logic.plural(full.counts.streakDays, "day", "days")) : ""
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        PlasmaComponents3.Label {
            objectName: "fading"
            Layout.fillWidth: true
            visible: full.counts !== null
            text: full.counts ? (full.counts.expiringSoon > 0 ? "About to fade (within a week): " + full.counts.expiringSoon
                                                              : "Nothing is about to fade.") : ""
            textFormat: Text.PlainText
        }
        Repeater {
            model: full.fading
            delegate: PlasmaComponents3.Label {
                Layout.fillWidth: true
                text: "• " + Logic.clean(modelData.title, true) + " — " + Logic.fades(modelData.daysLeft)
                textFormat: Text.PlainText
                elide: Text.ElideMiddle
                MouseArea {
                    anchors.fill: parent
                    cursorShape: Qt.PointingHandCursor
                    onClicked: engram.open(modelData.id)
                }
            }
        }

        // ---------------------------------------------------------------- capture
        RowLayout {
            Layout.fillWidth: true
            Layout.topMargin: Kirigami.Units.smallSpacing
            visible: engram.installed
            PlasmaComponents3.TextField {
                id: capture
                objectName: "capture"
                Layout.fillWidth: true
                placeholderText: "Remember…"
                onAccepted: if (engram.remember(text)) text = ""
            }
            PlasmaComponents3.Button {
                text: "Remember"
                icon.name: "list-add"
                enabled: capture.text.trim() !== ""
                onClicked: if (engram.remember(capture.text)) capture.text = ""
            }
        }
        PlasmaComponents3.Label {
            objectName: "actionMessage"
            Layout.fillWidth: true
            visible: text !== ""
            text: engram.actionMessage
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: engram.actionFailed ? Kirigami.Theme.negativeTextColor : Kirigami.Theme.textColor
        }

        RowLayout {
            Layout.fillWidth: true
            visible: engram.installed
            // Push-to-talk: `engram listen` until a pause (or this button again); what it heard and did shows above.
            PlasmaComponents3.Button {
                objectName: "listen"
                text: engram.micLit ? "Stop listening" : "Listen"
                icon.name: "audio-input-microphone"
                checkable: false
                onClicked: engram.listen()
            }
            Item { Layout.fillWidth: true }
            PlasmaComponents3.Button {
                text: "Open Engram"
                icon.name: "org.engram.Engram"
                onClicked: engram.open("")
            }
        }
        Item { Layout.fillHeight: true }
    }
}
