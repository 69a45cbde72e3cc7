import Foundation
import GRDB

/// Keyword search: BM25 over the FTS5 index, one hit per chunk.
extension LibraryStore {
    public struct SearchFilter: Sendable {
        /// Only documents whose path equals this or matches it as a GLOB.
        public var document: String?
        public var type: DocumentType?

        public init(document: String? = nil, type: DocumentType? = nil) {
            self.document = document
            self.type = type
        }

        /// `AND` conditions on the document (aliased `d`) for this filter, after a WHERE clause.
        func restrict(_ sql: inout String, _ arguments: inout StatementArguments) {
            if let document {
                sql += " AND (d.path = ? OR d.path GLOB ?)"
                _ = arguments.append(contentsOf: [document, document])
            }
            if let type {
                sql += " AND d.type = ?"
                _ = arguments.append(contentsOf: [type.rawValue])
            }
        }
    }

    /// The `k` chunks that best match `text` (any text: see `FTSQuery`). Two steps: the `k` best chunk ids by
    /// BM25 from the index alone (joined to the documents only to filter), then the chunks, their documents
    /// and the highlighted snippets of those `k` only: joining and highlighting every matching chunk before
    /// sorting cost more than the ranking itself at 100,000 chunks (Benchmarks/library.sh).
    public func search(_ text: String, k: Int = 10, filter: SearchFilter = SearchFilter()) async throws -> [SearchHit] {
        guard let query = FTSQuery.make(text), k > 0 else { return [] }
        return try await writer.read { db in
            let best = try Self.ranking(db, query: query, k: k, filter: filter)
            let byID = try Self.highlighted(db, query: query, ids: best.map(\.id))
            return best.enumerated().compactMap { rank, best in
                guard var hit = byID[best.id] else { return nil }
                hit.score = best.score
                hit.keywordRank = rank + 1
                hit.keywordScore = best.score
                return hit
            }
        }
    }

    /// The first step alone: the `k` best chunk ids and their BM25 (made positive), for hybrid search, which
    /// highlights only the passages it keeps (`highlighted(_:ids:)`).
    public func keywordRanking(
        _ text: String, k: Int, filter: SearchFilter = SearchFilter()
    ) async throws -> [Retriever.Candidate] {
        guard let query = FTSQuery.make(text), k > 0 else { return [] }
        return try await writer.read { db in try Self.ranking(db, query: query, k: k, filter: filter) }
    }

    /// The second step alone: these chunks as hits, their snippets highlighted for `text` (a chunk it does not
    /// match is left out).
    public func highlighted(_ text: String, ids: [Int64]) async throws -> [Int64: SearchHit] {
        guard let query = FTSQuery.make(text), !ids.isEmpty else { return [:] }
        return try await writer.read { db in try Self.highlighted(db, query: query, ids: ids) }
    }

    static func ranking(_ db: Database, query: String, k: Int, filter: SearchFilter) throws -> [Retriever.Candidate] {
        var sql = "SELECT chunk_fts.rowid AS id, bm25(chunk_fts) AS bm25 FROM chunk_fts"
        if filter.document != nil || filter.type != nil {
            sql += " JOIN chunk c ON c.id = chunk_fts.rowid JOIN document d ON d.id = c.document_id"
        }
        sql += " WHERE chunk_fts MATCH ?"
        var arguments: StatementArguments = [query]
        filter.restrict(&sql, &arguments)
        sql += " ORDER BY bm25 LIMIT ?"
        _ = arguments.append(contentsOf: [k])
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map {
            Retriever.Candidate(id: $0["id"], score: -($0["bm25"] as Double))
        }
    }

