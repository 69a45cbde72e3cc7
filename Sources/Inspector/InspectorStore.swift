import CSQLiteSupport
import Foundation
import GRDB

/// The inspector's database: one value holding a GRDB writer. Migrations are append-only: once a
/// migration has shipped it is never edited; changes come as new migrations.
public struct InspectorStore: Sendable {
    public let writer: any DatabaseWriter
    public let path: String

    /// Opens (creating with mode 0600 if needed) the store at `path`, in WAL mode, and migrates it.
    public static func open(at path: String) throws -> InspectorStore {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if !FileManager.default.fileExists(atPath: path) {
            // SQLite gives the -wal and -shm files the mode of the database file.
            let fd = Foundation.open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
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
        let pool = try DatabasePool(path: path, configuration: configuration)
        let store = InspectorStore(writer: pool, path: path)
        try Self.migrator.migrate(pool)
        return store
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

    private init(writer: any DatabaseWriter, path: String) {
        self.writer = writer
        self.path = path
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "exchange") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("started_at", .datetime).notNull().indexed()
                t.column("method", .text).notNull()
                t.column("url", .text).notNull()
                t.column("request_headers", .text).notNull()
                t.column("request_body", .text)
                t.column("streamed", .boolean).notNull().defaults(to: false)
                t.column("state", .text).notNull().defaults(to: "in_progress")
                t.column("status", .integer)
                t.column("response_headers", .text)
                t.column("response_body", .blob)
                t.column("error", .text)
                t.column("request_id", .text)
                t.column("ttfb_ms", .double)
                t.column("ttft_ms", .double)
                t.column("duration_ms", .double)
                t.column("response_id", .text).indexed()
                t.column("model", .text)
                t.column("response_status", .text)
                t.column("input_tokens", .integer)
                t.column("cached_tokens", .integer)
                t.column("output_tokens", .integer)
                t.column("reasoning_tokens", .integer)
                t.column("total_tokens", .integer)
                t.column("event_count", .integer).notNull().defaults(to: 0)
                t.column("preset", .text)
                t.column("session", .text)
                t.column("replay_of", .integer).references("exchange", onDelete: .setNull)
                t.column("pid", .integer)
            }
            try db.create(table: "event") { t in
                t.column("exchange_id", .integer).notNull().references("exchange", onDelete: .cascade)
                t.column("idx", .integer).notNull()
                t.column("sequence_number", .integer)
                t.column("offset_ms", .double).notNull()
                t.column("type", .text).notNull()
                t.column("data", .text).notNull()
                t.primaryKey(["exchange_id", "idx"])
            }
        }
        migrator.registerMigration("v2-attempt") { db in
            // 0 for a first attempt, n for the n-th retry of the same request.
            try db.alter(table: "exchange") { t in
                t.add(column: "attempt", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v3-search-cost") { db in
            try db.alter(table: "exchange") { t in
                // The user's input text, the answer's text, and the other texts the events carried
                // (reasoning summaries, tool arguments, error messages): what search looks through.
                t.add(column: "input_text", .text)
                t.add(column: "output_text", .text)
                t.add(column: "event_text", .text)
                // Estimated from the price table; null for models it does not list.
                t.add(column: "cost_usd", .double)
            }
            try db.execute(sql: """
                CREATE VIRTUAL TABLE exchange_fts USING fts5(input_text, output_text, event_text, tokenize = 'unicode61')
                """)
            try db.create(index: "exchange_model", on: "exchange", columns: ["model"])
        }
        migrator.registerMigration("v4-event-batches") { db in
            // Events are stored a batch to a row (the writer's batches: up to 2048 events): a long stream
            // is hundreds of inserts instead of hundreds of thousands. `event` stays, as a view with the
            // same columns, so every query written against it keeps working.
            try db.execute(sql: """
                CREATE TABLE event_batch (
                    exchange_id INTEGER NOT NULL REFERENCES exchange(id) ON DELETE CASCADE,
                    first_idx INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    meta TEXT NOT NULL,
                    data BLOB NOT NULL,
                    PRIMARY KEY (exchange_id, first_idx)
                ) WITHOUT ROWID;
                INSERT INTO event_batch (exchange_id, first_idx, count, meta, data)
                    SELECT exchange_id, idx, 1,
                           json_array(json_array(idx, sequence_number, offset_ms, type, 0, length(CAST(data AS BLOB)),
                                                 typeof(data) = 'text')),
                           CAST(data AS BLOB)
                    FROM event;
                DROP TABLE event;
                CREATE VIEW event AS
                    SELECT b.exchange_id AS exchange_id,
                           json_extract(m.value, '$[0]') AS idx,
                           json_extract(m.value, '$[1]') AS sequence_number,
                           json_extract(m.value, '$[2]') AS offset_ms,
                           json_extract(m.value, '$[3]') AS type,
                           CASE json_extract(m.value, '$[6]')
                               WHEN 1 THEN CAST(substr(b.data, json_extract(m.value, '$[4]') + 1, json_extract(m.value, '$[5]')) AS TEXT)
                               ELSE substr(b.data, json_extract(m.value, '$[4]') + 1, json_extract(m.value, '$[5]'))
                           END AS data
                    FROM event_batch AS b, json_each(b.meta) AS m;
                """)
        }
        migrator.registerMigration("v5-event-batch-rowid") { db in
            // v4's table was WITHOUT ROWID: its rows live in an index b-tree, and SQLite compares keys there
            // by reading a cell's whole payload, so every insert read each blob it passed on the way down
            // (a 50 MB stream read about five times its own size back). A rowid table keeps the blobs out
            // of key comparisons; the unique index on (exchange_id, first_idx) holds only the keys.
            try db.execute(sql: """
                DROP VIEW event;
                CREATE TABLE event_batch_v5 (
                    exchange_id INTEGER NOT NULL REFERENCES exchange(id) ON DELETE CASCADE,
                    first_idx INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    meta TEXT NOT NULL,
                    data BLOB NOT NULL
                );
                INSERT INTO event_batch_v5 (exchange_id, first_idx, count, meta, data)
                    SELECT exchange_id, first_idx, count, meta, data FROM event_batch ORDER BY exchange_id, first_idx;
                DROP TABLE event_batch;
                ALTER TABLE event_batch_v5 RENAME TO event_batch;
                CREATE UNIQUE INDEX event_batch_position ON event_batch (exchange_id, first_idx);
                CREATE VIEW event AS
                    SELECT b.exchange_id AS exchange_id,
                           json_extract(m.value, '$[0]') AS idx,
                           json_extract(m.value, '$[1]') AS sequence_number,
                           json_extract(m.value, '$[2]') AS offset_ms,
                           json_extract(m.value, '$[3]') AS type,
                           CASE json_extract(m.value, '$[6]')
                               WHEN 1 THEN CAST(substr(b.data, json_extract(m.value, '$[4]') + 1, json_extract(m.value, '$[5]')) AS TEXT)
                               ELSE substr(b.data, json_extract(m.value, '$[4]') + 1, json_extract(m.value, '$[5]'))
                           END AS data
                    FROM event_batch AS b, json_each(b.meta) AS m;
                """)
        }
        migrator.registerMigration("v6-in-progress-index") { db in
            // Every start looks for exchanges left in progress by a dead process: an index of those few rows
            // instead of a scan of the whole table (with its bodies) once the store is large.
            try db.execute(sql: "CREATE INDEX exchange_in_progress ON exchange (state) WHERE state = 'in_progress'")
        }
        migrator.registerMigration("v7-compact-event-index") { db in
            // A shorter index per event for new batches: `[sequence_number, offset_us, type, start, length]`,
            // the type a position in the batch's `types`, the few events that are not UTF-8 listed in `blobs`
            // (a 50 MB stream's index: 16 MB before, 7 MB now, and less to write). Rows written before keep
            // their format (`types` is null) and the view reads both.
            try db.execute(sql: """
                ALTER TABLE event_batch ADD COLUMN types TEXT;
                ALTER TABLE event_batch ADD COLUMN blobs TEXT;
                DROP VIEW event;
                CREATE VIEW event AS
                    SELECT b.exchange_id AS exchange_id,
                           json_extract(m.value, '$[0]') AS idx,
                           json_extract(m.value, '$[1]') AS sequence_number,
                           json_extract(m.value, '$[2]') AS offset_ms,
                           json_extract(m.value, '$[3]') AS type,
                           CASE json_extract(m.value, '$[6]')
                               WHEN 1 THEN CAST(substr(b.data, json_extract(m.value, '$[4]') + 1, json_extract(m.value, '$[5]')) AS TEXT)
                               ELSE substr(b.data, json_extract(m.value, '$[4]') + 1, json_extract(m.value, '$[5]'))
                           END AS data
                    FROM event_batch AS b, json_each(b.meta) AS m
                    WHERE b.types IS NULL
                    UNION ALL
                    SELECT b.exchange_id AS exchange_id,
                           b.first_idx + m.key AS idx,
                           json_extract(m.value, '$[0]') AS sequence_number,
                           json_extract(m.value, '$[1]') / 1000.0 AS offset_ms,
                           json_extract(b.types, '$[' || json_extract(m.value, '$[2]') || ']') AS type,
                           CASE WHEN b.blobs IS NOT NULL
                                     AND EXISTS (SELECT 1 FROM json_each(b.blobs) AS x WHERE x.value = m.key)
                               THEN substr(b.data, json_extract(m.value, '$[3]') + 1, json_extract(m.value, '$[4]'))
                               ELSE CAST(substr(b.data, json_extract(m.value, '$[3]') + 1, json_extract(m.value, '$[4]')) AS TEXT)
                           END AS data
                    FROM event_batch AS b, json_each(b.meta) AS m
                    WHERE b.types IS NOT NULL;
                """)
        }
        return migrator
    }
}
