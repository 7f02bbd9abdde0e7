// The panel's view (compact representation): Engram's icon, and beside it the running session's time (▶ 12:34,
// ‖ when paused). A click opens the popup. Shared by Plasma 5.27 and Plasma 6.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.kirigami 2.20 as Kirigami
import "engram.js" as Logic

MouseArea {
    id: compact
    property var engram
    signal toggle()

    readonly property string label: engram.live ? (engram.live.state === "running" ? "▶ " : "‖ ") + Logic.clock(engram.elapsed) : ""

    Layout.minimumWidth: row.implicitWidth
    Layout.preferredWidth: row.implicitWidth
    hoverEnabled: true
    onClicked: compact.toggle()

    RowLayout {
        id: row
        anchors.fill: parent
        spacing: Kirigami.Units.smallSpacing
        Kirigami.Icon {
            Layout.fillHeight: true
            Layout.preferredWidth: height
            source: "org.engram.Engram"
            fallback: "accessories-dictionary"
            active: compact.containsMouse
        }
        PlasmaComponents3.Label {
            objectName: "compactLabel"
            visible: text !== ""
            text: compact.label
            textFormat: Text.PlainText
        }
    }
}
