#if canImport(Glibc)
import Glibc

/// Reaches the glibc functions Swift's Glibc module leaves out (those of `<malloc.h>`, or behind `_GNU_SOURCE`):
/// looked up by name among the symbols the process has loaded.
public enum GlibcSymbol {
    /// The function `name` as `type` (a `@convention(c)` function type), or nil when this glibc lacks it.
    public static func load<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: type)
    }
}
#endif
