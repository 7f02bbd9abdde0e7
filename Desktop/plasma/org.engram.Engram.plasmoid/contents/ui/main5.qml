// Plasma 5.27's root, installed as contents/ui/main.qml where Plasma 5 runs (install-plasmoid.sh): an Item with
// Plasmoid's attached properties, and PlasmaCore.DataSource for the "executable" engine. Everything else is
// shared with Plasma 6: Engram.qml, FullView.qml, CompactView.qml, engram.js.
import QtQuick 2.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore

Item {
    id: root

    Engram {
        id: engramModel
        source: executable
    }

    PlasmaCore.DataSource {
        id: executable
        engine: "executable"
        connectedSources: []
    }

    Plasmoid.icon: "org.engram.Engram"
    Plasmoid.toolTipMainText: "Engram"
    Plasmoid.toolTipSubText: engramModel.problem !== "" ? engramModel.problem : engramModel.summary
    Plasmoid.switchWidth: PlasmaCore.Units.gridUnit * 16
    Plasmoid.switchHeight: PlasmaCore.Units.gridUnit * 12
    Plasmoid.compactRepresentation: CompactView {
        engram: engramModel
        onToggle: plasmoid.expanded = !plasmoid.expanded
    }
    Plasmoid.fullRepresentation: FullView {
        engram: engramModel
    }
}
