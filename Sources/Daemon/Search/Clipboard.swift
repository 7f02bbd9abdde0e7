import DBus
import EngramCore
import Foundation
import Logging

/// Puts text on the desktop's clipboard for KRunner's "copy" action: through Klipper on Plasma (the way
/// KDE's own runners do it, and it works on X11 and Wayland alike), else `wl-copy`, `xclip` or `xsel`.
struct Clipboard: Sendable {
    /// The connection to ask Klipper through.
    let bus: DBusConnection
    let log: Logger

    static let klipperName = "org.kde.klipper"
    static let klipperPath: DBusObjectPath = "/klipper"
    static let klipperInterface = "org.kde.klipper.klipper"

    /// Copies `text`; returns how, or nil (and a log line) if nothing could take it.
    @discardableResult
    func copy(_ text: String) -> String? {
        if (try? bus.nameOwner(Self.klipperName)) != nil {
            do {
                _ = try bus.call(destination: Self.klipperName, path: Self.klipperPath, interface: Self.klipperInterface,
                                 method: "setClipboardContents", arguments: [.string(text)], timeout: .seconds(2))
                return "klipper"
            } catch {
                log.warning("Klipper did not take the text", metadata: ["error": "\(error)"])
            }
        }
        let env = ProcessInfo.processInfo.environment
        var tools: [[String]] = []
        if env["WAYLAND_DISPLAY"] != nil { tools.append(["wl-copy"]) }
        if env["DISPLAY"] != nil { tools += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]] }
        for tool in tools {
            guard let path = TerminalLauncher.resolve(tool[0]) else { continue }
            if Self.pipe(text, to: path, Array(tool.dropFirst())) { return tool[0] }
        }
        log.warning("no clipboard to copy to: neither Klipper nor wl-copy, xclip or xsel is available")
        return nil
    }

    /// Runs a clipboard tool with `text` on its standard input; true if it started.
    private static func pipe(_ text: String, to path: String, _ arguments: [String]) -> Bool {
        (try? Spawner.start(path, arguments, input: Data(text.utf8))) != nil
    }
}
