/// The sizes every surface holds input to, in one place so that a query the command line takes is one the desktop
/// takes too.
public enum Limits {
    /// The longest search query, in UTF-8 bytes (a launcher, D-Bus, a phrase or `engram search`).
    public static let maxQueryBytes = 8192
}
