import GRDB

/// How common a query's terms are in the library, for hybrid search's exact-term check (issue 50).
extension LibraryStore {
    /// How many passages hold each term, counted only up to `limit + 1`: a common term costs no more to count
    /// than a rare one.
    public func passageCounts(of terms: [FTSQuery.Term], upTo limit: Int) async throws -> [Int] {
        guard !terms.isEmpty else { return [] }
        return try await writer.read { db in
            try terms.map { term in
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM (SELECT 1 FROM chunk_fts WHERE chunk_fts MATCH ? LIMIT ?)",
                    arguments: [FTSQuery.query(term), limit + 1]) ?? 0
            }
        }
    }

    /// How many passages the library holds.
    public func passageCount() async throws -> Int {
        try await writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM chunk") ?? 0 }
    }
}
