import EngramCore

/// The daemon's glibc heap tuning: what a long-running process needs so memory it freed leaves its RSS.
///
/// Both functions live in `<malloc.h>`, which Swift's Glibc module leaves out; `GlibcSymbol` finds them.
enum Heap {
    /// Keeps large blocks mmapped, so they go back to the system when freed.
    ///
    /// A client may send messages of many megabytes (the bus allows 128 MB). glibc raises its mmap threshold after
    /// freeing such a block, so later ones come from the heap and stay in RSS after they are freed (200 MB after
    /// part 3 of `make stress`); a fixed threshold keeps them mmapped and returned when freed.
    static func returnLargeBlocksToTheSystem() {
        #if canImport(Glibc)
        guard let mallopt else { return }
        let mTrimThreshold: Int32 = -1, mMmapThreshold: Int32 = -3  // <malloc.h>
        _ = mallopt(mMmapThreshold, 256 * 1024)
        _ = mallopt(mTrimThreshold, 1024 * 1024)
        #endif
    }

    /// Returns the heap's free pages to the system: a big apply, sweep or rebuild frees far more than the
    /// daemon holds while idle, and glibc keeps it otherwise.
    static func releaseFreedMemory() {
        #if canImport(Glibc)
        if let mallocTrim { _ = mallocTrim(0) }
        #endif
    }

    #if canImport(Glibc)
    /// `int mallopt(int param, int value)`.
    private static let mallopt = GlibcSymbol.load("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self)
    /// `int malloc_trim(size_t pad)`.
    private static let mallocTrim = GlibcSymbol.load("malloc_trim", as: (@convention(c) (Int) -> Int32).self)
    #endif
}
