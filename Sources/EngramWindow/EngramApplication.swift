import CGtk
import EngramApp
import EngramCore
import Foundation
import GtkKit

/// The Engram app: one instance per session (a second launch hands its links to the first and exits), one window,
/// opened on a memory, a search or a session by every click on the desktop.
///
/// Its application id is `org.engram.Engram.App`: the daemon owns `org.engram.Engram` on the session bus, and a
/// GApplication owns the bus name of its id, so the two cannot share one. The desktop entry stays
/// `org.engram.Engram.desktop` (the search provider's `DesktopId`, the scheme handler, the app grid); its
/// `StartupWMClass=org.engram.Engram.App` ties the window to it, so the shell shows Engram's name and icon.
public final class EngramApplication {
    public static let id = EngramBus.windowName

    let data: WindowData
    let app: UnsafeMutablePointer<AdwApplication>
    var window: MainWindow?
    /// Links asked for before the window existed.
    var pending: [String] = []
    var bare = false

    public init(library: Library) {
        data = WindowData(library: library)
        app = adw_application_new(Self.id, G_APPLICATION_HANDLES_OPEN)
        g_application_set_option_context_summary(cast(raw(app)), "Opens Engram's window, on an engram:// link if given.")
        Signal.connect(app, "activate") { [unowned self] in self.present(links: []) }
        Signal.connectOpen(app) { [unowned self] uris in self.present(links: uris) }
        Signal.connect(app, "startup") { [unowned self] in self.startup() }
    }

    /// Runs until the window closes; returns the exit status.
    public func run(_ arguments: [String]) -> Int32 {
        var argv = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        return argv.withUnsafeMutableBufferPointer { buffer in
            g_application_run(cast(raw(app)), Int32(buffer.count), buffer.baseAddress)
        }
    }

    func startup() {
        if ProcessInfo.processInfo.environment["ENGRAM_APP_DARK"] == "1" {
            adw_style_manager_set_color_scheme(adw_style_manager_get_default(), ADW_COLOR_SCHEME_FORCE_DARK)
        } else if ProcessInfo.processInfo.environment["ENGRAM_APP_DARK"] == "0" {
            adw_style_manager_set_color_scheme(adw_style_manager_get_default(), ADW_COLOR_SCHEME_FORCE_LIGHT)
        }
        let quit = g_simple_action_new("quit", nil)!
        Signal.connect1(quit, "activate") { [unowned self] _ in g_application_quit(cast(raw(self.app))) }
        g_action_map_add_action(cast(raw(app)), cast(raw(quit)))
        accels("app.quit", ["<Control>q"])
        accels("win.search", ["<Control>f"])
        accels("win.capture", ["<Control>n"])
        accels("win.listen", ["<Control><Shift>l"])
        accels("win.back", ["<Alt>Left", "Escape"])
        accels("win.show-help-overlay", ["<Control>question"])
        accels("win.learning", ["<Control>l"])
        accels("win.review", ["<Control>r"])
    }

    func accels(_ action: String, _ keys: [String]) {
        var list = keys.map { UnsafePointer(strdup($0)) } + [nil]
        list.withUnsafeMutableBufferPointer { gtk_application_set_accels_for_action(cast(raw(app)), action, $0.baseAddress) }
        list.forEach { free(UnsafeMutableRawPointer(mutating: $0)) }
    }

    /// Shows the window (made on first use), raised and focused, on `links` (the last one wins).
    func present(links: [String]) {
        if ProcessInfo.processInfo.environment["ENGRAM_APP_BARE"] == "1" {
            if window == nil, bare == false { bare = true; BareWindow.present(app) }
            return
        }
        if ProcessInfo.processInfo.environment["ENGRAM_APP_DEBUG"] == "1" { FileHandle.standardError.write(Data("present \(links)\n".utf8)) }
        let w: MainWindow
        if let window {
            w = window
        } else {
            w = MainWindow(application: self)
            window = w
        }
        for link in links { w.open(link: link) }
        w.present()
    }
}
