import Foundation
import GRDB
import Testing

@testable import Library

/// The keyword index: it stems English words, a library made before it did is re-indexed when it is opened,
/// and a batch of writes leaves no WAL for the next command to read back.
@Suite("The library's keyword index")
struct KeywordIndexTests {
    let files: LibraryFixtures

    init() throws { files = try LibraryFixtures() }

    @Test func aWordFindsItsOtherForms() async throws {
        defer { files.remove() }
        let store = try files.openStore()
        let notes = try files.write("backups.md", "# Backups\n\nNightly backups are verified by restoring them.\n")
        let other = try files.write("tokens.txt", "The tokenizer splits text into tokens.\n")
        _ = await Ingest(store: store, extractors: Extractors(environment: [:])).add([notes, other]) { _ in }
        #expect(try await store.search("backup").map(\.path) == [notes.path])
        #expect(try await store.search("verify restored backup").map(\.path) == [notes.path])
        #expect(try await store.search("token").map(\.path) == [other.path])
        // A phrase still matches words in order, and a prefix still matches the start of a word.
        #expect(try await store.search("\"nightly backup\"").map(\.path) == [notes.path])
        #expect(try await store.search("\"verified nightly\"").isEmpty)
        #expect(try await store.search("toke*").map(\.path) == [other.path])
    }

    @Test func aLibraryIndexedBeforeStemmingIsReIndexedWhenOpened() async throws {
        defer { files.remove() }
        // A library as the version before this one left it: schema v3, chunks indexed without stemming.
        try FileManager.default.createDirectory(
            atPath: (files.storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabasePool(path: files.storePath)
        try LibraryStore.migrator.migrate(old, upTo: "v3-end-page")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO document (id, path, type, size, sha256, status, added_at, text)
                    VALUES (1, '/notes/backups.md', 'markdown', 40, 'x', 'indexed', '2026-11-01T00:00:00Z', 'Nightly backups are verified.');
                    INSERT INTO chunk (document_id, ordinal, start, "end", text, text_sha256)
                    VALUES (1, 0, 0, 29, 'Nightly backups are verified.', 'y');
                    """)
        }
        #expect(
            try await old.read {
                try Int.fetchOne($0, sql: "SELECT count(*) FROM chunk_fts WHERE chunk_fts MATCH 'backup'")
            } == 0)
        try old.close()

        let store = try files.openStore()
        #expect(try await store.search("backup").map(\.path) == ["/notes/backups.md"])
        #expect(try await store.search("verify").map(\.text) == ["Nightly backups are verified."])
        // The index is kept in step after the change as before it.
        try await store.remove(matching: "/notes/backups.md")
        #expect(try await store.search("backup").isEmpty)
        let integrity = try await store.writer.write { db in
            try db.execute(sql: "INSERT INTO chunk_fts (chunk_fts, rank) VALUES ('integrity-check', 1)")
            return true
        }
        #expect(integrity)
    }

    @Test func aBatchLeavesTheWriteAheadLogEmpty() async throws {
        defer { files.remove() }
        let store = try files.openStore()
        let urls = try (1...20).map {
            try files.write("note-\($0).txt", String(repeating: "Penguins huddle in winter storms. ", count: 200))
        }
        _ = await Ingest(store: store, extractors: Extractors(environment: [:])).add(urls) { _ in }
        let wal = try FileManager.default.attributesOfItem(atPath: files.storePath + "-wal")[.size] as? Int
        #expect(wal == 0, "the next command would read back a WAL of \(wal ?? -1) bytes")
        #expect(try await store.search("penguin").count == 10)
    }
}
