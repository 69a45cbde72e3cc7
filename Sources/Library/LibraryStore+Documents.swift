import Foundation
import GRDB

/// Writing and reading documents. A document's chunks are replaced in one transaction: a reader sees the
/// old chunks or the new ones, never a mix, and a failure leaves the old ones.
extension LibraryStore {
    /// What `store` needs of a document besides its chunks.
    public struct DocumentRecord: Sendable {
        public var path: String
        public var type: DocumentType
        public var size: Int
        public var mtime: Date?
        public var sha256: String
        public var extracted: ExtractedDocument?
        public var error: String?
        /// The chunker's settings (`Chunker.signature`).
        public var chunking: String?

        public init(
            path: String, type: DocumentType, size: Int, mtime: Date?, sha256: String,
            extracted: ExtractedDocument? = nil,
            error: String? = nil
        ) {
            self.path = path
            self.type = type
            self.size = size
            self.mtime = mtime
            self.sha256 = sha256
            self.extracted = extracted
            self.error = error
        }
    }

    /// Stores a document and its chunks, replacing whatever the library had at its path; a record with an
    /// error is kept as a failed document (no chunks). `chunkHash` names a chunk's text.
    public func store(
        _ record: DocumentRecord, chunks: [Chunker.Chunk], now: Date = Date(), chunkHash: (String) -> String
    ) async throws {
        let hashes = chunks.map { chunkHash($0.text) }
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM document WHERE path = ?", arguments: [record.path])
            try db.execute(
                sql: """
                    INSERT INTO document (path, title, type, size, mtime, sha256, pages, status, error, added_at, text, chunking)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.path, record.extracted?.title, record.type.rawValue, record.size,
                    record.mtime.map(Self.timestamp), record.sha256, record.extracted?.pageCount,
                    record.error == nil ? "indexed" : "failed", record.error, Self.timestamp(now),
                    record.extracted?.text,
                    record.chunking,
                ])
            let documentID = db.lastInsertedRowID
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO chunk (document_id, ordinal, page, start, "end", heading, text, text_sha256, end_page)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for (chunk, hash) in zip(chunks, hashes) {
                try insert.execute(arguments: [
                    documentID, chunk.ordinal, chunk.page, chunk.start, chunk.end,
                    chunk.headings.isEmpty ? nil : chunk.headings.joined(separator: " › "), chunk.text, hash,
                    chunk.endPage,
                ])
            }
        }
    }

    /// The SHA-256 the library has for `path`, whether it was indexed, and the chunking it was cut with;
    /// nil when it has none.
    public func fingerprint(of path: String) async throws -> (sha256: String, indexed: Bool, chunking: String?)? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT sha256, status, chunking FROM document WHERE path = ?", arguments: [path])
                .map { ($0["sha256"], ($0["status"] as String) == "indexed", $0["chunking"]) }
        }
    }

    /// Removes the documents whose paths match the GLOB `pattern` (or equal it); their paths.
    @discardableResult
    public func remove(matching pattern: String) async throws -> [String] {
        try await writer.write { db in
            let paths = try String.fetchAll(
                db, sql: "SELECT path FROM document WHERE path = ? OR path GLOB ? ORDER BY path",
                arguments: [pattern, pattern])
            try db.execute(
                sql: "DELETE FROM chunk WHERE document_id IN (SELECT id FROM document WHERE path = ? OR path GLOB ?)",
                arguments: [pattern, pattern])
            try db.execute(sql: "DELETE FROM document WHERE path = ? OR path GLOB ?", arguments: [pattern, pattern])
            return paths
        }
    }

    /// Every document, by path.
    public func documents() async throws -> [LibraryDocument] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.*, (SELECT count(*) FROM chunk WHERE document_id = d.id) AS chunk_count
                    FROM document d ORDER BY path
                    """
            ).map(Self.document)
        }
    }

    /// A document's chunks in order, with the document.
    public func chunks(ofDocumentAt path: String) async throws -> (LibraryDocument, [Chunker.Chunk], text: String)? {
        try await writer.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT d.*, (SELECT count(*) FROM chunk WHERE document_id = d.id) AS chunk_count FROM document d WHERE path = ?
                        """, arguments: [path])
            else { return nil }
            let chunks = try Row.fetchAll(
                db, sql: "SELECT * FROM chunk WHERE document_id = ? ORDER BY ordinal", arguments: [row["id"] as Int64]
            )
            .map { chunk in
                Chunker.Chunk(
                    ordinal: chunk["ordinal"], page: chunk["page"],
                    headings: (chunk["heading"] as String?).map { $0.components(separatedBy: " › ") } ?? [],
                    start: chunk["start"], end: chunk["end"], text: chunk["text"], endPage: chunk["end_page"])
            }
            return (Self.document(row), chunks, row["text"] ?? "")
        }
    }

    static func document(_ row: Row) -> LibraryDocument {
        LibraryDocument(
            id: row["id"], path: row["path"], title: row["title"], type: DocumentType(rawValue: row["type"]) ?? .text,
            size: row["size"], sha256: row["sha256"], pages: row["pages"],
            status: LibraryDocument.Status(rawValue: row["status"]) ?? .failed, error: row["error"],
            chunkCount: row["chunk_count"])
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(
                .colon))
    }
}
