import GRDB

/// The store's schema, one migration at a time. Append-only: once a migration has shipped it is never
/// edited; changes come as new migrations. `InspectorStore.open` runs the pending ones under a lock that
/// other processes opening the store wait for.
extension InspectorStore {
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
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE exchange_fts USING fts5(input_text, output_text, event_text, tokenize = 'unicode61')
                    """)
            try db.create(index: "exchange_model", on: "exchange", columns: ["model"])
        }
        migrator.registerMigration("v4-event-batches") { db in
            // Events are stored a batch to a row (the writer's batches: up to 2048 events): a long stream
            // is hundreds of inserts instead of hundreds of thousands. `event` stays, as a view with the
            // same columns, so every query written against it keeps working.
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
        migrator.registerMigration("v8-provider") { db in
            // The named provider each exchange went to (`default` for the environment's server; NULL for
            // exchanges recorded before providers existed).
            try db.execute(sql: "ALTER TABLE exchange ADD COLUMN provider TEXT")
        }
        migrator.registerMigration("v9-source-client") { db in
            // Who sent each exchange: `console` (this program's own commands) or `proxy` (any client through
            // `openresponses proxy`), and for the proxy's the client program (User-Agent and SDK headers).
            // Rows from before are the console's.
            try db.execute(sql: "ALTER TABLE exchange ADD COLUMN source TEXT NOT NULL DEFAULT 'console'")
            try db.execute(sql: "ALTER TABLE exchange ADD COLUMN client TEXT")
        }
        migrator.registerMigration("v10-ledger") { db in
            // The objects recorded exchanges left on servers (LedgerEntry): kept apart from the exchanges, so
            // that `inspect prune` never forgets what is still on a server.
            try db.execute(
                sql: """
                    CREATE TABLE ledger (
                        object_id TEXT PRIMARY KEY,
                        type TEXT NOT NULL,
                        created_at TEXT NOT NULL,
                        expires_at TEXT,
                        base_url TEXT NOT NULL,
                        exchange_id INTEGER,
                        provider TEXT,
                        source TEXT,
                        session TEXT,
                        preset TEXT,
                        label TEXT,
                        deleted_at TEXT
                    );
                    CREATE INDEX ledger_created ON ledger(created_at);
                    """)
        }
        migrator.registerMigration("v11-repeats") { db in
            // A final event that repeats a long text its deltas brought (issue 19: the API's last four events
            // each carry the whole answer) is stored without that text, which is put back from the deltas when
            // the event is read: `[position, at, length, fingerprint_a, fingerprint_b, delta_type,
            // output_index, part_field, part_index]` per cut, `at` the offset in the stored bytes where the
            // `length` raw bytes go. The `event` view shows such events as stored (without the text).
            try db.execute(sql: "ALTER TABLE event_batch ADD COLUMN repeats TEXT")
        }
        migrator.registerMigration("v12-tool-calls") { db in
            // The calls a turn made to local MCP servers (ToolCallEntry), kept with the response that asked for
            // them: the server, how long, how it ended. Their output is in the next request's body too.
            try db.execute(
                sql: """
                    CREATE TABLE tool_call (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        response_id TEXT NOT NULL,
                        call_id TEXT NOT NULL,
                        session TEXT,
                        server TEXT NOT NULL,
                        tool TEXT NOT NULL,
                        arguments TEXT NOT NULL,
                        result TEXT NOT NULL,
                        status TEXT NOT NULL,
                        duration_ms REAL NOT NULL,
                        recorded_at TEXT NOT NULL
                    );
                    CREATE INDEX tool_call_response ON tool_call(response_id);
                    """)
        }
        migrator.registerMigration("v13-large-request-bodies") { db in
            // A request body over a mebibyte (a piped document) is kept here instead of in `exchange`, whose
            // row each later write of the exchange (its head, its answer, its end) rewrites whole: with the
            // body in it, SQLite read and copied tens of megabytes for every one. `exchange.request_body` is
            // NULL for such an exchange; readers take `COALESCE(request_body, exchange_request.body)`.
            try db.execute(
                sql: """
                    CREATE TABLE exchange_request (
                        exchange_id INTEGER PRIMARY KEY REFERENCES exchange(id) ON DELETE CASCADE,
                        body BLOB NOT NULL
                    )
                    """)
        }
        migrator.registerMigration("v14-eval-run") { db in
            // The `openresponses eval` run an exchange was made for (`inspect list --eval RUN`).
            try db.execute(sql: "ALTER TABLE exchange ADD COLUMN eval_run TEXT")
            try db.execute(sql: "CREATE INDEX exchange_eval_run ON exchange(eval_run) WHERE eval_run IS NOT NULL")
        }
        migrator.registerMigration("v15-batch") { db in
            // A Batch API result: its batch (`inspect list --batch ID`) and the request's `custom_id`, by which
            // `batch results` run again records nothing twice.
            try db.execute(sql: "ALTER TABLE exchange ADD COLUMN batch_id TEXT")
            try db.execute(sql: "ALTER TABLE exchange ADD COLUMN batch_request TEXT")
            try db.execute(
                sql: "CREATE INDEX exchange_batch ON exchange(batch_id, batch_request) WHERE batch_id IS NOT NULL")
        }
        migrator.registerMigration("v16-user") { db in
            // The user of a proxy shared by a team (`openresponses proxy --tokens-file`) whose token sent the
            // request; NULL for the console's own. The index serves `inspect list --user` and the proxy's
            // question before each request of a user with a budget, what it has spent since midnight, without
            // reading a row: `cost_usd` lies behind the bodies, and a sum read from the rows walked their
            // overflow pages (73 ms against 0.34 ms for 5,000 exchanges of 50 KB: Benchmarks/spend.sh).
            try db.execute(sql: "ALTER TABLE exchange ADD COLUMN user TEXT")
            try db.execute(
                sql: "CREATE INDEX exchange_user ON exchange(user, started_at, cost_usd) WHERE user IS NOT NULL")
        }
        migrator.registerMigration("v17-team-push") { db in
            // What was pushed to which team store (`inspect push`, `inspector.url`): the store's own name in the
            // team's database (made once, here), and per destination each exchange sent, or why it could not be.
            try db.execute(sql: "CREATE TABLE store_identity (id TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO store_identity (id) VALUES (lower(hex(randomblob(16))))")
            try db.execute(
                sql: """
                    CREATE TABLE team_push (
                        destination TEXT NOT NULL,
                        exchange_id INTEGER NOT NULL REFERENCES exchange(id) ON DELETE CASCADE,
                        failure TEXT,
                        PRIMARY KEY (destination, exchange_id)
                    ) WITHOUT ROWID
                    """)
        }
        return migrator
    }
}
