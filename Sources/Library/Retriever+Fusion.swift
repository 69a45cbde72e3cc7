/// Reciprocal rank fusion of the keyword and semantic rankings.
extension Retriever {
    func fuse(keyword: [SearchHit], semantic: [(id: Int64, score: Float)], k: Int) async throws -> [SearchHit] {
        var fused: [Int64: Double] = [:]
        for (rank, hit) in keyword.enumerated() {
            fused[hit.chunkID, default: 0] += fusion.keywordWeight / (fusion.k + Double(rank + 1))
        }
        for (rank, match) in semantic.enumerated() {
            fused[match.id, default: 0] += fusion.semanticWeight / (fusion.k + Double(rank + 1))
        }
        let best = fused.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(k)
        let keywordHits = Dictionary(keyword.map { ($0.chunkID, $0) }, uniquingKeysWith: { first, _ in first })
        let semanticRanks = Dictionary(
            semantic.enumerated().map { ($1.id, (rank: $0 + 1, score: Double($1.score))) },
            uniquingKeysWith: { first, _ in first })
        let others = try await store.hits(chunkIDs: best.map(\.key).filter { keywordHits[$0] == nil })
        let otherHits = Dictionary(others.map { ($0.chunkID, $0) }, uniquingKeysWith: { first, _ in first })
        return best.compactMap { id, score in
            guard var hit = keywordHits[id] ?? otherHits[id] else { return nil }
            hit.score = score
            if let semantic = semanticRanks[id] {
                hit.semanticRank = semantic.rank
                hit.semanticScore = semantic.score
            }
            return hit
        }
    }
}