    static func highlighted(_ db: Database, query: String, ids: [Int64]) throws -> [Int64: SearchHit] {
        guard !ids.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT c.id, d.path, d.title, d.type, c.page, c.end_page, c.heading, c.start, c."end", c.text,
                       snippet(chunk_fts, 0, char(2), char(3), '…', 24) AS snippet
                FROM chunk_fts
                JOIN chunk c ON c.id = chunk_fts.rowid
                JOIN document d ON d.id = c.document_id
                WHERE chunk_fts MATCH ? AND chunk_fts.rowid IN (\(ids.map { _ in "?" }.joined(separator: ", ")))
                """, arguments: StatementArguments([query] + ids.map { $0 as any DatabaseValueConvertible }))
        var hits: [Int64: SearchHit] = [:]
        for row in rows {
            let id: Int64 = row["id"]
            hits[id] = Self.hit(row, id: id, snippet: row["snippet"])
        }
        return hits
    }

    /// A passage from a row of chunk and document columns (path, title, type, page, end_page, heading,
    /// start, end, text), scored 0.
    static func hit(_ row: Row, id: Int64, snippet: String) -> SearchHit {
        SearchHit(
            chunkID: id, path: row["path"], title: row["title"], type: DocumentType(rawValue: row["type"]) ?? .text,
            page: row["page"], heading: row["heading"], start: row["start"], end: row["end"], text: row["text"],
            score: 0, snippet: snippet, endPage: row["end_page"])
    }

    /// `hits` with `codeStart` set on the passages that begin inside a fenced code block, read from their
    /// documents' text before them: a passage cut out of a long block holds no fence of its own, and its
    /// lines would otherwise read as prose. Only Markdown and HTML (its `<pre>`) are read for fences, and
    /// only from the start of the passage's section: a section starts at a heading, which is never in code,
    /// so no block is open there (its first chunk is the first after one of another heading path).
    public func markingCode(_ hits: [SearchHit]) async throws -> [SearchHit] {
        let ids = hits.filter { $0.type == .markdown || $0.type == .html }.map(\.chunkID)
        guard !ids.isEmpty else { return hits }
        let before = try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, substr(d.text, coalesce(s.start, 0) + 1, c.start - coalesce(s.start, 0)) AS before
                    FROM chunk c JOIN document d ON d.id = c.document_id
                    LEFT JOIN chunk s ON s.document_id = c.document_id AND s.ordinal = 1 + coalesce(
                        (SELECT max(p.ordinal) FROM chunk p
                         WHERE p.document_id = c.document_id AND p.ordinal < c.ordinal AND p.heading IS NOT c.heading),
                        -1)
                    WHERE c.id IN (\(ids.map { _ in "?" }.joined(separator: ", ")))
                    """, arguments: StatementArguments(ids)
            ).reduce(into: [Int64: String]()) { $0[$1["id"]] = $1["before"] }
        }
        return hits.map { hit in
            guard let text = before[hit.chunkID], let fence = CodeFence.open(after: Substring(text)) else { return hit }
            // The passage's first line as far as it comes before it: after the text's last line break.
            let lead = text.lastIndex(of: "\n").map { text[text.index(after: $0)...] } ?? text[...]
            var marked = hit
            marked.codeStart = .init(fence: fence.line, lead: String(lead))
            return marked
        }
    }

    /// Counts for `library stats`.
    public struct Statistics: Sendable {
        public var documentsByType: [(type: String, documents: Int, pages: Int)]
        public var chunks: Int
        public var bytes: Int
        public var failures: [(path: String, error: String)]
    }

    public func statistics() async throws -> Statistics {
        try await writer.read { db in
            let byType = try Row.fetchAll(
                db,
                sql: """
                    SELECT type, count(*) AS documents, coalesce(sum(pages), 0) AS pages FROM document
                    WHERE status = 'indexed' GROUP BY type ORDER BY type
                    """
            ).map { (type: $0["type"] as String, documents: $0["documents"] as Int, pages: $0["pages"] as Int) }
            let chunks = try Int.fetchOne(db, sql: "SELECT count(*) FROM chunk") ?? 0
            let pageCount = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            let failures = try Row.fetchAll(
                db, sql: "SELECT path, error FROM document WHERE status = 'failed' ORDER BY path"
            )
            .map { (path: $0["path"] as String, error: $0["error"] as String? ?? "") }
            return Statistics(documentsByType: byType, chunks: chunks, bytes: pageCount * pageSize, failures: failures)
        }
    }
}
