/// The tables sync keeps beside the store's own (migration `v8-sync`).
///
/// Clocks are stored as `SyncStamp` text (`<hlc>@<device>`), which sorts as the stamps compare, so SQLite's
/// `max()` and `>` merge them.
enum SyncSchema {
    static let v8 = """
        -- This device's operations not yet appended to its log in the sync folder, in order.
        CREATE TABLE syncPending (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            line TEXT NOT NULL,
            op TEXT NOT NULL,
            entity TEXT NOT NULL,
            item TEXT NOT NULL,
            other TEXT
        );
        -- Last-writer-wins registers: the winning value of each field of each item, with its stamp.
        CREATE TABLE syncField (
            entity TEXT NOT NULL,
            item TEXT NOT NULL,
            field TEXT NOT NULL,
            value,
            stamp TEXT NOT NULL,
            PRIMARY KEY (entity, item, field)
        ) WITHOUT ROWID;
        CREATE INDEX syncField_value ON syncField(entity, field, value);
        -- Values that lost (older or concurrent writes), by the stamp of the operation that wrote them.
        CREATE TABLE syncRevision (
            entity TEXT NOT NULL,
            item TEXT NOT NULL,
            field TEXT NOT NULL,
            stamp TEXT NOT NULL,
            value,
            PRIMARY KEY (entity, item, field, stamp)
        ) WITHOUT ROWID;
        -- Add-wins tag set: a tag is on when its latest add is at least as late as its latest remove.
        CREATE TABLE syncTag (
            item TEXT NOT NULL,
            tag TEXT NOT NULL,
            added TEXT,
            removed TEXT,
            PRIMARY KEY (item, tag)
        ) WITHOUT ROWID;
        -- Add-wins link set (fromID < toID); the strongest weight and a manual origin win.
        CREATE TABLE syncLink (
            fromID TEXT NOT NULL,
            toID TEXT NOT NULL,
            added TEXT,
            removed TEXT,
            origin TEXT NOT NULL DEFAULT 'auto',
            weight REAL NOT NULL DEFAULT 0,
            created TEXT,
            PRIMARY KEY (fromID, toID)
        ) WITHOUT ROWID;
        CREATE INDEX syncLink_toID ON syncLink(toID);
        -- Per-device running totals (uses of a memory, seconds studied in a session); the store shows their sum.
        CREATE TABLE syncCounter (
            entity TEXT NOT NULL,
            item TEXT NOT NULL,
            counter TEXT NOT NULL,
            device TEXT NOT NULL,
            total REAL NOT NULL,
            PRIMARY KEY (entity, item, counter, device)
        ) WITHOUT ROWID;
        -- Forgotten items: a tombstone wins over every edit, earlier, concurrent or later.
        CREATE TABLE syncTombstone (
            entity TEXT NOT NULL,
            item TEXT NOT NULL,
            stamp TEXT NOT NULL,
            PRIMARY KEY (entity, item)
        ) WITHOUT ROWID;
        -- How far each peer's log files have been read (bytes of complete lines).
        CREATE TABLE syncPeerFile (
            device TEXT NOT NULL,
            file TEXT NOT NULL,
            offset INTEGER NOT NULL,
            PRIMARY KEY (device, file)
        ) WITHOUT ROWID;
        -- Each peer seen: operations received from it and when.
        CREATE TABLE syncPeer (
            device TEXT PRIMARY KEY NOT NULL,
            received INTEGER NOT NULL DEFAULT 0,
            firstSeen DATETIME NOT NULL,
            lastSeen DATETIME NOT NULL
        );
        -- Lines kept for a later Engram (a newer schema or an operation this version does not know).
        CREATE TABLE syncParked (
            device TEXT NOT NULL,
            file TEXT NOT NULL,
            offset INTEGER NOT NULL,
            line TEXT NOT NULL,
            reason TEXT NOT NULL,
            PRIMARY KEY (device, file, offset)
        ) WITHOUT ROWID;
        -- What went wrong or needs attention while syncing, for `engram sync status`.
        CREATE TABLE syncMessage (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at DATETIME NOT NULL,
            device TEXT,
            message TEXT NOT NULL
        );
        """
}
