import CXapian
import EngramCore
import Foundation

/// Where an index lives on disk: a Xapian stub file `<dir>/index` naming the current generation `<dir>/index.d/<n>`.
///
/// Readers and writers open the stub path. A rebuild writes a new generation and swaps
/// the stub with `rename()`, so readers never see a half-built index. The stub holds
/// `auto index.d/<n>`, a path relative to the stub's directory, so the data directory
/// can be moved.
public enum IndexLayout {
    /// The stub file's name inside the data directory.
    public static let stubName = "index"

    /// The stub path for a data directory.
    public static func stubPath(inDirectory directory: String) -> String {
        (directory as NSString).appendingPathComponent(stubName)
    }

    /// The directory holding the generations of the index whose stub is at stubPath.
    public static func generationsDirectory(forStub stubPath: String) -> String {
        stubPath + ".d"
    }

    /// The absolute path of the generation the stub currently names, or nil if there is no stub.
    public static func currentGeneration(forStub stubPath: String) throws -> String? {
        guard let contents = FileManager.default.contents(atPath: stubPath) else { return nil }
        guard let text = String(data: contents, encoding: .utf8) else {
            throw IndexError.corrupt("the index stub file \(stubPath) is not text")
        }
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, fields[0] == "auto" || fields[0] == "glass" else { continue }
            let target = String(fields[1])
            if target.hasPrefix("/") { return target }
            return ((stubPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        throw IndexError.corrupt("the index stub file \(stubPath) names no database")
    }

    /// The names of the existing numbered generations, in ascending order.
    public static func generations(forStub stubPath: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: generationsDirectory(forStub: stubPath))) ?? []
        return names.filter { !$0.isEmpty && $0.allSatisfy(\.isNumber) }.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
    }

    /// Removes every numbered generation but the one the stub names; call only while holding the index's writer
    /// (a rebuild holds it until its swap, so no generation is being built meanwhile).
    public static func removeOtherGenerations(forStub stubPath: String) {
        guard let current = try? currentGeneration(forStub: stubPath) else { return }
        let keep = (current as NSString).standardizingPath
        for name in generations(forStub: stubPath) {
            let path = generationPath(forStub: stubPath, name: name)
            if (path as NSString).standardizingPath != keep { try? FileManager.default.removeItem(atPath: path) }
        }
    }

    /// The process holding the writer of the index at stubPath (its current generation's lock file open), if it
    /// can be told: Xapian's lock is an open file description lock, which records no process, so this looks for
    /// the process with the lock file open among those this user may inspect. Never this process.
    public static func writerHolder(forStub stubPath: String) -> pid_t? {
        guard let generation = try? currentGeneration(forStub: stubPath) else { return nil }
        let lockFile = ((generation as NSString).appendingPathComponent("flintlock") as NSString).resolvingSymlinksInPath
        let me = getpid()
        guard let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for name in processes {
            guard let pid = pid_t(name), pid != me,
                  let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(name)/fd") else { continue }
            for fd in descriptors where (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(name)/fd/\(fd)")) == lockFile {
                return pid
            }
        }
        return nil
    }

    /// Creates the next numbered generation directory (mode 0700) and returns its name.
    static func makeGeneration(forStub stubPath: String) throws -> String {
        let directory = generationsDirectory(forStub: stubPath)
        try makePrivateDirectory(directory)
        var next = (generations(forStub: stubPath).last.flatMap { Int($0) } ?? 0) + 1
        while true {
            let path = (directory as NSString).appendingPathComponent(String(next))
            if mkdir(path, 0o700) == 0 { return String(next) }
            guard errno == EEXIST else { throw posixError("could not create the index generation \(path)") }
            next += 1
        }
    }

    /// Makes the files of the current generation private (0600): Xapian creates its tables with the process umask.
    static func makeFilesPrivate(forStub stubPath: String) {
        guard let generation = try? currentGeneration(forStub: stubPath),
              let names = try? FileManager.default.contentsOfDirectory(atPath: generation) else { return }
        for name in names {
            let path = (generation as NSString).appendingPathComponent(name)
            var st = stat()
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, (st.st_mode & 0o077) != 0 { _ = chmod(path, 0o600) }
        }
    }

    /// The path of a generation by name.
    static func generationPath(forStub stubPath: String, name: String) -> String {
        (generationsDirectory(forStub: stubPath) as NSString).appendingPathComponent(name)
    }

    /// The stub file's contents naming a generation, relative to the stub's directory.
    static func stubContents(forStub stubPath: String, generation name: String) -> String {
        let relative = ((generationsDirectory(forStub: stubPath) as NSString).lastPathComponent as NSString)
            .appendingPathComponent(name)
        return "auto \(relative)\n"
    }

    /// Writes a temporary stub naming a generation, flushed to disk, and returns its path.
    static func writeTemporaryStub(forStub stubPath: String, generation name: String) throws -> String {
        let temporary = "\(stubPath).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try DurableFile.create(temporary, with: Data(stubContents(forStub: stubPath, generation: name).utf8), exclusive: true)
        } catch {
            throw IndexError.io("could not write the index stub \(temporary): \(error)")
        }
        return temporary
    }

    /// Atomically points the stub at a generation: temporary stub, then rename() over the old one.
    static func swapStub(_ stubPath: String, toGeneration name: String) throws {
        let temporary = try writeTemporaryStub(forStub: stubPath, generation: name)
        do {
            try DurableFile.move(temporary, over: stubPath)
        } catch {
            throw IndexError.io("could not replace the index stub \(stubPath): \(error)")
        }
        makeFilesPrivate(forStub: stubPath)
    }

    /// Creates a new empty index at stubPath and returns its open writer handle, or nil if another process created one first.
    static func createIndex(stubPath: String) throws -> OpaquePointer? {
        try makePrivateDirectory((stubPath as NSString).deletingLastPathComponent)
        let name = try makeGeneration(forStub: stubPath)
        let generation = generationPath(forStub: stubPath, name: name)
        var handle: OpaquePointer?
        do {
            try shimCall { cx_writer_open(generation, 1, &handle, $0) }
            try shimCall { cx_writer_commit(handle, 0, $0) }
            let temporary = try writeTemporaryStub(forStub: stubPath, generation: name)
            defer { unlink(temporary) }
            // link() fails if the stub exists, so two creators cannot both win.
            if link(temporary, stubPath) != 0 {
                guard errno == EEXIST else { throw posixError("could not create the index stub \(stubPath)") }
                cx_writer_destroy(handle)
                try? FileManager.default.removeItem(atPath: generation)
                return nil
            }
            DurableFile.syncDirectory(containing: stubPath)
            return handle
        } catch {
            cx_writer_destroy(handle)
            try? FileManager.default.removeItem(atPath: generation)
            throw error
        }
    }

    /// Creates a directory and its parents with mode 0700 if missing.
    public static func makePrivateDirectory(_ path: String) throws {
        guard !path.isEmpty, !FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw IndexError.io("could not create the directory \(path): \(error.localizedDescription)")
        }
    }

    /// An `.io` error with errno's description.
    private static func posixError(_ what: String) -> IndexError {
        .io("\(what): \(String(cString: strerror(errno)))")
    }
}
