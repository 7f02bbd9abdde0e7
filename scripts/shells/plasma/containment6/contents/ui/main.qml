// The plasma suite's containment for plasmoidviewer 6 (no org.kde.desktopcontainment without plasma-desktop): each
// applet fills the window; in a horizontal form factor it gets a panel's 32-pixel strip.
import QtQuick
import org.kde.plasma.plasmoid

ContainmentItem {
    id: root
    // A light page behind the applet, as Breeze's popup background is (the viewer has no wallpaper).
    Rectangle { anchors.fill: parent; color: "#eff0f1" }
    function add(applet) {
        const item = root.itemFor(applet);
        if (!item) return;
        item.parent = root;
        item.x = 0;
        item.y = 0;
        item.width = Qt.binding(() => Plasmoid.formFactor === 2 ? Math.min(root.width, 160) : root.width);
        item.height = Qt.binding(() => Plasmoid.formFactor === 2 ? 32 : root.height);
        item.visible = true;
    }
    Containment.onAppletAdded: (applet, geometry) => add(applet)
    Component.onCompleted: Plasmoid.applets.forEach(add)
}
