import Embeddings
import Foundation
import GRDB

/// The library's vectors: one per distinct chunk text and embedder, float32 blobs.
extension LibraryStore {
    /// The embedder the library's vectors come from (`library.embedder` when first added, or `library
    /// reembed`), nil before any.
    public func embedder() async throws -> String? {
        try await writer.read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'embedder'") }
    }

    public func setEmbedder(_ identifier: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting (key, value) VALUES ('embedder', ?)", arguments: [identifier])
        }
    }

    /// Up to `limit` distinct chunk texts that have no vector from `embedder`: (text hash, text).
    public func textsWithoutVectors(embedder: String, limit: Int) async throws -> [(sha256: String, text: String)] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.text_sha256 AS sha, min(c.text) AS text FROM chunk c
                    WHERE NOT EXISTS (SELECT 1 FROM embedding e WHERE e.embedder = ? AND e.text_sha256 = c.text_sha256)
                    GROUP BY c.text_sha256 LIMIT ?
                    """, arguments: [embedder, limit]
            ).map { (sha256: $0["sha"], text: $0["text"]) }
        }
    }

    /// How many distinct chunk texts have (and lack) a vector from `embedder`.
    public func vectorCoverage(embedder: String) async throws -> (embedded: Int, missing: Int) {
        try await writer.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT count(DISTINCT text_sha256) FROM chunk") ?? 0
            let embedded =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM (SELECT DISTINCT text_sha256 FROM chunk) c
                        WHERE EXISTS (SELECT 1 FROM embedding e WHERE e.embedder = ? AND e.text_sha256 = c.text_sha256)
                        """, arguments: [embedder]) ?? 0
            return (embedded, total - embedded)
        }
    }

    public func storeVectors(embedder: String, _ vectors: [(sha256: String, vector: [Float])]) async throws {
        try await writer.write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO embedding (embedder, text_sha256, vector) VALUES (?, ?, ?)")
            for (sha256, vector) in vectors {
                try statement.execute(arguments: [embedder, sha256, Data(vector.storedBytes)])
            }
        }
    }

    /// Removes the vectors no chunk's text needs any more, and every vector of other embedders than `keep`.
    @discardableResult
    public func pruneVectors(keeping keep: String?) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: """
                    DELETE FROM embedding WHERE embedder IS NOT ? OR text_sha256 NOT IN (SELECT text_sha256 FROM chunk)
                    """, arguments: [keep])
            return db.changesCount
        }
    }

    /// Every chunk's vector from `embedder`, as one matrix of chunk ids (a search filters by chunk id).
    public func vectorMatrix(embedder: String) async throws -> VectorMatrix? {
        try await writer.read { db in
            var matrix: VectorMatrix?
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT c.id, e.vector FROM chunk c JOIN embedding e ON e.embedder = ? AND e.text_sha256 = c.text_sha256
                    ORDER BY c.id
                    """, arguments: [embedder])
            while let row = try rows.next() {
                let id: Int64 = row[0]
                try row.withUnsafeData(atIndex: 1) { data in
                    guard let data else { return }
                    if matrix == nil { matrix = VectorMatrix(dimensions: data.count / 4) }
                    data.withUnsafeBytes { _ = matrix!.append(id: id, bytes: $0) }
                }
            }
            return matrix
        }
    }

    /// Moves on with every change to the chunks or the vectors (triggers of migration v6).
    /// and this library's random id (a new library at the same path has another).
    public func vectorGeneration() async throws -> (generation: UInt64, library: String) {
        try await writer.read { db in
            let generation =
                UInt64(try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'generation'") ?? "0") ?? 0
            return (
                generation, try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'library_id'") ?? ""
            )
        }
    }

    /// The memory-mapped copy of the library's vectors, beside the database.
    public var vectorFilePath: String { path + "-vectors" }

    /// The ids of the chunks `filter` lets through.
    public func chunkIDs(_ filter: SearchFilter) async throws -> Set<Int64> {
        try await writer.read { db in
            var sql = "SELECT c.id FROM chunk c JOIN document d ON d.id = c.document_id WHERE 1"
            var arguments: StatementArguments = []
            filter.restrict(&sql, &arguments)
            return Set(try Int64.fetchAll(db, sql: sql, arguments: arguments))
        }
    }

    /// The passages of these chunks, in this order, with the start of their text as the snippet.
    public func hits(chunkIDs ids: [Int64]) async throws -> [SearchHit] {
        guard !ids.isEmpty else { return [] }
        return try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, d.path, d.title, d.type, c.page, c.end_page, c.heading, c.start, c."end", c.text
                    FROM chunk c JOIN document d ON d.id = c.document_id
                    WHERE c.id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))
                    """, arguments: StatementArguments(ids))
            let byID = Dictionary(rows.map { ($0["id"] as Int64, $0) }, uniquingKeysWith: { first, _ in first })
            return ids.compactMap { id in byID[id].map { Self.hit($0, id: id, snippet: Self.opening(of: $0["text"])) } }
        }
    }

    /// The text of these chunks (for telling their language), by id.
    public func passageTexts(_ ids: [Int64]) async throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        return try await writer.read { db in
            var texts: [Int64: String] = [:]
            for row in try Row.fetchAll(
                db,
                sql:
                    "SELECT id, substr(text, 1, 1000) AS text FROM chunk WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))",
                arguments: StatementArguments(ids))
            {
                texts[row["id"]] = row["text"]
            }
            return texts
        }
    }

    /// A passage's first words, about as long as a keyword snippet.
    static func opening(of text: String) -> String {
        let flat = text.split(whereSeparator: \.isWhitespace).prefix(24).joined(separator: " ")
        return flat.count < text.count ? flat + "…" : flat
    }
}
