// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Engram",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "engram", targets: ["engram"]),
        .executable(name: "engram-feed", targets: ["engram-feed"]),
        .executable(name: "engram-mcp", targets: ["engram-mcp"]),
        .executable(name: "engram-app", targets: ["engram-app"]),
        .library(name: "EngramCore", targets: ["EngramCore"]),
        .library(name: "Indexer", targets: ["Indexer"]),
        .library(name: "Meaning", targets: ["Meaning"]),
        .library(name: "EngramApp", targets: ["EngramApp"]),
        .library(name: "Feeds", targets: ["Feeds"]),
        .library(name: "Notifier", targets: ["Notifier"]),
        .library(name: "Intents", targets: ["Intents"]),
        .library(name: "Daemon", targets: ["Daemon"]),
        .library(name: "EngramClient", targets: ["EngramClient"]),
        .library(name: "Voice", targets: ["Voice"]),
    ],
    // Every package at an exact version, those the targets use and those they bring, so two clones a month apart
    // build the same code (Package.resolved stays out of git: the package mirror's commit ids are its own).
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/jpsim/Yams", exact: "5.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", exact: "0.12.1"),
        // What those build on, pinned here too (and named by the targets that link them): the MCP SDK's
        // SystemPackage, service-lifecycle's AsyncAlgorithms and its DequeModule. The SDK's other packages (swift-nio,
        // swift-atomics, eventsource) are resolved but never built here: only Apple platforms and its conformance
        // server use them.
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
        .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
    ],
    targets: [
        // Xapian behind a plain C header (notmuch-style); only Indexer imports it.
        .target(
            name: "CXapian",
            linkerSettings: [.linkedLibrary("xapian"), .linkedLibrary("stdc++")]
        ),
        // libdbus-1 through pkg-config; only the DBus module imports it.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // The rules the core and the lean feed share: memory types, the forgetting curve, stats counts, the streak,
        // XDG paths, timestamps, markup escaping, glibc symbols. Foundation-free (Glibc and the standard library
        // only), so the feed binary stays lean; EngramCore and Feeds re-export it.
        .target(name: "EngramRules"),
        // Model, store, config, import/export, starting programs (Spawner); the Date side of EngramRules.
        .target(
            name: "EngramCore",
            dependencies: [
                "EngramRules",
                .product(name: "GRDB", package: "GRDB.swift"),
                // Sync's folder reader warns in the journal about what it skips.
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The Xapian full-text index and nothing else: the document applier (outbox → index), search, expiry,
        // rebuild, compaction. It never writes the store.
        .target(name: "Indexer", dependencies: ["CXapian", "EngramCore"]),
        // Sentence embeddings for meaning search: the e5 engine (loaded at run time from the installed model folder),
        // vectors and their brute-force index.
        .target(name: "Meaning", dependencies: ["EngramCore"]),
        // The application layer every surface is a client of: Library (paths, config, store, index, meaning,
        // handoff), links (`LinkHandler`), one search request for every surface, and the outbox's consumers after
        // the index (automatic links, vectors).
        .target(name: "EngramApp", dependencies: ["EngramCore", "Indexer", "Meaning"]),
        // A typed Swift layer over libdbus-1.
        .target(name: "DBus", dependencies: ["CDBus"]),
        // The D-Bus layer's lazy-loading signal watcher: opens libdbus-1 with dlopen only when it connects, links
        // nothing, no Foundation; for the lean feed binary, whose one-shot runs must never load libdbus.
        .target(name: "DBusWatch"),
        // The system SQLite, for the Feeds module's lean read-only reader.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Widget feeds and their per-sink renderers; Foundation-free so bars start it fast.
        .target(
            name: "Feeds",
            dependencies: ["CSQLite", "DBusWatch", "EngramRules"]
        ),
        // The lean feed binary bars run every few seconds: no Foundation, GRDB, Xapian or libdbus linked, and in
        // release the Swift runtime linked in, so it starts in a few milliseconds.
        .executableTarget(
            name: "engram-feed",
            dependencies: ["Feeds"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        // Live, updating freedesktop notifications.
        .target(name: "Notifier", dependencies: ["DBus", "EngramCore"]),
        // The catalog of intents and phrases, shortcuts, contexts, summaries, graphs, analytics, delayed intents.
        .target(
            name: "Intents",
            dependencies: ["EngramCore", "Indexer", "EngramApp", "Meaning"]
        ),
        // `engram daemon`: the index writer, GNOME Shell and KRunner providers, org.engram.Engram1.
        .target(
            name: "Daemon",
            dependencies: [
                "DBus", "Indexer", "EngramApp", "Meaning", "EngramCore", "Notifier", "Intents",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // What commands call to reach the index and the bus: make changes searchable or say who will, rebuild
        // wherever the writer is, live notifications on the session bus.
        .target(name: "EngramClient", dependencies: ["DBus", "EngramCore", "Indexer", "EngramApp", "Notifier"]),
        // `engram mcp`: the intent catalog as MCP tools and the memories as resources, over stdio.
        .target(
            name: "EngramMCP",
            dependencies: ["EngramApp", "EngramClient", "EngramCore", "Intents", .product(name: "MCP", package: "swift-sdk"),
                           .product(name: "Logging", package: "swift-log"), .product(name: "SystemPackage", package: "swift-system")]
        ),
        // Push-to-talk: sound from the audio server (libpulse-simple), recognised on the device (Moonshine through
        // sherpa-onnx) or by a Wyoming server, answers spoken; every library opened with dlopen, so engram runs and
        // builds without them.
        .target(name: "Voice", dependencies: ["EngramCore"]),
        // `engram-mcp`, which `engram mcp` runs: the MCP server in a binary of its own, since the SDK links Foundation's
        // networking (libcurl and its libraries) and every `engram` command would load it at start-up.
        .executableTarget(name: "engram-mcp", dependencies: ["EngramMCP", "EngramApp", "EngramCore"]),
        // GTK 4 and libadwaita through pkg-config: one header (`shim.h`) for what Swift cannot call directly.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "libadwaita-1",
            providers: [.apt(["libadwaita-1-dev", "libgtk-4-dev"])]
        ),
        // The one place GObject meets Swift: casts, signals as closures, the GLib main loop. Swift 5 mode: GTK's
        // objects live on the loop's thread, which Swift's main actor (the dispatch main queue) does not run.
        .target(name: "GtkKit", dependencies: ["CGtk"], swiftSettings: [.swiftLanguageMode(.v5)]),
        // The window (GTK 4 + libadwaita): another client of the application layer, as the CLI and the MCP server are.
        .target(
            name: "EngramWindow",
            dependencies: ["CGtk", "GtkKit", "EngramApp", "EngramClient", "EngramCore", "Indexer", "Intents"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // `engram-app`: the window, a binary of its own so no command loads GTK.
        .executableTarget(name: "engram-app", dependencies: ["EngramWindow", "EngramApp", "EngramCore"],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "engram",
            dependencies: [
                "EngramCore", "Indexer", "EngramApp", "Feeds", "Notifier", "Intents", "Daemon", "EngramClient", "Voice",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `make bench`: in-process query latency (not installed; lives with the other bench drivers).
        .executableTarget(
            name: "engram-bench",
            dependencies: ["EngramCore", "Indexer", "EngramApp", "Meaning"],
            path: "scripts/bench/engram-bench"
        ),
        .testTarget(name: "EngramRulesTests", dependencies: ["EngramRules"]),
        .testTarget(name: "EngramWindowTests", dependencies: ["EngramWindow", "Intents"]),
        .testTarget(name: "EngramCoreTests", dependencies: ["EngramCore", "EngramTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        // Sync: the merge's properties, two stores converging through a copied folder, bad input.
        .testTarget(name: "SyncTests", dependencies: ["EngramCore", "EngramTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "IndexerTests", dependencies: ["Indexer", "EngramApp", "Meaning", "EngramCore", "CXapian"]),
        // What test targets share: temporary folders, a clock to move, child processes, private buses.
        .target(name: "EngramTestSupport", dependencies: ["DBus"], path: "Tests/EngramTestSupport"),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "DBusWatch", "EngramTestSupport"]),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds", "EngramCore", "EngramTestSupport", .product(name: "GRDB", package: "GRDB.swift")], resources: [.copy("Golden")]),
        .testTarget(name: "EngramClientTests", dependencies: ["EngramClient", "Indexer", "EngramApp", "EngramCore", "EngramTestSupport"]),
        .testTarget(name: "EngramTests", dependencies: ["EngramCore", "EngramTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "IntentsTests", dependencies: ["Intents", "Indexer", "EngramApp", "EngramCore", "EngramTestSupport"], resources: [.copy("Golden")]),
        .testTarget(name: "VoiceTests", dependencies: ["Voice", "EngramCore", "EngramTestSupport"]),
        .testTarget(name: "NotifierTests", dependencies: ["Notifier", "DBus", "EngramCore", "EngramTestSupport"]),
        .testTarget(name: "DaemonTests", dependencies: ["Daemon", "DBus", "EngramCore", "Indexer", "EngramApp", "Intents", "Notifier", "EngramTestSupport",
                                                  .product(name: "Logging", package: "swift-log")],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
