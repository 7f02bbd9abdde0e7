#if canImport(Glibc)
import Glibc
#endif

/// glibc heap tuning for a long-running daemon, in one place and one technique (glibc's own functions, declared
/// here because the Glibc module leaves out <malloc.h>).
enum Heap {
    /// A client may send messages of many megabytes (the bus allows 128 MB). glibc raises its mmap threshold after
    /// freeing such a block, so later ones come from the heap and stay in RSS after they are freed (200 MB after
    /// part 3 of `make stress`); a fixed threshold keeps them mmapped and returned when freed.
    static func returnLargeBlocksToTheSystem() {
        #if canImport(Glibc)
        let mTrimThreshold: Int32 = -1, mMmapThreshold: Int32 = -3  // <malloc.h>
        _ = glibcMallopt(mMmapThreshold, 256 * 1024)
        _ = glibcMallopt(mTrimThreshold, 1024 * 1024)
        #endif
    }

    /// Returns the heap's free pages to the system: a big apply, sweep or rebuild frees far more than the daemon
    /// holds while idle, and glibc keeps it otherwise.
    static func releaseFreedMemory() {
        #if canImport(Glibc)
        _ = glibcMallocTrim(0)
        #endif
    }
}

#if canImport(Glibc)
/// glibc's `int mallopt(int param, int value)`.
@_silgen_name("mallopt")
private func glibcMallopt(_ param: Int32, _ value: Int32) -> Int32

/// glibc's `int malloc_trim(size_t pad)`.
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
