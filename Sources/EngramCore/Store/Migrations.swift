import GRDB

/// The store's schema, one named migration at a time; a shipped migration is never edited.
enum Migrations {
    static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration(StoreSchema.Migration.initial.rawValue) { db in
            try db.execute(sql: """
                CREATE TABLE memory (
                    id TEXT PRIMARY KEY NOT NULL,
                    content TEXT NOT NULL,
                    type TEXT NOT NULL CHECK (type IN ('note','idea','task','quote','learning')),
                    tags TEXT NOT NULL DEFAULT '[]',
                    context TEXT,
                    created DATETIME NOT NULL,
                    updated DATETIME NOT NULL,
                    lastReinforced DATETIME NOT NULL,
                    useCount INTEGER NOT NULL DEFAULT 0,
                    pinned BOOLEAN NOT NULL DEFAULT 0,
                    source TEXT
                );
                CREATE INDEX memory_created ON memory(created);
                CREATE INDEX memory_lastReinforced ON memory(lastReinforced);

                CREATE TABLE link (
                    fromID TEXT NOT NULL REFERENCES memory(id) ON DELETE CASCADE,
                    toID TEXT NOT NULL REFERENCES memory(id) ON DELETE CASCADE,
                    origin TEXT NOT NULL CHECK (origin IN ('auto','manual')),
                    weight REAL NOT NULL,
                    created DATETIME NOT NULL,
                    PRIMARY KEY (fromID, toID),
                    CHECK (fromID < toID)
                );
                CREATE INDEX link_toID ON link(toID);

                CREATE TABLE curriculum (
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL,
                    description TEXT NOT NULL DEFAULT '',
                    created DATETIME NOT NULL,
                    updated DATETIME NOT NULL,
                    source TEXT
                );

                CREATE TABLE topic (
                    id TEXT PRIMARY KEY NOT NULL,
                    curriculumID TEXT NOT NULL REFERENCES curriculum(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    title TEXT NOT NULL,
                    notes TEXT NOT NULL DEFAULT '',
                    flagged BOOLEAN NOT NULL DEFAULT 0,
                    done BOOLEAN NOT NULL DEFAULT 0,
                    created DATETIME NOT NULL,
                    updated DATETIME NOT NULL
                );
                CREATE INDEX topic_curriculum ON topic(curriculumID, position);

                CREATE TABLE session (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('capture','learning')),
                    title TEXT NOT NULL,
                    curriculumID TEXT REFERENCES curriculum(id) ON DELETE SET NULL,
                    topicID TEXT REFERENCES topic(id) ON DELETE SET NULL,
                    state TEXT NOT NULL CHECK (state IN ('running','paused','stopped','completed')),
                    started DATETIME NOT NULL,
                    resumed DATETIME,
                    accumulatedSeconds REAL NOT NULL DEFAULT 0,
                    ended DATETIME,
                    progressDone INTEGER NOT NULL DEFAULT 0,
                    progressTotal INTEGER NOT NULL DEFAULT 0,
                    updated DATETIME NOT NULL
                );
                CREATE INDEX session_state ON session(state);

                CREATE TABLE activity (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    at DATETIME NOT NULL,
                    action TEXT NOT NULL,
                    memoryID TEXT,
                    detail TEXT,
                    source TEXT
                );
                CREATE INDEX activity_at ON activity(at);
                CREATE INDEX activity_memory ON activity(memoryID);

                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL CHECK (kind IN ('memory','curriculum','topic')),
                    itemID TEXT NOT NULL,
                    at DATETIME NOT NULL
                );

                CREATE TABLE request (
                    requestID TEXT PRIMARY KEY NOT NULL,
                    memoryID TEXT NOT NULL,
                    at DATETIME NOT NULL
                );

                CREATE TABLE setting (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """)
        }
        // Intents that run later (`engram ask --in 10m …`), kept so a restart loses none.
        migrator.registerMigration(StoreSchema.Migration.delayedIntents.rawValue) { db in
            try db.execute(sql: """
                CREATE TABLE delayedIntent (
                    id TEXT PRIMARY KEY NOT NULL,
                    intent TEXT NOT NULL,
                    arguments TEXT NOT NULL DEFAULT '{}',
                    phrase TEXT,
                    due DATETIME NOT NULL,
                    created DATETIME NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('pending','done','failed','cancelled')),
                    ranAt DATETIME,
                    result TEXT,
                    realertSeconds REAL,
                    realertLimit INTEGER NOT NULL DEFAULT 0,
                    alertCount INTEGER NOT NULL DEFAULT 0,
                    lastAlerted DATETIME,
                    acknowledged DATETIME,
                    source TEXT
                );
                CREATE INDEX delayedIntent_due ON delayedIntent(state, due);
                """)
        }
        // Imported memories bring their own links: the index must not add automatic ones for them.
        migrator.registerMigration(StoreSchema.Migration.outboxLink.rawValue) { db in
            try db.execute(sql: "ALTER TABLE outbox ADD COLUMN link BOOLEAN NOT NULL DEFAULT 1")
        }
        // The memory of the day reads, per type, use count and pin, the few memories reinforced longest ago
        // (Feeds' `SQLiteFeedSource.scan`) instead of every memory.
        migrator.registerMigration(StoreSchema.Migration.memoryFadingIndex.rawValue) { db in
            try db.execute(sql: "CREATE INDEX \(StoreSchema.memoryFadingIndex) ON memory(type, useCount, pinned, lastReinforced, id)")
        }
        // Who hosts each session (a capture's own process; the process showing a learning session's notification)
        // and the notification shown, so a dead host is noticed and exactly one process shows each session.
        migrator.registerMigration(StoreSchema.Migration.sessionHost.rawValue) { db in
            try db.execute(sql: "ALTER TABLE session ADD COLUMN host TEXT")
            try db.execute(sql: "ALTER TABLE session ADD COLUMN notification TEXT")
        }
        // Meaning search: one sentence-embedding vector per memory, curriculum and topic, derived like the index
        // (rebuilt from the store at any time), kept here so a vector and the outbox mark it reached are saved in
        // one transaction and forgetting a memory deletes its vector in the same one.
        migrator.registerMigration(StoreSchema.Migration.vectors.rawValue) { db in
            try db.execute(sql: """
                CREATE TABLE vector (
                    kind TEXT NOT NULL,
                    itemID TEXT NOT NULL,
                    textHash TEXT NOT NULL,
                    data BLOB NOT NULL,
                    PRIMARY KEY (kind, itemID)
                ) WITHOUT ROWID
                """)
        }
        // Readers that keep every vector in memory (the daemon's search, the embedder's automatic links) load only
        // what changed: each save stamps its rows with the next `vectors.version`, and any delete, whoever makes it
        // (a forget, a new model), counts in `vectors.deletions`, which tells them to load everything again.
        migrator.registerMigration(StoreSchema.Migration.vectorVersion.rawValue) { db in
            try db.execute(sql: "ALTER TABLE vector ADD COLUMN version INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "CREATE INDEX vector_version ON vector(version)")
            try db.execute(sql: """
                CREATE TRIGGER vector_deleted AFTER DELETE ON vector BEGIN
                    INSERT INTO setting(key, value) VALUES ('vectors.deletions', 1)
                    ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
                END
                """)
        }
        // Sync (issue 13): this device's operations waiting for export, the merge state (last-writer-wins registers,
        // revisions, add-wins tag and link sets, per-device counters, tombstones) and what was read from peers.
        // Empty and unused until sync is enabled (`SyncLog.enable`).
        migrator.registerMigration(StoreSchema.Migration.sync.rawValue) { db in
            try db.execute(sql: SyncSchema.v8)
        }
    }
}
