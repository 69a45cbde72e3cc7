import CSQLiteSupport
import Foundation
import GRDB
import StoreSupport

/// The inspector's database: one value holding a GRDB writer. Migrations (`InspectorStore+Migrations`)
/// are append-only: once a migration has shipped it is never edited; changes come as new migrations.
public struct InspectorStore: Sendable {
    public let writer: any DatabaseWriter
    public let path: String
    /// The damaged file this opening moved aside to create the store anew, if it did.
    public let repaired: DamagedStore?

    /// Opens (creating with mode 0600 if needed) the store at `path`, in WAL mode, and migrates it.
    /// Another process opening or migrating it at the same time is waited for; a lock held by another
    /// process is retried for up to `patience` before the opening fails with a passing `StoreOpenError`.
    /// A file SQLite reports as not a database or corrupt is moved aside (`repaired` says where) and a new
    /// store is created in its place.
    public static func open(at path: String, now: Date = Date(), patience: Duration = .seconds(10)) throws
        -> InspectorStore
    {
        let opened = try StoreOpener(
            path: path, now: now, patience: patience, migrator: migrator, configuration: configuration()
        ).open()
        return InspectorStore(writer: opened.pool, path: path, repaired: opened.repaired)
    }

    static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.label = "inspector"
        // In WAL mode, NORMAL syncs at checkpoints rather than at every commit: a killed process loses
        // nothing; only a power cut can lose the last commits.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Closing leaves the WAL in place: a checkpoint at every close (the last connection of every
            // command) costs two fsyncs and the WAL's deletion, most of what a short command spends on the
            // store. SQLite's automatic checkpoints still fold the WAL in as it grows, and `tidyWAL` empties
            // it before a command exits when it has grown large, so that the next open reads little of it.
            _ = openresponses_sqlite_skip_checkpoint_on_close(db.sqliteConnection)
        }
        return configuration
    }

    /// The WAL size above which `tidyWAL` folds it into the database.
    public static let walLimit = 1 << 20
    /// How long a write waits for another process's (seconds).
    static let busyTimeout: TimeInterval = 10

    /// Before a command exits: when the WAL has grown past `walLimit` bytes (a long stream, many exchanges),
    /// checkpoints it into the database and truncates it, so that the next process to open the store does
    /// not read it all back. A smaller WAL is left as it is (closing does not checkpoint). It never waits
    /// for another process (a truncating checkpoint would wait for every reader): a store that is busy now
    /// is tidied by a later command.
    public func tidyWAL() async {
        var info = stat()
        guard stat(path + "-wal", &info) == 0, Int(info.st_size) > Self.walLimit else { return }
        _ = try? await writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Self.busyTimeout * 1000))") }
            try db.checkpoint(.truncate)
        }
    }

    init(writer: any DatabaseWriter, path: String, repaired: DamagedStore?) {
        self.writer = writer
        self.path = path
        self.repaired = repaired
    }
}
