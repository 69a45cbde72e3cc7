import Foundation
import GRDB
import Library

/// The set's library and what each query finds in it.
enum Workbench {
    /// What one query found: the library's keyword ranking, the plain BM25 anchor's, the semantic ranking, and
    /// what the query's words and the passages' languages say.
    struct Found {
        var keyword: [Retriever.Candidate]
        var plain: [Retriever.Candidate]
        var semantic: [Retriever.Candidate]
        var signals: QuerySignals
        var languages: [Int64: TextLanguage]
    }

    /// The library of `files` in `work`: reused when it holds exactly those documents, all embedded; else
    /// made again (added with the library's defaults, embedded), with an unstemmed twin of its keyword index.
    static func library(of files: [URL], in work: URL, embedder: MiniLMEmbedder) async throws -> LibraryStore {
        let path = work.appendingPathComponent("library.sqlite").path
        if FileManager.default.fileExists(atPath: path) {
            let store = try LibraryStore.open(at: path)
            let documents = try await store.documents()
            let coverage = try await store.vectorCoverage(embedder: embedder.identifier)
            if Set(documents.map(\.path)) == Set(files.map(\.path)), coverage.missing == 0 { return store }
        }
        for suffix in ["", "-wal", "-shm", ".vectors"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try LibraryStore.open(at: path)
        let started = Date()
        let outcomes = await Ingest(store: store, extractors: Extractors(environment: [:])).add(files) { _ in }
        for (file, outcome) in zip(files, outcomes) {
            if case .failed(let error) = outcome {
                FileHandle.standardError.write(Data("\(file.path): \(error)\n".utf8))
            }
        }
        let embedded = try await store.embedMissing(with: embedder)
        FileHandle.standardError.write(
            Data(
                String(
                    format: "built the library: %d passages embedded in %.0f s\n", embedded,
                    Date().timeIntervalSince(started)
                ).utf8))
        try await store.writer.write { db in
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE chunk_fts_plain USING fts5(
                        text, heading, content = 'chunk', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
                    INSERT INTO chunk_fts_plain (chunk_fts_plain) VALUES ('rebuild');
                    """)
        }
        return store
    }

    /// Where each passage is: its document's path and its pages.
    static func chunkPlaces(_ store: LibraryStore) async throws -> [Int64: (path: String, page: Int?, endPage: Int?)] {
        try await store.writer.read { db in
            var places: [Int64: (path: String, page: Int?, endPage: Int?)] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT c.id, d.path, c.page, c.end_page FROM chunk c JOIN document d ON d.id = c.document_id")
            {
                places[row["id"]] = (row["path"], row["page"], row["end_page"])
            }
            return places
        }
    }

    static func find(_ query: String, retriever: Retriever, embedder: MiniLMEmbedder) async throws -> Found {
        let found = try await retriever.candidates(query, embedder: embedder, depth: retriever.fusion.depth)
        let plain: [Retriever.Candidate] = try await retriever.store.writer.read { db in
            guard let match = FTSQuery.make(query) else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid AS id, bm25(chunk_fts_plain) AS bm25 FROM chunk_fts_plain
                    WHERE chunk_fts_plain MATCH ? ORDER BY bm25 LIMIT ?
                    """, arguments: [match, retriever.fusion.depth]
            ).map { Retriever.Candidate(id: $0["id"], score: -($0["bm25"] as Double)) }
        }
        return Found(
            keyword: found.keyword, plain: plain,
            semantic: found.semantic, signals: found.signals, languages: found.languages)
    }
}
