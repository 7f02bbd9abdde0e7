import EngramCore
import Foundation

/// The active context (work, personal, sleep, custom) and, optionally, GNOME's do-not-disturb following it.
///
/// The context lives in the store's settings (key "context"), where search, review, feeds and every intent read it.
public struct ContextControl {
    public let store: Store
    /// Reads GNOME's `show-banners`; nil when it cannot be read. Tests pass their own.
    public var readShowBanners: () -> Bool?

    /// Settings keys.
    static let followKey = "context.follow-dnd"
    static let beforeSleepKey = "context.before-dnd"

    /// Creates a control; by default do-not-disturb is read with `gsettings`.
    public init(store: Store, readShowBanners: @escaping () -> Bool? = ContextControl.gsettingsShowBanners) {
        self.store = store
        self.readShowBanners = readShowBanners
    }

    /// The active context, or nil when everything is shown.
    public func current() throws -> String? { try store.activeContext() }

    /// Makes `name` the active context.
    public func set(_ name: String) throws {
        guard Identifier.isValid(name) else {
            throw EngramError.invalidInput("a context name is letters, digits, '-', '_' or '.' (like work, personal, sleep)")
        }
        try store.setSetting("context", name)
        try store.setSetting(Self.beforeSleepKey, nil)
    }

    /// Shows everything again.
    public func clear() throws {
        try store.setSetting("context", nil)
        try store.setSetting(Self.beforeSleepKey, nil)
    }

    /// Whether the context follows GNOME's do-not-disturb.
    public func followsDND() throws -> Bool { try store.setting(Self.followKey) == "on" }

    /// Turns following do-not-disturb on or off.
    public func setFollowDND(_ on: Bool) throws {
        try store.setSetting(Self.followKey, on ? "on" : nil)
        if on { try sync() }
    }

    /// When following do-not-disturb: switches to sleep while banners are off, and back to the earlier context
    /// when they are on again. Returns the context now active. The daemon calls this each minute; the CLI on use.
    @discardableResult
    public func sync() throws -> String? {
        let ctx = try current()
        guard try followsDND(), let banners = readShowBanners() else { return ctx }
        if !banners, ctx != "sleep" {
            try store.setSetting(Self.beforeSleepKey, ctx ?? "")
            try store.setSetting("context", "sleep")
            return "sleep"
        }
        if banners, ctx == "sleep", let before = try store.setting(Self.beforeSleepKey) {
            // Only undo a sleep we set ourselves.
            try store.setSetting("context", before.isEmpty ? nil : before)
            try store.setSetting(Self.beforeSleepKey, nil)
            return before.isEmpty ? nil : before
        }
        return ctx
    }

    /// GNOME's `org.gnome.desktop.notifications show-banners`, read with gsettings; nil if unavailable.
    public static func gsettingsShowBanners() -> Bool? {
        guard let gs = Spawner.find("gsettings"),
              let r = try? Executables.run(gs, ["get", "org.gnome.desktop.notifications", "show-banners"]), r.status == 0 else { return nil }
        switch r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// One sentence describing the context.
    public func describe() throws -> String {
        let follow = try followsDND() ? " (following GNOME's do-not-disturb)" : ""
        switch try current() {
        case nil: return "No context: everything is shown\(follow)."
        case "sleep": return "Context: sleep — nothing is shown\(follow). `engram context clear` shows everything again."
        case let c?: return "Context: \(c) — search, feeds and review show \(c) memories and those without a context\(follow)."
        }
    }
}
