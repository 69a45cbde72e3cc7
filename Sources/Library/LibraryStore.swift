import CSQLiteSupport
import Foundation
import GRDB
import StoreSupport

/// The library's database, `library.sqlite` in the data directory: one value holding a GRDB pool (WAL,
/// mode 0600), opened like the inspector's (`StoreOpener`: migrations under a lock other processes wait
/// for, a damaged file moved aside). Migrations are append-only. Columns are documented in Docs/library.md.
public struct LibraryStore: Sendable {
    public let writer: DatabasePool
    public let path: String
    /// The damaged file this opening moved aside to create the store anew, if it did.
    public let repaired: DamagedStore?

    public static func open(at path: String, now: Date = Date(), patience: Duration = .seconds(10)) throws
        -> LibraryStore
    {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.label = "library"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // As the inspector's: closing leaves the WAL in place. Otherwise every `library search` ends with a
            // checkpoint (two fsyncs) and deletes the WAL, and the next opening writes a new one (GRDB makes a
            // write transaction to create it): a quarter of a search command's time.
            _ = openresponses_sqlite_skip_checkpoint_on_close(db.sqliteConnection)
        }
        let opened = try StoreOpener(
            path: path, now: now, patience: patience, migrator: migrator, configuration: configuration
        ).open()
        return LibraryStore(writer: opened.pool, path: path, repaired: opened.repaired)
    }

    /// Checkpoints the WAL into the database and truncates it, after a batch of writes. Closing leaves the
    /// WAL in place (see `open`), and a WAL left long costs every later command that opens the store: with
    /// no other connection open, SQLite reads the whole WAL back to rebuild its index (a 40 MB WAL made
    /// `library search` 45 ms instead of 32, Benchmarks/library.sh). Best effort: when readers keep it
    /// from completing, the next batch does it.
    public func settle() async {
        _ = try? await writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE document (
                        id INTEGER PRIMARY KEY,
                        path TEXT NOT NULL UNIQUE,
                        title TEXT,
                        type TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        mtime TEXT,
                        sha256 TEXT NOT NULL,
                        pages INTEGER,
                        status TEXT NOT NULL,
                        error TEXT,
                        added_at TEXT NOT NULL,
                        text TEXT
                    );
                    CREATE TABLE chunk (
                        id INTEGER PRIMARY KEY,
                        document_id INTEGER NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                        ordinal INTEGER NOT NULL,
                        page INTEGER,
                        start INTEGER NOT NULL,
                        "end" INTEGER NOT NULL,
                        heading TEXT,
                        text TEXT NOT NULL,
                        text_sha256 TEXT NOT NULL
                    );
                    CREATE INDEX chunk_document ON chunk (document_id, ordinal);
                    CREATE INDEX chunk_text_sha256 ON chunk (text_sha256);
                    CREATE VIRTUAL TABLE chunk_fts USING fts5(
                        text, heading, content = 'chunk', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
                    CREATE TRIGGER chunk_fts_insert AFTER INSERT ON chunk BEGIN
                        INSERT INTO chunk_fts (rowid, text, heading) VALUES (new.id, new.text, new.heading);
                    END;
                    CREATE TRIGGER chunk_fts_delete AFTER DELETE ON chunk BEGIN
                        INSERT INTO chunk_fts (chunk_fts, rowid, text, heading) VALUES ('delete', old.id, old.text, old.heading);
                    END;
                    CREATE TRIGGER chunk_fts_update AFTER UPDATE ON chunk BEGIN
                        INSERT INTO chunk_fts (chunk_fts, rowid, text, heading) VALUES ('delete', old.id, old.text, old.heading);
                        INSERT INTO chunk_fts (rowid, text, heading) VALUES (new.id, new.text, new.heading);
                    END;
                    CREATE TABLE chunk_vector (
                        chunk_id INTEGER NOT NULL REFERENCES chunk(id) ON DELETE CASCADE,
                        embedder TEXT NOT NULL,
                        vector BLOB NOT NULL,
                        PRIMARY KEY (chunk_id, embedder)
                    );
                    """)
        }
        // The chunking a document was cut with ("1000/150": size/overlap), so adding it again with other
        // settings re-cuts it; NULL for documents added before this column (they are re-cut once).
        migrator.registerMigration("v2-chunking") { db in
            try db.execute(sql: "ALTER TABLE document ADD COLUMN chunking TEXT")
        }
        // The last page of a chunk that runs on across a PDF page break (Chunker+Bridge); NULL otherwise.
        migrator.registerMigration("v3-end-page") { db in
            try db.execute(sql: "ALTER TABLE chunk ADD COLUMN end_page INTEGER")
        }
        // The keyword index stems English words (porter over unicode61): "backups" finds "backup", "tokens"
        // finds "token". On the labelled set in Benchmarks/retrieval it ranked better at every chunking
        // (1000/150: nDCG@10 0.957 against 0.945, evidence@5 0.901 against 0.873, MRR 0.816 against 0.754).
        // The index is rebuilt from the chunks, which stay as they are.
        migrator.registerMigration("v4-porter") { db in
            try db.execute(
                sql: """
                    DROP TRIGGER chunk_fts_insert;
                    DROP TRIGGER chunk_fts_delete;
                    DROP TRIGGER chunk_fts_update;
                    DROP TABLE chunk_fts;
                    CREATE VIRTUAL TABLE chunk_fts USING fts5(
                        text, heading, content = 'chunk', content_rowid = 'id',
                        tokenize = 'porter unicode61 remove_diacritics 2');
                    CREATE TRIGGER chunk_fts_insert AFTER INSERT ON chunk BEGIN
                        INSERT INTO chunk_fts (rowid, text, heading) VALUES (new.id, new.text, new.heading);
                    END;
                    CREATE TRIGGER chunk_fts_delete AFTER DELETE ON chunk BEGIN
                        INSERT INTO chunk_fts (chunk_fts, rowid, text, heading) VALUES ('delete', old.id, old.text, old.heading);
                    END;
                    CREATE TRIGGER chunk_fts_update AFTER UPDATE ON chunk BEGIN
                        INSERT INTO chunk_fts (chunk_fts, rowid, text, heading) VALUES ('delete', old.id, old.text, old.heading);
                        INSERT INTO chunk_fts (rowid, text, heading) VALUES (new.id, new.text, new.heading);
                    END;
                    INSERT INTO chunk_fts (chunk_fts) VALUES ('rebuild');
                    """)
        }
        // Vectors keyed by embedder and chunk text (its SHA-256), not by chunk: re-adding or re-cutting a
        // document whose text is unchanged finds its vectors again. `setting` records which embedder the
        // library's vectors come from (a query must use the same). chunk_vector (keyed by chunk) was never
        // written.
        migrator.registerMigration("v5-embeddings") { db in
            try db.execute(
                sql: """
                    DROP TABLE chunk_vector;
                    CREATE TABLE embedding (
                        embedder TEXT NOT NULL,
                        text_sha256 TEXT NOT NULL,
                        vector BLOB NOT NULL,
                        PRIMARY KEY (embedder, text_sha256)
                    ) WITHOUT ROWID;
                    CREATE TABLE setting (
                        key TEXT PRIMARY KEY,
                        value TEXT NOT NULL
                    );
                    """)
        }
        // A generation number that every change to the chunks or the vectors moves on (triggers, so no
        // writer can forget): the memory-mapped copy of the vectors (`library.sqlite-vectors`) records the
        // generation it was made at, and a search rebuilds it when the library has moved on. `library_id`
        // tells a new library at the same path from the old one (both start at generation 0).
        migrator.registerMigration("v6-vector-generation") { db in
            try db.execute(
                sql: """
                    INSERT INTO setting (key, value) VALUES ('generation', '0');
                    INSERT INTO setting (key, value) VALUES ('library_id', lower(hex(randomblob(16))));
                    """)
            for (table, event) in [
                ("chunk", "INSERT"), ("chunk", "DELETE"), ("embedding", "INSERT"), ("embedding", "DELETE"),
                ("embedding", "UPDATE"),
            ] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER \(table)_generation_\(event.lowercased()) AFTER \(event) ON \(table) BEGIN
                            UPDATE setting SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation';
                        END
                        """)
            }
        }
        return migrator
    }
}
