/// Engram's version, as `engram --version` and the MCP server report it.
public enum EngramVersion {
    public static let current = "0.1.0"
}
