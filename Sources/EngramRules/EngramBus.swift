/// Engram's names on the session bus and the desktop, in one place for every program: the daemon that owns them,
/// the commands and the window that call it, the lean feed that follows it, the notifications that name it.
public enum EngramBus {
    /// The well-known name the daemon owns, also the D-Bus activation name.
    public static let name = "org.engram.Engram"
    /// The interface the CLI, scripts, the extension and the widget call: capture, intents, sync and rebuild.
    public static let appInterface = "org.engram.Engram1"
    /// The object serving `org.engram.Engram1`.
    public static let appPath = "/org/engram/Engram"
    /// The object serving `org.gnome.Shell.SearchProvider2`.
    public static let searchProviderPath = "/org/engram/Engram/SearchProvider"
    /// The object serving `org.kde.krunner1`.
    public static let runnerPath = "/runner"
    /// The prefix of the daemon's own error names, such as `org.engram.Engram.Error.NotFound`.
    public static let errorPrefix = "org.engram.Engram.Error."
    /// The window's application id (`engram-app`), the name it owns while open.
    public static let windowName = "org.engram.Engram.App"
    /// The desktop entry's id (`org.engram.Engram.desktop`) and the icon's name: what notifications name.
    public static let desktopEntry = "org.engram.Engram"
}
