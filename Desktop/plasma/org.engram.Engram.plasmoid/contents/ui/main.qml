// Plasma 6's root (libplasma 6 loads contents/ui/main.qml; for Plasma 5.27 install-plasmoid.sh puts main5.qml in
// its place): PlasmoidItem, and Plasma5Support.DataSource for the "executable" engine. Everything else is shared with Plasma 5.27 (main5.qml): Engram.qml, FullView.qml,
// CompactView.qml, engram.js.
import QtQuick
import org.kde.plasma.plasmoid
import org.kde.plasma.plasma5support as Plasma5Support
import org.kde.kirigami as Kirigami

PlasmoidItem {
    id: root

    Engram {
        id: engramModel
        source: executable
    }

    Plasma5Support.DataSource {
        id: executable
        engine: "executable"
        connectedSources: []
    }

    toolTipMainText: "Engram"
    toolTipSubText: engramModel.problem !== "" ? engramModel.problem : engramModel.summary
    switchWidth: Kirigami.Units.gridUnit * 16
    switchHeight: Kirigami.Units.gridUnit * 12
    compactRepresentation: CompactView {
        engram: engramModel
        onToggle: root.expanded = !root.expanded
    }
    fullRepresentation: FullView {
        engram: engramModel
    }
}
