/// The store's names that readers other than the store itself rely on: the migrations (GRDB's identifiers, in
/// `grdb_migrations`) and the indexes a reader asks for by name. The store creates them from these constants and the
/// lean feed asks for them by the same constants, so neither guesses which migration ran.
public enum StoreSchema {
    /// GRDB's table of applied migration identifiers.
    public static let migrationsTable = "grdb_migrations"

    /// The store's migrations, in order; never renamed once shipped.
    public enum Migration: String, CaseIterable, Sendable {
        case initial = "v1-initial"
        case delayedIntents = "v2-delayed-intents"
        case outboxLink = "v3-outbox-link"
        /// The `memory_fading` index.
        case memoryFadingIndex = "v4-memory-fading-index"
        /// `session.host` and `session.notification`.
        case sessionHost = "v5-session-host"
        case vectors = "v6-vectors"
        case vectorVersion = "v7-vector-version"
        case sync = "v8-sync"
    }

    /// The index on (type, useCount, pinned, lastReinforced, id) that the memory of the day and the fading counts walk.
    public static let memoryFadingIndex = "memory_fading"

    /// The SQL that asks whether `migration` has run (one row when it has).
    public static func hasRunSQL(_ migration: Migration) -> String {
        "SELECT 1 FROM \(migrationsTable) WHERE identifier = '\(migration.rawValue)'"
    }
}
