import Foundation
import GRDB
import Library
import Testing

/// Adding, re-adding, changing and syncing real files into a real library store.
@Suite("Adding documents to the library")
struct IngestTests {
    let files: LibraryFixtures
    let store: LibraryStore
    let ingest: Ingest

    init() throws {
        files = try LibraryFixtures()
        store = try files.openStore()
        ingest = Ingest(
            store: store, extractors: Extractors(environment: ProcessInfo.processInfo.environment),
            chunker: Chunker(size: 200, overlap: 30))
    }

    func add(_ urls: [URL]) async -> [Ingest.Outcome] {
        await ingest.add(urls) { _ in }
    }

    @Test func unchangedFilesCostNothingAndAChangedOneReplacesItsChunks() async throws {
        defer { files.remove() }
        let notes = try files.write("notes/a.md", "# A\n\nAlpha paragraph about otters.\n")
        let other = try files.write("notes/b.txt", "Beta text about beavers.\n")
        #expect(await add([notes, other]) == [.added(chunks: 1, pages: nil), .added(chunks: 1, pages: nil)])
        #expect(await add([notes, other]) == [.unchanged, .unchanged])
        try files.write("notes/a.md", "# A\n\nAlpha paragraph about walruses now.\n")
        #expect(await add([notes]) == [.updated(chunks: 1, pages: nil)])
        #expect(try await store.search("otters").isEmpty)
        #expect(try await store.search("walruses").map(\.path) == [notes.path])
        let chunkRows = try await store.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM chunk") }
        #expect(chunkRows == 2)
        // Each stored chunk is its document's text cut at its offsets, by SQLite itself.
        let mismatches = try await store.writer.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM chunk c JOIN document d ON d.id = c.document_id
                    WHERE substr(d.text, c.start + 1, c."end" - c.start) != c.text
                    """)
        }
        #expect(mismatches == 0)
    }

    @Test func syncAddsNewRemovesDeletedAndReportsEachFile() async throws {
        defer { files.remove() }
        let keep = try files.write("docs/keep.md", "Keep this one about kelp.\n")
        let gone = try files.write("docs/gone.md", "This one about gulls goes.\n")
        _ = await add([keep, gone])
        try FileManager.default.removeItem(at: gone)
        let added = try files.write("docs/new.md", "A new one about newts.\n")
        let reported = Reported()
        let outcomes = try await ingest.sync(folder: files.folder.appendingPathComponent("docs"), files: [keep, added])
        { reported.add($0.path, $0.outcome) }
        #expect(outcomes == [.unchanged, .added(chunks: 1, pages: nil), .removed])
        #expect(reported.entries.map(\.0) == [keep.path, added.path, gone.path])
        #expect(try await store.documents().map(\.path) == [keep.path, added.path])
        #expect(try await store.search("gulls").isEmpty)
    }

    @Test func aCorruptOrEncryptedPDFIsReportedAndTheOthersAreAdded() async throws {
        defer { files.remove() }
        let damaged = try files.write("damaged.pdf", "%PDF-1.4 garbage")
        let locked = try #require(try files.encryptedPDF())
        let good = try files.pdf()
        let text = try files.write("plain.txt", "Plain words about puffins.\n")
        let outcomes = await add([damaged, locked, good, text])
        #expect(outcomes[2] == .added(chunks: 2, pages: 2))
        #expect(outcomes[3] == .added(chunks: 1, pages: nil))
        guard case .failed(let first) = outcomes[0], case .failed(let second) = outcomes[1] else {
            Issue.record("expected two failures: \(outcomes)")
            return
        }
        #expect(first.path == damaged.path && first.message.hasPrefix("is not a readable PDF"))
        #expect(second.description == "\(locked.path): is encrypted: a password is needed to read it")
        let stats = try await store.statistics()
        #expect(stats.failures.map(\.path) == [damaged.path, locked.path])
        #expect(try await store.search("krill").map(\.page) == [2])
    }

    @Test func anotherChunkingReCutsAnUnchangedFileAndTheSameOneCostsNothing() async throws {
        defer { files.remove() }
        let long = (1...40).map { "Sentence \($0) is about the migration of arctic terns over the ocean." }.joined(
            separator: " ")
        let notes = try files.write("terns.txt", long + "\n")
        guard case .added(let small, nil) = await add([notes])[0] else {
            Issue.record("not added")
            return
        }
        let wider = Ingest(store: store, extractors: ingest.extractors, chunker: Chunker(size: 600, overlap: 30))
        let recut = await wider.add([notes]) { _ in }
        guard case .rechunked(let large, nil, let was) = recut[0] else {
            Issue.record("not re-cut: \(recut)")
            return
        }
        #expect(was == "200/30")
        #expect(large < small, "600-character chunks are fewer than 200-character ones (\(large) vs \(small))")
        let rows = try await store.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM chunk") }
        #expect(rows == large)
        let recorded = try await store.writer.read { try String.fetchOne($0, sql: "SELECT chunking FROM document") }
        #expect(recorded == "600/30")
        #expect(await wider.add([notes]) { _ in } == [.unchanged])
    }

    @Test func eachPageSaysWhatItGaveAndWhetherOCRReadIt() async throws {
        defer { files.remove() }
        let report = try files.pdf()
        let scan = try files.scannedPDF()
        let pages = PageLog()
        _ = await ingest.add([report, scan]) { pages.add($0.path, $0.pages) }
        let byFile = pages.entries
        try #require(byFile.count == 2)
        #expect(byFile[0].1.map(\.page) == [1, 2])
        #expect(byFile[0].1.allSatisfy { !$0.ocr && $0.chunks == 1 && $0.characters > 20 })
        #expect(byFile[1].1.map(\.page) == [1])
        #expect(byFile[1].1.first?.ocr == true)
        // The characters of each page add up to the document's segments, as stored.
        let stored = try await store.writer.read { db in
            try Int.fetchOne(
                db,
                sql:
                    "SELECT sum(\"end\" - start) FROM chunk c JOIN document d ON d.id = c.document_id WHERE d.path = ?",
                arguments: [report.path])
        }
        #expect(stored == byFile[0].1.map(\.characters).reduce(0, +))
    }

    @Test func searchTextFullOfFTSSyntaxNeverErrors() async throws {
        defer { files.remove() }
        _ = await add([try files.write("fts.txt", "Rust and Swift: (both) compile; \"quotes\" matter - sometimes.\n")])
        for query in [
            "\"", "*", "AND", "OR NOT", "-", ":", "(", ")", "\"unclosed phrase", "col:umn", "NEAR(a b)", "a AND",
            "^start", "'", "***", "swift*", "\"and swift\"",
        ] {
            _ = try await store.search(query)
        }
        #expect(try await store.search("sw*").count == 1)
        #expect(try await store.search("\"rust and swift\"").count == 1)
        #expect(try await store.search("\"swift rust\"").isEmpty)
        #expect(try await store.search("(both) -sometimes:").count == 1)
    }
}

final class PageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(String, [Ingest.PageDetail])] = []
    var entries: [(String, [Ingest.PageDetail])] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func add(_ path: String, _ pages: [Ingest.PageDetail]) {
        lock.lock()
        stored.append((path, pages))
        lock.unlock()
    }
}

final class Reported: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(String, Ingest.Outcome)] = []
    var entries: [(String, Ingest.Outcome)] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func add(_ path: String, _ outcome: Ingest.Outcome) {
        lock.lock()
        stored.append((path, outcome))
        lock.unlock()
    }
}
