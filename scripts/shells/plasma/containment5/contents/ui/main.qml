// The plasma suite's containment for plasmoidviewer 5.27 (Debian has no org.kde.desktopcontainment without all of
// plasma-desktop): each applet fills the window; in a horizontal form factor it gets a panel's 32-pixel strip.
import QtQuick 2.15
import org.kde.plasma.plasmoid 2.0

Item {
    id: root
    // A light page behind the applet, as Breeze's popup background is (the viewer has no wallpaper).
    Rectangle { anchors.fill: parent; color: "#eff0f1" }
    function add(applet) {
        applet.parent = root;
        applet.anchors.left = root.left;
        applet.anchors.top = root.top;
        applet.width = Qt.binding(function () { return plasmoid.formFactor === 2 ? Math.min(root.width, 160) : root.width; });
        applet.height = Qt.binding(function () { return plasmoid.formFactor === 2 ? 32 : root.height; });
        applet.visible = true;
    }
    Containment.onAppletAdded: add(applet)
    Component.onCompleted: {
        var applets = plasmoid.applets;
        for (var i = 0; i < applets.length; i++) add(applets[i]);
    }
}
